"""What a ruleset author met writing classic dice games: `count_in` on dice named by their
faces, an expression folded over several lines, the empty text and a text set without
quotes, and how the reference tells how many dice of a `faces_of` choice show a face."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from dinotable.check import run_scenario
from dinotable.engine import new_game, scores
from dinotable.ruleset import LoadError, load_ruleset
from dinotable.scenarios import load_scenario

README = Path(__file__).resolve().parent.parent / "rulesets" / "README.md"


def scenario(folder: Path, text: str) -> tuple[bool, str]:
    """Write a scenario for the ruleset in `folder`, run it, and give (passed, reason)."""
    (folder / "scenarios").mkdir(exist_ok=True)
    path = folder / "scenarios" / "scenario.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    result = run_scenario(load_scenario(path))
    return result.passed, result.reason


def problems(folder: Path) -> list[str]:
    """The loader's messages for a ruleset that must not load."""
    with pytest.raises(LoadError) as caught:
        load_ruleset(folder)
    return [str(p) for p in caught.value.problems]


# --- a. count_in on a faces_of choice ----------------------------------------------------

SIXES = """
id: sixes
name: Sixes
version: 1
players: {min: 2, max: 2}
dice:
  d6: {faces: [1, 2, 3, 4, 5, 6]}
zones:
  tray: {holds: dice, start: {d6: 5}}
vars:
  player: {points: 0, picked: 0}
score: points
actions:
  keep:
    args: {dice: {domain: faces_of, zone: tray, min: 1}}
    effects:
      - add: {points: "count_in($dice, 6)", picked: "length(matching(tray, $dice))"}
      - end_turn: {}
  keep_ids:
    args: {dice: {domain: subset_of, zone: tray, min: 1}}
    effects:
      - add: {points: "count_in($dice, 6)"}
      - end_turn: {}
turn:
  start: [{roll: tray}]
end:
  trigger: "round > 2"
"""


def test_count_in_counts_the_faces_a_faces_of_choice_names_repeats_and_all(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(SIXES)
    passed, reason = scenario(folder, """
        name: three dice kept, two of them sixes
        ruleset: sixes
        players: [Ann, Ben]
        steps:
          - force: [6, 2, 6, 6, 1]
          - act: {id: keep, dice: [6, 6, 2]}
          - expect: {scores: {Ann: 2}, state: {players.Ann.picked: 3}}
        """)
    assert passed, reason


def test_count_in_still_counts_the_items_of_a_subset_choice(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(SIXES)
    passed, reason = scenario(folder, """
        name: dice chosen by id
        ruleset: sixes
        players: [Ann, Ben]
        steps:
          - force: [6, 2, 6, 6, 1]
          - act: {id: keep_ids, dice: [d61, d62, d63]}
          - expect: {scores: {Ann: 2}}
        """)
    assert passed, reason


# --- b. an expression folded over several lines ------------------------------------------

FOLDED = """
id: folded
name: Folded
version: 1
players: {min: 2, max: 2}
vars:
  player: {points: 4}
define:
  bonus: >-
    10 if points > 3
      else 0
score: >-
  points
    + bonus
actions:
  pass: {effects: [{end_turn: {}}]}
end:
  trigger: "round > 1"
"""


def test_a_folded_expression_with_a_more_indented_line_reads_as_one_line(
        write_ruleset: Callable[[str], Path]) -> None:
    rules = load_ruleset(write_ruleset(FOLDED))
    state = new_game(rules, ["Ann", "Ben"], None, 1)
    assert scores(state) == [14, 14]


# --- c. the empty text, and a text without quotes -----------------------------------------

LAMP = """
id: lamp
name: Lamp
version: 1
players: {min: 2, max: 2}
vars:
  game: {led: "red"}
  player: {points: 0}
score: "points + (1 if led == '' else 0)"
actions:
  dim:
    effects:
      - set: {led: VALUE}
      - end_turn: {}
end:
  trigger: "round > 1"
"""


def test_the_empty_yaml_text_sets_the_empty_text(write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(LAMP.replace("VALUE", '""'))
    passed, reason = scenario(folder, """
        name: dimmed
        ruleset: lamp
        players: [Ann, Ben]
        steps:
          - expect: {scores: {Ann: 0}}
          - act: dim
          - expect: {scores: {Ann: 1, Ben: 1}}
        """)
    assert passed, reason


def test_a_bare_word_set_into_a_text_variable_is_told_to_take_quotes(
        write_ruleset: Callable[[str], Path]) -> None:
    (message,) = problems(write_ruleset(LAMP.replace("VALUE", "blue")))
    assert "rules.yaml:12" in message and "actions.dim.effects[0].set.led" in message
    assert "led is a text variable" in message and "\"'blue'\"" in message


def test_a_bare_word_that_names_a_variable_is_that_variable(
        write_ruleset: Callable[[str], Path]) -> None:
    rules = load_ruleset(write_ruleset(LAMP.replace("VALUE", "led")))
    assert "dim" in rules.actions


# --- d. the reference tells how to count the faces of a faces_of choice ---------------------

def test_the_reference_counts_the_faces_of_a_faces_of_choice() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("### `faces_of`", 1)[1].split("\n### ", 1)[0]
    assert "count_in($dice, 6)" in section
    assert "for f in faces(" in section
