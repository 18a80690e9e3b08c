"""Dice waiting in the tray lie as a hand puts them down: a loose spread, slightly turned,
inside the felt and off its label; and a toss from there never ends on the frame."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from dinotable.app import App
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.dice_parts import DIE, TrayPart
from dinotable.table.sprites import Sprite


def tray_of(app: App, ruleset: str) -> TrayPart:
    seats = [Seat(n, "human", i) for i, n in enumerate(["Ann", "Ben", "Cat"])]
    table = TableScene(app, load_by_id(ruleset), seats, {}, 5, saving=False)
    app.push(table)
    tray = table.tray_part
    assert tray is not None
    return tray


def inside_felt(tray: TrayPart, x: float, y: float, angle: float) -> float:
    """How far a die lies inside the felt (negative: on the frame)."""
    r = tray.tray.reach(math.radians(angle))
    rect = tray.rect
    return min(x - r - rect.x, y - r - rect.y, rect.right - x - r,
               rect.bottom - y - r) - tray.tray.wall_inset


@pytest.mark.parametrize("ruleset", ["dino_hunt_dice", "dinosaur_dice"])
def test_waiting_dice_lie_in_a_loose_spread_inside_the_felt(app: App, ruleset: str) -> None:
    tray = tray_of(app, ruleset)
    label = tray.label_rect()
    for side, count in itertools.product(("left", "right"), range(1, 13)):
        spots = tray.spread(count, side)
        assert len(spots) == count
        for x, y, angle in spots:
            assert inside_felt(tray, x, y, angle) >= 0, (side, count, "on the frame")
            r = tray.tray.reach(math.radians(angle))
            assert not label.inflate(2 * r, 2 * r).collidepoint(x, y), "on the label"
        for (x1, y1, a1), (x2, y2, a2) in itertools.combinations(spots, 2):
            reach = tray.tray.reach(math.radians(a1)) + tray.tray.reach(math.radians(a2))
            assert math.hypot(x1 - x2, y1 - y2) >= min(reach, DIE * 1.1), "dice touch"
        if count >= 3:
            xs, ys = [s[0] for s in spots], [s[1] for s in spots]
            assert max(xs) - min(xs) > DIE / 2, f"{count} dice stand in a column"
            assert max(ys) - min(ys) > DIE / 2, f"{count} dice stand in a row"
            assert len({round(s[2]) for s in spots}) > 1, "every die turned alike"
        # Waiting dice gather at their side, not all over the felt.
        near = [x for x, _y, _a in spots[:3]]
        middle = tray.rect.centerx
        assert all((x > middle) == (side == "right") for x in near)


def test_dice_taken_from_the_cup_are_put_down_clear_of_those_in_the_tray(app: App) -> None:
    tray = tray_of(app, "dino_hunt_dice")
    host = tray.host
    zone = host.layout.tray[0]
    lying = tray.spread(2, "right")
    for n, (x, y, angle) in enumerate(lying):
        host.sprites[f"kept{n}"] = Sprite(f"kept{n}", "green", "feet", zone, x, y, angle=angle)
    for n in range(3):
        x, y, _angle = tray.entry(n)
        for kept in lying:
            assert math.hypot(x - kept[0], y - kept[1]) >= DIE * 1.1


@pytest.mark.parametrize("ruleset", ["dino_hunt_dice", "dinosaur_dice"])
def test_a_toss_from_the_waiting_spread_never_ends_on_the_frame(app: App, ruleset: str
                                                                ) -> None:
    """The seeded tosses of the physics tests, from where the table lays waiting dice, in
    the table's own tray: no die comes to rest on the frame or on the label."""
    tray = tray_of(app, ruleset)
    rules = load_by_id(ruleset)
    kinds = list(rules.dice)
    label = tray.label_rect()
    for seed in range(24):
        rng = random.Random(seed)
        count = rng.randint(1, 12 if ruleset == "dinosaur_dice" else 6)
        side = rng.choice(("left", "right"))
        spots = tray.spread(count, side)
        dice, resting = [], {}
        for n, (x, y, angle) in enumerate(spots):
            faces = rules.dice[kinds[n % len(kinds)]].faces
            dice.append((f"d{n}", faces, rng.choice(faces)))
            resting[f"d{n}"] = (x - tray.rect.x, y - tray.rect.y, angle)
        fling = tray.fling_for_bot(rng) if seed % 2 else None
        toss = tray.tray.toss(dice, seed, fling, resting, keep_clear=tray.keep_clear())
        for die_id, pose in toss.final_poses().items():
            x, y = pose.x + tray.rect.x, pose.y + tray.rect.y
            assert inside_felt(tray, x, y, pose.angle) >= -1.0, (seed, die_id, "on the frame")
            r = tray.tray.reach(math.radians(pose.angle))
            assert not label.inflate(2 * r, 2 * r).collidepoint(x, y), (seed, die_id)
