"""Loops, the first player of a round, and a ruleset's own state path aliases."""

from __future__ import annotations

from pathlib import Path

import pytest

from dinotable.engine import EngineError, legal_actions, new_game
from dinotable.engine.paths import PathError, state_value
from dinotable.ruleset import LoadError, load_ruleset
from dinotable.ruleset.loader import load_ruleset as _load

ROLLOFF = Path(__file__).resolve().parent / "fixtures" / "good_rulesets" / "fixture_rolloff"

BASE = """
id: loops
name: Loops
version: 1
players: {min: 2, max: 3}
vars:
  game: {n: 0}
  player: {points: 0}
score: points
round:
  start: ROUND_START
actions:
  go:
    effects: EFFECTS
end: {trigger: "highest(points) >= 1"}
"""


def _rules(tmp_path: Path, effects: str = "[{add: {points: 1}}, {end_turn: {}}]",
           round_start: str = "[]", extra: str = ""):
    folder = tmp_path / "loops"
    folder.mkdir(exist_ok=True)
    text = BASE.replace("EFFECTS", effects).replace("ROUND_START", round_start) + extra
    (folder / "rules.yaml").write_text(text)
    return load_ruleset(folder)


def _problems(tmp_path: Path, **kw: str) -> str:
    with pytest.raises(LoadError) as err:
        _rules(tmp_path, **kw)
    return str(err.value)


def test_repeat_runs_while_its_test_holds(tmp_path: Path) -> None:
    rules = _rules(tmp_path, round_start="[{repeat: {while: 'n < 5', do: [{add: {n: 1}}]}}]")
    state = new_game(rules, ["Ann", "Ben"])
    assert state_value(state, "game.n") == 5


def test_a_repeat_whose_test_never_fails_stops_with_an_engine_error(tmp_path: Path) -> None:
    rules = _rules(tmp_path, round_start="[{repeat: {while: 'n >= 0', limit: 7, "
                                         "do: [{add: {n: 1}}]}}]")
    with pytest.raises(EngineError, match="7 times"):
        new_game(rules, ["Ann", "Ben"])


def test_end_turn_inside_repeat_ends_the_turn(tmp_path: Path) -> None:
    rules = _rules(tmp_path, effects="[{repeat: {while: 'true', do: [{add: {n: 1}}, "
                                     "{end_turn: {}}]}}, {add: {points: 1}}]")
    state = new_game(rules, ["Ann", "Ben"])
    from dinotable.engine import apply
    apply(state, legal_actions(state)[0])
    assert state.current == 1 and state_value(state, "game.n") == 1
    assert state_value(state, "players.Ann.points") == 0


def test_repeat_is_checked_when_the_ruleset_loads(tmp_path: Path) -> None:
    text = _problems(tmp_path, round_start="[{repeat: {whille: 'n < 2', do: []}}]")
    assert "expected repeat: {while: EXPR, do: [EFFECTS]}" in text
    text = _problems(tmp_path, round_start="[{repeat: {while: 'n < 2', do: [], limt: 3}}]")
    assert "unknown key of repeat 'limt' (did you mean 'limit'?)" in text
    text = _problems(tmp_path, round_start="[{repeat: {while: 'nn < 2', do: []}}]")
    assert "unknown name 'nn'" in text
    text = _problems(tmp_path, round_start="[{repeat: {while: 'n < 2', do: [{rol: tray}]}}]")
    assert "unknown effect 'rol'" in text


def test_a_question_cannot_stand_inside_repeat(tmp_path: Path) -> None:
    text = _problems(tmp_path, round_start=(
        "[{repeat: {while: 'n < 2', do: [{choose: pick, args: {x: {domain: choice, "
        "values: [1, 2]}}, then: []}]}}]"))
    assert "cannot stand inside repeat" in text


def test_first_player_makes_a_seat_take_the_rounds_first_turn(tmp_path: Path) -> None:
    rules = _rules(tmp_path, round_start="[{first_player: 2}]")
    state = new_game(rules, ["Ann", "Ben", "Cid"])
    assert state.current == 2


def test_a_rolloff_tie_is_rolled_again_among_the_tied() -> None:
    rules = _load(ROLLOFF)
    state = new_game(rules, ["Ann", "Ben", "Cid"], force=[6, 2, 6, 4, 4, 1, 3])
    assert state.current == 2
    assert state_value(state, "rolloffs") == 3


def test_aliases_read_the_generic_path_they_stand_for() -> None:
    state = new_game(_load(ROLLOFF), ["Ann", "Ben"], force=[1, 6])
    assert state_value(state, "players.Ben.won_rolloff") is True
    assert state_value(state, "players.Ann.won_rolloff") is False
    assert state_value(state, "rolloffs") == state_value(state, "game.rolloffs") == 1
    with pytest.raises(PathError, match="no player 'Zed'"):
        state_value(state, "players.Zed.won_rolloff")


def test_aliases_are_checked_when_the_ruleset_loads(tmp_path: Path) -> None:
    text = _problems(tmp_path, extra="state_aliases: {players.NAME.pts: players.NAM.points}\n")
    assert "unknown placeholder 'NAM' (did you mean 'NAME'?)" in text
    text = _problems(tmp_path, extra="state_aliases: {Bad Path: game.n}\n")
    assert "dotted parts" in text
    text = _problems(tmp_path, extra="state_aliases: [game.n]\n")
    assert "expected a mapping PATTERN: TARGET" in text


def test_first_where_and_count_kind_pick_items_by_property_and_kind(tmp_path: Path) -> None:
    extra = """
properties: {suit: none}
items:
  fern: {type: card, copies: 2, suit: green}
  brook: {type: card, suit: blue}
zones:
  pile: {holds: cards, start: {brook: 1, fern: 2}}
  kept: {holds: cards}
define:
  green_left: "first_where(pile, suit, 'green')"
  ferns_kept: "count_kind(kept, 'fern_2')"
"""
    loop = ("[{repeat: {while: \"green_left != ''\", do: [{move: {from: pile, to: kept, "
            "item: green_left}}, {add: {n: 1}}]}}, {add: {n: 'ferns_kept * 10'}}, "
            "{when: \"first_in(pile) == 'brook'\", then: [{add: {n: 100}}]}]")
    rules = _rules(tmp_path, round_start=loop, extra=extra)
    state = new_game(rules, ["Ann", "Ben"])
    assert state_value(state, "zones.kept.items") == ["fern", "fern_2"]
    assert state_value(state, "zones.pile.items") == ["brook"]
    assert state_value(state, "game.n") == 122


def test_an_option_may_share_a_functions_name(tmp_path: Path) -> None:
    extra = "options:\n  length: {default: full, choices: [full, short]}\n"
    rules = _rules(tmp_path, round_start="[{when: \"length == 'short'\", then: [{add: {n: 1}}]}]",
                   extra=extra)
    assert state_value(new_game(rules, ["Ann", "Ben"], options={"length": "short"}),
                       "game.n") == 1
    text = _problems(tmp_path, extra="options:\n  current: 1\n")
    assert "'current' is a reserved name" in text
