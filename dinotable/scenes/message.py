"""A readable dialog: what went wrong, in words, and one button to carry on."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ..render import theme
from ..render.widgets import Panel
from .base import Control, Menu, Scene, shade, shortcut

if TYPE_CHECKING:
    from ..app import App

BOX = pygame.Rect(190, 160, 900, 400)


class MessageScene(Scene):
    """A modal message over whatever is below it."""

    opaque = False

    def __init__(self, app: App, title: str, lines: list[str]) -> None:
        super().__init__(app)
        self.title = title
        self.lines = lines
        self.menu = Menu()
        self.menu.set([Control(pygame.Rect(540, BOX.bottom - 86, 200, 60), "OK", self.close,
                               key="Enter", tag="ok")])

    def close(self) -> None:
        """Back to where the message came up."""
        self.dismiss()

    def handle(self, event: pygame.event.Event) -> None:
        if not shortcut(event, {pygame.K_ESCAPE: self.close}):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        shade(canvas)
        Panel(BOX, "").draw(canvas)
        theme.text(canvas, self.title, (BOX.centerx, BOX.y + 44), theme.BODY, theme.DANGER,
                   bold=True, anchor="center", tight=True)
        y = BOX.y + 86
        font = theme.font(theme.SMALL)
        for line in self.lines:
            for part in theme.wrap(line, font, BOX.w - 80)[:3]:
                theme.text(canvas, part, (BOX.x + 40, y), theme.SMALL, theme.INK, tight=True)
                y += 32
            y += 8
        self.menu.draw(canvas)
