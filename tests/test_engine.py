"""The rules engine through its public API: turn flow, refusals, chance, options, views, events."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from dinotable.engine import (
    Action,
    ChanceError,
    Event,
    GameState,
    IllegalAction,
    Rules,
    apply,
    legal_actions,
    new_game,
    scores,
    view_for,
    why_illegal,
)
from dinotable.engine.paths import state_value

# A tiny game: draw two coins from a bag, score the hits, then pass. Each player also has a
# secret coin only they may look at.
TINY = """
id: tiny_coins
name: Tiny Coins
version: 1
players: {min: 2, max: 3}
options:
  goal: {default: 6, min: 1, max: 30}
dice:
  coin: {faces: [hit, miss]}
zones:
  bag: {holds: dice, blind: true, start: {coin: 4}}
  tray: {holds: dice}
  secret: {holds: dice, per_player: true, visible: owner, start: {coin: 1}}
  vault: {holds: dice, visible: none, start: {coin: 1}}
vars:
  player: {points: 0}
  turn: {rolled: false}
score: points
turn:
  end:
    - move_all: {from: tray, to: bag}
actions:
  roll:
    when: "not rolled"
    why_not: You have rolled already this turn.
    effects:
      - draw: {from: bag, to: tray, count: 2}
      - roll: {zone: tray}
      - add: {points: "count(tray, hit)"}
      - set: {rolled: true}
      - say: "{player} hits {count(tray, hit)} and has {points}."
  peek:
    when: rolled
    effects:
      - roll: {zone: secret}
  pass:
    when: rolled
    why_not: Roll before you pass.
    effects:
      - end_turn: {}
end:
  trigger: "highest(points) >= goal"
"""

NAMES = ["Ann", "Ben"]


@pytest.fixture
def tiny(load_text_ruleset: Callable[[str], Rules]) -> Rules:
    return load_text_ruleset(TINY)


def ids(actions: list[Action]) -> list[str]:
    return [a.id for a in actions]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def play_random(rules: Rules, seed: int, players: list[str] = NAMES, record: bool = True,
                options: dict[str, object] | None = None) -> tuple[GameState, list[Event]]:
    """A whole game with a seeded random chooser; the state and every event."""
    state = new_game(rules, players, options, seed)
    chooser = random.Random(seed)
    events: list[Event] = []
    while not state.game_over:
        legal = legal_actions(state)
        events += apply(state, legal[chooser.randrange(len(legal))], record=record)
    return state, events


# --- legal actions and refusals ------------------------------------------------


@pytest.mark.parametrize("which", ["tiny", "dhd"])
def test_at_the_start_of_a_turn_the_only_legal_action_is_roll(
        which: str, request: pytest.FixtureRequest) -> None:
    rules = request.getfixturevalue(which)
    state = new_game(rules, NAMES, seed=1)
    assert state.current == 0
    assert legal_actions(state) == [Action(0, "roll")]


def test_legal_actions_of_a_player_who_is_not_to_play_is_empty(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, seed=1)
    assert legal_actions(state, 1) == []
    assert legal_actions(state, 0) == [Action(0, "roll")]


def test_after_a_roll_that_does_not_end_the_turn_roll_and_stop_are_legal(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, seed=1)
    state.chance.force(["green", "green", "green", "dino", "leaves", "footprint"])
    apply(state, Action(0, "roll"))
    assert sorted(ids(legal_actions(state))) == ["roll", "stop"]


def test_an_illegal_action_is_refused_with_the_rulesets_reason_and_the_state_unchanged(
        dhd: Rules) -> None:
    state = new_game(dhd, NAMES, seed=1)
    before = json.dumps(state.to_dict())
    with pytest.raises(IllegalAction, match="Roll at least once before you stop"):
        apply(state, Action(0, "stop"))
    assert json.dumps(state.to_dict()) == before
    assert why_illegal(state, Action(0, "stop")) == "Roll at least once before you stop."
    assert why_illegal(state, Action(0, "roll")) is None


def test_another_players_action_is_refused_naming_whose_turn_it_is(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="it is Ann's turn, not Ben's"):
        apply(state, Action(1, "roll"))
    assert state.to_dict() == before


@pytest.mark.parametrize("action, reason", [
    (Action(0, "rol"), "has no action 'rol' (did you mean 'roll'?)"),
    (Action(7, "roll"), "there is no seat 7"),
    (Action(0, "roll", (("dice", 3),)), "roll takes no argument 'dice'"),
])
def test_an_unknown_action_seat_or_argument_is_refused_with_a_reason(
        dhd: Rules, action: Action, reason: str) -> None:
    state = new_game(dhd, NAMES, seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert reason in str(info.value)
    assert state.to_dict() == before


def test_a_custom_why_not_is_the_reason_and_a_default_reason_names_the_action(
        tiny: Rules) -> None:
    state = new_game(tiny, NAMES, seed=1)
    assert why_illegal(state, Action(0, "pass")) == "Roll before you pass."
    assert why_illegal(state, Action(0, "peek")) == "Peek is not possible now"
    apply(state, Action(0, "roll"))
    assert why_illegal(state, Action(0, "roll")) == "You have rolled already this turn."


def test_no_action_is_legal_once_the_game_is_over(dhd: Rules) -> None:
    state, _ = play_random(dhd, seed=3)
    assert state.game_over
    assert legal_actions(state) == []
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="the game is over"):
        apply(state, Action(state.current, "roll"))
    assert state.to_dict() == before


# --- chance ------------------------------------------------------------------


def test_forced_outcomes_are_used_in_order_draws_then_faces(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, seed=1)
    state.chance.force(["red", "green", "yellow", "footprint", "dino", "leaves"])
    events = apply(state, Action(0, "roll"))
    (drew,) = [e for e in events if e.kind == "drew"]
    assert drew.data["kinds"] == ["red", "green", "yellow"]
    (rolled,) = [e for e in events if e.kind == "rolled"]
    assert [(kind, face) for _, kind, face in rolled.data["dice"]] == [
        ("red", "footprint"), ("green", "dino"), ("yellow", "leaves")]
    assert state_value(state, "zones.stomped.red") == 1
    assert state_value(state, "zones.caught.green") == 1
    assert state_value(state, "zones.hand.yellow") == 1
    assert list(state.chance.forced) == []


def test_dice_rerolled_come_first_then_new_dice_in_the_order_drawn(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, seed=1)
    state.chance.force(["yellow", "green", "green", "leaves", "dino", "dino"])
    apply(state, Action(0, "roll"))
    state.chance.force(["red", "red", "footprint", "dino", "leaves"])
    events = apply(state, Action(0, "roll"))
    (rolled,) = [e for e in events if e.kind == "rolled"]
    assert [(kind, face) for _, kind, face in rolled.data["dice"]] == [
        ("yellow", "footprint"), ("red", "dino"), ("red", "leaves")]


def test_a_forced_draw_may_name_an_item_id(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, seed=1)
    state.chance.force(["red2", "green4", "yellow", "dino", "dino", "dino"])
    events = apply(state, Action(0, "roll"))
    (drew,) = [e for e in events if e.kind == "drew"]
    assert drew.data["items"][:2] == ["red2", "green4"]


def test_an_impossible_forced_face_raises_chance_error_naming_the_outcome(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, seed=1)
    state.chance.force(["green", "green", "green", "dino", "purple"])
    with pytest.raises(ChanceError) as info:
        apply(state, Action(0, "roll"))
    message = str(info.value)
    assert "'purple'" in message
    assert "rolling" in message
    assert "dino" in message and "footprint" in message  # the possible faces are listed


def test_an_impossible_forced_draw_raises_chance_error_naming_the_kind(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, seed=1)
    state.chance.force(["red", "red", "red"])  # the cup holds only two red dice
    before = state.to_dict()
    with pytest.raises(ChanceError) as info:
        apply(state, Action(0, "roll"))
    assert "'red'" in str(info.value)
    assert "drawing from cup" in str(info.value)
    # Nothing of the half-played roll is left behind: dice, log and the forced queue.
    assert state.to_dict() == before
    assert [a.id for a in legal_actions(state)] == ["roll"]


def test_a_save_from_other_rules_is_refused_by_name(dhd: Rules) -> None:
    data = new_game(dhd, NAMES, seed=1).to_dict()
    data["version"] = dhd.version + 1
    with pytest.raises(ValueError, match="saved with 'dino_hunt_dice' version"):
        GameState.from_dict(dhd, data)


def test_the_same_seed_plays_the_same_game(dhd: Rules) -> None:
    a, events_a = play_random(dhd, seed=42)
    b, events_b = play_random(dhd, seed=42)
    assert a.to_dict() == b.to_dict()
    assert events_a == events_b


def test_different_seeds_play_different_games(dhd: Rules) -> None:
    games = {json.dumps(play_random(dhd, seed=s)[0].to_dict()["log"]) for s in range(6)}
    assert len(games) == 6


def test_the_seed_alone_decides_chance_not_the_order_of_state_reads(dhd: Rules) -> None:
    # Reading legal actions, views and scores must not consume randomness.
    plain = new_game(dhd, NAMES, seed=9)
    busy = new_game(dhd, NAMES, seed=9)
    for _ in range(5):
        for s in (0, 1, None):
            view_for(busy, s)
        scores(busy)
        legal_actions(busy, 1)
        apply(plain, legal_actions(plain)[0])
        apply(busy, legal_actions(busy)[0])
        assert plain.to_dict() == busy.to_dict()


# --- options and seats ---------------------------------------------------------


def test_the_goal_option_defaults_to_twenty(dhd: Rules) -> None:
    state = new_game(dhd, NAMES)
    assert state.options == {"goal": 20}
    assert state_value(state, "options.goal") == 20


def test_a_chosen_goal_decides_when_the_last_round_starts(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, {"goal": 5}, seed=1)
    state.chance.force(["green"] * 3 + ["dino"] * 3 + ["green", "green", "yellow"]
                       + ["dino", "dino", "leaves"])
    apply(state, Action(0, "roll"))
    apply(state, Action(0, "roll"))
    events = apply(state, Action(0, "stop"))
    assert "last_round" in kinds(events)
    assert state.last_round and not state.game_over
    assert state.current == 1  # the round is finished: Ben still plays
    # Who reached it is told, in the ruleset's words, before the last round is announced.
    said = [e.data["text"] for e in events if e.kind == "said"]
    assert f"{NAMES[0]} has reached the goal of 5!" in said


@pytest.mark.parametrize("options, message", [
    ({"gaol": 10}, "dino_hunt_dice has no option 'gaol' (did you mean 'goal'?)"),
    ({"goal": 4}, "option goal must be from 5 to 50, not 4"),
    ({"goal": 51}, "option goal must be from 5 to 50, not 51"),
    ({"goal": "ten"}, "option goal must be a whole number, not 'ten'"),
    ({"goal": True}, "option goal must be a whole number, not True"),
])
def test_an_unknown_option_or_a_bad_value_raises_value_error_saying_what_is_wrong(
        dhd: Rules, options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as info:
        new_game(dhd, NAMES, options)
    assert str(info.value) == message


@pytest.mark.parametrize("players", [["Ann"], [f"P{i}" for i in range(7)]])
def test_a_player_count_outside_the_rulesets_range_raises_value_error(
        dhd: Rules, players: list[str]) -> None:
    with pytest.raises(ValueError, match=f"seats 2 to 6 players, not {len(players)}"):
        new_game(dhd, players)


def test_two_players_with_the_same_name_raise_value_error(dhd: Rules) -> None:
    with pytest.raises(ValueError, match="different name"):
        new_game(dhd, ["Ann", "Ann"])


def test_the_first_listed_player_starts_and_turns_follow_seat_order(dhd: Rules) -> None:
    state = new_game(dhd, ["Ann", "Ben", "Cat"], seed=1)
    seen = [state.current]
    for _ in range(3):
        state.chance.force(["red", "red", "yellow", "footprint", "footprint", "footprint"])
        apply(state, Action(state.current, "roll"))
        seen.append(state.current)
    assert seen == [0, 1, 2, 0]
    assert state.round == 2


# --- game end ------------------------------------------------------------------


def _bank_five(state: GameState) -> None:
    seat = state.current
    state.chance.force(["green"] * 3 + ["dino"] * 3 + ["green", "green", "yellow"]
                       + ["dino", "dino", "leaves"])
    apply(state, Action(seat, "roll"))
    apply(state, Action(seat, "roll"))
    apply(state, Action(seat, "stop"))


def _bust(state: GameState) -> list[Event]:
    state.chance.force(["red", "red", "yellow", "footprint", "footprint", "footprint"])
    return apply(state, Action(state.current, "roll"))


def test_the_game_ends_after_the_round_in_which_the_goal_is_reached(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, {"goal": 5}, seed=1)
    _bank_five(state)
    events = _bust(state)
    assert state.game_over
    assert state.winners == [0]
    assert kinds(events)[-1] == "game_over"
    assert events[-1].data == {"winners": [0]}
    assert scores(state) == [5, 0]


def test_a_tie_for_the_lead_is_replayed_by_the_leaders_only(dhd: Rules) -> None:
    state = new_game(dhd, ["Ann", "Ben", "Cat"], {"goal": 5}, seed=1)
    _bank_five(state)
    _bust(state)  # Ben
    _bank_five(state)  # Cat ties Ann
    assert state.tiebreak and not state.game_over
    assert state.current == 0
    _bust(state)  # Ann
    assert state.current == 2  # Ben sits the tiebreak out
    state.chance.force(["green"] * 3 + ["dino", "leaves", "leaves"])
    apply(state, Action(2, "roll"))
    events = apply(state, Action(2, "stop"))
    assert state.game_over
    assert state.winners == [2]
    assert "game_over" in kinds(events)


# --- views ---------------------------------------------------------------------


def test_a_zone_visible_to_its_owner_is_hidden_from_the_other_seats(tiny: Rules) -> None:
    state = new_game(tiny, NAMES, seed=5)
    apply(state, Action(0, "roll"))
    apply(state, Action(0, "peek"))
    mine = state.zones["secret"][0]
    (item,) = [state.items[i] for i in mine]
    assert item.face in ("hit", "miss")

    own = view_for(state, 0)["zones"]["secret"]
    assert own[0] == [(item.id, "coin", item.face)]
    assert own[1] == {"size": 1}
    other = view_for(state, 1)["zones"]["secret"]
    assert other[0] == {"size": 1}
    assert isinstance(other[1], list)
    assert item.id not in json.dumps(view_for(state, 1))
    assert view_for(state, None)["zones"]["secret"] == [{"size": 1}, {"size": 1}]


def test_a_zone_visible_to_none_shows_only_its_size_even_to_its_seat(tiny: Rules) -> None:
    state = new_game(tiny, NAMES, seed=5)
    for seat in (0, 1, None):
        assert view_for(state, seat)["zones"]["vault"] == {"size": 1}


def test_a_public_zone_shows_its_items_and_faces_to_everyone(tiny: Rules) -> None:
    state = new_game(tiny, NAMES, seed=5)
    apply(state, Action(0, "roll"))
    tray = [(state.items[i].id, "coin", state.items[i].face) for i in state.zones["tray"][0]]
    assert len(tray) == 2
    for seat in (0, 1, None):
        view = view_for(state, seat)
        assert view["zones"]["tray"] == tray
        assert view["current"] == 0
        assert view["players"] == NAMES
        assert view["scores"] == scores(state)


# --- events --------------------------------------------------------------------


def test_events_name_what_happened_in_words_and_data(tiny: Rules) -> None:
    state = new_game(tiny, NAMES, seed=1)
    state.chance.force(["coin", "coin", "hit", "miss"])
    events = apply(state, Action(0, "roll"))
    assert kinds(events) == ["action", "drew", "rolled", "changed", "said"]
    drew, rolled, said = events[1], events[2], events[4]
    assert drew.seat == 0
    assert drew.data["from"] == "bag" and drew.data["to"] == "tray"
    assert drew.data["kinds"] == ["coin", "coin"]
    assert [face for _, _, face in rolled.data["dice"]] == ["hit", "miss"]
    assert said.data["text"] == "Ann hits 1 and has 1."

    events = apply(state, Action(0, "pass"))
    assert kinds(events) == ["action", "moved", "turn_ended", "turn_started"]
    moved, ended, started = events[1], events[2], events[3]
    assert moved.data == {"from": "tray", "to": "bag", "from_owner": None, "to_owner": None,
                          "items": drew.data["items"]}
    assert (ended.seat, started.seat) == (0, 1)


def test_dino_hunt_dice_says_what_a_stop_banks(dhd: Rules) -> None:
    state = new_game(dhd, NAMES, seed=1)
    state.chance.force(["green", "green", "red", "dino", "dino", "footprint"])
    apply(state, Action(0, "roll"))
    events = apply(state, Action(0, "stop"))
    said = [e.data["text"] for e in events if e.kind == "said"]
    assert said == ["Ann stops and banks 2, for 2 in all."]
    assert "turn_ended" in kinds(events)


def test_without_recording_no_events_are_built_but_the_game_is_the_same(dhd: Rules) -> None:
    recorded, events = play_random(dhd, seed=11)
    silent, none = play_random(dhd, seed=11, record=False)
    assert events and none == []
    assert silent.to_dict() == recorded.to_dict()


def test_apply_without_recording_returns_an_empty_list_each_time(tiny: Rules) -> None:
    state = new_game(tiny, NAMES, seed=1)
    assert apply(state, Action(0, "roll"), record=False) == []
    assert apply(state, Action(0, "pass"), record=False) == []
    assert state.current == 1


# --- serialisation and ruleset text ----------------------------------------------


def test_a_saved_state_restores_exactly_after_a_json_round_trip(dhd: Rules) -> None:
    state = new_game(dhd, ["Ann", "Ben", "Cat"], seed=4)
    state.chance.force(["green"])
    apply(state, Action(0, "roll"))
    data = json.loads(json.dumps(state.to_dict()))
    restored = GameState.from_dict(dhd, data)
    assert restored.to_dict() == state.to_dict()
    assert legal_actions(restored) == legal_actions(state)
    assert view_for(restored, 1) == view_for(state, 1)


def test_a_copied_game_rolls_what_the_game_would_and_plays_on_apart_from_it(
        dhd: Rules) -> None:
    """A bot weighs a move on a copy: the copy's dice fall as the game's would, forced
    outcomes still waiting included, and playing the copy out leaves the game untouched."""
    state = new_game(dhd, ["Ann", "Ben", "Cat"], seed=9)
    apply(state, Action(0, "roll"))
    state.chance.force(["red", "green"])
    before = state.to_dict()
    copy = state.copy()
    assert copy.to_dict() == before
    for game in (copy, state):
        rng = random.Random(3)
        while not game.game_over:
            legal = legal_actions(game)
            apply(game, legal[int(rng.random() * len(legal))], False)
        if game is copy:
            assert state.to_dict() == before  # the copy's whole game changed nothing here
    assert copy.to_dict() == state.to_dict()


def test_ruleset_text_is_shown_as_written_and_never_run_as_python(
        load_text_ruleset: Callable[[str], Rules], tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    run_it = f"__import__('os').system('touch {marker}')"
    words = f"\"\"\" + {run_it} + \"\"\" ' \\n \\\" + {run_it} + \" "
    constant = f"x') + {run_it} + ('"  # a string constant inside an expression
    text = TINY.replace("id: tiny_coins", "id: quoted_coins").replace(
        'say: "{player} hits {count(tray, hit)} and has {points}."',
        "say: " + json.dumps(words + "{player}")).replace(
        'when: "not rolled"', "when: " + json.dumps(f'not rolled and "{constant}" != ""'))
    rules = load_text_ruleset(text)
    state = new_game(rules, NAMES, seed=1)
    assert legal_actions(state) == [Action(0, "roll")]
    events = apply(state, Action(0, "roll"))
    (said,) = [e for e in events if e.kind == "said"]
    assert said.data["text"] == words + "Ann"
    assert not marker.exists()


# --- action arguments ------------------------------------------------------------

ARGS = """
id: gifts
name: Gifts
version: 1
players: {min: 2, max: 4}
vars:
  player: {points: 0}
score: points
actions:
  give:
    args: {target: other_player}
    effects:
      - add: {points: 1, player: "$target"}
      - end_turn: {}
  pick:
    args:
      colour: {domain: choice, values: [red, blue]}
    effects:
      - say: "{player} picks {$colour}."
end:
  trigger: "highest(points) >= 5"
"""


def test_every_argument_choice_is_its_own_legal_action(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    state = new_game(load_text_ruleset(ARGS), ["Ann", "Ben", "Cat"])
    assert legal_actions(state) == [
        Action(0, "give", (("target", 1),)), Action(0, "give", (("target", 2),)),
        Action(0, "pick", (("colour", "red"),)), Action(0, "pick", (("colour", "blue"),))]
    events = apply(state, Action(0, "pick", (("colour", "blue"),)))
    assert [e.data["text"] for e in events if e.kind == "said"] == ["Ann picks blue."]
    apply(state, Action(0, "give", (("target", 2),)))
    assert scores(state) == [0, 0, 1]
    assert state.current == 1


def test_an_argument_outside_its_domain_is_refused_listing_the_choices(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    state = new_game(load_text_ruleset(ARGS), ["Ann", "Ben", "Cat"])
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        apply(state, Action(0, "give", (("target", 0),)))
    assert str(info.value) == "'Ann' is not a choice for target now; the choices are ['Ben', 'Cat']"
    with pytest.raises(IllegalAction, match="give needs the argument 'target'"):
        apply(state, Action(0, "give"))
    assert state.to_dict() == before


# --- expressions ---------------------------------------------------------------

# Each is evaluated by the engine with a = 7, b = 3, t = true and must give what Python gives.
EXPRESSIONS = [
    "a - b - 1", "a - (b - 1)", "-a + b", "a * -b", "a - -b", "(a + b) * 2", "a + b * 2",
    "a // b % 2", "a % b * 2", "-(a - b) // 2", "not a == 7", "not not a", "not t or b",
    "a > b and b > 1", "a < b or b == 3", "1 < a < 10", "1 < b > 5", "a if b > 5 else b",
    "(a if t else b) + 1", "a == 7 and (b == 2 or b == 3)", "min(a, b, 5) + max(a - 9, 0)",
    "t and not false", "a != b != a", "(a - b) * (a + b) // 4",
]


def test_expressions_follow_python_precedence_and_values(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    names = [f"r{i}" for i in range(len(EXPRESSIONS))]
    lines = [
        "id: arithmetic", "name: Arithmetic", "version: 1", "players: {min: 2, max: 2}",
        "vars:", "  game: {a: 7, b: 3, t: true, " + ", ".join(f"{n}: 0" for n in names) + "}",
        "score: 0", "actions:", "  calc:", "    effects:", "      - set:",
        *(f"          {n}: {json.dumps(e)}" for n, e in zip(names, EXPRESSIONS, strict=True)),
        "      - end_turn: {}", "end:", '  trigger: "false"',
    ]
    rules = load_text_ruleset("\n".join(lines) + "\n")
    state = new_game(rules, NAMES)
    apply(state, Action(0, "calc"))
    scope = {"a": 7, "b": 3, "t": True, "false": False, "true": True}
    for i, expression in enumerate(EXPRESSIONS):
        assert state_value(state, f"game.r{i}") == eval(expression, {}, scope), expression


FUNCTIONS = """
id: functions
name: Functions
version: 1
players: {min: 3, max: 3}
dice:
  red: {faces: [pip, blank]}
  blue: {faces: [pip, blank]}
zones:
  pool: {holds: dice, start: {red: 3, blue: 3}}
  mine: {holds: dice, per_player: true}
vars:
  game: {f_size: -1, f_count: -1, f_kinds: -1, f_highest: -1, f_lowest: -1, f_total: -1,
         f_of: -1, f_of_zone: -1, f_left: -1, f_min: -1, f_max: -1, f_other: -1,
         f_highest_size: -1, f_players: -1, f_current: -1, f_round: -1, f_active: -1,
         f_last: true, f_pool_after: -1, f_left_after: -1}
  player: {gems: 0}
score: gems
actions:
  take:
    when: "round == 1"
    effects:
      - draw: {from: pool, to: mine, count: 2}
      - roll: {zone: mine}
      - add: {gems: "me * 2 + 1"}
      - end_turn: {}
  measure:
    when: "round == 2"
    effects:
      - set:
          f_size: "size(pool)"
          f_count: "count(mine, pip)"
          f_kinds: "kinds(mine, red)"
          f_highest: "highest(gems)"
          f_lowest: "lowest(gems)"
          f_total: "total(gems)"
          f_of: "of(gems, left_of(me))"
          f_of_zone: "of(count(mine, pip), 1)"
          f_left: "left_of(2)"
          f_min: "min(3, size(mine))"
          f_max: "max(0, 3 - size(mine))"
          f_other: "size(mine, 1)"
          f_highest_size: "highest(size(mine) + gems)"
          f_players: "players"
          f_current: "current"
          f_round: "round"
          f_active: "active_players"
          f_last: "last_round"
      - move_all: {from: {name: mine, owner: "left_of(me)"}, to: pool}
      - set: {f_pool_after: "size(pool)", f_left_after: "size(mine, 1)"}
end:
  trigger: "false"
"""


def test_expression_functions_read_the_seat_and_zones_they_name(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    state = new_game(load_text_ruleset(FUNCTIONS), ["Ann", "Ben", "Cat"])
    for draws, faces in ((["red", "blue"], ["pip", "blank"]), (["red", "red"], ["pip", "pip"]),
                         (["blue", "blue"], ["blank", "blank"])):
        state.chance.force(draws + faces)
        apply(state, Action(state.current, "take"))
    assert scores(state) == [1, 3, 5]
    apply(state, Action(0, "measure"))
    assert dict(state.game_vars) == {
        "f_size": 0, "f_count": 1, "f_kinds": 1, "f_highest": 5, "f_lowest": 1, "f_total": 9,
        "f_of": 3, "f_of_zone": 2, "f_left": 0, "f_min": 2, "f_max": 1, "f_other": 2,
        "f_highest_size": 7, "f_players": 3, "f_current": 0, "f_round": 2, "f_active": 3,
        "f_last": False, "f_pool_after": 2, "f_left_after": 0}
    assert state_value(state, "zones.mine.Ben.size") == 0
    assert state_value(state, "players.Ann.zones.mine.red") == 1


def test_the_words_true_and_false_inside_a_quoted_string_are_kept_as_written(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = load_text_ruleset("""
        id: true_blue
        name: True Blue
        version: 1
        players: {min: 2, max: 2}
        vars:
          player: {points: 0}
          turn: {mood: "true blue"}
        score: points
        actions:
          cheer:
            when: "mood == 'true blue'"
            effects:
              - add: {points: 1}
        end:
          trigger: "highest(points) >= 3"
    """)
    state = new_game(rules, NAMES)
    assert state_value(state, "turn.mood") == "true blue"
    assert ids(legal_actions(state)) == ["cheer"]


def test_a_number_too_large_for_a_float_is_refused_at_load_or_works_in_play(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset("""
        id: huge_number
        name: Huge Number
        version: 1
        players: {min: 2, max: 2}
        vars:
          player: {points: 0}
        score: points
        actions:
          score:
            when: "1e400 > points"
            effects:
              - add: {points: 1}
              - end_turn: {}
        end:
          trigger: "highest(points) >= 3"
    """)
    from dinotable.ruleset import load_ruleset, problems_of

    if problems_of(folder):
        return
    state = new_game(load_ruleset(folder), NAMES)
    assert ids(legal_actions(state)) == ["score"]
