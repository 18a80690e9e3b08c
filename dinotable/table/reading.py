"""Reading a card on the table: the one under a resting pointer grows large beside it, a
click pins one large in the middle until the next click, F or a right-click turns it over,
and a "+N more" lists what it hides. One `Zoom` serves the whole table: one card is read
at a time, whichever part shows it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from ..render import cards
from ..render.widgets import Dwell, draw_tooltip

if TYPE_CHECKING:
    from .host import PartHost
    from .part import Part


READ_DELAY, READ_SECONDS = 0.3, 8.0  # a card under a resting pointer: read large, then put back


@dataclass
class Zoom:
    """The card read large: the one under the pointer, or one a click pinned until the next
    click, for the viewer who clicked it (a new holder of the laptop never sees it)."""

    pinned: str | None = None  # the kind pinned
    viewer: int | None = None
    back: bool = False  # turned over (right-click or F)
    hovered: str | None = None  # the kind under the pointer last frame
    # When what a "+N more" hides is listed: a moment after the pointer comes to it, for a
    # few seconds after it last moved (see `display.hover_key`, which moves it on).
    tip: Dwell = field(default_factory=Dwell)
    # When the card under the pointer is read large: a moment after the pointer comes to it,
    # until the pointer has stood still a while (a click pins it for longer reading).
    reading: Dwell = field(default_factory=lambda: Dwell(READ_DELAY, READ_SECONDS))

    def clear(self) -> None:
        self.pinned, self.back = None, False


ZOOM_SIZE = (340, 560)  # a card read on hover, beside the one under the pointer
PINNED_SIZE = (420, 574)  # a card a click put in the middle of the table


def room(host: PartHost) -> pygame.Rect:
    """Where a card read large may lie: the table above the action bar."""
    header, bar = host.area["header"], host.area["bar"]
    return pygame.Rect(8, 8, header.right - 8, bar.y - 14)


def zoom_rect(near: pygame.Rect, within: pygame.Rect) -> pygame.Rect:
    """Where a hovered card is read: beside it (right, else left), inside the table."""
    rect = pygame.Rect((0, 0), (min(ZOOM_SIZE[0], within.w), min(ZOOM_SIZE[1], within.h)))
    rect.midleft = (near.right + 12, near.centery)
    if rect.right > within.right:
        rect.midright = (near.x - 12, near.centery)
    return rect.clamp(within)


def show_read(host: PartHost, part: Part, zoom: Zoom, canvas: pygame.Surface,
              where: pygame.Rect) -> None:
    """Over a part just drawn in `where`: the card under the pointer read large beside
    it, the pinned card kept on top, or what a "+N more" hides."""
    hover = part.hover
    if zoom.pinned is not None:
        return  # the pinned card is drawn over the whole table (`PinnedCardPart`)
    if hover is None:
        more_tooltip(canvas, part.more, host.mouse, zoom.tip)
        return
    rect, kind = hover
    if zoom.reading.subject != (kind, tuple(rect)) or not zoom.reading.showing():
        return  # not yet (or no longer) under a resting pointer: the table stays in view
    if kind != zoom.hovered:  # a new card under the pointer shows its face first
        zoom.hovered, zoom.back = kind, False
    # The table draws the hovered part last, so the large card lies over the others.
    cards.draw_card_large(canvas, zoom_rect(rect, room(host)), cards.card_info(host.rules, kind),
                          back=zoom.back)


def read_card(host: PartHost, part: Part, zoom: Zoom, event: pygame.event.Event) -> bool:
    """A click on a card that is not a choice pins it large (a right-click shows its
    back); the next click puts it back; F turns the card being read over."""
    if event.type == pygame.KEYDOWN and event.key == pygame.K_f:
        if zoom.pinned is not None or part.hover is not None:
            zoom.back = not zoom.back
            return True
        return False
    if event.type != pygame.MOUSEBUTTONDOWN or event.button not in (1, 3):
        return False
    if zoom.pinned is not None:
        if event.button == 3:
            zoom.back = not zoom.back
        else:
            zoom.clear()
        return True  # the click that puts the card back does nothing else
    face = next((kind for rect, kind in reversed(part.faces)
                 if rect.collidepoint(event.pos)), None)
    if face is None:
        return False
    glowing = host.chooser.targets() if host.my_turn else set()
    if event.button == 1 and any(rect.collidepoint(event.pos) and target in glowing
                                 for rect, target in part.hits):
        return False  # a choice: the table takes the click
    zoom.pinned, zoom.viewer, zoom.back = face, host.viewer, event.button == 3
    return True


def draw_pinned(host: PartHost, zoom: Zoom, canvas: pygame.Surface) -> None:
    """The pinned card in the middle of the table, while its viewer holds the laptop."""
    if zoom.pinned is None:
        return
    if zoom.viewer != host.viewer:
        zoom.clear()  # the laptop changed hands: the card goes back unseen
        return
    cards.draw_card_large(canvas, pinned_rect(host), cards.card_info(host.rules, zoom.pinned),
                          back=zoom.back)


def pinned_rect(host: PartHost) -> pygame.Rect:
    """Where a pinned card lies: in the middle of the table."""
    within = room(host)
    rect = pygame.Rect((0, 0), (min(PINNED_SIZE[0], within.w), min(PINNED_SIZE[1], within.h)))
    rect.center = within.center
    return rect.clamp(within)


def more_tooltip(canvas: pygame.Surface, more: list[tuple[pygame.Rect, list[str]]],
                 mouse: tuple[int, int], dwell: Dwell) -> None:
    """The cards a "+N more" hides, listed while the pointer rests on it (a moment after
    it comes, for a few seconds after it last moved: `dwell`)."""
    for rect, names in more:
        if rect.collidepoint(mouse):
            if dwell.subject == tuple(rect) and dwell.showing():
                draw_tooltip(canvas, rect.midtop, ", ".join(names))
            return
