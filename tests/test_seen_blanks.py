"""What a seat may know of a game: at every step of seeded games of every shipped game and
fixture, and for every seat and a spectator, exactly the items the visibility rules hide are
blank in the seat's seen state, and only the others keep their ids."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import FIXTURES

from dinotable.bots import heuristic_policy
from dinotable.engine import GameState, apply, can_see, legal_actions, new_game, seen_state
from dinotable.engine.facing import sees_face
from dinotable.ruleset import installed_rulesets, load_ruleset

FOLDERS = [*installed_rulesets(), *sorted((FIXTURES / "good_rulesets").iterdir())]


def _hidden_by_the_rules(state: GameState, seat: int | None) -> set[int]:
    """Each item in a zone, tested one by one as the rules word it."""
    hidden = set()
    for zname, lists in state.zones.items():
        per_player = state.rules.zones[zname].per_player
        for owner, content in enumerate(lists):
            opened = zname in state.shown
            seen = opened or can_see(state.rules, zname, owner if per_player else None, seat)
            for i in content:
                if not seen or not (opened or sees_face(state, i, zname, owner, seat)):
                    hidden.add(i)
    return hidden


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_a_seen_state_blanks_exactly_what_the_seat_may_not_see(folder: Path) -> None:
    rules = load_ruleset(folder)
    seats = min(rules.max_players, max(rules.min_players, 3))
    state = new_game(rules, [f"P{i}" for i in range(seats)], None, 2)
    rng = random.Random(2)
    for step in range(150):
        if state.game_over:
            break
        if step % 3 == 0:
            for seat in (None, *range(seats)):
                seen = seen_state(state, seat)
                hidden = _hidden_by_the_rules(state, seat)
                blank = {i for i, item in enumerate(seen.items) if item is not state.items[i]}
                assert blank == hidden, (step, seat)
                assert all(seen.items[i].kind == "?" for i in hidden)
                assert seen.item_ids == {k: v for k, v in state.item_ids.items()
                                         if v not in hidden}
        apply(state, heuristic_policy(state, legal_actions(state), rng), False)
