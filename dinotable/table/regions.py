"""The table's layout manager: named regions of the canvas, worked out for the window's
shape, and the widgets placed in them, stacked top to bottom, each as tall as it asks
while they fit.

Regions: the header across the top, the players column on the left, the centre (tray,
track, cards), the side column on the right (piles), the log under it, the action bar and
the menu buttons along the bottom. The columns' widths follow the canvas's width within
readable limits; the centre takes what is left. Widgets ask for a region and a height;
the manager never lets two overlap or leave the canvas (a test lays out every ruleset's
whole games at several window sizes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import pygame

MIN_SIZE = (1024, 700)  # below this the app scales the canvas down rather than re-flow
CANVAS = pygame.Rect(0, 0, 1280, 720)  # the reference size, and the regions' defaults
TOP = 112  # where the columns start, under the header
MARGIN = 16
GAP = 10
NARROW = 1100  # a canvas narrower than this puts the log over the action bar


CENTRE_LEAST = 440  # what a wider players column leaves the centre: four tiles in a row


def regions_for(size: tuple[int, int], wide_players: int = 0) -> dict[str, pygame.Rect]:
    """The table's regions on a canvas of `size` (at 1280x720 the reference layout).
    `wide_players`: a card game, whose players column holds each player's area; more than
    32 (hundredths of the width) asks for more where the centre keeps room enough."""
    w, h = max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1])
    bottom = h - 130  # where the columns end, over the action bar
    if wide_players:
        side_w = max(240, min(340, w * 20 // 100))
        players_w = max(260, min(600, w * 32 // 100))
        if wide_players > 32:
            players_w = max(players_w, min(600, w * wide_players // 100,
                                           w - 4 * MARGIN - side_w - CENTRE_LEAST))
    else:
        players_w = max(240, min(340, w * 268 // 1280))
        side_w = max(260, min(380, w * 288 // 1280))
    log_h = max(150, min(260, h * 176 // 720))
    side_x = w - MARGIN - side_w
    log_y = h - MARGIN - log_h
    centre_x = MARGIN + players_w + MARGIN
    bar_x = 160
    bar_w = side_x - MARGIN - bar_x
    if w < NARROW:
        # A narrow (4:3) window: the log stands over the action bar, at the side column's
        # foot, so the bar has the whole width and its buttons keep their words.
        log_h, log_y = 150, bottom - 150
        bar_w = w - MARGIN - bar_x
    return {
        "header": pygame.Rect(MARGIN, 12, w - 2 * MARGIN, 84),
        "players": pygame.Rect(MARGIN, TOP, players_w, bottom - TOP),
        "centre": pygame.Rect(centre_x, TOP, side_x - MARGIN - centre_x, bottom - TOP),
        "side": pygame.Rect(side_x, TOP, side_w, log_y - MARGIN - TOP),
        "log": pygame.Rect(side_x, log_y, side_w, log_h),
        "bar": pygame.Rect(bar_x, h - 120, bar_w, 70),
        "menu": pygame.Rect(MARGIN, h - 120, 130, 112),
        "note": pygame.Rect(bar_x, h - 44, bar_w, 36),
    }


REGIONS = regions_for(CANVAS.size)
BOTTOM = REGIONS["players"].bottom  # the reference canvas's columns end here


class Placed(Protocol):
    """What the manager needs of a widget: where it goes and how tall it likes to be."""

    region: str
    grow: bool  # takes what is left of its column
    shrinks: bool  # may be squeezed when the column is full
    pairs: bool  # shares a row with neighbours of its kind (two players' panels; `per_row`)
    fills: bool  # takes the room its column has left when nothing there grows
    least: int  # a growing part's least height: the parts that shrink give way to it

    def wanted(self, seats: int) -> int:
        """How tall it would like to be now."""
        ...


def stack(column: pygame.Rect, parts: Sequence[Placed], seats: int, gap: int = GAP
          ) -> list[pygame.Rect]:
    """Rects for `parts` stacked down `column`: each as tall as it asks; the growing ones
    share what is left; when they do not fit, the ones that may shrink shrink alike."""
    rows: list[list[int]] = []  # indices of the parts on each row

    def key(part: Placed) -> object:
        """What parts that share a row have alike: their kind (`row_key`), else class."""
        return (type(part), getattr(part, "row_key", None))

    for n, part in enumerate(parts):
        if rows and part.pairs and len(rows[-1]) < getattr(part, "per_row", 2) and all(
                parts[k].pairs and key(parts[k]) == key(part) for k in rows[-1]):
            rows[-1].append(n)
        else:
            rows.append([n])
    # A growing row asks only for its least height (a tray the dice fit in): it takes
    # what is left, at least that.
    wanted = [max(getattr(parts[k], "least", 0) if parts[k].grow else parts[k].wanted(seats)
                  for k in row) for row in rows]
    growing = [any(parts[k].grow for k in row) for row in rows]
    # A row that wants no room (an empty zone) takes no gap either.
    shown_rows = sum(1 for h, g in zip(wanted, [any(parts[k].grow for k in row) for row in rows],
                                      strict=True) if h or g)
    room = column.h - gap * max(0, shown_rows - 1)
    fixed = sum(wanted)
    heights = list(wanted)
    if fixed > room:
        keep = sum(h for h, row, g in zip(wanted, rows, growing, strict=True)
                   if g or not any(parts[k].shrinks for k in row))
        squeezable = max(1, fixed - keep)
        scale = max(0.0, (room - keep) / squeezable)
        heights = [h if g or not any(parts[k].shrinks for k in row) else int(h * scale)
                   for h, row, g in zip(wanted, rows, growing, strict=True)]
    n_grow = sum(growing)
    left = max(0, room - sum(h for h, g in zip(heights, growing, strict=True) if not g))
    for i, g in enumerate(growing):
        if g:
            heights[i] = max(heights[i], left // n_grow)
    filling = [i for i, row in enumerate(rows) if any(getattr(parts[k], "fills", False)
                                                      for k in row)]
    if not n_grow and filling and left:
        # Nothing takes the rest of the column: a part that can use it (a track whose
        # rows grow roomier) does, rather than leave a band of bare felt under it.
        for i in filling:
            heights[i] += left // len(filling)
    out: list[pygame.Rect] = [pygame.Rect(0, 0, 0, 0)] * len(parts)
    y = column.y
    for row, h in zip(rows, heights, strict=True):
        h = min(h, column.bottom - y)
        w_each = (column.w - gap * (len(row) - 1)) // len(row)
        for k, n in enumerate(row):
            out[n] = pygame.Rect(column.x + k * (w_each + gap), y, w_each, max(0, h))
        y += h + (gap if h > 0 else 0)
    return out


def place(parts: Sequence[Placed], seats: int,
          regions: dict[str, pygame.Rect] | None = None) -> list[pygame.Rect]:
    """Every widget's rect, in the order given: the columns are stacked, fixed regions
    (header, log, bar, menu) are given whole."""
    out: list[pygame.Rect] = [pygame.Rect(0, 0, 0, 0)] * len(parts)
    for name, column in (regions or REGIONS).items():
        members = [n for n, p in enumerate(parts) if p.region == name]
        if not members:
            continue
        rects = stack(column, [parts[n] for n in members], seats)
        for n, rect in zip(members, rects, strict=True):
            out[n] = rect
    return out
