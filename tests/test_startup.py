"""Start-up: the title's first frame waits on nothing it does not show, and the games'
rules are read while the title stays live."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from dinotable.app import App
from dinotable.paths import rulesets_dir
from dinotable.scenes import title_entries as title_module
from dinotable.scenes.crash import CrashScene
from dinotable.scenes.setup import SetupScene
from dinotable.scenes.title import TitleScene

ROOT = Path(__file__).resolve().parent.parent
SLOW_S = 0.8  # how much longer the games take to read in the test of a slow read

# Run as `python -m dinotable` is: the first flip of the window reports what was imported.
FIRST_FRAME = """
import os, sys, pygame
flip = pygame.display.flip
def first_flip():
    flip()
    print(" ".join(sorted(sys.modules)), flush=True)
    os._exit(0)
pygame.display.flip = first_flip
from dinotable.cli import main
main(["--frames", "1"])
"""


def test_the_first_frame_imports_neither_yaml_nor_the_rules_engine_nor_physics(
        tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "DINOTABLE_HOME": str(tmp_path / "home"),
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH"))
                                         if p)}
    done = subprocess.run([sys.executable, "-c", FIRST_FRAME], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    modules = set(done.stdout.split())
    assert "dinotable.scenes.title" in modules  # the title was what was shown
    for heavy in ("yaml", "pymunk", "dinotable.engine", "dinotable.ruleset", "dinotable.saves",
                  "dinotable.scenes.table"):
        assert heavy not in modules, f"{heavy} is imported before the first frame"


@pytest.fixture
def two_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Dino Hunt Dice and a ruleset whose header reads well but whose rules are broken."""
    shutil.copytree(rulesets_dir() / "dino_hunt_dice", tmp_path / "games" / "dino_hunt_dice")
    broken = tmp_path / "games" / "broken_game"
    broken.mkdir()
    (broken / "rules.yaml").write_text("id: broken_game\nname: Broken\nplayers: {min: 2}\n",
                                       encoding="utf-8")
    monkeypatch.setenv("DINOTABLE_RULESETS", str(tmp_path / "games"))
    return tmp_path / "games"


def _open_title(app: App) -> TitleScene:
    """The title as the running app opens it: first frame drawn, games read aside."""
    app.read_aside = True
    title = TitleScene(app, lazy=True)
    app.push(title)
    app.step(dt=1 / 60)  # the first frame: listings only
    assert not title.loaded
    return title


def test_the_running_app_reads_the_games_aside_while_the_title_keeps_drawing(
        app: App, two_games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read = title_module.discover

    def slow_read() -> list[title_module.Entry]:
        time.sleep(SLOW_S)  # a slow disk: reading the games takes this much longer
        return read()

    monkeypatch.setattr(title_module, "discover", slow_read)
    title = _open_title(app)
    start = time.perf_counter()
    steps: list[float] = []
    while not title.loaded:
        assert time.perf_counter() - start < 60, "the games were never read"
        before = time.perf_counter()
        app.redraw = True  # a frame drawn in full every time, as a moving pointer would
        app.step(dt=1 / 60)
        steps.append(time.perf_counter() - before)
        time.sleep(1 / 60)
    assert title.loading is None  # taken by the title
    # Frames went on while the games were read, none of them waiting for the reading.
    assert len(steps) >= 3
    assert max(steps) < SLOW_S / 2, steps
    entries = {e.id: e for e in title.entries}
    assert entries["dino_hunt_dice"].rules is not None
    assert entries["broken_game"].rules is None
    assert "rules.yaml:" in entries["broken_game"].problem  # the broken game says why
    assert not title.menu.find("game:broken_game").enabled


def test_a_game_picked_while_the_rules_are_read_opens_once_they_are(
        app: App, two_games: Path) -> None:
    title = _open_title(app)
    app.step(dt=1 / 60)  # the reading starts
    assert title.loading is not None
    entry = next(e for e in title.entries if e.id == "dino_hunt_dice")
    assert entry.rules is None
    title.choose(entry)  # waits for the reading, then goes on to the seats
    assert isinstance(app.top, SetupScene) and app.top.rules.id == "dino_hunt_dice"


def test_the_focus_stays_where_it_was_moved_while_the_rules_were_read(
        app: App, two_games: Path) -> None:
    title = _open_title(app)
    app.step(dt=1 / 60)
    title.menu.focus = next(i for i, c in enumerate(title.menu.controls)
                            if c.tag == "saved")
    title.finish_loading()
    assert title.loaded and title.menu.focused.tag == "saved"


def test_a_failure_while_reading_the_games_aside_shows_the_crash_screen(
        app: App, two_games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> list[title_module.Entry]:
        raise OSError("the rulesets folder is unreadable")

    monkeypatch.setattr(title_module, "discover", broken)
    _open_title(app)
    for _ in range(500):
        app.step(dt=1 / 60)
        if isinstance(app.top, CrashScene):
            break
        time.sleep(0.01)
    assert isinstance(app.top, CrashScene) and app.running


def test_the_felt_drawn_straight_onto_the_screen_matches_the_felt_kept(app: App) -> None:
    from dinotable.render import theme

    first = pygame.Surface((640, 360), 0, app.window)
    theme.draw_table_background(first)  # straight onto the surface
    kept = pygame.Surface((640, 360), 0, app.window)
    theme.draw_table_background(kept)  # built aside, kept and blitted
    assert (640, 360) in theme._backgrounds
    for x, y in ((0, 0), (320, 180), (639, 359), (5, 200), (333, 17)):
        assert first.get_at((x, y)) == kept.get_at((x, y))
    # Darker at the edges than in the middle, like a lamp over the table.
    assert sum(first.get_at((0, 0))[:3]) < sum(first.get_at((320, 180))[:3])


@pytest.mark.parametrize("argv", [
    [], ["--frames", "1"], ["--frames=30"], ["--demo"], ["--demo", "--frames", "5"],
    ["--self-test"], ["--frames", "2", "--frames", "3"], ["--frames", "0"], ["--frames", "+5"],
    ["--frames", "05"], ["--frames", "99999999999"], ["--fr", "1"], ["--help"], ["--version"],
    ["play", "dino_hunt_dice"], ["--frames"], ["--frames", "-1"], ["--demo", "extra"],
])
def test_the_window_options_read_without_argparse_read_as_argparse_reads_them(
        argv: list[str]) -> None:
    from dinotable.cli import build_parser, window_args

    quick = window_args(argv)
    if quick is None:
        return  # left to argparse, which reads it (or says what is wrong) as always
    full = build_parser().parse_args(argv)
    assert (quick.command, quick.self_test, quick.demo, quick.frames) == (
        full.command, full.self_test, full.demo, full.frames)


def test_the_window_options_are_read_without_argparse_for_a_plain_launch() -> None:
    from dinotable.cli import window_args

    for argv in ([], ["--frames", "1"], ["--demo"]):
        assert window_args(argv) is not None
