"""Dice waiting in the tray lie as a hand puts them down: a loose spread, slightly turned,
inside the felt and off its label; and a toss from there never ends on the frame."""

from __future__ import annotations

import itertools
import math
import random

import pygame
import pytest

from dinotable.app import App
from dinotable.physics import DT
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.settings import Settings
from dinotable.table import display
from dinotable.table.dice_parts import DIE, LEAST_DIE, TrayPart
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



def lying_in(tray: TrayPart) -> list[Sprite]:
    """The dice lying in the tray (none on its way anywhere)."""
    host = tray.host
    return [sp for sp in host.sprites.values() if sp.zone in host.layout.tray and sp.goal is None]


def assert_lying_apart(tray: TrayPart) -> None:
    lying = lying_in(tray)
    for sp in lying:
        assert inside_felt(tray, sp.x, sp.y, sp.angle) >= -1.0, f"{sp.id} on the frame"
    for a, b in itertools.combinations(lying, 2):
        assert tray.tray.overlap((a.x, a.y, a.angle), (b.x, b.y, b.angle)) <= 0.5, (a, b)


def test_the_jungle_of_a_small_window_holds_every_die_apart_thrown_or_laid() -> None:
    """Danger! Danger! Dinosaur in an 800x600 window, its throws played out as a person
    sees them: the small Jungle sizes its dice so all ten of the game fit; a thrown die
    never passes over one kept still; after every throw the dice lie apart on the felt,
    none left over them from the box; and a game opened afresh mid-turn lays both zones'
    dice (the Jungle's and the dinosaurs') in one spread, apart."""
    rules = load_by_id("danger_danger_dinosaur")
    app = App(size=(800, 600), settings=Settings(bot_speed="fast"))
    try:
        seats = [Seat(n, "heuristic", i) for i, n in enumerate(["Ann", "Ben", "Cat", "Dan"])]
        table = TableScene(app, rules, seats, {}, 4, saving=False)
        app.push(table)
        tray = table.tray_part
        assert tray is not None and tray.rect.h < 3 * DIE
        dice = sum(1 for item in table.state.items if item.kind in rules.dice)
        assert tray.die < LEAST_DIE and tray.tray.holds(dice, tray.keep_clear())
        throws = kept = laid = 0
        while throws < 40 and not table.state.game_over:
            table.update(1 / 30)
            toss = tray.toss
            if toss is None:
                continue
            throws += 1
            # No die put back in the box lingers over the tray while the others fly.
            assert all(sp.zone in table.sprite_zones for sp in table.sprites.values())
            x0, y0 = tray.rect.topleft
            still = [(sp.x - x0, sp.y - y0, sp.angle) for sp in lying_in(tray)
                     if sp.id not in toss.die_ids]
            kept += bool(still)
            for die_id in toss.die_ids:
                for k in range(round(toss.duration / DT) + 1):
                    pose = toss.pose(die_id, k * DT)
                    assert all(tray.tray.overlap((pose.x, pose.y, pose.angle), s)
                               <= tray.tray.sink for s in still), (throws, die_id, k)
            while table.steps or tray.toss is not None or table.wait > 0:
                table.update(1 / 30)  # the rest of the move's playback
            assert_lying_apart(tray)
            zones = {sp.zone for sp in lying_in(tray)}
            if len(zones) > 1:  # opened afresh: the sprites are laid from the engine's state
                laid += 1
                for sp in lying_in(tray):
                    del table.sprites[sp.id]
                display.level(table)
                assert_lying_apart(tray)
        assert kept >= 5 and laid >= 1, (throws, kept, laid)
    finally:
        pygame.quit()
