"""Joining from phones: each person's seat in turn shows a QR code and a short address; a
phone that opens it plays that seat from then on. Laid out for the window's shape.

A seat's code is on screen only while that seat is being joined, so nobody scans another's.
The screen moves on by itself when the phone joins (nobody need touch the laptop), and says
who has joined. Skipping a seat leaves it at the laptop, guarded by the hand-off as ever.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ..render import theme
from ..render.qr import qr_surface
from .base import Control, Menu, Scene, shortcut

if TYPE_CHECKING:
    from ..app import App
    from ..companion.link import PhoneLink
    from ..table.session import Seat


class JoinScene(Scene):
    """Over the table: the seats' codes one at a time, and who has joined."""

    flows = True

    def __init__(self, app: App, link: PhoneLink, seats: list[Seat],
                 on_off: Callable[[], None] | None = None,
                 tick: Callable[[], None] | None = None) -> None:
        super().__init__(app)
        self.link = link
        self.seats = seats
        self.on_off = on_off  # hands on phones can be turned off here
        self.tick = tick  # the table's phones, kept answering while this screen is up
        self.skipped: set[int] = set()
        self.current = self._next(-1)
        self.menu = Menu()
        self.size = (0, 0)
        self.qr: tuple[int, int, pygame.Surface] | None = None  # (seat, size, code)
        self.seen_joined: set[int] = set(link.joined)
        self.lay_out(app.canvas.get_size())

    # --- whose code is shown --------------------------------------------------------------

    def _next(self, after: int) -> int | None:
        """The next person's seat still to join after `after` (None: everyone is set)."""
        joined = self.link.joined
        waiting = [s for s in self.link.seats
                   if s > after and s not in joined and s not in self.skipped]
        return waiting[0] if waiting else None

    def skip(self) -> None:
        """This seat plays at the laptop; the next seat's code is shown."""
        if self.current is not None:
            self.skipped.add(self.current)
            self.current = self._next(self.current)
            self.lay_out(self.size)

    def done(self) -> None:
        """Back to the table."""
        self.link.short(None)  # no short code is open once nobody is being joined
        self.app.pop()

    def turn_off(self) -> None:
        """Hands on phones off: every seat plays at the laptop again."""
        self.link.short(None)
        self.app.pop()
        if self.on_off is not None:
            self.on_off()

    # --- layout and time ------------------------------------------------------------------

    def lay_out(self, size: tuple[int, int]) -> None:
        """The buttons along the bottom, for a canvas of `size`."""
        self.size = size
        w, h = size
        controls: list[Control] = []
        bottom = h - 16 - 60
        if self.current is not None:
            words = f"{self.seats[self.current].name} plays at the laptop"
            bw = min(440, w // 2 - 30)
            controls.append(Control(pygame.Rect(20, bottom, bw, 60), words, self.skip,
                                    key="S", tag="skip"))
        label = "Start playing" if self.current is None else "Done"
        controls.append(Control(pygame.Rect(w - 20 - 260, bottom, 260, 60), label, self.done,
                                key="Enter", tag="done"))
        if self.on_off is not None:
            controls.append(Control(pygame.Rect(w - 20 - 260 - 20 - 260, bottom, 260, 60),
                                    "Turn phones off", self.turn_off, tag="off"))
        self.menu.set(controls, keep_focus=False)

    def update(self, dt: float) -> None:
        if self.tick is not None:
            self.tick()
        joined = self.link.joined
        if joined != self.seen_joined:
            self.seen_joined = set(joined)
            if self.current in joined:
                # That phone is in: on to the next seat, with nobody touching the laptop.
                self.current = self._next(self.current)
                self.lay_out(self.size)

    def handle(self, event: pygame.event.Event) -> None:
        if shortcut(event, {pygame.K_ESCAPE: self.done, pygame.K_RETURN: self.done,
                            pygame.K_KP_ENTER: self.done, pygame.K_s: self.skip}):
            return
        self.menu.handle(event)

    # --- drawing --------------------------------------------------------------------------

    def draw(self, canvas: pygame.Surface) -> None:
        if canvas.get_size() != self.size:
            self.lay_out(canvas.get_size())
        w, h = self.size
        theme.draw_table_background(canvas)
        theme.text(canvas, "Hands on phones", (w // 2, 40), theme.fit_size(
            "Hands on phones", w - 40, theme.SIZE_TITLE_SMALL, True), theme.PARCHMENT,
            bold=True, anchor="center", tight=True)
        serving = (f"Serving this game on the local network at {self.link.where}, "
                   "while hands on phones is on.")
        size = theme.fit_size(serving, w - 40, theme.SIZE_SMALL, floor=theme.SIZE_TINY)
        theme.text(canvas, theme.ellipsize(serving, theme.font(size), w - 40), (w // 2, 84),
                   size, theme.FELT_TEXT, anchor="center", tight=True)
        list_w = min(360, w // 3)
        self._draw_seats(canvas, pygame.Rect(20, 120, list_w, h - 120 - 96))
        self._draw_code(canvas, pygame.Rect(40 + list_w, 110, w - 60 - list_w, h - 110 - 96))
        self.menu.draw(canvas)

    def _draw_seats(self, canvas: pygame.Surface, box: pygame.Rect) -> None:
        joined = self.link.joined
        y = box.y
        pitch = min(64, box.h // max(1, len(self.seats)))
        for seat_no, seat in enumerate(self.seats):
            colour = theme.PLAYER_COLOURS[seat.colour % len(theme.PLAYER_COLOURS)]
            pygame.draw.circle(canvas, colour.rgb, (box.x + 18, y + pitch // 2 - 6), 14)
            if seat.kind != "human":
                status = "a bot"
            elif seat_no in joined:
                status = "joined on a phone"
            elif seat_no == self.current:
                status = "scanning now..."
            else:
                status = "at the laptop" if seat_no in self.skipped else "waiting to scan"
            name_size = theme.fit_size(seat.name, box.w - 44, theme.SIZE_BODY, True,
                                       floor=theme.SIZE_TINY)
            theme.text(canvas, theme.ellipsize(seat.name, theme.font(name_size, True),
                                               box.w - 44), (box.x + 42, y - 4), name_size,
                       theme.GOLD_LIGHT if seat_no == self.current else theme.PARCHMENT,
                       bold=True)
            tone = theme.GOLD_LIGHT if seat_no in joined else theme.PARCHMENT_DIM
            theme.text(canvas, status, (box.x + 42, y + 26), theme.SIZE_TINY, tone)
            y += pitch

    def _draw_code(self, canvas: pygame.Surface, box: pygame.Rect) -> None:
        seat = self.current
        middle = box.centerx
        if seat is None:
            words = "Everyone is set."
            theme.text(canvas, words, (middle, box.centery - 30), theme.SIZE_HEADING,
                       theme.GOLD_LIGHT, bold=True, anchor="center")
            theme.text(canvas, "Press Start playing.", (middle, box.centery + 20),
                       theme.SIZE_BODY, theme.PARCHMENT, anchor="center")
            return
        name = self.seats[seat].name
        ask = f"{name}, scan this with your phone's camera"
        size = theme.fit_size(ask, box.w, theme.SIZE_BODY, True, floor=theme.SIZE_TINY)
        theme.text(canvas, theme.ellipsize(ask, theme.font(size, True), box.w),
                   (middle, box.y + 4), size, theme.PARCHMENT, bold=True, anchor="midtop")
        url = self.link.url(seat)
        side = max(80, min(box.w, box.h - 48 - 100))
        if self.qr is None or self.qr[:2] != (seat, side):
            self.qr = (seat, side, qr_surface(url, side))
        code = self.qr[2]
        rect = code.get_rect(midtop=(middle, box.y + 48))
        canvas.blit(code, rect)
        theme.text(canvas, "or type this into the phone's browser:", (middle, rect.bottom + 8),
                   theme.SIZE_TINY, theme.PARCHMENT_DIM, anchor="midtop")
        short = self.link.short(seat)
        size = theme.fit_size(short, box.w, theme.SIZE_HEADING, True, floor=theme.SIZE_TINY)
        theme.text(canvas, theme.ellipsize(short, theme.font(size, True), box.w),
                   (middle, rect.bottom + 34), size, theme.GOLD_LIGHT, bold=True,
                   anchor="midtop")
