"""Cards, tiles and tokens: a face with its name, key numbers and words; a back; a stack.

Every face drawn goes through `draw_card`, which tells the `seen` hooks which kind it drew:
a test can then prove that no hidden card's face was ever drawn for a seat.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence

import pygame

from . import theme

CARD_W, CARD_H = 116, 160  # a card at 1280x720: its words at 20 px at least
SMALL_W, SMALL_H = 96, 44  # a card in a player's row: just its name

# Called with the kind of every face drawn (tests record them; nothing else needs to).
seen: list[Callable[[str], None]] = []

_TINTS = ((196, 64, 52), (52, 132, 76), (52, 96, 168), (180, 132, 32), (128, 72, 150),
          (40, 130, 140), (150, 90, 60))
_SUITS = {"red": _TINTS[0], "green": _TINTS[1], "blue": _TINTS[2], "gold": _TINTS[3],
          "yellow": _TINTS[3], "purple": _TINTS[4]}


def tint(kind: str, suit: str | None = None) -> tuple[int, int, int]:
    """A kind's colour band: its suit's colour when it names one, else one of a few."""
    if suit is not None and suit in _SUITS:
        return _SUITS[suit]
    return _TINTS[zlib.crc32(kind.encode()) % len(_TINTS)]


def draw_card(surface: pygame.Surface, rect: pygame.Rect, kind: str, title: str,
              lines: Sequence[str] = (), text: str = "", band: Sequence[int] | None = None,
              glow: bool = False, marked: bool = False, small: bool = False) -> pygame.Rect:
    """A card's face: a coloured band with its name, its key numbers, then its words.

    `glow`: a click on it does something now; `marked`: chosen for a set being built.
    `small`: a card in a player's row, its name only.
    """
    for hook in seen:
        hook(kind)
    colour = tuple(band) if band is not None else tint(kind)
    if marked:
        rect = rect.move(0, -10)  # lifted out of the row, as a hand picks it up
    shadow = rect.move(3, 4)
    pygame.draw.rect(surface, theme.darker(theme.FELT_DARK, 0.3), shadow, border_radius=10)
    pygame.draw.rect(surface, theme.PARCHMENT_LIGHT, rect, border_radius=10)
    head_h = rect.h if small else 36
    head = pygame.Rect(rect.x, rect.y, rect.w, head_h)
    pygame.draw.rect(surface, colour, head, border_radius=10)
    if not small:
        pygame.draw.rect(surface, colour, (rect.x, rect.y + 20, rect.w, 16))
    ink = theme.ink_on(colour)
    size = theme.fit_size(title, rect.w - 12, theme.TINY, bold=True, floor=theme.TINY)
    name = theme.ellipsize(title, theme.font(size, True), rect.w - 10)
    theme.text(surface, name, (head.centerx, head.centery), size, ink, bold=True,
               anchor="center", tight=True)
    if not small:
        y = head.bottom + 8
        for line in lines:
            shown = theme.ellipsize(line, theme.font(theme.TINY, True), rect.w - 14)
            theme.text(surface, shown, (rect.x + 8, y), theme.TINY, theme.INK, bold=True)
            y += 26
        if text:
            for line in theme.wrap(text, theme.font(theme.TINY), rect.w - 14):
                if y + 26 > rect.bottom - 4:
                    break
                theme.text(surface, line, (rect.x + 8, y), theme.TINY, theme.INK_SOFT)
                y += 24
    edge = theme.GOLD if glow or marked else theme.INK
    pygame.draw.rect(surface, edge, rect, width=5 if glow or marked else 2, border_radius=10)
    if marked:
        theme.text(surface, "✓", (rect.right - 8, rect.bottom - 6), theme.SMALL, theme.GOOD,
                   bold=True, anchor="bottomright", tight=True)
    return rect


def draw_back(surface: pygame.Surface, rect: pygame.Rect, holds: str = "cards",
              glow: bool = False) -> pygame.Rect:
    """A card's back: the same for every card, so it tells nothing."""
    pygame.draw.rect(surface, theme.darker(theme.FELT_DARK, 0.3), rect.move(3, 4),
                     border_radius=10)
    pygame.draw.rect(surface, theme.WOOD, rect, border_radius=10)
    inner = rect.inflate(-14, -14)
    pygame.draw.rect(surface, theme.WOOD_LIGHT, inner, width=3, border_radius=8)
    if min(inner.w, inner.h) > 30:
        pygame.draw.circle(surface, theme.GOLD_LIGHT, inner.center, min(inner.w, inner.h) // 5,
                           width=3)
    pygame.draw.rect(surface, theme.GOLD if glow else theme.INK, rect, width=5 if glow else 2,
                     border_radius=10)
    return rect


def draw_stack(surface: pygame.Surface, rect: pygame.Rect, count: int, label: str,
               top: Callable[[pygame.Rect], None] | None = None, glow: bool = False
               ) -> pygame.Rect:
    """A pile: a few edges under the top card (its face, or a back), and how many there are."""
    if count == 0:
        pygame.draw.rect(surface, theme.FELT_LIGHT, rect, width=3, border_radius=10)
        theme.text(surface, "empty", rect.center, theme.TINY, theme.FELT_TEXT,
                   anchor="center", tight=True)
    else:
        for k in range(min(3, count - 1), 0, -1):
            edge = rect.move(k * 3, k * 3)
            pygame.draw.rect(surface, theme.PARCHMENT_DARK, edge, border_radius=10)
            pygame.draw.rect(surface, theme.INK, edge, width=1, border_radius=10)
        if top is not None:
            top(rect)
        else:
            draw_back(surface, rect, glow=glow)
    return rect
