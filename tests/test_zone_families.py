"""Zone families: a zone declared with `keys` is one plain zone per key (`stack_1` ..),
named in expressions as `stack[KEY]` (a key written out or worked out as the game runs) and
in effects as `"stack[KEY]"` (a key written out)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import FIXTURES, only_problem, write_rules

from dinotable.bots import choose, search
from dinotable.bots.search import Strength
from dinotable.engine import Action, GameState, apply, legal_actions, new_game
from dinotable.engine.expr import Ctx, called_forms, evaluate
from dinotable.engine.origins import RulesError
from dinotable.ruleset import load_ruleset

STACKS = FIXTURES / "good_rulesets" / "fixture_stacks_by_key"

BASE = """
id: families
name: Families
version: 1
players: {min: 2, max: 3}
dice:
  d6: {faces: [1, 2, 3, 4, 5, 6]}
zones:
  cup: {holds: dice, start: {d6: 4}}
  row: {holds: dice, keys: [2, 4, 6], label: "Row {key}", face: down}
  hold: {holds: dice, per_player: true, keys: [left, right]}
  tray: {holds: dice}
vars:
  game: {pick: 2}
define:
  in_rows: "sum(size(row[k]) for k in keys(row))"
score: "size(hold['left']) + 10 * size(hold['right'])"
actions:
  place:
    args:
      n: {domain: choice, values: [2, 4, 6], where: "size(row[$value]) < 2"}
    effects:
      - move: {from: cup, to: "row[2]", count: 1}
      - end_turn: {}
end:
  trigger: "size(cup) == 0"
"""


def _data(**change: Any) -> dict[str, Any]:
    data = yaml.safe_load(BASE)
    for key, value in change.items():
        data[key] = value
    return data


def _load(tmp_path: Path, **change: Any) -> Any:
    return load_ruleset(write_rules(tmp_path, _data(**change)))


def _zones(**extra: Any) -> dict[str, Any]:
    return {**yaml.safe_load(BASE)["zones"], **extra}


# --- the zones a family makes ------------------------------------------------------------

def test_a_family_makes_one_plain_zone_per_key_in_its_place(tmp_path: Path) -> None:
    rules = _load(tmp_path)
    assert list(rules.zones) == ["cup", "row_2", "row_4", "row_6", "hold_left", "hold_right",
                                 "tray"]
    assert [rules.zones[f"row_{k}"].label for k in (2, 4, 6)] == ["Row 2", "Row 4", "Row 6"]
    assert {(z.holds, z.face, z.per_player) for n, z in rules.zones.items()
            if n.startswith("row_")} == {("dice", "down", False)}
    assert rules.zones["hold_right"].per_player and rules.zones["hold_right"].label == (
        "hold_right")


def test_a_family_is_the_same_as_its_zones_written_out(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    family = _load(tmp_path / "a")
    written = {"cup": {"holds": "dice", "start": {"d6": 4}},
               **{f"row_{k}": {"holds": "dice", "label": f"Row {k}", "face": "down"}
                  for k in (2, 4, 6)},
               **{f"hold_{k}": {"holds": "dice", "per_player": True}
                  for k in ("left", "right")},
               "tray": {"holds": "dice"}}
    data = _data(zones=written)
    data["define"] = {"in_rows": "size(row_2) + size(row_4) + size(row_6)"}
    data["score"] = "size(hold_left) + 10 * size(hold_right)"
    data["actions"]["place"]["args"]["n"]["where"] = "true"
    data["actions"]["place"]["effects"][0]["move"]["to"] = "row_2"
    out = load_ruleset(write_rules(tmp_path / "b", data))
    assert family.zones == out.zones


def test_each_zone_of_a_family_starts_with_what_the_family_names(tmp_path: Path) -> None:
    zones = _zones(row={"holds": "dice", "keys": {"from": 1, "to": 3}, "start": {"d6": 2}})
    state = new_game(_load(tmp_path, zones=zones), ["A", "B"], seed=1)
    assert [len(state.zones[f"row_{k}"][0]) for k in (1, 2, 3)] == [2, 2, 2]


# --- expressions -------------------------------------------------------------------------

def _value(state: GameState, text: str, args: dict[str, Any] | None = None,
           seat: int = 0) -> Any:
    from dinotable.engine.expr import Scope, compile_expr

    rules = state.rules
    scope = Scope(zones=frozenset(z for z, d in rules.zones.items() if not d.per_player),
                  player_zones=frozenset(z for z, d in rules.zones.items() if d.per_player),
                  args=frozenset(args or {}),
                  zone_families={"row": (2, 4, 6), "hold": ("left", "right")},
                  game_vars=frozenset(rules.game_vars), kinds=frozenset(rules.dice))
    return evaluate(compile_expr(text, scope), state, seat, args)


def _filled(tmp_path: Path) -> GameState:
    state = new_game(_load(tmp_path), ["A", "B"], seed=3)
    cup = state.zones["cup"][0]
    # Row 2 gets one die, row 6 three; B holds one die on the right.
    state.zones["row_2"][0].append(cup.pop())
    state.zones["row_6"][0].extend([cup.pop(), cup.pop(), cup.pop()])
    state.zones["hold_right"][1].extend(state.zones["row_6"][0][:1])
    del state.zones["row_6"][0][:1]
    return state


@pytest.mark.parametrize("inlined", [True, False])
def test_expressions_read_a_family_zone_by_a_key_written_out_or_worked_out(
        tmp_path: Path, inlined: bool) -> None:
    def check() -> None:
        state = _filled(tmp_path)
        assert _value(state, "size(row[2])") == 1
        assert _value(state, "size(row[$n])", {"n": 6}) == 2
        assert _value(state, "size(row[pick * 3])") == 2  # a variable's value as the key
        assert _value(state, "kinds(row[$n], d6)", {"n": 6}) == 2
        assert _value(state, "sum(size(row[k]) for k in keys(row))") == 3
        assert _value(state, "max(size(row[k]) for k in keys(row))") == 2
        assert _value(state, "count(size(row[k]) == 0 for k in keys(row))") == 1
        assert _value(state, "keys(row)") == [2, 4, 6]
        assert _value(state, "keys(hold)") == ["left", "right"]
        # A zone each player has: the seat in scope's, or the player given.
        assert _value(state, "size(hold['right'])", seat=1) == 1
        assert _value(state, "size(hold['right'])", seat=0) == 0
        assert _value(state, "size(hold[$side], 1)", {"side": "right"}) == 1
        assert _value(state, "sum(size(hold[k], 1) for k in keys(hold))") == 1

    if inlined:
        check()
    else:
        with called_forms():
            check()


EVERY = """
id: every
name: Every
version: 1
players: {min: 2, max: 2}
dice:
  d6: {faces: [1, 2, 3, 4, 5, 6]}
properties: {suit: none, points: 0}
items:
  red_card: {type: card, copies: 3, suit: red, points: 2}
  blue_card: {type: card, copies: 2, suit: blue, points: 5}
zones:
  cup: {holds: dice, start: {d6: 2}}
  row: {holds: dice, keys: [1, 2], start: {d6: 3}}
  pile: {holds: cards, keys: [a, b]}
  deck: {holds: cards, start: all}
score: 0
actions:
  go: {effects: [{end_turn: {}}]}
end: {trigger: "round == 2"}
"""

# Every function that takes a zone, Z a zone of dice and C one of cards.
ZONE_CALLS = {
    "sum_prop": "sum_prop(C, points)", "count_where": "count_where(C, suit, 'red')",
    "pips": "pips(Z)", "sets": "sets(C, suit, [red, blue])", "groups": "groups(C, suit, 2)",
    "distinct": "distinct(C, suit)", "first_in": "first_in(C)",
    "first_where": "first_where(C, suit, 'blue')", "count_kind": "count_kind(C, 'red_card')",
    "count_bare": "count_bare(C, 'red_card')",
    "count_bare_where": "count_bare_where(C, suit, 'red')",
    "sum_prop_attached": "sum_prop_attached(C, points)", "matching": "matching(Z, [3, 3])",
    "can_pay": "can_pay(Z, [3, 4])", "size": "size(Z) * 10 + size(C)",
    "count": "count(Z, 3)", "kinds": "kinds(Z, d6)", "chance_of": "chance_of(3, 2, Z, cup, 1)",
    "with_value": "with_value(Z, 3)", "most_alike": "most_alike(Z)",
    "longest_run": "longest_run(Z)", "different_faces": "different_faces(Z)",
    "top_kind": "top_kind(C)",
}


def test_every_function_taking_a_zone_is_listed_here() -> None:
    from dinotable.engine.expr import FUNCTIONS

    assert {f.name for f in FUNCTIONS.values() if "zone" in f.params} == set(ZONE_CALLS)


@pytest.mark.parametrize("inlined", [True, False])
@pytest.mark.parametrize("name", sorted(ZONE_CALLS))
def test_every_function_taking_a_zone_reads_a_family_zone_every_way(
        tmp_path: Path, name: str, inlined: bool) -> None:
    from dinotable.engine.expr import Scope, compile_expr

    def value(state: GameState, text: str) -> Any:
        rules = state.rules
        scope = Scope(zones=frozenset(rules.zones), args=frozenset({"n", "p"}),
                      kinds=frozenset([*rules.dice, *rules.items]), faces=frozenset(range(1, 7)),
                      props=frozenset(rules.properties),
                      zone_families={"row": (1, 2), "pile": ("a", "b")})
        return evaluate(compile_expr(text, scope), state, 0, {"n": 2, "p": "b"})

    def check() -> None:
        state = new_game(load_ruleset(write_rules(tmp_path, EVERY)), ["A", "B"], seed=1)
        for i, face in zip(state.zones["row_2"][0], (3, 3, 4), strict=True):
            state.items[i].face = face  # type: ignore[assignment]
        for i in state.zones["cup"][0]:
            state.items[i].face = 1  # type: ignore[assignment]
        deck = state.zones["deck"][0]
        state.zones["pile_b"][0].extend([deck.pop(), deck.pop(0), deck.pop(0)])
        call = ZONE_CALLS[name]
        plain = value(state, call.replace("Z", "row_2").replace("C", "pile_b"))
        for z, c in (("row[2]", "pile['b']"), ("row[$n]", "pile[$p]"), ("row[n]", "pile[p]")):
            text = call.replace("Z", z).replace("C", c)
            if "[n]" in z:  # a loop's name as the key
                same = call.replace("Z", "row_2").replace("C", "pile_b")
                text = f"any(any(({text}) == ({same}) for p in [b]) for n in [2])"
                assert value(state, text) is True
            else:
                assert value(state, text) == plain, text

    if inlined:
        check()
    else:
        with called_forms():
            check()


def test_a_computed_key_outside_the_family_is_an_error_naming_family_and_key(
        tmp_path: Path) -> None:
    state = _filled(tmp_path)
    with pytest.raises(RulesError, match=r"zone family row has no key 5 \(its keys: 2, 4, 6\)"):
        _value(state, "size(row[$n])", {"n": 5})


@pytest.mark.parametrize(("score", "words"), [
    ("size(row[3])", "the zone family row has no key 3 (its keys: 2, 4, 6)"),
    ("size(row)", "row is a family of zones: name one as row[KEY], e.g. size(row[2])"),
    ("row[2]", "row[KEY] names one zone of the family 'row'"),
    ("size(row[2:4])", "row[...] takes one key"),
    ("keys(tray)", "expects the name of a variable declared with `keys` (or of a zone family)"),
])
def test_misnamed_family_zones_in_expressions_are_load_errors(
        tmp_path: Path, score: str, words: str) -> None:
    problem = only_problem(write_rules(tmp_path, _data(score=score)))
    assert problem.path == "score"
    assert words in problem.message


# --- effects -----------------------------------------------------------------------------

def test_an_effect_names_a_family_zone_by_a_key_written_out(tmp_path: Path) -> None:
    data = _data()
    data["actions"]["place"]["effects"].insert(1, {"move": {"from": "cup", "to": "hold['right']",
                                                            "count": 2}})
    state = new_game(load_ruleset(write_rules(tmp_path, data)), ["A", "B"], seed=2)
    (action,) = [a for a in legal_actions(state) if a.arg_map["n"] == 2]
    apply(state, action)
    assert len(state.zones["row_2"][0]) == 1 and len(state.zones["cup"][0]) == 1
    assert [len(z) for z in state.zones["hold_right"]] == [2, 0]  # the acting player's


@pytest.mark.parametrize(("to", "words"), [
    ("row[$n]", "an effect names its zone when the ruleset loads: write the key out "
                "(row[2]), or give each key its own effect under a `when`"),
    ("row[3]", "the zone family row has no key 3 (its keys: 2, 4, 6)"),
    ("rows[2]", "unknown zone family 'rows'"),
    ("row", 'row is a family of zones: name one as "row[KEY]", e.g. "row[2]"'),
    ("hold[left]", 'a text key is quoted, as in an expression: "hold[\'left\']"'),
    ("hold['middle']", "the zone family hold has no key 'middle' (its keys: 'left', 'right')"),
])
def test_an_effect_zone_by_key_must_be_known_at_load(tmp_path: Path, to: str,
                                                      words: str) -> None:
    data = _data()
    data["actions"]["place"]["effects"][0]["move"]["to"] = to
    problem = only_problem(write_rules(tmp_path, data))
    assert problem.path == "actions.place.effects[0].move.to"
    assert words in problem.message


def test_a_list_of_zones_may_name_a_whole_family(tmp_path: Path) -> None:
    data = _data()
    data["actions"]["place"]["effects"] = [{"move_all": {"from": "cup", "to": "row[4]"}},
                                           {"move_all": {"from": ["row", "tray"], "to": "cup"}},
                                           {"end_turn": {}}]
    rules = load_ruleset(write_rules(tmp_path, data))
    state = new_game(rules, ["A", "B"], seed=2)
    state.zones["row_6"][0].append(state.zones["cup"][0].pop())
    state.zones["tray"][0].append(state.zones["cup"][0].pop())
    apply(state, legal_actions(state)[0])
    assert [len(state.zones[z][0]) for z in ("cup", "row_2", "row_4", "row_6", "tray")] == [
        4, 0, 0, 0, 0]


# --- load errors in the declaration --------------------------------------------------------

@pytest.mark.parametrize(("row", "path", "words"), [
    ({"holds": "dice", "keys": []}, "zones.row.keys", "the list of keys is empty"),
    ({"holds": "dice", "keys": [1, 2, 1]}, "zones.row.keys[2]", "the key 1 is listed twice"),
    ({"holds": "dice", "keys": [1, -2]}, "zones.row.keys[1]",
     "a key of a zone family is a whole number from 0 or a lower_snake_case name"),
    ({"holds": "dice", "keys": ["Red", "blue"]}, "zones.row.keys[0]",
     "not 'Red'"),
    ({"holds": "dice", "keys": [1.5]}, "zones.row.keys[0]", "a key is a whole number or a text"),
    ({"holds": "dice", "keys": [1, "two"]}, "zones.row.keys[1]",
     "keys are all whole numbers or all texts"),
    ({"holds": "dice", "keys": {"from": 3, "to": 1}}, "zones.row.keys.to",
     "`to` (1) is less than `from` (3)"),
    ({"holds": "dice", "keys": "three"}, "zones.row.keys", "expected a list of keys"),
    ({"holds": "cards", "keys": [1, 2], "start": "all"}, "zones.row.start",
     "start: all puts every copy in one zone"),
    ({"holds": "dice", "keys": [1, 2], "label": "Row {n}"}, "zones.row.label",
     "fills in {key} only"),
    ({"holds": "bricks", "keys": [1, 2]}, "zones.row.holds", "bricks"),
])
def test_a_misdeclared_family_is_one_load_error_at_its_line(
        tmp_path: Path, row: dict[str, Any], path: str, words: str) -> None:
    data = _data(zones=_zones(row=row))
    data["define"] = {}
    data["actions"]["place"] = {"effects": [{"end_turn": {}}]}
    problem = only_problem(write_rules(tmp_path, data))
    assert problem.path == path
    assert words in problem.message
    assert problem.file.endswith("rules.yaml") and problem.line > 1


@pytest.mark.parametrize(("extra", "path", "words"), [
    ({"row_4": {"holds": "dice"}}, "zones.row.keys",
     "the family makes the zone 'row_4', which is already a zone written out"),
    ({"row": {"holds": "dice", "keys": [1]}, "rows": {"holds": "dice"}}, None, None),
])
def test_a_family_zone_may_not_clash_with_a_zone_written_out(
        tmp_path: Path, extra: dict[str, Any], path: str | None, words: str | None) -> None:
    data = _data(zones=_zones(**extra))
    if path is None:  # no clash: `row_1` and `rows` are different zones
        data["define"] = {}
        data["actions"]["place"] = {"effects": [{"end_turn": {}}]}
        assert "row_1" in load_ruleset(write_rules(tmp_path, data)).zones
        return
    problem = only_problem(write_rules(tmp_path, data))
    assert (problem.path, words in problem.message) == (path, True)


def test_a_board_may_not_share_a_family_name(tmp_path: Path) -> None:
    data = _data(boards={"row": {"rows": 2, "cols": 2}})
    problem = only_problem(write_rules(tmp_path, data))
    assert problem.path == "boards.row"
    assert "'row' is already the name of a zone family" in problem.message


def test_a_family_with_a_bad_name_is_reported(tmp_path: Path) -> None:
    data = _data(zones=_zones(Rows={"holds": "dice", "keys": [1]}))
    problem = only_problem(write_rules(tmp_path, data))
    assert problem.path == "zones.Rows" and "lower_snake_case" in problem.message


def test_two_families_making_one_zone_clash(tmp_path: Path) -> None:
    zones = {"cup": {"holds": "dice", "start": {"d6": 4}},
             "row": {"holds": "dice", "keys": ["a_b"]},
             "row_a": {"holds": "dice", "keys": ["b"]},
             "hold": {"holds": "dice", "per_player": True, "keys": ["left", "right"]}}
    data = _data(zones=zones, define={})
    data["actions"]["place"] = {"effects": [{"end_turn": {}}]}
    problem = only_problem(write_rules(tmp_path, data))
    assert problem.path == "zones.row_a.keys"
    assert "'row_a_b', which the family 'row' makes too" in problem.message


def test_a_variable_may_not_share_a_family_name(tmp_path: Path) -> None:
    data = _data()
    data["vars"]["game"]["row"] = 0
    problem = only_problem(write_rules(tmp_path, data))
    assert problem.path == "vars.game.row"
    assert "'row' is already the name of a zone family" in problem.message


# --- the fixture game ----------------------------------------------------------------------

QUICK = Strength("quick", 25, 5.0, 4, 30, 1, heed=True)


@pytest.mark.parametrize("bot", ["random", "heuristic", "search"])
def test_the_stacks_fixture_plays_to_the_end(bot: str) -> None:
    rules = load_ruleset(STACKS)
    for seed in range(2 if bot == "search" else 8):
        state = new_game(rules, ["A", "B", "C"], seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not state.game_over:
            assert moves < 50, "the game does not end"
            legal = legal_actions(state)
            # Only a stack that holds a card is offered, each once, by its number.
            assert sorted(a.arg_map["n"] for a in legal) == [
                k for k in (1, 2, 3) if state.zones[f"stack_{k}"][0]]
            action: Action = (search.search(state, legal, rng, QUICK) if bot == "search"
                              else choose(bot, state, rng))
            assert action in legal
            apply(state, action)
            moves += 1
        assert moves == 7  # every card of the deck is taken, one a turn
        taken = Counter(state.items[i].kind for seat in range(3)
                        for i in state.zones["taken"][seat])
        assert taken == {"shell": 3, "pearl": 2, "coral": 2}
        assert state.winners
        points = sum(rules.items[k].props["points"] * n for k, n in taken.items())
        assert sum(p["bonus"] for p in state.player_vars) <= 7
        assert sum(_score(state, s) for s in range(3)) == points + sum(
            p["bonus"] for p in state.player_vars)


def _score(state: GameState, seat: int) -> Any:
    return state.rules.score(Ctx(state, seat))
