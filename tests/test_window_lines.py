"""A failure inside a response window's flow names the ruleset's line, as one met through the
heuristic bot always did: the effects after a window, and a `when` holding a window."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES

from dinotable.engine import EngineError, apply, new_game, sample_action
from dinotable.ruleset import load_ruleset

AFTER = '''      - when: "outcome == 'hit'"
        then:'''


def _respond_with(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "fixture_respond"
    shutil.copytree(FIXTURES / "good_rulesets" / "fixture_respond", folder)
    rules = folder / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    assert old in text
    rules.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def _failure(folder: Path) -> str:
    rules = load_ruleset(folder)
    for seed in range(20):
        state = new_game(rules, ["Ann", "Ben", "Cy"], None, seed)
        rng = random.Random(seed)
        try:
            while not state.game_over:
                apply(state, sample_action(state, rng))
        except EngineError as exc:
            return str(exc)
    raise AssertionError("no game met the failure")


def _line_of(folder: Path, text: str) -> int:
    lines = (folder / "rules.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_a_failure_in_the_effects_after_a_window_names_its_line(tmp_path: Path) -> None:
    folder = _respond_with(tmp_path, AFTER, AFTER.replace(
        "outcome == 'hit'", "outcome == 'hit' and 10 // (points - points) > 0"))
    message = _failure(folder)
    line = _line_of(folder, "10 // (points - points)")
    assert re.match(rf".*fixture_respond/rules\.yaml:{line}: actions\.attack\.effects\[3\]"
                    r"\.when: division or modulo by zero", message), message
    assert "(while" not in message


def test_a_failure_in_a_when_that_holds_a_window_names_its_line(tmp_path: Path) -> None:
    window = "      - respond: {window: after_attack, ask: others_then_me}\n"
    folder = _respond_with(tmp_path, window, (
        "      - when: \"10 // (points - points) > 0\"\n"
        "        then:\n  " + window))
    message = _failure(folder)
    line = _line_of(folder, "10 // (points - points)")
    assert re.match(rf".*fixture_respond/rules\.yaml:{line}: actions\.attack\.effects\[2\]"
                    r"\.when: division or modulo by zero", message), message


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_simulate_names_the_line_whichever_bots_play(
        tmp_path: Path, policy: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.cli import main

    _respond_with(tmp_path, AFTER, AFTER.replace(
        "outcome == 'hit'", "outcome == 'hit' and 10 // (points - points) > 0"))
    monkeypatch.setenv("DINOTABLE_RULESETS", str(tmp_path))
    assert main(["simulate", "fixture_respond", "--players", "3", "--games", "20",
                 "--bots", policy]) == 3
    err = capsys.readouterr().err
    assert re.search(r"rules\.yaml:\d+: actions\.attack\.effects\[3\]\.when", err), err
