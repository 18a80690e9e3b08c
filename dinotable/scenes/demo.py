"""Demo mode for game nights: bots play every shipped game in turn, in a loop, with a caption.

`DemoScene` runs a real `TableScene` on a stage of its own (`Stage`): the table sees a
stack, settings and sounds as it would in a game, but its stack is the demo's, so the
table's results screen stays inside the demo (and is closed after a few seconds), no input
ever reaches the table, the demo's pace never reaches the settings file, and the table is
built with `saving=False`, so the autosave is never touched. Any key or click ends the demo.
"""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, cast

import pygame

from ..engine import Action, Event, Rules, view_for
from ..narrate import caption
from ..render import theme
from ..settings import Settings
from ..table.sprites import Step
from .base import Scene, SceneStack
from .setup import DEFAULT_NAMES, Seat
from .table import TableScene

if TYPE_CHECKING:
    from ..app import App

RESULTS_S = 6.0  # how long a finished game's results stay up before the next game
GAME_S = 150.0  # a game still going after this long gives way to the next (a long card
MAX_MOVES = 400  # game would hold the show for an hour), as does one after this many moves
TIME_UP_S = 4.0  # how long "time's up" and who leads stay up before the next game
BAND = pygame.Rect(0, 592, 1280, 128)  # the caption band, over the table's action bar
BAND_COLOUR = (24, 16, 10)
DEMO_SPEED = "normal"  # the bots' pace: watchable from across the room


class _Unsaved(Settings):
    """The demo's own settings: the player's pace and hand-off choices stay as they were."""

    def save(self) -> None:
        """Never written: the settings file belongs to the player."""


class Stage(SceneStack):
    """What a demo's table takes for the app: the window's sounds, settings of its own, and
    a scene stack of its own. Anything else is the real app's."""

    def __init__(self, app: App, speed: str) -> None:
        self.app = app
        settings = _Unsaved(**asdict(app.settings))
        settings.bot_speed, settings.always_handoff, settings.show_odds = speed, False, False
        self.settings: Settings = settings
        self.stack: list[Scene] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)

    def to_title(self) -> None:
        """A table never leaves the demo by itself: the demo decides when to move on."""


class DemoTable(TableScene):
    """A table that also tells the demo what each move did, when its playback starts, and
    shows every score: nobody plays here, so none is anyone's secret."""

    demo = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.heard: list[Event] = []
        self.caption = ""
        super().__init__(*args, **kwargs)

    def _settle(self) -> float:
        wait = super()._settle()
        scores = view_for(self.state, None, everything=True)["scores"]
        self.view = {**self.view, "scores": scores}
        self.shown.score_goals = [float(v or 0) for v in scores]
        return wait

    def queue_event(self, event: Event) -> None:
        self.heard.append(event)
        super().queue_event(event)

    def take(self, action: Action) -> None:
        self.heard = []
        super().take(action)
        line = caption(self.heard, self.view, None)
        # Shown as the move begins to play, before its dice and cards move.
        self.steps.appendleft(Step(lambda: self._caption(line), "caption"))

    def _caption(self, line: str) -> float:
        if line:
            self.caption = line
        return 0.0


def demo_seats(rules: Rules, rng: random.Random) -> list[Seat]:
    """Two to four bots (as the game allows) with the default names; the clever bot where the
    ruleset teaches one."""
    low = max(2, rules.min_players)
    high = max(low, min(4, rules.max_players))
    kind = "heuristic" if rules.bot_hints else "random"
    return [Seat(DEFAULT_NAMES[i], kind, i) for i in range(rng.randint(low, high))]


class DemoScene(Scene):
    """Every shipped game in turn, played by bots, until someone presses a key or clicks."""

    def __init__(self, app: App, ids: list[str] | None = None, speed: str = DEMO_SPEED,
                 seed: int | None = None) -> None:
        super().__init__(app)
        from ..ruleset import installed_rulesets

        self.rng = random.Random(seed)
        self.ids = ids if ids is not None else [p.name for p in installed_rulesets()]
        self.stage = Stage(app, speed)
        self.index = -1
        self.games = 0  # games started so far
        self.table: DemoTable | None = None
        self.results_left: float | None = None
        self.played = 0.0  # seconds the game being shown has been playing
        self.problem = ""
        self.start_next()

    @property
    def animating(self) -> bool:
        return True  # bots are always about to move

    @property
    def typing(self) -> bool:
        """True: M ends the demo like any key, instead of muting (and writing settings)."""
        return True

    @property
    def name(self) -> str:
        """The game being shown."""
        return self.table.rules.name if self.table is not None else ""

    @property
    def caption(self) -> str:
        """The line under the table: the last move, or the game's start."""
        table = self.table
        if table is None:
            return self.problem
        if self.results_left is not None:
            return self.over_line()
        names = [s.name for s in table.seats]
        together = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        return table.caption or f"{together} sit down to play."

    def over_line(self) -> str:
        """'Ann wins Dinosaur Dice! Next: Dino Hunt Dice.' (said while the results show)."""
        from ..ruleset import load_by_id

        table = self.table
        if table is None:
            return ""
        if table.state.game_over:
            winners = [table.name(s) for s in table.state.winners]
            verb = "wins" if len(winners) == 1 else "win"
            line = f"{' and '.join(winners)} {verb} {self.name}!" if winners else "Game over!"
        else:
            line = f"Time's up for {self.name}: {self.leaders()}."
        try:
            upcoming = load_by_id(self.ids[(self.index + 1) % len(self.ids)]).name
        except Exception:  # it will be passed over; the line need not say so
            return line
        return f"{line} Next: {upcoming}."

    def leaders(self) -> str:
        """Who leads a game cut short, and with how much ("Ann leads with 12")."""
        table = self.table
        if table is None:
            return ""
        scores = [table.state.score(s) for s in range(len(table.seats))]
        top = max(scores)
        ahead = [table.name(s) for s, v in enumerate(scores) if v == top]
        shown = int(top) if float(top).is_integer() else top
        if len(ahead) == len(scores):
            return f"all level on {shown}"
        verb = "leads" if len(ahead) == 1 else "lead"
        return f"{' and '.join(ahead)} {verb} with {shown}"

    def start_next(self) -> None:
        """The next game in the loop (one whose rules cannot load is passed over)."""
        from ..ruleset import load_by_id

        self.results_left = None
        self.played = 0.0
        for _ in range(len(self.ids)):
            self.index = (self.index + 1) % len(self.ids)
            try:
                rules = load_by_id(self.ids[self.index])
            except Exception as exc:  # a broken game is left out of the show, not fatal
                self.problem = f"{self.ids[self.index]} cannot be shown: {exc}"
                continue
            seats = demo_seats(rules, self.rng)
            options = {name: o.default for name, o in rules.options.items()}
            seed = self.rng.randrange(1 << 30)
            # The stage stands in for the app (see Stage); a demo table never saves.
            self.table = DemoTable(cast("App", self.stage), rules, seats, options, seed,
                                   saving=False)
            self.stage.stack = [self.table]
            self.games += 1
            return
        self.table = None
        self.problem = self.problem or "No game is installed to show."

    def stop(self) -> None:
        """Back to the title (the one the demo was started from, if there is one)."""
        self.dismiss()
        if not self.app.stack:
            self.app.to_title()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.stop()

    def update(self, dt: float) -> None:
        table = self.table
        if table is None:
            return
        top = self.stage.top
        if self.results_left is not None and top is table:
            # Time is up: the table stands still while the caption says who leads.
            self.results_left -= dt
            if self.results_left <= 0:
                self.start_next()
            return
        self.played += dt
        try:
            top.update(dt)
        except Exception as exc:
            # Nobody is at the controls: log it like any crash and go on to the next game.
            from .crash import write_log

            write_log(self.app, exc, "update", top)
            self.start_next()
            return
        if self.results_left is not None:
            self.results_left -= dt
            if self.results_left <= 0:
                self.start_next()
        elif self.stage.top is not table:
            self.results_left = RESULTS_S  # the table put up its results: the game is over
        elif (len(table.state.log) >= MAX_MOVES or self.played >= GAME_S) and table.idle:
            self.results_left = TIME_UP_S  # a few minutes each: the next game's turn
            table.banner = None  # the table stands still: no words left half faded on it

    def draw(self, canvas: pygame.Surface) -> None:
        stack = self.stage.stack
        if not stack:
            theme.draw_table_background(canvas)
        else:
            first = len(stack) - 1
            while first > 0 and not stack[first].opaque:
                first -= 1
            for scene in stack[first:]:
                scene.draw(canvas)
        self.draw_band(canvas)

    def draw_band(self, canvas: pygame.Surface) -> None:
        """The game's name, what just happened, and how to stop."""
        # Over the results a little taller: their "play again" line is not for a demo.
        top = BAND.y - (24 if self.results_left is not None else 0)
        canvas.fill(BAND_COLOUR, pygame.Rect(0, top, BAND.w, BAND.bottom - top))
        pygame.draw.line(canvas, theme.GOLD, (0, top), (BAND.right, top), 3)
        name = f"Demo: {self.name}" if self.name else "Demo"
        theme.text(canvas, name, (BAND.x + 24, BAND.y + 14), theme.SMALL, theme.GOLD_LIGHT,
                   bold=True, tight=True)
        theme.text(canvas, "Any key or click: leave the demo and play",
                   (BAND.right - 24, BAND.y + 14), theme.SMALL, theme.PARCHMENT_DIM,
                   anchor="topright", tight=True)
        line = self.caption
        width = BAND.w - 48
        size = theme.fit_size(line, width, theme.SIZE_BUTTON, bold=True, floor=theme.BODY)
        font = theme.font(size, True)
        parts = theme.wrap(line, font, width) or [""]
        if len(parts) > 2:
            parts = [parts[0], theme.ellipsize(" ".join(parts[1:]), font, width)]
        y = BAND.y + (70 if len(parts) == 1 else 50)
        for part in parts:
            theme.text(canvas, part, (BAND.x + 24, y), size, theme.INK_LIGHT, bold=True,
                       anchor="midleft")
            y += 40
