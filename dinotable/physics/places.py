"""Where the dice of a toss start: a handful round the drag's start, or an edge they
enter by, clear of the frame, the tray's labels and the dice lying still; and which way
they head so none is thrown straight into the wall beside it."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .world import CLEAR_MARGIN, Rect, Spot, _overlaps, overlap

if TYPE_CHECKING:
    from .tray import Tray

HAND_PASSES = (
    (1.5, True, 0.25),
    (1.5, True, 0.125),
    (1.12, False, 0.125),
    (1.04, False, 0.0625),  # a tray nearly full: square-on, just apart
)
"""Where thrown dice start, loosest first: (pitch in die widths, whether they may be
turned any way, grid step in die widths)."""

# Entry edges: inward normal and tangent for left, right, top, bottom.
NORMALS = ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))


def hand_spots(
    tray: Tray,
    count: int,
    sx: float,
    sy: float,
    rng: random.Random,
    areas: Sequence[Rect],
    still: Sequence[Spot] = (),
) -> tuple[list[Spot], bool]:
    """Free spots for `count` dice in a loose cluster round (sx, sy), nearest first,
    off the dice lying `still`; and whether the dice may be turned any way there
    (when crowded they start square-on and closer)."""
    for spacing in HAND_PASSES:
        chosen = cluster(tray, count, sx, sy, spacing, areas, still)
        if chosen is not None:
            if spacing[1]:
                chosen = [(x, y, rng.uniform(0.0, 2.0 * math.pi)) for x, y, _a in chosen]
            return chosen, spacing[1]
    # Labels fill the tray: throw from anywhere rather than not at all.
    if areas:
        return hand_spots(tray, count, sx, sy, rng, (), still)
    raise ValueError(
        f"no room in a {tray.width}x{tray.height} tray for {count} "
        f"{tray.die_size}-unit dice"
    )


def cluster(
    tray: Tray,
    count: int,
    sx: float,
    sy: float,
    spacing: tuple[float, bool, float],
    areas: Sequence[Rect],
    still: Sequence[Spot],
) -> list[Spot] | None:
    """`count` spots nearest (sx, sy) on a grid, `spacing` (pitch in die widths,
    whether dice may be turned any way there, grid step in die widths) apart, off
    the areas and the still dice; None if they do not fit."""
    size = tray.die_size
    pitch, free_angle, step = spacing
    lo = (0.75 if free_angle else 0.56) * size + tray.wall_inset
    if tray.width - 2 * lo < 0 or tray.height - 2 * lo < 0:
        return None
    cx = min(max(sx, lo), tray.width - lo)
    cy = min(max(sy, lo), tray.height - lo)
    grid = step * size
    spots: list[tuple[float, float, float]] = []
    nx = int(tray.width // grid) + 1
    ny = int(tray.height // grid) + 1
    for i in range(-nx, nx + 1):
        for j in range(-ny, ny + 1):
            x, y = cx + i * grid, cy + j * grid
            if lo - 1e-9 <= x <= tray.width - lo + 1e-9 and (
                lo - 1e-9 <= y <= tray.height - lo + 1e-9
            ):
                spots.append((math.hypot(x - cx, y - cy), x, y))
    spots.sort()
    reach = (0.75 if free_angle else 0.5) * size
    chosen: list[Spot] = []
    for _d, x, y in spots:
        if any(_overlaps(x, y, reach, area, CLEAR_MARGIN) for area in areas):
            continue
        if any(math.hypot(x - px, y - py) < pitch * size - 1e-9 for px, py, _a in chosen):
            continue
        # Turned any way a die stays within 0.71 of a width of its centre.
        if free_angle and any(math.hypot(x - ox, y - oy) < 1.5 * size for ox, oy, _a in still):
            continue
        if not free_angle and any(apart(tray, (x, y, 0.0), o) < 1.0 for o in still):
            continue
        chosen.append((x, y, 0.0))
        if len(chosen) == count:
            return chosen
    return None


def apart(tray: Tray, a: Spot, b: Spot) -> float:
    """The gap between dice lying at spots a and b (negative: they overlap)."""
    return -overlap(tray.die_size, tray.corner_radius, a, b)


def open_heading(tray: Tray, x: float, y: float, ux: float, uy: float) -> tuple[float, float]:
    """Turn a heading (by the least angle, at most 90 degrees) until a die at (x, y)
    has a few widths of open felt before it meets a wall, so no die is thrown
    straight into the wall beside it."""
    need = 2.5 * tray.die_size
    best = (-1.0, ux, uy)
    towards_middle = (tray.width / 2 - x) * -uy + (tray.height / 2 - y) * ux
    first = 1.0 if towards_middle >= 0 else -1.0  # try turning towards the middle first
    for degrees in range(0, 91, 10):
        for side in (first, -first) if degrees else (1.0,):
            turn = math.radians(side * degrees)
            vx = ux * math.cos(turn) - uy * math.sin(turn)
            vy = ux * math.sin(turn) + uy * math.cos(turn)
            free = free_run(tray, x, y, vx, vy)
            if free >= need:
                return vx, vy
            if free > best[0]:
                best = (free, vx, vy)
    return best[1], best[2]


def free_run(tray: Tray, x: float, y: float, ux: float, uy: float) -> float:
    """How far a die's centre can go from (x, y) along (ux, uy) before a wall stops it."""
    lo = 0.5 * tray.die_size + tray.wall_inset
    run = math.inf
    for pos, vel, top in ((x, ux, tray.width - lo), (y, uy, tray.height - lo)):
        if vel > 1e-9:
            run = min(run, (top - pos) / vel)
        elif vel < -1e-9:
            run = min(run, (lo - pos) / vel)
    return max(0.0, run)


def entry_spots(
    tray: Tray,
    count: int,
    edge: int,
    along: float,
    taken: list[tuple[float, float]],
    rng: random.Random,
    areas: Sequence[Rect] = (),
) -> list[tuple[float, float, float]]:
    """Free spots in a cluster by the entry edge, nearest the fling first."""
    if count == 0:
        return []
    size, m = tray.die_size, tray.wall_inset
    length, depth_total = (tray.height, tray.width) if edge < 2 else (tray.width, tray.height)
    # A loose lattice lets dice start at any angle; when that is full, any free
    # spot on a fine grid; when crowded, dice start square-on and closer.
    passes = (
        (1.5, 1.5, 0.75, True, False),
        (1.5, 1.5, 0.75, True, True),
        (1.12, 1.25, 0.56, False, True),
    )
    for pitch, clear, margin, free_angle, fine in passes:
        gap = pitch * size
        lo = margin * size + m
        centre = min(max(along, lo), length - lo)
        grid = 0.125 * size if fine else gap
        spots: list[tuple[float, int, int, float, float]] = []
        rows = int((depth_total - 2 * lo) // grid) + 1
        reach = int(length // grid) + 1
        for r in range(rows):
            for j in range(-reach, reach + 1):
                a = centre + j * grid
                if lo - 1e-9 <= a <= length - lo + 1e-9:
                    spots.append((math.hypot(j, r), r, abs(j), a, lo + r * grid))
        spots.sort()
        chosen: list[tuple[float, float, float]] = []
        for *_key, a, depth in spots:
            x, y = edge_point(edge, a, depth, tray.width, tray.height)
            if any(math.hypot(x - px, y - py) < clear * size for px, py in taken):
                continue
            if any(_overlaps(x, y, 0.75 * size, area, CLEAR_MARGIN) for area in areas):
                continue
            if any(math.hypot(x - cx, y - cy) < gap - 1e-9 for cx, cy, _ in chosen):
                continue
            chosen.append((x, y, 0.0))
            if len(chosen) == count:
                if free_angle:  # a loose handful, not a grid (still clear of each other)
                    chosen = [
                        (
                            x + rng.uniform(-0.04, 0.04) * size,
                            y + rng.uniform(-0.04, 0.04) * size,
                            rng.uniform(0.0, 2.0 * math.pi),
                        )
                        for x, y, _ in chosen
                    ]
                return chosen
    if areas:  # labels fill the edge: enter anywhere rather than not at all
        return entry_spots(tray, count, edge, along, taken, rng)
    raise ValueError(
        f"no room in a {tray.width}x{tray.height} tray for {count} more "
        f"{tray.die_size}-unit dice"
    )


def inward(dx: float, dy: float, edge: int, rng: random.Random) -> tuple[float, float]:
    """The fling direction, turned so dice entering by `edge` head into the tray."""
    nx, ny = NORMALS[edge]
    tx, ty = -ny, nx
    normal = dx * nx + dy * ny
    if normal >= 0.3:
        return dx, dy
    tangent = dx * tx + dy * ty
    side = math.copysign(1.0, tangent) if abs(tangent) > 1e-9 else rng.choice((-1.0, 1.0))
    k = math.sqrt(1.0 - 0.3**2)
    return 0.3 * nx + side * k * tx, 0.3 * ny + side * k * ty


def edge_point(edge: int, along: float, depth: float, w: float, h: float) -> tuple[float, float]:
    if edge == 0:
        return depth, along
    if edge == 1:
        return w - depth, along
    if edge == 2:
        return along, depth
    return along, h - depth
