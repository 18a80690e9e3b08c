"""Exit statuses a script can rely on, runaway games ended in words, and a window that closes
promptly (saving first) when the system asks it to."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import io
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from helpers import FIXTURES, ROOT

from dinotable import check, saves, scenarios
from dinotable.app import App
from dinotable.scenes.base import Scene
from dinotable.settings import Settings


def test_simulate_of_rules_that_never_end_says_so_in_one_line(tmp_path: Path) -> None:
    rulesets = tmp_path / "rulesets"
    folder = rulesets / "never_ends"
    folder.mkdir(parents=True)
    text = (FIXTURES / "good_rulesets" / "fixture_dice" / "rules.yaml").read_text()
    text = text.replace("id: fixture_dice", "id: never_ends").replace(
        'trigger: "highest(banked) >= goal"', 'trigger: "highest(banked) < 0"')
    (folder / "rules.yaml").write_text(text)
    done = subprocess.run([sys.executable, "-m", "dinotable", "simulate", "never_ends",
                           "--games", "1"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "DINOTABLE_RULESETS": str(rulesets),
                                            "PYTHONPATH": str(ROOT)})
    assert done.returncode == 3
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("dinotable: error: never_ends: a game (seed ")
    assert "did not end within 100,000 actions" in line


def test_check_tells_a_crash_from_a_failed_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = next((ROOT / "rulesets" / "dino_hunt_dice" / "scenarios").glob("*.yaml"))

    def crash(sc: scenarios.Scenario) -> check.Outcome:
        raise KeyError("zones")

    monkeypatch.setattr(check, "run_scenario", crash)
    out, err = io.StringIO(), io.StringIO()
    assert check.run_check([str(scenario)], out, err) == 3
    lines = out.getvalue().splitlines()
    name = scenarios.load_scenario(scenario).name
    assert lines[0] == f"ERROR {name}: internal error: KeyError: 'zones'"
    assert lines[-1] == "0 passed, 0 failed, 1 crashed"
    assert "Traceback" not in out.getvalue() + err.getvalue()


def test_check_still_exits_1_for_a_failed_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = next((ROOT / "rulesets" / "dino_hunt_dice" / "scenarios").glob("*.yaml"))
    name = scenarios.load_scenario(scenario).name
    monkeypatch.setattr(check, "run_scenario", lambda sc: check.Outcome(name, False, "expected x"))
    out, err = io.StringIO(), io.StringIO()
    assert check.run_check([str(scenario)], out, err) == 1
    assert f"FAIL {name}: expected x" in out.getvalue()


def test_an_internal_error_is_one_line_with_its_own_status(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from dinotable import cli

    def broken(paths: list[str]) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.delenv("DINOTABLE_DEBUG", raising=False)
    monkeypatch.setattr(cli, "cmd_validate", broken)
    assert cli.main(["validate"]) == cli.EXIT_INTERNAL == 3
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("dinotable: internal error: ZeroDivisionError: division by zero")


# --- closing the window when asked -------------------------------------------------------


def _start_play(home: Path, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "DINOTABLE_HOME": str(home), "DINOTABLE_REPORT_FIRST_FRAME": "1",
           "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "dinotable", "play", "dino_hunt_dice",
                             "--players", "Ann,Ben", "--seed", "3", *extra], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if "first frame drawn" in line or not line:
            break
    return proc


@pytest.mark.parametrize("command", [["check"], ["simulate", "dino_hunt_dice", "--games", "20"]])
def test_a_reader_that_stops_early_ends_the_command_quietly(command: list[str]) -> None:
    # As in `dinotable check | head -1`: nobody reads the output any more.
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run([sys.executable, "-m", "dinotable", *command], cwd=ROOT, env=env,
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 141  # as a shell reports a command whose reader went away


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform.startswith("win"),
                    reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_a_signal_closes_the_window_promptly_and_the_game_is_saved(
        tmp_path: Path, signum: int) -> None:
    home = tmp_path / "home"
    proc = _start_play(home)
    try:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.3)
        asked = time.monotonic()
        proc.send_signal(signum)
        code = proc.wait(timeout=5)
        took = time.monotonic() - asked
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 0
    assert took < 2.5
    game, state = saves.load(home / "autosave.yaml")
    assert [s.name for s in game.seats] == ["Ann", "Ben"] and game.seed == 3
    assert not state.game_over
    assert not (home / "autosave.tmp").exists()


class _Stuck(Scene):
    """A scene whose frame never ends (what a quadratic loop over a huge name looked like)."""

    def update(self, dt: float) -> None:
        while True:
            time.sleep(0.01)


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("DINOTABLE_HOME", str(tmp_path / "home"))
    application = App(settings=Settings())
    yield application
    pygame.quit()


@pytest.mark.skipif(sys.platform.startswith("win"), reason="POSIX signals")
def test_sigterm_breaks_a_stuck_frame(app: App) -> None:
    app.push(_Stuck(app))
    timer = threading.Timer(0.8, os.kill, (os.getpid(), signal.SIGTERM))
    started = time.monotonic()
    timer.start()
    try:
        assert app.run() == 0
    finally:
        timer.cancel()
    assert time.monotonic() - started < 3
    assert app.stopped_by == signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is not app._on_signal  # handed back


# --- Ctrl+C and SIGTERM while the app starts ---------------------------------------------


@pytest.mark.skipif(sys.platform.startswith("win"), reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_a_signal_at_any_moment_of_start_up_ends_the_app(tmp_path: Path, signum: int) -> None:
    # Spread over the start-up, from the interpreter's first imports to the first frame:
    # every one ends the app (a Ctrl+C swallowed inside an import once left it playing on).
    first_frame = _seconds_to_first_frame(tmp_path / "timing")
    for n in range(6):
        home = tmp_path / f"home{n}"
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "DINOTABLE_HOME": str(home), "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen([sys.executable, "-m", "dinotable", "play", "dino_hunt_dice",
                                 "--players", "Ann,Ben", "--seed", "3"], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(first_frame * (0.15 + 0.2 * n))
        proc.send_signal(signum)
        try:
            _, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            pytest.fail(f"signal {signum} {first_frame * (0.15 + 0.2 * n):.2f} s into "
                        "start-up was ignored: the app played on")
        assert "Traceback" not in err or "init_import_site" in err  # Python's own start
        if (home / "autosave.yaml").exists():  # the table was up: its game was kept
            game, _ = saves.load(home / "autosave.yaml")
            assert [s.name for s in game.seats] == ["Ann", "Ben"]


def _seconds_to_first_frame(home: Path) -> float:
    started = time.monotonic()
    proc = _start_play(home)
    took = time.monotonic() - started
    proc.kill()
    proc.wait()
    return took


def test_a_stop_asked_while_the_window_opened_closes_it_before_the_first_frame(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable import stop
    from dinotable.scenes.setup import start_table

    start_table(app, ruleset="dino_hunt_dice", players=["Ann", "Ben"], seed=5)
    monkeypatch.setattr(stop, "_asked", [signal.SIGINT])
    assert app.run() == 0
    assert app.frames == 0 and app.stopped_by == signal.SIGINT
    game, state = saves.load(Path(os.environ["DINOTABLE_HOME"]) / "autosave.yaml")
    assert game.seed == 5 and not state.game_over


def test_a_command_without_a_window_gets_ctrl_c_back_and_stops_in_words(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from dinotable import cli, stop

    previous = signal.getsignal(signal.SIGINT)
    try:
        stop.listen()
        assert signal.getsignal(signal.SIGINT) is not previous
        os.kill(os.getpid(), signal.SIGINT)  # remembered, not raised
        time.sleep(0.05)
        assert stop.asked() == signal.SIGINT
        assert cli.main(["validate"]) == 130
    finally:
        signal.signal(signal.SIGINT, previous)
        monkeypatch.setattr(stop, "_asked", [])
    assert signal.getsignal(signal.SIGINT) is previous
    assert capsys.readouterr().err.strip() == "stopped"
