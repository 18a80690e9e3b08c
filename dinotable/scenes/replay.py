"""Watching a finished or saved game again, move by move, with every hand shown.

The viewer runs a real table (`ReplayTable`) that nobody plays at: no bot moves, no hand-off
is asked, nothing is saved, and it sees everything (it is after the game). A step forward
is the logged action taken on that table, so its dice are thrown again and, the engine's
chance being seeded, land on the faces they showed; a step back or a jump builds the table
afresh at the position kept in the replay, without animation.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from ..engine import Action
from ..render import theme
from ..replays import Replay, replay_of
from ..saves import SavedGame
from .base import Control, Menu, Scene
from .setup import Seat
from .table import TableScene

if TYPE_CHECKING:
    from ..app import App

# Speeds: how much faster than life the table moves, and the pause between two moves.
SPEEDS: dict[str, tuple[float, float]] = {"slow": (0.75, 2.0), "normal": (1.0, 0.9),
                                          "fast": (2.5, 0.2)}
SPEED_ORDER = ("slow", "normal", "fast")
HISTORY = 30  # moves whose words fill the log when the table is built at a position
STRIP = pygame.Rect(16, 598, 944, 114)  # the viewer's controls, where the action bar was


class ReplayTable(TableScene):
    """A table that only shows: every hand face up, no bot, no hand-off, no save."""

    sees_all = True

    def __init__(self, app: App, rules: Any, seats: list[Seat], options: dict[str, Any],
                 seed: int, state: Any) -> None:
        super().__init__(app, rules, seats, options, seed, state=state, saving=False)
        self.results_shown = True  # the viewer says when the game is over

    @property
    def my_turn(self) -> bool:
        """Nobody plays at a replay: nothing glows, nothing can be clicked."""
        return False

    def _maybe_handoff(self) -> None:
        """No laptop is passed at a replay: the table reads as if each seat held it."""
        self.holder = self.deciding

    def _bot_turn(self, dt: float) -> None:
        """The bots' moves are the logged ones: they never choose here."""

    def refresh_buttons(self) -> None:
        """No action bar: the viewer's own controls sit where it was."""
        self.menu.set([])


class ReplayScene(Scene):
    """The replay viewer: forward, back, jump to a turn, play at a chosen speed."""

    def __init__(self, app: App, replay: Replay, game: SavedGame, speed: str = "normal"
                 ) -> None:
        super().__init__(app)
        self.replay = replay
        self.game = game
        self.seats = [Seat(s.name, s.kind, s.colour) for s in game.seats]
        self.index = 0
        self.playing = False
        self.speed = speed
        self.gap = 0.0
        self.table = self.table_at(0)
        self.menu = Menu()
        self.controls()

    # --- what is shown -------------------------------------------------------------------

    @property
    def last(self) -> int:
        """The index of the last position (the end of the game, or of the save)."""
        return len(self.replay.steps) - 1

    @property
    def turns(self) -> int:
        """The highest turn number in the game."""
        return self.replay.steps[-1].turn

    def table_at(self, index: int) -> ReplayTable:
        """A table built at a position, at rest, with the moves before it in its log."""
        table = ReplayTable(self.app, self.replay.rules, self.seats, dict(self.game.options),
                            self.game.seed, self.replay.state_at(index))
        lines: list[str] = []
        for k in range(max(1, index - HISTORY + 1), index + 1):
            lines.extend(self.move_words(k))
        table.log = lines[-200:]
        table.last_words = lines[-1] if lines else table.last_words
        return table

    def move_words(self, index: int) -> list[str]:
        """A move in words: who did what, then what happened."""
        step = self.replay.steps[index]
        if step.action is None or step.seat is None:
            return []
        adef = self.replay.rules.actions.get(step.action.id)
        label = adef.label if adef is not None else step.action.id
        return [f"{self.replay.players[step.seat]}: {label}.", *self.replay.lines(index)]

    def status(self) -> str:
        """The bar's line: "Move 12 of 80 · Round 3 · Ben's turn"."""
        step = self.replay.steps[self.index]
        words = f"Move {self.index} of {self.last} · Round {step.round} · "
        if step.seat is None or step.action is None:
            return words + f"{self.replay.players[self.table.state.current]} starts"
        adef = self.replay.rules.actions.get(step.action.id)
        return words + f"{self.replay.players[step.seat]}: {adef.label if adef else step.action.id}"

    # --- moving through the game ---------------------------------------------------------

    def forward(self) -> None:
        """The next move, played on the table with its dice thrown as they were."""
        if self.index >= self.last:
            self.playing = False
            self.controls()
            return
        if not self.table.idle:
            # A move still playing is finished at once, so the next one starts from rest.
            self.table = self.table_at(self.index)
        self.index += 1
        action = self.replay.steps[self.index].action
        assert isinstance(action, Action)
        self.table.take(action)
        self.gap = 0.0
        self.controls()

    def go_to(self, index: int) -> None:
        """Any position, shown at once (back, a jump, the start or the end)."""
        self.index = max(0, min(self.last, index))
        self.table = self.table_at(self.index)
        self.gap = 0.0
        self.controls()

    def back(self) -> None:
        """The position before this move."""
        self.playing = False
        self.go_to(self.index - 1)

    def start(self) -> None:
        """The game as it began."""
        self.playing = False
        self.go_to(0)

    def end(self) -> None:
        """The game as it ended (or as it was saved)."""
        self.playing = False
        self.go_to(self.last)

    def turn_by(self, step: int) -> None:
        """Jump to the start of the next or the previous turn."""
        turn = self.replay.steps[self.index].turn
        if step < 0 and self.index > self.replay.step_of_turn(turn):
            target = turn  # back to the start of this turn first
        else:
            target = max(0, min(self.turns, turn + step))
        self.go_to(self.replay.step_of_turn(target))

    def toggle_play(self) -> None:
        """Play on by itself, or stop."""
        if not self.playing and self.index >= self.last:
            self.go_to(0)  # played to the end: Play starts again from the beginning
        self.playing = not self.playing
        self.gap = 0.0
        self.controls()

    def change_speed(self, step: int) -> None:
        """Slower or faster."""
        k = SPEED_ORDER.index(self.speed)
        self.speed = SPEED_ORDER[max(0, min(len(SPEED_ORDER) - 1, k + step))]
        self.controls()

    def close(self) -> None:
        """Leave the replay."""
        self.dismiss(None)

    # --- controls ------------------------------------------------------------------------

    def controls(self) -> None:
        """The viewer's buttons: Close beside the move line, the rest under it."""
        y, h = STRIP.y + 48, 62
        x = STRIP.x + 4
        row: list[Control] = []

        def add(w: int, label: str, do: Any, key: str, tag: str, enabled: bool = True,
                why: str = "") -> None:
            nonlocal x
            row.append(Control(pygame.Rect(x, y, w, h), label, do, key=key, tag=tag,
                               enabled=enabled, why_disabled=why))
            x += w + 8

        at_start, at_end = self.index <= 0, self.index >= self.last
        add(64, "|<", self.start, "", "start", not at_start, "This is the start (Home)")
        add(64, "<", self.back, "", "back", not at_start, "This is the start")
        add(156, "Pause" if self.playing else "Play", self.toggle_play, "Space", "play")
        add(64, ">", self.forward, "", "forward", not at_end, "This is the end")
        add(64, ">|", self.end, "", "end", not at_end, "This is the end (End)")
        turn = self.replay.steps[self.index].turn
        row.append(Control(pygame.Rect(x, y, 250, h), "Turn", None, kind="stepper",
                           value=f"{turn} of {self.turns}",
                           on_left=lambda: self.turn_by(-1), on_right=lambda: self.turn_by(1),
                           tag="turn"))
        x += 258
        row.append(Control(pygame.Rect(x, y, STRIP.right - 4 - x, h), "Speed", None,
                           kind="stepper", value=self.speed.capitalize(),
                           on_left=lambda: self.change_speed(-1),
                           on_right=lambda: self.change_speed(1), tag="speed"))
        row.append(Control(pygame.Rect(STRIP.right - 170, STRIP.y + 4, 166, 42), "Close",
                           self.close, key="Esc", tag="close"))
        self.menu.set(row)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            keys: dict[int, Callable[[], None]] = {
                    pygame.K_RIGHT: self.forward, pygame.K_LEFT: self.back,
                    pygame.K_HOME: self.start, pygame.K_END: self.end,
                    pygame.K_SPACE: self.toggle_play, pygame.K_ESCAPE: self.close,
                    pygame.K_PAGEDOWN: lambda: self.turn_by(1),
                    pygame.K_PAGEUP: lambda: self.turn_by(-1),
                    pygame.K_PLUS: lambda: self.change_speed(1),
                    pygame.K_EQUALS: lambda: self.change_speed(1),
                    pygame.K_KP_PLUS: lambda: self.change_speed(1),
                    pygame.K_MINUS: lambda: self.change_speed(-1),
                    pygame.K_KP_MINUS: lambda: self.change_speed(-1)}
            if event.key in keys:
                keys[event.key]()
                return
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEWHEEL):
            self.table.handle(event)  # a card grows under the pointer; the log scrolls
        self.menu.handle(event)

    # --- time and drawing ----------------------------------------------------------------

    @property
    def animating(self) -> bool:
        return self.playing or self.table.animating

    def update(self, dt: float) -> None:
        pace, pause = SPEEDS[self.speed]
        self.table.update(dt * pace)
        if not self.playing:
            return
        if self.index >= self.last:
            self.playing = False
            self.controls()
            return
        if self.table.idle:
            self.gap += dt
            if self.gap >= pause:
                self.forward()

    def run_to_rest(self, limit: int = 4000, dt: float = 0.1) -> None:
        """Let the move on the table play to its end (headless stepping, tests, the CLI)."""
        for _ in range(limit):
            if self.table.idle:
                return
            self.table.update(dt)

    def draw(self, canvas: pygame.Surface) -> None:
        self.table.draw(canvas)
        pygame.draw.rect(canvas, theme.FELT_DARK, STRIP, border_radius=12)
        theme.text(canvas, "Replay", (STRIP.x + 14, STRIP.y + 24), theme.SMALL,
                   theme.GOLD_LIGHT, bold=True, anchor="midleft", tight=True)
        room = STRIP.w - 120 - 190  # between the word Replay and the Close button
        size = theme.fit_size(self.status(), room, theme.BODY, bold=True, floor=theme.SMALL)
        words = theme.ellipsize(self.status(), theme.font(size, True), room)
        theme.text(canvas, words, (STRIP.x + 120, STRIP.y + 24), size, theme.PARCHMENT,
                   bold=True, anchor="midleft", tight=True)
        self.menu.draw(canvas)


def open_replay(app: App, game: SavedGame, path: Path | None = None) -> bool:
    """Push the replay viewer for a saved game; if it cannot be replayed, say why."""
    from ..ruleset import LoadError
    from .message import MessageScene

    try:
        replay = replay_of(game)
    except LoadError as exc:
        name = path.name if path is not None else "This game"
        app.push(MessageScene(app, "This game cannot be replayed",
                              [f"{name}: {p.message}" for p in exc.problems[:3]]))
        return False
    app.push(ReplayScene(app, replay, game))
    return True


def start_replay(path: Path, game: SavedGame, replay: Replay, frames: int | None = None
                 ) -> int:
    """`dinotable replay FILE`: a window on the replay; closing it (Esc) exits 0."""
    from ..app import App, display_problem

    problem = display_problem()
    if problem is not None:
        print(problem, file=sys.stderr, flush=True)
        return 2
    app = App()
    pygame.display.set_caption(f"dinotable: replay of {path.name}")
    app.push(ReplayScene(app, replay, game))
    return app.run(frames)
