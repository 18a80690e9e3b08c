"""The pause menu: resume, rules, restart, or quit to the title.

It hands back what was chosen, "resume", "restart" or "quit", through the callback given to
`App.push(PauseScene(app, rules=...), on_choice)`; the table decides what each means.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from ..render import theme
from ..render.widgets import Panel
from .base import Control, Menu, Scene, shade, shortcut
from .rules import RulesScene

if TYPE_CHECKING:
    from ..app import App
    from ..engine import Rules

CHOICES = ("resume", "restart", "quit")


class PauseScene(Scene):
    """A modal over the table."""

    opaque = False

    def __init__(self, app: App, table: Any = None, *, rules: Rules | None = None) -> None:
        super().__init__(app)
        if rules is None:
            rules = table.rules
        self.rules_of_game: Rules = rules
        if table is not None:
            # Pushed the old way, with the table itself: answer it as the table expects.
            self.on_dismiss = legacy_answer(app, table)
        self.menu = Menu()
        x, w = 460, 360
        self.menu.set([
            Control(pygame.Rect(x, 230, w, 64), "Resume", self.resume, key="Esc", tag="resume"),
            Control(pygame.Rect(x, 310, w, 64), "Rules", self.rules, key="F1", tag="rules"),
            Control(pygame.Rect(x, 390, w, 64), "Restart", self.restart, tag="restart"),
            Control(pygame.Rect(x, 470, w, 64), "Quit to title", self.quit, tag="quit"),
        ])

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

    def handle(self, event: pygame.event.Event) -> None:
        if not shortcut(event, {pygame.K_ESCAPE: self.resume, pygame.K_F1: self.rules}):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        shade(canvas)
        Panel(pygame.Rect(420, 130, 440, 430), "").draw(canvas)
        theme.text(canvas, "Paused", (640, 182), theme.TITLE_SMALL, theme.INK, bold=True,
                   anchor="center", tight=True)
        self.menu.draw(canvas)


def legacy_answer(app: App, table: Any) -> Callable[[Any], None]:
    """What the pause menu's choices did before it handed them back: kept until the table
    pushes it with its own callback (then this is never used)."""

    def answer(choice: Any) -> None:
        if choice == "restart":
            table.restart()
        elif choice == "quit":
            app.to_title()

    return answer
