"""Which game to learn, when Learn to play is pressed with no game chosen."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from ..render import theme
from ..render.widgets import Panel
from .base import Control, Menu, Scene, shade, shortcut

if TYPE_CHECKING:
    from ..app import App
    from ..engine import Rules


class LearnPicker(Scene):
    """Which game to learn, when Learn to play was pressed with no game chosen: a button
    per game that has a lesson."""

    opaque = False

    def __init__(self, app: App, games: list[Rules]) -> None:
        super().__init__(app)
        self.menu = Menu()
        rows = len(games) + 1
        self.box = pygame.Rect(340, 360 - (rows * 74 + 110) // 2, 600, rows * 74 + 110)
        top = self.box.y + 96
        self.menu.set([*(Control(pygame.Rect(self.box.x + 60, top + n * 74, 480, 62),
                                 rules.name, partial(self.dismiss, rules), tag=f"learn:{rules.id}")
                         for n, rules in enumerate(games)),
                       Control(pygame.Rect(self.box.x + 60, top + len(games) * 74, 480, 62),
                               "Back", self.dismiss, key="Esc", tag="back")])

    def handle(self, event: pygame.event.Event) -> None:
        if not shortcut(event, {pygame.K_ESCAPE: self.dismiss}):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        shade(canvas)
        Panel(self.box, "").draw(canvas)
        theme.text(canvas, "Which game shall we learn?", (self.box.centerx, self.box.y + 50),
                   theme.SIZE_HEADING, theme.INK, bold=True, anchor="center", tight=True)
        self.menu.draw(canvas)
