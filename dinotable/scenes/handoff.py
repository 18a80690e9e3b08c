"""Between hot-seat turns: pass the laptop, so nobody sees another player's secrets."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ..render import theme
from .base import Control, Menu, Scene, shortcut

if TYPE_CHECKING:
    from ..app import App


class HandoffScene(Scene):
    """A full screen that hides the table until the next player says they are ready; laid
    out for the window's shape. Esc opens the table's pause menu over it: the hand-off
    stays between the players while the menu is up and after it closes."""

    flows = True

    def __init__(self, app: App, name: str, colour: tuple[int, int, int],
                 on_ready: Callable[[], None] | None = None, why: str = "",
                 on_pause: Callable[[], None] | None = None) -> None:
        super().__init__(app)
        self.name = name
        self.colour = colour
        self.on_ready = on_ready  # the table then shows this player's view
        self.why = why  # "Ben, you may respond": someone else's turn, but Ben must act
        self.on_pause = on_pause  # the table's pause menu
        self.menu = Menu()
        self.size = (0, 0)
        self.lay_out(app.canvas.get_size())

    def lay_out(self, size: tuple[int, int]) -> None:
        """The ready button, under the words, for a canvas of `size`."""
        self.size = size
        w, h = size
        bw = min(w - 80, 520)  # room for a long name at full button type
        controls = [Control(pygame.Rect((w - bw) // 2, h // 2 + 110, bw, 80),
                            f"I'm {self.name}: show me!", self.ready, key="Enter", tag="ready")]
        if self.on_pause is not None:
            controls.append(Control(pygame.Rect(w - 220, h - 76, 200, 56), "Menu", self.pause,
                                    key="Esc", tag="menu"))
        self.menu.set(controls, keep_focus=False)

    def ready(self) -> None:
        """The next player has the laptop."""
        self.app.pop()
        if self.on_ready is not None:
            self.on_ready()

    def pause(self) -> None:
        """The pause menu, over this screen: what is behind it stays hidden."""
        if self.on_pause is not None:
            self.on_pause()

    def handle(self, event: pygame.event.Event) -> None:
        # Each key does what its cap on the screen says, wherever Tab left the focus.
        if not shortcut(event, {pygame.K_ESCAPE: self.pause, pygame.K_RETURN: self.ready,
                                pygame.K_KP_ENTER: self.ready}):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        if canvas.get_size() != self.size:
            self.lay_out(canvas.get_size())  # the window was resized
        w, h = self.size
        middle, top = w // 2, h // 2 - 140
        canvas.fill(theme.NIGHT)
        pygame.draw.circle(canvas, self.colour, (middle, top), 90)
        pygame.draw.circle(canvas, theme.PARCHMENT, (middle, top), 90, 6)
        theme.text(canvas, self.name[:1].upper(), (middle, top), theme.HUGE, theme.ink_on(
            self.colour), bold=True, anchor="center")
        if self.why:
            size = theme.fit_size(self.why, w - 40, theme.SIZE_HEADING, True, theme.BODY)
            theme.text(canvas, self.why, (middle, top + 110), size, theme.GOLD_LIGHT,
                       bold=True, anchor="center")
        words = f"Pass the laptop to {self.name}"
        theme.text(canvas, words, (middle, top + 166),
                   theme.fit_size(words, w - 40, theme.TITLE, True), theme.PARCHMENT,
                   bold=True, anchor="center")
        theme.text(canvas, "Everyone else, look away!", (middle, top + 216), theme.BODY,
                   theme.PARCHMENT_DIM, anchor="center")
        self.menu.draw(canvas)
