"""Dino Dude Ranch as players see it: every player's ranch on the table at once (the
viewer's own large, the others in their areas), a tile captured onto the space clicked, a
tar pit put on another player's ranch by a click on it, and the cards in hand hidden from
everyone but their owner. The table knows nothing of this game: a board each player has is
shown and clicked this way whatever the ruleset."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pygame
import pytest
from test_table_host import click

from dinotable.app import App, logical_size
from dinotable.engine import legal_actions
from dinotable.render import cards, theme
from dinotable.ruleset import load_by_id
from dinotable.scenes.handoff import HandoffScene
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.choice import Target, item_label
from dinotable.table.widgets import ZonePart

FRAME = 1 / 30
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def ranch_table(app: App, seats: int, until: Callable[[TableScene], bool],
                options: dict[str, Any] | None = None, seed: int = 5) -> TableScene:
    """People play at random until `until` holds; Ann then holds the laptop."""
    table = TableScene(app, load_by_id("dino_dude_ranch"),
                       [Seat(NAMES[i], "human", i) for i in range(seats)], options or {}, seed)
    app.push(table)
    rng = random.Random(seed)
    for _ in range(3000):
        if until(table):
            break
        legal = legal_actions(table.state)
        table.take(legal[rng.randrange(len(legal))])
    else:
        pytest.fail("the wanted position never came")
    # What the table shows once the moves' playback is over, without waiting for it.
    table.steps.clear()
    table.wait, table.banner, table.handoff_due = 0.0, None, False
    table._settle()
    table.handed(0)
    for _ in range(30):  # Ann says she is ready, when the laptop is handed to her
        app.step([], FRAME)
        if isinstance(app.top, HandoffScene):
            click(app, app.top.menu.find("ready").rect.center)
        elif table.my_turn:
            break
    return table


def may(action_id: str, seat: int = 0) -> Callable[[TableScene], bool]:
    """Whether `seat` may take an action of that id now."""
    return lambda table: any(a.id == action_id and a.player == seat
                             for a in legal_actions(table.state))


def spaces_drawn(table: TableScene) -> dict[Target, pygame.Rect]:
    """Every board space on the screen, by its target (whose board it is on too)."""
    out: dict[Target, pygame.Rect] = {}
    for part in table.parts:
        shown = getattr(part, "areas", None) or part
        out |= {t: r for r, t in shown.hits if t.kind == "space"}
    return out


def ranch_of(table: TableScene, seat: int) -> dict[str, str]:
    """What lies on each space of a player's ranch, from the engine's state."""
    state = table.state
    return {zone.split("@")[1]: state.items[lists[seat][-1]].kind
            for zone, lists in state.zones.items()
            if zone.startswith("ranch@") and lists[seat]}


def test_a_dinosaur_is_captured_onto_the_space_clicked(app: App) -> None:
    table = ranch_table(app, 2, may("capture"))
    before = ranch_of(table, 0)
    grounds = next(p for p in table.parts if isinstance(p, ZonePart) and p.spec.zone ==
                   "grounds")
    targets = table.chooser.targets()
    tile = next((r, t) for r, t in grounds.hits if t in targets)
    click(app, tile[0].center)
    kind = table.state.items[table.state.item_ids[tile[1].value]].kind
    # The spaces it may go on glow on Ann's own ranch (the large one in the middle).
    spaces = spaces_drawn(table)
    glowing = [t for t in table.chooser.targets() if t.kind == "space"]
    assert glowing and all(t.owner == 0 and t in spaces for t in glowing)
    grid = next(p for p in table.parts if isinstance(p, ZonePart) and p.kind == "grid")
    target = sorted(glowing, key=lambda t: t.value)[-1]
    assert grid.rect.contains(spaces[target])
    click(app, spaces[target].center)
    space = target.value.split("@")[1]
    assert ranch_of(table, 0).get(space) == kind and before.get(space) != kind


def test_a_tar_pit_goes_on_the_ranch_and_space_clicked(app: App) -> None:
    table = ranch_table(app, 3, may("place_tar_pit"), {"tar_pit_attacks": True})
    ben = [t for t in table.chooser.targets() if t.kind == "space" and t.owner == 1]
    assert ben, "with Tar Pit Attacks, Ben's empty spaces may take it"
    spaces = spaces_drawn(table)
    players = next(p for p in table.parts if p.name == "players")
    assert players.rect.contains(spaces[ben[0]]), "Ben's ranch is in his area"
    pits = table.state.zones["tar_pits"][0][:]
    click(app, spaces[ben[0]].center)
    assert ranch_of(table, 1).get(ben[0].value.split("@")[1]) == "tar_pit"
    assert len(table.state.zones["tar_pits"][0]) == len(pits) - 1


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_every_ranch_is_drawn_with_what_lies_on_it(app: App, size: tuple[int, int]) -> None:
    table = ranch_table(app, 5, lambda t: sum(
        bool(ranch_of(t, s)) for s in range(5)) >= 4 and t.state.current == 0)
    canvas = pygame.Surface(logical_size(size))
    table.draw(canvas)
    spaces = spaces_drawn(table)
    board = table.rules.boards["ranch"]
    assert len(board.spaces) == 11, "five play by night"
    for seat in range(5):
        drawn = {t.value.split("@")[1] for t in spaces if t.owner == seat}
        assert drawn == set(board.spaces), seat
        boxes = [r for t, r in spaces.items() if t.owner == seat]
        assert all(b.w >= 12 for b in boxes) and canvas.get_rect().contains(boxes[0])
    faces = [f for part in table.parts for f in (getattr(part, "areas", None) or part).faces]
    for seat in range(1, 5):
        for space, kind in ranch_of(table, seat).items():
            box = next(r for t, r in spaces.items() if t.owner == seat
                       and t.value == f"ranch@{space}")
            assert (box, kind) in faces, (seat, space, kind)  # its tile, read on hover


def test_a_hand_is_drawn_only_for_its_owner(app: App) -> None:
    table = ranch_table(app, 3, lambda t: t.state.current == 0 and all(
        t.state.zones["hand"][s] for s in range(3)))
    canvas = pygame.Surface(logical_size((1280, 720)))
    cards.forget()  # every card face painted afresh, so the words on it are seen
    with theme.seeing_text() as seen:
        table.draw(canvas)
    words = " ".join(string for string, _, _ in seen.drawn)
    state = table.state
    players = next(p for p in table.parts if p.name == "players")

    def shown(seat: int) -> set[str]:
        area = players.area_rect(seat)
        return {kind for rect, kind in players.areas.faces if area.colliderect(rect)}

    def held(seat: int) -> set[str]:
        return {state.items[i].kind for zone in ("hand", "bonus")
                for i in state.zones[zone][seat]}

    assert held(0) & shown(0), "Ann sees her own cards"
    for seat in (1, 2):
        hidden = held(seat) - held(0)
        assert not hidden & shown(seat), seat
        # Her Rancher Bonus is named nowhere on the screen.
        assert not any(item_label(table.rules, state.items[i].kind) in words
                       for i in state.zones["bonus"][seat]
                       if state.items[i].kind not in held(0))
        assert f"Hired Hands: {len(state.zones['hand'][seat])}" in words  # a count


def handed_to(app: App) -> HandoffScene:
    """Frames until the laptop is to be handed on; the hand-off screen."""
    for _ in range(600):
        app.step([], FRAME)
        if isinstance(app.top, HandoffScene):
            return app.top
    pytest.fail("the laptop was never handed on")


def holds_anytime_card(table: TableScene, seat: int) -> bool:
    state = table.state
    return any(state.rules.items[state.items[i].kind].props.get("anytime") == 1
               for i in state.zones["hand"][seat])


def test_a_player_who_may_play_a_card_on_anothers_turn_gets_the_laptop(app: App) -> None:
    table = ranch_table(app, 2, lambda t: may("roll")(t) and holds_anytime_card(t, 1))
    app.settings.always_handoff = True
    table.state.chance.force(["leaf", "fish"])
    click(app, table.menu.find("action:roll").rect.center)
    handoff = handed_to(app)
    assert handoff.name == "Ben" and handoff.why == "Ben, you may respond"
    click(app, handoff.menu.find("ready").rect.center)
    tags = [c.tag for c in table.menu.controls if c.enabled]
    assert {"action:play", "start:play"} & set(tags) and "action:pass" in tags
    # His cards, and only those he may play now, glow to be chosen.
    held = {table.state.items[i].id for i in table.state.zones["hand"][1]}
    glowing = {t.value for t in table.chooser.targets() if t.kind == "item"}
    assert glowing and glowing <= held


def test_in_the_team_game_the_partner_is_asked_to_agree_to_a_swap(app: App) -> None:
    def swaps(table: TableScene) -> bool:  # Ann may offer one of two or more of Cat's
        return len({dict(a.args)["theirs"] for a in legal_actions(table.state)
                    if a.id == "swap" and a.player == 0}) >= 2

    table = ranch_table(app, 4, swaps, {"teams": True}, seed=7)
    app.settings.always_handoff = True
    mine = [t for t in table.chooser.targets() if t.kind == "space"]
    assert mine and all(t.owner == 0 for t in mine), "Ann's own dinosaurs first"
    click(app, spaces_drawn(table)[mine[0]].center)
    theirs = [t for t in table.chooser.targets() if t.kind == "space"]
    assert theirs and all(t.owner == 2 for t in theirs), "then one on Cat's ranch"
    click(app, spaces_drawn(table)[theirs[0]].center)
    handoff = handed_to(app)
    assert handoff.name == "Cat"
    click(app, handoff.menu.find("ready").rect.center)
    assert "action:agree" in [c.tag for c in table.menu.controls if c.enabled]
