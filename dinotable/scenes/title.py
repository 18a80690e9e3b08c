"""The title scene: every installed game, with what it is and who it is for."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import pygame

from ..render import theme
from ..render.widgets import Panel
from .base import Control, Menu, Scene, shortcut

if TYPE_CHECKING:
    from ..engine import GameState, Rules
    from ..saves import SavedGame


@dataclass
class Entry:
    """A game on the title screen: its rules, or why it cannot be played."""

    id: str
    rules: Rules | None
    problem: str = ""


def discover() -> list[Entry]:
    """Every installed ruleset, loaded; a broken one becomes an entry with its message."""
    from ..ruleset import LoadError, installed_rulesets, load_ruleset

    out = []
    for folder in installed_rulesets():
        try:
            out.append(Entry(folder.name, load_ruleset(folder)))
        except LoadError as exc:
            first = exc.problems[0]
            more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
            out.append(Entry(folder.name, None, f"{first}{more}"))
    return out


class TitleScene(Scene):
    """Pick a game."""

    def __init__(self, app: object, lazy: bool = False) -> None:
        super().__init__(app)  # type: ignore[arg-type]
        self.menu = Menu()
        self.entries: list[Entry] = []
        self.saved: SavedGame | None = None
        self.saved_state: GameState | None = None
        self.saved_line = ""
        self.pending_message: Scene | None = None
        self.drawn = False
        if not lazy:
            self.show(discover())

    @property
    def loaded(self) -> bool:
        """Whether the games have been found (the first frame is drawn before that)."""
        return bool(self.menu.controls)

    def update(self, dt: float) -> None:
        # Loading and checking every ruleset waits until the window has shown its first
        # frame, so the app appears at once; the list fills in on the next frame.
        if not self.loaded and self.drawn:
            self.show(discover())
        if self.pending_message is not None and self.app.top is self:
            self.app.push(self.pending_message)
            self.pending_message = None

    def show(self, entries: list[Entry]) -> None:
        """Lay out the games (and the game in progress, if one was left unfinished)."""
        # Imported here: the rules machinery loads after the first frame (see update).
        from .. import saves
        from ..ruleset import LoadError

        saves.remove_stale()
        self.saved, self.saved_state = None, None
        path = saves.autosave_path()
        if path.is_file():
            try:
                self.saved, self.saved_state = saves.load(path)
            except LoadError as exc:
                self.broken_save([str(p) for p in exc.problems[:3]])
            except Exception as exc:  # no file may stop the title appearing
                self.broken_save([f"{path}: an unexpected problem "
                                  f"({type(exc).__name__}: {saves.shorten(str(exc), 120)})"])
            if self.saved_state is not None and self.saved_state.game_over:
                # A game that had already ended is kept with the finished ones, not offered.
                saves.archive(path)
                self.saved, self.saved_state = None, None
        self.entries = entries
        # Described once: the title redraws a dozen times a second.
        self.saved_line = (self.saved.describe(self.saved_state)
                           if self.saved is not None else "")
        controls = []
        top = 210
        if self.saved is not None:
            controls.append(Control(pygame.Rect(240, top, 800, 80), "Continue",
                                    self.resume, key="C", tag="continue"))
            top += 96
        for i, entry in enumerate(self.entries):
            rect = pygame.Rect(240, top + i * 104, 800, 92)
            controls.append(Control(rect, entry.id, partial(self.choose, entry),
                                    enabled=entry.rules is not None,
                                    why_disabled="This game's rules file has a problem",
                                    tag=f"game:{entry.id}"))
        controls.append(Control(pygame.Rect(240, 640, 250, 60), "Rules", self.show_rules,
                                key="F1", tag="rules"))
        controls.append(Control(pygame.Rect(505, 640, 270, 60), "Watch a demo", self.demo,
                                key="D", tag="demo"))
        controls.append(Control(pygame.Rect(790, 640, 250, 60), "Quit", self.quit, key="Esc",
                                tag="quit"))
        self.menu.set(controls, keep_focus=False)

    def resume(self) -> None:
        """Rebuild the game left unfinished and sit back down at it."""
        from ..ruleset import LoadError
        from .setup import Seat
        from .table import TableScene

        saved = self.saved
        if saved is None:
            return
        try:
            # Replayed afresh: the state shown at the title may have been played on since.
            state = saved.replay()
        except LoadError as exc:
            self.broken_save([str(p) for p in exc.problems[:3]])
            self.show(self.entries)
            return
        seats = [Seat(s.name, s.kind, s.colour) for s in saved.seats]
        self.app.push(TableScene(self.app, state.rules, seats, dict(saved.options),
                                 saved.seed, state, saved.bots_rng()))

    def broken_save(self, lines: list[str]) -> None:
        """Say plainly that the saved game cannot be opened; keep the file aside."""
        from .. import saves
        from .message import MessageScene

        kept = saves.set_aside()
        lines = list(lines)
        if kept is not None:
            lines.append(f"The file was kept as {kept.name}.")
        else:
            lines.append("The file could not be moved aside; it is left where it is.")
        self.pending_message = MessageScene(self.app, "The saved game could not be opened",
                                            lines)

    def choose(self, entry: Entry) -> None:
        """Go to the seats and options of a game."""
        from .setup import SetupScene

        if entry.rules is not None:
            self.app.push(SetupScene(self.app, entry.rules))

    def selected(self) -> Entry | None:
        """The game the focus is on (or the first playable one)."""
        tag = self.menu.focused.tag
        for e in self.entries:
            if tag == f"game:{e.id}":
                return e
        return next((e for e in self.entries if e.rules is not None), None)

    def show_rules(self) -> None:
        """The rules of the focused game."""
        from .rules import RulesScene

        entry = self.selected()
        if entry is not None and entry.rules is not None:
            self.app.push(RulesScene(self.app, entry.rules))

    def demo(self) -> None:
        """Bots play every game in turn until a key or click brings the title back."""
        from .demo import DemoScene

        self.app.push(DemoScene(self.app))

    def quit(self) -> None:
        """Close the app."""
        self.app.running = False

    def handle(self, event: pygame.event.Event) -> None:
        keys = {pygame.K_ESCAPE: self.quit, pygame.K_F1: self.show_rules,
                pygame.K_d: self.demo}
        if self.saved is not None:
            keys[pygame.K_c] = self.resume
        if not shortcut(event, keys):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        self.drawn = True
        theme.draw_table_background(canvas)
        theme.text(canvas, "dinotable", (640, 70), theme.HUGE, theme.PARCHMENT, bold=True,
                   anchor="center")
        theme.text(canvas, "Dinosaur games for the whole table. Pick a game:", (640, 150),
                   theme.BODY, theme.PARCHMENT, anchor="center")
        offset = 0
        for i, c in enumerate(self.menu.controls):
            if c.tag == "continue" and self.saved is not None:
                offset = 1
                Panel(c.rect, "", focused=i == self.menu.focus).draw(canvas)
                name = next((e.rules.name for e in self.entries
                             if e.rules is not None and e.id == self.saved.ruleset),
                            self.saved.ruleset)
                theme.text(canvas, f"Continue the unfinished game of {name}",
                           (c.rect.x + 24, c.rect.y + 14), theme.SMALL, theme.INK_SOFT,
                           tight=True)
                # The round and everyone's score: smaller type before anything is cut off.
                line = self.saved_line
                size = theme.fit_size(line, c.rect.w - 48, theme.BODY, bold=True,
                                      floor=theme.SMALL)
                line = theme.ellipsize(line, theme.font(size, True), c.rect.w - 48)
                theme.text(canvas, line, (c.rect.x + 24, c.rect.y + 44), size, theme.INK,
                           bold=True, tight=True)
                continue
            if not c.tag.startswith("game:"):
                continue
            entry = self.entries[i - offset]
            focused = i == self.menu.focus
            Panel(c.rect, "", focused=focused, dim=entry.rules is None).draw(canvas)
            x, y = c.rect.x + 24, c.rect.y + 12
            if entry.rules is None:
                theme.text(canvas, f"{entry.id} - unavailable", (x, y), theme.BODY,
                           theme.DANGER, bold=True)
                line = theme.wrap(entry.problem, theme.font(theme.SMALL), c.rect.w - 48)[0]
                theme.text(canvas, line, (x, y + 40), theme.SMALL, theme.INK_SOFT)
                continue
            rules = entry.rules
            theme.text(canvas, rules.name, (x, c.rect.y + 14), theme.SIZE_HEADING, theme.INK,
                       bold=True, tight=True)
            facts = (f"{rules.min_players}-{rules.max_players} players"
                     f"  ·  {rules.data.get('time', '')}")
            theme.text(canvas, facts, (c.rect.right - 24, c.rect.y + 20), theme.SMALL,
                       theme.INK_SOFT, anchor="topright", tight=True)
            pitch = str(rules.data.get("pitch", ""))
            line = theme.ellipsize(pitch, theme.font(theme.SMALL), c.rect.w - 48)
            theme.text(canvas, line, (x, c.rect.y + 60), theme.SMALL, theme.INK_SOFT,
                       tight=True)
        buttons = Menu()
        buttons.controls = [c for c in self.menu.controls
                            if not c.tag.startswith("game:") and c.tag != "continue"]
        buttons.focus = next((i for i, c in enumerate(buttons.controls)
                              if c is self.menu.focused), -1)
        buttons.hover = None
        buttons.draw(canvas)
        theme.text(canvas, "Arrows or Tab to choose, Enter to play, F1 for the rules, "
                   "M mutes, F11 full screen", (640, 612), theme.SMALL, theme.PARCHMENT,
                   anchor="center")
