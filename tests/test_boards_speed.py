"""Large boards stay quick: a 300-space field plays to its end with heuristic bots, and
listing a turn's moves (and a bot's scoring of them) grows in step with the spaces.

Speed is guarded only as a ratio of two timings taken side by side in one run.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import FIXTURES

from dinotable import check, scenarios
from dinotable.bench_growth import (
    FILLED,
    best_times,
    boards_line,
    choosing,
    field_rules,
    listing,
    measure_boards,
    position,
)
from dinotable.bots import heuristic_policy
from dinotable.engine import apply, legal_actions, new_game, scores
from dinotable.ruleset import load_ruleset

# Kept apart from the games the table audit plays (good_rulesets/): the table cannot yet lay
# out a board of 300 spaces to be read and clicked at every window size.
LARGE = FIXTURES / "large_boards" / "fixture_grid_large"
ROWS, COLS = 15, 20


def test_the_large_field_scenarios_pass() -> None:
    files = sorted((LARGE / "scenarios").glob("*.yaml"))
    assert len(files) == 2
    for path in files:
        outcome = check.run_scenario(scenarios.load_scenario(path))
        assert outcome.passed, f"{path.name}: {outcome.reason}"


def _adjacent_pairs(rows: int, cols: int) -> int:
    return rows * (cols - 1) + (rows - 1) * cols


@pytest.mark.parametrize("seats", [2, 4])
def test_heuristic_bots_fill_the_300_space_field_and_the_game_ends(seats: int) -> None:
    rules = load_ruleset(LARGE)
    state = new_game(rules, [f"P{i}" for i in range(seats)], None, seats)
    rng = random.Random(seats)
    moves = 0
    while not state.game_over and moves < 1000:
        apply(state, heuristic_policy(state, legal_actions(state), rng), False)
        moves += 1
    assert state.game_over and moves == ROWS * COLS
    assert all(len(state.zones[f"field@r{r}c{c}"][0]) == 1
               for r in range(1, ROWS + 1) for c in range(1, COLS + 1))
    assert state.zones["supply"][0] == []
    # The first piece goes anywhere; every later one builds on, as the bots prefer. Each
    # pair of neighbours then scores once, when its second space fills.
    assert [a.id for a in state.log] == ["place"] + ["build"] * (ROWS * COLS - 1)
    total = 1 + 2 * (ROWS * COLS - 1) + _adjacent_pairs(ROWS, COLS)
    assert sum(scores(state)) == total


def test_random_bots_also_fill_the_field() -> None:
    rules = load_ruleset(LARGE)
    state = new_game(rules, ["A", "B", "C"], None, 5)
    rng = random.Random(5)
    while not state.game_over and len(state.log) < 1000:
        legal = legal_actions(state)
        apply(state, legal[int(rng.random() * len(legal))], False)
    assert state.game_over and len(state.log) == ROWS * COLS


# --- growth: a move's cost against the board's size -------------------------------------
# The bench's grid game (the large field's rules on a board of any size), late in a game.

@pytest.mark.parametrize("filled", [0.5, FILLED])
def test_a_move_on_four_times_the_spaces_costs_about_four_times_as_much(
        tmp_path: Path, filled: float) -> None:
    small = position(field_rules(10, 10, tmp_path), filled)
    large = position(field_rules(20, 20, tmp_path), filled)
    assert len(legal_actions(large)) > 3 * len(legal_actions(small))
    # Linear growth makes both ratios about 4; a cost per space for each space (scoring
    # every option with a count of the whole field) would make them about 16.
    small_s, large_s = best_times([listing(small), listing(large)])
    assert large_s < 8 * small_s, f"listing moves: 400 spaces cost {large_s / small_s:.1f}x"
    small_s, large_s = best_times([choosing(small), choosing(large)])
    assert large_s < 8 * small_s, f"a heuristic move: 400 spaces cost {large_s / small_s:.1f}x"


def test_the_bench_reports_how_a_move_grows_with_the_board() -> None:
    figures = measure_boards(quick=True)
    assert figures["spaces"] == [50, 100, 200, 400]
    assert figures["listing_ratio"][1] == figures["heuristic_move_ratio"][1] == 1
    assert all(t > 0 for t in figures["listing_us"] + figures["heuristic_move_us"])
    assert figures["heuristic_game_moves"] == 300
    assert "300 spaces" in boards_line(figures)
