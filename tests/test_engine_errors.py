"""A ruleset that loads but fails at play stops with an EngineError naming its file and line.

What the load-time checks cannot see (a division by a zone that has become empty, a type
hidden behind an argument) must not surface as a Python traceback: the author is told the
rules file, the line and the expression or effect, as `validate` would.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import FIXTURES

import dinotable.ruleset
from dinotable.cli import main
from dinotable.engine import Action, EngineError, Rules, apply, legal_actions, new_game

# Two players take turns moving one die out of the cup; the second take empties it and the
# points it is worth, 10 // size(cup), divide by zero.
DIVIDE = """\
id: divide
name: Divide
version: 1
players: {min: 2, max: 2}
dice:
  d: {faces: [a, b]}
zones:
  cup: {holds: dice, start: {d: 2}}
  out: {holds: dice}
vars:
  player: {points: 0}
  turn: {share: 0}
score: points
actions:
  take:
    effects:
      - move: {from: cup, to: out, count: 1}
      - add: {points: "10 // size(cup)"}
      - end_turn: {}
  split:
    effects:
      - set: {share: "size(out) // size(cup)"}
      - end_turn: {}
  check:
    when: "size(out) == 0 or 10 % size(cup) == 0"
    effects: [{end_turn: {}}]
end:
  trigger: "size(cup) == 0"
"""


@pytest.fixture()
def divide(load_text_ruleset: Callable[[str], Rules]) -> Rules:
    return load_text_ruleset(DIVIDE)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_division_by_an_emptied_zone_names_the_file_line_and_expression(divide: Rules
                                                                          ) -> None:
    state = new_game(divide, ["Ann", "Ben"])
    apply(state, Action(0, "take"))  # the cup holds one die: 10 // 1
    with pytest.raises(EngineError) as caught:
        apply(state, Action(1, "take"))  # the cup is empty: 10 // 0
    line = _line_of(DIVIDE, "10 // size(cup)")
    assert re.fullmatch(
        rf".*divide/rules\.yaml:{line}: actions\.take\.effects\[1\]\.add\.points: "
        r"division or modulo by zero in '10 // size\(cup\)'", str(caught.value))


def test_an_inline_effect_that_fails_names_its_effect_and_expression(divide: Rules) -> None:
    state = new_game(divide, ["Ann", "Ben"])
    apply(state, Action(0, "take"))
    apply(state, Action(1, "split"))  # 1 // 1
    state.zones["cup"][0].clear()  # as if the cup were emptied by some other rule
    state.legal_cache = None
    line = _line_of(DIVIDE, "set: {share")
    with pytest.raises(EngineError, match=rf"rules\.yaml:{line}: actions\.split\.effects\[0\]"
                                          r"\.set\.share: division or modulo by zero in "
                                          r"'size\(out\) // size\(cup\)'"):
        apply(state, Action(0, "split"))


def test_a_when_that_fails_while_listing_actions_names_the_action(divide: Rules) -> None:
    state = new_game(divide, ["Ann", "Ben"])
    apply(state, Action(0, "take"))
    state.zones["cup"][0].clear()
    state.legal_cache = None
    with pytest.raises(EngineError, match=rf"rules\.yaml:{_line_of(DIVIDE, '10 % size')}: "
                                          r"actions\.check\.when: division or modulo by zero"):
        legal_actions(state)


def test_simulate_stops_with_one_line_and_exit_3(divide: Rules, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(dinotable.ruleset, "load_by_id", lambda rid: divide)
    assert main(["simulate", "divide", "--games", "3"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert re.search(r"divide/rules\.yaml:\d+: actions\.\w+\.", err[0]), err


def test_a_game_where_no_action_is_ever_legal_says_so(write_ruleset: Callable[[str], Path]
                                                      ) -> None:
    text = DIVIDE.replace('when: "size(out) == 0 or 10 % size(cup) == 0"', "when: false")
    for action in ("take", "split"):
        text = text.replace(f"  {action}:\n", f"  {action}:\n    when: \"size(cup) > 5\"\n")
    rules = dinotable.ruleset.load_ruleset(write_ruleset(text))
    # The stall names the rules that left nobody able to act, each with its line.
    with pytest.raises(EngineError, match=r"divide/rules\.yaml:\d+: no action is legal for "
                       r"Ann .*take: its `when` 'size\(cup\) > 5' \(line \d+\) is false; "
                       r"split: its `when` 'size\(cup\) > 5' \(line \d+\) is false"):
        legal_actions(new_game(rules, ["Ann", "Ben"]))


def test_check_reports_the_scenario_as_failed_with_the_rules_line(
        divide: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    import dinotable.check as check
    import dinotable.scenarios as scenarios

    monkeypatch.setattr(scenarios, "load_by_id", lambda rid: divide)
    steps = [scenarios.Step(0, 5, "act", "take"), scenarios.Step(1, 6, "act", "take")]
    outcome = check.run_scenario(scenarios.Scenario("s.yaml", "two takes", "divide", ["Ann", "Ben"],
                                                {}, 0, steps))
    assert not outcome.passed
    line = _line_of(DIVIDE, "10 // size(cup)")
    assert re.match(rf"step 2 \(line 6\): .*divide/rules\.yaml:{line}: actions\.take\.",
                    outcome.reason), outcome.reason


def test_a_value_the_table_works_out_names_its_line(divide: Rules) -> None:
    from dinotable.engine.expr import evaluate

    state = new_game(divide, ["Ann", "Ben"])
    state.zones["cup"][0].clear()
    (when,) = [a.when for a in divide.actions.values() if a.when is not None]
    state.zones["out"][0].append(0)
    with pytest.raises(EngineError, match=r"rules\.yaml:\d+: actions\.check\.when: division"):
        evaluate(when, state, 0)


def test_a_game_whose_only_move_has_no_possible_argument_names_that_argument_s_line(
        write_ruleset: Callable[[str], Path]) -> None:
    # The field fills up but the game does not end there: the one action is open, and its
    # `space` has no value left. The stall names the argument's line.
    text = (FIXTURES / "good_rulesets" / "fixture_grid" / "rules.yaml").read_text()
    text = text.replace("empty_spaces(field) == 0", "empty_spaces(field) == -1")
    rules = dinotable.ruleset.load_ruleset(write_ruleset(text))
    state = new_game(rules, ["Ann", "Ben"])
    for _ in range(9):
        apply(state, legal_actions(state)[0])
    line = _line_of(text, "space: {domain: space_of")
    with pytest.raises(EngineError, match=rf"rules\.yaml:{line}: no action is legal for Ben "
                       rf".*place: no choice for its argument 'space' \(line {line}\)"):
        legal_actions(state)


def test_check_fails_a_scenario_whose_set_up_breaks_the_rules_and_goes_on(
        write_ruleset: Callable[[str], Path], capsys: pytest.CaptureFixture[str]) -> None:
    # The game's own set-up (its first round's start) divides by zero; the scenario states
    # a position, so reading it already tries the set-up. It is one located FAIL, exit 1.
    text = (FIXTURES / "good_rulesets" / "fixture_dice" / "rules.yaml").read_text()
    text = text.replace("turn:\n  end:\n", "round:\n  start:\n"
                        "    - add: {banked: \"10 // size(caught)\"}\nturn:\n  end:\n")
    folder = write_ruleset(text)
    (folder / "scenarios").mkdir()
    rid = folder.name
    (folder / "scenarios" / "set_up.yaml").write_text(
        f"name: a position on a broken set-up\nruleset: {rid}\nplayers: [Ann, Ben]\n"
        "setup:\n  players:\n    Ann: {banked: 3}\nsteps:\n  - act: roll\n")
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out.splitlines()
    line = _line_of(text, "10 // size(caught)")
    assert re.fullmatch(rf"FAIL a position on a broken set-up: setting up the game \(setup, "
                        rf"line 4\): .*rules\.yaml:{line}: round\.start\[0\]\.add\.banked: "
                        r"division or modulo by zero in '10 // size\(caught\)'", out[0]), out
    assert out[-1] == "0 passed, 1 failed"


@pytest.mark.parametrize("command", ["check", "validate"])
def test_an_empty_path_is_a_mistake_not_the_current_folder(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, ""])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"dinotable {command}: error:") and "empty path" in err
