"""Danger! Danger! Dinosaur's dice as a player handles them: thrown in the Jungle's tray,
the dice to throw again chosen by clicking them (or with the arrow keys and Space), the
dice that pay for a card lifted and ticked before the claim is confirmed, and the dinosaurs
bones may negate framed red while the question is asked. The table knows nothing of this
game: a `faces_of` argument is chosen by clicking dice, whatever the ruleset."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from test_table_host import click, key

from dinotable.app import App, logical_size
from dinotable.engine import Action, in_face_order, legal_actions, new_game
from dinotable.render import theme
from dinotable.ruleset import load_by_id, load_ruleset
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.choice import Target
from dinotable.table.display import lift
from dinotable.table.widgets import ZonePart

FRAME = 1 / 30


def danger_table(app: App, until: Callable[[TableScene], bool], seed: int = 4) -> TableScene:
    """Two people play at random until `until` holds on Ann's turn; Ann holds the laptop
    and the dice have come to rest."""
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1)]
    table = TableScene(app, load_by_id("danger_danger_dinosaur"), seats, {}, seed)
    app.push(table)
    rng = random.Random(seed)
    for _ in range(4000):
        if table.state.current == 0 and until(table):
            break
        legal = legal_actions(table.state)
        table.take(legal[rng.randrange(len(legal))])
    else:
        pytest.fail("the wanted position never came")
    rest(app, table)
    table.handed(0)
    app.step([], FRAME)
    return table


def rest(app: App, table: TableScene) -> None:
    """Frames until the dice lie still and the table waits on a person."""
    for _ in range(3000):
        table.handoff_due = False
        if table.idle and not table.steps:
            break
        app.step([], FRAME)
    for _ in range(90):  # the banner of the last move fades
        app.step([], FRAME)


def on_window(app: App, pos: tuple[float, float]) -> tuple[int, int]:
    """A point of the table's canvas as the window shows it (a small window is scaled)."""
    (cw, ch), (ww, wh) = app.canvas.get_size(), app.window.get_size()
    return round(pos[0] * ww / cw), round(pos[1] * wh / ch)


def jungle_dice(table: TableScene) -> dict[str, tuple[float, float, float, str | None]]:
    """The Jungle's dice as drawn: id -> (x, y, angle, face)."""
    return {s.id: (s.x, s.y, s.angle, s.face) for s in table.sprites.values()
            if s.zone == "jungle" and s.goal is None}


def die_box(table: TableScene, item: str) -> pygame.Rect:
    tray = table.tray_part
    assert tray is not None
    return next(box for box, target in tray.targets_at() if target == Target("item", item))


def rerolling_with_twins(table: TableScene) -> bool:
    """Ann may reroll, and two of her dice show the same face (so which one is thrown is
    a real question of the picture)."""
    faces = Counter(table.state.items[i].face for i in table.state.zone("jungle", 0))
    return any(a.id == "reroll" for a in legal_actions(table.state)) and (
        len(faces) >= 2 and max(faces.values()) >= 2)


@pytest.mark.parametrize("window", [(1280, 720), (800, 600)])
def test_clicking_two_dice_and_reroll_throws_exactly_those(
        app: App, window: tuple[int, int]) -> None:
    if window != (1280, 720):
        app.step([pygame.event.Event(pygame.VIDEORESIZE, w=window[0], h=window[1],
                                     size=window)], FRAME)
        assert app.canvas.get_size() == logical_size(window)
    table = danger_table(app, rerolling_with_twins)
    # One button for rerolling, not one per choice of faces.
    tags = [c.tag for c in table.menu.controls]
    assert "start:reroll" in tags and not [t for t in tags if t.startswith("reroll:")]
    before = jungle_dice(table)
    order = [table.state.items[i].id for i in table.state.zone("jungle", 0)]
    faces = {d: before[d][3] for d in order}
    # The later of two dice showing the same face (the engine would name the first), and
    # a die showing another face.
    twin = next(d for n, d in enumerate(order) if faces[d] in [faces[e] for e in order[:n]])
    other = next(d for d in reversed(order) if faces[d] != faces[twin])
    glowing = table.chooser.targets()
    assert {Target("item", d) for d in order} <= glowing, "every Jungle die may be chosen"
    for die in (twin, other):
        click(app, on_window(app, die_box(table, die).center))
    assert sorted(table.chooser.marked()) == sorted([twin, other])
    confirm = table.menu.find("confirm:reroll")
    assert confirm.enabled and confirm.label == "Reroll 2 dice"
    click(app, on_window(app, confirm.rect.center))
    action = table.state.log[-1]
    assert action.id == "reroll"
    assert dict(action.args)["dice"] == in_face_order(table.rules, [faces[twin], faces[other]])
    rest(app, table)
    # (The game is seeded: no dinosaur comes, and Ann's dice are still there to see.)
    assert table.state.current == 0 and table.state.zone("jungle", 0)
    after = jungle_dice(table)
    # The dice not chosen lie exactly where they lay, showing what they showed; nothing
    # lies where a chosen die lay: those two were thrown.
    kept = {(x, y, a, f) for x, y, a, f in after.values()}
    for die in order:
        if die in (twin, other):
            assert not any((x, y, a) == before[die][:3] for x, y, a, _ in kept), die
        else:
            assert before[die] in kept, die


def test_the_keyboard_chooses_dice_with_tab_and_space_then_the_reroll_key(
        app: App) -> None:
    table = danger_table(app, rerolling_with_twins, seed=9)
    faces = {d: f for d, (_, _, _, f) in jungle_dice(table).items()}
    key(app, pygame.K_e)  # Reroll's own key: choosing begins
    assert table.chooser.building is not None and table.chooser.building.adef.id == "reroll"
    chosen = []
    for _ in range(2):
        key(app, pygame.K_TAB)  # the ring moves to the next die
        ring = table.ring
        assert ring is not None and ring.value in faces
        key(app, pygame.K_SPACE)  # and Space chooses it: the focus waits on Reroll
        chosen.append(str(ring.value))
        assert table.ring is None and table.menu.focused.tag == "confirm:reroll"
    assert sorted(table.chooser.marked()) == sorted(chosen) and len(set(chosen)) == 2
    key(app, pygame.K_e)
    action = table.state.log[-1]
    assert action == Action(0, "reroll", (("dice", in_face_order(
        table.rules, [faces[d] for d in chosen])),))


def test_a_die_clicked_twice_is_put_back(app: App) -> None:
    table = danger_table(app, rerolling_with_twins)
    die = next(iter(jungle_dice(table)))
    click(app, on_window(app, die_box(table, die).center))
    assert table.chooser.marked() == [die]
    click(app, on_window(app, die_box(table, die).center))
    assert table.chooser.marked() == []
    confirm = table.menu.find("confirm:reroll")
    assert not confirm.enabled and "choose" in confirm.why_disabled.lower()


def claiming_a_game_card(table: TableScene) -> bool:
    return any(a.id == "claim" and table.state.items[table.state.item_ids[
        dict(a.args)["card"]]].kind not in ("mammoth_bone", "family_member")
        for a in legal_actions(table.state))


def gold_frame(table: TableScene, canvas: pygame.Surface, die: str) -> bool:
    """Whether a gold frame is drawn round a die, lifted: the middle of its left and
    bottom edges (the tick sits at the top right)."""
    sprite = table.sprites[die]
    size = table.sprite_size(sprite)
    box = pygame.Rect(0, 0, size + 12, size + 12)
    box.center = (round(sprite.x), round(sprite.y - lift(table, sprite, size)))
    spots = [(box.x + 1, box.centery), (box.centerx, box.bottom - 2)]
    return all(canvas.get_at(p)[:3] == theme.GOLD for p in spots)


def test_a_card_clicked_lifts_the_dice_that_pay_for_it_until_the_claim_is_confirmed(
        app: App) -> None:
    table = danger_table(app, claiming_a_game_card, seed=7)
    glowing = table.chooser.targets()
    box, target = next((r, t) for p in table.parts if isinstance(p, ZonePart)
                       for r, t in p.targets_at() if t in glowing and p.spec.zone
                       and p.spec.zone.startswith("game_"))
    card = str(target.value)
    kind = table.state.items[table.state.item_ids[card]].kind
    click(app, on_window(app, box.center))
    assert table.chooser.ready is not None
    paying = table.chooser.paying()
    state = table.state
    jungle = {state.items[i].id for i in state.zone("jungle", 0)}
    assert paying and set(paying) <= jungle
    cost = table.rules.items[kind].props["cost"]
    assert Counter(state.items[state.item_ids[d]].face for d in paying) == Counter(cost)
    assert "ticked dice" in table.chooser.prompt()
    canvas = app.canvas
    table.draw(canvas)
    for die in paying:
        assert gold_frame(table, canvas, die), die
    for die in jungle - set(paying):
        assert not gold_frame(table, canvas, die), die
    confirm = next(c for c in table.menu.controls if c.tag == "confirm:claim")
    click(app, on_window(app, confirm.rect.center))
    assert card in {state.items[i].id for i in state.zone("game_cards", 0)}
    assert {state.items[i].id for i in state.zone("spent", 0)} >= set(paying)
    assert not set(paying) & {state.items[i].id for i in state.zone("jungle", 0)}


def test_the_negate_question_frames_the_dinosaurs_with_the_bones_held_in_view(
        app: App) -> None:
    table = danger_table(app, lambda t: any(a.id == "negate" for a in legal_actions(t.state)),
                         seed=11)
    state = table.state
    dinosaurs = {state.items[i].id for i in state.zone("danger", 0)
                 if state.items[i].face == "dinosaur"}
    assert dinosaurs and set(table.chooser.threatened()) == dinosaurs
    on_show = {s.id for s in table.sprites.values() if s.zone == "danger"}
    assert dinosaurs <= on_show, "the dinosaur dice lie in the Jungle for all to see"
    with theme.seeing_text() as seen:
        table.draw(app.canvas)
    drawn = [text for text, _, _ in seen.drawn]
    bones = state.player_vars[0]["bones"]
    assert f"bones held: {bones}" in " ".join(drawn)
    assert "!" in drawn, "each dinosaur is marked with a sign, not by colour alone"
    labels = [c.label for c in table.menu.controls if c.enabled]
    assert "Negate" in labels and "Bust" in labels, "both answers on the bar's first page"


WILD = """
id: fixture_wild_pay
name: Fixture Wild Pay
version: 1
players: {min: 2, max: 2}
dice:
  die: {faces: [wood, stone, star]}
properties: {wood: 0}
items:
  hut: {type: card, label: Hut, wood: 2}
zones:
  tray: {holds: dice, start: {die: 3}, label: Tray}
  spent: {holds: dice, label: Spent}
  market: {holds: cards, start: all, label: Market}
  built: {holds: cards, per_player: true, label: Built}
score: size(built)
turn:
  start:
    - move_all: {from: spent, to: tray}
    - roll: tray
actions:
  build:
    args:
      card: {domain: item_in, zone: market}
      # A star stands for any face: the Hut takes two dice showing wood or a star.
      dice:
        domain: faces_of
        zone: tray
        test: "length($dice) == prop($card, wood) and count_in(matching(tray, $dice), stone) == 0"
    effects:
      - pay: {from: tray, cost: $dice, to: spent}
      - move: {from: market, to: built, item: $card}
      - end_turn: {}
  pass_turn:
    effects: [{end_turn: {}}]
end: {trigger: "size(market) == 0"}
"""


def test_dice_that_pay_a_wildcard_cost_are_marked_and_a_click_changes_which_pay(
        app: App, write_ruleset: Callable[[str], Path]) -> None:
    rules = load_ruleset(write_ruleset(WILD))

    def first_throw(seed: int) -> list[str | None]:
        state = new_game(rules, ["Ann", "Ben"], {}, seed)
        return [state.items[i].face for i in state.zone("tray", 0)]

    # A game whose first throw is wood, star, wood (the seed that gives it).
    seed = next(s for s in range(2000) if first_throw(s) == ["wood", "star", "wood"])
    table = TableScene(app, rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], {}, seed)
    app.push(table)
    rest(app, table)
    table.handed(0)
    state = table.state
    tray = [state.items[i].id for i in state.zone("tray", 0)]

    def spot(item: str) -> tuple[int, int]:
        table.draw(app.canvas)
        return next(r.center for w in table.widgets for r, t in w.hits
                    if t == Target("item", item))

    hut = next(state.items[i].id for i in state.zone("market", 0))
    click(app, spot(hut))
    # Two woods pay, marked for the player to see; the star is kept.
    assert sorted(table.chooser.marked()) == sorted([tray[0], tray[2]])
    confirm = table.menu.find("confirm:build")
    assert confirm.enabled
    # Ann would rather spend the star and keep a wood: one click off, one click on.
    click(app, spot(tray[2]))
    assert not table.menu.find("confirm:build").enabled, "one die does not pay for a Hut"
    click(app, spot(tray[1]))
    assert sorted(table.chooser.marked()) == sorted([tray[0], tray[1]])
    click(app, table.menu.find("confirm:build").rect.center)
    assert [state.items[i].kind for i in state.zone("built", 0)] == ["hut"]
    assert [state.items[i].face for i in state.zone("spent", 0)].count("star") == 1


def test_a_banner_gives_way_while_the_dice_are_chosen(app: App) -> None:
    table = danger_table(app, rerolling_with_twins)
    canvas = app.canvas

    def picture(banner: bool) -> bytes:
        table.banner = ("Ann shows her dice", (200, 60, 60), 2.0) if banner else None
        table.draw(canvas)
        return pygame.image.tobytes(canvas.subsurface(table.tr), "RGB")

    # Ann's dice glow for her to choose: nothing covers them, nor once she has begun.
    assert picture(True) == picture(False), "the dice to choose are never under a banner"
    die = table.state.items[table.state.zone("jungle", 0)[0]].id
    click(app, on_window(app, die_box(table, die).center))
    assert table.chooser.building is not None
    assert picture(True) == picture(False), "the dice being chosen are never under a banner"
    table.chooser.cancel()
    table.handed(1)  # Ben holds the laptop: nothing for him to choose, he reads the dice
    assert picture(True) == picture(False), "dice at rest are never under a banner"
    table.sprites.clear()  # no die under it: the banner shows
    assert picture(True) != picture(False)
