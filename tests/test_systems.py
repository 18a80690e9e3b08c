"""Every place dinotable does something different on Linux, Windows or macOS, checked on any
one of them by faking the others: `sys.platform`, and whatever else the branch reads (the
environment, `ctypes.windll`, an `os.open` or `os.replace` that fails the way Windows makes
it fail, a file system without hard links).

Each test checks what a player on that system would see: where their games are kept, that
a save is still written, that a terminal shows the app's words, what the zip unpacks to.
"""

from __future__ import annotations

import ctypes
import errno
import io
import multiprocessing
import os
import random
import runpy
import shutil
import signal
import stat
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pygame
import pytest
from helpers import load_module

from dinotable import bench, paths, saves
from dinotable.app import NO_DISPLAY_EXIT, App, display_problem, start
from dinotable.engine import apply, new_game, sample_action
from dinotable.render import theme
from dinotable.ruleset import load_by_id
from dinotable.settings import Settings
from dinotable.stop import stop_signals

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
LINUX, WINDOWS, MACOS = "linux", "win32", "darwin"
SYSTEMS = (LINUX, WINDOWS, MACOS)




@pytest.fixture
def on(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Pretend to be on another system: `on("win32")`, `on("darwin")`, `on("linux")`."""
    return lambda system: monkeypatch.setattr(sys, "platform", system)


# --- the data folder (dinotable/paths.py) ---------------------------------------------


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's home folder, and no DINOTABLE_HOME, APPDATA or XDG_DATA_HOME set."""
    folder = tmp_path / "ann"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("USERPROFILE", str(folder))
    for name in ("DINOTABLE_HOME", "APPDATA", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    return folder


def test_windows_keeps_games_in_the_roaming_app_data_folder(
        home: Path, on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch) -> None:
    on(WINDOWS)
    assert paths.user_data_dir() == home / "AppData" / "Roaming" / "dinotable"
    roaming = home / "Profiles" / "Roaming"
    monkeypatch.setenv("APPDATA", str(roaming))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg"))  # a Linux habit: not Windows'
    assert paths.user_data_dir() == roaming / "dinotable"
    Settings(volume=0.25).save()  # the settings land there too
    assert (roaming / "dinotable" / "settings.json").is_file()
    monkeypatch.setenv("APPDATA", "relative")  # never the working directory
    assert paths.user_data_dir() == home / "AppData" / "Roaming" / "dinotable"


def test_macos_keeps_games_in_application_support(
        home: Path, on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch) -> None:
    on(MACOS)
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg"))
    monkeypatch.setenv("APPDATA", str(home / "appdata"))
    folder = home / "Library" / "Application Support" / "dinotable"
    assert paths.user_data_dir() == folder
    Settings(volume=0.25).save()
    assert (folder / "settings.json").is_file()


@pytest.mark.parametrize("system", [LINUX, "freebsd14", "cygwin"])
def test_linux_and_other_unixes_keep_games_in_the_xdg_data_folder(
        home: Path, on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch,
        system: str) -> None:
    on(system)
    monkeypatch.setenv("APPDATA", str(home / "appdata"))
    assert paths.user_data_dir() == home / ".local" / "share" / "dinotable"
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    assert paths.user_data_dir() == home / "data" / "dinotable"
    Settings(volume=0.25).save()
    assert (home / "data" / "dinotable" / "settings.json").is_file()


@pytest.mark.parametrize("system", SYSTEMS)
def test_dinotable_home_wins_on_every_system(
        home: Path, on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch,
        system: str) -> None:
    on(system)
    monkeypatch.setenv("DINOTABLE_HOME", str(home / "stick"))
    assert paths.user_data_dir() == home / "stick"


# --- the display check (dinotable/app.py) ---------------------------------------------


@pytest.fixture
def no_display(monkeypatch: pytest.MonkeyPatch) -> None:
    """No X11 or Wayland display, and no SDL video driver chosen."""
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)


def test_linux_without_a_display_is_told_to_play_in_the_terminal(
        no_display: None, on: Callable[[str], None], capsys: pytest.CaptureFixture[str]
) -> None:
    on(LINUX)
    problem = display_problem()
    assert problem is not None and "dinotable terminal" in problem
    assert start(frames=1) == NO_DISPLAY_EXIT  # and no window is tried
    assert "dinotable needs a display" in capsys.readouterr().err


@pytest.mark.parametrize("system", [WINDOWS, MACOS])
def test_windows_and_macos_always_have_a_display(
        no_display: None, on: Callable[[str], None], system: str) -> None:
    on(system)  # neither has DISPLAY: its windows need none
    assert display_problem() is None


# --- signals (dinotable/app.py) -------------------------------------------------------


@pytest.mark.parametrize("system", [LINUX, MACOS])
def test_on_linux_and_macos_kill_and_ctrl_c_close_the_window_saving(
        on: Callable[[str], None], system: str) -> None:
    on(system)
    assert stop_signals() == [signal.SIGTERM, signal.SIGINT]


def test_on_windows_ctrl_break_closes_the_window_saving_too(
        on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch, app: App) -> None:
    on(WINDOWS)
    ctrl_break = 21  # signal.SIGBREAK's number on Windows
    monkeypatch.setattr(signal, "SIGBREAK", ctrl_break, raising=False)
    assert stop_signals() == [signal.SIGTERM, signal.SIGINT, ctrl_break]
    installed: dict[int, Any] = {}
    handed_back: dict[int, Any] = {}

    def fake_signal(signum: int, handler: Any) -> Any:
        (handed_back if signum in installed else installed)[signum] = handler
        return signal.SIG_DFL

    monkeypatch.setattr(signal, "signal", fake_signal)
    assert app.run(frames=2) == 0
    assert installed == dict.fromkeys(stop_signals(), app._on_signal)
    assert handed_back == dict.fromkeys(stop_signals(), signal.SIG_DFL)
    app._on_signal(ctrl_break, None)  # what Ctrl+Break in the console now does
    assert app.running is False and app.stopped_by == ctrl_break


# --- fonts (dinotable/render/theme.py) ------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_system_draws_with_the_shipped_font_never_a_system_one(
        on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        system: str) -> None:
    on(system)

    def no_system_fonts(*args: object, **kwargs: object) -> None:
        raise AssertionError("a system font was looked up")

    monkeypatch.setattr(pygame.font, "SysFont", no_system_fonts)
    monkeypatch.setattr(pygame.font, "match_font", no_system_fonts)
    # The frozen app's own copy, as on any system's build.
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    theme.forget_fonts()
    try:
        assert theme.font_path() == tmp_path / "assets" / "fonts" / theme.FONT_REGULAR
        assert theme.font_path(bold=True).parent == tmp_path / "assets" / "fonts"
        width, height = theme.font(20).size("Apatosaurus")
        assert width > 50 and height > 10
    finally:
        theme.forget_fonts()


# --- saves, settings and the finished games (dinotable/saves, settings.py) -------------


def _game(moves: int, finished: bool = False) -> saves.SavedGame:
    rules = load_by_id("dino_hunt_dice")
    state = new_game(rules, ["Ann", "Ben"], None, 5)
    rng = random.Random(5)
    while not state.game_over and (finished or len(state.log) < moves):
        apply(state, sample_action(state, rng))
    return saves.SavedGame(rules.id, rules.version,
                           [saves.SavedSeat(n, "human", i) for i, n in enumerate(state.players)],
                           dict(state.options), 5,
                           [(a.player, a.id, a.args) for a in state.log])


def _moves_in(path: Path) -> int:
    return len(saves.read(path).log)


def test_a_save_is_written_where_folders_cannot_be_opened_to_sync_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Windows: os.open of a folder fails ("Permission denied"); there the rename is
    # already journalled, and the save must still be written.
    real_open = os.open
    refused: list[str] = []

    def windows_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.path.isdir(path):
            refused.append(str(path))
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", windows_open)
    game = _game(6)
    assert saves.try_write(game, sync_folder=True) is None
    assert refused == [str(saves.autosave_path().parent)]
    assert _moves_in(saves.autosave_path()) == 6
    assert not saves.autosave_path().with_suffix(".tmp").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="Windows cannot open a folder at all: "
                    "the test above")
def test_a_save_is_written_where_a_folder_cannot_be_synced(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Some file systems (network shares, a few on macOS) open a folder but refuse to sync it.
    real_fsync = os.fsync
    refused: list[int] = []

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            refused.append(fd)
            raise OSError(errno.EINVAL, "Invalid argument")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    assert saves.try_write(_game(4), sync_folder=True) is None
    assert len(refused) == 1
    assert _moves_in(saves.autosave_path()) == 4


def _held(monkeypatch: pytest.MonkeyPatch, name: str) -> list[str]:
    """Make `name` a file another process holds open, as on Windows: replacing it, or
    renaming or deleting it, fails with "Access is denied". Returns the refusals."""
    refused: list[str] = []
    real_replace, real_unlink = os.replace, Path.unlink

    def replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        if name in (Path(src).name, Path(dst).name):
            refused.append(f"replace {Path(dst).name}")
            raise PermissionError(errno.EACCES, "Access is denied", str(dst))
        real_replace(src, dst, *args, **kwargs)

    def unlink(self: Path, missing_ok: bool = False) -> None:
        if self.name == name:
            refused.append(f"unlink {name}")
            raise PermissionError(errno.EACCES, "Access is denied", str(self))
        real_unlink(self, missing_ok)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(Path, "unlink", unlink)
    return refused


def test_a_save_held_by_another_program_is_reported_kept_and_written_the_next_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The whole save being written (a move's own line goes to the journal beside it).
    slot = saves.autosave_path()
    assert saves.try_write(_game(4), compact=True) is None
    with monkeypatch.context() as held:
        refused = _held(held, slot.name)
        problem = saves.try_write(_game(8), compact=True)
    assert refused and problem is not None
    assert str(slot) in problem and "Access is denied" in problem
    assert _moves_in(slot) == 4  # the game is still there, as it was
    assert not slot.with_suffix(".tmp").exists()
    assert saves.try_write(_game(8), compact=True) is None  # let go of, it is written
    assert _moves_in(slot) == 8


def test_settings_held_by_another_program_are_kept_as_they_were(
        monkeypatch: pytest.MonkeyPatch) -> None:
    Settings(volume=0.25).save()
    with monkeypatch.context() as held:
        refused = _held(held, "settings.json")
        Settings(volume=0.9).save()  # no error in the player's face
    assert refused
    assert Settings.load().volume == 0.25
    assert not (paths.user_data_dir() / "settings.json.tmp").exists()


def test_a_finished_game_held_by_another_program_is_archived_once_it_is_let_go(
        monkeypatch: pytest.MonkeyPatch) -> None:
    slot = saves.autosave_path()
    assert saves.try_write(_game(0, finished=True)) is None
    with monkeypatch.context() as held:
        refused = _held(held, slot.name)
        assert saves.archive(slot) is None
    assert refused and slot.is_file()  # left where it was: archived next time
    assert saves.archive(slot) is not None
    assert not slot.exists()
    assert len(saves.list_finished()) == 1


def test_saves_rotate_on_a_stick_without_hard_links(monkeypatch: pytest.MonkeyPatch) -> None:
    # FAT and exFAT sticks (a game-night stick, on any system) cannot hard-link: the save
    # before is kept by renaming it instead.
    tried: list[str] = []

    def no_links(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        tried.append(Path(dst).name)
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    slot = saves.autosave_path()
    for moves in (3, 6, 9):  # whole saves: a move's own line only joins the journal
        assert saves.try_write(_game(moves), compact=True) is None
    assert "autosave.1.yaml" in tried
    assert [_moves_in(p) for p in saves.rotation_paths(slot)] == [9, 6, 3]


# --- the Windows console (packaging/launcher.py) ----------------------------------------


@pytest.fixture
def launcher() -> ModuleType:
    return load_module(PACKAGING / "launcher.py", "packaging_launcher")


def _windowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a windowed (no console) Windows build starts with: no stdout, no stderr. (In
    the test itself: pytest sets its own capture again between a fixture and the test.)"""
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)


def _fake_windows(monkeypatch: pytest.MonkeyPatch, launcher: ModuleType,
                  parent_console: bool) -> tuple[list[int], list[str]]:
    """ctypes.windll.kernel32.AttachConsole answering as Windows would, and `open` of the
    console's output; returns the AttachConsole calls and the files opened."""
    attached: list[int] = []
    opened: list[str] = []

    def attach_console(pid: int) -> int:
        attached.append(pid)
        return 1 if parent_console else 0

    def fake_open(path: str, mode: str = "r", **kwargs: Any) -> io.StringIO:
        opened.append(path)
        assert mode == "w" and kwargs.get("encoding") == "utf-8"
        return io.StringIO()

    monkeypatch.setattr(ctypes, "windll", SimpleNamespace(
        kernel32=SimpleNamespace(AttachConsole=attach_console)), raising=False)
    monkeypatch.setattr(launcher, "open", fake_open, raising=False)
    return attached, opened


def _borrow_on_windows(launcher: ModuleType, on: Callable[[str], None],
                       monkeypatch: pytest.MonkeyPatch, parent_console: bool
                       ) -> tuple[list[int], list[str]]:
    """A windowed Windows start, with or without a terminal behind it: what it attached to
    and what it opened."""
    on(WINDOWS)
    _windowed(monkeypatch)
    attached, opened = _fake_windows(monkeypatch, launcher, parent_console=parent_console)
    launcher._borrow_console()
    return attached, opened


def test_windows_started_from_a_terminal_writes_to_that_terminal(
        launcher: ModuleType, on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    attached, opened = _borrow_on_windows(launcher, on, monkeypatch, parent_console=True)
    assert attached == [-1]  # ATTACH_PARENT_PROCESS: the terminal it was started from
    assert opened == ["CONOUT$", "CONOUT$"]
    assert sys.stdout is not None and sys.stderr is not None
    print("self-test: 1 passed, 0 failed")
    assert isinstance(sys.stdout, io.StringIO)
    assert sys.stdout.getvalue() == "self-test: 1 passed, 0 failed\n"


def test_windows_double_clicked_opens_no_console(
        launcher: ModuleType, on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    attached, opened = _borrow_on_windows(launcher, on, monkeypatch, parent_console=False)
    assert attached == [-1]
    assert opened == [] and sys.stdout is None and sys.stderr is None  # the window is all


def test_windows_with_its_output_redirected_keeps_it(
        launcher: ModuleType, on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    on(WINDOWS)  # `dinotable.exe --self-test > out.txt`: stdout is that file already
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    attached, opened = _fake_windows(monkeypatch, launcher, parent_console=True)
    launcher._borrow_console()
    assert attached == [] and opened == [] and sys.stdout is out


@pytest.mark.parametrize("system", [LINUX, MACOS])
def test_linux_and_macos_never_touch_a_console(
        launcher: ModuleType, on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch,
        system: str) -> None:
    on(system)
    _windowed(monkeypatch)
    monkeypatch.delattr(ctypes, "windll", raising=False)  # as there: no windll at all
    launcher._borrow_console()
    assert sys.stdout is None


def test_the_frozen_app_starts_its_worker_processes_before_anything_else(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A frozen `simulate --jobs` worker on Windows and macOS starts the executable again:
    # freeze_support() must take it over before the console or the command line is read.
    calls: list[str] = []
    monkeypatch.setattr(multiprocessing, "freeze_support", lambda: calls.append("workers"))
    monkeypatch.setattr("dinotable.cli.main", lambda: calls.append("main") or 0)
    # Then Ctrl+C is listened for, before the slow imports the command line brings.
    monkeypatch.setattr("dinotable.stop.listen", lambda: calls.append("listen"))
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(PACKAGING / "launcher.py"), run_name="__main__")
    assert done.value.code == 0
    assert calls == ["workers", "listen", "main"]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_simulate_on_processes_started_afresh_gives_the_summary_of_one(
        monkeypatch: pytest.MonkeyPatch, method: str) -> None:
    # Windows and macOS start worker processes afresh ("spawn": each imports dinotable
    # again and loads the ruleset from its folder); Linux forks them. (multiprocessing reads
    # sys.platform itself, so here the start method is what is faked.)
    from dinotable.sim import simulate

    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"this system cannot {method}")
    real_get_context = multiprocessing.get_context
    used: list[str] = []

    def get_context(name: str | None = None) -> Any:
        used.append(name or method)
        return real_get_context(name or method)

    rules = load_by_id("dino_hunt_dice")
    one = simulate(rules, 2, 6, 3, ["heuristic"])
    monkeypatch.setattr(multiprocessing, "get_context", get_context)
    two = simulate(rules, 2, 6, 3, ["heuristic"], jobs=2)
    assert used == [method]
    timing = ("seconds", "games_per_second", "actions_per_second")
    assert {k: v for k, v in one.items() if k not in timing} == {
        k: v for k, v in two.items() if k not in timing}


# --- the executable's name (dinotable/bench.py, packaging/build.py) --------------------


@pytest.mark.parametrize(("system", "name"), [(LINUX, "dinotable"), (WINDOWS, "dinotable.exe"),
                                              (MACOS, "dinotable")])
def test_bench_finds_the_built_app_by_its_systems_name(
        on: Callable[[str], None], tmp_path: Path, system: str, name: str) -> None:
    (tmp_path / "dinotable").mkdir()
    assert bench.built_executable(tmp_path) is None
    on(system)
    (tmp_path / "dinotable" / name).write_bytes(b"")
    assert bench.built_executable(tmp_path) == tmp_path / "dinotable" / name
    other = "dinotable" if name.endswith(".exe") else "dinotable.exe"
    (tmp_path / "dinotable" / name).rename(tmp_path / "dinotable" / other)
    assert bench.built_executable(tmp_path) is None  # another system's build is not it


@pytest.fixture
def build(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    module = load_module(PACKAGING / "build.py", "packaging_build")
    monkeypatch.setattr(module.platform, "machine", lambda: "x86_64")
    return module


@pytest.mark.parametrize(("system", "tag", "exe"), [
    (LINUX, "linux-x86_64", "dinotable/dinotable"),
    (WINDOWS, "windows-x86_64", "dinotable/dinotable.exe"),
    (MACOS, "macos-x86_64", "dinotable/dinotable"),
])
def test_the_build_names_its_zip_and_executable_for_the_system(
        build: ModuleType, on: Callable[[str], None], tmp_path: Path, system: str, tag: str,
        exe: str) -> None:
    on(system)
    assert build.platform_tag() == tag
    assert Path(build.zip_name(str(tmp_path))).name.endswith(f"-{tag}.zip")
    assert Path(build.executable(str(tmp_path))) == tmp_path / exe
    assert Path(build.executable(str(tmp_path), onefile=True)) == tmp_path / Path(exe).name


def _fake_build(distpath: str, system: str) -> None:
    """What PyInstaller leaves in dist/ on each system (the files' contents aside)."""
    folder = Path(distpath) / "dinotable"
    (folder / "_internal").mkdir(parents=True)
    (folder / ("dinotable.exe" if system == WINDOWS else "dinotable")).write_bytes(b"exe")
    (folder / "_internal" / "base_library.zip").write_bytes(b"zip")
    if system == MACOS:
        contents = Path(distpath) / "dinotable.app" / "Contents"
        (contents / "MacOS").mkdir(parents=True)
        (contents / "MacOS" / "dinotable").write_bytes(b"exe")
        (contents / "Info.plist").write_text("<plist/>", encoding="utf-8")


@pytest.mark.parametrize(("system", "top"), [(LINUX, "dinotable"), (WINDOWS, "dinotable"),
                                             (MACOS, "dinotable.app")])
def test_the_zip_unpacks_to_the_app_the_system_opens(
        build: ModuleType, on: Callable[[str], None], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path, capsys: pytest.CaptureFixture[str], system: str, top: str) -> None:
    on(system)
    monkeypatch.setattr(build, "build",
                        lambda distpath, *args: _fake_build(distpath, system) or 9.0)
    dist = tmp_path / "dist"
    assert build.main(["--distpath", str(dist), "--workpath", str(tmp_path / "work")]) == 0
    with zipfile.ZipFile(build.zip_name(str(dist))) as archive:
        names = archive.namelist()
    assert {name.split("/")[0] for name in names} == {top}
    if system == MACOS:  # double-clicked in Finder, it is one app, not a folder
        assert "dinotable.app/Contents/MacOS/dinotable" in names
    exe = "dinotable.exe" if system == WINDOWS else "dinotable"
    assert f"check it: {dist / 'dinotable' / exe} --self-test" in capsys.readouterr().out


# --- the spec (packaging/dinotable.spec) ------------------------------------------------


class _Made:
    """Stands in for PyInstaller's Analysis, PYZ, EXE, COLLECT and BUNDLE: keeps its
    arguments."""

    made: list[_Made]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs
        self.made.append(self)


BINARIES = {
    LINUX: ["libstdc++.so.6", "libgcc_s.so.1", "libz.so.1", "libpython3.11.so.1.0",
            "pygame_ce.libs/libSDL2_image-2-d6906c81.0.so.0.800.12",
            "pygame_ce.libs/libjpeg-a5e764f6.so.62.4.0", "pygame_ce.libs/libtiff-93.so.6.3.0",
            "pygame_ce.libs/libwebp-0c3b7151.so.7.2.0", "pygame_ce.libs/libwebpdemux-ce.so.2",
            "pygame_ce.libs/libsharpyuv-f86ac02c.so.0.1.2",
            "pygame_ce.libs/libSDL2_mixer-2-6719e6f6.0.so.0.800.2",
            "pygame_ce.libs/libfluidsynth-2d6ca569.so.3.5.6",
            "pygame_ce.libs/libpng16-fefdc88d.so.16.58.0",
            "pygame_ce.libs/libfreetype-b83c5fb4.so.6.20.6"],
    WINDOWS: ["SDL2_image.dll", "libjpeg-9.dll", "libtiff-5.dll", "libwebp-7.dll",
              "SDL2_mixer.dll", "libpng16-16.dll", "zlib1.dll", "freetype.dll",
              "libstdc++-6.dll", "python311.dll"],
    MACOS: ["pygame/.dylibs/libSDL2_image-2.0.0.dylib", "pygame/.dylibs/libjpeg.62.dylib",
            "pygame/.dylibs/libtiff.6.dylib", "pygame/.dylibs/libwebp.7.dylib",
            "pygame/.dylibs/libSDL2_mixer-2.0.0.dylib", "pygame/.dylibs/libpng16.16.dylib",
            "pygame/.dylibs/libz.1.dylib", "pygame/.dylibs/libfreetype.6.dylib"],
}
DROPPED = {"SDL2_image", "jpeg", "tiff", "webp", "sharpyuv"}


@pytest.fixture
def spec(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, on: Callable[[str], None]
         ) -> Callable[[str], dict[str, Any]]:
    """Run packaging/dinotable.spec as PyInstaller would on `system`; what it made, by kind."""
    monkeypatch.delenv("DINOTABLE_ONEFILE", raising=False)

    def run(system: str) -> dict[str, Any]:
        on(system)
        made: dict[str, list[_Made]] = {}
        kinds = {kind: type(kind, (_Made,), {"made": made.setdefault(kind, [])})
                 for kind in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")}

        def analysis(*args: Any, **kwargs: Any) -> _Made:
            made_one = kinds["Analysis"](*args, **kwargs)
            made_one.binaries = [(name, f"/site/{name}", "BINARY") for name in BINARIES[system]]
            made_one.datas = [("pygame/freesansbold.ttf", "/site/f.ttf", "DATA"),
                              ("pygame/pygame_icon.bmp", "/site/i.bmp", "DATA")]
            made_one.pure, made_one.scripts = [], []
            return made_one

        namespace = {**kinds, "Analysis": analysis, "SPECPATH": str(PACKAGING),
                     "workpath": str(tmp_path / system), "__name__": "__main__"}
        code = (PACKAGING / "dinotable.spec").read_text(encoding="utf-8")
        exec(compile(code, str(PACKAGING / "dinotable.spec"), "exec"), namespace)
        return {kind: found[0] if len(found) == 1 else found for kind, found in made.items()}

    return run


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_spec_keeps_what_the_app_needs_on_each_system(
        spec: Callable[[str], dict[str, Any]], system: str) -> None:
    made = spec(system)
    collect, analysis = made["COLLECT"], made["Analysis"]
    kept = [Path(name).name for name, *_ in collect.args[1]]
    dropped = [n for n in BINARIES[system] if Path(n).name not in kept]
    images = [n for n in BINARIES[system] if any(d.lower() in n.lower() for d in DROPPED)]
    assert images and set(images) <= set(dropped)  # SDL_image and the codecs under it
    system_libs = ("libstdc++", "libgcc_s", "libz.so")  # Linux's own, see the next test
    assert set(dropped) - set(images) <= {n for n in dropped if n.startswith(system_libs)}
    for needed in ("SDL2_mixer", "png", "freetype"):  # sounds and text
        assert any(needed in name for name in kept), needed
    assert [Path(d[0]).name for d in collect.args[2]] == ["pygame_icon.bmp"]
    shipped = {Path(source).name for source, _ in analysis.kwargs["datas"]}
    assert {"rules.yaml", "rules.md", "OFL.txt", theme.FONT_REGULAR} <= shipped
    assert not {"README.md", "DECISIONS.md"} & {
        Path(source).name for source, folder in analysis.kwargs["datas"]
        if folder.startswith("rulesets")}


def test_the_linux_spec_takes_the_cpp_runtime_from_the_system_and_runs_in_utf8(
        spec: Callable[[str], dict[str, Any]]) -> None:
    made = spec(LINUX)
    kept = [name for name, *_ in made["COLLECT"].args[1]]
    assert not {"libstdc++.so.6", "libgcc_s.so.1", "libz.so.1"} & set(kept)
    assert made["EXE"].args[2] == [("X utf8", None, "OPTION")]
    assert made["EXE"].kwargs["console"] is True and made["EXE"].kwargs["strip"] is True
    excluded = made["Analysis"].kwargs["excludes"]
    assert {"_codecs_jp", "ctypes", "ssl", "pygame.imageext"} <= set(excluded)
    # Hands on phones' server needs these: left out, the app would fail to serve phones.
    assert not {"asyncio", "http", "email", "unicodedata", "concurrent"} & set(excluded)
    assert "BUNDLE" not in made or made["BUNDLE"] == []


def test_the_windows_spec_is_windowed_and_keeps_the_console_code_pages(
        spec: Callable[[str], dict[str, Any]]) -> None:
    made = spec(WINDOWS)
    exe = made["EXE"]
    assert exe.kwargs["console"] is False and exe.kwargs["strip"] is False
    assert str(exe.kwargs["icon"]).endswith(".ico")
    assert exe.args[2] == []  # a Windows console keeps its code page
    excluded = set(made["Analysis"].kwargs["excludes"])
    assert not {"_codecs_jp", "_multibytecodec", "ctypes", "_ctypes"} & excluded
    kept = [name for name, *_ in made["COLLECT"].args[1]]
    assert {"zlib1.dll", "libstdc++-6.dll"} <= set(kept)
    assert "BUNDLE" not in made or made["BUNDLE"] == []


def test_the_macos_spec_makes_an_app_bundle(spec: Callable[[str], dict[str, Any]]) -> None:
    made = spec(MACOS)
    bundle = made["BUNDLE"]
    assert bundle.kwargs["name"] == "dinotable.app"
    assert bundle.args[0] is made["COLLECT"]
    assert str(bundle.kwargs["icon"]).endswith(".icns")
    assert made["EXE"].kwargs["console"] is False and made["EXE"].kwargs["strip"] is False
    assert made["EXE"].args[2] == [("X utf8", None, "OPTION")]
    assert "pygame.macosx" not in made["Analysis"].kwargs["excludes"]


# --- the audit tool's worker processes (tools/audit_table.py) -------------------------


@pytest.fixture
def audit_table(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    module = load_module(ROOT / "tools" / "audit_table.py", "tools_audit_table")
    monkeypatch.setattr(module, "audit_one", lambda index: ([], 1, 1, 0.0, True))
    yield module


def test_the_audit_runs_in_one_process_where_it_cannot_fork(
        audit_table: ModuleType, on: Callable[[str], None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    on(WINDOWS)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])

    def no_pool(*args: object) -> None:
        raise AssertionError("a worker pool was started")

    monkeypatch.setattr(multiprocessing, "get_context", no_pool)
    lines: list[str] = []
    assert audit_table.main(["dino_hunt_dice", "--quick", "--jobs", "2"], lines.append) == 0
    assert lines[0] == "audit_table: this system cannot fork worker processes; auditing in one"
    assert lines[-1].startswith("audited ") and lines[-1].endswith(": 0 faults")


def test_the_audit_forks_its_workers_where_it_can(
        audit_table: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["fork", "spawn"])
    asked: list[str] = []

    class Pool:
        def imap_unordered(self, work: Callable[[int], Any], items: Any) -> Any:
            return map(work, items)

    def get_context(method: str) -> Any:
        asked.append(method)
        return SimpleNamespace(Pool=lambda *args, **kwargs: Pool())

    monkeypatch.setattr(multiprocessing, "get_context", get_context)
    lines: list[str] = []
    assert audit_table.main(["dino_hunt_dice", "--quick", "--jobs", "2"], lines.append) == 0
    assert asked == ["fork"] and not lines[0].startswith("audit_table:")


# --- names without unicodedata (dinotable/names.py asks str.isprintable() instead) ----


def test_names_refuse_exactly_what_unicodedata_calls_unprintable() -> None:
    import unicodedata

    from dinotable.names import allowed_in_name, clean_name, name_problem

    refused_categories = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        category = unicodedata.category(ch)
        if category == "Cn":
            continue  # unassigned: refused too, as nothing can draw them
        expected = category in refused_categories
        assert (clean_name(f"A{ch}B") == "AB") == expected, hex(code)
        assert bool(name_problem(f"A{ch}B")) == expected, hex(code)
        assert allowed_in_name(ch) == (ch.isprintable()), hex(code)
    assert name_problem("Ann\u00a0Lee") == "" and clean_name("Ann\u3000") == "Ann"
    assert name_problem("Ann\u202e") and clean_name("\u200bAnn\u2028") == "Ann"
