"""`dinotable --self-test`: is this copy whole? Rulesets, scenarios and every scene, headless.

Meant for a built app on a new machine (and for CI): it checks pygame's mixer loads, loads
and validates every shipped ruleset, runs every shipped scenario, then draws every scene
for a few frames with SDL's dummy video and audio drivers, a table among them where bots
play a few moves. One line per check, then `self-test: N passed, M failed`; exit 0, or 1
when anything failed.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from . import __version__
from .paths import assets_dir, rulesets_dir

if TYPE_CHECKING:
    from .app import App
    from .engine import Rules
    from .scenes.table import TableScene

FRAMES = 3  # frames drawn per scene
FRAME = 1 / 30
BOT_MOVES = 4  # moves the bots make at the table
BOT_FRAME_LIMIT = 3000  # 100 s of table time: far more than four moves ever take
GAME_ACTION_LIMIT = 100_000  # a random game that has not ended by now never will


@dataclass
class Result:
    """One check: its name, whether it held, and what it saw."""

    name: str
    ok: bool
    detail: str = ""


def _reason(exc: BaseException) -> str:
    """An exception in one line, with the innermost place it was raised (file:line)."""
    where = traceback.extract_tb(exc.__traceback__)
    place = f" at {os.path.basename(where[-1].filename)}:{where[-1].lineno}" if where else ""
    message = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {message[0] if message else ''}{place}"


class _Checks:
    """Runs checks, prints a line for each, keeps the results."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.results: list[Result] = []

    def record(self, name: str, ok: bool, detail: str = "") -> None:
        self.results.append(Result(name, ok, detail))
        if ok:
            print(f"ok   {name}{f' ({detail})' if detail else ''}", file=self.out)
        else:
            print(f"FAIL {name}: {detail}", file=self.out)
        self.out.flush()

    def run(self, name: str, check: Callable[..., str], *args: Any) -> bool:
        """Run `check(*args)`; it returns a detail to show, or raises to fail."""
        try:
            detail = check(*args)
        except Exception as exc:  # a self-test reports every failure, whatever its kind
            self.record(name, False, _reason(exc))
            return False
        self.record(name, True, detail)
        return True


@contextmanager
def _headless() -> Iterator[None]:
    """SDL's dummy video and audio drivers, and a throwaway user data folder (the tables it
    plays save as they go, and must not replace a family's unfinished game), for the length
    of the self-test, then as before."""
    saved = {k: os.environ.get(k) for k in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER",
                                            "DINOTABLE_HOME")}
    scratch = tempfile.TemporaryDirectory(prefix="dinotable-self-test-")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["DINOTABLE_HOME"] = scratch.name
    try:
        yield
    finally:
        scratch.cleanup()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def run_self_test(out: TextIO | None = None) -> int:
    """Run every check; print one line each and the summary; return the exit status."""
    out = out or sys.stdout
    started = time.perf_counter()
    frozen = "frozen" if getattr(sys, "frozen", False) else "from source"
    print(f"dinotable {__version__} self-test ({frozen}, Python {sys.version.split()[0]})",
          file=out)
    print(f"rulesets: {rulesets_dir()}", file=out)
    print(f"assets:   {assets_dir()}", file=out)
    checks = _Checks(out)
    with _headless():
        checks.run("assets", _check_assets)
        checks.run("sounds", _check_sounds)
        checks.run("phones", _check_phones)
        rules = _check_rulesets(checks)
        _check_scenarios(checks)
        _check_scenes(checks, rules)
    failed = [r for r in checks.results if not r.ok]
    passed = len(checks.results) - len(failed)
    print(f"checked in {time.perf_counter() - started:.1f} s", file=out)
    if failed:
        print(f"failed: {', '.join(r.name for r in failed)}", file=out)
    print(f"self-test: {passed} passed, {len(failed)} failed", file=out)
    out.flush()
    return 1 if failed else 0


# --- files -----------------------------------------------------------------------------


def _check_assets() -> str:
    from .render.theme import font_path

    missing = [p for p in (font_path(False), font_path(True)) if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"missing {', '.join(str(p) for p in missing)}")
    files = [p for p in assets_dir().rglob("*") if p.is_file()]
    return f"{len(files)} files, fonts present"


def _check_sounds() -> str:
    """pygame's mixer loads, with every library it links: without it the table would play
    in silence and say nothing (the self-test's dummy driver never opens a device)."""
    import pygame

    from .audio import encode

    major, minor, patch = pygame.mixer.get_sdl_mixer_version(linked=True)
    if len(encode([0.0, 0.5, -0.5], -16, 2)) != 12:
        raise ValueError("a sound did not encode to 16-bit stereo")
    return f"SDL_mixer {major}.{minor}.{patch}"


def _check_phones() -> str:
    """Hands on phones: the server starts (on this machine's loopback address only), and
    serves a seat's page and its view; a wrong token is not found. In a built app this is
    what shows that aiohttp and the page travelled with it."""
    import json
    import socket

    from .companion.link import PhoneLink
    from .engine import view_for
    from .ruleset import installed_rulesets, load_by_id
    from .table.session import Seat, TableSession

    rules = None
    for folder in installed_rulesets():
        with contextlib.suppress(Exception):  # a broken game is the rulesets' check's
            rules = load_by_id(folder.name)
            break
    if rules is None:
        return "not tried: no game loads (the rulesets' checks say why)"
    seats = [Seat(f"Seat {n + 1}", "human", n) for n in range(rules.min_players)]
    session = TableSession(rules, seats, {}, 1, saving=False)
    link = PhoneLink(list(range(len(seats))), ["#888888"], rules.name, host="127.0.0.1")
    link.start()
    try:
        link.phones.attach(session)

        def fetch(path: str) -> tuple[str, str]:
            with socket.create_connection(("127.0.0.1", link.server.port), timeout=10) as s:
                s.sendall(f"GET {path} HTTP/1.0\r\nHost: dinotable\r\n\r\n".encode())
                raw = b"".join(iter(lambda: s.recv(65536), b""))
            head, _, body = raw.decode("utf-8", "replace").partition("\r\n\r\n")
            return head.split(" ", 2)[1], body

        token = link.phones.tokens[0]
        status, page = fetch(f"/seat/{token}")
        if status != "200" or "<html" not in page:
            raise ValueError(f"the phone page answered {status}")
        status, view = fetch(f"/seat/{token}/view")
        expected = json.loads(json.dumps(view_for(session.state, 0)))
        if status != "200" or json.loads(view) != expected:
            raise ValueError(f"a seat's view answered {status}, not its view")
        if fetch("/seat/" + "x" * len(token))[0] != "404":
            raise ValueError("a wrong token was not refused")
    finally:
        link.stop()
    return f"aiohttp serves a seat's page and view of {rules.name} (port {link.server.port})"


def _check_rulesets(checks: _Checks) -> list[Rules]:
    """Every shipped ruleset loads and validates; returns those that do."""
    from .ruleset import LoadError, installed_rulesets, load_ruleset

    folders = installed_rulesets()
    if not folders:
        checks.record("rulesets", False, f"no rulesets found in {rulesets_dir()}")
        return []
    good: list[Rules] = []
    for folder in folders:
        name = f"ruleset {folder.name}"
        try:
            rules = load_ruleset(folder)
        except LoadError as exc:
            more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
            checks.record(name, False, f"{exc.problems[0]}{more}")
        except Exception as exc:  # a self-test reports every failure, whatever its kind
            checks.record(name, False, _reason(exc))
        else:
            good.append(rules)
            checks.record(name, True, f"{rules.name}, {rules.min_players}-{rules.max_players} "
                                      "players")
    return good


def _check_scenarios(checks: _Checks) -> None:
    """Every shipped rules scenario passes."""
    from .check import run_scenario
    from .ruleset import LoadError
    from .scenarios import load_scenario, scenario_files

    files = scenario_files([])
    if not files:
        checks.record("scenarios", False, f"no scenarios found under {rulesets_dir()}")
        return
    for path in files:
        label = f"{path.parent.parent.name}/{path.name}" if path.parent.name in (
            "scenarios", "lessons") else str(path)
        try:
            scenario = load_scenario(path)
        except LoadError as exc:
            checks.record(f"scenario {label}", False, str(exc.problems[0]))
            continue
        except Exception as exc:  # a self-test reports every failure, whatever its kind
            checks.record(f"scenario {label}", False, _reason(exc))
            continue
        name = f"scenario {scenario.ruleset}: {scenario.name}"
        try:
            outcome = run_scenario(scenario)
        except Exception as exc:  # a self-test reports every failure, whatever its kind
            checks.record(name, False, _reason(exc))
            continue
        checks.record(name, outcome.passed, outcome.reason)


# --- scenes --------------------------------------------------------------------------


def _draw(app: App, frames: int = FRAMES) -> str:
    """Step the app a few frames and check the window shows more than one flat colour."""
    for _ in range(frames):
        app.step(dt=FRAME)
    window = app.window
    w, h = window.get_size()
    colours = {tuple(window.get_at((x, y)))[:3] for x in range(0, w, 37) for y in range(0, h, 29)}
    if len(colours) <= 3:
        raise AssertionError(f"the window is nearly blank ({len(colours)} colours)")
    return f"{frames} frames"


def _bot_seats(rules: Rules, kind: str = "heuristic") -> list[Any]:
    from .scenes.setup import DEFAULT_NAMES, Seat

    n = max(rules.min_players, min(2, rules.max_players))
    return [Seat(DEFAULT_NAMES[i], kind, i) for i in range(n)]


def _table_with_bots(app: App, rules: Rules) -> str:
    """A table where bots play a few moves, drawn every frame as in the app."""
    from .scenes.handoff import HandoffScene
    from .scenes.table import TableScene

    table = TableScene(app, rules, _bot_seats(rules), {}, 1)
    table.hurry = True
    app.reset(table)
    frames = 0
    while len(table.state.log) < BOT_MOVES and not table.state.game_over:
        if frames >= BOT_FRAME_LIMIT:
            raise AssertionError(f"the bots made {len(table.state.log)} moves in "
                                 f"{frames} frames")
        if isinstance(app.top, HandoffScene):
            app.top.ready()
        app.step(dt=FRAME)
        frames += 1
    _draw(app)
    return f"bots made {len(table.state.log)} moves in {frames} frames"


def _finished_table(app: App, rules: Rules) -> TableScene:
    """A table whose game random bots have played to the end (engine only, no animation)."""
    from .bots import choose
    from .engine import apply
    from .scenes.table import TableScene

    table = TableScene(app, rules, _bot_seats(rules), {}, 2)
    rng = random.Random(2)
    for _ in range(GAME_ACTION_LIMIT):
        if table.state.game_over:
            return table
        apply(table.state, choose("random", table.state, rng))
    raise AssertionError(f"a game of random bots did not end in {GAME_ACTION_LIMIT} actions")


def _check_scenes(checks: _Checks, rulesets: list[Rules]) -> None:
    """Draw every scene for a few frames: title, and setup, table, rules, results per game."""
    holder: list[App] = []

    def open_window() -> str:
        import pygame

        from .app import App
        from .settings import Settings

        holder.append(App(settings=Settings(muted=True, bot_speed="fast")))
        return f"pygame-ce {pygame.version.ver}, SDL {'.'.join(map(str, pygame.get_sdl_version()))}"

    if not checks.run("window", open_window):
        return
    app = holder[0]
    try:
        _scenes(checks, app, rulesets)
    finally:
        import pygame

        pygame.quit()


def _scenes(checks: _Checks, app: App, rulesets: list[Rules]) -> None:
    from .scenes.handoff import HandoffScene
    from .scenes.pause import PauseScene
    from .scenes.results import ResultsScene
    from .scenes.rules import RulesScene
    from .scenes.setup import SetupScene
    from .scenes.table import TableScene
    from .scenes.title import TitleScene

    def show(scene: Any) -> str:
        app.reset(scene)
        return _draw(app)

    checks.run("scene title", lambda: show(TitleScene(app)))
    for rules in rulesets:
        rid = rules.id
        checks.run(f"scene setup ({rid})", lambda r: show(SetupScene(app, r)), rules)
        checks.run(f"scene table ({rid})", _table_with_bots, app, rules)
        checks.run(f"scene rules ({rid})", lambda r: show(RulesScene(app, r)), rules)
        checks.run(f"scene results ({rid})",
                   lambda r: show(ResultsScene(app, _finished_table(app, r))), rules)
    if not rulesets:
        return
    first = rulesets[0]
    checks.run("scene handoff", lambda: show(HandoffScene(app, "Ben", (30, 80, 170))))

    def pause() -> str:
        table = TableScene(app, first, _bot_seats(first, "human"), {}, 3)
        app.reset(table)
        app.push(PauseScene(app, table))  # a modal, drawn over the table it pauses
        return _draw(app)

    checks.run("scene pause", pause)
