"""The pause menu: resume, rules, the game's cards, save as..., restart, or quit to the title.

It hands back what was chosen, "resume", "restart" or "quit", through the callback given to
`App.push(PauseScene(app, rules=...), on_choice)`; the table decides what each means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

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

CHOICES = ("resume", "restart", "quit")


class PauseScene(Scene):
    """A modal over the table."""

    opaque = False

    def __init__(self, app: App, table: Any = None, *, rules: Rules | None = None,
                 game: SavedGame | None = None, state: GameState | None = None) -> None:
        super().__init__(app)
        if rules is None:
            rules = table.rules
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
        if self.game is not None:
            rows.append(("Save as...", self.save_as, "S", "save_as"))
        rows += [("Restart", self.restart, "", "restart"), ("Quit to title", self.quit, "", "quit")]
        top = 360 - len(rows) * 66 // 2 + 20
        self.box = pygame.Rect(420, top - 92, 440, len(rows) * 66 + 150)
        self.menu.set([Control(pygame.Rect(x, top + n * 66, w, 58), label, do, key=key, tag=tag)
                       for n, (label, do, key, tag) in enumerate(rows)])

    def resume(self) -> None:
        """Back to the game."""
        self.dismiss("resume")

    def rules(self) -> None:
        """The rules reference (over the pause menu; Back returns here)."""
        self.app.push(RulesScene(self.app, self.rules_of_game))

    def restart(self) -> None:
        """A new game with the same seats."""
        self.dismiss("restart")

    def quit(self) -> None:
        """Leave the game for the title screen."""
        self.dismiss("quit")

    def cards(self) -> None:
        """Every card of this game, to read front and back (Esc returns here)."""
        self.app.push(CardsScene(self.app, self.rules_of_game))

    def save_as(self) -> None:
        """Keep the game under a name; the menu then says under which."""
        if self.game is None:
            return
        asking = SaveAsScene(self.app, self.game, self.state)

        def done(path: Any) -> None:
            if path is not None:
                self.saved_as = asking.name

        self.app.push(asking, done)

    def handle(self, event: pygame.event.Event) -> None:
        keys = {pygame.K_ESCAPE: self.resume, pygame.K_F1: self.rules}
        if self.game is not None:
            keys[pygame.K_s] = self.save_as
        if card_groups(self.rules_of_game):
            keys[pygame.K_k] = self.cards
        if not shortcut(event, keys):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        shade(canvas)
        Panel(self.box, "").draw(canvas)
        theme.text(canvas, "Paused", (640, self.box.y + 50), theme.TITLE_SMALL, theme.INK,
                   bold=True, anchor="center", tight=True)
        if self.saved_as:
            words = theme.ellipsize(f"Saved as {self.saved_as}",
                                    theme.font(theme.BODY, True), self.box.w - 40)
            theme.text(canvas, words, (640, self.box.bottom - 34), theme.BODY, theme.INK,
                       bold=True, anchor="center", tight=True)
        self.menu.draw(canvas)
