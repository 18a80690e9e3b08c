"""Generated decks: a family of card kinds made from the product of lists (suits x ranks),
properties worked out from each card's place, a property's value for each copy, and
`start: all` for zones of tokens. The fixtures `fixture_cards52` (twenty-one on a 52-card
deck) and `fixture_tokens` (a bank of coins worth 1, 1, 2 and 5) are played to the end by
every kind of bot."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import FIXTURES, only_problem, write_rules

from dinotable.check import run_scenario
from dinotable.engine import Action, GameState, apply, legal_actions, new_game, scores
from dinotable.ruleset import load_ruleset
from dinotable.scenarios import load_scenario
from dinotable.sim import play_game
from dinotable.text_table import show_table

CARDS52 = FIXTURES / "good_rulesets" / "fixture_cards52"
TOKENS = FIXTURES / "good_rulesets" / "fixture_tokens"
SUITS = ["clubs", "diamonds", "hearts", "spades"]

BASE = """\
id: gen
name: Generated
version: 1
players: {min: 2, max: 2}
properties: {points: 0}
items:
  card:
    type: card
    for_each: {suit: [red, blue], rank: {from: 1, to: 3}}
    points: "rank * 2 if suit == 'red' else rank"
zones:
  deck: {holds: cards, order: deck, start: all}
  pile: {holds: cards}
score: 0
actions:
  stop:
    effects: [{end_turn: {}}]
end:
  trigger: "round > 3"
"""


def _data(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(BASE)
    for key, value in changes.items():
        data[key] = value
    return data


def _loaded(tmp_path: Path, text: str) -> Any:
    return load_ruleset(write_rules(tmp_path, text))


def _problem(tmp_path: Path, text: str) -> Any:
    return only_problem(write_rules(tmp_path, text))


def _eval(tmp_path: Path, data: dict[str, Any], expr: str, players: int = 2) -> Any:
    """The value of `expr` at the start of a game of `data` (read as its score)."""
    data = {**data, "score": expr}
    rules = load_ruleset(write_rules(tmp_path, yaml.safe_dump(data, sort_keys=False)))
    state = new_game(rules, [f"P{i}" for i in range(players)], None, 0)
    return scores(state)[0]


def _ids(state: GameState, zone: str, owner: int = 0) -> list[str]:
    return [state.items[i].id for i in state.zone(zone, owner)]


# --- the 52-card deck ------------------------------------------------------------------

def test_the_52_cards_are_made_in_product_order_with_readable_ids() -> None:
    rules = load_ruleset(CARDS52)
    want = [f"card_{suit}_{rank}" for suit in SUITS for rank in range(2, 15)]
    assert list(rules.items) == want
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    assert sorted(_ids(state, "deck")) == sorted(want)  # `start: all`: every card, once
    assert len(set(_ids(state, "deck"))) == 52


def test_each_card_has_its_suit_and_rank_and_the_points_worked_out_from_them() -> None:
    rules = load_ruleset(CARDS52)
    for suit in SUITS:
        for rank in range(2, 15):
            props = rules.items[f"card_{suit}_{rank}"].props
            assert (props["suit"], props["rank"]) == (suit, rank)
            assert props["points"] == (11 if rank == 14 else 10 if rank > 10 else rank)
    assert rules.items["card_hearts_12"].props["face"] == "Queen"
    assert rules.items["card_clubs_7"].props["face"] == ""
    # The keys are declared as properties by the family: a name and a number.
    assert (rules.properties["suit"].type, rules.properties["suit"].default) == ("text", "")
    assert (rules.properties["rank"].type, rules.properties["rank"].default) == ("number", 0)


def test_labels_fill_in_the_keys_and_properties() -> None:
    rules = load_ruleset(CARDS52)
    assert rules.items["card_hearts_12"].label == "Queen of hearts"
    assert rules.items["card_spades_14"].label == "Ace of spades"
    assert rules.items["card_clubs_2"].label == "2 of clubs"
    assert rules.items["card_diamonds_10"].label == "10 of diamonds"
    assert {k.family for k in rules.items.values()} == {"card"}


def test_the_printed_words_fill_in_computed_properties_too(tmp_path: Path) -> None:
    data = _data()
    data["items"]["card"]["text"] = "Worth {points} ({suit})."
    rules = load_ruleset(write_rules(tmp_path, yaml.safe_dump(data, sort_keys=False)))
    assert rules.items["card_red_3"].text == "Worth 6 (red)."
    assert rules.items["card_blue_3"].text == "Worth 3 (blue)."
    assert rules.items["card_blue_3"].label == "Card Blue 3"  # no label: the id in words


def test_expressions_read_generated_cards_like_any_other(tmp_path: Path) -> None:
    data = _data()
    assert _eval(tmp_path, data, "prop('card_red_3', points)") == 6
    assert _eval(tmp_path, data, "prop('card_blue_3', points)") == 3
    assert _eval(tmp_path, data, "prop('card_blue_2', rank)") == 2
    assert _eval(tmp_path, data, "count_where(deck, suit, 'red')") == 3
    assert _eval(tmp_path, data, "sum_prop(deck, points)") == (2 + 4 + 6) + (1 + 2 + 3)


def test_a_family_key_declared_in_properties_with_its_type_is_that_property(
        tmp_path: Path) -> None:
    data = _data(properties={"points": 0, "suit": "none"})
    data["items"]["stone"] = {"type": "card"}
    rules = load_ruleset(write_rules(tmp_path, yaml.safe_dump(data, sort_keys=False)))
    assert rules.items["card_blue_1"].props["suit"] == "blue"
    assert rules.items["stone"].props["suit"] == "none"  # the declared default
    # `rank` was not declared: kinds outside the family read 0.
    assert rules.items["stone"].props["rank"] == 0


def test_a_family_sits_among_written_kinds_in_the_order_written(tmp_path: Path) -> None:
    data = _data()
    data["items"] = {"first": {"type": "card"}, **data["items"], "last": {"type": "card"}}
    rules = load_ruleset(write_rules(tmp_path, yaml.safe_dump(data, sort_keys=False)))
    assert list(rules.items) == ["first", "card_red_1", "card_red_2", "card_red_3",
                                 "card_blue_1", "card_blue_2", "card_blue_3", "last"]


def test_copies_apply_to_every_kind_of_a_family(tmp_path: Path) -> None:
    data = _data()
    data["items"]["card"]["copies"] = 2
    rules = load_ruleset(write_rules(tmp_path, yaml.safe_dump(data, sort_keys=False)))
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    assert len(_ids(state, "deck")) == 12
    assert "card_red_3_2" in _ids(state, "deck")


def test_the_terminal_names_generated_cards_by_their_labels() -> None:
    rules = load_ruleset(CARDS52)
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    state.chance.force(["card_hearts_12", "card_spades_14"])
    apply(state, Action(0, "hit"))
    apply(state, Action(0, "hit"))
    out = io.StringIO()
    show_table(state, out, 0)
    assert "hand (Ann): Queen of hearts, Ace of spades" in out.getvalue()
    assert "deck: 50 hidden" in out.getvalue()


# --- per-copy values --------------------------------------------------------------------

PER_COPY = """\
id: coins
name: Coins
version: 1
players: {min: 2, max: 2}
properties: {worth: 0, tags: []}
items:
  coin: {type: token, copies: 4, worth: {per_copy: [1, 1, 2, 5]}}
  gem: {type: token, copies: 2, worth: 3, tags: {per_copy: [[blue], [red, rare]]}}
  card: {type: card}
zones:
  bank: {holds: tokens, start: all}
  purse: {holds: tokens, per_player: true}
  table: {holds: cards, start: all}
score: 0
actions:
  stop:
    effects: [{end_turn: {}}]
end:
  trigger: "round > 3"
"""


def test_prop_reads_each_copys_own_value_and_the_kind_reads_the_first(
        tmp_path: Path) -> None:
    data = yaml.safe_load(PER_COPY)
    assert [_eval(tmp_path, data, f"prop('{c}', worth)")
            for c in ("coin", "coin_2", "coin_3", "coin_4")] == [1, 1, 2, 5]
    assert _eval(tmp_path, data, "prop('gem_2', worth)") == 3  # one value for every copy
    assert _eval(tmp_path, data, "1 if has(prop('gem_2', tags), 'rare') else 0") == 1
    assert _eval(tmp_path, data, "1 if has(prop('gem', tags), 'rare') else 0") == 0
    rules = load_ruleset(tmp_path / "coins")
    assert rules.items["coin"].props["worth"] == 1  # the kind: its first copy's value
    assert rules.items["coin"].per_copy == {"worth": (1, 1, 2, 5)}


def test_functions_over_a_zone_read_each_copys_own_value(tmp_path: Path) -> None:
    data = yaml.safe_load(PER_COPY)
    assert _eval(tmp_path, data, "sum_prop(bank, worth)") == 1 + 1 + 2 + 5 + 3 + 3
    assert _eval(tmp_path, data, "count_where(bank, worth, 1)") == 2
    assert _eval(tmp_path, data, "count_where(bank, tags, 'rare')") == 1
    assert _eval(tmp_path, data, "distinct(bank, worth)") == 4


def test_the_coin_fixture_scores_the_copy_taken() -> None:
    rules = load_ruleset(TOKENS)
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    apply(state, Action(0, "take", (("token", "coin_4"),)))
    apply(state, Action(1, "take", (("token", "coin_2"),)))
    assert scores(state) == [5, 1]


# --- start: all for tokens ------------------------------------------------------------------

def test_start_all_in_a_token_zone_places_every_token_and_leaves_the_cards(
        tmp_path: Path) -> None:
    rules = _loaded(tmp_path, PER_COPY)
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    assert _ids(state, "bank") == ["coin", "coin_2", "coin_3", "coin_4", "gem", "gem_2"]
    assert _ids(state, "table") == ["card"]  # a card zone's `start: all`: the cards only


def test_kind_all_places_every_copy_of_that_kind(tmp_path: Path) -> None:
    data = yaml.safe_load(PER_COPY)
    data["zones"]["bank"]["start"] = {"gem": "all", "coin": 1}
    data["zones"]["purse"]["start"] = {}
    state = new_game(load_ruleset(write_rules(tmp_path, yaml.safe_dump(data, sort_keys=False))),
                     ["Ann", "Ben"], None, 0)
    assert _ids(state, "bank") == ["gem", "gem_2", "coin"]


def test_a_card_zones_start_all_still_holds_the_cards_only(tmp_path: Path) -> None:
    # A zone that does not say it holds tokens or tiles keeps `start: all` as the deck.
    data = yaml.safe_load(PER_COPY)
    data["zones"] = {"deck": {"start": "all"}, "bank": {"holds": "tiles", "start": "all"}}
    data["items"]["tile"] = {"type": "tile", "copies": 2}
    state = new_game(load_ruleset(write_rules(tmp_path, yaml.safe_dump(data, sort_keys=False))),
                     ["Ann", "Ben"], None, 0)
    assert _ids(state, "deck") == ["card"]
    assert _ids(state, "bank") == ["tile", "tile_2"]


# --- load errors ------------------------------------------------------------------------

def _family(tmp_path: Path, family: str, props: str = "{points: 0}") -> Any:
    """The one problem of BASE with its family replaced by `family` (YAML lines)."""
    text = BASE.replace("properties: {points: 0}", f"properties: {props}")
    start = text.index("  card:\n")
    end = text.index("zones:")
    return _problem(tmp_path, text[:start] + family + text[end:])


@pytest.mark.parametrize(("family", "line", "path", "words"), [
    ("  card:\n    type: card\n    for_each: {suit: [], rank: [1]}\n", 9,
     "items.card.for_each.suit", "the list is empty: it makes no kinds"),
    ("  card:\n    type: card\n    for_each: {rank: {from: 5, to: 2}}\n", 9,
     "items.card.for_each.rank", "the range from 5 to 2 is empty"),
    ("  card:\n    type: card\n    for_each: [red, blue]\n", 9,
     "items.card.for_each", "expected a mapping of KEY: [VALUES]"),
    ("  card:\n    type: card\n    for_each: {suit: [Red, blue]}\n", 9,
     "items.card.for_each.suit", "a value is a whole number from 0 or a lower_snake_case"),
    ("  card:\n    type: card\n    for_each: {suit: [red, 2]}\n", 9,
     "items.card.for_each.suit", "all be whole numbers or all be names"),
    ("  card:\n    type: card\n    for_each: {suit: [red, red]}\n", 9,
     "items.card.for_each.suit", "'red' is listed twice"),
    ("  card:\n    type: card\n    for_each: {copies: [1, 2]}\n", 9,
     "items.card.for_each.copies", "'copies' is a key every item kind has"),
    ("  card:\n    type: card\n    for_each: {rank: [0, 1, 2]}\n    points: \"6 // rank\"\n",
     10, "items.card.points", "fails for rank=0: integer division or modulo by zero"),
    ("  card:\n    type: card\n    for_each: {rank: [1, 2]}\n    points: \"rank + round\"\n",
     10, "items.card.points", "it reads the game, which does not exist yet"),
    ("  card:\n    type: card\n    for_each: {rank: [1, 2]}\n    points: \"rank + bonus\"\n",
     10, "items.card.points", "unknown name 'bonus'"),
    ("  card:\n    type: card\n    for_each: {rank: [1, 2]}\n    points: \"'x'\"\n",
     10, "items.card.points", "'points' holds whole numbers, but \"'x'\" gives 'x' for rank=1"),
    ("  card:\n    type: card\n    for_each: {rank: [1, 2]}\n    label: \"{rank +}\"\n",
     10, "items.card.label", "not a valid expression"),
    ("  card:\n    type: card\n    for_each: {rank: [1, 0]}\n    text: \"Worth {6 // rank}.\"\n",
     10, "items.card.text", "in expression '6 // rank': fails for rank=0"),
    ("  card:\n    type: card\n    for_each: {rank: [1, 2]}\n    rank: 3\n",
     10, "items.card.rank", "'rank' is a key of for_each"),
    ("  card:\n    type: card\n    for_each: {rank: [1, 2]}\n    pointz: 3\n",
     10, "items.card.pointz", "unknown property of an item kind 'pointz' (did you mean "
                             "'points'?)"),
    ("  card_red_1: {type: card}\n  card:\n    type: card\n    for_each: {suit: [red]"
     ", rank: [1]}\n", 10, "items.card.for_each",
     "makes the kind 'card_red_1', which is already an item kind written out"),
    ("  card:\n    type: card\n    for_each: {suit: [red_1]}\n  card_red:\n    type: card\n"
     "    for_each: {n: [1]}\n", 12, "items.card_red.for_each",
     "makes the kind 'card_red_1', which the family 'card' makes too"),
    ("  card:\n    type: card\n    for_each: {points: [low, high]}\n", 9,
     "items.card.for_each.points", "'points' is a property holding whole numbers"),
    ("  card:\n    type: card\n    for_each: {suit: [red]}\n  tile:\n    type: tile\n"
     "    for_each: {suit: [1, 2]}\n", 12, "items.tile.for_each.suit",
     "'suit' is a property holding texts (in properties or another family), but these "
     "values are whole numbers"),
])
def test_each_misuse_of_a_family_is_one_problem_at_its_line(
        tmp_path: Path, family: str, line: int, path: str, words: str) -> None:
    problem = _family(tmp_path, family)
    assert (problem.line, problem.path) == (line, path), problem
    assert words in problem.message, problem
    assert problem.file.endswith("gen/rules.yaml")


@pytest.mark.parametrize(("lines", "path", "words"), [
    ("    for_each: {rank: [1, 2, 3]}\n", "items.card", "an item kind needs a type"),
    ("    type: cardd\n    for_each: {rank: [1, 2, 3]}\n", "items.card.type",
     "unknown value 'cardd'"),
    ("    type: card\n    copies: 0\n    for_each: {rank: [1, 2, 3]}\n", "items.card.copies",
     "expected at least 1"),
    ("    type: card\n    for_each: {rank: [1, 2, 3]}\n    points: [1]\n",
     "items.card.points", "expected a number"),
    ("    type: card\n    copies: 2\n    for_each: {rank: [1, 2, 3]}\n"
     "    points: {per_copy: [1]}\n", "items.card.points.per_copy",
     "expected a list of 2 values"),
    ("    type: card\n    for_each: {rank: [1, 2, 3]}\n    on_play: [{rol: tray}]\n",
     "items.card.on_play[0].rol", "unknown effect 'rol'"),
])
def test_a_mistake_shared_by_every_kind_of_a_family_is_reported_once(
        tmp_path: Path, lines: str, path: str, words: str) -> None:
    problem = _family(tmp_path, "  card:\n" + lines,
                      props="{points: 0, on_play: {type: effects}}")
    assert problem.path == path and words in problem.message, problem


def test_a_bare_name_in_a_family_text_property_hints_to_quote_it(tmp_path: Path) -> None:
    problem = _family(tmp_path, "  card:\n    type: card\n    for_each: {rank: [1]}\n"
                                "    colour: red\n", props="{points: 0, colour: none}")
    assert problem.path == "items.card.colour"
    assert "unknown name 'red'" in problem.message
    assert "quote a fixed text inside" in problem.message


def test_a_generated_kind_placed_beyond_its_copies_points_at_the_family(
        tmp_path: Path) -> None:
    text = BASE.replace("  pile: {holds: cards}", "  pile: {holds: cards, start: "
                                                  "{card_red_1: 2}}")
    problem = _problem(tmp_path, text)
    # Two in the pile and one in the deck (`start: all`), of a kind with one copy.
    assert "the zones start with 3 of 'card_red_1'" in problem.message
    assert problem.line == 7  # the family's own line, not the top of the file


@pytest.mark.parametrize(("value", "words"), [
    ("{per_copy: [1, 2]}", "expected a list of 4 values, one for each copy (copies: 4)"),
    ("{per_copy: 3}", "expected a list of 4 values"),
    ("{per_copy: [1, 2, x, 4]}", "expected a number, found 'x'"),
])
def test_a_per_copy_list_of_the_wrong_length_or_type_is_an_error(
        tmp_path: Path, value: str, words: str) -> None:
    text = PER_COPY.replace("worth: {per_copy: [1, 1, 2, 5]}", f"worth: {value}")
    problem = _problem(tmp_path, text)
    assert problem.line == 7 and problem.path.startswith("items.coin.worth.per_copy"), problem
    assert words in problem.message


def test_all_copies_of_a_die_kind_is_an_error(tmp_path: Path) -> None:
    data = yaml.safe_load(PER_COPY)
    data["dice"] = {"d6": {"faces": [1, 2, 3, 4, 5, 6]}}
    data["zones"]["cup"] = {"start": {"d6": "all"}}
    problem = only_problem(write_rules(tmp_path, yaml.safe_dump(data, sort_keys=False)))
    assert problem.path == "zones.cup.start.d6"
    assert "'d6' is a die kind: give how many" in problem.message


# --- the fixtures, played -----------------------------------------------------------------

@pytest.mark.parametrize("folder", [CARDS52, TOKENS], ids=lambda p: p.name)
def test_the_fixture_scenarios_pass(folder: Path) -> None:
    files = sorted((folder / "scenarios").glob("*.yaml"))
    assert files
    for file in files:
        result = run_scenario(load_scenario(file))
        assert result.passed, f"{file.name}: {result.reason}"


@pytest.mark.parametrize("folder", [CARDS52, TOKENS], ids=lambda p: p.name)
@pytest.mark.parametrize("bot", ["random", "heuristic", "search"])
def test_the_fixtures_play_to_the_end_with_every_bot(folder: Path, bot: str) -> None:
    rules = load_ruleset(folder)
    for seed in range(2 if bot == "search" else 4):
        result = play_game(rules, 2, seed, [bot, bot])
        assert result.winners and result.actions > 0
        assert all(isinstance(s, int) for s in result.scores)


def test_random_games_of_twenty_one_keep_the_deck_whole() -> None:
    rules = load_ruleset(CARDS52)
    rng = random.Random(5)
    for seed in range(5):
        state = new_game(rules, ["Ann", "Ben", "Cat"], None, seed)
        while not state.game_over:
            legal = legal_actions(state)
            apply(state, legal[int(rng.random() * len(legal))], False)
        held = sorted(state.items[i].id for lists in state.zones.values()
                      for content in lists for i in content)
        assert held == sorted(rules.items)  # every card somewhere, none twice
