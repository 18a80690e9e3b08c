"""When a screen breaks: keep the game, write down what happened, and offer a way on.

`App` catches any exception from a scene's `update`, `draw` or `handle` and calls
`handle_crash`. The game in progress is saved (if it can be replayed), a log with the
traceback goes to the user data folder, and `CrashScene` says so in plain words with
"Resume the game" and "Go to the title". If the crash screen itself breaks, the title comes
back with a message; if crashes keep coming frame after frame, a bare last-resort screen
shows, and if even that breaks the app closes. There is never a loop of crash screens.
"""

from __future__ import annotations

import contextlib
import platform
import sys
import time
import traceback
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from ..paths import why_not_written
from ..render import theme
from ..render.widgets import Panel
from .base import Control, Menu, Scene, shortcut

if TYPE_CHECKING:
    from ..app import App

KEEP_LOGS = 10  # crash logs kept in the user data folder; older ones are removed
IN_A_ROW = 3  # crashes in consecutive frames before the last-resort screen
BOX = pygame.Rect(140, 110, 1000, 500)

# How a scene is named in the one sentence ("while drawing the table").
PLACES = {
    "TableScene": "the table", "DemoScene": "the demo", "TitleScene": "the title screen",
    "SetupScene": "the game setup", "ResultsScene": "the results",
    "PauseScene": "the pause menu", "RulesScene": "the rules", "HandoffScene": "the hand-off",
    "MessageScene": "a message", "CrashScene": "the problem screen",
}


def place_of(scene: object) -> str:
    """'the table', 'the title screen', ...: the screen a player was looking at."""
    return PLACES.get(type(scene).__name__, "the screen")


def sentence(phase: str, scene: object, event: pygame.event.Event | None = None) -> str:
    """What went wrong, in one sentence anyone can read."""
    place = place_of(scene)
    if phase == "draw":
        return f"Something went wrong while drawing {place}."
    if phase == "handle":
        what = "click" if event is not None and event.type in (
            pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL) else "key press"
        if event is not None and event.type == pygame.MOUSEMOTION:
            what = "mouse"
        return f"Something went wrong while answering your {what} on {place}."
    return f"Something went wrong while {place} was moving on."


# --- what is kept ------------------------------------------------------------------------


def tables_in(app: App) -> list[Any]:
    """The games on the stack (a demo's table never counts: it is not saved)."""
    from .table import TableScene

    return [s for s in app.stack if isinstance(s, TableScene) and s.saving]


def save_game(table: Any) -> str | None:
    """Keep the table's game on disk; None when kept (or nothing to keep), else why not.

    It is saved after every move already; this keeps a game nobody has moved in yet, and a
    last move whose save the crash cut off. A log that no longer replays (the crash was in
    the rules themselves) must not replace the last good save, so it is replayed first.
    """
    from .. import saves

    try:
        if table.state.game_over:
            return None  # archived with the finished games after its last move
        game = table.saved_game()
        game.replay()
        return saves.try_write(game, compact=True)  # whole: the app may not come back
    except Exception as exc:  # the save must never be what stops the crash screen
        return f"{type(exc).__name__}: {saves.shorten(str(exc), 120)}"


def write_log(app: App, exc: BaseException, phase: str, scene: object,
              folder: Path | None = None) -> tuple[Path | None, str]:
    """Write crash-YYYYmmdd-HHMMSS.log (the traceback, the scene, the game, the version);
    keep the last KEEP_LOGS. Returns the file, or None and why it could not be written."""
    from .. import __version__
    from ..paths import user_data_dir

    folder = folder or user_data_dir()
    lines = [f"dinotable {__version__} crash report, {datetime.now():%Y-%m-%d %H:%M:%S}",
             f"python {platform.python_version()}, pygame-ce {pygame.version.ver}, "
             f"{platform.platform()}",
             f"while: {phase} of {type(scene).__name__}",
             "screens: " + " > ".join(type(s).__name__ for s in app.stack)]
    for table in _all_tables(app):
        with contextlib.suppress(Exception):
            rules = table.rules
            lines.append(f"game: {rules.id} version {rules.version}, seed {table.seed}, "
                         f"{len(table.state.log)} moves, options {dict(table.state.options)}")
    lines += ["", *traceback.format_exception(type(exc), exc, exc.__traceback__)]
    text = "\n".join(line.rstrip("\n") for line in lines) + "\n"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        path = folder / f"crash-{stamp}.log"
        n = 2
        while path.exists():  # several in one second: none overwrites another
            path = folder / f"crash-{stamp}-{n}.log"
            n += 1
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        print(text, file=sys.stderr, flush=True)  # at least the terminal has it
        return None, f"{folder}: {why_not_written(folder / 'crash.log', err)}"
    prune_logs(folder)
    return path, ""


def prune_logs(folder: Path, keep: int = KEEP_LOGS) -> None:
    """Remove all but the newest `keep` crash logs (their names sort by time)."""
    with contextlib.suppress(OSError):
        logs = sorted(folder.glob("crash-*.log"), key=lambda p: (p.stat().st_mtime, p.name))
        for old in logs[:-keep] if keep else logs:
            with contextlib.suppress(OSError):
                old.unlink()


def _all_tables(app: App) -> list[Any]:
    from .table import TableScene

    return [s for s in app.stack if isinstance(s, TableScene)]


# --- the app's handler -------------------------------------------------------------------


def handle_crash(app: App, exc: BaseException, phase: str, scene: object,
                 event: pygame.event.Event | None = None) -> None:
    """Called by the app with the exception a scene raised: never raises itself."""
    try:
        _handle(app, exc, phase, scene, event)
    except Exception:
        # Even reporting failed: a bare screen that can only say so, or close.
        traceback.print_exc()
        _last_resort(app, "", "")


def _handle(app: App, exc: BaseException, phase: str, scene: object,
            event: pygame.event.Event | None) -> None:
    app.crash_streak += 1
    if isinstance(scene, LastResortScene):
        # Nothing is left to show: close rather than loop.
        write_log(app, exc, phase, scene)
        traceback.print_exception(type(exc), exc, exc.__traceback__)
        app.running = False
        app.stack = []
        return
    problems = [save_game(t) for t in tables_in(app)]
    saved = [p for p in problems if p is not None]
    log, why_no_log = write_log(app, exc, phase, scene)
    words = sentence(phase, scene, event)
    where = str(log) if log is not None else f"(it could not be written: {why_no_log})"
    if app.crash_streak >= IN_A_ROW:
        _last_resort(app, words, where)
        return
    if isinstance(scene, CrashScene) or isinstance(app.top, CrashScene):
        # The problem screen itself broke: back to the title, with the news in a message.
        from .message import MessageScene

        report = scene if isinstance(scene, CrashScene) else app.top
        first = getattr(report, "words", words)  # what it was to report, not its own fall
        app.to_title(lazy=True)  # the games load in its own (guarded) update
        app.top.pending_message = MessageScene(  # type: ignore[attr-defined]
            app, "Something went wrong", [
                first, "The screen meant to report it failed too, so here is the title.",
                f"The details are in {where}"])
        return
    had_game = bool(tables_in(app))
    app.reset(CrashScene(app, words, log, why_no_log, had_game, saved[0] if saved else ""))


def _last_resort(app: App, words: str, where: str) -> None:
    app.stack = [LastResortScene(app, words, where)]


# --- the screens ------------------------------------------------------------------------


class CrashScene(Scene):
    """What happened, where the details are, and the way on: resume, title or quit."""

    def __init__(self, app: App, words: str, log: Path | None, why_no_log: str = "",
                 had_game: bool = False, save_problem: str = "") -> None:
        super().__init__(app)
        from .. import saves

        self.words = words
        self.log = log
        self.why_no_log = why_no_log
        self.had_game = had_game
        self.save_problem = save_problem
        self.can_resume = saves.autosave_path().is_file()
        self.menu = Menu()
        self.menu.set([
            Control(pygame.Rect(BOX.x + 40, BOX.bottom - 96, 420, 64), "Resume the game",
                    self.resume, key="Enter", enabled=self.can_resume,
                    # Only when greyed: a button shows its reason whenever it has the focus.
                    why_disabled="" if self.can_resume else "There is no saved game to resume",
                    tag="resume"),
            Control(pygame.Rect(BOX.x + 480, BOX.bottom - 96, 300, 64), "Go to the title",
                    self.title, key="T", tag="title"),
            Control(pygame.Rect(BOX.x + 800, BOX.bottom - 96, 160, 64), "Quit", self.quit,
                    key="Esc", tag="quit"),
        ], keep_focus=False)

    def lines(self) -> list[str]:
        """The paragraphs under the sentence: the game, then the log file."""
        out = []
        if self.had_game and self.save_problem:
            out.append(f"Your game could not be saved just now ({self.save_problem}); "
                       "the save from its last move is kept.")
        elif self.had_game:
            out.append("Your game was saved: nothing is lost.")
        elif self.can_resume:
            out.append("The last unfinished game is still saved.")
        if self.log is not None:
            out.append(f"The details were written to {self.log}")
        else:
            out.append(f"The details could not be written to a file ({self.why_no_log}).")
        return out

    def resume(self) -> None:
        """Back to the game, through the title's Continue (the same load, the same checks)."""
        self.app.to_title()
        title: Any = self.app.top
        if getattr(title, "saved", None) is not None:
            title.resume()

    def title(self) -> None:
        """The list of games."""
        self.app.to_title()

    def quit(self) -> None:
        """Close the app (the game is already saved)."""
        self.app.running = False

    def handle(self, event: pygame.event.Event) -> None:
        keys = {pygame.K_ESCAPE: self.quit, pygame.K_t: self.title}
        if not shortcut(event, keys):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        theme.draw_table_background(canvas)
        Panel(BOX, "").draw(canvas)
        theme.text(canvas, "Sorry!", (BOX.centerx, BOX.y + 50), theme.TITLE_SMALL,
                   theme.DANGER, bold=True, anchor="center", tight=True)
        font = theme.font(theme.BODY, True)
        y = BOX.y + 100
        for part in theme.wrap(self.words, font, BOX.w - 80)[:2]:
            theme.text(canvas, part, (BOX.centerx, y), theme.BODY, theme.INK, bold=True,
                       anchor="midtop")
            y += 40
        y += 14
        small = theme.font(theme.SMALL)
        for line in self.lines():
            for part in theme.wrap(line, small, BOX.w - 80)[:3]:
                theme.text(canvas, part, (BOX.x + 40, y), theme.SMALL, theme.INK_SOFT)
                y += 32
            y += 10
        self.menu.draw(canvas)


class LastResortScene(Scene):
    """Shown when crashes keep coming: plain text, and any key or click closes the app."""

    def __init__(self, app: App, words: str, where: str) -> None:
        super().__init__(app)
        self.words = words or "Something went wrong, again and again."
        self.where = where
        self.since = time.monotonic()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.app.running = False

    def draw(self, canvas: pygame.Surface) -> None:
        canvas.fill((30, 22, 16))
        # The shipped font through pygame alone: the theme may be what is broken.
        font = pygame.font.Font(str(theme.font_path()), 24)
        lines = [self.words, "dinotable cannot go on and will close.",
                 f"Details: {self.where}" if self.where else "",
                 "Press any key or click to close."]
        y = 220
        for line in lines:
            for part in theme.wrap(line, font, 1160):
                canvas.blit(font.render(part, True, (252, 246, 230)), (60, y))
                y += 40
