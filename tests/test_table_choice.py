"""Choosing on the table: paying dice for a card by clicking the card, the keyboard's
first Tab, and what Dinosaur Dice's table says when a steal is due and when the game ends."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
from test_table_host import click, key, table_for

from dinotable.app import App
from dinotable.engine import Action
from dinotable.ruleset import load_by_id
from dinotable.scenes.results import ResultsScene
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.choice import Target
from dinotable.table.regions import REGIONS

FRAME = 1 / 30


def settle(app: App, table: TableScene) -> None:
    for _ in range(2000):
        app.step(dt=FRAME)
        if table.my_turn:
            return


def card_rect(table: TableScene, item: str) -> pygame.Rect:
    table.draw(table.app.canvas)  # the widgets know where they drew their cards
    return next(r for w in table.widgets for r, t in w.hits if t == Target("item", item))


def dice_showing(table: TableScene, faces: list[str]) -> None:
    """The tray's dice show these faces (as if rolled so), drawn so."""
    state = table.state
    for i, face in zip(state.zones["tray"][0], faces, strict=True):
        state.items[i].face = face
    table._settle()


def market(table: TableScene) -> dict[str, str]:
    """The market's cards by kind: kind -> item id."""
    state = table.state
    return {state.items[i].kind: state.items[i].id for i in state.zones["market"][0]}


def face_of(table: TableScene, item: str) -> str:
    state = table.state
    return str(state.items[state.item_ids[item]].face)


def test_clicking_a_card_marks_dice_that_pay_for_it_and_one_more_click_builds_it(app: App
                                                                                 ) -> None:
    table = table_for(app, "fixture_pay", ["human", "human"])
    settle(app, table)
    dice_showing(table, ["wood", "stone", "stone", "leaf"])
    click(app, card_rect(table, market(table)["wall"]).center)
    faces = sorted(face_of(table, d) for d in table.chooser.marked())
    assert faces == ["stone", "stone"], "the two stones pay for the Wall"
    confirm = table.menu.find("confirm:buy")
    assert confirm.enabled
    click(app, confirm.rect.center)
    settle(app, table)
    built = [table.state.items[i].kind for i in table.state.zones["built"][0]]
    assert built == ["wall"]


def test_a_card_the_dice_cannot_pay_for_says_so_and_another_card_can_be_chosen(app: App
                                                                               ) -> None:
    table = table_for(app, "fixture_pay", ["human", "human"])
    settle(app, table)
    dice_showing(table, ["wood", "leaf", "leaf", "leaf"])
    click(app, card_rect(table, market(table)["tower"]).center)
    assert table.chooser.marked() == [] and not table.menu.find("confirm:buy").enabled
    assert "nothing here pays" in table.chooser.prompt()
    click(app, card_rect(table, market(table)["fence"]).center)  # one wood pays for it
    assert [face_of(table, d) for d in table.chooser.marked()] == ["wood"]
    assert table.menu.find("confirm:buy").enabled


def test_the_last_card_is_never_bought_without_its_dice(app: App) -> None:
    table = table_for(app, "fixture_pay", ["human", "human"])
    settle(app, table)
    dice_showing(table, ["wood", "stone", "stone", "leaf"])
    state = table.state
    del state.zones["market"][0][1:]  # one card left to build
    chooser = table.chooser
    chooser.refresh()
    start = next(c for c in chooser.choices() if c.tag == "start:buy")
    assert start.step is not None
    assert start.step() is None  # the dice are still to choose: never an action without
    assert chooser.building is not None and "card" in chooser.building.bound
    assert chooser.marked() or "nothing here pays" in chooser.prompt()


def test_the_first_tab_lands_on_the_first_glowing_thing(app: App) -> None:
    table = table_for(app, "fixture_reroll", ["human", "human"])
    settle(app, table)
    first = table.ring_targets()[0][1]
    key(app, pygame.K_TAB)
    assert table.ring == first
    key(app, pygame.K_RETURN)  # marks it; the focus goes to the button that rerolls
    assert table.chooser.marked() == [first.value]
    assert table.ring is None and table.menu.focused.tag.startswith("confirm:")
    key(app, pygame.K_TAB)  # Tab goes on from the die just marked, to mark the next
    assert table.ring == table.ring_targets()[1][1]
    key(app, pygame.K_BACKSPACE)
    assert table.chooser.building is None


def test_an_arrow_on_the_bar_stays_on_the_bar(app: App) -> None:
    """Right or Left from a ringed button moves along the buttons, never onto a die
    that the next Enter would choose at once."""
    table = table_for(app, "fixture_reroll", ["human", "human"])
    settle(app, table)
    assert table.ring_targets() and table.menu.show_focus
    for pressed in (pygame.K_RIGHT, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_DOWN):
        key(app, pressed)
        assert table.ring is None and table.menu.show_focus


def _steal_table(app: App) -> TableScene:
    names = ["Catherine", "Ben", "Cat", "Maximilian"]
    seats = [Seat(n, "human", i) for i, n in enumerate(names)]
    table = TableScene(app, load_by_id("dinosaur_dice"), seats, {}, 5)
    app.push(table)
    state = table.state
    for seat, faces in enumerate([["dinosaur"] * 3 + ["bone"] * 9,
                                  ["dinosaur"] * 2 + ["bone"] * 7,
                                  ["dinosaur"] * 2 + ["bone"] * 5]):
        state.chance.force(faces)
        table.take(Action(seat, "roll"))
        settle(app, table)
    state.chance.force(["egg", "egg", "bone", "bone", "bone"])
    table.take(Action(3, "roll"))
    settle(app, table)
    return table


def test_two_eggs_tell_the_thrower_to_steal_and_every_choice_stays_on_screen(app: App
                                                                             ) -> None:
    table = _steal_table(app)
    words = table.what_to_do()
    assert "steal" in words and "may" not in words  # the only move (DECISIONS 7)
    assert table.steal_targets() == {0, 1, 2}
    bar = REGIONS["bar"]
    for c in table.menu.controls:
        if c.tag.startswith("steal") or c.tag.startswith("page:"):
            assert bar.contains(c.rect), c.rect
    for seat in table.steal_targets():
        row = table.row_rect(seat)
        assert not row.colliderect(REGIONS["log"]) and row.bottom <= REGIONS["bar"].y


def test_dinosaur_dice_ends_naming_its_winner(app: App) -> None:
    seats = [Seat(n, "heuristic", i) for i, n in enumerate(["Ann", "Ben", "Cat"])]
    table = TableScene(app, load_by_id("dinosaur_dice"), seats, {"goal": 8}, 3)
    table.hurry = True
    app.push(table)
    for _ in range(20000):
        app.step(dt=1 / 15)
        if isinstance(app.top, ResultsScene):
            break
    assert isinstance(app.top, ResultsScene)
    winners = [table.name(s) for s in app.top.winners]
    assert len(winners) == 1 and table.log[-1] == f"{winners[0]} wins the game!"
    assert not [line for line in table.log if "Last round" in line or "reached" in line]


def test_asked_to_respond_pass_is_the_first_button(app: App) -> None:
    # Most answers to a response window are "no": Pass leads the bar, never a page away.
    import random

    from dinotable.engine import legal_actions

    table = table_for(app, "fixture_respond", ["human", "human", "human"])
    rng = random.Random(4)
    for _ in range(200):
        pending = table.state.pending
        if pending and pending[-1]["kind"] == "window" and len(legal_actions(table.state)) > 1:
            break
        legal = legal_actions(table.state)
        table.take(legal[rng.randrange(len(legal))])
    else:
        raise AssertionError("no response window with a card to play came up")
    settle(app, table)
    table.handoff_due = False
    table.handed(table.deciding)
    choices = [c for c in table.menu.controls if c.tag not in ("pause", "odds", "undo")
               and not c.tag.startswith("page:")]
    assert choices[0].tag == "action:pass" and len(choices) > 1
