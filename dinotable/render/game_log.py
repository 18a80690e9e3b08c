"""The table's log: the story so far on a parchment strip, read back by scrolling."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from dinotable.render import theme

_log_rows: list[Any] = []  # the last log drawn: (its lines, size, width) and its rows


def draw_log(
    surface: pygame.Surface,
    rect: pygame.Rect,
    lines: Sequence[str],
    scroll: int = 0,
    size: int = theme.SIZE_SMALL,
) -> int:
    """The story so far on a parchment strip, newest line at the bottom and in bold.

    `scroll` counts wrapped rows scrolled back from the newest. Returns the largest
    useful scroll, for the caller to clamp to.
    """
    radius = 12
    pygame.draw.rect(surface, theme.PARCHMENT, rect, border_radius=radius)
    pygame.draw.rect(surface, theme.WOOD, rect, 3, border_radius=radius)
    pad = 12
    inner = rect.inflate(-2 * pad, -2 * pad)
    regular = theme.font(size)
    line_h = regular.get_linesize()
    # The same log is drawn frame after frame: its rows are wrapped once per change.
    key = (tuple(lines), size, inner.width)
    if _log_rows and _log_rows[0] == key:
        rows = _log_rows[1]
    else:
        rows = []
        for i, line in enumerate(lines):
            newest = i == len(lines) - 1
            f = theme.font(size, bold=newest)
            rows.extend((row, newest) for row in theme.wrap(line, f, inner.width - 8))
        _log_rows[:] = [key, rows]
    visible = max(1, inner.height // line_h)
    max_scroll = max(0, len(rows) - visible)
    scroll = max(0, min(scroll, max_scroll))
    end = len(rows) - scroll
    shown = rows[max(0, end - visible) : end]

    clip = surface.get_clip()
    surface.set_clip(inner.clip(clip) if clip else inner)
    y = inner.bottom - len(shown) * line_h
    for row, newest in shown:
        if newest:
            pygame.draw.rect(
                surface,
                theme.lighter(theme.GOLD, 0.6),
                (inner.x - 4, y, inner.width + 8, line_h),
                border_radius=6,
            )
        theme.text(surface, row, (inner.x + 4, y), size, theme.INK, bold=newest)
        y += line_h
    surface.set_clip(clip)

    marker = 9
    if end - visible > 0:  # older lines above
        x, y0 = rect.right - 22, rect.top + 6
        pygame.draw.polygon(
            surface,
            theme.WOOD_DARK,
            [(x - marker, y0 + marker), (x + marker, y0 + marker), (x, y0)],
        )
    if scroll > 0:  # newer lines below
        x, y0 = rect.right - 22, rect.bottom - 6
        pygame.draw.polygon(
            surface,
            theme.WOOD_DARK,
            [(x - marker, y0 - marker), (x + marker, y0 - marker), (x, y0)],
        )
    return max_scroll


def forget() -> None:
    _log_rows.clear()


pygame.register_quit(forget)
