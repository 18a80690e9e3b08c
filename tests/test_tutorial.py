"""docs/tutorial.md builds a game a reader can follow to the end: what it shows is the game
kept in docs/tutorial/herd_up/, that game is valid, its scenarios pass, bots finish it,
and every command the page shows works as the page says."""

from __future__ import annotations

import io
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from dinotable.check import run_check
from dinotable.cli import main
from dinotable.ruleset import load_ruleset, problems_of
from dinotable.sim import simulate

PAGE = ROOT / "docs" / "tutorial.md"
GAME = ROOT / "docs" / "tutorial" / "herd_up"
READER = "games"  # the folder the page has the reader keep their games in


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    """The page's fenced code blocks in one language, in order."""
    return re.findall(rf"```{language}\n(.*?)```", page(), re.S)


def rules_text() -> str:
    return (GAME / "rules.yaml").read_text(encoding="utf-8")


# --- what the page shows is the game kept beside it -------------------------------------------


def test_the_whole_file_on_the_page_is_the_game_kept_in_docs_tutorial() -> None:
    first_line = rules_text().splitlines()[0]
    whole = [b for b in blocks("yaml") if b.startswith(first_line)]
    assert len(whole) == 1, "the page should show rules.yaml whole, once"
    assert whole[0] == rules_text()


def test_every_step_shown_is_part_of_the_finished_rules() -> None:
    text = rules_text()
    steps = [b for b in blocks("yaml") if not b.startswith(("#", "name:"))]
    assert len(steps) >= 8, "the page builds the rules a section at a time"
    for step in steps:
        assert step in text, f"a step the page shows is not in rules.yaml:\n{step}"
    # Together the steps build every line of the file.
    shown = {line for step in steps for line in step.splitlines()}
    missing = [line for line in text.splitlines()[1:] if line.strip() and line not in shown]
    assert not missing, f"rules.yaml lines no step explains: {missing}"


def test_every_scenario_shown_is_one_of_the_games_scenario_files() -> None:
    files = {p.read_text(encoding="utf-8") for p in (GAME / "scenarios").glob("*.yaml")}
    shown = [b for b in blocks("yaml") if b.startswith("name:")]
    assert len(shown) >= 2
    for scenario in shown:
        assert scenario in files, f"a scenario on the page differs from its file:\n{scenario}"


# --- the game is real --------------------------------------------------------------------------


def test_the_tutorial_game_validates() -> None:
    assert problems_of(GAME) == []


def test_the_tutorial_games_scenarios_pass_as_dinotable_check_runs_them() -> None:
    out = io.StringIO()
    status = run_check([str(GAME)], out, io.StringIO())
    assert status == 0, out.getvalue()
    lines = out.getvalue().splitlines()
    assert len(lines) == len(list((GAME / "scenarios").glob("*.yaml"))) + 1
    assert lines[-1].endswith(" passed, 0 failed")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_of_the_tutorial_game_all_end(players: int) -> None:
    rules = load_ruleset(GAME)
    for bots in (["heuristic"], ["random"]):
        summary = simulate(rules, players, 200, 1, bots)
        assert summary["games"] == 200
        assert sum(summary["wins"]) >= 200  # someone wins every game (a tie counts twice)
    # The hints play better than chance.
    summary = simulate(rules, 2, 200, 1, ["heuristic", "random"])
    assert summary["wins"][0] > 2 * summary["wins"][1]


# --- every command the page shows ------------------------------------------------------------


def commands() -> list[list[str]]:
    """The command lines of the page's shell blocks, as words."""
    lines = [line for block in blocks("sh") for line in block.splitlines() if line.strip()]
    assert lines, "the page shows no commands"
    return [shlex.split(line) for line in lines]


@pytest.fixture
def reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder like the reader's: `games/herd_up` holding the finished game."""
    shutil.copytree(GAME, tmp_path / READER / "herd_up")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(words: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run a command line from the page through `dinotable.cli.main`, as typed (a window
    draws a few frames and closes; the terminal game is left with q)."""
    monkeypatch.delenv("DINOTABLE_RULESETS", raising=False)
    while words and "=" in words[0]:
        key, _, value = words.pop(0).partition("=")
        monkeypatch.setenv(key, value)
    assert words[0] == "dinotable", words
    argv = words[1:]
    if argv and argv[0] == "play":
        argv += ["--frames", "3"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    capsys.readouterr()
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_every_command_on_the_page_works(reader: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    shown = commands()
    assert {words[words.index("dinotable") + 1] for words in shown} == {
        "validate", "check", "simulate", "play", "terminal"}
    for words in shown:
        status, out, err = run(list(words), monkeypatch, capsys)
        assert status == 0, f"{shlex.join(words)} exited {status}: {err}"
        command = words[words.index("dinotable") + 1]
        if command == "validate":
            assert out.startswith("ok herd_up\n")
        if command == "terminal":
            assert "Herd Up: Ann, Ben" in out


def test_the_output_the_page_shows_is_what_the_commands_print(
        reader: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    outputs = blocks("text")
    by_command = {words[words.index("dinotable") + 1]: words for words in commands()}
    _, checked, _ = run(list(by_command["check"]), monkeypatch, capsys)
    assert checked in outputs, f"dinotable check prints:\n{checked}"
    _, simulated, _ = run(list(by_command["simulate"]), monkeypatch, capsys)
    shown = next(b for b in outputs if b.startswith("Herd Up: "))
    # The seeded games are the same on any machine; only their speed (left off) is not.
    assert simulated.startswith(shown), f"dinotable simulate prints:\n{simulated}"


def test_the_misspelling_the_page_shows_is_reported_as_the_page_says(
        reader: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    rules = reader / READER / "herd_up" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    line = "  stegosaurus: {type: card, copies: 6, points: 2, text: Worth 2 points.}"
    assert line in text
    rules.write_text(text.replace(line, line.replace("points:", "pionts:")), encoding="utf-8")
    shown = next(b for b in blocks("text") if "pionts" in b).strip()
    validate = next(words for words in commands() if "validate" in words)
    status, _, err = run(list(validate), monkeypatch, capsys)
    assert status == 2
    assert shown in err.splitlines(), err
