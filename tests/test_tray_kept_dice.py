"""Dice kept while others are thrown again lie still and solid: in any tray, from the small
Jungle of an 800x600 window to a large felt, a thrown die bounces off a kept one instead of
passing over it, and once all are at rest no two dice overlap and every die lies wholly on
the felt."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinotable.physics import DT, SETTLE_LIMIT, DiePose, Toss, Tray

FACES = ("food", "water", "fire", "idea", "labor", "blank")
LABEL = (14.0, 10.0, 158.0, 44.0)  # the tray's count, top left, as the table writes it
TOUCH = 0.5  # dice pressed together at rest: under a pixel


def on_felt(tray: Tray, pose: DiePose) -> float:
    """How far inside the felt a die lies (negative: onto the frame)."""
    r = tray.reach(math.radians(pose.angle))
    return min(pose.x - r, pose.y - r, tray.width - pose.x - r,
               tray.height - pose.y - r) - tray.wall_inset


def spot(pose: DiePose) -> tuple[float, float, float]:
    return (pose.x, pose.y, pose.angle)


def assert_apart_on_the_felt(tray: Tray, poses: list[DiePose]) -> None:
    for pose in poses:
        assert on_felt(tray, pose) >= -1.0, f"{pose} lies on the frame"
        assert not pose.moving
    for a, b in itertools.combinations(poses, 2):
        assert tray.overlap(spot(a), spot(b)) <= TOUCH, f"{a} and {b} overlap at rest"


def test_overlap_is_measured_exactly_for_turned_dice() -> None:
    tray = Tray(600.0, 400.0, 40.0)  # corners rounded by 3.2
    assert tray.overlap((100, 100, 0), (130, 100, 0)) == pytest.approx(10.0)  # 10 deep
    assert tray.overlap((100, 100, 0), (145, 100, 0)) == pytest.approx(-5.0)  # a gap
    assert tray.overlap((100, 100, 0), (100, 100, 45)) == pytest.approx(40.0)  # one on another
    # Corner to corner, both turned 45 degrees: each tip reaches this far from its centre.
    tip = (20 - 3.2) * math.sqrt(2) + 3.2
    assert tray.overlap((100, 100, 45), (150, 100, 45)) == pytest.approx(2 * tip - 50)
    # Diagonal neighbours, square-on: only the rounded corners come near each other.
    gap = math.hypot(45 - 40 + 6.4, 45 - 40 + 6.4) - 6.4
    assert tray.overlap((100, 100, 0), (145, 145, 0)) == pytest.approx(-gap)
    assert tray.overlap((100, 100, 10), (160, 100, 80)) < 0  # apart, any turn


def throw(tray: Tray, count: int, kept: int, seed: int, flung: bool) -> tuple[Toss, list]:
    """Every die is thrown, then all but `kept` of them are thrown again (by a drag from
    one end of the tray, as a bot throws, or by a key) while the kept ones lie still."""
    rng = random.Random(seed)
    dice = [(f"d{i}", FACES, rng.choice(FACES)) for i in range(count)]
    first = tray.toss(dice, seed, keep_clear=[LABEL])
    assert_apart_on_the_felt(tray, list(first.final_poses().values()))
    lying = first.final_poses()
    still = [spot(lying[die_id]) for die_id, _f, _g in dice[:kept]]
    again = [(die_id, faces, rng.choice(faces)) for die_id, faces, _g in dice[kept:]]
    fling = None
    if flung:
        x = tray.width - 1.2 * tray.die_size if rng.random() < 0.5 else 1.2 * tray.die_size
        angle = rng.uniform(-0.5, 0.5) + (math.pi if x > tray.width / 2 else 0.0)
        speed = rng.uniform(300.0, 2400.0)
        fling = (x, rng.uniform(0.3, 0.7) * tray.height, speed * math.cos(angle),
                 speed * math.sin(angle))
    resting = {die_id: spot(lying[die_id]) for die_id, _f, _g in again}
    toss = tray.toss(again, seed + 1, fling, resting, keep_clear=[LABEL], still=still)
    return toss, still


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    width=st.integers(393, 1000),
    height=st.integers(150, 520),
    count=st.integers(1, 10),
    kept_share=st.floats(0.0, 0.9),
    seed=st.integers(0, 10**6),
    flung=st.booleans(),
)
def test_kept_dice_are_solid_and_dice_at_rest_never_overlap(
    width: int, height: int, count: int, kept_share: float, seed: int, flung: bool
) -> None:
    size = Tray.die_for(width, height, count, [LABEL])
    tray = Tray(width, height, size)
    kept = min(count - 1, int(kept_share * count))
    toss, still = throw(tray, count, kept, seed, flung)
    assert toss.duration <= SETTLE_LIMIT
    # In flight a thrown die sinks into a kept one no deeper than into the frame.
    sliver = tray.sink
    for die_id in toss.die_ids:
        previous = toss.pose(die_id, 0.0)
        for k in range(round(toss.duration / DT) + 1):
            pose = toss.pose(die_id, k * DT)
            for lying in still:
                assert tray.overlap(spot(pose), lying) <= sliver, (die_id, k * DT, lying)
            # Still a throw: the die rolls there, it never jumps.
            assert math.hypot(pose.x - previous.x, pose.y - previous.y) <= (
                tray.speed_cap * DT + 1e-6)
            previous = pose
    final = list(toss.final_poses().values())
    kept_poses = [DiePose(x, y, a, "food", False) for x, y, a in still]
    assert_apart_on_the_felt(tray, final + kept_poses)


def test_dice_shrink_to_fit_the_count_in_a_small_tray() -> None:
    """The Jungle of an 800x600 window holds ten dice apart only if they are smaller than
    the five it holds at full size; a large tray keeps full-size dice."""
    five, ten = (Tray.die_for(393, 150, n, [LABEL], largest=48) for n in (5, 10))
    assert ten < five <= 48
    assert Tray(393, 150, ten).holds(10, [LABEL])
    assert not Tray(393, 150, 48).holds(10, [LABEL])
    assert Tray.die_for(760, 440, 10, [LABEL]) == 64
