"""The pause menu: resume, rules, the game's cards, save as..., restart, or quit to the title.

It hands back what was chosen, "resume", "phones", "restart", "learn" or "quit", through
the callback given to `App.push(PauseScene(app, rules=...), on_choice)`; the table decides
what each means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from ..lessons import lessons_of
from ..render import theme
from ..render.widgets import Panel
from .base import Control, Menu, Scene, shade, shortcut
from .cards import CardsScene, card_groups
from .rules import RulesScene
from .save_as import SaveAsScene

if TYPE_CHECKING:
    from ..app import App
    from ..engine import GameState, Rules
    from ..saves import SavedGame

CHOICES = ("resume", "phones", "restart", "learn", "quit")


class PauseScene(Scene):
    """A modal over the table."""

    opaque = False

    def __init__(self, app: App, table: Any = None, *, rules: Rules | None = None,
                 game: SavedGame | None = None, state: GameState | None = None,
                 lesson: bool = False, phones: bool = False) -> None:
        super().__init__(app)
        if rules is None:
            rules = table.rules
        self.lesson = lesson  # over a lesson: Restart starts the lesson again
        self.rules_of_game: Rules = rules
        # What "Save as..." writes: the game as the table would autosave it.
        self.game = game if game is not None or table is None else table.saved_game()
        self.state = state if state is not None or table is None else table.state
        self.saved_as = ""  # the name of the last save made from here, said under the title
        self.menu = Menu()
        x, w = 460, 360
        rows: list[tuple[str, Any, str, str]] = [("Resume", self.resume, "Esc", "resume"),
                                                 ("Rules", self.rules, "F1", "rules")]
        if card_groups(rules):
            rows.append(("Cards", self.cards, "K", "cards"))
        if not lesson and lessons_of(rules):
            rows.append(("Learn to play", self.learn, "L", "learn"))
        if self.game is not None:
            rows.append(("Save as...", self.save_as, "S", "save_as"))
        if phones:  # a game with people at it: they may join from their phones
            rows.append(("Hands on phones", self.phones, "P", "phones"))
        rows += [("Restart", self.restart, "", "restart"), ("Quit to title", self.quit, "", "quit")]
        top = 360 - len(rows) * 66 // 2 + 20
        self.box = pygame.Rect(420, top - 92, 440, len(rows) * 66 + 150)
        self.rows = [Control(pygame.Rect(x, top + n * 66, w, 58), label, do, key=key, tag=tag)
                     for n, (label, do, key, tag) in enumerate(rows)]
        self.menu.set(self.rows)
        self.asking = False  # Restart was pressed: the menu asks once more

    def ask_restart(self) -> None:
        """Restart asks first: a new deal must not follow one stray click."""
        self.asking = True
        box = self.question_box()
        self.menu.set([
            Control(pygame.Rect(box.x + 20, box.bottom - 90, 196, 60), "Restart",
                    self.restart_now, key="Enter", tag="restart_yes"),
            Control(pygame.Rect(box.right - 216, box.bottom - 90, 196, 60), "Cancel",
                    self.back, key="Esc", tag="restart_no"),
        ], keep_focus=False)

    def question_box(self) -> pygame.Rect:
        """The panel Restart's question is asked in: the menu's, only as tall as needed."""
        return pygame.Rect(self.box.x, self.box.y + 40, self.box.w, 330)

    def back(self) -> None:
        """From the question back to the menu."""
        self.asking = False
        self.menu.set(self.rows, keep_focus=False)
        self.menu.focus = next(i for i, c in enumerate(self.rows) if c.tag == "restart")

    def restart_question(self) -> list[str]:
        """What Restart will do to the game being played, in words."""
        if self.lesson:
            return ["The lesson starts again", "from its first step."]
        if self.state is not None and self.state.log:
            return ["A new game with the same players.",
                    "This one is kept in Saved games."]
        return ["A new game with the same players."]

    def resume(self) -> None:
        """Back to the game."""
        self.dismiss("resume")

    def rules(self) -> None:
        """The rules reference (over the pause menu; Back returns here)."""
        self.app.push(RulesScene(self.app, self.rules_of_game))

    def restart(self) -> None:
        """A new game with the same seats, once the players say so."""
        self.ask_restart()

    def restart_now(self) -> None:
        """Restart was confirmed."""
        self.dismiss("restart")

    def learn(self) -> None:
        """The game's lesson, on the table (this game is kept to play on)."""
        self.dismiss("learn")

    def phones(self) -> None:
        """Players join (or leave) from their phones: the table shows each seat's code."""
        self.dismiss("phones")

    def quit(self) -> None:
        """Leave the game for the title screen."""
        self.dismiss("quit")

    def cards(self) -> None:
        """Every card of this game, to read front and back (Esc returns here)."""
        self.app.push(CardsScene(self.app, self.rules_of_game))

    def save_as(self, key: str = "") -> None:
        """Keep the game under a name; the menu then says under which. `key`: the letter
        pressed to open it, which must not be typed into the name as well."""
        if self.game is None:
            return
        asking = SaveAsScene(self.app, self.game, self.state, opened_by=key)

        def done(path: Any) -> None:
            if path is not None:
                self.saved_as = asking.name

        self.app.push(asking, done)

    def handle(self, event: pygame.event.Event) -> None:
        if self.asking:
            if not shortcut(event, {pygame.K_ESCAPE: self.back}):
                self.menu.handle(event)
            return
        keys = {pygame.K_ESCAPE: self.resume, pygame.K_F1: self.rules}
        if self.game is not None:
            keys[pygame.K_s] = lambda: self.save_as("s")
        if card_groups(self.rules_of_game):
            keys[pygame.K_k] = self.cards
        if any(c.tag == "learn" for c in self.rows):
            keys[pygame.K_l] = self.learn
        if any(c.tag == "phones" for c in self.rows):
            keys[pygame.K_p] = self.phones
        if not shortcut(event, keys):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        shade(canvas)
        if self.asking:
            box = self.question_box()
            Panel(box, "").draw(canvas)
            theme.text(canvas, "Restart?", (640, box.y + 50), theme.TITLE_SMALL,
                       theme.INK, bold=True, anchor="center", tight=True)
            for n, line in enumerate(self.restart_question()):
                theme.text(canvas, line, (640, box.y + 124 + n * 36), theme.SMALL,
                           theme.INK, anchor="center", tight=True)
            self.menu.draw(canvas)
            return
        Panel(self.box, "").draw(canvas)
        theme.text(canvas, "Paused", (640, self.box.y + 50), theme.TITLE_SMALL, theme.INK,
                   bold=True, anchor="center", tight=True)
        if self.saved_as:
            words = theme.ellipsize(f"Saved as {self.saved_as}",
                                    theme.font(theme.BODY, True), self.box.w - 40)
            theme.text(canvas, words, (640, self.box.bottom - 34), theme.BODY, theme.INK,
                       bold=True, anchor="center", tight=True)
        self.menu.draw(canvas)
