"""What the turn flow works out once and reuses (round orders, starting layouts, the usual
options, one context for every seat's score) gives every game what it would get afresh.

- However many games were played before, a new game starts with the same items, zones and
  options as the first one at that number of seats.
- At the end of a game, every seat's score is the one the state gives for that seat alone,
  and the winners are the seats still in contention with the best of them.
- Rounds go round the table from the seat that starts them, in every game played.
"""

from __future__ import annotations

import random

import pytest

from dinotable.engine import new_game, random_playout, scores
from dinotable.engine.state import GameState
from dinotable.ruleset import load_by_id

SHIPPED = ["dino_hunt_dice", "dinosaur_dice", "dino_hunt", "dino_dude_ranch",
           "danger_danger_dinosaur"]


def _start(state: GameState) -> tuple[object, ...]:
    return ([(it.id, it.kind, it.face) for it in state.items],
            {name: [list(c) for c in lists] for name, lists in state.zones.items()},
            sorted(state.shuffled), dict(state.options), state.game_vars,
            state.player_vars, state.turn_vars)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_a_new_game_starts_as_the_first_did_however_many_were_played_before(
        ruleset: str) -> None:
    rules = load_by_id(ruleset)
    players = ["Ann", "Ben", "Cat"][:max(rules.min_players, 2)]
    first = _start(new_game(rules, players, None, 11))
    for seed in range(3):
        state = new_game(rules, players, None, seed)
        random_playout(state, random.Random(seed), 400)
    assert _start(new_game(rules, players, None, 11)) == first


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_the_scores_and_winners_at_the_end_are_each_seats_own(ruleset: str) -> None:
    rules = load_by_id(ruleset)
    counts = [n for n in range(rules.min_players, rules.max_players + 1)
              if not rules.teams or n % rules.teams == 0]
    for seed in range(4):
        seats = counts[seed % len(counts)]
        state = new_game(rules, [f"P{i}" for i in range(seats)], None, seed)
        random_playout(state, random.Random(seed), 20_000)
        assert state.game_over
        own = [state.score(s) for s in range(seats)]
        assert scores(state) == own
        if not rules.teams:
            contending = [s for s in range(seats) if state.active[s] or state.knocked[s]]
            best = max(own[s] for s in contending)
            assert state.winners and all(own[w] == best for w in state.winners)


def test_each_round_goes_round_the_table_from_the_seat_that_starts_it() -> None:
    rules = load_by_id("dino_hunt_dice")
    for seats in (2, 4, 6):
        state = new_game(rules, [f"P{i}" for i in range(seats)], None, seats)
        rng = random.Random(seats)
        while not state.game_over:
            if state.round_pos == 0 and not state.tiebreak:
                start = state.round_order[0]
                assert state.round_order == [(start + k) % seats for k in range(seats)]
            random_playout(state, rng, 1)
