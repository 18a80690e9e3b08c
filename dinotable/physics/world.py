"""The pymunk world a toss is simulated in (the tray's walls, the dice, the felt) and
the toss it records, replayed by time.

Felt friction follows pymunk's ``examples/tank.py``: each die is tied to the
static body by a pivot joint and a gear joint with no positional correction
(``max_bias = 0``) and a capped force, which acts as Coulomb friction: a die
loses speed and spin at a steady rate and stops dead instead of creeping.
The friction is sized from the throw (stronger throws, stronger braking), so a
lone die stops after `TRAVEL_TIME` however hard it was thrown; a die that has
all but stopped rolling also stops spinning; late in a toss the braking ramps up
and a speed ceiling closes to zero, so nothing is still moving at `SETTLE_LIMIT`.
Nothing is ever moved by hand: dice only slow down (but see `ease_apart`: dice the
felt stopped while pressed into each other are parted by the sliver they overlap).

Each recorded step is `SUBSTEPS` short pymunk steps, and speed is capped, so a
die can sink into a wall by less than the walls' inset: a centre never comes
nearer the tray edge than half a die (positions are clamped as a last resort,
counted in `Toss.clamps`, and the tests show it never happens).
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pymunk

if TYPE_CHECKING:
    from .tray import Tray

DT = 1.0 / 120.0
"""The fixed recording step (seconds); every toss is recorded at this rate."""
SUBSTEPS = 3
"""pymunk steps per recorded step: short steps keep a fast die from sinking into a wall."""
SETTLE_LIMIT = 1.5
"""No toss lasts longer than this (seconds)."""
TRAVEL_TIME = 1.0
"""Seconds a lone die thrown at the toss's nominal speed takes to stop."""
SPIN_TIME = 0.75
"""Seconds the felt takes to stop a die's nominal spin."""
RAMP_START = 0.95
"""From here on the felt brakes harder and a speed ceiling closes in."""
STOP_BY = 1.35
"""The speed ceiling reaches zero here, so every die is still before `SETTLE_LIMIT`."""
CLEAR_MARGIN = 2.0
"""Units kept between a resting die and an area it must keep clear of."""

SPIN_BRAKING_STILL = 40.0
"""Extra spin braking (rad/s^2) for a die that has all but stopped rolling."""

_DIE = 1
_WALL = 2
_MOVE_EPS = 1e-3  # px: below this a step is not movement
_TURN_EPS = 1e-5  # rad

Rect = tuple[float, float, float, float]
"""(x, y, width, height) in tray units."""
Spot = tuple[float, float, float]
"""Where a die lies: centre x, y (tray units) and its angle in pymunk radians."""


@dataclass
class _Track:
    """One die's recorded motion and its planned faces."""

    xs: list[float]
    ys: list[float]
    angles: list[float]  # pymunk radians (y-down, so clockwise on screen)
    travelled: list[float]  # cumulative path length at each step
    rest_t: float = 0.0
    faces: list[str] = field(default_factory=list)  # faces[k] shows before change k
    change_t: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class DiePose:
    """Where one die is and what it shows at one moment of a toss."""

    x: float
    """Centre, tray coordinates (origin top-left of the tray rect, y down)."""
    y: float
    angle: float
    """Degrees counterclockwise as seen on screen, in [0, 360): pass it straight to
    ``pygame.transform.rotate``."""
    face: str
    """The face id shown on top right now."""
    moving: bool
    """Still travelling or tumbling (False once this die has come to rest)."""


@dataclass(frozen=True)
class Bump:
    """A collision worth a clatter sound."""

    t: float
    """Seconds from the toss start."""
    strength: float
    """0..1, from the relative impact speed."""


class Toss:
    """A finished toss: every die's motion from the throw until all are at rest."""

    dt: float = DT

    def __init__(self, tracks: dict[str, _Track], bumps: list[Bump], clamps: int) -> None:
        self._tracks = tracks
        self.bumps: list[Bump] = bumps
        self.duration: float = max((tr.rest_t for tr in tracks.values()), default=0.0)
        self.clamps: int = clamps
        """How often a die had to be put back inside the walls (0 in practice)."""

    @property
    def die_ids(self) -> list[str]:
        """The tossed dice, in the order they were given."""
        return list(self._tracks)

    def pose(self, die_id: str, t: float) -> DiePose:
        """The die at `t` seconds (clamped to [0, duration]), between recorded steps."""
        tr = self._tracks[die_id]
        t = min(max(t, 0.0), self.duration)
        held = min(t, tr.rest_t)  # a die at rest holds its final pose exactly
        f = held / DT
        i = min(int(f), len(tr.xs) - 1)
        frac = f - i if i < len(tr.xs) - 1 else 0.0
        j = min(i + 1, len(tr.xs) - 1)
        x = tr.xs[i] + (tr.xs[j] - tr.xs[i]) * frac
        y = tr.ys[i] + (tr.ys[j] - tr.ys[i]) * frac
        a = tr.angles[i] + (tr.angles[j] - tr.angles[i]) * frac
        face = tr.faces[bisect_right(tr.change_t, t)]
        return DiePose(x, y, (-math.degrees(a)) % 360.0, face, t < tr.rest_t)

    def final_poses(self) -> dict[str, DiePose]:
        """Every die as it lies when the toss is over."""
        return {die_id: self.pose(die_id, self.duration) for die_id in self._tracks}

    def rest_time(self, die_id: str) -> float:
        """When this die last moved (it shows its final face from before then)."""
        return self._tracks[die_id].rest_t

    def face_changes(self, die_id: str) -> list[tuple[float, str]]:
        """(time, face now shown) for each change of the face on top."""
        tr = self._tracks[die_id]
        return list(zip(tr.change_t, tr.faces[1:], strict=True))

    def travelled(self, die_id: str) -> float:
        """Path length of this die over the toss (tray units)."""
        return self._tracks[die_id].travelled[-1]

    def track(self, die_id: str) -> list[tuple[float, float]]:
        """The recorded centre at every physics step until this die came to rest."""
        tr = self._tracks[die_id]
        return list(zip(tr.xs, tr.ys, strict=True))

    def max_speed(self, die_id: str) -> float:
        """The fastest this die's centre moved between two steps (units per second)."""
        tr = self._tracks[die_id]
        best = 0.0
        for i in range(1, len(tr.xs)):
            best = max(best, math.hypot(tr.xs[i] - tr.xs[i - 1], tr.ys[i] - tr.ys[i - 1]))
        return best / DT

@dataclass
class _Launch:
    """How one die starts: position, angle (pymunk radians), velocity, spin."""

    die_id: str
    x: float
    y: float
    angle: float
    vx: float
    vy: float
    spin: float



class _World:
    """One pymunk space holding the tray walls and the dice of a toss."""

    def __init__(
        self,
        tray: Tray,
        launches: Sequence[_Launch],
        friction: float,
        torque_per_moment: float,
        areas: Sequence[Rect] = (),
        still: Sequence[Spot] = (),
    ) -> None:
        self.tray = tray
        self.areas = list(areas)
        space = pymunk.Space()
        space.gravity = (0.0, 0.0)
        space.iterations = 12
        self.space = space
        self._add_walls()
        self._add_still(still)
        self.bodies: list[Any] = []
        self.pivots: list[Any] = []
        self.gears: list[Any] = []
        self.base_force = friction  # mass is 1, so this is the felt's deceleration
        self.spin_braking = torque_per_moment  # rad/s^2 while a die rolls freely
        self.moments: list[float] = []
        size = tray.die_size
        corner = tray.corner_radius
        for launch in launches:
            body = pymunk.Body()
            shape = pymunk.Poly.create_box(
                body, (size - 2 * corner, size - 2 * corner), radius=corner
            )
            shape.mass = 1.0
            shape.friction = 0.5
            shape.elasticity = 0.8
            shape.collision_type = _DIE
            body.position = (launch.x, launch.y)
            body.angle = launch.angle
            space.add(body, shape)
            body.velocity = (launch.vx, launch.vy)
            body.angular_velocity = launch.spin
            pivot = pymunk.PivotJoint(space.static_body, body, (0.0, 0.0), (0.0, 0.0))
            pivot.max_bias = 0.0  # friction only: never pull the die anywhere
            pivot.max_force = friction
            gear = pymunk.GearJoint(space.static_body, body, 0.0, 1.0)
            gear.max_bias = 0.0
            gear.max_force = torque_per_moment * body.moment
            space.add(pivot, gear)
            self.bodies.append(body)
            self.pivots.append(pivot)
            self.gears.append(gear)
            self.moments.append(body.moment)
        self.t = 0.0
        self.hits: list[tuple[float, float]] = []  # (time, normal impact speed)
        space.on_collision(_DIE, _DIE, begin=self._on_begin)
        space.on_collision(_DIE, _WALL, begin=self._on_begin)

    def _add_still(self, still: Sequence[Spot]) -> None:
        """Dice lying still (kept while others are thrown) are as solid as the walls: a
        thrown die bounces off one instead of passing over it, and never moves it."""
        size, corner = self.tray.die_size, self.tray.corner_radius
        for x, y, angle in still:
            body = pymunk.Body(body_type=pymunk.Body.STATIC)
            body.position = (x, y)
            body.angle = angle
            shape = pymunk.Poly.create_box(
                body, (size - 2 * corner, size - 2 * corner), radius=corner
            )
            shape.friction = 0.5
            shape.elasticity = 0.8
            shape.collision_type = _WALL  # a thrown die clatters against it as on a wall
            self.space.add(body, shape)

    def _add_walls(self) -> None:
        w, h, m = self.tray.width, self.tray.height, self.tray.wall_inset
        thick = max(w, h)  # far thicker than any step can cross
        static = self.space.static_body
        boxes = (
            (-thick, -thick, m, h + thick),  # left
            (w - m, -thick, w + thick, h + thick),  # right
            (-thick, -thick, w + thick, m),  # top
            (-thick, h - m, w + thick, h + thick),  # bottom
        )
        shapes = [[(x0, y0), (x1, y0), (x1, y1), (x0, y1)] for x0, y0, x1, y1 in boxes]
        # The felt's corners are rounded: a slanted block across each keeps a die pressed
        # into a corner from poking over the frame there.
        r = self.tray.felt_corner
        corners = itertools.product(((m, 1), (w - m, -1)), ((m, 1), (h - m, -1)))
        for (cx, sx), (cy, sy) in corners if r > 0 else ():
            shapes.append([(cx, cy + sy * r), (cx + sx * r, cy), (cx - sx * r, cy - sy * r)])
        for points in shapes:
            wall = pymunk.Poly(static, points)
            wall.friction = 0.6
            wall.elasticity = 0.7
            wall.collision_type = _WALL
            self.space.add(wall)

    def _on_begin(self, arbiter: Any, space: Any, data: Any) -> None:
        a, b = arbiter.bodies
        points = arbiter.contact_point_set.points
        if points:
            p = points[0].point_a
            rel = a.velocity_at_world_point(p) - b.velocity_at_world_point(p)
        else:
            rel = a.velocity - b.velocity
        self.hits.append((self.t, abs(rel.dot(arbiter.normal))))

    def brake(self, t: float) -> tuple[float, float]:
        """Late in a toss, brake harder so the dice stop smoothly and in time.

        Returns the share (1 down to 0) of the speed ceiling still allowed at `t`,
        and how many times harder the felt brakes now.
        """
        if t <= RAMP_START:
            return 1.0, 1.0
        ramp = min(1.0, (t - RAMP_START) / (STOP_BY - RAMP_START))
        for pivot in self.pivots:
            pivot.max_force = self.base_force * (1.0 + 3.0 * ramp)
        return 1.0 - ramp, 1.0 + 3.0 * ramp

    def brake_spin(self, i: int, speed: float, harder: float) -> None:
        """A die that has all but stopped rolling stops spinning soon after too,
        instead of twirling on the spot."""
        slow = max(0.0, 1.0 - speed / (3.0 * self.tray.die_size))
        braking = (self.spin_braking + SPIN_BRAKING_STILL * slow) * harder
        self.gears[i].max_force = braking * self.moments[i]

    def ease_off(self, body: Any, harder: float) -> bool:
        """Nudge a die lying on a keep-clear area towards its nearest open side, harder
        than the felt brakes, like a die on a slope; True while it is on one."""
        if not self.areas:
            return False
        tray = self.tray
        x, y = body.position
        r = tray.reach(body.angle) + CLEAR_MARGIN
        lo = 0.5 * tray.die_size + tray.wall_inset
        on = False
        for ax, ay, aw, ah in self.areas:
            if not _overlaps(x, y, r - CLEAR_MARGIN, (ax, ay, aw, ah), CLEAR_MARGIN):
                continue
            on = True
            # The ways off, nearest first, leaving out any that would run into a wall.
            ways = [
                (x - (ax - r), (-1.0, 0.0), ax - r >= lo),
                ((ax + aw + r) - x, (1.0, 0.0), ax + aw + r <= tray.width - lo),
                (y - (ay - r), (0.0, -1.0), ay - r >= lo),
                ((ay + ah + r) - y, (0.0, 1.0), ay + ah + r <= tray.height - lo),
            ]
            open_ways = [w for w in ways if w[2]] or ways
            _dist, (ux, uy), _ok = min(open_ways, key=lambda w: w[0])
            push = (2.5 * harder * self.base_force + 8.0 * tray.die_size) * DT
            vx, vy = body.velocity
            body.velocity = (vx + ux * push, vy + uy * push)
        return on
    def run(self, ids: list[str]) -> tuple[dict[str, _Track], int]:
        """Step the world until every die is still; record each step."""
        tray = self.tray
        bodies = self.bodies
        tracks = {
            die_id: _Track([b.position.x], [b.position.y], [b.angle], [0.0])
            for die_id, b in zip(ids, bodies, strict=True)
        }
        rows = [tracks[die_id] for die_id in ids]
        last_moved = [0] * len(bodies)
        # A die can sink into a wall by less than `sink` in flight; nearer is a fault.
        lo = 0.5 * tray.die_size + tray.wall_inset - tray.sink
        hi_x, hi_y = tray.width - lo, tray.height - lo
        speed_cap, spin_cap = tray.speed_cap, tray.spin_cap
        rest_speed = 0.03 * tray.die_size  # units/s: below this a die has stopped
        rest_spin = 0.03
        clamps = 0
        quiet = 0
        steps = round(SETTLE_LIMIT / DT)
        for k in range(1, steps + 1):
            for sub in range(1, SUBSTEPS + 1):
                self.t = (k - 1 + sub / SUBSTEPS) * DT
                self.space.step(DT / SUBSTEPS)
            allowed, harder = self.brake(k * DT)
            top_speed, top_spin = speed_cap * allowed, spin_cap * allowed
            still = True
            for i, body in enumerate(bodies):
                easing = self.ease_off(body, harder)
                vx, vy = body.velocity
                spin = body.angular_velocity
                if easing:
                    still = False  # a die on a label slides on until it is off it
                    speed = math.hypot(vx, vy)
                    self.brake_spin(i, speed, harder)
                    if speed > speed_cap:
                        body.velocity = (vx * speed_cap / speed, vy * speed_cap / speed)
                elif abs(vx) + abs(vy) < rest_speed and abs(spin) < rest_spin:
                    if vx or vy or spin:
                        body.velocity = (0.0, 0.0)  # the felt holds a die this slow
                        body.angular_velocity = 0.0
                else:
                    still = False
                    speed = math.hypot(vx, vy)
                    self.brake_spin(i, speed, harder)
                    if speed > top_speed:
                        body.velocity = (vx * top_speed / speed, vy * top_speed / speed)
                    if abs(spin) > top_spin:
                        body.angular_velocity = math.copysign(top_spin, spin)
                x, y = body.position
                if not (lo <= x <= hi_x and lo <= y <= hi_y):  # last resort; never seen
                    clamps += 1
                    x, y = min(max(x, lo), hi_x), min(max(y, lo), hi_y)
                    body.position = (x, y)
                    body.velocity = (0.0, 0.0)
                row = rows[i]
                step = math.hypot(x - row.xs[-1], y - row.ys[-1])
                angle = body.angle
                if step > _MOVE_EPS or abs(angle - row.angles[-1]) > _TURN_EPS:
                    last_moved[i] = k
                    still = False
                row.xs.append(x)
                row.ys.append(y)
                row.angles.append(angle)
                row.travelled.append(row.travelled[-1] + step)
            quiet = quiet + 1 if still else 0
            if quiet >= 2:
                break
        for row, last in zip(rows, last_moved, strict=True):
            del row.xs[last + 1 :], row.ys[last + 1 :], row.angles[last + 1 :]
            del row.travelled[last + 1 :]
            row.rest_t = last * DT
        return tracks, clamps


def _overlaps(x: float, y: float, reach: float, area: Rect, margin: float) -> bool:
    """Whether a die centred at (x, y), reaching `reach` along each axis, comes within
    `margin` of an (x, y, width, height) area."""
    ax, ay, aw, ah = area
    r = reach + margin
    return ax - r < x < ax + aw + r and ay - r < y < ay + ah + r


def ease_apart(tray: Tray, tracks: Sequence[_Track], still: Sequence[Spot], within: float) -> None:
    """Part dice left pressed into each other or into a still die when the felt stopped
    them (a crowded tray: the overlap is a sliver, a unit or two), on their last recorded
    step, each by half the overlap (the whole of it from a still die), kept on the felt;
    until none overlaps more than `within`."""
    size, corner = tray.die_size, tray.corner_radius
    for _round in range(16):
        ends = [(tr.xs[-1], tr.ys[-1], tr.angles[-1]) for tr in tracks]
        moved = False
        for i, tr in enumerate(tracks):
            x0, y0, angle = ends[i]
            x, y = x0, y0
            others = [(end, 0.5) for j, end in enumerate(ends) if j != i]
            for (ox, oy, oa), share in [*others, *((spot, 1.0) for spot in still)]:
                depth = overlap(size, corner, (x, y, angle), (ox, oy, oa))
                if depth <= within:
                    continue
                # Along the line between the centres: a few rounds settle a turned pair.
                apart = math.hypot(x - ox, y - oy) or 1.0
                push = share * depth + 0.05
                x += (x - ox) / apart * push
                y += (y - oy) / apart * push
            if (x, y) == (x0, y0):
                continue
            moved = True
            # Never further onto the frame than it lay.
            lo = tray.reach(angle) + tray.wall_inset
            x = min(max(x, min(lo, x0)), max(tray.width - lo, x0))
            y = min(max(y, min(lo, y0)), max(tray.height - lo, y0))
            step = math.hypot(x - tr.xs[-1], y - tr.ys[-1])
            tr.xs[-1], tr.ys[-1] = x, y
            tr.travelled[-1] += step
            ends[i] = (x, y, angle)
        if not moved:
            break


def overlap(size: float, corner: float, a: Spot, b: Spot) -> float:
    """How deep two dice of this size and corner rounding, lying at spots `a` and `b`,
    overlap (negative: the gap between them), measured exactly for turned dice."""
    half = 0.5 * size - corner  # each die is a square this big, rounded by `corner`
    squares = [_corners(x, y, angle, half) for x, y, angle in (a, b)]
    depth = math.inf
    for angle in (a[2], b[2]):  # the separating axis, if any, is along a side of one
        for ux, uy in ((math.cos(angle), math.sin(angle)), (-math.sin(angle), math.cos(angle))):
            one, other = ([px * ux + py * uy for px, py in sq] for sq in squares)
            depth = min(depth, min(max(one), max(other)) - max(min(one), min(other)))
    if depth > 0:  # the squares cross: they must be pushed this far apart, plus the rounding
        return depth + 2 * corner
    gap = min(
        _to_segment(p, q, q2)
        for one, other in (squares, squares[::-1])
        for p in one
        for q, q2 in itertools.pairwise([*other, other[0]])
    )
    return 2 * corner - gap


def _corners(x: float, y: float, angle: float, half: float) -> list[tuple[float, float]]:
    """A square's corners, in order round it."""
    c, s = math.cos(angle) * half, math.sin(angle) * half
    round_it = ((1, 1), (-1, 1), (-1, -1), (1, -1))
    return [(x + sx * c - sy * s, y + sx * s + sy * c) for sx, sy in round_it]


def _to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """The distance from point p to the segment a-b."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    k = ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy or 1.0)
    k = min(1.0, max(0.0, k))
    return math.hypot(p[0] - ax - k * dx, p[1] - ay - k * dy)
