"""Named expressions with parameters (`define: {bonus(k): ...}`) give the same values
however they are called: with their parameters as plain arguments where the body reads
them in its own source, through the call's frame where it hands one to a function compiled
apart, and with every function called rather than inlined."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dinotable.engine import EngineError, Rules, new_game, scores
from dinotable.engine.expr import called_forms

RULES = """
name: Formulas
id: formulas
version: 1
players: {min: 3, max: 3}
properties: {worth: 0}
items:
  gem: {type: token, copies: 3, worth: 4}
zones:
  pile: {holds: tokens, start: {gem: 3}}
vars:
  player: {energy: 2}
define:
  bonus(k): "k * 2 + energy"
  best_with(k): "highest(energy + k * me)"
  nested(k, j): "bonus(k) + bonus(j) * 10"
  kind_worth(k): "prop(kind_of(k), worth)"
  split(k): "10 // k"
actions:
  pass: {effects: [{end_turn: {}}]}
end:
  trigger: "false"
score: "SCORE"
"""


def _scores(load: Callable[[str], Rules], score: str, called: bool = False) -> list[int]:
    text = RULES.replace("SCORE", score)
    if called:
        with called_forms():
            rules = load(text.replace("id: formulas", "id: formulas_called"))
    else:
        rules = load(text)
    state = new_game(rules, ["Ann", "Ben", "Cy"], None, 1)
    state.player_vars[1]["energy"] = 5
    return [int(s) for s in scores(state)]


@pytest.mark.parametrize(("score", "expected"), [
    ("bonus(3)", [8, 11, 8]),
    # The parameter read inside highest(), where every seat is in scope in turn.
    ("best_with(3)", [8, 8, 8]),
    ("nested(1, me)", [24, 77, 64]),
    # Handed to a function compiled apart (kind_of): read through the call's frame.
    ("kind_worth('gem_2')", [4, 4, 4]),
])
def test_a_formula_gives_the_same_values_however_it_is_called(
        load_text_ruleset: Callable[[str], Rules], score: str, expected: list[int]) -> None:
    assert _scores(load_text_ruleset, score) == expected
    assert _scores(load_text_ruleset, score, called=True) == expected


def test_a_failure_inside_a_formula_names_its_line(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    with pytest.raises(EngineError, match=r"rules\.yaml:\d+: .*division"):
        _scores(load_text_ruleset, "split(me)")
