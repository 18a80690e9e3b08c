"""A board read in a `where` tested over every space: distances, fullness and the kinds on a
space give what the rulebook's geometry gives, and a value that is no space is named."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from dinotable.engine import EngineError, Rules, apply, legal_actions, new_game

RULES = """
name: Board reads
id: board_reads
version: 1
players: {min: 2, max: 2}
items:
  stone: {type: token, copies: 9}
zones:
  pile: {holds: tokens, start: {stone: 9}}
boards:
  field: {rows: 3, cols: 3, holds: tokens}
vars:
  player: {reach: REACH}
actions:
  put:
    args:
      space: {domain: space_of, board: field, empty: true, where: "WHERE"}
    effects:
      - place: {from: pile, board: field, space: $space}
      - end_turn: {}
end:
  trigger: "full(field)"
score: "0"
"""

SPACES = [f"r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3)]


def _rules(load: Callable[[str], Rules], where: str, reach: int = 2, rid: str = "a") -> Rules:
    return load(RULES.replace("WHERE", where).replace("REACH", str(reach))
                .replace("id: board_reads", f"id: board_reads_{rid}"))


def _spaces(state: Any) -> list[str]:
    return [dict(a.args)["space"] for a in legal_actions(state)]


def _steps(a: str, b: str) -> int:
    return abs(int(a[1]) - int(b[1])) + abs(int(a[3]) - int(b[3]))


@pytest.mark.parametrize("reach", [0, 1, 2, 4])
def test_a_distance_tested_over_every_space_is_rows_plus_columns(
        load_text_ruleset: Callable[[str], Rules], reach: int) -> None:
    rules = _rules(load_text_ruleset, "distance(field, 'r2c3', $space) <= reach", reach)
    state = new_game(rules, ["Ann", "Ben"], None, 1)
    assert _spaces(state) == [s for s in SPACES if _steps("r2c3", s) <= reach]
    # From the space tested to a fixed one: the same steps, read the other way round.
    rules = _rules(load_text_ruleset, "distance(field, $space, 'r1c1') == reach", reach, "b")
    assert _spaces(new_game(rules, ["Ann", "Ben"], None, 1)) == [
        s for s in SPACES if _steps(s, "r1c1") == reach]


def test_a_value_that_is_no_space_is_named_with_the_rules_line(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    for rid, where in (("a", "distance(field, 'r9c9', $space) < 9"),
                       ("b", "distance(field, $space, 'r0c0') < 9")):
        state = new_game(_rules(load_text_ruleset, where, 2, rid), ["Ann", "Ben"], None, 1)
        with pytest.raises(EngineError, match=r"rules\.yaml:\d+: .*'r[09]c[09]' is not a "
                                              r"space of field"):
            legal_actions(state)


def test_the_game_ends_when_the_last_space_is_filled_and_not_before(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = _rules(load_text_ruleset, "distance(field, 'r2c2', $space) <= reach")
    for seed in range(5):
        state = new_game(rules, ["Ann", "Ben"], None, seed)
        rng = random.Random(seed)
        for placed in range(1, 10):
            assert not state.game_over
            moves = legal_actions(state)
            assert len(moves) == 10 - placed  # every empty space, each once
            apply(state, moves[rng.randrange(len(moves))])
        assert state.game_over
