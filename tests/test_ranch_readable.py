"""Dino Dude Ranch read as players read it, through whole seeded games at every number of
players, by day and by night and in teams, in a 1280x720 window and an 800x600 one: every
other player's ranch large enough that each tile's points read, every label whole (never
cut short with "…"), the cards of the player holding the laptop never hidden under a
"+N more", and no two parts of the table over one another."""

from __future__ import annotations

import random
from typing import Any

import pygame
import pytest
from test_table_layout import layout_faults, played, record_parts

from dinotable import bots
from dinotable.app import App, logical_size
from dinotable.render import cards, theme
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.choice import item_label

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
FOOD = ("Leaf", "Fish", "Meat")
WINDOWS = ((1280, 720), (800, 600))
GAMES = [(2, {}), (3, {}), (4, {"board": "night"}), (4, {"teams": True}), (5, {})]


def positions(app: App, seats: int, options: dict[str, Any]) -> Any:
    """A seeded game between Ann (holding the laptop) and heuristic bots, yielding the
    table at positions spread over it, the last one the end."""
    table = TableScene(app, load_by_id("dino_dude_ranch"),
                       [Seat(NAMES[i], "human" if i == 0 else "heuristic", i)
                        for i in range(seats)], options, seats, saving=False)
    app.push(table)
    rng = random.Random(seats)
    move = 0
    while not table.state.game_over:
        if move % 29 == 7:
            yield table
        table.take(bots.choose("heuristic", table.state, rng))
        played(table)
        move += 1
    yield table


def own(table: TableScene) -> int:
    """Whose ranch the middle of the table shows large: the viewer's, else the current
    player's."""
    look = table.look()
    return look.viewer if look.viewer is not None else int(look.view["current"])


def others_spaces(table: TableScene) -> list[tuple[pygame.Rect, int]]:
    """Every space of the other players' ranches on the screen, with whose it is."""
    players = next(p for p in table.parts if p.name == "players")
    return [(rect, t.owner) for rect, t in players.areas.hits
            if t.kind == "space" and t.owner != own(table)]


@pytest.mark.parametrize(("seats", "options"), GAMES,
                         ids=[f"{n}-{'-'.join(o) or 'day'}" for n, o in GAMES])
def test_every_ranch_and_label_reads_whole_through_a_game(app: App, seats: int,
                                                          options: dict[str, Any]) -> None:
    canvases = [pygame.Surface(logical_size(size)) for size in WINDOWS]
    looked = 0
    for table in positions(app, seats, options):
        spans = record_parts(table)
        looked += 1
        for size, canvas in zip(WINDOWS, canvases, strict=True):
            faults = layout_faults(table, canvas, spans)
            assert not faults, (size, faults[:4])
            # layout_faults drew with the text seen: every label whole, none cut.
            cards.forget()
            with theme.seeing_text() as seen:
                table.draw(canvas)
            assert not seen.cut, (size, seen.cut[:4])
            spaces = others_spaces(table)
            assert {owner for _, owner in spaces} == set(range(seats)) - {own(table)}, size
            # A space 26 px a side at least (drawn 3 px apart), its points in the type
            # every small word has.
            assert min(r.w for r, _ in spaces) + 3 >= 26, size
            shown_points = [(s, r) for s, r, surface in seen.drawn
                            if surface is canvas and s.lstrip("-").isdigit()]
            for rect, owner in spaces:
                content = table.view["zones"][_space(table, rect, owner)][owner]
                if content:
                    points = str(table.rules.items[content[-1][1]].props["points"])
                    assert any(s == points and rect.contains(r) for s, r in shown_points), (
                        size, owner, points)
            # Ann's Hired Hands are never under a "+N more": she plays them from there.
            players = next(p for p in table.parts if p.name == "players")
            hidden = [name for rect, names in players.areas.more for name in names
                      if players.area_rect(0).colliderect(rect)]
            held = [item_label(table.rules, table.state.items[i].kind)
                    for i in table.state.zones["hand"][0]]
            assert not set(held) & set(hidden), (size, held, hidden)
            if size == (1280, 720):
                # A wide window leaves every player's food in sight beside their ranch.
                for seat in range(1, seats):
                    area = players.area_rect(seat)
                    under = [name for rect, names in players.areas.more for name in names
                             if area.colliderect(rect)]
                    assert not [n for n in under if n.split(" ")[-1] in FOOD], (seat, under)
    assert looked >= 3


def _space(table: TableScene, rect: pygame.Rect, owner: int) -> str:
    """The zone of the space drawn at `rect` on `owner`'s ranch."""
    players = next(p for p in table.parts if p.name == "players")
    return next(str(t.value) for r, t in players.areas.hits
                if t.kind == "space" and t.owner == owner and r == rect)
