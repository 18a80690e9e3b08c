"""Dino Hunt's table as a family reads it: the Time Track's periods and dinosaurs named in
full, no bookkeeping zones on show, any card read large on hover or click (and turned over),
and never a rival's hidden card, zoomed or not."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from dinotable.app import App, logical_size
from dinotable.engine import legal_actions
from dinotable.render import cards, theme, widgets
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.areas import Areas
from dinotable.table.chrome import PlayersPart
from dinotable.table.regions import CANVAS
from dinotable.table.widgets import ZonePart

FRAME = 1 / 30


def hunt_table(app: App, moves: int = 12, seed: int = 5,
               until: Callable[[TableScene], bool] | None = None) -> TableScene:
    """A three-player game (Cat a bot) some moves in, Ann holding the laptop.

    With `until`, random moves go on past `moves` until it holds (and it must hold within
    a few hundred), so a test needing a position never depends on one seed's luck."""
    seats = [Seat(n, k, i) for i, (n, k) in enumerate(
        [("Ann", "human"), ("Ben", "human"), ("Cat", "heuristic")])]
    table = TableScene(app, load_by_id("dino_hunt"), seats, {}, seed)
    app.push(table)
    rng = random.Random(seed)
    for done in range(moves + (400 if until else 0)):
        if until is not None and done >= moves and until(table):
            break
        legal = legal_actions(table.state)
        table.take(legal[rng.randrange(len(legal))])
    assert until is None or until(table), "the wanted position never came"
    # The animations of every move taken play out (a position reached late queues many).
    for _ in range(12000):
        table.handoff_due = False
        if table.idle:
            break
        table.update(FRAME)
    assert table.idle
    table.handed(0)
    return table




def track_part(table: TableScene) -> ZonePart:
    return next(p for p in table.parts if isinstance(p, ZonePart) and p.kind == "track")


def test_the_periods_read_as_named_and_each_dinosaur_on_the_track_in_full(
        app: App, words: list[str]) -> None:
    table = hunt_table(app)
    table.draw(app.canvas)
    for period in ("Triassic", "Early Jurassic", "Late Jurassic", "Early Cretaceous",
                   "Late Cretaceous"):
        assert period in words
    on_track = [table.state.items[i].kind for space in table.rules.boards["track"].spaces
                for i in table.state.zones[f"track@{space}"][0]]
    assert on_track
    shown = [w for w in words if "…" not in w and "..." not in w]
    labels = {k: table.rules.items[k].label for k in on_track}
    named = [k for k in on_track if labels[k] in shown]
    more = [w for w in words if w.endswith(" more")]
    # Every dinosaur drawn is named in full; a crowded period says how many more it holds.
    assert named and (len(set(named)) == len(set(on_track)) or more)
    assert not [w for w in words if any(w.startswith(labels[k][:4]) and w != labels[k]
                                        for k in on_track if w.endswith(("…", "...")))]


def test_bookkeeping_zones_are_not_on_the_table(app: App, words: list[str]) -> None:
    table = hunt_table(app)
    table.draw(app.canvas)
    zones = {p.spec.zone for p in table.parts if isinstance(p, ZonePart)}
    assert "incoming" not in zones and "die_cup" not in zones
    assert not [w for w in words if w.startswith(("Special being drawn", "Die in the cup",
                                                  "Die (between"))]


def test_a_card_under_the_pointer_is_drawn_large_inside_the_table(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    table = hunt_table(app)
    table.draw(app.canvas)
    rect, kind = track_part(table).faces[-1]
    large: list[tuple[str, pygame.Rect, bool]] = []
    real = cards.draw_card_large

    def spy(surface: Any, where: pygame.Rect, info: Any, back: bool = False,
            **kw: Any) -> Any:
        large.append((info.kind, where, back))
        return real(surface, where, info, back, **kw)

    monkeypatch.setattr(cards, "draw_card_large", spy)
    now = [10.0]
    monkeypatch.setattr(widgets, "clock", lambda: now[0])
    table.mouse = rect.center
    assert table.needs_redraw()
    table.draw(app.canvas)
    assert not large, "not at the first touch: the table stays in view"
    now[0] += 0.4
    assert table.needs_redraw(), "the resting pointer's card is due: drawn again"
    table.draw(app.canvas)
    assert [k for k, _, _ in large] == [kind]
    assert CANVAS.contains(large[0][1]) and large[0][1].h > 400 and not large[0][2]
    now[0] += 9
    large.clear()
    assert table.needs_redraw()
    table.draw(app.canvas)
    assert not large, "put back under a pointer left standing"
    table.mouse = (5, 5)  # away from every card: nothing large
    large.clear()
    table.draw(app.canvas)
    assert not large


def test_a_click_pins_a_card_large_right_click_turns_it_the_next_click_puts_it_back(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    table = hunt_table(app)
    table.draw(app.canvas)
    glowing = table.chooser.targets() if table.my_turn else set()
    rect, kind = next((r, k) for p in table.parts if isinstance(p, ZonePart)
                      for r, k in p.faces  # a card that is not a choice now
                      if not any(t in glowing for h, t in p.hits
                                 if h.collidepoint(r.center)))
    large: list[tuple[str, bool]] = []
    real = cards.draw_card_large

    def spy(surface: Any, where: pygame.Rect, info: Any, back: bool = False,
            **kw: Any) -> Any:
        large.append((info.kind, back))
        return real(surface, where, info, back, **kw)

    monkeypatch.setattr(cards, "draw_card_large", spy)
    state_before = str(table.state)

    def press(button: int, pos: tuple[int, int]) -> None:
        table.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
        table.mouse = (5, 5)
        large.clear()
        table.draw(app.canvas)

    press(1, rect.center)
    assert large == [(kind, False)]
    press(3, (5, 5))
    assert large == [(kind, True)]  # turned over
    press(1, (5, 5))
    assert large == []  # put back
    assert str(table.state) == state_before  # reading a card is never a move


def ann_secrets(table: TableScene) -> set[str]:
    """Kinds of the Specials in Ann's hand that Ben sees nowhere else on the table."""
    state, zones = table.state, table.rules.zones
    ben_may_see = {state.items[i].kind for z, content in state.zones.items()
                   if z not in ("hand", "bonuses") and zones.get(z) is not None
                   and zones[z].visible != "none"
                   for i in content[0 if not zones[z].per_player else 1]}
    return {state.items[i].kind for i in state.zones["hand"][0]} - ben_may_see


def not_choices(table: TableScene) -> set[str]:
    """Ann's secrets that a click reads rather than chooses (none is playable now)."""
    return ann_secrets(table) - {dict(a.args).get("card") for a in legal_actions(table.state)}


def test_a_pinned_card_is_put_away_when_the_laptop_changes_hands(app: App,
                                                                 drawn: list[str]) -> None:
    table = hunt_table(app, until=lambda t: bool(not_choices(t)))
    secrets = not_choices(table)
    table.draw(app.canvas)
    hand = table.part(PlayersPart)  # Ann's cards lie in her area, under her name
    assert hand.areas is not None
    rect, kind = next((r, k) for r, k in hand.areas.faces if k in secrets)
    table.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))
    assert hand.zoom.pinned == kind
    table.handed(1)
    table.mouse = (5, 5)
    drawn.clear()
    table.draw(app.canvas)
    assert hand.zoom.pinned is None
    assert drawn and kind not in drawn  # the table was drawn for Ben, without Ann's card


def test_no_hover_anywhere_draws_a_rivals_hidden_card(app: App, drawn: list[str]) -> None:
    table = hunt_table(app, moves=30)
    state = table.state
    for seat in range(3):
        table.handed(seat)
        hidden = set()
        for owner, content in enumerate(state.zones["hand"]):
            if owner != seat:
                hidden |= {state.items[i].kind for i in content}
        for name in ("dino_deck", "special_deck", "incoming"):
            hidden |= {state.items[i].kind for i in state.zones[name][0]}
        visible = {state.items[i].kind for z, zd in table.rules.zones.items()
                   if zd.visible != "none" and zd.visible != "owner"
                   for c in state.zones[z] for i in c}
        visible |= {state.items[i].kind for z, c in state.zones.items() if z.startswith("track")
                    for i in c[0]}
        visible |= {state.items[i].kind for i in state.zones["hand"][seat]}
        visible |= {state.items[i].kind for i in state.zones["bonuses"][seat]}
        secret = hidden - visible
        for x in range(20, 1280, 40):  # the players' areas too
            for y in range(112, 590, 36):
                table.mouse = (x, y)
                drawn.clear()
                table.draw(app.canvas)
                leaked = set(drawn) & secret
                assert not leaked, f"{table.name(seat)} was shown {leaked} at {(x, y)}"


def test_four_players_zoos_and_gadgets_stay_inside_the_table(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    # A crowded table (four players, many captures): each player's area lies in the
    # players column above the action bar, with a line of chips under the name plate, and
    # whatever does not fit is counted in a "+N more" that lists it.
    seats = [Seat(n, "heuristic", i) for i, n in enumerate(["Ann", "Ben", "Cat", "Dev"])]
    table = TableScene(app, load_by_id("dino_hunt"), seats, {}, 7)
    app.push(table)
    rng = random.Random(2)
    from dinotable import bots

    for _ in range(60):
        table.take(bots.choose("heuristic", table.state, rng))
    for _ in range(3000):
        table.handoff_due = False
        if table.idle:
            break
        table.update(FRAME)
    column = table.part(PlayersPart)
    assert not [w for w in table.widgets if w.kind in ("players", "hand")], "in the areas"
    table.draw(app.canvas)
    areas = [column.area_rect(s) for s in range(4)]
    for s, rect in enumerate(areas):
        assert column.rect.contains(rect) and rect.bottom <= REGIONS_BAR_TOP
        assert rect.h >= column.plate_rect(s).h + Areas.LINE, "a line of chips at least"
        assert not any(rect.colliderect(other) for other in areas[s + 1:])
    zoos = sum(len(table.state.zones["zoo"][s]) for s in range(4))
    assert column.areas is not None
    chips = [t for _, t in column.areas.hits]
    hidden = sum(len(names) for _, names in column.areas.more)
    assert len(chips) + hidden >= zoos, "every captured dinosaur is shown or listed"
    assert column.areas.more, "sixty moves in, four zoos fill their areas"
    rect, names = column.areas.more[0]
    now = [100.0]
    monkeypatch.setattr(widgets, "clock", lambda: now[0])
    table.mouse = table.pointer = rect.center
    assert table.needs_redraw()
    with theme.seeing_text() as seen:
        table.draw(app.canvas)
    assert not any(names[0] in line for line, _, _ in seen.drawn), "not at the first touch"
    now[0] += 0.6
    assert table.needs_redraw(), "the list is due: the still table is drawn again"
    with theme.seeing_text() as seen:
        table.draw(app.canvas)
    assert any(names[0] in line for line, _, _ in seen.drawn), "pointing at it lists them"
    now[0] += 5
    assert table.needs_redraw()
    with theme.seeing_text() as seen:
        table.draw(app.canvas)
    assert not any(names[0] in line for line, _, _ in seen.drawn), "gone under a still pointer"


REGIONS_BAR_TOP = 600


def test_a_widget_size_other_than_normal_or_small_is_refused_with_its_line(
        load_text_ruleset: Any) -> None:
    from dinotable.ruleset import LoadError

    with pytest.raises(LoadError) as caught:
        load_text_ruleset("""
            id: sizes
            name: Sizes
            version: 1
            players: {min: 2, max: 2}
            items: {fern: {type: card, copies: 4}}
            zones:
              hand: {holds: cards, per_player: true, visible: owner, start: {fern: 2}}
            actions:
              pass: {effects: [{end_turn: {}}]}
            score: "0"
            end: {trigger: "round > 2"}
            layout:
              widgets:
                - {show: hand, zone: hand, size: tiny}
        """)
    [problem] = [str(p) for p in caught.value.problems]
    assert "rules.yaml:14:" in problem and "tiny" in problem and "small" in problem


def test_a_click_on_a_dinosaur_in_a_period_to_travel_to_travels_there(app: App) -> None:
    # A person aims at the period and may well hit a dinosaur lying in it: the click goes
    # to the period that glows, not to reading the card.
    from dinotable.engine import Action

    table = hunt_table(app, moves=0, seed=3)
    for _ in range(200):  # place what waits to be placed: travel is offered after that
        if not table.my_turn:
            table.update(FRAME)
            table.handoff_due = False
            table.handed(table.deciding)
            continue
        if any(a.id == "travel" for a in legal_actions(table.state)):
            break
        table.take(next(a for a in legal_actions(table.state) if a.id == "place"))
    seat = table.deciding
    app.step([], FRAME)
    here = table.state.player_vars[seat]["period"]
    chips = [(rect, t) for part in table.parts for rect, t in part.targets_at()
             if t.kind == "item" and t.value in {
                 table.state.items[i].id for space in table.rules.boards["track"].spaces
                 if space != here for i in table.state.zones[f"track@{space}"][0]}]
    assert chips, "a dinosaur lies in another period"
    rect, target = chips[0]
    there = next(space for space in table.rules.boards["track"].spaces
                 if target.value in {table.state.items[i].id
                                     for i in table.state.zones[f"track@{space}"][0]})
    assert Action(seat, "travel", (("to", there),)) in legal_actions(table.state)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1)], FRAME)
    assert table.state.player_vars[seat]["period"] == there


def test_a_hunt_roll_is_told_once_in_the_rulesets_words(app: App) -> None:
    table = hunt_table(app, moves=0, seed=3)
    for _ in range(200):
        if not table.my_turn:
            table.update(FRAME)
            table.handoff_due = False
            table.handed(table.deciding)
            continue
        hunts = [a for a in legal_actions(table.state) if a.id == "hunt"]
        if hunts:
            break
        table.take(next(a for a in legal_actions(table.state)
                        if a.id in ("place", "travel", "end_turn")))
    else:
        raise AssertionError("no hunt came up")
    table.state.chance.force([4])
    table.take(hunts[0])
    for _ in range(400):
        if table.idle:
            break
        table.update(FRAME)
    name = table.name(hunts[0].player)
    told = [line for line in table.log if "4" in line and name in line]
    assert any("hunts" in line and "rolls 4" in line for line in told), table.log[-6:]
    assert not any(line.startswith(f"{name} rolls") for line in told), table.log[-6:]


def test_a_short_game_shows_how_many_dinosaurs_are_still_to_come(
        app: App, words: list[str]) -> None:
    # Half the deck is played: the pile says what is still to come, not the cards lying
    # there (which would promise dinosaurs that never come out).
    seats = [Seat(n, "human", i) for i, n in enumerate(["Ann", "Ben"])]
    table = TableScene(app, load_by_id("dino_hunt"), seats, {"length": "short"}, 5)
    app.push(table)
    table.handoff_due = False
    table.handed(table.deciding)
    table.dirty = True
    app.step([], FRAME)
    to_come = table.state.game_vars["deck_left"]
    lying = len(table.state.zones["dino_deck"][0])
    assert to_come < lying
    assert f"{to_come} to come" in words and f"{lying} left" not in words


def test_left_names_a_game_variable_of_a_pile(load_text_ruleset: Any) -> None:
    from dinotable.ruleset import LoadError

    body = """
        id: %s
        name: Piles
        version: 1
        players: {min: 2, max: 2}
        items: {fern: {type: card, copies: 4}}
        zones:
          deck: {holds: cards, order: deck, start: {fern: 4}}
          hand: {holds: cards, per_player: true, visible: owner}
        vars: {game: {to_come: 2}}
        actions:
          pass: {effects: [{end_turn: {}}]}
        score: "0"
        end: {trigger: "round > 2"}
        layout:
          widgets:
            - {show: pile, zone: deck, left: %s}
    """
    load_text_ruleset(body % ("piles", "to_come"))
    with pytest.raises(LoadError) as caught:
        load_text_ruleset(body % ("piles_misspelt", "to_coem"))
    [problem] = [str(p) for p in caught.value.problems]
    assert "to_coem" in problem and "to_come" in problem  # did you mean


def test_a_plural_label_is_not_made_plural_twice(app: App, words: list[str]) -> None:
    """Before anyone holds the laptop each hand is a count: "Bonus cards: ...", never
    "Bonus cardss"."""
    seats = [Seat(n, "human", i) for i, n in enumerate(["Ann", "Ben"])]
    table = TableScene(app, load_by_id("dino_hunt"), seats, {}, 5)
    app.push(table)
    assert table.holder is None
    # Each player's bonus cards lie in their area; drawn as a hand of their own too.
    areas = table.part(PlayersPart).areas
    bonus = next(w for w in areas.members if w.kind == "hand" and w.label == "Bonus cards")
    bonus.draw_zone(app.canvas, pygame.Rect(300, 400, 660, 160), table.look())
    assert any(w.startswith("Bonus cards:") for w in words)
    assert not any("cardss" in w for w in words)


def _ann_to_act(ids: str, many: int = 1) -> Callable[[TableScene], bool]:
    """A position where Ann is the one asked, with more than `many` moves of action `ids`."""
    from dinotable.engine import waiting_on

    def ok(t: TableScene) -> bool:
        seat = waiting_on(t.state)
        found = [a for a in legal_actions(t.state) if a.id == ids and a.player == 0]
        return seat == 0 and len(found) > many
    return ok


def _press(app: App, key: int) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="")], FRAME)


def _glowing_chip(table: TableScene, app: App) -> tuple[pygame.Rect, Any]:
    table.draw(app.canvas)
    glowing = table.chooser.targets()
    return next((r, t) for p in table.parts for r, t in p.targets_at()
                if t in glowing and t.kind == "item")


def test_h_starts_a_hunt_the_dinosaurs_glow_and_a_click_then_the_bar_hunts(app: App) -> None:
    table = hunt_table(app, until=lambda t: _ann_to_act("hunt")(t) and not t.state.pending)
    table.refresh_buttons()
    hunts = [c for c in table.menu.controls if "Hunt" in c.label]
    # One button for hunting, however many dinosaurs may be hunted: no "Hunt: Ceratosa..."
    assert [(c.label, c.key, c.tag) for c in hunts] == [("Hunt", "H", "start:hunt")]
    moves_before = len(table.state.log)
    _press(app, pygame.K_h)
    assert table.chooser.building is not None and table.what_to_do() == (
        "Hunt: click a dinosaur.")
    huntable = {dict(a.args)["target"] for a in legal_actions(table.state) if a.id == "hunt"}
    glowing = {table.state.items[table.state.item_ids[t.value]].kind
               for t in table.chooser.targets() if t.kind == "item"}
    assert glowing == huntable
    rect, target = _glowing_chip(table, app)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1)], FRAME)
    # The click chose the dinosaur; the bar asks to confirm, nothing is rolled yet.
    assert len(table.state.log) == moves_before
    kind = table.state.items[table.state.item_ids[target.value]].kind
    confirm = table.menu.controls[0]
    assert confirm.label == f"Hunt {table.rules.items[kind].label}" and confirm.enabled
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")],
             FRAME)  # Enter presses the confirm button, which has the focus
    assert len(table.state.log) == moves_before + 1
    assert table.state.log[-1].id == "hunt" and dict(table.state.log[-1].args)["target"] == kind


def test_a_click_on_a_playable_card_in_a_response_window_chooses_it_and_only_the_bar_plays_it(
        app: App) -> None:
    table = hunt_table(app, until=lambda t: _ann_to_act("play", 0)(t) and bool(t.state.pending))
    moves_before = len(table.state.log)
    table.refresh_buttons()
    assert [c.label for c in table.menu.controls if c.enabled][:2] == ["Pass", "Play"]
    rect, target = _glowing_chip(table, app)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1)], FRAME)
    assert len(table.state.log) == moves_before  # a click never plays a card by itself
    assert table.chooser.marked() == [target.value]
    kind = table.state.items[table.state.item_ids[target.value]].kind
    assert table.menu.controls[0].label == f"Play {table.rules.items[kind].label}"
    # A second click on the chosen card lets it go, still without playing.
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1)], FRAME)
    assert table.chooser.ready is None and len(table.state.log) == moves_before
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1)], FRAME)
    click = table.menu.controls[0].on_activate
    assert click is not None
    click()
    assert table.state.log[-1].id == "play" and dict(table.state.log[-1].args)["card"] == kind


def test_a_response_window_shows_the_hunted_dinosaur_and_the_roll_it_answers(
        app: App) -> None:
    table = hunt_table(app, until=lambda t: _ann_to_act("play", 0)(t) and bool(t.state.pending))
    state = table.state
    quarry, roll = state.turn_vars["quarry"], state.turn_vars["die_roll"]
    hunter = state.current
    where = state.player_vars[hunter]["period"]
    ringed = table.look().answering
    # The dinosaur hunted, on the hunter's period, is ringed for everyone to see.
    assert ringed and all(state.items[state.item_ids[i]].kind == quarry for i in ringed)
    assert ringed <= {state.items[i].id for i in state.zones[f"track@{where}"][0]}
    table.handed(1)  # whoever holds the laptop sees it too
    assert table.look().answering == ringed
    # The die lies on the table showing the roll, and the move answered is under the header.
    [(_, _, face)] = table.view["zones"]["die_tray"]
    assert str(face) == str(roll)
    label = table.rules.items[quarry].label
    assert label in table.last_words and f"rolls {roll}" in table.last_words
    assert any(label in line and f"rolls {roll}" in line for line in table.log[-4:])


def test_a_new_game_a_bot_begins_opens_on_the_table_saying_who_goes_first(app: App) -> None:
    # Cat (a bot) going first used to hunt at once, and the first screen anyone saw asked
    # Ann to respond to a roll she never saw.
    seats = [Seat(n, k, i) for i, (n, k) in enumerate(
        [("Ann", "human"), ("Ben", "human"), ("Cat", "heuristic")])]
    rules = load_by_id("dino_hunt")
    table = next(t for t in (TableScene(app, rules, seats, {}, seed) for seed in range(60))
                 if t.state.current == 2)
    app.push(table)
    for _ in range(int(1.5 / FRAME)):
        app.step([], FRAME)
        assert app.top is table and not table.state.log  # nothing asked, nothing moved
    assert table.banner is not None and table.banner[0] == "Cat goes first"
    assert table.log == ["Cat goes first."]
    for _ in range(int(3 / FRAME)):
        app.step([], FRAME)
    assert table.state.log and table.state.log[0].player == 2  # then Cat plays


def test_hunt_with_one_dinosaur_to_hunt_hunts_it_at_once(app: App) -> None:
    def one(t: TableScene) -> bool:
        return (not t.state.pending and _ann_to_act("hunt", 0)(t)
                and not _ann_to_act("hunt", 1)(t))

    table = hunt_table(app, until=one)
    [only] = [a for a in legal_actions(table.state) if a.id == "hunt"]
    table.refresh_buttons()
    moves_before = len(table.state.log)
    _press(app, pygame.K_h)
    assert table.state.log[moves_before:] == [only]


LONG_NAMED = ("pachycephalosaurus", "heterodontosaurus", "thecodontosaurus", "tyrannosaurus_rex")


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_each_dinosaur_to_place_shows_its_whole_name(app: App, size: tuple[int, int]) -> None:
    """The longest names among the dinosaurs to place read whole on their cards, broken
    onto lines (a long word with a hyphen), never cut; where the row is crowded and the
    cards overlap, each name lies in the strip of its card the next one leaves uncovered."""
    table = hunt_table(app, moves=0)
    state = table.state
    ids = [next(i for i, item in enumerate(state.items) if item.kind == kind)
           for kind in LONG_NAMED]
    for lists in state.zones.values():
        for held in lists:
            held[:] = [i for i in held if i not in ids]
    state.zones["drawn"][0][:] = ids
    table.handed(0)
    canvas = pygame.Surface(logical_size(size))
    cards.forget()  # every face painted afresh, so its words are seen
    with theme.seeing_text() as seen:
        table.draw(canvas)
    row = next(p for p in table.widgets if p.spec.zone == "drawn")
    laid = sorted(row.faces, key=lambda face: face[0].x)
    assert [kind for _, kind in laid] == list(LONG_NAMED)
    step = laid[1][0].x - laid[0][0].x
    faces = {key[1]: face for key, face in cards._FACES.items() if not key[8]}
    for n, (rect, kind) in enumerate(laid):
        name = table.rules.items[kind].label
        lines = [(string, letters) for string, letters, surface in seen.drawn
                 if surface is faces[kind] and string.rstrip("-") in name]
        assert " ".join(s for s, _ in lines).replace("- ", "") == name, lines
        assert not [whole for whole, _ in seen.cut if whole == name]
        if step < rect.w and n < len(laid) - 1:  # covered from the right by the next card
            assert all(letters.right <= step for _, letters in lines), (name, lines, step)
