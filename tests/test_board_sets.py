"""Sets ringed on a player's board at the end: the layout's `sets:` names the cards (a
Rancher Bonus) whose sets are outlined on their owner's board once they are turned up, a
colour and number a set. What is ringed is what the score counted: the engine's
`set_members` agrees with `sets()`, the spaces ringed hold exactly the tiles of each set,
and as many sets are ringed as the bonus scored; nothing is ringed while the cards are
secret, and each player's sets are ringed as the end turns their card up."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pygame
import pytest
from test_scene_flow import click, key
from test_table_layout import played

from dinotable import bots
from dinotable.app import App, logical_size
from dinotable.engine import count_sets, set_members
from dinotable.ruleset import load_by_id, load_ruleset
from dinotable.scenes.results import ResultsScene, TableLook
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.board_sets import COLOURS
from dinotable.table.part import Part
from dinotable.table.player_boards import split_area

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
FIXTURE = Path(__file__).parent / "fixtures" / "good_rulesets" / "fixture_sets"


def test_the_members_of_sets_are_as_many_as_sets_counts() -> None:
    rng = random.Random(4)
    for _ in range(400):
        values = [rng.choice("abcd") for _ in range(rng.randrange(12))]
        wanted = [rng.choice("abc") for _ in range(rng.randrange(1, 4))]
        groups = set_members(values, wanted)
        assert len(groups) == count_sets(values, tuple(wanted))
        used = [n for group in groups for n in group]
        assert len(used) == len(set(used)), "each item in one set at most"
        assert all(Counter(values[n] for n in group) == Counter(wanted) for group in groups)


def ringed(table: TableScene) -> list[tuple[pygame.Rect, str, int | None, int]]:
    """Every space ringed on the screen: where, which space, whose board, the set."""
    parts: list[Part] = [getattr(p, "areas", None) or p for p in table.parts]
    return [(rect, str(t.value), t.owner, n) for part in parts for rect, t, n in part.ringed]


def game_to(app: App, rules: object, seats: int, seed: int, stop: int | None = None,
            last: bool = False) -> TableScene:
    """A seeded game between bots, to its end (or `stop` moves), Ann holding the laptop;
    `last`: the last move's playback (the end's reveal) still to come."""
    table = TableScene(app, rules, [Seat(NAMES[i], "human" if i == 0 else "random", i)
                                    for i in range(seats)], {}, seed, saving=False)
    app.push(table)
    rng = random.Random(seed)
    moves = 0
    while not table.state.game_over and (stop is None or moves < stop):
        table.take(bots.choose("random", table.state, rng))
        moves += 1
        if not (last and table.state.game_over):
            played(table)
    return table


def species_on(table: TableScene, zone: str, seat: int) -> list[str]:
    state = table.state
    return [state.rules.items[state.items[i].kind].props["species"]
            for i in state.zones[zone][seat]]


def bonus_points(table: TableScene, seat: int) -> int:
    """What a player's Rancher Bonus scores, read off the engine's score: all of it but
    their tiles' points and their kept cards' two points each."""
    state = table.state
    tiles = sum(state.rules.items[state.items[i].kind].props["points"]
                for zone in state.zones if zone.startswith("ranch@")
                for i in state.zones[zone][seat])
    return int(state.score(seat)) - tiles - 2 * len(state.zones["kept"][seat])


@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (4, 2), (5, 3), (5, 7)])
def test_the_sets_a_rancher_bonus_scored_are_ringed_on_the_ranch(app: App, seats: int,
                                                                 seed: int) -> None:
    table = game_to(app, load_by_id("dino_dude_ranch"), seats, seed)
    assert table.state.game_over
    canvas = pygame.Surface(logical_size((1280, 720)))
    table.draw(canvas)
    drawn = ringed(table)
    state = table.state
    scored = 0
    for seat in range(seats):
        card = state.rules.items[state.items[state.zones["bonus"][seat][0]].kind].props
        sets: dict[int, list[str]] = {}
        for rect, space, owner, n in drawn:
            if owner == seat:
                sets.setdefault(n, []).append(space)
                # The ring is seen, in the set's own colour.
                assert canvas.get_at((rect.centerx, rect.y + 2))[:3] == COLOURS[n - 1]
        spaces = [s for group in sets.values() for s in group]
        assert len(spaces) == len(set(spaces)), "each tile in one set"
        for group in sets.values():
            assert Counter(x for s in group for x in species_on(table, s, seat)) == Counter(
                card["set"])
        bonus = bonus_points(table, seat)
        assert len(sets) * card["set_points"] == bonus, (seat, sets, bonus)
        scored += len(sets)
    assert scored, "some player scored a set: the rings were looked for"


def test_nothing_is_ringed_while_the_bonus_is_secret(app: App) -> None:
    table = game_to(app, load_by_id("dino_dude_ranch"), 4, 2, stop=260)
    state = table.state
    assert not state.game_over
    assert any(bonus_points(table, s) for s in range(4)), "a bonus would ring a set"
    table.draw(pygame.Surface(logical_size((1280, 720))))
    assert ringed(table) == []


def test_a_fixture_rings_its_goals_sets_on_every_beach(app: App) -> None:
    table = game_to(app, load_ruleset(FIXTURE), 3, 5)
    table.draw(pygame.Surface(logical_size((800, 600))))
    drawn = ringed(table)
    state = table.state
    for seat in range(3):
        sets = {n for _, _, owner, n in drawn if owner == seat}
        card = state.rules.items[state.items[state.zones["goal"][seat][0]].kind].props
        assert len(sets) * card["set_points"] == state.score(seat)
    assert drawn


def test_each_players_sets_are_ringed_as_the_end_turns_their_card_up(app: App) -> None:
    table = game_to(app, load_by_id("dino_dude_ranch"), 4, 2, stop=10**6, last=True)
    canvas = pygame.Surface(logical_size((1280, 720)))
    shown_up: set[int] = set()
    for frame in range(60 * 30):  # the reveal plays by itself, a card at a time
        table.update(1 / 30)
        if isinstance(app.top, ResultsScene):
            break
        if frame % 6:
            continue  # a look every fifth of a second: each card shows for a second or more
        table.draw(canvas)
        up = {s for s in range(1, 4) if table.view["zones"]["bonus"][s][0][1] is not None}
        owners = {owner for _, _, owner, _ in ringed(table)}
        assert owners - {0} <= up, "a card still face down rings nothing"
        if 0 in owners:
            assert up == {1, 2, 3}, "Ann's own, once every card lies open"
        shown_up |= owners
    else:
        pytest.fail("the results never came")
    scored = {s for s in range(4) if bonus_points(table, s)}
    assert scored and scored <= shown_up, "every bonus that scored was ringed before the results"
    # From the results, the finished table once more, its sets ringed; a key goes back.
    results = app.top
    app.step()
    click(app, results.menu.find("table").rect.center)
    assert isinstance(app.top, TableLook)
    app.step()
    assert {owner for _, _, owner, _ in ringed(table)} == shown_up
    key(app, pygame.K_SPACE)
    assert app.top is results


def test_a_board_whose_shape_does_not_matter_takes_the_columns_that_fit(app: App) -> None:
    rules = load_ruleset(FIXTURE)
    # Beside a player's plate, short of height: its six spaces in a row rather than two
    # rows of three, each space larger.
    area = pygame.Rect(0, 0, 380, 60)
    cell, cols, _, _ = split_area(rules, "beach", area, 31, reflow=True, plate=38)
    kept, own_cols, _, _ = split_area(rules, "beach", area, 31, reflow=False, plate=38)
    assert (cols, own_cols) == (6, 3) and cell > kept
    table = game_to(app, rules, 4, 5, stop=9)
    table.draw(pygame.Surface(logical_size((1280, 720))))
    players = next(p for p in table.parts if p.name == "players")
    for seat in (1, 2, 3):
        drawn = {str(t.value): r for r, t in players.areas.hits
                 if t.kind == "space" and t.owner == seat}
        boxes = [drawn[f"beach@{space}"] for space in rules.boards["beach"].spaces]
        # Read row by row, in the board's order; each large enough to read.
        assert boxes == sorted(boxes, key=lambda r: (r.y, r.x))
        assert min(r.w for r in boxes) + 3 >= 26 and players.rect.contains(boxes[-1])
