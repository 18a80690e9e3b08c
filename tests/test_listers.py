"""An action's moves, and a window's reactions, listed by generated code are exactly what
the general path lists: the same moves in the same order, at every decision of whole
seeded games of every shipped game and fixture, and for any hand a property test deals."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st

from dinotable.engine import (
    Action,
    EngineError,
    Rules,
    apply,
    legal_actions,
    new_game,
)
from dinotable.engine.decide import _window_defs, combos
from dinotable.engine.expr import Ctx
from dinotable.engine.legality import open_by
from dinotable.engine.listers import answers_lister
from dinotable.ruleset import installed_rulesets, load_ruleset

FOLDERS = [*installed_rulesets(), *sorted((FIXTURES / "good_rulesets").iterdir())]


def _general(state: Any, seat: int, adef: Any) -> list[Action]:
    """An action's moves by the general path: every combination `combos` walks."""
    return [Action(seat, adef.id, combo) for combo in combos(Ctx(state, seat), adef.args)]


def _window_general(state: Any, seat: int, wid: str) -> list[Action]:
    """A window's reactions by the general path: each action's `when`, then `combos`."""
    c = Ctx(state, seat)
    out: list[Action] = []
    for adef in _window_defs(state.rules, wid):
        if adef.when is None or adef.when(c):
            out += _general(state, seat, adef) if adef.args else [Action(seat, adef.id)]
    return out


def _compare(state: Any) -> int:
    """Compare every generated lister open now with the general path; how many were."""
    rules = state.rules
    listers = rules.legal.listers
    compared = 0
    if state.pending:
        frame = state.pending[-1]
        if frame["kind"] == "choose":
            q = rules.questions[frame["q"]]
            made = answers_lister(q.args)
            if made is not None:
                asked = frame["args"]
                assert made(Ctx(state, frame["seat"], dict(asked)), frame["seat"]) == combos(
                    Ctx(state, frame["seat"], dict(asked)), q.args)
                compared += 1
        if frame["kind"] == "window":
            seat = frame["queue"][0]
            generated = rules.legal.windows.get(frame["window"])
            found = generated(Ctx(state, seat), seat) if generated else []
            assert found == _window_general(state, seat, frame["window"])
            compared += 1
        return compared
    seat = state.current
    for aid, lister in listers.items():
        adef = rules.actions[aid]
        if adef.by not in open_by(state, seat) or (
                adef.when is not None and not adef.when(Ctx(state, seat))):
            continue
        assert lister(Ctx(state, seat), seat) == _general(state, seat, adef), aid
        compared += 1
    return compared


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_generated_listing_matches_the_general_path_through_whole_games(folder: Path) -> None:
    rules = load_ruleset(folder)
    compared = 0
    for seats in sorted({rules.min_players, min(rules.max_players, 4)}):
        state = new_game(rules, [f"P{i}" for i in range(seats)], None, 3)
        rng = random.Random(3)
        for _ in range(400):
            if state.game_over:
                break
            compared += _compare(state)
            legal = legal_actions(state)
            apply(state, legal[int(rng.random() * len(legal))], False)
    # The card games list arguments at nearly every decision (others may rarely or never).
    if rules.id in ("dino_hunt", "dino_dude_ranch"):
        assert compared > 100


RULES = """
id: listing
name: Listing
version: 1
players: {min: 2, max: 2}
items:
  gem: {type: token, copies: 3, value: 3}
  rock: {type: token, copies: 3, value: 1}
  shell: {type: token, copies: 3, value: 2}
properties:
  value: 0
zones:
  pile: {holds: tokens, start: {gem: 3, rock: 3, shell: 3}}
  hand: {holds: tokens, per_player: true}
vars:
  player: {budget: 3, div: 1}
actions:
  swap:
    args:
      give: {domain: kind_in, zone: hand, where: "prop($kind, value) <= budget"}
      take: {domain: kind_in, zone: pile, where: "$kind != $give and 6 // div > prop($kind, value)"}
    effects:
      - move: {from: hand, to: pile, item: $give}
      - move: {from: pile, to: hand, item: $take}
      - end_turn: {}
  pass: {effects: [{end_turn: {}}]}
end:
  trigger: "size(pile) == 0"
score: "sum_prop(hand, value)"
"""

KINDS = ("gem", "rock", "shell")


@given(hand=st.lists(st.sampled_from(KINDS), max_size=3, unique=True),
       pile=st.lists(st.sampled_from(KINDS), max_size=3, unique=True),
       budget=st.integers(0, 4))
@settings(max_examples=60, deadline=None)
def test_two_arguments_list_every_pair_that_passes_in_order(
        listing: Rules, hand: list[str], pile: list[str], budget: int) -> None:
    state = new_game(listing, ["Ann", "Ben"], None, 1)
    ids = state.item_ids
    state.zones["hand"][0][:] = [ids[k] for k in hand]
    state.zones["pile"][0][:] = [ids[f"{k}_2"] for k in pile]  # other copies of the kinds
    state.player_vars[0]["budget"] = budget
    value = {"gem": 3, "rock": 1, "shell": 2}
    # Each card given that the budget allows, each taken that differs from it and is worth
    # under 6, in zone order; the pairs sorted by name.
    expected = [(("give", g), ("take", t)) for g in hand if value[g] <= budget
                for t in pile if t != g and value[t] < 6]
    assert [a.args for a in legal_actions(state) if a.id == "swap"] == expected


@pytest.fixture(scope="module")
def listing(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    folder = tmp_path_factory.mktemp("rules") / "listing"
    folder.mkdir()
    (folder / "rules.yaml").write_text(RULES, encoding="utf-8")
    return load_ruleset(folder)


def test_a_failing_test_of_a_later_argument_names_its_line(listing: Rules) -> None:
    state = new_game(listing, ["Ann", "Ben"], None, 1)
    state.zones["hand"][0][:] = [state.item_ids["rock"]]
    state.player_vars[0]["div"] = 0
    line = next(n for n, text in enumerate(RULES.splitlines(), 1) if "6 // div" in text)
    with pytest.raises(EngineError, match=rf"rules\.yaml:{line}: actions\.swap\.args\.take"
                                          r"\.where: division or modulo by zero"):
        legal_actions(state)
