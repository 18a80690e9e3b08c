"""The dice tray is theatre: every toss lands on the engine's faces, inside the tray, in time."""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys
from functools import cache

import pytest
from helpers import ROOT

from dinotable.physics import SETTLE_LIMIT, DiePose, Toss, Tray

GREEN = ("dino", "dino", "dino", "leaves", "leaves", "footprint")
YELLOW = ("dino", "dino", "leaves", "leaves", "footprint", "footprint")
RED = ("dino", "leaves", "leaves", "footprint", "footprint", "footprint")
PLAIN = ("dinosaur", "dinosaur", "bone", "bone", "egg", "egg")
TRAYS = ((760.0, 440.0), (640.0, 360.0), (1000.0, 520.0), (420.0, 300.0))
SIZE = 64.0

Dice = list[tuple[str, tuple[str, ...], str]]
Fling = tuple[float, float, float, float] | None


def random_dice(rng: random.Random, count: int) -> Dice:
    kinds = (GREEN, YELLOW, RED, PLAIN)
    dice: Dice = []
    for i in range(count):
        faces = rng.choice(kinds)
        dice.append((f"die{i}", faces, rng.choice(faces)))
    return dice


def random_fling(rng: random.Random, tray: Tray) -> Fling:
    if rng.random() < 0.3:
        return None
    angle = rng.uniform(0.0, 2.0 * math.pi)
    speed = rng.choice((0.0, rng.uniform(0.0, 60.0), rng.uniform(0.0, 4000.0)))
    return (
        rng.uniform(-50.0, tray.width + 50.0),
        rng.uniform(-50.0, tray.height + 50.0),
        speed * math.cos(angle),
        speed * math.sin(angle),
    )


def random_resting(rng: random.Random, tray: Tray, dice: Dice) -> dict[str, tuple[float, ...]]:
    """Some dice already lie on the table, apart from each other (as a toss leaves them)."""
    resting: dict[str, tuple[float, ...]] = {}
    half = SIZE / 2
    for die_id, _faces, _final in dice:
        if rng.random() < 0.5 or len(resting) >= 5:
            continue
        for _ in range(50):
            x = rng.uniform(half, tray.width - half)
            y = rng.uniform(half, tray.height - half)
            if all(math.hypot(x - p[0], y - p[1]) > 1.05 * SIZE for p in resting.values()):
                resting[die_id] = (x, y, rng.uniform(0.0, 360.0)) if rng.random() < 0.5 else (x, y)
                break
    return resting


@cache
def many_tosses() -> list[tuple[Tray, Dice, Toss]]:
    """300 seeded tosses of 1..10 dice (a few of 12) in trays of several sizes."""
    out: list[tuple[Tray, Dice, Toss]] = []
    for seed in range(300):
        rng = random.Random(seed)
        tray = Tray(*TRAYS[seed % len(TRAYS)], die_size=SIZE)
        count = 12 if seed % 50 == 7 else rng.randint(1, 10)
        dice = random_dice(rng, count)
        fling = random_fling(rng, tray)
        resting = random_resting(rng, tray, dice) if rng.random() < 0.5 else None
        out.append((tray, dice, tray.toss(dice, seed, fling, resting)))
    return out


def mean_displacement(toss: Toss) -> tuple[float, float]:
    dx = dy = 0.0
    for die_id in toss.die_ids:
        first, last = toss.pose(die_id, 0.0), toss.final_poses()[die_id]
        dx += last.x - first.x
        dy += last.y - first.y
    n = len(toss.die_ids)
    return dx / n, dy / n


def test_every_toss_lands_on_the_engines_faces_inside_the_tray_apart_and_in_time() -> None:
    for tray, dice, toss in many_tosses():
        final = toss.final_poses()
        assert toss.duration <= SETTLE_LIMIT
        assert toss.clamps == 0, "a die had to be pushed back inside the walls"
        half = SIZE / 2
        for die_id, _faces, face in dice:
            assert final[die_id].face == face
            assert not final[die_id].moving
            for x, y in toss.track(die_id):
                assert half <= x <= tray.width - half and half <= y <= tray.height - half
        ids = list(final)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                gap = math.hypot(final[a].x - final[b].x, final[a].y - final[b].y)
                assert gap > 0.9 * SIZE, f"{a} and {b} overlap at rest"


def test_tosses_settle_in_about_a_second() -> None:
    durations = sorted(toss.duration for _tray, _dice, toss in many_tosses())
    assert sum(durations) / len(durations) <= 1.1
    assert durations[len(durations) * 95 // 100] <= 1.2
    assert durations[-1] <= SETTLE_LIMIT


def _fling_of(seed: int) -> Fling:
    """The fling `many_tosses` used for a seed."""
    rng = random.Random(seed)
    tray = Tray(*TRAYS[seed % len(TRAYS)], die_size=SIZE)
    random_dice(rng, 12 if seed % 50 == 7 else rng.randint(1, 10))
    return random_fling(rng, tray)


def test_every_die_tossed_without_a_drag_rolls_a_couple_of_die_widths() -> None:
    tosses = [(t, toss) for seed, (t, _d, toss) in enumerate(many_tosses())
              if _fling_of(seed) is None]
    everywhere = sorted(toss.travelled(d) / SIZE for _t, toss in tosses for d in toss.die_ids)
    assert everywhere[0] > 0.5
    assert everywhere[len(everywhere) // 2] >= 2.5
    # Only a tray crowded with dice (420x300 holding ten) boxes some in.
    roomy = sorted(toss.travelled(d) / SIZE for tray, toss in tosses if tray.width >= 640
                   for d in toss.die_ids)
    assert roomy[len(roomy) // 2] >= 3.0
    assert roomy[len(roomy) // 20] >= 1.75  # 95% roll at least this many widths


def test_a_gentle_drag_rolls_the_dice_gently_and_a_hard_one_far() -> None:
    tray = Tray(760.0, 440.0)
    gentle, hard = [], []
    for seed in range(20):
        dice = random_dice(random.Random(seed), 1 + seed % 4)
        for speed, out in ((300.0, gentle), (3000.0, hard)):
            toss = tray.toss(dice, seed, (380.0, 220.0, speed, 0.0))
            out.extend(toss.travelled(d) / SIZE for d in toss.die_ids)
    gentle.sort()
    hard.sort()
    # A slow drag nudges the dice a die width or so: enough to tumble, never across.
    assert 0.5 <= gentle[len(gentle) // 2] <= 1.6 and gentle[-1] <= 2.5
    assert gentle[0] > 0.2
    assert hard[len(hard) // 2] >= 4.0
    # In between, a faster drag throws further.
    means = []
    for speed in (300.0, 900.0, 1500.0, 2400.0):
        toss = tray.toss(random_dice(random.Random(1), 1), 1, (200.0, 220.0, speed, 0.0))
        means.append(toss.travelled("die0"))
    assert means == sorted(means) and means[-1] > 2 * means[0]


def test_the_face_is_final_before_the_die_stops_and_motion_is_continuous() -> None:
    for _tray, dice, toss in many_tosses()[::6]:
        step = 1.0 / 240.0
        for die_id, _faces, face in dice:
            rest = toss.rest_time(die_id)
            limit = toss.max_speed(die_id) * step + 1e-6
            assert toss.pose(die_id, rest).face == face
            changes = toss.face_changes(die_id)
            assert all(t < rest for t, _ in changes), "the face changed at rest"
            prev = toss.pose(die_id, 0.0)
            n = math.ceil(toss.duration / step) + 2
            for k in range(1, n + 1):
                t = k * step
                now = toss.pose(die_id, t)
                assert math.hypot(now.x - prev.x, now.y - prev.y) <= limit
                turn = abs(now.angle - prev.angle) % 360.0
                assert min(turn, 360.0 - turn) <= 30.0 * math.degrees(step) + 1e-6
                if t >= rest:
                    assert now.face == face and not now.moving
                    assert now == toss.final_poses()[die_id], "a die at rest moved"
                prev = now


def test_the_face_changes_about_once_per_die_width_rolled() -> None:
    for _tray, dice, toss in many_tosses()[:60]:
        for die_id, _faces, _face in dice:
            widths = toss.travelled(die_id) / SIZE
            changes = len(toss.face_changes(die_id))
            assert widths - 1.5 <= changes <= widths + 1


def test_a_rerolled_die_starts_from_the_face_it_shows() -> None:
    tray = Tray(760.0, 440.0)
    dice: Dice = [("a", GREEN, "footprint"), ("b", RED, "dino")]
    resting = {"a": (300.0, 200.0, 30.0), "b": (450.0, 250.0)}
    toss = tray.toss(dice, 5, None, resting, showing={"a": "leaves", "b": "footprint"})
    assert toss.pose("a", 0.0).face == "leaves"
    assert toss.pose("b", 0.0).face == "footprint"
    assert (toss.pose("a", 0.0).x, toss.pose("a", 0.0).y) == (300.0, 200.0)
    assert toss.pose("a", 0.0).angle == pytest.approx(30.0)
    assert toss.final_poses()["a"].face == "footprint"
    assert toss.final_poses()["b"].face == "dino"


def test_the_same_toss_twice_is_identical() -> None:
    tray = Tray(760.0, 440.0)
    rng = random.Random(11)
    dice = random_dice(rng, 8)
    fling = (700.0, 200.0, -900.0, 150.0)
    resting = {"die0": (100.0, 100.0), "die3": (400.0, 300.0)}
    one = tray.toss(dice, 42, fling, resting)
    two = tray.toss(dice, 42, fling, resting)
    assert one.duration == two.duration and one.bumps == two.bumps
    for die_id in one.die_ids:
        for k in range(0, 400):
            assert one.pose(die_id, k / 240.0) == two.pose(die_id, k / 240.0)
    assert tray.toss(dice, 43, fling, resting).final_poses() != one.final_poses()


@pytest.mark.parametrize(
    ("fling", "axis", "sign"),
    [
        ((760.0, 220.0, -1500.0, 0.0), 0, -1),  # from the right edge, leftwards
        ((0.0, 220.0, 1500.0, 0.0), 0, 1),
        ((380.0, 0.0, 0.0, 1200.0), 1, 1),
        ((380.0, 440.0, 0.0, -1200.0), 1, -1),
        ((380.0, 220.0, -2000.0, 0.0), 0, -1),  # from the middle: still the fling's way
        ((380.0, 220.0, 0.0, -2000.0), 1, -1),
    ],
)
def test_dice_go_the_way_they_are_flung(
    fling: tuple[float, float, float, float], axis: int, sign: int
) -> None:
    tray = Tray(760.0, 440.0)
    for seed in range(5):
        dice = random_dice(random.Random(seed), 3)
        resting = {"die0": (380.0, 220.0)}
        toss = tray.toss(dice, seed, fling, resting)
        shift = mean_displacement(toss)[axis]
        assert shift * sign > 0.5 * SIZE
        # the resting die alone also moves the fling's way
        start, end = toss.pose("die0", 0.0), toss.final_poses()["die0"]
        assert ((end.x - start.x), (end.y - start.y))[axis] * sign > 0


def test_a_fling_from_the_right_edge_ends_with_dice_left_of_where_they_began() -> None:
    tray = Tray(760.0, 440.0)
    total = 0.0
    for seed in range(20):
        dice = random_dice(random.Random(seed), 1 + seed % 6)
        toss = tray.toss(dice, seed, (770.0, 100.0 + 12 * seed, -600.0 - 80 * seed, 0.0))
        shift = mean_displacement(toss)[0]
        assert shift < 0
        total += shift
    assert total / 20 < -3 * SIZE


def test_new_dice_enter_by_the_edge_nearest_the_fling() -> None:
    tray = Tray(760.0, 440.0)
    dice = random_dice(random.Random(3), 4)
    toss = tray.toss(dice, 3, (770.0, 220.0, -300.0, 0.0))
    assert all(toss.pose(d, 0.0).x > tray.width - 3 * SIZE for d in toss.die_ids)
    toss = tray.toss(dice, 3, (300.0, -20.0, 0.0, 300.0))
    assert all(toss.pose(d, 0.0).y < 3 * SIZE for d in toss.die_ids)


def test_bumps_are_few_spaced_sorted_and_scaled() -> None:
    for _tray, _dice, toss in many_tosses()[:100]:
        assert len(toss.bumps) <= 30
        times = [b.t for b in toss.bumps]
        assert times == sorted(times)
        assert all(b - a >= 0.03 - 1e-9 for a, b in itertools.pairwise(times))
        assert all(0.0 < b.strength <= 1.0 and 0.0 <= b.t <= SETTLE_LIMIT for b in toss.bumps)
    assert sum(len(toss.bumps) for _t, _d, toss in many_tosses()) > 300


def test_pose_clamps_time_and_final_poses_are_at_rest() -> None:
    tray = Tray(640.0, 360.0)
    dice = random_dice(random.Random(1), 3)
    toss = tray.toss(dice, 1)
    for die_id in toss.die_ids:
        assert toss.pose(die_id, -5.0) == toss.pose(die_id, 0.0)
        assert toss.pose(die_id, 99.0) == toss.final_poses()[die_id]
        assert toss.pose(die_id, 0.0).moving


def test_bad_tosses_are_refused_with_the_reason() -> None:
    tray = Tray(640.0, 360.0)
    with pytest.raises(ValueError, match="cannot land on 'egg'"):
        tray.toss([("a", GREEN, "egg")], 1)
    with pytest.raises(ValueError, match="tossed twice"):
        tray.toss([("a", GREEN, "dino"), ("a", GREEN, "dino")], 1)
    with pytest.raises(ValueError, match="too small"):
        Tray(100.0, 100.0)
    assert tray.toss([], 1).duration == 0.0


def test_the_physics_package_needs_no_pygame_and_tosses_alike_in_a_fresh_process() -> None:
    dice = [("a", GREEN, "leaves"), ("b", RED, "dino"), ("c", YELLOW, "footprint")]
    fling = (10.0, 200.0, 900.0, -100.0)
    program = (
        f"import json, sys; from dinotable.physics import Tray; "
        f"toss = Tray(640, 360).toss({dice!r}, 77, {fling!r}); "
        f"print(json.dumps([sorted(m for m in sys.modules if m.startswith('pygame')), "
        f"repr(toss.final_poses()), toss.duration]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    loaded, poses, duration = json.loads(done.stdout.splitlines()[-1])
    assert loaded == []
    here = Tray(640, 360).toss(dice, 77, fling)
    assert (poses, duration) == (repr(here.final_poses()), here.duration)


def test_all_twelve_dinosaur_dice_fit_the_table_with_a_race_track() -> None:
    """Dinosaur Dice throws twelve dice into the tray made smaller by the track under it."""
    from dinotable.table.dice_parts import DIE, TRACK_BAND, TRAY

    tray = Tray(TRAY.w, TRAY.h - TRACK_BAND, DIE)
    faces = ("dinosaur", "dinosaur", "bone", "bone", "egg", "egg")
    rng = random.Random(12)
    for seed in range(60):
        dice = [(f"die{i}", faces, rng.choice(faces)) for i in range(12)]
        toss = tray.toss(dice, seed, None if seed % 2 else (600.0, 140.0, -1800.0, 200.0))
        assert toss.duration <= SETTLE_LIMIT
        rest = toss.final_poses()
        half = DIE / 2
        for die_id, _, face in dice:
            pose = rest[die_id]
            assert pose.face == face
            assert half <= pose.x <= tray.width - half and half <= pose.y <= tray.height - half
        for a, b in itertools.combinations(rest.values(), 2):
            assert math.hypot(a.x - b.x, a.y - b.y) > DIE * 0.9


def _reach(tray: Tray, pose_angle: float) -> float:
    return tray.reach(math.radians(pose_angle))


def test_a_drag_throws_the_dice_from_where_it_started_its_way() -> None:
    tray = Tray(760.0, 440.0)
    for seed, (sx, sy, vx, vy) in enumerate([(200.0, 150.0, 1500.0, 400.0),
                                              (560.0, 300.0, -900.0, -700.0),
                                              (380.0, 400.0, 0.0, -2000.0)]):
        dice = random_dice(random.Random(seed), 4)
        toss = tray.toss(dice, seed, (sx, sy, vx, vy), {"die0": (700.0, 60.0, 30.0)})
        for die_id in toss.die_ids:
            start = toss.pose(die_id, 0.0)
            # In the hand: all within a small cluster round the pointer's start.
            assert math.hypot(start.x - sx, start.y - sy) < 2.2 * SIZE
        assert toss.pose("die0", 0.0).angle == pytest.approx(30.0)  # picked up, not turned
        dx, dy = mean_displacement(toss)
        assert dx * vx + dy * vy > 0.5 * SIZE * math.hypot(vx, vy)


def over_a_corner(tray: Tray, pose: DiePose) -> float:
    """How far a die pokes out of the felt's rounded corners onto the frame (0: not)."""
    a, c = math.radians(pose.angle), tray.corner_radius
    half, r, m = tray.die_size / 2 - c, tray.felt_corner, tray.wall_inset
    worst = 0.0
    for sx, sy in itertools.product((1, -1), repeat=2):
        # The centre of the rounding of one of the die's corners.
        x = pose.x + half * (sx * math.cos(a) - sy * math.sin(a))
        y = pose.y + half * (sx * math.sin(a) + sy * math.cos(a))
        for kx, ky in itertools.product((m + r, tray.width - m - r),
                                        (m + r, tray.height - m - r)):
            beyond_x = x < kx if kx < tray.width / 2 else x > kx
            beyond_y = y < ky if ky < tray.height / 2 else y > ky
            if beyond_x and beyond_y:
                worst = max(worst, math.hypot(x - kx, y - ky) + c - r)
    return worst


def test_dice_never_come_to_rest_on_the_frame_or_on_each_other() -> None:
    for tray, _dice, toss in many_tosses():
        final = list(toss.final_poses().values())
        for pose in final:
            r = _reach(tray, pose.angle)
            inside = min(pose.x - r, pose.y - r, tray.width - pose.x - r,
                         tray.height - pose.y - r)
            assert inside >= tray.wall_inset - 1.0, "a die lies on the frame"
            # Into a corner, a square die would poke over the felt's rounded corner.
            assert over_a_corner(tray, pose) <= 0.5, "a die lies on the frame's corner"
        for a, b in itertools.combinations(final, 2):
            assert math.hypot(a.x - b.x, a.y - b.y) >= 0.95 * SIZE


def test_dice_never_come_to_rest_on_the_labels_the_tray_keeps_clear() -> None:
    label = (10.0, 4.0, 150.0, 40.0)  # "Dice: 3" at the top left of the felt
    on_label = 0
    for seed in range(120):
        rng = random.Random(seed)
        tray = Tray(*TRAYS[seed % len(TRAYS)], die_size=SIZE)
        middle = (rng.uniform(0.3, 0.6) * tray.width, rng.uniform(0.3, 0.6) * tray.height,
                  rng.uniform(60.0, 160.0), rng.uniform(30.0, 60.0))
        areas = [label, middle]
        dice = random_dice(rng, rng.randint(1, 6))
        fling = random_fling(rng, tray)
        toss = tray.toss(dice, seed, fling, keep_clear=areas)
        assert toss.duration <= SETTLE_LIMIT
        for die_id, _faces, face in dice:
            pose = toss.final_poses()[die_id]
            assert pose.face == face
            r = _reach(tray, pose.angle)
            for ax, ay, aw, ah in areas:
                overlap = ax - r < pose.x < ax + aw + r and ay - r < pose.y < ay + ah + r
                on_label += overlap
                assert not overlap, (seed, die_id, pose, (ax, ay, aw, ah))
            # Passing over a label is fine: it is where they stop that matters.
    assert on_label == 0


def test_a_die_that_would_stop_on_a_label_ends_beside_it() -> None:
    tray = Tray(760.0, 440.0)
    for seed in range(6):
        dice = random_dice(random.Random(seed), 3)
        fling = (120.0, 220.0, 1300.0, 150.0 * (seed - 3))
        plain = tray.toss(dice, seed, fling).final_poses()["die0"]
        # A label just where die0 stopped when nothing was kept clear.
        label = (plain.x - 70.0, plain.y - 20.0, 140.0, 40.0)
        kept = tray.toss(dice, seed, fling, keep_clear=[label])
        for pose in kept.final_poses().values():
            r = _reach(tray, pose.angle)
            ax, ay, aw, ah = label
            assert not (ax - r < pose.x < ax + aw + r and ay - r < pose.y < ay + ah + r)
        assert kept.duration <= SETTLE_LIMIT
