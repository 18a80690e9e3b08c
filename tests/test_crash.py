"""The crash screen: a scene that raises never closes the app or loses the game; the
screen says what happened, where the log is, and resumes the game at the same move."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from dinotable import saves
from dinotable.app import App
from dinotable.engine import Rules
from dinotable.paths import user_data_dir
from dinotable.scenes import crash, title
from dinotable.scenes.crash import CrashScene, LastResortScene
from dinotable.scenes.message import MessageScene
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.scenes.title import TitleScene


def key(app: App, k: int) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)])


def click(app: App, pos: tuple[int, int]) -> None:
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)])


def bot_table(app: App, rules: Rules, moves: int) -> TableScene:
    """Title, then a table of two bots that has played at least `moves` moves."""
    app.push(TitleScene(app))
    seats = [Seat("Ann", "heuristic", 0), Seat("Ben", "heuristic", 1)]
    table = TableScene(app, rules, seats, {n: o.default for n, o in rules.options.items()},
                       seed=77)
    app.push(table)
    for _ in range(5000):
        if len(table.state.log) >= moves:
            break
        app.step(dt=0.4)
    assert len(table.state.log) >= moves
    return table


def crash_logs() -> list[Path]:
    return sorted(user_data_dir().glob("crash-*.log"))


def boom(*args: Any, **kwargs: Any) -> None:
    raise RuntimeError("the dice would not draw")


def test_a_crash_at_the_table_shows_the_screen_logs_it_and_resumes_at_the_same_move(
        app: App, dhd: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    table = bot_table(app, dhd, moves=4)
    before = table.state.to_dict()
    moves = len(table.state.log)
    with monkeypatch.context() as patch:
        patch.setattr(TableScene, "draw_sprites", boom)
        app.step()
    screen = app.top
    assert isinstance(screen, CrashScene)
    assert screen.words == "Something went wrong while drawing the table."
    assert app.running
    [log] = crash_logs()
    text = log.read_text(encoding="utf-8")
    assert "RuntimeError: the dice would not draw" in text
    assert "draw_sprites" in text  # the traceback, down to the method that raised
    assert "TableScene" in text and "dino_hunt_dice" in text
    assert any(str(log) in line for line in screen.lines())
    # The autosave holds the game as it stood when the screen broke.
    saved, state = saves.load()
    assert state.to_dict() == before
    assert len(saved.log) == moves
    key(app, pygame.K_RETURN)  # "Resume the game" has the focus
    resumed = app.top
    assert isinstance(resumed, TableScene) and resumed is not table
    assert len(resumed.state.log) == moves
    assert resumed.state.to_dict() == before
    assert resumed.rng.getstate() == table.rng.getstate()  # the bots play on as they would
    assert isinstance(app.stack[0], TitleScene)  # Esc from the table leads somewhere


def test_a_game_nobody_has_moved_in_yet_is_kept_when_the_table_breaks(
        app: App, dhd: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    app.push(TitleScene(app))
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1)]
    app.push(TableScene(app, dhd, seats, {"goal": 13}, seed=5))
    assert not saves.autosave_path().exists()
    with monkeypatch.context() as patch:
        patch.setattr(TableScene, "update", boom)
        app.step()
    assert isinstance(app.top, CrashScene)
    assert app.top.words == "Something went wrong while the table was moving on."
    assert app.top.menu.find("resume").enabled
    saved, state = saves.load()
    assert saved.log == [] and state.options["goal"] == 13
    click(app, app.top.menu.find("resume").rect.center)
    assert isinstance(app.top, TableScene) and app.top.state.options["goal"] == 13


def test_a_crash_answering_a_key_names_the_key_press(
        app: App, dhd: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    app.push(TitleScene(app))
    monkeypatch.setattr(TitleScene, "handle", boom)
    key(app, pygame.K_DOWN)
    assert isinstance(app.top, CrashScene)
    assert app.top.words == "Something went wrong while answering your key press on the " \
                            "title screen."
    assert not app.top.menu.find("resume").enabled  # no game was going on
    assert app.top.menu.find("resume").why_disabled


def test_a_title_that_breaks_at_start_up_still_leaves_a_usable_screen(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> list[title.Entry]:
        raise OSError("the rulesets folder is unreadable")

    with monkeypatch.context() as patch:
        patch.setattr(title, "discover", broken)
        app.push(TitleScene(app, lazy=True))
        for _ in range(5):
            app.step()
    assert app.running and isinstance(app.top, CrashScene)
    assert len(crash_logs()) == 1  # one crash, one log: the screen is not re-crashing
    key(app, pygame.K_t)  # "Go to the title": it works now
    app.step()
    assert isinstance(app.top, TitleScene) and app.top.loaded
    key(app, pygame.K_t)  # T on the title is nothing, and the crash screen is gone
    assert isinstance(app.top, TitleScene)
    pygame.image.save(app.window, str(user_data_dir() / "title.png"))


def test_a_crash_inside_the_crash_screen_falls_back_to_the_title_with_a_message(
        app: App, dhd: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    bot_table(app, dhd, moves=1)
    with monkeypatch.context() as patch:
        patch.setattr(TableScene, "draw_sprites", boom)
        patch.setattr(CrashScene, "draw", boom)
        app.step()
    for _ in range(3):
        app.step()
    assert isinstance(app.top, MessageScene)
    assert isinstance(app.stack[0], TitleScene)
    assert any("drawing the table" in line for line in app.top.lines)
    assert app.running


def test_crashes_in_every_frame_end_on_a_last_screen_and_then_close(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TitleScene, "draw", boom)
    monkeypatch.setattr(CrashScene, "draw", boom)
    app.push(TitleScene(app, lazy=True))
    for _ in range(4):
        app.step()
    assert isinstance(app.top, LastResortScene) and app.running
    monkeypatch.setattr(LastResortScene, "draw", boom)
    app.step()
    assert not app.running  # closed, rather than a loop of broken screens


def test_only_the_last_ten_crash_logs_are_kept(app: App) -> None:
    folder = user_data_dir()
    for n in range(13):
        path, why = crash.write_log(app, RuntimeError(f"crash {n}"), "draw", object(), folder)
        assert path is not None and why == ""
    logs = crash_logs()
    assert len(logs) == crash.KEEP_LOGS
    texts = " ".join(p.read_text(encoding="utf-8") for p in logs)
    assert "crash 12" in texts and "crash 0\n" not in texts


def test_a_log_that_cannot_be_written_is_said_in_words(app: App, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    path, why = crash.write_log(app, RuntimeError("x"), "update", object(), blocker / "sub")
    assert path is None and str(blocker) in why
    screen = CrashScene(app, "Something went wrong.", None, why)
    assert any("could not be written" in line for line in screen.lines())
