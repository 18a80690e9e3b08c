"""Indexed values: a variable holding one value per key (per column, per colour), declared
with `keys`, read as `NAME[KEY]` and written by `set`/`add` on `"NAME[KEY]"`; refused at
load when misused, kept apart in every copy of a game, saved and restored with its keys,
hidden whole when only its owner may see it, and shown as KEY:VALUE pairs."""

from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, only_problem, write_rules

from dinotable import bots
from dinotable.engine import Action, GameState, apply, new_game, view_for
from dinotable.engine.errors import EngineError
from dinotable.engine.expr import called_forms
from dinotable.engine.indexed import shown_value
from dinotable.engine.paths import PathError, state_value
from dinotable.ruleset import LoadError, load_ruleset
from dinotable.scenarios import load_scenario
from dinotable.text_table import show_table

COLUMNS = FIXTURES / "good_rulesets" / "fixture_columns"

# A small game: gain one of a colour (a value per colour), a secret tally per colour, and a
# turn's own count per colour; {VARS} and {EFFECTS} are filled in by each test.
GAME = """\
id: hoard
name: Hoard
version: 1
players: {{min: 2, max: 2}}
vars:
{VARS}
score: "hoard['red'] + 2 * hoard['blue']"
actions:
  gain:
    args: {{colour: {{domain: choice, values: [red, blue, green]}}}}
    effects:
{EFFECTS}
end:
  trigger: "round >= 3"
  finish_round: true
"""
VARS = """\
  game: {rounds_won: {keys: {from: 1, to: 3}, value: 0}}
  player:
    hoard: {keys: [red, blue], value: 0}
    secret: {keys: [red, blue], value: 0, visible: owner}
  turn: {taken: {keys: [red, blue], value: false}}"""
EFFECTS = """\
      - add: {"hoard[$colour]": 1, "secret[$colour]": 5}
      - set: {"taken[$colour]": true, "rounds_won[round]": "me + 1"}
      - end_turn: {}"""


def hoard(tmp_path: Path, vars_: str = VARS, effects: str = EFFECTS) -> Path:
    return write_rules(tmp_path, GAME.format(VARS=vars_, EFFECTS=effects))


def gain(state: GameState, colour: str) -> None:
    apply(state, Action(state.current, "gain", (("colour", colour),)))


# --- load errors ------------------------------------------------------------------------

def _with_bad(keys: str) -> str:
    return f"  player:\n    hoard: {{keys: [red, blue], value: 0}}\n    bad: {keys}"


@pytest.mark.parametrize(("bad", "words"), [
    ("{keys: [], value: 0}", "vars.player.bad.keys: the list of keys is empty"),
    ("{keys: [red, blue, red], value: 0}", "vars.player.bad.keys[2]: the key 'red' is listed "
                                           "twice"),
    ("{keys: [red, 2], value: 0}", "vars.player.bad.keys[1]: keys are all whole numbers or "
                                   "all texts: 'red' and 2 are mixed"),
    ("{keys: [yes, no], value: 0}", "vars.player.bad.keys[0]: a key is a whole number or a "
                                    "text, not true (YAML reads yes, no, on and off as "
                                    "true/false: quote them)"),
    ("{keys: [red, 1.5], value: 0}", "vars.player.bad.keys[1]: a key is a whole number or a "
                                     "text, not 1.5"),
    ("{keys: {from: 5, to: 2}, value: 0}", "vars.player.bad.keys.to: `to` (2) is less than "
                                           "`from` (5)"),
    ("{keys: {from: 1}, value: 0}", "vars.player.bad.keys: a range of keys needs `from` and "
                                    "`to`"),
    ("{keys: {from: one, to: 3}, value: 0}", "vars.player.bad.keys.from: "),
    ("{keys: {from: 1, to: 5000}, value: 0}", "vars.player.bad.keys: 5000 keys is too many "
                                              "(at most 1000)"),
    ("{keys: red, value: 0}", "vars.player.bad.keys: expected a list of keys"),
    ("{keys: [red, blue]}", "vars.player.bad: a variable written as a mapping needs `value`"),
])
def test_a_bad_list_of_keys_is_one_problem_at_its_line(tmp_path: Path, bad: str,
                                                       words: str) -> None:
    problem = only_problem(hoard(tmp_path, _with_bad(bad), "      - end_turn: {}"))
    assert problem.line == 8
    assert f"{problem.path}: {problem.message}".startswith(words), problem


HOARD_ONLY = "  player: {hoard: {keys: [red, blue], value: 0}, plain: 0}"


@pytest.mark.parametrize(("effects", "line", "words"), [
    # A key written out must be one of the variable's keys.
    ('      - add: {plain: "hoard[\'green\']"}', 12,
     "in expression \"hoard['green']\": hoard has no key 'green' (its keys: 'red', 'blue')"),
    # A number key where the keys are texts.
    ('      - add: {plain: "hoard[round]"}', 12,
     "in expression 'hoard[round]': hoard has text keys, but round is a number"),
    # The name alone is not a value.
    ('      - add: {plain: "hoard + 1"}', 12,
     "in expression 'hoard + 1': hoard holds one value per key: read one value as "
     "hoard[KEY], e.g. hoard['red']"),
    # Only a variable with keys can be indexed.
    ('      - add: {plain: "plain[1]"}', 12,
     "in expression 'plain[1]': plain cannot be indexed: only a variable declared with "
     "`keys` is read as NAME[KEY]"),
    ('      - add: {hoard: 1}', 12,
     "'hoard' holds one value per key: write one value as hoard[KEY]"),
    ('      - add: {"plain[$colour]": 1}', 12,
     "'plain' is not a variable declared with `keys`, so it has no [KEY]"),
    ('      - set: {"hoard[$colour]": "\'lots\'"}', 12,
     "'hoard' holds a number; it cannot be set to a text"),
    ('      - say: "{keys(plain)}"', 12,
     "in expression 'keys(plain)': keys() expects the name of a variable declared with "
     "`keys`"),
])
def test_a_misused_indexed_value_is_one_problem_at_its_line(
        tmp_path: Path, effects: str, line: int, words: str) -> None:
    problem = only_problem(hoard(tmp_path, HOARD_ONLY, effects))
    assert problem.line == line
    assert problem.message.startswith(words), problem.message


def test_the_fixture_game_loads_and_knows_its_keys() -> None:
    rules = load_ruleset(COLUMNS)
    assert rules.indexed["height"] == tuple(range(2, 13))
    assert rules.player_vars["height"] == dict.fromkeys(range(2, 13), 0)


# --- reading and writing ----------------------------------------------------------------

def test_a_value_per_key_is_read_and_written_by_a_computed_key(tmp_path: Path) -> None:
    rules = load_ruleset(hoard(tmp_path))
    state = new_game(rules, ["Ann", "Ben"], seed=1)
    gain(state, "blue")
    gain(state, "red")
    gain(state, "blue")
    ann, ben = state.player_vars
    assert ann["hoard"] == {"red": 0, "blue": 2} and ben["hoard"] == {"red": 1, "blue": 0}
    assert ann["secret"] == {"red": 0, "blue": 10}
    # score: hoard['red'] + 2 * hoard['blue']
    assert [state.score(0), state.score(1)] == [4, 1]
    # Round 1 went to Ben (seat 1, written as me + 1 = 2); round 2 to Ann so far.
    assert state.game_vars["rounds_won"] == {1: 2, 2: 1, 3: 0}
    # A turn's indexed value starts again every turn.
    assert state.turn_vars["taken"] == {"red": False, "blue": False}
    # The players' values are their own, and the rules' starting values are untouched.
    assert rules.player_vars["hoard"] == {"red": 0, "blue": 0}


def test_a_key_the_variable_lacks_stops_the_game_naming_variable_and_key(
        tmp_path: Path) -> None:
    state = new_game(load_ruleset(hoard(tmp_path)), ["Ann", "Ben"], seed=1)
    with pytest.raises(EngineError, match=r"hoard has no key 'green' \(its keys: 'red', "
                                          r"'blue'\)") as caught:
        gain(state, "green")
    assert "rules.yaml:16: actions.gain.effects[0]" in str(caught.value)


def test_keys_lists_the_keys_in_the_order_declared(tmp_path: Path) -> None:
    effects = ('      - say: "Columns {keys(rounds_won)}, colours {keys(hoard)}."\n'
               "      - end_turn: {}")
    state = new_game(load_ruleset(hoard(tmp_path, effects=effects)), ["Ann", "Ben"], seed=1)
    events = apply(state, Action(0, "gain", (("colour", "red"),)))
    said = [e.data["text"] for e in events if e.kind == "said"]
    assert said == ["Columns [1, 2, 3], colours ['red', 'blue']."]


@pytest.mark.parametrize("called", [False, True])
def test_one_key_is_read_for_other_players_inlined_or_called(tmp_path: Path,
                                                             called: bool) -> None:
    effects = ("""      - add: {"hoard[$colour]": 1}\n"""
               """      - say: "{highest(hoard['blue'])} {of(hoard['red'], 1)} """
               """{total(hoard[$colour])}"\n"""
               "      - end_turn: {}")
    with called_forms() if called else contextlib.nullcontext():
        rules = load_ruleset(hoard(tmp_path, effects=effects))
    state = new_game(rules, ["Ann", "Ben"], seed=1)
    said = []
    for colour in ("blue", "red", "blue"):
        events = apply(state, Action(state.current, "gain", (("colour", colour),)))
        said += [e.data["text"] for e in events if e.kind == "said"]
    # The most blue anyone has, Ben's red, and everyone's count of the colour just gained.
    assert said == ["1 0 1", "1 1 1", "2 1 2"]


def test_state_paths_and_scenario_setup_reach_one_key(tmp_path: Path) -> None:
    state = new_game(load_ruleset(COLUMNS), ["Ann", "Ben"], seed=1)
    state.player_vars[0]["height"][7] = 3
    assert state_value(state, "players.Ann.height.7") == 3
    assert state_value(state, "game.claimed_by.12") == 0
    with pytest.raises(PathError, match="height has no key '13'; its keys are 2 to 12"):
        state_value(state, "players.Ann.height.13")
    game = tmp_path / "fixture_columns"
    shutil.copytree(COLUMNS, game)
    bad = game / "scenarios" / "bad.yaml"
    bad.write_text("name: x\nruleset: fixture_columns\nplayers: [Ann, Ben]\nsetup:\n"
                   "  players:\n    Ann: {height: {13: 1, 7: 'x'}}\nsteps: []\n")
    with pytest.raises(LoadError) as caught:
        load_scenario(bad)
    messages = [f"{p.line}: {p.message}" for p in caught.value.problems]
    assert any(m.startswith("6: height has no key 13; its keys are 2 to 12") for m in messages)
    assert any(m.startswith("6: expected a value like height[7]'s starting value 0") for m in
               messages), messages


# --- copies, saves and hidden values ----------------------------------------------------

def _play(state: GameState, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        if state.game_over:
            return
        apply(state, bots.choose("random", state, rng))


def test_a_saved_game_restores_its_number_keys_and_plays_on_the_same() -> None:
    rules = load_ruleset(COLUMNS)
    state = new_game(rules, ["Ann", "Ben"], seed=4)
    _play(state, 40, seed=1)
    text = json.dumps(state.to_dict())
    restored = GameState.from_dict(rules, json.loads(text))
    assert restored.player_vars[0]["height"] == state.player_vars[0]["height"]
    assert list(restored.player_vars[0]["height"]) == list(range(2, 13))  # numbers again
    assert restored.player_vars[0]["height"] is not state.player_vars[0]["height"]
    _play(state, 400, seed=2)
    _play(restored, 400, seed=2)
    assert restored.to_dict() == state.to_dict()
    assert state.game_over


def test_a_copy_of_a_game_never_shares_an_indexed_value() -> None:
    rules = load_ruleset(COLUMNS)
    state = new_game(rules, ["Ann", "Ben"], seed=4)
    copy = GameState.from_dict(rules, state.to_dict())
    copy.player_vars[0]["height"][7] = 5
    copy.game_vars["claimed_by"][7] = 1
    assert state.player_vars[0]["height"][7] == 0 and state.game_vars["claimed_by"][7] == 0
    assert state.player_vars[1]["height"] is not state.player_vars[0]["height"]
    view = view_for(state, 0)
    view["player_vars"][0]["height"][7] = 9
    assert state.player_vars[0]["height"][7] == 0


def test_an_owner_only_indexed_value_is_hidden_whole_from_the_others(tmp_path: Path) -> None:
    state = new_game(load_ruleset(hoard(tmp_path)), ["Ann", "Ben"], seed=1)
    gain(state, "blue")
    assert view_for(state, 0)["player_vars"][0]["secret"] == {"red": 0, "blue": 5}
    assert view_for(state, 1)["player_vars"][0]["secret"] is None
    assert view_for(state, 1)["player_vars"][0]["hoard"] == {"red": 0, "blue": 1}
    out = io.StringIO()
    show_table(state, out, seat=1)
    assert "Ann: 2  (hoard red:0 blue:1, secret ?)" in out.getvalue()


@pytest.mark.parametrize("policy", ["heuristic", "search"])
def test_bots_play_a_game_with_a_secret_value_per_key_to_the_end(tmp_path: Path,
                                                                policy: str) -> None:
    # Only colours the variables have: every game plays to its end.
    game = GAME.replace("[red, blue, green]", "[red, blue]")
    rules = load_ruleset(write_rules(tmp_path, game.format(VARS=VARS, EFFECTS=EFFECTS)))
    assert rules.hidden_information
    state = new_game(rules, ["Ann", "Ben"], seed=3)
    rng = random.Random(1)
    while not state.game_over:
        apply(state, bots.choose(policy, state, rng))
    # Three rounds of two turns: six gains, each worth 5 secretly.
    assert sum(sum(pv["hoard"].values()) for pv in state.player_vars) == 6
    assert sum(sum(pv["secret"].values()) for pv in state.player_vars) == 30
    assert all(state.game_vars["rounds_won"].values())


# --- display ----------------------------------------------------------------------------

def test_an_indexed_value_is_shown_as_key_value_pairs_never_a_mapping() -> None:
    start = dict.fromkeys(range(2, 13), 0)
    assert shown_value({**start, 7: 3, 9: 1}, start) == "7:3 9:1"
    assert shown_value(start, start) == "all 0"
    assert shown_value({"red": 0, "blue": 2}, {"red": 0, "blue": 0}) == "red:0 blue:2"
    assert shown_value(None, start) == "?"
    assert shown_value(5, 0) == "5"


def test_the_terminal_shows_each_players_columns() -> None:
    state = new_game(load_ruleset(COLUMNS), ["Ann", "Ben"], seed=1)
    state.player_vars[0]["height"][7] = 3
    state.player_vars[0]["height"][9] = 1
    out = io.StringIO()
    show_table(state, out, seat=0)
    text = out.getvalue()
    assert "Ann: 0  (height 7:3 9:1)" in text and "Ben: 0  (height all 0)" in text
    assert "{" not in text


def test_the_table_shows_a_players_columns_on_the_seat_plate(app: object) -> None:
    from dinotable.scenes.setup import Seat
    from dinotable.scenes.table import TableScene
    from dinotable.table.chrome import PlayersPart

    rules = load_ruleset(COLUMNS)
    table = TableScene(app, rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], {}, 3)
    table.state.player_vars[1]["height"][12] = 2
    table.state.version += 1  # the position changed: the table looks again
    table._settle()
    (players,) = [p for p in table.parts if isinstance(p, PlayersPart)]
    look = table.look()
    assert players.counters_text(1, look) == "Height: 12:2"
    assert players.counters_text(0, look) == "Height: all 0"


# --- the fixture game played to the end -------------------------------------------------

@pytest.mark.parametrize(("policy", "games"), [("random", 20), ("heuristic", 20), ("search", 1)])
def test_the_columns_game_is_played_to_the_end_by_every_bot(policy: str, games: int) -> None:
    rules = load_ruleset(COLUMNS)
    for seed in range(games):
        state = new_game(rules, ["Ann", "Ben", "Cat"][:2 + seed % 2], seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if state.game_over:
                break
            apply(state, bots.choose(policy, state, rng))
        assert state.game_over, (policy, seed)
        (winner,) = state.winners
        assert state.player_vars[winner]["columns"] >= 3
        # Each claimed column is at its top for its claimer, and claimed once.
        claimed = state.game_vars["claimed_by"]
        for col, by in claimed.items():
            if by:
                assert state.player_vars[by - 1]["height"][col] >= 3 + min(col - 2, 12 - col) // 2
        assert [sum(1 for by in claimed.values() if by == s + 1)
                for s in range(len(state.players))] == [pv["columns"] for pv in state.player_vars]
