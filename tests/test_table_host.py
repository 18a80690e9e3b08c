"""The table for any ruleset: only the laptop holder's secrets drawn, hand-offs before a
rival responds, and every fixture ruleset played to its end with the mouse or keyboard."""

from __future__ import annotations

import os
import random
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from dinotable.app import App
from dinotable.render import cards
from dinotable.ruleset import load_ruleset
from dinotable.scenes.handoff import HandoffScene
from dinotable.scenes.results import ResultsScene
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.regions import REGIONS

FIXTURES = Path(__file__).parent / "fixtures" / "good_rulesets"
FRAME = 1 / 30


def table_for(app: App, name: str, kinds: list[str], seed: int = 5) -> TableScene:
    rules = load_ruleset(FIXTURES / name)
    names = ["Ann", "Ben", "Cat", "Dan"]
    seats = [Seat(names[i], kind, i) for i, kind in enumerate(kinds)]
    table = TableScene(app, rules, seats, {}, seed)
    app.push(table)
    return table


def click(app: App, pos: tuple[int, int]) -> None:
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], FRAME)


def key(app: App, code: int) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)],
             FRAME)


def hidden_kinds(table: TableScene, seat: int) -> set[str]:
    """Kinds of the items `seat` may not see, from the engine's own state (the truth)."""
    state = table.state
    out = {state.items[i].kind for i in state.zones["pile"][0]}
    for other, content in enumerate(state.zones["hand"]):
        if other != seat:
            out |= {state.items[i].kind for i in content}
    return out


def test_no_seat_is_ever_drawn_a_card_it_may_not_see(app: App) -> None:
    table = table_for(app, "fixture_hand", ["human", "human", "human"])
    drawn: list[str] = []
    cards.seen.append(drawn.append)
    try:
        own_seen = 0
        for _ in range(40):
            for _ in range(2000):  # play the events back (the hand-off is not on show here)
                table.handoff_due = False
                if table.idle:
                    break
                table.update(FRAME)
            for seat in range(3):
                table.handed(seat)
                drawn.clear()
                table.draw(app.canvas)
                leaked = set(drawn) & hidden_kinds(table, seat)
                assert not leaked, f"{table.name(seat)} was shown {leaked}"
                mine = {table.state.items[i].kind for i in table.state.zones["hand"][seat]}
                assert mine <= set(drawn)  # their own cards are drawn face up
                own_seen += len(mine)
                # The log never names a card still in the face-down pile.
                pile = {table.state.items[i].kind for i in table.state.zones["pile"][0]}
                assert not [line for line in table.log if any(k in line for k in pile)]
            if table.state.game_over:
                break
            table.handed(table.deciding)
            table.take(table.chooser.legal[-1])
        assert table.state.game_over and own_seen > 0
    finally:
        cards.seen.remove(drawn.append)


def test_the_screen_behind_a_hand_off_shows_nobodys_hand(app: App) -> None:
    table = table_for(app, "fixture_hand", ["human", "human"])
    drawn: list[str] = []
    cards.seen.append(drawn.append)
    try:
        app.step(dt=FRAME)
        assert isinstance(app.top, HandoffScene) and app.top.name == "Ann"
        drawn.clear()
        table.draw(app.canvas)  # the table under the hand-off: Ann has not said ready
        assert drawn == [] and table.viewer is None
        click(app, app.top.menu.find("ready").rect.center)
        table.draw(app.canvas)
        assert table.viewer == 0 and drawn
    finally:
        cards.seen.remove(drawn.append)


def test_a_rival_asked_to_respond_gets_the_laptop_first(app: App) -> None:
    app.settings.always_handoff = True
    table = table_for(app, "fixture_respond", ["human", "human"])
    app.step(dt=FRAME)
    click(app, app.top.menu.find("ready").rect.center)  # Ann
    table.state.chance.force(["hit"])
    click(app, table.menu.find("action:attack").rect.center)
    for _ in range(400):
        app.step(dt=FRAME)
        if isinstance(app.top, HandoffScene):
            break
    handoff = app.top
    assert isinstance(handoff, HandoffScene) and handoff.name == "Ben"
    assert handoff.why == "Ben, you may respond"
    assert "Ben may respond" in table.what_to_do()
    click(app, handoff.menu.find("ready").rect.center)
    tags = [c.tag for c in table.menu.controls if c.enabled]
    assert "action:shield" in tags and "action:pass" in tags


def _targets_on_screen(table: TableScene) -> list[tuple[int, int]]:
    glowing = table.chooser.targets()
    # Everything a part draws to be clicked: cards, spaces, and the players' areas.
    points = [rect.center for p in table.parts for rect, t in p.targets_at() if t in glowing]
    points += [table.row_rect(s).center for s in table.steal_targets()]
    return points


# Every fixture plays to its end; paying dice for a card is assigned when the card is chosen.
@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.iterdir()
                                        if (p / "rules.yaml").is_file()))
def test_every_fixture_is_played_to_the_end_with_the_mouse(app: App, name: str) -> None:
    seats = 4 if name == "fixture_teams" else 2
    table = table_for(app, name, ["human"] * 2 + ["heuristic"] * (seats - 2))
    rng = random.Random(name)
    moves = 0
    for _ in range(12_000):
        if isinstance(app.top, ResultsScene):
            break
        top = app.top
        if isinstance(top, HandoffScene):
            click(app, top.menu.find("ready").rect.center)
            continue
        app.step(dt=FRAME)
        if top is not table or not table.idle or table.is_bot(table.deciding):
            continue
        buttons = [c for c in table.menu.controls if c.enabled and c.tag not in (
            "pause", "odds")]
        confirm = [c for c in buttons if c.tag.startswith("confirm:")]
        targets = _targets_on_screen(table)
        if confirm:
            click(app, confirm[0].rect.center)
        elif targets and rng.random() < 0.6:
            click(app, rng.choice(targets))
        elif buttons:
            click(app, rng.choice(buttons).rect.center)
        moves += 1
    assert isinstance(app.top, ResultsScene), f"{name} never finished"
    assert table.state.game_over and moves > 0


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.iterdir()
                                        if (p / "rules.yaml").is_file()))
def test_every_fixture_is_played_to_the_end_with_the_keyboard(app: App, name: str) -> None:
    """Tab and the arrows move the focus over glowing things and buttons; Enter acts."""
    seats = 4 if name == "fixture_teams" else 2
    table = table_for(app, name, ["human"] * 2 + ["heuristic"] * (seats - 2))
    rng = random.Random(name)
    moves = 0
    for _ in range(12_000):
        if isinstance(app.top, ResultsScene):
            break
        if isinstance(app.top, HandoffScene):
            key(app, pygame.K_RETURN)
            continue
        app.step(dt=FRAME)
        if app.top is not table or not table.idle or table.is_bot(table.deciding):
            continue
        for _ in range(rng.randrange(4)):
            key(app, rng.choice([pygame.K_TAB, pygame.K_RIGHT, pygame.K_DOWN]))
        if table.chooser.building is not None and rng.random() < 0.05:
            key(app, pygame.K_BACKSPACE)
        elif table.ring is not None or table.menu.focused.tag != "pause":
            key(app, rng.choice([pygame.K_RETURN, pygame.K_SPACE]))  # never opens the menu
            moves += 1
    assert isinstance(app.top, ResultsScene), f"{name} never finished"
    assert table.state.game_over and moves > 0


def test_the_action_bar_fills_a_page_before_starting_the_next(app: App) -> None:
    from dinotable.table.choice import Choice

    table = table_for(app, "fixture_deck", ["human", "human"])
    labels = ["Play the longest card name there is", "Play another long card name",
              "Pass", "Draw", "Keep", "Swap"]
    controls = table._bar([Choice(text, f"action:x{n}") for n, text in enumerate(labels)])
    shown = [c for c in controls if not c.tag.startswith("page:")]
    arrows = [c for c in controls if c.tag.startswith("page:")]
    assert arrows, "six buttons this wide do not fit on one page"
    # Every button on the first page lies between the arrows, and the next page's first
    # button would not have fitted in what is left of this one.
    left, right = arrows[0].rect.right, arrows[1].rect.left
    assert all(left <= c.rect.x and c.rect.right <= right for c in shown)
    assert len(shown) >= 2  # buttons keep their width (up to half the bar), never squeezed
    used = sum(c.rect.w + 12 for c in shown)
    table.page = 1
    nxt = [c for c in table._bar([Choice(text, f"action:x{n}") for n, text in
                                  enumerate(labels)]) if c.tag.startswith("action:x")]
    assert nxt and used + nxt[0].rect.w + 12 > right - left


def test_dino_hunt_widgets_neither_overlap_nor_run_under_the_log_or_bar(app: App) -> None:
    from dinotable.ruleset import load_by_id

    seats = [Seat(n, "human", i) for i, n in enumerate(["Ann", "Ben", "Cat"])]
    table = TableScene(app, load_by_id("dino_hunt"), seats, {}, 5)
    app.push(table)
    # Widgets of empty zones take no room at all; every one shown is readable.
    regions = [w.rect for w in table.widgets if w.rect.h > 0]
    assert {w.kind for w in table.widgets} >= {"track", "pile"}
    # The hands, zoos, gadgets and bonus cards are in each player's area, by their name.
    column = next(p for p in table.parts if p.name == "players")
    areas = getattr(column, "areas", None)
    assert areas is not None
    assert {w.spec.zone for w in areas.members} == {"hand", "zoo", "gadgets", "bonuses"}
    for n, rect in enumerate(regions):
        assert rect.h >= 30 and rect.bottom <= REGIONS["bar"].y - 4, rect
        assert not any(rect.colliderect(other) for other in regions[n + 1:]), rect
        if rect.x >= 976:  # the side column stops above the log
            assert rect.bottom <= 520, rect
