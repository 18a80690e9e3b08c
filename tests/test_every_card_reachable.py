"""Every card a player may choose can be chosen: either it is drawn on the table (a click
on it chooses it) or, when there is no room to draw it (a full area's "+N more" holds it),
the bar offers it as a button. Checked at every decision of the person at the table through
seeded games of the card games, at five and six seats, in two window sizes."""

from __future__ import annotations

import random

import pygame
import pytest
from test_table_layout import NAMES, played

from dinotable import bots
from dinotable.app import App, logical_size
from dinotable.engine import legal_actions
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene


def _unreachable(table: TableScene) -> list[str]:
    """The card values of the person's legal moves that nothing on screen offers."""
    chooser = table.chooser
    drawn = {t for part in table.parts for _, t in part.targets_at()}
    choices = chooser.choices()
    offered = {c.tag for c in choices}
    offered |= {f"{c.action.id}:{dict(c.action.args).get(a.name)}" for c in choices
                if c.action is not None and c.action.args
                for a in table.rules.actions[c.action.id].args[:1]}
    lost = []
    for action in legal_actions(table.state):
        adef = table.rules.actions[action.id]
        if action.player != 0 or not adef.args:
            continue
        value = dict(action.args)[adef.args[0].name]
        targets = chooser._value_targets(adef.args[0], value)
        cards = [t for t in targets if t.kind == "item" and chooser.is_card(str(t.value))]
        if not cards or any(t in drawn for t in cards) or f"{action.id}:{value}" in offered:
            continue
        if f"start:{action.id}" in offered and chooser.clickable(adef.args[0], [value]):
            lost.append(f"{action.id}:{value} (its card is not drawn)")
        elif f"start:{action.id}" not in offered:
            lost.append(f"{action.id}:{value}")
    return lost


@pytest.mark.parametrize(("rid", "seats"), [("dino_dude_ranch", 5), ("dino_hunt", 4),
                                            ("danger_danger_dinosaur", 6)])
@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_every_card_a_person_may_choose_is_drawn_or_on_a_button(
        app: App, rid: str, seats: int, size: tuple[int, int]) -> None:
    rules = load_by_id(rid)
    kinds = ["human"] + ["heuristic"] * (seats - 1)
    table = TableScene(app, rules, [Seat(NAMES[i], k, i) for i, k in enumerate(kinds)], {},
                       seats)
    app.push(table)
    canvas = pygame.Surface(logical_size(size))
    rng = random.Random(seats)
    checked = 0
    for _ in range(400):
        if table.state.game_over:
            break
        played(table)
        if table.state.current == 0 and table.my_turn:
            table.draw(canvas)  # the frame tells the chooser what it could not draw
            lost = _unreachable(table)
            assert not lost, (rid, size, table.state.turns, lost)
            checked += 1
        table.take(bots.choose("heuristic", table.state, rng))
    assert checked >= 20
