"""Cards, tiles and tokens with data, decks, die face values, named expressions and scoring.

Each function and effect is checked on a small ruleset written here (its score expression is
the function under test, its action `go` the effects under test), and the fixture card game
`fixture_deck` is played: its scenarios, and random playouts saved and restored mid-game.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import FIXTURES

from dinotable.check import run_scenario
from dinotable.engine import (
    Action,
    ChanceError,
    EngineError,
    GameState,
    apply,
    legal_actions,
    new_game,
    scores,
    view_for,
)
from dinotable.ruleset import LoadError, load_ruleset
from dinotable.scenarios import load_scenario

DECK_GAME = FIXTURES / "good_rulesets" / "fixture_deck"

BASE = """
id: cards
name: Cards
version: 1
players: {min: 2, max: 3}
properties:
  points: 0
  suit: none
  tags: []
  hunt: {}
  on_play: {type: effects}
items:
  red_a: {type: card, copies: 2, points: 2, suit: red, tags: [fast]}
  green_a: {type: card, points: 3, suit: green, hunt: {6: captured, 5: captured, other: missed}}
  blue_a: {type: card, copies: 3, points: 1, suit: blue, on_play: [{add: {coins: 2}}]}
  coin: {type: token, copies: 1}
dice:
  d6: {faces: [1, 2, 3, 4, 5, 6]}
  bone: {faces: [skull, skull, paw], values: [2, 2, 1]}
zones:
  deck: {holds: cards, order: deck, start: all}
  discard: {holds: cards}
  hand: {holds: cards, per_player: true, visible: owner}
  played: {holds: cards, per_player: true}
  tray: {holds: dice, start: {d6: 2, bone: 1}}
  bank: {holds: tokens, start: {coin: 1}}
vars:
  player: {coins: 0}
score: 0
actions:
  go:
    effects: []
  stop:
    effects: [{end_turn: {}}]
end:
  trigger: "round > 50"
"""


def rules_with(tmp_path: Path, **changes: Any) -> Any:
    """The base card ruleset with sections replaced (score, define, actions.go.effects...)."""
    data = yaml.safe_load(BASE)
    for key, value in changes.items():
        if key == "go":
            data["actions"]["go"]["effects"] = value
        else:
            data[key] = value
    folder = tmp_path / "cards"
    folder.mkdir(exist_ok=True)
    (folder / "rules.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return load_ruleset(folder)


def game(rules: Any, seed: int = 0) -> GameState:
    return new_game(rules, ["Ann", "Ben"], None, seed)


def put(state: GameState, zone: str, ids: list[str], owner: int = 0) -> None:
    """Put items (by id) into a zone in order, from wherever they are; their place is known."""
    for item_id in ids:
        index = state.item_ids[item_id]
        for lists in state.zones.values():
            for content in lists:
                if index in content:
                    content.remove(index)
        state.zone(zone, owner).append(index)
        state.shuffled.discard(index)


def ids(state: GameState, zone: str, owner: int = 0) -> list[str]:
    return [state.items[i].id for i in state.zone(zone, owner)]


def go(state: GameState) -> list[Any]:
    return apply(state, Action(state.current, "go"))


# --- items and their ids ---------------------------------------------------------------

def test_card_ids_are_the_kind_then_kind_2_kind_3_for_further_copies(tmp_path: Path) -> None:
    state = game(rules_with(tmp_path))
    assert sorted(ids(state, "deck")) == ["blue_a", "blue_a_2", "blue_a_3", "green_a",
                                          "red_a", "red_a_2"]
    assert ids(state, "bank") == ["coin"]  # a token is not part of `start: all`
    assert ids(state, "tray") == ["d61", "d62", "bone1"]  # dice keep their ids


def test_item_kind_data_is_on_the_rules(tmp_path: Path) -> None:
    rules = rules_with(tmp_path)
    assert rules.items["green_a"].props["hunt"] == {6: "captured", 5: "captured",
                                                     "other": "missed"}
    assert rules.items["red_a"].props["tags"] == ("fast",)
    assert rules.items["coin"].props["points"] == 0  # the declared default
    assert rules.items["red_a"].copies == 2 and rules.items["coin"].type == "token"


# --- expression functions --------------------------------------------------------------

@pytest.mark.parametrize(("expr", "want"), [
    ("prop('red_a_2', points)", 2),
    ("prop('green_a', suit) == 'green'", True),
    ("prop('coin', points)", 0),
    ("kind_of('blue_a_3') == 'blue_a'", True),
    ("has(prop('red_a', tags), 'fast')", True),
    ("has(prop('blue_a', tags), 'fast')", False),
    ("lookup(prop('green_a', hunt), 6) == 'captured'", True),
    ("lookup(prop('green_a', hunt), 2) == 'missed'", True),
    ("clamp(7, 0, 5)", 5),
    ("clamp(0 - 3, 0, 5)", 0),
    ("clamp(3, 0, 5)", 3),
])
def test_functions_reading_one_item(tmp_path: Path, expr: str, want: Any) -> None:
    state = game(rules_with(tmp_path, score=expr))
    assert state.score(0) == want


@pytest.mark.parametrize(("expr", "played", "want"), [
    ("sum_prop(played, points)", ["red_a", "red_a_2", "green_a", "blue_a"], 8),
    ("count_where(played, suit, 'red')", ["red_a", "red_a_2", "green_a"], 2),
    ("count_where(played, tags, 'fast')", ["red_a", "green_a"], 1),
    ("sets(played, suit, [red, green, blue])", ["red_a", "red_a_2", "green_a", "blue_a"], 1),
    ("sets(played, suit, [red, blue])", ["red_a", "red_a_2", "blue_a", "blue_a_2",
                                         "blue_a_3"], 2),
    ("sets(played, suit, [red, green, blue])", ["red_a", "blue_a"], 0),
    ("groups(played, suit, 2)", ["blue_a", "blue_a_2", "blue_a_3", "red_a", "red_a_2"], 2),
    ("groups(played, suit, 3)", ["blue_a", "blue_a_2", "blue_a_3", "red_a"], 1),
    ("distinct(played, suit)", ["blue_a", "blue_a_2", "red_a"], 2),
    ("distinct(played, suit)", [], 0),
])
def test_scoring_helpers_over_a_players_zone(tmp_path: Path, expr: str, played: list[str],
                                             want: int) -> None:
    state = game(rules_with(tmp_path, score=expr))
    put(state, "played", played, owner=0)
    assert state.score(0) == want
    assert state.score(1) == 0  # Ben's own zone is empty


def test_sole_highest_is_false_on_a_tie_and_for_the_lower_player(tmp_path: Path) -> None:
    state = game(rules_with(tmp_path, score="1 if sole_highest(size(played)) else 0"))
    put(state, "played", ["red_a", "blue_a"], owner=0)
    put(state, "played", ["green_a"], owner=1)
    assert scores(state) == [1, 0]
    put(state, "played", ["blue_a_2"], owner=1)
    assert scores(state) == [0, 0]  # two each: nobody is the sole highest


def test_value_and_pips_read_number_faces_and_named_face_values(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, score="pips(tray) + 100 * value('bone1')",
                       go=[{"roll": "tray"}])
    state = game(rules)
    assert state.score(0) == 0  # nothing rolled yet: no face, no value
    state.chance.force([6, 3, "paw"])
    go(state)
    assert [state.items[i].face for i in state.zone("tray", 0)] == [6, 3, "paw"]
    assert state.score(0) == 6 + 3 + 1 + 100


def test_an_impossible_forced_number_face_names_the_possible_numbers(tmp_path: Path) -> None:
    state = game(rules_with(tmp_path, go=[{"roll": "tray"}]))
    state.chance.force([7])
    with pytest.raises(ChanceError, match="7"):
        go(state)


def test_prop_of_something_that_is_neither_item_nor_kind_is_an_engine_error(
        tmp_path: Path) -> None:
    state = game(rules_with(tmp_path, score="prop('nothing', points)"))
    with pytest.raises(EngineError, match="nothing"):
        state.score(0)


def test_named_expressions_use_earlier_ones_and_are_used_by_name(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, define={"bonus": "doubled + 1", "doubled": "base * 2",
                                         "base": "sum_prop(played, points)"},
                       score="bonus")
    state = game(rules)
    put(state, "played", ["green_a"])
    assert state.score(0) == 7


# --- decks -----------------------------------------------------------------------------

def test_a_draw_from_a_shuffled_deck_is_a_chance_event_forced_by_id_or_kind(
        tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[{"draw": {"from": "deck", "to": "hand", "count": 2}}])
    state = game(rules)
    state.chance.force(["green_a", "blue_a"])
    go(state)
    assert ids(state, "hand") == ["green_a", "blue_a"]
    assert not state.chance.forced


def test_a_deck_in_known_order_gives_its_top_card_without_chance(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[{"draw": {"from": "deck", "to": "hand"}}])
    state = game(rules)
    put(state, "deck", ["red_a", "green_a", "blue_a", "red_a_2", "blue_a_2", "blue_a_3"])
    state.chance.force(["blue_a"])  # not used: the top card is known
    go(state)
    assert ids(state, "hand") == ["red_a"]
    assert list(state.chance.forced) == ["blue_a"]


def test_shuffle_with_a_forced_list_pins_the_top_cards_first_listed_on_top(
        tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[{"shuffle": "deck"},
                                     {"draw": {"from": "deck", "to": "hand", "count": 2}}])
    state = game(rules)
    put(state, "deck", ["red_a", "green_a", "blue_a", "red_a_2", "blue_a_2", "blue_a_3"])
    state.chance.force([["blue_a_3", "green_a"], "red_a"])
    go(state)
    assert ids(state, "hand") == ["blue_a_3", "green_a"]
    assert list(state.chance.forced) == ["red_a"]  # left for a later draw


def test_a_shuffle_forced_to_an_absent_card_is_a_chance_error(tmp_path: Path) -> None:
    state = game(rules_with(tmp_path, go=[{"shuffle": "deck"}]))
    state.chance.force([["coin"]])
    with pytest.raises(ChanceError, match="coin"):
        go(state)


def test_cards_put_on_the_bottom_come_last_and_in_known_order(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[
        {"put_bottom": {"from": "hand", "to": "deck", "item": "'red_a'"}},
        {"draw": {"from": "deck", "to": "played", "count": 6}}])
    state = game(rules)
    put(state, "hand", ["red_a"])
    go(state)
    assert ids(state, "played")[-1] == "red_a"
    assert ids(state, "deck") == [] and not state.shuffled


def test_look_settles_the_top_cards_and_shows_them_to_the_acting_player(
        tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[{"look": {"zone": "deck", "count": 2}}])
    state = game(rules)
    state.chance.force(["green_a", "red_a"])
    events = go(state)
    assert ids(state, "deck")[:2] == ["green_a", "red_a"]
    looked = [e for e in events if e.kind == "looked"]
    assert looked and looked[0].seat == 0 and looked[0].data["items"] == ["green_a", "red_a"]
    # Their order is known now: the next draws take them without chance.
    assert state.item_ids["green_a"] not in state.shuffled


def test_look_with_to_moves_the_cards_it_looked_at(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[{"look": {"zone": "deck", "count": 1, "to": "hand"}}])
    state = game(rules)
    state.chance.force(["blue_a"])
    go(state)
    assert ids(state, "hand") == ["blue_a"]


def test_reshuffle_into_moves_the_pile_into_the_deck_and_shuffles(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[{"reshuffle_into": {"from": "discard", "to": "deck"}},
                                     {"draw": {"from": "deck", "to": "hand"}}])
    state = game(rules)
    put(state, "discard", ["red_a", "green_a", "blue_a", "red_a_2", "blue_a_2", "blue_a_3"])
    assert ids(state, "deck") == []
    state.chance.force(["blue_a_2"])
    go(state)
    assert ids(state, "hand") == ["blue_a_2"] and ids(state, "discard") == []
    assert len(ids(state, "deck")) == 5


def test_deal_goes_round_the_table_one_card_at_a_time(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[{"deal": {"from": "deck", "to": "hand", "count": 2}}])
    state = game(rules)
    state.chance.force(["red_a", "green_a", "blue_a", "red_a"])
    go(state)
    assert ids(state, "hand", 0) == ["red_a", "blue_a"]
    assert ids(state, "hand", 1) == ["green_a", "red_a_2"]


def test_move_with_item_moves_that_item_or_one_of_that_kind(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[{"move": {"from": "hand", "to": "played",
                                               "item": "'blue_a'"}},
                                     {"move": {"from": "hand", "to": "played",
                                               "item": "'red_a_2'"}}])
    state = game(rules)
    put(state, "hand", ["red_a", "blue_a_2", "red_a_2"])
    go(state)
    assert ids(state, "played") == ["blue_a_2", "red_a_2"]
    assert ids(state, "hand") == ["red_a"]


def test_move_from_a_deck_takes_its_top_card(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[{"move": {"from": "deck", "to": "hand"}}])
    state = game(rules)
    state.chance.force(["green_a"])
    go(state)
    assert ids(state, "hand") == ["green_a"]


def test_run_card_runs_the_effects_written_on_the_card_with_card_in_scope(
        tmp_path: Path) -> None:
    data = yaml.safe_load(BASE)
    data["items"]["green_a"]["on_play"] = [
        {"move": {"from": "hand", "to": "played", "item": "$card"}},
        {"add": {"coins": "prop($card, points)"}}]
    data["actions"]["play"] = {"args": {"card": {"domain": "item_in", "zone": "hand"}},
                               "effects": [{"run_card": {"item": "$card",
                                                         "effects": "on_play"}}]}
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "rules.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    state = game(load_ruleset(folder))
    put(state, "hand", ["green_a", "blue_a", "red_a"])
    apply(state, Action(0, "play", (("card", "green_a"),)))
    apply(state, Action(0, "play", (("card", "blue_a"),)))
    apply(state, Action(0, "play", (("card", "red_a"),)))  # no effects written: nothing
    assert ids(state, "played") == ["green_a"]
    assert state.player_vars[0]["coins"] == 3 + 2


def test_deck_order_survives_a_save_and_a_restore(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, go=[{"draw": {"from": "deck", "to": "hand"}}])
    state = game(rules, seed=3)
    put(state, "deck", ["red_a"])  # the known bottom card
    saved = json.loads(json.dumps(state.to_dict()))
    copy = GameState.from_dict(rules, saved)
    assert copy.shuffled == state.shuffled and copy.to_dict() == state.to_dict()
    for _ in range(6):
        assert go(copy) == go(state)
    assert ids(copy, "hand") == ids(state, "hand") and ids(state, "hand")[-1] == "red_a"
    state.restore(saved)
    assert state.shuffled == GameState.from_dict(rules, saved).shuffled
    assert ids(state, "hand") == [] and ids(state, "deck")[-1] == "red_a"


# --- the fixture card game -------------------------------------------------------------

@pytest.mark.parametrize("path", sorted((DECK_GAME / "scenarios").glob("*.yaml")),
                         ids=lambda p: p.stem)
def test_fixture_deck_scenarios_pass(path: Path) -> None:
    outcome = run_scenario(load_scenario(path))
    assert outcome.passed, outcome.reason


def _check_items(state: GameState, every: Counter[str]) -> None:
    placed = [i for lists in state.zones.values() for content in lists for i in content]
    assert sorted(placed) == list(range(len(state.items))), "an item is lost or doubled"
    assert Counter(state.items[i].id for i in placed) == every
    assert state.shuffled <= set(state.zones["deck"][0]) | set(state.zones["discard"][0])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fixture_deck_random_playouts_end_and_survive_saving_at_any_point(players: int
                                                                         ) -> None:
    rules = load_ruleset(DECK_GAME)
    for seed in range(40):
        state = new_game(rules, [f"P{i}" for i in range(players)], None, seed)
        chooser = random.Random(seed)
        every = Counter(it.id for it in state.items)
        assert max(every.values()) == 1
        assert len(every) == 16  # 15 cards and the stone
        moves = 0
        while not state.game_over:
            _check_items(state, every)
            legal = legal_actions(state)
            assert legal
            if chooser.random() < 0.2:  # saved through JSON, restored: plays on identically
                copy = GameState.from_dict(rules, json.loads(json.dumps(state.to_dict())))
                assert copy.to_dict() == state.to_dict()
                assert legal_actions(copy) == legal
                action = legal[chooser.randrange(len(legal))]
                assert apply(copy, action) == apply(state, action)
                assert copy.to_dict() == state.to_dict()
            else:
                apply(state, legal[chooser.randrange(len(legal))], record=False)
            moves += 1
            assert moves < 500
        assert state.winners
        assert state.round <= 6
        _check_items(state, every)
        assert all(s >= 0 for s in scores(state))
        assert view_for(state, 0)


# --- load errors -----------------------------------------------------------------------

def test_an_unknown_property_on_an_item_kind_suggests_the_declared_one(tmp_path: Path
                                                                       ) -> None:
    data = yaml.safe_load(BASE)
    data["items"]["red_a"]["pionts"] = 3
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "rules.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(LoadError, match="did you mean 'points'"):
        load_ruleset(folder)
