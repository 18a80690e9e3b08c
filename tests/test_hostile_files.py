"""Whatever files a user has cannot stop the app: every YAML is read within bounds (a regular
file, a size, a nesting depth, a number's length), every number a ruleset gives is bounded
at load, and what was typed is echoed cut short. Each problem is one located line, exit 2.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import FIXTURES, run_cli

from dinotable import saves
from dinotable.catalog import read_listing
from dinotable.cli import main
from dinotable.ruleset import LoadError, load_ruleset, problems_of
from dinotable.settings import Settings

DEEP = 1000  # levels: far past the limit, and past what composing YAML recursively survives
unix_only = pytest.mark.skipif(sys.platform == "win32", reason="devices and pipes are POSIX")


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _deep_ruleset(root: Path) -> Path:
    folder = root / "deep_game"
    folder.mkdir(parents=True)
    (folder / "rules.yaml").write_text(
        "id: deep_game\nname: Deep\nplayers: {min: 2, max: 2}\nbots: " + _nested(DEEP) + "\n",
        encoding="utf-8")
    return folder


# --- 1. deep YAML anywhere ------------------------------------------------------------------


def test_a_ruleset_nested_a_thousand_deep_is_one_located_problem_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _deep_ruleset(tmp_path)
    assert main(["validate", str(folder)]) == 2
    err = capsys.readouterr()
    text = err.out + err.err
    assert re.search(r"deep_game/rules\.yaml:4:\d+: \(file\): nested deeper than 64 levels",
                     text), text
    assert "RecursionError" not in text and "internal error" not in text


def test_a_scenario_nested_a_thousand_deep_is_one_located_problem_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "deep.yaml"
    scenario.write_text("name: deep\nruleset: dino_hunt_dice\nsteps: " + _nested(DEEP) + "\n",
                        encoding="utf-8")
    assert main(["check", str(scenario)]) == 2
    err = capsys.readouterr()
    assert re.search(r"deep\.yaml:3:\d+: \(file\): nested deeper than 64 levels",
                     err.out + err.err), err


def test_the_title_lists_a_deep_ruleset_with_its_problem_and_loads_the_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    from dinotable.app import App
    from dinotable.paths import rulesets_dir
    from dinotable.scenes.title import TitleScene

    shutil.copytree(rulesets_dir() / "dino_hunt_dice", tmp_path / "dino_hunt_dice")
    deep = _deep_ruleset(tmp_path)
    # The header is deep too: the title's first frame reads it.
    text = (deep / "rules.yaml").read_text(encoding="utf-8")
    (deep / "rules.yaml").write_text(text.replace("name: Deep", "name: " + _nested(DEEP)),
                                     encoding="utf-8")
    assert "nested deeper than" in read_listing(deep).problem
    monkeypatch.setenv("DINOTABLE_RULESETS", str(tmp_path))
    app = App(settings=Settings())
    try:
        title = TitleScene(app, lazy=True)
        app.push(title)
        app.step(dt=1 / 60)
        app.step(dt=1 / 60)  # the frame after the first loads the rules in full
        entries = {e.id: e for e in title.entries}
        assert entries["dino_hunt_dice"].rules is not None
        assert entries["deep_game"].rules is None
        assert "nested deeper than" in entries["deep_game"].problem
    finally:
        pygame.quit()


def test_a_save_nested_deep_is_refused_at_its_line() -> None:
    path = saves.autosave_path()
    path.parent.mkdir(parents=True)
    path.write_text("format: 2\nseats: " + _nested(DEEP) + "\n", encoding="utf-8")
    with pytest.raises(LoadError, match=r"autosave\.yaml:2:\d+: \(file\): nested deeper"):
        saves.read(path)


# --- 2. files that are not files ---------------------------------------------------------


@unix_only
@pytest.mark.parametrize("command", ["check", "validate"])
def test_a_device_given_on_the_command_line_is_one_line_exit_2(command: str) -> None:
    # /dev/zero never ends: read whole, it would grow until memory runs out.
    done = run_cli(command, "/dev/zero", timeout=30)
    assert done.returncode == 2, done.stderr
    assert "is not a regular file (a device)" in done.stdout + done.stderr
    assert "MemoryError" not in done.stderr


@unix_only
def test_a_pipe_given_to_check_is_refused_rather_than_waited_on(tmp_path: Path) -> None:
    pipe = tmp_path / "scenario.yaml"
    os.mkfifo(pipe)
    done = run_cli("check", str(pipe), timeout=30)  # nobody writes: a read would block
    assert done.returncode == 2
    assert f"{pipe}:1:1: (file): is not a regular file (a pipe)" in done.stdout + done.stderr


@unix_only
def test_rules_linked_to_a_device_fail_validation_without_being_read(tmp_path: Path) -> None:
    folder = tmp_path / "linked"
    folder.mkdir()
    (folder / "rules.yaml").symlink_to("/dev/zero")
    [problem] = problems_of(folder)
    assert problem.message.startswith("is not a regular file (a device)")
    assert read_listing(folder).problem.endswith("is not a regular file (a device); "
                                                 "expected a ruleset")


@unix_only
def test_a_pipe_for_an_autosave_or_the_settings_is_passed_over(tmp_path: Path) -> None:
    home = saves.user_data_dir()
    home.mkdir(parents=True)
    os.mkfifo(home / "settings.json")
    assert Settings.load() == Settings()  # the defaults, at once
    os.mkfifo(saves.autosave_path())
    with pytest.raises(LoadError, match="is not a regular file"):
        saves.read(saves.autosave_path())


def test_a_ruleset_over_its_size_is_refused_before_it_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "huge"
    folder.mkdir()
    (folder / "rules.yaml").write_text("# " + "x" * (1024 * 1024) + "\n", encoding="utf-8")
    [problem] = problems_of(folder)
    assert "bytes; a YAML file is at most 1048576" in problem.message


# --- 3. numbers that validate and then overflow ---------------------------------------------


@pytest.fixture
def deck_with(tmp_path: Path) -> Callable[[str, str], list[str]]:
    """The deck fixture with one line replaced; its problems as text."""

    def problems(old: str, new: str) -> list[str]:
        folder = tmp_path / "fixture_deck"
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(FIXTURES / "good_rulesets" / "fixture_deck", folder)
        rules = folder / "rules.yaml"
        text = rules.read_text(encoding="utf-8")
        assert old in text
        rules.write_text(text.replace(old, new), encoding="utf-8")
        return [str(p) for p in problems_of(folder)]

    return problems


FLAME = "flame: {type: card, cost: 2, points: 3, suit: red}"


@pytest.mark.parametrize("points", ["9" * 400, "10000000000000", "-99999999999", "1e400",
                                    ".inf"])
def test_a_card_property_too_large_for_any_game_is_refused_at_load(
        deck_with: Callable[[str, str], list[str]], points: str) -> None:
    found = deck_with(FLAME, FLAME.replace("points: 3", f"points: {points}"))
    assert found and all("items.flame.points" in p for p in found), found
    assert any("number too large" in p or "expected a number" in p for p in found), found


def test_a_huge_number_inside_a_table_or_a_list_property_is_refused(
        tmp_path: Path, load_text_ruleset: Callable[[str], object]) -> None:
    text = """\
    id: tables
    name: Tables
    version: 1
    players: {min: 2, max: 2}
    properties:
      odds: {1: 0}
      marks: [0]
    items:
      fox: {type: card, odds: {1: 5, 2: 99999999999}}
      owl: {type: card, marks: [1, 2, 77777777777]}
    zones:
      deck: {holds: cards, start: all}
    score: "0"
    actions:
      pass: {effects: [{end_turn: {}}]}
    end: {trigger: "true"}
    """
    with pytest.raises(LoadError) as caught:
        load_text_ruleset(text)
    lines = [str(p) for p in caught.value.problems]
    assert any("items.fox.odds: number too large: 99999999999" in line for line in lines)
    assert any("items.owl.marks: number too large: 77777777777" in line for line in lines)


def test_huge_option_choices_and_die_faces_are_refused(
        load_text_ruleset: Callable[[str], object]) -> None:
    text = """\
    id: faces
    name: Faces
    version: 1
    players: {min: 2, max: 2}
    options:
      goal: {default: 5, choices: [5, 50000000000]}
    dice:
      d: {faces: [1, 2, 30000000000]}
    zones:
      cup: {holds: dice, start: {d: 1}}
    score: "0"
    actions:
      pass: {effects: [{end_turn: {}}]}
    end: {trigger: "true"}
    """
    with pytest.raises(LoadError) as caught:
        load_text_ruleset(text)
    lines = [str(p) for p in caught.value.problems]
    assert any("options.goal.choices: number too large" in line for line in lines), lines
    assert any("dice.d.faces: number too large" in line for line in lines), lines


def test_a_box_of_more_cards_than_a_table_holds_is_refused(
        deck_with: Callable[[str, str], list[str]]) -> None:
    found = deck_with(FLAME, FLAME.replace("type: card,", "type: card, copies: 1000000000,"))
    assert any("items.flame.copies: expected at most 10000" in p for p in found), found


def test_a_game_with_the_largest_allowed_numbers_plays_to_the_end(
        deck_with: Callable[[str, str], list[str]], tmp_path: Path) -> None:
    """At the bound itself nothing overflows: simulate finishes."""
    assert deck_with(FLAME, FLAME.replace("points: 3", "points: 1000000000")) == []
    rules = load_ruleset(tmp_path / "fixture_deck")
    from dinotable.sim import simulate

    assert simulate(rules, 2, 5, 1, ["random"])["games"] == 5


# --- 7. what was typed, echoed cut short ------------------------------------------------------


@pytest.mark.parametrize("value", ["9" * 5000, "x" * 5000])
def test_a_five_thousand_character_option_value_is_echoed_in_sixty(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "dino_hunt_dice", "--players", "2", "--games", "1",
                 "--option", f"goal={value}"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    echoed = max(re.findall(r"[9x]+", err), key=len)
    assert len(echoed) < 60, err
    assert len(err) < 160, err


@pytest.mark.parametrize("seed", ["+-5", "--5", "²", "٣"])
def test_a_seed_that_is_not_a_number_says_what_was_expected(
        seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "dino_hunt_dice", "--games", "1", f"--seed={seed}"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "expected a whole number from 0 to" in err
    assert "_seed" not in err and "invalid" not in err
