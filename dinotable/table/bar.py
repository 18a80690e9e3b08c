"""The action bar: the choices as buttons along the bottom; when they do not fit, a page
at a time with arrows either side, so none ever runs off the screen."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pygame

from ..render import theme
from ..scenes.base import Control
from .choice import Choice

ARROW = 56


def button_width(bar: pygame.Rect, c: Choice, wide: bool = False) -> int:
    """How wide a choice's button likes to be (its words and key cap): at most half the
    bar, or two thirds (`wide`) when every button fits on one page anyway."""
    text = theme.font(theme.SIZE_BUTTON, True).size(c.label)[0]
    keycap = theme.font(theme.SMALL, True).size(c.key)[0] + 40 if c.key else 0
    if c.compact:  # a short answer among many: as narrow as its words allow
        return min(bar.w // 2, max(56, text + keycap + 30))
    return min(bar.w * 2 // 3 if wide else bar.w // 2, max(150, text + keycap + 50))


def fits_wide(bar: pygame.Rect, choices: list[Choice]) -> bool:
    """Whether every button fits on one page, each as wide as its words want."""
    return sum(button_width(bar, c, wide=True) + 12 for c in choices) <= bar.w


def paginate(bar: pygame.Rect, choices: list[Choice]) -> list[list[Choice]]:
    """The choices in pages: one page when all fit; else pages between arrows, greyed
    actions last, each filled with every later button that still fits. A button
    keeps its width (up to a page): squeezed, "Steal from: Catherine" and "Steal from:
    Cat" would read alike."""
    if fits_wide(bar, choices):
        return [list(choices)]
    # Paged, the moves that can be made come first: Bust beside Negate, the greyed Roll
    # after (a confirm button greyed until something is marked keeps its place).
    choices = sorted(choices, key=lambda c: not c.enabled and c.tag.startswith("action:"))
    room = bar.w - 2 * (ARROW + 10)
    cap = page_cap(bar)
    pages: list[list[Choice]] = []
    used_by: list[int] = []
    # What can be done now comes first: the first page holds the buttons the header names
    # ("choose Claim or End turn"); actions greyed for now follow (a greyed confirm of a
    # choice being built stays where it is, beside its choice).
    for c in sorted(choices, key=lambda c: not c.enabled and c.tag.startswith("action:")):
        w = min(button_width(bar, c), cap) + 12
        for k, used in enumerate(used_by):
            if used + w <= room:
                pages[k].append(c)
                used_by[k] += w
                break
        else:
            pages.append([c])
            used_by.append(w)
    return pages


def page_cap(bar: pygame.Rect) -> int:
    """The widest a button may be on a page between arrows: two always fit side by side,
    so a page never shows one choice alone (Pass beside Play, not a page away)."""
    return (bar.w - 2 * (ARROW + 10)) // 2 - 12


def bar_controls(bar: pygame.Rect, choices: list[Choice], page: int,
                 choose: Callable[[Choice], None], turn_page: Callable[[int], None]
                 ) -> tuple[list[Control], int]:
    """The buttons of one page (and the page actually shown)."""
    pages = paginate(bar, choices)
    page = max(0, min(page, len(pages) - 1))
    paged = len(pages) > 1 or not fits_wide(bar, choices)
    cap = page_cap(bar)
    x = bar.x + (ARROW + 10 if paged else 0)
    controls: list[Control] = []
    key_w = theme.font(theme.SMALL, True).size
    for c in pages[page]:
        w = min(button_width(bar, c), cap) if paged else button_width(bar, c, wide=True)
        # Cut only what does not fit even at the button's smallest type: the button shrinks
        # its words first ("Steal from: Catherine" whole, a little smaller).
        label = theme.ellipsize(c.label, theme.font(theme.SIZE_TINY, True),
                                w - (key_w(c.key)[0] + 40 if c.key else 0) - 30)
        controls.append(Control(pygame.Rect(x, bar.y, w, bar.h), label,
                                partial(choose, c), key=c.key, enabled=c.enabled,
                                why_disabled=c.reason, tag=c.tag))
        x += w + 12
    if paged:
        controls.append(Control(pygame.Rect(bar.x, bar.y, ARROW, bar.h), "<",
                                lambda: turn_page(-1), tag="page:prev", enabled=page > 0))
        controls.append(Control(pygame.Rect(bar.right - ARROW, bar.y, ARROW, bar.h), ">",
                                lambda: turn_page(1), tag="page:next",
                                enabled=page < len(pages) - 1))
    return controls, page
