"""A ruleset's rows of piles on the table (Danger! Danger! Dinosaur's Game Wheel): every
stack in the middle with its showing top card and how many lie under it, and a card
claimed by a click on it where it lies."""

from __future__ import annotations

import random

import pygame
import pytest

from dinotable.app import App, logical_size
from dinotable.engine import legal_actions
from dinotable.render import cards, theme
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.widgets import ZonePart

FRAME = 1 / 30
STACKS = ("game_1", "game_2", "game_3", "game_4", "game_5", "bone_card", "secret_1",
          "secret_2", "secret_3", "family_card")


def wheel_table(app: App, seed: int = 4) -> TableScene:
    """A two-player game played at random until Ann may claim a Big Idea from a Game stack."""
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1)]
    table = TableScene(app, load_by_id("danger_danger_dinosaur"), seats, {}, seed)
    app.push(table)
    rng = random.Random(seed)
    for _ in range(600):
        if any(a.id == "claim" and a.player == 0 and claimed_from_game(table, a) for a in
               legal_actions(table.state)):
            break
        legal = legal_actions(table.state)
        table.take(legal[rng.randrange(len(legal))])
    else:
        pytest.fail("Ann never could claim a Big Idea")
    for _ in range(3000):
        table.handoff_due = False
        if table.idle:
            break
        table.update(FRAME)
    table.handed(0)
    return table


def claimed_from_game(table: TableScene, action: object) -> bool:
    """Whether a claim takes the top card of a Game stack."""
    item = table.state.item_ids[dict(action.args)["card"]]  # type: ignore[attr-defined]
    return any(item in table.state.zone(f"game_{n}", 0) for n in range(1, 6))


def pile_parts(table: TableScene) -> dict[str, ZonePart]:
    return {p.spec.zone: p for p in table.parts if isinstance(p, ZonePart) and p.kind == "pile"}


@pytest.mark.parametrize("size", [(1280, 720), (800, 600), (1920, 1080)])
def test_every_stack_of_the_wheel_stands_in_the_middle_with_its_top_and_count(
        app: App, size: tuple[int, int]) -> None:
    table = wheel_table(app)
    canvas = pygame.Surface(logical_size(size))
    cards.forget()  # every card face painted afresh, so the words on it are seen
    with theme.seeing_text() as seen:
        table.draw(canvas)
    piles = pile_parts(table)
    assert set(piles) == set(STACKS)
    centre = table.area["centre"]
    rects = [piles[z].rect for z in STACKS]
    for zone, rect in zip(STACKS, rects, strict=True):
        assert centre.contains(rect) and rect.h >= 60, (zone, rect)
        assert not any(rect.colliderect(other) for other in rects if other is not rect)
    # The five Game stacks stand in one row, the Secret stacks and the supplies in the next.
    assert len({piles[z].rect.y for z in STACKS[:5]}) == 1
    assert piles["bone_card"].rect.y > piles["game_1"].rect.y
    drawn = {string for string, _, _ in seen.drawn}
    for n in range(1, 6):
        zone = table.state.zone(f"game_{n}", 0)
        if zone:
            # The top card shows its face (it may be read large), the rest are counted.
            assert piles[f"game_{n}"].faces, n
            assert f"{len(zone) - 1} under" in drawn or f"+{len(zone) - 1}" in drawn
    # Each stack's name and count read whole (a card's own name may be cut: the zoom reads it).
    labels = {piles[z].label for z in STACKS}
    assert not [whole for whole, _ in seen.cut if whole in labels or "under" in whole]
    assert labels <= drawn


def test_a_click_on_a_stacks_top_card_claims_it(app: App) -> None:
    table = wheel_table(app)
    table.draw(app.canvas)
    glowing = table.chooser.targets()
    piles = pile_parts(table)
    hit = next((zone, rect, target) for zone in STACKS[:5] for rect, target in
               piles[zone].targets_at() if target in glowing)
    zone, rect, target = hit
    card = table.state.item_ids[target.value]
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1)], FRAME)
    if card in table.state.zone(zone, 0):
        # The click chose the card; the bar asks to confirm what it will take.
        assert table.chooser.ready is not None
        action = table.chooser.ready[0]
        assert (action.id, dict(action.args)["card"]) == ("claim", target.value)
        table.take(action)
    assert card in table.state.zone("game_cards", 0)
