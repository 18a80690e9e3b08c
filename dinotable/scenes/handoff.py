"""Between hot-seat turns: pass the laptop, so nobody sees another player's secrets."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ..render import theme
from .base import Control, Menu, Scene

if TYPE_CHECKING:
    from ..app import App


class HandoffScene(Scene):
    """A full screen that hides the table until the next player says they are ready."""

    def __init__(self, app: App, name: str, colour: tuple[int, int, int],
                 on_ready: Callable[[], None] | None = None, why: str = "") -> None:
        super().__init__(app)
        self.name = name
        self.colour = colour
        self.on_ready = on_ready  # the table then shows this player's view
        self.why = why  # "Ben, you may respond": someone else's turn, but Ben must act
        self.menu = Menu()
        self.menu.set([Control(pygame.Rect(440, 470, 400, 80), f"I'm {name}: show me!",
                               self.ready, key="Enter", tag="ready")])

    def ready(self) -> None:
        """The next player has the laptop."""
        self.app.pop()
        if self.on_ready is not None:
            self.on_ready()

    def handle(self, event: pygame.event.Event) -> None:
        self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        canvas.fill(theme.NIGHT)
        pygame.draw.circle(canvas, self.colour, (640, 220), 90)
        pygame.draw.circle(canvas, theme.PARCHMENT, (640, 220), 90, 6)
        theme.text(canvas, self.name[:1].upper(), (640, 220), theme.HUGE, theme.ink_on(
            self.colour), bold=True, anchor="center")
        if self.why:
            theme.text(canvas, self.why, (640, 330), theme.SIZE_HEADING, theme.GOLD_LIGHT,
                       bold=True, anchor="center")
        words = f"Pass the laptop to {self.name}"
        theme.text(canvas, words, (640, 386), theme.fit_size(words, 1200, theme.TITLE, True),
                   theme.PARCHMENT, bold=True, anchor="center")
        theme.text(canvas, "Everyone else, look away!", (640, 436), theme.BODY,
                   theme.PARCHMENT_DIM, anchor="center")
        self.menu.draw(canvas)
