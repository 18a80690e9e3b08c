"""The pause menu: resume, rules, restart, or quit to the title."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ..render import theme
from ..render.widgets import Panel
from .base import Control, Menu, Scene, shade, shortcut

if TYPE_CHECKING:
    from ..app import App
    from .table import TableScene


class PauseScene(Scene):
    """A modal over the table."""

    opaque = False

    def __init__(self, app: App, table: TableScene) -> None:
        super().__init__(app)
        self.table = table
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
        self.app.pop()

    def rules(self) -> None:
        """The rules reference."""
        from .rules import RulesScene

        self.app.push(RulesScene(self.app, self.table.rules))

    def restart(self) -> None:
        """A new game with the same seats."""
        self.app.pop()
        self.table.restart()

    def quit(self) -> None:
        """Leave the game for the title screen."""
        from .title import TitleScene

        self.app.reset(TitleScene(self.app))

    def handle(self, event: pygame.event.Event) -> None:
        if not shortcut(event, {pygame.K_ESCAPE: self.resume, pygame.K_F1: self.rules}):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        shade(canvas)
        Panel(pygame.Rect(420, 130, 440, 430), "").draw(canvas)
        theme.text(canvas, "Paused", (640, 182), theme.TITLE_SMALL, theme.INK, bold=True,
                   anchor="center", tight=True)
        self.menu.draw(canvas)
