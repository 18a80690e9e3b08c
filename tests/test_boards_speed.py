"""Large boards stay quick: a 300-space field plays to its end with heuristic bots, and
listing a turn's moves (and a bot's scoring of them) grows in step with the spaces.

Speed is guarded only as a ratio of two timings taken side by side in one run.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES

from dinotable import check, scenarios
from dinotable.bots import heuristic_policy
from dinotable.engine import GameState, apply, legal_actions, new_game, scores
from dinotable.ruleset import load_ruleset

LARGE = FIXTURES / "good_rulesets" / "fixture_grid_large"
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

def _field(tmp_path: Path, rows: int, cols: int) -> Any:
    """The large field's rules on a board of rows x cols (as many pieces as spaces)."""
    n = rows * cols
    text = (LARGE / "rules.yaml").read_text(encoding="utf-8")
    text = (text.replace(f"rows: {ROWS}, cols: {COLS}", f"rows: {rows}, cols: {cols}")
            .replace("copies: 150", f"copies: {n // 2}")
            .replace("post: 150, stone: 150", f"post: {n // 2}, stone: {n // 2}")
            .replace("> 75", f"> {n // 4}").replace("r8c10", f"r{rows // 2}c{cols // 2}"))
    folder = tmp_path / f"{n}" / "fixture_grid_large"
    folder.mkdir(parents=True)
    (folder / "rules.yaml").write_text(text, encoding="utf-8")
    return load_ruleset(folder)


def _position(rules: Any, filled: float) -> GameState:
    """A game with about this share of the field filled, by seeded random moves."""
    state = new_game(rules, ["A", "B"], None, 3)
    rng = random.Random(3)
    spaces = len(rules.boards["field"].spaces)
    for _ in range(int(spaces * filled)):
        legal = legal_actions(state)
        apply(state, legal[int(rng.random() * len(legal))], False)
    return state


def _listing(state: GameState) -> Callable[[], object]:
    def run() -> object:
        state.legal_cache = None  # listed afresh each time, as after a move
        return legal_actions(state)
    return run


def _choosing(state: GameState) -> Callable[[], object]:
    def run() -> object:
        state.legal_cache = None
        return heuristic_policy(state, legal_actions(state), random.Random(1))
    return run


def _ratio(small: Callable[[], object], large: Callable[[], object]) -> float:
    """How many times longer `large` takes than `small`: each timed alternately, best of
    several, in this one run."""
    best = [float("inf"), float("inf")]
    # The collector's pauses depend on everything else this process holds, not on the board.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(9):
            for k, fn in enumerate((small, large)):
                start = time.perf_counter()
                for _ in range(3):
                    fn()
                best[k] = min(best[k], time.perf_counter() - start)
    finally:
        if collecting:
            gc.enable()
    return best[1] / best[0]


@pytest.mark.parametrize("filled", [0.5, 0.85])
def test_a_move_on_four_times_the_spaces_costs_about_four_times_as_much(
        tmp_path: Path, filled: float) -> None:
    small = _position(_field(tmp_path, 10, 10), filled)
    large = _position(_field(tmp_path, 20, 20), filled)
    assert len(legal_actions(large)) > 3 * len(legal_actions(small))
    # Linear growth makes both ratios about 4; a cost per space for each space (scoring
    # every option with a count of the whole field) would make them about 16.
    listing = _ratio(_listing(small), _listing(large))
    assert listing < 8, f"listing moves: 400 spaces cost {listing:.1f}x 100 spaces"
    choosing = _ratio(_choosing(small), _choosing(large))
    assert choosing < 8, f"a heuristic move: 400 spaces cost {choosing:.1f}x 100 spaces"
