"""A top-down pymunk dice tray whose tosses land on the faces the engine chose.

The rules engine decides every face before a die leaves the hand; the tray only
stages the toss. A toss is simulated whole, at a fixed step, before anything is
drawn, then replayed by time with `Toss.pose`, so frames at any rate are smooth
and the same inputs always give the same toss.

The pymunk world itself (walls, felt friction, the recorded steps) is in
`physics/world.py`.

The face shown changes each time a die has rolled about one die width, through
a seeded shuffle of that die's faces planned backwards from the engine's face,
so the last change lands on it while the die is still sliding to a stop.

Calling it (the table)::

    tray = Tray(felt_w, felt_h, die_size=64, frame=14)   # frame: the drawn wooden rim
    toss = tray.toss(
        dice,                      # [(die id, faces, face the engine chose), ...]
        seed,
        fling=(x0, y0, vx, vy),    # drag start (tray units) and release velocity (units/s);
                                   # None for a keyboard toss
        resting=spots,             # {die id: (x, y, angle)} where dice lie now
        showing=faces_now,         # {die id: face shown now}
        keep_clear=[(x, y, w, h)], # label areas on the felt, tray units: no die rests there
    )
    pose = toss.pose(die_id, t)    # x, y, angle (degrees), face, moving; until toss.duration

With a fling every tossed die starts in a cluster round (x0, y0) and heads the drag's way
at `Tray.launch_speed(|v|)`: a slow drag rolls the dice about a die width, a fast one
across the tray. No die comes to rest on the frame, on another die or on a keep-clear area.
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_right
from collections.abc import Mapping, Sequence

from .world import (
    CLEAR_MARGIN,
    DT,
    SETTLE_LIMIT,
    SPIN_TIME,
    SUBSTEPS,
    TRAVEL_TIME,
    Bump,
    DiePose,
    Rect,
    Toss,
    _Launch,
    _overlaps,
    _Track,
    _World,
)

__all__ = ["DT", "SETTLE_LIMIT", "Bump", "DiePose", "Toss", "Tray", "bench"]

FRAME = 14.0
"""Default width of the wooden frame round the felt (as `render.theme.draw_tray` draws it)."""
FELT_CORNER = 14.0
"""The radius of the felt's rounded corners (as `render.theme.draw_tray` draws them)."""
GENTLE_WIDTHS = 1.2
"""A die from the gentlest drag rolls about this many die widths."""

TAKES = 3
"""At most this many simulations per toss (see `LIVELY_WIDTHS`)."""
LIVELY_WIDTHS = 1.5
"""A take where some die rolls less than this many die widths is thrown again."""

MAX_BUMPS = 30
BUMP_MERGE_S = 0.030
BUMP_MIN_STRENGTH = 0.05

Resting = Mapping[str, tuple[float, float] | tuple[float, float, float]]


# Entry edges: inward normal and tangent for left, right, top, bottom.
_NORMALS = ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))



class Tray:
    """A rectangular felt tray, in tray units (pixels of the 1280x720 reference table)."""

    def __init__(
        self, width: float, height: float, die_size: float = 64.0, frame: float = FRAME
    ) -> None:
        if die_size <= 0:
            raise ValueError(f"die_size must be positive, got {die_size}")
        if width < 3 * die_size or height < 3 * die_size:
            raise ValueError(
                f"a {width}x{height} tray is too small for {die_size}-unit dice: "
                f"each side needs at least {3 * die_size}"
            )
        if not 0 <= frame <= 0.5 * die_size:
            raise ValueError(f"a frame of {frame} does not suit {die_size}-unit dice")
        self.width = float(width)
        self.height = float(height)
        self.die_size = float(die_size)
        self.corner_radius = 0.08 * die_size
        self.sink = 0.08 * die_size
        """How far a die may sink into a wall in flight (the physics' safety margin)."""
        self.wall_inset = max(float(frame), self.sink)
        self.felt_corner = FELT_CORNER if frame else 0.0
        """The walls' inner faces sit this far inside the tray rect: on the frame's inner
        edge, so no die ever lies on the frame."""
        # In one pymunk step a die may sink into a wall by as far as it moves: keep
        # that within the margin, so a centre never comes nearer the tray edge than half
        # a die.
        self.speed_cap = 0.75 * self.sink * SUBSTEPS / DT
        self.spin_cap = 20.0
        # A lone die thrown at speed v stops after TRAVEL_TIME, having rolled
        # v * TRAVEL_TIME / 2: 3.5 die widths for the softest throw, most of the
        # tray for the strongest (as far as the speed ceiling allows).
        self.speed_min = 2.0 * 3.5 * die_size / TRAVEL_TIME
        reach = 2.0 * 0.7 * max(width, height) / TRAVEL_TIME
        self.speed_max = min(max(reach, 1.5 * self.speed_min), self.speed_cap / 1.25)
        self.fling_full = 2400.0  # a drag this fast (units/s) gives the strongest throw
        # The gentlest throw still rolls a die about GENTLE_WIDTHS widths on the felt.
        self.speed_gentle = math.sqrt(
            2.0 * (self.speed_min / TRAVEL_TIME) * GENTLE_WIDTHS * die_size
        )

    def launch_speed(self, drag_speed: float) -> float:
        """The speed dice leave the hand at for a drag this fast (units/s): in proportion,
        from a gentle roll for a slow drag up to the strongest throw at `fling_full`."""
        k = self.speed_max / self.fling_full
        return min(self.speed_max, max(self.speed_gentle, k * max(0.0, drag_speed)))

    # -- the toss ---------------------------------------------------------------------

    def toss(
        self,
        dice: Sequence[tuple[str, tuple[str, ...], str]],
        seed: int,
        fling: tuple[float, float, float, float] | None = None,
        resting: Resting | None = None,
        showing: Mapping[str, str] | None = None,
        keep_clear: Sequence[Rect] = (),
    ) -> Toss:
        """Simulate a whole toss that ends with each die on the engine's face.

        `dice`: (die id, its faces in order, the face the engine decided).

        `fling`: a drag across the tray, as (start x, start y, velocity x, velocity y) in
        tray units and units per second: where the pointer went down, and how fast and
        which way it was moving when let go. The dice leave the hand in a loose cluster
        round the start point (inside the walls, off `keep_clear`), all heading the drag's
        way at a speed in proportion to the drag's (`launch_speed`): a slow drag rolls
        them gently a die width or so, a fast one sends them across the tray.
        None: a random toss from the seed, the dice rolling from where `resting` says
        they lie and the others entering by an edge.

        `resting`: where dice already on the table lie, as (x, y) or (x, y, angle in
        DiePose degrees). Without a fling they start from there; with one they are
        picked up (their angle is kept). `showing`: the face a die shows now, so its
        tumble starts from it. Entries for dice not in `dice` are ignored.

        `keep_clear`: (x, y, width, height) areas of the tray, in tray units, where no
        die may come to rest (labels drawn on the felt). A die on one is eased off it
        like a die on a slope; a take that still ends with a die on one, on another die
        or against the frame is thrown again.

        The same arguments always give the same toss.
        """
        self._check(dice)
        if not dice:
            return Toss({}, [], 0)
        clear = [tuple(float(v) for v in r) for r in keep_clear]
        areas: list[Rect] = [(r[0], r[1], r[2], r[3]) for r in clear if r[2] > 0 and r[3] > 0]
        # A die that hardly rolls looks like a dud, and one at rest on a label hides it:
        # then throw again (from the same seed, a little differently) and keep the best take.
        best: tuple[tuple[int, float], dict[str, _Track], list[tuple[float, float]], int] | None
        best = None
        for take in range(TAKES):
            rng = random.Random(seed if take == 0 else f"{seed}:take{take}")
            launches, friction, torque = self._launch(dice, rng, fling, resting or {}, areas)
            world = _World(self, launches, friction, torque, areas)
            tracks, clamps = world.run([launch.die_id for launch in launches])
            shortest = min(tr.travelled[-1] for tr in tracks.values())
            lively = LIVELY_WIDTHS * self.die_size
            if fling is not None:  # a gentle drag is meant to roll little
                slowest = min(math.hypot(launch.vx, launch.vy) for launch in launches)
                lively = min(lively, 0.5 * slowest**2 / (2.0 * friction))
            faults = self._faults(tracks, areas)
            score = (faults, -min(shortest, lively))
            if best is None or score < best[0]:
                best = (score, tracks, world.hits, clamps)
            if faults == 0 and shortest >= lively:
                break
        assert best is not None
        _score, tracks, hits, clamps = best
        for die_id, faces, final in dice:
            shown = (showing or {}).get(die_id)
            self._plan_faces(tracks[die_id], faces, final, shown, random.Random(f"{seed}:{die_id}"))
        return Toss(tracks, self._bumps(hits), clamps)

    def reach(self, angle: float) -> float:
        """Half the width of a die's box turned by `angle` (radians): how far it reaches
        from its centre along x or y."""
        c = self.corner_radius  # the corners are rounded: a turned die reaches a little less
        return (0.5 * self.die_size - c) * (abs(math.cos(angle)) + abs(math.sin(angle))) + c

    def _faults(self, tracks: Mapping[str, _Track], areas: Sequence[Rect]) -> int:
        """How many ways the dice lie badly at rest: on a keep-clear area, on the frame,
        on each other."""
        ends = [(tr.xs[-1], tr.ys[-1], tr.angles[-1]) for tr in tracks.values()]
        faults = 0
        edge = self.wall_inset - 0.75 * self.sink  # how far in a die pressed on a wall lies
        for x, y, angle in ends:
            r = self.reach(angle)
            if min(x - r, y - r, self.width - x - r, self.height - y - r) < edge - 0.5:
                faults += 1
            faults += sum(1 for area in areas if _overlaps(x, y, r, area, 0.0))
        for i, (x, y, _a) in enumerate(ends):
            for x2, y2, _b in ends[i + 1 :]:
                if math.hypot(x - x2, y - y2) < 0.95 * self.die_size:
                    faults += 1
        return faults

    @staticmethod
    def _check(dice: Sequence[tuple[str, tuple[str, ...], str]]) -> None:
        seen: set[str] = set()
        for die_id, faces, final in dice:
            if die_id in seen:
                raise ValueError(f"die {die_id!r} is tossed twice")
            seen.add(die_id)
            if final not in faces:
                raise ValueError(
                    f"die {die_id!r} cannot land on {final!r}: its faces are {list(faces)}"
                )

    def _launch(
        self,
        dice: Sequence[tuple[str, tuple[str, ...], str]],
        rng: random.Random,
        fling: tuple[float, float, float, float] | None,
        resting: Resting,
        areas: Sequence[Rect] = (),
    ) -> tuple[list[_Launch], float, float]:
        """Starting positions and velocities; also the felt's friction for this toss."""
        if fling is not None:
            return self._throw(dice, rng, fling, resting, areas)
        w, h = self.width, self.height
        edge = rng.randrange(4)
        length = h if edge < 2 else w
        along = rng.uniform(0.25, 0.75) * length
        nx, ny = _NORMALS[edge]
        turn = rng.uniform(-0.6, 0.6)
        dx = nx * math.cos(turn) - ny * math.sin(turn)
        dy = nx * math.sin(turn) + ny * math.cos(turn)
        power = rng.uniform(0.3, 0.85)
        nominal = self.speed_min + (self.speed_max - self.speed_min) * power
        spin_nominal = 5.0 + 7.0 * power

        placed: list[tuple[float, float]] = []
        launches: list[_Launch] = []
        for die_id, _faces, _final in dice:
            if die_id in resting:
                spot = resting[die_id]
                angle = -math.radians(float(spot[2])) if len(spot) > 2 else 0.0
                # A die turned on its corner reaches further: keep it clear of the walls.
                lo = self.reach(angle) + self.wall_inset
                x = min(max(float(spot[0]), lo), w - lo)
                y = min(max(float(spot[1]), lo), h - lo)
                placed.append((x, y))
                launches.append(_Launch(die_id, x, y, angle, dx, dy, 0.0))
        newcomers = [die_id for die_id, _f, _g in dice if die_id not in resting]
        entry_dx, entry_dy = _inward(dx, dy, edge, rng)
        for die_id, (x, y, angle) in zip(
            newcomers,
            self._entry_spots(len(newcomers), edge, along, placed, rng, areas),
            strict=True,
        ):
            launches.append(_Launch(die_id, x, y, angle, entry_dx, entry_dy, 0.0))

        order = {die_id: i for i, (die_id, _f, _g) in enumerate(dice)}
        launches.sort(key=lambda launch: order[launch.die_id])
        for launch in launches:
            turn = rng.uniform(-0.22, 0.22)
            speed = nominal * rng.uniform(0.85, 1.1)
            ux, uy = launch.vx, launch.vy
            ux, uy = self._open_heading(
                launch.x,
                launch.y,
                ux * math.cos(turn) - uy * math.sin(turn),
                ux * math.sin(turn) + uy * math.cos(turn),
            )
            launch.vx, launch.vy = ux * speed, uy * speed
            launch.spin = rng.choice((-1.0, 1.0)) * spin_nominal * rng.uniform(0.5, 1.0)
        return launches, nominal / TRAVEL_TIME, spin_nominal / SPIN_TIME

    def _throw(
        self,
        dice: Sequence[tuple[str, tuple[str, ...], str]],
        rng: random.Random,
        fling: tuple[float, float, float, float],
        resting: Resting,
        areas: Sequence[Rect],
    ) -> tuple[list[_Launch], float, float]:
        """A drag's toss: every die from a cluster at the drag's start, the drag's way, at
        a speed in proportion to the drag's."""
        sx, sy, fvx, fvy = (float(v) for v in fling)
        drag = math.hypot(fvx, fvy)
        if drag > 1e-6:
            dx, dy = fvx / drag, fvy / drag
        else:  # no direction to follow: towards the middle of the tray
            mx, my = self.width / 2 - sx, self.height / 2 - sy
            norm = math.hypot(mx, my) or 1.0
            dx, dy = (mx / norm, my / norm) if math.hypot(mx, my) > 1e-6 else (1.0, 0.0)
        nominal = self.launch_speed(drag)
        span = max(1e-9, self.speed_max - self.speed_gentle)
        power = min(1.0, max(0.0, (nominal - self.speed_gentle) / span))
        spin_nominal = 3.0 + 9.0 * power
        spots = self._hand_spots(len(dice), sx, sy, rng, areas)
        launches: list[_Launch] = []
        for (die_id, _faces, _final), (x, y, angle) in zip(dice, spots, strict=True):
            spot = resting.get(die_id)
            if spot is not None and len(spot) > 2:
                angle = -math.radians(float(spot[2]))  # picked up, not turned over
            turn = rng.uniform(-0.12, 0.12)
            speed = nominal * rng.uniform(0.9, 1.08)
            ux = dx * math.cos(turn) - dy * math.sin(turn)
            uy = dx * math.sin(turn) + dy * math.cos(turn)
            spin = rng.choice((-1.0, 1.0)) * spin_nominal * rng.uniform(0.5, 1.0)
            launches.append(_Launch(die_id, x, y, angle, ux * speed, uy * speed, spin))
        # The felt brakes at least as a gentle throw's would: a soft drag stops soon.
        friction = max(nominal, self.speed_min) / TRAVEL_TIME
        return launches, friction, max(spin_nominal, 5.0) / SPIN_TIME

    def _hand_spots(
        self, count: int, sx: float, sy: float, rng: random.Random, areas: Sequence[Rect]
    ) -> list[tuple[float, float, float]]:
        """Free spots for `count` dice in a loose cluster round (sx, sy), nearest first."""
        size = self.die_size
        passes = ((1.5, True, 0.25), (1.5, True, 0.125), (1.12, False, 0.125))
        for pitch, free_angle, step in passes:
            lo = (0.75 if free_angle else 0.56) * size + self.wall_inset
            if self.width - 2 * lo < 0 or self.height - 2 * lo < 0:
                continue
            cx = min(max(sx, lo), self.width - lo)
            cy = min(max(sy, lo), self.height - lo)
            grid = step * size
            spots: list[tuple[float, float, float]] = []
            nx = int(self.width // grid) + 1
            ny = int(self.height // grid) + 1
            for i in range(-nx, nx + 1):
                for j in range(-ny, ny + 1):
                    x, y = cx + i * grid, cy + j * grid
                    if lo - 1e-9 <= x <= self.width - lo + 1e-9 and (
                        lo - 1e-9 <= y <= self.height - lo + 1e-9
                    ):
                        spots.append((math.hypot(x - cx, y - cy), x, y))
            spots.sort()
            reach = (0.75 if free_angle else 0.5) * size
            chosen: list[tuple[float, float, float]] = []
            for _d, x, y in spots:
                if any(_overlaps(x, y, reach, area, CLEAR_MARGIN) for area in areas):
                    continue
                if any(math.hypot(x - px, y - py) < pitch * size - 1e-9 for px, py, _a in chosen):
                    continue
                chosen.append((x, y, 0.0))
                if len(chosen) == count:
                    if free_angle:
                        return [(x, y, rng.uniform(0.0, 2.0 * math.pi)) for x, y, _a in chosen]
                    return chosen
        # Labels fill the tray: throw from anywhere rather than not at all.
        if areas:
            return self._hand_spots(count, sx, sy, rng, ())
        raise ValueError(
            f"no room in a {self.width}x{self.height} tray for {count} "
            f"{self.die_size}-unit dice"
        )

    def _open_heading(self, x: float, y: float, ux: float, uy: float) -> tuple[float, float]:
        """Turn a heading (by the least angle, at most 90 degrees) until a die at (x, y)
        has a few widths of open felt before it meets a wall, so no die is thrown
        straight into the wall beside it."""
        need = 2.5 * self.die_size
        best = (-1.0, ux, uy)
        towards_middle = (self.width / 2 - x) * -uy + (self.height / 2 - y) * ux
        first = 1.0 if towards_middle >= 0 else -1.0  # try turning towards the middle first
        for degrees in range(0, 91, 10):
            for side in (first, -first) if degrees else (1.0,):
                turn = math.radians(side * degrees)
                vx = ux * math.cos(turn) - uy * math.sin(turn)
                vy = ux * math.sin(turn) + uy * math.cos(turn)
                free = self._free_run(x, y, vx, vy)
                if free >= need:
                    return vx, vy
                if free > best[0]:
                    best = (free, vx, vy)
        return best[1], best[2]

    def _free_run(self, x: float, y: float, ux: float, uy: float) -> float:
        """How far a die's centre can go from (x, y) along (ux, uy) before a wall stops it."""
        lo = 0.5 * self.die_size + self.wall_inset
        run = math.inf
        for pos, vel, top in ((x, ux, self.width - lo), (y, uy, self.height - lo)):
            if vel > 1e-9:
                run = min(run, (top - pos) / vel)
            elif vel < -1e-9:
                run = min(run, (lo - pos) / vel)
        return max(0.0, run)

    def _entry_spots(
        self,
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
        size, m = self.die_size, self.wall_inset
        length, depth_total = (self.height, self.width) if edge < 2 else (self.width, self.height)
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
                x, y = _edge_point(edge, a, depth, self.width, self.height)
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
            return self._entry_spots(count, edge, along, taken, rng)
        raise ValueError(
            f"no room in a {self.width}x{self.height} tray for {count} more "
            f"{self.die_size}-unit dice"
        )

    # -- simulation -------------------------------------------------------------------


    def _plan_faces(
        self, tr: _Track, faces: tuple[str, ...], final: str, shown: str | None, rng: random.Random
    ) -> None:
        """Face changes every die width rolled, planned backwards from `final`."""
        size = self.die_size
        total = tr.travelled[-1]
        if total < 0.05 * size:
            changes = 0  # it never really moved: it simply shows the final face
            last = 0.0
        else:
            last = total - min(0.4 * size, 0.3 * total)  # final face shows while sliding
            changes = 1 + max(0, math.floor((last - 0.5 * size) / size))
        cycle = _face_cycle(faces, rng)
        end = rng.choice([i for i, face in enumerate(cycle) if face == final])
        seq = [cycle[(end - (changes - k)) % len(cycle)] for k in range(changes + 1)]
        if shown is not None and changes > 0:
            seq[0] = shown  # a re-rolled die starts from the face it was showing
        tr.faces = seq
        marks = [last - (changes - 1 - k) * size for k in range(changes)]
        tr.change_t = [_time_at(tr.travelled, mark) for mark in marks]

    @staticmethod
    def _bumps(hits: list[tuple[float, float]]) -> list[Bump]:
        """Impacts as sounds: loud enough, merged within 30 ms, at most 30."""
        # Relative to a fixed die-scale speed so a gentle nudge stays quiet.
        merged: list[list[float]] = []
        for t, speed in sorted(hits):
            strength = min(1.0, speed / 900.0)
            if strength < BUMP_MIN_STRENGTH:
                continue
            if merged and t - merged[-1][0] < BUMP_MERGE_S:
                merged[-1][1] = max(merged[-1][1], strength)
            else:
                merged.append([t, strength])
        if len(merged) > MAX_BUMPS:
            merged = sorted(sorted(merged, key=lambda b: -b[1])[:MAX_BUMPS])
        return [Bump(round(t, 6), s) for t, s in merged]



def _inward(dx: float, dy: float, edge: int, rng: random.Random) -> tuple[float, float]:
    """The fling direction, turned so dice entering by `edge` head into the tray."""
    nx, ny = _NORMALS[edge]
    tx, ty = -ny, nx
    normal = dx * nx + dy * ny
    if normal >= 0.3:
        return dx, dy
    tangent = dx * tx + dy * ty
    side = math.copysign(1.0, tangent) if abs(tangent) > 1e-9 else rng.choice((-1.0, 1.0))
    k = math.sqrt(1.0 - 0.3**2)
    return 0.3 * nx + side * k * tx, 0.3 * ny + side * k * ty


def _edge_point(edge: int, along: float, depth: float, w: float, h: float) -> tuple[float, float]:
    if edge == 0:
        return depth, along
    if edge == 1:
        return w - depth, along
    if edge == 2:
        return along, depth
    return along, h - depth


def _face_cycle(faces: tuple[str, ...], rng: random.Random) -> list[str]:
    """A seeded shuffle of the faces, with as few repeats side by side as a few tries find."""
    best: list[str] = list(faces)
    best_repeats = len(faces) + 1
    for _ in range(16):
        order = list(faces)
        rng.shuffle(order)
        repeats = sum(order[i] == order[i - 1] for i in range(len(order)))
        if repeats < best_repeats:
            best, best_repeats = order, repeats
        if repeats == 0:
            break
    return best


def _time_at(travelled: list[float], mark: float) -> float:
    """When the cumulative path length first reaches `mark` (interpolated)."""
    k = bisect_right(travelled, mark)
    if k <= 0:
        return 0.0
    if k >= len(travelled):
        return (len(travelled) - 1) * DT
    before, after = travelled[k - 1], travelled[k]
    frac = (mark - before) / (after - before) if after > before else 0.0
    return (k - 1 + frac) * DT


# -- benchmark --------------------------------------------------------------------------


def bench(steps: int = 2000) -> dict[str, float]:
    """Physics cost per step with ten dice tumbling, and how long tosses take to settle.

    `physics_step_us`: mean microseconds per pymunk step (ten dice kept tumbling in a
    760x440 tray); `recorded_step_us` is the same for one recorded 1/120 s step
    (`SUBSTEPS` pymunk steps). `settle_s` / `max_settle_s`: mean and longest duration
    of 50 seeded ten-dice random tosses.
    """
    tray = Tray(760.0, 440.0)
    faces = ("dino", "dino", "leaves", "leaves", "footprint", "footprint")
    dice = [(f"d{i}", faces, "dino") for i in range(10)]
    rng = random.Random(0)
    launches, friction, torque = tray._launch(dice, rng, None, {})
    world = _World(tray, launches, friction, torque)
    spent = 0.0
    for k in range(steps):
        if k % (90 * SUBSTEPS) == 0:  # kick them again before the felt stops them
            for body in world.bodies:
                angle = rng.uniform(0.0, 2.0 * math.pi)
                speed = rng.uniform(tray.speed_min, tray.speed_max)
                body.velocity = (speed * math.cos(angle), speed * math.sin(angle))
                body.angular_velocity = rng.uniform(-12.0, 12.0)
        start = time.perf_counter()
        world.space.step(DT / SUBSTEPS)
        spent += time.perf_counter() - start
    durations = [tray.toss(dice, seed).duration for seed in range(50)]
    return {
        "physics_step_us": spent / max(1, steps) * 1e6,
        "recorded_step_us": spent / max(1, steps) * 1e6 * SUBSTEPS,
        "settle_s": sum(durations) / len(durations),
        "max_settle_s": max(durations),
    }
