"""What a ruleset author meets: number faces named everywhere, unknown faces in state paths,
cards placed out of a shuffled deck, an action's `when` reading its arguments, per-player
starts against the copies a box holds, the order re-rolled dice are forced in, item
properties summed on a board, and named expressions with parameters."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from dinotable.check import run_scenario
from dinotable.ruleset import LoadError, load_ruleset
from dinotable.scenarios import load_scenario


def scenario(folder: Path, text: str) -> tuple[bool, str]:
    """Write a scenario for the ruleset in `folder`, run it, and give (passed, reason)."""
    (folder / "scenarios").mkdir(exist_ok=True)
    path = folder / "scenarios" / "scenario.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    result = run_scenario(load_scenario(path))
    return result.passed, result.reason


# --- number faces ----------------------------------------------------------------------

NUMBER_DICE = """
id: number_dice
name: Number Dice
version: 1
players: {min: 2, max: 2}
dice:
  d6: {faces: [1, 2, 3, 4, 5, 6]}
zones:
  tray: {holds: dice, start: {d6: 3}}
  sixes: {holds: dice}
vars:
  player: {points: 0}
score: points
actions:
  roll:
    effects:
      - roll: tray
      - add: {points: "count(tray, 6)"}
      - move_faces: {from: tray, face: 6, to: sixes}
      - end_turn: {}
end:
  trigger: "highest(points) >= 10"
"""


def test_number_faces_are_counted_moved_and_read_by_state_paths(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(NUMBER_DICE)
    passed, reason = scenario(folder, """
        name: sixes
        ruleset: number_dice
        players: [Ann, Ben]
        steps:
          - force: [6, 2, 6]
          - act: roll
          - expect:
              state: {players.Ann.points: 2, zones.sixes.faces.6: 2, zones.tray.faces.2: 1,
                      zones.sixes.size: 2}
        """)
    assert passed, reason


def test_a_state_path_naming_a_number_face_reads_what_the_dice_show(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(NUMBER_DICE)
    passed, reason = scenario(folder, """
        name: a wrong expectation
        ruleset: number_dice
        players: [Ann, Ben]
        steps:
          - force: [6, 2, 6]
          - act: roll
          - expect: {state: {zones.sixes.faces.6: 0}}
        """)
    assert not passed
    assert "zones.sixes.faces.6" in reason and "2" in reason


def test_an_unknown_number_face_in_move_faces_lists_the_faces(
        load_text_ruleset: Callable[[str], object]) -> None:
    with pytest.raises(LoadError) as info:
        load_text_ruleset(NUMBER_DICE.replace("face: 6", "face: 7"))
    assert "unknown face '7'" in str(info.value)
    assert "1, 2, 3, 4, 5, 6" in str(info.value)


def test_an_unknown_number_face_in_count_is_refused(
        load_text_ruleset: Callable[[str], object]) -> None:
    with pytest.raises(LoadError) as info:
        load_text_ruleset(NUMBER_DICE.replace("count(tray, 6)", "count(tray, 9)"))
    assert "unknown face 9" in str(info.value)


# --- unknown faces in state paths --------------------------------------------------------

@pytest.mark.parametrize("face", ["seven", "7"])
def test_an_unknown_face_in_a_state_path_fails_naming_the_faces_there_are(
        write_ruleset: Callable[[str], Path], face: str) -> None:
    folder = write_ruleset(NUMBER_DICE)
    passed, reason = scenario(folder, f"""
        name: a misspelt face
        ruleset: number_dice
        players: [Ann, Ben]
        steps:
          - expect: {{state: {{zones.tray.faces.{face}: 0}}}}
        """)
    assert not passed
    assert f"no face '{face}'" in reason
    assert "1, 2, 3, 4, 5, 6" in reason


# --- cards placed and moved out of a shuffled deck -----------------------------------------

RANCH = """
id: ranch
name: Ranch
version: 1
players: {min: 2, max: 2}
properties: {points: 0}
items:
  egg: {type: card, points: 1}
  fern: {type: card, points: 2}
  rex: {type: card, points: 5}
boards:
  ranch: {spaces: [near, far], holds: cards}
zones:
  deck: {holds: cards, order: deck, visible: none, start: all}
  hand: {holds: cards}
vars:
  game: {top: none, herd: 0}
score: 0
actions:
  settle:
    effects:
      - place: {from: deck, board: ranch, space: "'near'"}
  gather:
    effects:
      - move_all: {from: deck, to: hand}
      - set: {top: "first_in(hand)"}
end:
  trigger: "size(deck) == 0"
state_paths:
  - game.top
"""


def test_place_from_a_shuffled_deck_takes_the_card_chance_puts_on_top(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(RANCH)
    passed, reason = scenario(folder, """
        name: the forced card is the one placed
        ruleset: ranch
        players: [Ann, Ben]
        steps:
          - force: [rex]
          - act: settle
          - expect: {state: {zones.ranch@near.items: [rex], zones.deck.size: 2}}
        """)
    assert passed, reason


def test_moving_a_whole_shuffled_deck_settles_its_cards_in_the_forced_order(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(RANCH)
    passed, reason = scenario(folder, """
        name: the whole deck taken in hand
        ruleset: ranch
        players: [Ann, Ben]
        steps:
          - force: [fern, rex]
          - act: gather
          - expect: {state: {game.top: fern, zones.hand.items: [fern, rex, egg]}}
        """)
    assert passed, reason


# --- item properties on a board ---------------------------------------------------------

def test_item_property_functions_read_a_board(write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(RANCH.replace("score: 0", 'score: "sum_prop(ranch, points)"').replace(
        "      - place: {from: deck, board: ranch, space: \"'near'\"}\n",
        "      - place: {from: deck, board: ranch, space: \"'near'\"}\n"
        "      - set: {herd: \"count_where(ranch, points, 5) + distinct(ranch, points) * 10\"}\n"))
    passed, reason = scenario(folder, """
        name: points on the ranch
        ruleset: ranch
        players: [Ann, Ben]
        steps:
          - expect: {scores: {Ann: 0, Ben: 0}}
          - force: [rex]
          - act: settle
          - expect: {scores: {Ann: 5, Ben: 5}, state: {game.herd: 11}}
          - force: [egg]
          - act: settle
          - expect: {scores: {Ann: 6, Ben: 6}, state: {game.herd: 21}}
        """)
    assert passed, reason


# --- a per-player start against the copies in the box --------------------------------------

MEDALS = """
id: medals
name: Medals
version: 1
players: {min: 2, max: 4}
items:
  medal: {type: token, copies: COPIES}
zones:
  shelf: {holds: tokens, per_player: true, start: {medal: 1}}
score: 0
actions:
  pass:
    effects: [{end_turn: {}}]
end:
  trigger: "round > 1"
"""


def test_a_per_player_start_is_counted_once_for_each_seat(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(MEDALS.replace("COPIES", "1"))
    with pytest.raises(LoadError) as info:
        load_ruleset(folder)
    message = str(info.value)
    assert f"{folder / 'rules.yaml'}:8:" in message  # the line of the shelf's start
    assert "start with 4 of 'medal'" in message and "copies: 1" in message
    assert "each player's own" in message


def test_enough_copies_for_every_seat_load(write_ruleset: Callable[[str], Path]) -> None:
    from dinotable.engine import new_game

    rules = load_ruleset(write_ruleset(MEDALS.replace("COPIES", "4")))
    state = new_game(rules, ["Ann", "Ben", "Cy", "Di"])
    assert [len(state.zone("shelf", seat)) for seat in range(4)] == [1, 1, 1, 1]


# --- an action's `when` reading one of its arguments ---------------------------------------

KEEPERS = """
id: keepers
name: Keepers
version: 1
players: {min: 2, max: 2}
dice:
  d6: {faces: [1, 2, 3, 4, 5, 6]}
zones:
  tray: {holds: dice, start: {d6: 3}}
vars:
  player: {points: 0}
score: points
actions:
  keep:
    when: WHEN
    args: ARGS
    effects: [{end_turn: {}}]
end:
  trigger: "round > 1"
"""


@pytest.mark.parametrize(("args", "when", "hint"), [
    ("{dice: {domain: subset_of, zone: tray}}", "length($dice) > 1", "`test:`"),
    ("{whom: other_player}", "of(points, $whom) > 0", "with a when form"),
])
def test_a_when_reading_an_argument_says_where_argument_tests_belong(
        load_text_ruleset: Callable[[str], object], args: str, when: str, hint: str) -> None:
    with pytest.raises(LoadError) as info:
        load_text_ruleset(KEEPERS.replace("ARGS", args).replace("WHEN", f'"{when}"'))
    message = str(info.value)
    assert "rules.yaml:14:" in message  # the line of the action's when
    assert "is not an argument" not in message
    assert "is an argument of this action" in message and "cannot read" in message
    assert hint in message


def test_the_argument_test_the_message_points_to_works(
        load_text_ruleset: Callable[[str], object]) -> None:
    from dinotable.engine import legal_actions, new_game

    rules = load_text_ruleset(KEEPERS.replace("WHEN", "true").replace(
        "ARGS", '{dice: {domain: subset_of, zone: tray, test: "length($dice) > 1"}}'))
    state = new_game(rules, ["Ann", "Ben"])  # type: ignore[arg-type]
    sizes = sorted(len(dict(a.args)["dice"]) for a in legal_actions(state))
    assert sizes == [2, 2, 2, 3]


# --- the order dice rolled together are forced in -----------------------------------------

REROLL = """
id: reroll_order
name: Re-roll Order
version: 1
players: {min: 2, max: 2}
dice:
  die: {faces: [1, 2, 3, 4, 5, 6]}
zones:
  cup: {holds: dice, blind: true, start: {die: 1}}
  kept: {holds: dice, start: {die: 1}}
  tray: {holds: dice}
vars:
  game: {drawn: 0, kept_die: 0}
score: 0
actions:
  warm:
    effects: [{roll: kept}]
  play:
    effects:
      - move_all: {from: cup, to: tray}
      - move_all: {from: kept, to: tray}
      - roll: tray
      - set: {drawn: "value('die1')", kept_die: "value('die2')"}
  again:
    effects:
      - roll: tray
      - set: {drawn: "value('die1')", kept_die: "value('die2')"}
end:
  trigger: "round > 3"
"""


def test_a_re_rolled_die_takes_the_first_forced_outcome_before_a_newly_drawn_one(
        write_ruleset: Callable[[str], Path]) -> None:
    # The tray lists the drawn die (die1) before the one moved in showing a face (die2);
    # the rule is: dice being re-rolled first, in the order last rolled, then those drawn.
    folder = write_ruleset(REROLL)
    passed, reason = scenario(folder, """
        name: re-rolled first
        ruleset: reroll_order
        players: [Ann, Ben]
        steps:
          - force: [4]
          - act: warm
          - force: [6, 1]
          - act: play
          - expect: {state: {game.kept_die: 6, game.drawn: 1}}
          # Both now re-rolled: in the order they were last rolled, the kept die first.
          - force: [2, 3]
          - act: again
          - expect: {state: {game.kept_die: 2, game.drawn: 3}}
        """)
    assert passed, reason


# --- named expressions with parameters -------------------------------------------------------

FARKLE = """
id: farkle_lite
name: Farkle Lite
version: 1
players: {min: 2, max: 2}
dice:
  die: {faces: [1, 2, 3, 4, 5, 6]}
zones:
  tray: {holds: dice, start: {die: 3}}
  kept: {holds: dice}
vars:
  player: {banked: 0}
  turn: {pot: 0}
define:
  points(face, each): "with_value(tray, face) * each + (1000 if with_value(tray, face) == 3 else 0)"
  best_of(a, b): "max(a, b)"
  roll_points: "best_of(points(1, 100), points(5, 50))"
score: banked
actions:
  roll:
    effects:
      - roll: tray
      - set: {pot: roll_points}
      - add: {banked: "pot + points(6, 0)"}
      - end_turn: {}
end:
  trigger: "highest(banked) >= 5000"
state_paths:
  - turn.pot
"""


def test_a_definition_with_parameters_is_used_twice_with_different_arguments(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset(FARKLE)
    passed, reason = scenario(folder, """
        name: ones and fives
        ruleset: farkle_lite
        players: [Ann, Ben]
        steps:
          - force: [1, 5, 5]
          - act: roll
          - expect: {scores: {Ann: 100}}
          - force: [5, 5, 5]
          - act: roll
          - expect: {scores: {Ben: 1150}}
          - force: [6, 6, 6]
          - act: roll
          - expect: {scores: {Ann: 1100}}
        """)
    assert passed, reason


def test_a_parameter_keeps_the_callers_value_inside_a_function_over_players(
        load_text_ruleset: Callable[[str], object]) -> None:
    # `a` is the value the caller gave (Ann's banked, 0), not `banked` read for each player.
    from dinotable.engine import Action, apply, new_game, scores

    rules = load_text_ruleset(FARKLE.replace(
        '  best_of(a, b): "max(a, b)"',
        '  best_of(a, b): "max(a, b) + highest(a) - a + of(a, left_of(me)) - a"').replace(
        'roll_points: "best_of(points(1, 100), points(5, 50))"',
        'roll_points: "best_of(banked, 0) + 1"'))
    state = new_game(rules, ["Ann", "Ben"], force=[2, 2, 2])  # type: ignore[arg-type]
    state.player_vars[1]["banked"] = 500
    apply(state, Action(0, "roll"))
    assert scores(state) == [1, 500]


@pytest.mark.parametrize(("change", "said"), [
    (('roll_points: "best_of(points(1, 100), points(5, 50))"',
      'roll_points: "best_of(points(1, 100))"'),
     "best_of() takes 2 argument(s), not 1: best_of(a, b)"),
    (('best_of(a, b): "max(a, b)"', 'best_of(a, b): "max(a, c)"'), "unknown name 'c'"),
    (('best_of(a, b): "max(a, b)"', 'best_of(a, b): "max(a, best_of(b, a))"'),
     "in a circle: best_of -> best_of"),
    (('roll_points: "best_of(points(1, 100), points(5, 50))"',
      "roll_points: \"points(1, 'lots')\""),
     "points() with face = 1, each = 'lots': arithmetic on a text"),
    (('best_of(a, b): "max(a, b)"', 'best_of(a, banked): "max(a, banked)"'),
     "the parameter 'banked' is already the name of"),
    (('roll_points: "best_of(points(1, 100), points(5, 50))"', 'roll_points: "best_of + 1"'),
     "best_of takes parameters: call it as best_of(a, b)"),
    (('best_of(a, b): "max(a, b)"', 'best_of(a, a): "a"'), "'a' is named twice"),
])
def test_a_wrong_definition_with_parameters_is_a_located_load_error(
        load_text_ruleset: Callable[[str], object], change: tuple[str, str], said: str) -> None:
    old, new = change
    assert old in FARKLE
    with pytest.raises(LoadError) as info:
        load_text_ruleset(FARKLE.replace(old, new))
    message = str(info.value)
    assert said in message
    assert "rules.yaml:" in message and "define." in message
