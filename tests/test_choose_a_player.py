"""Choosing a player on the table: when a move asks for a player (a tar pit put on a
rival's ranch by a Hired Hands card), each player who may be chosen glows whole, and a click
anywhere in their area chooses them: on their name, or on their ranch, where people look
when they mean "that ranch", even on a tile that a click would otherwise show large. The
table knows nothing of the game: any argument naming a player is chosen this way."""

from __future__ import annotations

from test_ranch_screen import may, ranch_of, ranch_table, spaces_drawn
from test_table_host import click

from dinotable.app import App
from dinotable.scenes.table import TableScene
from dinotable.table.choice import Target


def _prank(app: App) -> TableScene:
    table = ranch_table(app, 3, may("prank"), seed=0)
    assert {int(t.value) for t in table.chooser.targets() if t.kind == "seat"} == {1, 2}
    return table


def test_one_click_on_a_rivals_empty_space_puts_the_tar_pit_there(app: App) -> None:
    table = _prank(app)
    spaces = spaces_drawn(table)
    before = ranch_of(table, 2)
    cat = next(t for t in spaces if t.owner == 2 and t.value.split("@")[1] not in before)
    click(app, spaces[cat].center)
    assert ranch_of(table, 2) == {**before, cat.value.split("@")[1]: "tar_pit"}


def test_after_the_button_a_click_on_a_rivals_tile_chooses_that_rival(app: App) -> None:
    table = _prank(app)
    start = next(c for c in table.menu.controls if c.tag == "start:prank")
    click(app, start.rect.center)
    assert {t.kind for t in table.chooser.targets()} == {"seat"}, "first: which player"
    spaces = spaces_drawn(table)
    before = ranch_of(table, 2)
    tile = next(t for t in spaces if t.owner == 2 and t.value.split("@")[1] in before)
    click(app, spaces[tile].center)  # on a dinosaur lying on Cat's ranch
    players = next(p for p in table.parts if p.name == "players")
    assert players.zoom.pinned is None, "the click chose Cat; it did not pin the tile"
    asked = table.chooser.targets()
    assert asked and all(t.kind == "space" and t.owner == 2 for t in asked), asked
    assert Target("seat", 1) not in asked
    spaces = spaces_drawn(table)
    empty = sorted(asked, key=str)[0]
    click(app, spaces[empty].center)
    assert ranch_of(table, 2) == {**before, empty.value.split("@")[1]: "tar_pit"}
