"""Loops in expressions: `sum`, `count`, `any`, `all`, `max` and `min` over numbers, written
lists, a die's faces, the seats and an action's list argument; definitions taking a face or
a list; what the loader refuses; and the same values whether functions are inlined or
called."""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, only_problem

from dinotable.bots import POLICIES, search
from dinotable.bots.search import Strength
from dinotable.check import run_scenario
from dinotable.engine import Rules, apply, legal_actions, new_game
from dinotable.engine.expr import called_forms
from dinotable.ruleset import load_ruleset
from dinotable.scenarios import load_scenario

GAME = """
id: loops
name: Loops
version: 1
players: {min: 2, max: 3}
dice:
  d6: {faces: [1, 2, 3, 4, 5, 6]}
  pip: {faces: [dot, dot, star]}
items:
  chip: {type: token, copies: 2}
zones:
  tray: {holds: dice, start: {d6: 5}}
  pot: {holds: tokens, start: {chip: 2}}
vars:
  player: {points: 0}
define:
  in_tray(f): "count(tray, f)"
  total_of(xs): "sum(x for x in xs)"
  scored(f, n): "n * (100 if f == 1 else 50 if f == 5 else 0)"
score: "SCORE"
turn:
  start: [{roll: tray}]
actions:
  keep:
    args: {dice: {domain: faces_of, zone: tray, min: 1}}
    effects:
      - add: {points: "sum(f for f in $dice)"}
      - add: {points: "100 * count(f == 6 for f in $dice)"}
      - end_turn: {}
end:
  trigger: "round > 3"
"""

SHOWN = [1, 1, 5, 6, 6]  # the tray's faces in every value below

VALUES = [
    ("sum(n for n in numbers(1, 4))", 10),
    ("sum(n for n in numbers(3, 1))", 0),
    ("sum(n * n for n in numbers(1, 4) if n % 2 == 0)", 20),
    ("count(n % 2 == 0 for n in [1, 2, 3, 4])", 2),
    ("count(n > 1 for n in [1, 2, 3, 4] if n < 4)", 2),
    ("count(c == 'red' for c in [red, blue, red])", 2),
    ("sum(f * count(tray, f) for f in faces(d6))", 19),
    ("count(count(tray, f) >= 2 for f in faces(d6))", 2),
    ("count(f == 'dot' for f in faces(pip))", 1),
    ("1 if any(count(tray, f) >= 3 for f in faces(d6)) else 0", 0),
    ("1 if any(count(tray, f) >= 2 for f in faces(d6)) else 0", 1),
    ("1 if all(count(tray, f) <= 2 for f in faces(d6)) else 0", 1),
    ("1 if all(count(tray, f) >= 1 for f in faces(d6)) else 0", 0),
    ("1 if any(f > 9 for f in faces(d6)) else 2", 2),
    ("1 if all(f > 9 for f in faces(d6) if f > 6) else 0", 1),
    ("max(f for f in faces(d6) if count(tray, f) > 0)", 6),
    ("min(f for f in faces(d6) if count(tray, f) > 0)", 1),
    ("max(f for f in faces(d6) if count(tray, f) > 3)", 0),
    ("min(n for n in [])", 0),
    ("sum(s for s in seats())", 3),
    ("count(of(points, s) == points for s in seats())", 3),
    ("sum(sum(1 for b in numbers(1, a)) for a in numbers(1, 3))", 6),
    ("in_tray(6) + in_tray(1)", 4),
    ("sum(in_tray(f) for f in faces(d6))", 5),
    ("total_of([1, 2, 3]) + total_of(numbers(1, 2))", 9),
    ("sum(f * count_in([6, 6, 1], f) for f in faces(d6))", 13),
    ("sum(scored(f, count(tray, f)) for f in faces(d6))", 250),
    # Five dice thrown: at least one shows a given face 60% of the time, two 20%.
    ("count(chance_of(f, 1, tray, tray, 0) > 0.5 for f in faces(d6))", 6),
    ("sum(count(chance_of(f, n, tray, tray, 0) > 0.5 for f in faces(d6)) for n in [2])", 0),
    ("sum([1, 2, 3]) + (1 if any([0, 1]) else 0) + (1 if all([]) else 0)", 8),
    ("length(numbers(2, 6)) + length(seats()) + length(faces(pip))", 10),
]


def _rules(write_ruleset: Callable[[str], Path], score: str, called: bool) -> Rules:
    folder = write_ruleset(GAME.replace("SCORE", score).replace(
        "id: loops", f"id: loops_{'called' if called else 'inline'}"))
    if not called:
        return load_ruleset(folder)
    with called_forms():
        return load_ruleset(folder)


@pytest.mark.parametrize(("score", "value"), VALUES, ids=[s for s, _ in VALUES])
def test_a_loop_gives_the_same_value_inlined_and_called(
        tmp_path: Path, score: str, value: Any) -> None:
    def write(text: str) -> Path:
        text = textwrap.dedent(text).lstrip("\n")
        rid = text.split("id: ", 1)[1].split("\n", 1)[0]
        folder = tmp_path / rid
        folder.mkdir()
        (folder / "rules.yaml").write_text(text, encoding="utf-8")
        return folder

    for called in (False, True):
        rules = _rules(write, score, called)
        state = new_game(rules, ["Ann", "Ben", "Cy"], None, 1)
        for i, face in zip(state.zone("tray", 0), SHOWN, strict=True):
            state.items[i].face = face
        assert [state.score(s) for s in range(3)] == [value] * 3, (
            f"{score} {'called' if called else 'inlined'}")


def test_a_loop_over_a_faces_of_choice_reads_each_die_named(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(GAME.replace("SCORE", "points"))
    (folder / "scenarios").mkdir()
    path = folder / "scenarios" / "keep.yaml"
    path.write_text(textwrap.dedent("""
        name: the faces kept are added up, and each six kept is 100 more
        ruleset: loops
        players: [Ann, Ben]
        steps:
          - force: [6, 2, 6, 1, 3]
          - act: {id: keep, dice: [6, 6, 1]}
          - expect: {scores: {Ann: 213}}
        """).lstrip("\n"), encoding="utf-8")
    result = run_scenario(load_scenario(path))
    assert result.passed, result.reason


# --- what the loader refuses -------------------------------------------------------------

REFUSED = [
    ("sum(points for points in numbers(1, 3))",
     "the loop name 'points' is already a variable: choose another"),
    ("sum(in_tray for in_tray in [1])", "the loop name 'in_tray' is already a definition"),
    ("sum(round for round in [1])", "the loop name 'round' is already a constant"),
    ("sum(size for size in [1])", "the loop name 'size' is already a function"),
    ("sum(sum(n for n in [1]) for n in [2])", "the loop name 'n' is already a loop name"),
    ("sum(n for n in 3)", "a loop runs over a list (numbers(LO, HI), [1, 2], faces(KIND), "
                          "seats(), a list argument), not over a number (3)"),
    ("sum(n for n in 'abc')", "not over a text ('abc')"),
    ("sum(a * b for a in [1] for b in [2])", "sum(): a loop has one `for`"),
    ("sum(n for n in [1] if n > 0 if n < 3)", "sum(): a loop takes at most one `if`"),
    ("length(n for n in [1, 2])", "a loop is written as the one argument of sum(), count(), "
                                  "any(), all(), max() or min()"),
    ("length([n for n in [1, 2]])", "a loop is written as the one argument of"),
    ("sum(c for c in [red, blue])", "sum() of a loop needs numbers, not a text (c)"),
    ("sum(n for n in faces(chip))", "faces() takes a kind of die; 'chip' is not one"),
    ("sum(in_tray(f) for f in faces(d6)) + missing", "unknown name 'missing'"),
    ("sum(n for (n, m) in [1])", "the loop name is one plain name"),
    ("sum(size(z) for z in [tray])", "size() expects a zone name here: a loop name or a "
                                     "parameter (z) stands for a face only"),
    ("sum(count(tray, f) for f in faces(d6)) + count(tray, f)", "unknown face 'f'"),
]


@pytest.mark.parametrize(("score", "message"), REFUSED, ids=[s for s, _ in REFUSED])
def test_a_misused_loop_is_refused_at_load_naming_the_line(
        write_ruleset: Callable[[str], Path], score: str, message: str) -> None:
    problem = str(only_problem(write_ruleset(GAME.replace("SCORE", score))))
    assert "rules.yaml:19:" in problem and "score:" in problem, problem
    assert message in problem, problem


# --- the fixture: a Farkle-style game played to the end by every bot ------------------------

QUICK = Strength("quick", 25, 5.0, 4, 30, 1, heed=True)


@pytest.mark.parametrize("fixture", ["fixture_loops", "fixture_loops_yacht"])
@pytest.mark.parametrize("bot", ["random", "heuristic", "search"])
def test_the_loops_fixtures_are_played_to_the_end_by_each_bot(fixture: str, bot: str) -> None:
    rules = load_ruleset(FIXTURES / "good_rulesets" / fixture)
    for seed in range(1 if bot == "search" else 4):
        state = new_game(rules, ["Ann", "Ben"], None, seed)
        rng = random.Random(seed)
        for _ in range(2_000):
            if state.game_over:
                break
            legal = legal_actions(state)
            action = (search.search(state, legal, rng, QUICK) if bot == "search"
                      else POLICIES[bot](state, legal, rng))
            assert action in legal
            apply(state, action)
        assert state.game_over, f"{bot}, seed {seed}: no end in 2000 moves"
        if fixture == "fixture_loops":  # the game ends once a player banks 2000
            assert max(state.score(s) for s in range(2)) >= 2000
        else:  # every box filled
            assert all(not state.zone("boxes", s) for s in range(2))


def test_the_heuristic_bot_sets_aside_what_its_define_scores_highest() -> None:
    rules = load_ruleset(FIXTURES / "good_rulesets" / "fixture_loops")
    state = new_game(rules, ["Ann", "Ben"], None, 3)
    for i, face in zip(state.zone("tray", 0), [1, 1, 1, 5, 2, 3], strict=True):
        state.items[i].face = face
    action = POLICIES["heuristic"](state, legal_actions(state), random.Random(0))
    # Three 1s and the 5 (1050) beat every other choice.
    assert action.id == "keep" and sorted(dict(action.args)["dice"]) == [1, 1, 1, 5]


def test_the_heuristic_bot_fills_the_box_its_definition_scores_highest() -> None:
    rules = load_ruleset(FIXTURES / "good_rulesets" / "fixture_loops_yacht")
    state = new_game(rules, ["Ann", "Ben"], None, 3)
    for i, face in zip(state.zone("tray", 0), [2, 3, 4, 5, 6], strict=True):
        state.items[i].face = face
    action = POLICIES["heuristic"](state, legal_actions(state), random.Random(0))
    # `best_box` (every empty box scored) is 40: fill now, in the large straight.
    assert action.id == "fill" and dict(action.args)["box"] == "large_straight"
