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
        still=[(x, y, angle)],     # dice lying still (kept): solid, never moved
    )
    pose = toss.pose(die_id, t)    # x, y, angle (degrees), face, moving; until toss.duration

With a fling every tossed die starts in a cluster round (x0, y0) and heads the drag's way
at `Tray.launch_speed(|v|)`: a slow drag rolls the dice about a die width, a fast one
across the tray. No die comes to rest on the frame, on another die or on a keep-clear area;
no thrown die passes over a still one. `Tray.die_for` sizes dice so a count of them fits.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from bisect import bisect_right
from collections.abc import Mapping, Sequence

from .places import NORMALS, apart, entry_spots, hand_spots, inward, open_heading
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
    Spot,
    Toss,
    _Launch,
    _overlaps,
    _Track,
    _World,
    ease_apart,
    overlap,
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
TOUCH = 0.5
"""Dice pressed together at rest may sink into each other by this much (the physics'
contact slop, under a pixel); deeper is an overlap."""

Resting = Mapping[str, tuple[float, float] | tuple[float, float, float]]





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
        still: Sequence[tuple[float, float] | tuple[float, float, float]] = (),
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

        `still`: dice lying in the tray that are not thrown (kept while others are thrown
        again), as (x, y) or (x, y, angle in DiePose degrees). They never move and are as
        solid as the frame: a thrown die bounces off them, and none starts or rests on one.

        The same arguments always give the same toss.
        """
        self._check(dice)
        if not dice:
            return Toss({}, [], 0)
        clear = [tuple(float(v) for v in r) for r in keep_clear]
        areas: list[Rect] = [(r[0], r[1], r[2], r[3]) for r in clear if r[2] > 0 and r[3] > 0]
        lying = [_spot(s) for s in still]
        # A die that hardly rolls looks like a dud, and one at rest on a label hides it:
        # then throw again (from the same seed, a little differently) and keep the best take.
        best: tuple[tuple[int, float], dict[str, _Track], list[tuple[float, float]], int] | None
        best = None
        for take in range(TAKES):
            rng = random.Random(seed if take == 0 else f"{seed}:take{take}")
            launches, friction, torque = self._launch(
                dice, rng, fling, resting or {}, areas, lying
            )
            world = _World(self, launches, friction, torque, areas, lying)
            tracks, clamps = world.run([launch.die_id for launch in launches])
            shortest = min(tr.travelled[-1] for tr in tracks.values())
            lively = LIVELY_WIDTHS * self.die_size
            if fling is not None:  # a gentle drag is meant to roll little
                slowest = min(math.hypot(launch.vx, launch.vy) for launch in launches)
                lively = min(lively, 0.5 * slowest**2 / (2.0 * friction))
            faults = self._faults(tracks, areas, lying)
            score = (faults, -min(shortest, lively))
            if best is None or score < best[0]:
                best = (score, tracks, world.hits, clamps)
            if faults == 0 and shortest >= lively:
                break
        assert best is not None
        _score, tracks, hits, clamps = best
        ease_apart(self, list(tracks.values()), lying, 0.5 * TOUCH)
        for die_id, faces, final in dice:
            shown = (showing or {}).get(die_id)
            self._plan_faces(tracks[die_id], faces, final, shown, random.Random(f"{seed}:{die_id}"))
        return Toss(tracks, self._bumps(hits), clamps)

    def reach(self, angle: float) -> float:
        """Half the width of a die's box turned by `angle` (radians): how far it reaches
        from its centre along x or y."""
        c = self.corner_radius  # the corners are rounded: a turned die reaches a little less
        return (0.5 * self.die_size - c) * (abs(math.cos(angle)) + abs(math.sin(angle))) + c

    def overlap(self, a: Sequence[float], b: Sequence[float]) -> float:
        """How deep two dice lying at (x, y, angle in DiePose degrees) overlap, exactly
        for turned dice with rounded corners (negative: the gap between them)."""
        return overlap(self.die_size, self.corner_radius, _spot(a), _spot(b))

    def _faults(
        self, tracks: Mapping[str, _Track], areas: Sequence[Rect], still: Sequence[Spot]
    ) -> int:
        """How many ways the dice lie badly at rest: on a keep-clear area, on the frame,
        on each other or on a die lying still."""
        ends = [(tr.xs[-1], tr.ys[-1], tr.angles[-1]) for tr in tracks.values()]
        faults = 0
        edge = self.wall_inset - 0.75 * self.sink  # how far in a die pressed on a wall lies
        for x, y, angle in ends:
            r = self.reach(angle)
            if min(x - r, y - r, self.width - x - r, self.height - y - r) < edge - 0.5:
                faults += 1
            faults += sum(1 for area in areas if _overlaps(x, y, r, area, 0.0))
        size, corner = self.die_size, self.corner_radius
        for i, end in enumerate(ends):
            others = [*ends[i + 1 :], *still]
            faults += sum(1 for other in others if overlap(size, corner, end, other) > TOUCH)
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
        still: Sequence[Spot] = (),
    ) -> tuple[list[_Launch], float, float]:
        """Starting positions and velocities; also the felt's friction for this toss."""
        if fling is not None:
            return self._throw(dice, rng, fling, resting, areas, still)
        w, h = self.width, self.height
        edge = rng.randrange(4)
        length = h if edge < 2 else w
        along = rng.uniform(0.25, 0.75) * length
        nx, ny = NORMALS[edge]
        turn = rng.uniform(-0.6, 0.6)
        dx = nx * math.cos(turn) - ny * math.sin(turn)
        dy = nx * math.sin(turn) + ny * math.cos(turn)
        power = rng.uniform(0.3, 0.85)
        nominal = self.speed_min + (self.speed_max - self.speed_min) * power
        spin_nominal = 5.0 + 7.0 * power

        placed: list[Spot] = list(still)
        launches: list[_Launch] = []
        newcomers = []
        for die_id, _faces, _final in dice:
            if die_id not in resting:
                newcomers.append(die_id)
                continue
            x, y, angle = _spot(resting[die_id])
            # A die turned on its corner reaches further: keep it clear of the walls.
            lo = self.reach(angle) + self.wall_inset
            x, y = min(max(x, lo), w - lo), min(max(y, lo), h - lo)
            if any(apart(self, (x, y, angle), other) < 0 for other in still):
                newcomers.append(die_id)  # it lies on a die kept still: it enters instead
                continue
            placed.append((x, y, angle))
            launches.append(_Launch(die_id, x, y, angle, dx, dy, 0.0))
        entry_dx, entry_dy = inward(dx, dy, edge, rng)
        taken = [(x, y) for x, y, _a in placed]
        try:
            spots = entry_spots(self, len(newcomers), edge, along, taken, rng, areas)
        except ValueError:  # dice lying there fill that edge: in from any free spot instead
            spots, _free = hand_spots(self, len(newcomers), w / 2, h / 2, rng, areas, placed)
        for die_id, (x, y, angle) in zip(newcomers, spots, strict=True):
            launches.append(_Launch(die_id, x, y, angle, entry_dx, entry_dy, 0.0))

        order = {die_id: i for i, (die_id, _f, _g) in enumerate(dice)}
        launches.sort(key=lambda launch: order[launch.die_id])
        for launch in launches:
            turn = rng.uniform(-0.22, 0.22)
            speed = nominal * rng.uniform(0.85, 1.1)
            ux, uy = launch.vx, launch.vy
            ux, uy = open_heading(self,
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
        still: Sequence[Spot],
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
        spots, free_angle = hand_spots(self, len(dice), sx, sy, rng, areas, still)
        launches: list[_Launch] = []
        for (die_id, _faces, _final), (x, y, angle) in zip(dice, spots, strict=True):
            spot = resting.get(die_id)
            # Crowded spots are square-on: only a loose handful may keep the dice's turns.
            if spot is not None and len(spot) > 2 and free_angle:
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

    @staticmethod
    def die_for(
        width: float,
        height: float,
        count: int,
        keep_clear: Sequence[Rect] = (),
        largest: int = 64,
        least: int = 32,
    ) -> int:
        """The largest die size (even, from `largest` down to `least`) at which `count`
        dice fit in a tray this big as a loose handful (`holds`)."""
        size = largest
        while size > least and (
            3 * size > min(width, height)
            or not Tray(width, height, size).holds(count, keep_clear)
        ):
            size -= 2
        return size

    def holds(self, count: int, keep_clear: Sequence[Rect] = ()) -> bool:
        """Whether `count` dice fit in this tray as a loose handful: on a grid a width and
        a half apart (so each may be turned any way), inside the walls and off the
        `keep_clear` areas; the room a toss of them needs to come to rest apart."""
        size = self.die_size
        pitch, margin = 1.5 * size, 0.75 * size
        lo = margin + self.wall_inset
        across = [int((side - 2 * lo) // pitch) + 1 for side in (self.width, self.height)]
        if min(across) < 1:
            return False
        best = 0
        # The grid set against each corner in turn, or half a pitch in: the labels sit
        # in a corner, and the most places are found with the grid clear of them.
        for ox, oy in itertools.product((0.0, 0.5), repeat=2):
            places = sum(
                1
                for i, j in itertools.product(range(across[0]), range(across[1]))
                if (x := lo + (i + ox) * pitch) <= self.width - lo
                and (y := lo + (j + oy) * pitch) <= self.height - lo
                and not any(_overlaps(x, y, margin, area, CLEAR_MARGIN) for area in keep_clear)
            )
            best = max(best, places)
        return best >= count

    # -- faces and sounds -------------------------------------------------------------


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



def _spot(spot: Sequence[float]) -> Spot:
    """(x, y) or (x, y, angle in DiePose degrees) as a spot in pymunk radians."""
    return (float(spot[0]), float(spot[1]), -math.radians(float(spot[2])) if len(spot) > 2 else 0.0)


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
