"""Round phases (bid, then tricks, each led by its last winner) and players knocked out of
the game for good: the turn order they make, what they offer, how they save, how a
misused key is reported, and the two fixture games played to the end by every bot."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import FIXTURES, only_problem, write_rules

from dinotable.bots import choose, search
from dinotable.bots.search import Strength
from dinotable.engine import (
    Action,
    Event,
    GameState,
    Rules,
    apply,
    legal_actions,
    new_game,
    refusal,
    waiting_on,
)
from dinotable.engine.expr import Ctx, Scope, compile_expr
from dinotable.engine.origins import RulesError
from dinotable.narrate import describe
from dinotable.ruleset import load_ruleset
from dinotable.text_table import show_table

GOOD = FIXTURES / "good_rulesets"

PHASED = """
id: phased
name: Phased
version: 1
players: {min: 3, max: 4}
vars:
  game: {leader: 0, passes: 0}
  player: {points: 0}
score: points
round:
  start: [{say: "round start [{phase}]"}]
  end: [{say: "round end [{phase}]"}, {set: {passes: 0}}]
  phases:
    bid:
      start: [{say: "start {phase}"}]
      end: [{say: "end {phase}"}]
    play:
      first: leader
      again: "passes < 2"
      start: [{say: "start {phase}"}]
      end: [{add: {passes: 1}}, {say: "end {phase}"}]
actions:
  bid:
    phase: bid
    effects: [{end_turn: {}}]
  play:
    phase: [play]
    effects: [{add: {points: 1}}, {set: {leader: me}}, {end_turn: {}}]
end:
  trigger: "round == 2"
  finish_round: true
"""


def _load(tmp_path: Path, text: str, change: dict[str, Any] | None = None) -> Rules:
    data = yaml.safe_load(text)
    for key, value in (change or {}).items():
        data[key] = value
    return load_ruleset(write_rules(tmp_path, data))


def _only(state: GameState) -> Action:
    (action,) = legal_actions(state)
    return action


def _story(events: list[Event]) -> list[str]:
    """What happened, in order: phases, turns (seat and action) and the words said."""
    out = []
    for e in events:
        if e.kind in ("phase_started", "phase_ended"):
            out.append(f"{e.kind} {e.data['phase']}"
                       + (f" {e.data['seats']}" if "seats" in e.data else ""))
        elif e.kind == "action":
            out.append(f"{e.seat} {e.data['action']}")
        elif e.kind == "said":
            out.append(e.data["text"])
        elif e.kind in ("round_started", "round_ended", "game_over"):
            out.append(e.kind)
    return out


def test_phases_run_in_order_and_a_phase_is_played_again_led_by_its_first(
        tmp_path: Path) -> None:
    rules = _load(tmp_path, PHASED)
    state = new_game(rules, ["A", "B", "C"], seed=1)
    assert state.phase == "bid" and state.current == 0
    events: list[Event] = []
    while not state.game_over:
        events += apply(state, _only(state))
    story = _story(events)
    # Round 2 in full: round.start, the bids from the round's first seat, then two passes
    # of play, each led by `leader`: the last to play before it (round 1 ended with B).
    second = story[story.index("round_started"):]
    assert second == [
        "round_started", "round start []",
        "phase_started bid [0, 1, 2]", "start bid", "0 bid", "1 bid", "2 bid", "end bid",
        "phase_ended bid",
        "phase_started play [1, 2, 0]", "start play", "1 play", "2 play", "0 play",
        "end play", "phase_ended play",
        "phase_started play [0, 1, 2]", "start play", "0 play", "1 play", "2 play",
        "end play", "phase_ended play",
        "round end []", "round_ended", "game_over",
    ]
    # Round 1: the first pass of play began with seat 0 (the starting leader), the second
    # with the last to play in the first.
    first = story[:story.index("round_started")]
    assert first[:4] == ["0 bid", "1 bid", "2 bid", "end bid"]
    assert "phase_started play [0, 1, 2]" in first and "phase_started play [2, 0, 1]" in first
    assert state.phase == ""  # the round is over: no phase is played
    assert [state.score(s) for s in range(3)] == [4, 4, 4]


def test_an_action_is_offered_only_in_its_phase(tmp_path: Path) -> None:
    rules = _load(tmp_path, PHASED)
    state = new_game(rules, ["A", "B", "C"], seed=1)
    assert [a.id for a in legal_actions(state)] == ["bid"]
    why = refusal(state, Action(0, "play"))
    assert why is not None and why.kind == "not_now"
    for _ in range(3):
        apply(state, _only(state))
    assert state.phase == "play"
    assert [a.id for a in legal_actions(state)] == ["play"]
    assert refusal(state, Action(state.current, "bid")) is not None


def test_a_game_saved_mid_phase_plays_on_as_the_original(tmp_path: Path) -> None:
    rules = _load(tmp_path, PHASED)
    state = new_game(rules, ["A", "B", "C"], seed=1)
    for _ in range(5):  # the bids, then two plays of the first pass
        apply(state, _only(state))
    saved = json.loads(json.dumps(state.to_dict()))
    assert saved["phase"] == "play"
    copy = GameState.from_dict(rules, saved)
    assert copy.phase == "play" and copy.current == state.current
    while not state.game_over:
        action = _only(state)
        assert _only(copy) == action
        apply(state, action)
        apply(copy, action)
    assert copy.game_over and copy.to_dict() == state.to_dict()


def test_a_round_without_phases_saves_as_before(tmp_path: Path) -> None:
    rules = load_ruleset(GOOD / "fixture_respond")
    saved = new_game(rules, ["A", "B"], seed=1).to_dict()
    assert not {"phase", "round_first", "phase_ended", "phase_starter", "knocked"} & set(saved)


BIDDING = """
id: bidding
name: Bidding
version: 1
players: {min: 3, max: 3}
vars:
  game: {bids: 0}
score: bids
round:
  phases:
    bidding: {mode: until_ended}
    reveal:
      start: [{say: "{phase} from {name(me)}"}]
actions:
  raise:
    phase: bidding
    effects: [{add: {bids: 1}}, {end_turn: {}}]
  call:
    phase: bidding
    effects: [{end_phase: {starter: me}}, {say: "called"}, {end_turn: {}}]
  show:
    phase: reveal
    effects: [{end_turn: {}}]
end:
  trigger: "round == 2"
"""


def test_end_phase_ends_a_pass_and_its_starter_begins_the_next_phase(tmp_path: Path) -> None:
    rules = _load(tmp_path, BIDDING)
    state = new_game(rules, ["A", "B", "C"], seed=1)
    events: list[Event] = []
    for seat, aid in [(0, "raise"), (1, "raise"), (2, "raise"), (0, "raise"), (1, "call")]:
        assert state.current == seat and state.phase == "bidding"
        events += apply(state, Action(seat, aid))
    story = _story(events)
    # The rest of the calling action still ran; the reveal then begins with the caller.
    assert story[-4:] == ["called", "phase_ended bidding", "phase_started reveal [1, 2, 0]",
                          "reveal from B"]
    assert state.phase == "reveal" and state.current == 1


KNOCKS = """
id: knocks
name: Knocks
version: 1
players: {min: 2, max: 4}
vars:
  game: {starter: 0, benched: -1}
  player: {turns: 0, reacted: 0}
score: turns
round:
  start:
    - when: "starter >= 0"
      then: [{first_player: starter}]
    - for_each_player:
        - when: "me == benched"
          then: [{drop_out: {}}]
actions:
  go:
    effects: [{add: {turns: 1}}, {end_turn: {}}]
  ko:
    args: {who: player}
    effects: [{knock_out: {player: $who}}]
  poke:
    effects: [{respond: {window: poked, ask: others}}, {end_turn: {}}]
  react:
    by: window
    windows: [poked]
    effects: [{add: {reacted: 1}}]
  shout:
    by: any
    when: "me != current"
    effects: [{say: "hey"}]
  close:
    effects:
      - set: {benched: "left_of(me)"}
      - end_round: {starter: "left_of(me)"}
      - end_turn: {}
end:
  trigger: "players_in == 1"
"""


def _knocks(tmp_path: Path, mode: str = "each_once", players: int = 4) -> GameState:
    data = yaml.safe_load(KNOCKS)
    data["round"]["mode"] = mode
    rules = load_ruleset(write_rules(tmp_path, data))
    return new_game(rules, ["A", "B", "C", "D"][:players], seed=1)


def _act(state: GameState, aid: str, **args: Any) -> list[Event]:
    return apply(state, Action(waiting_on(state) or 0, aid, tuple(sorted(args.items()))))


@pytest.mark.parametrize("mode", ["each_once", "until_ended"])
def test_a_knocked_out_player_is_passed_by_turns_and_offered_nothing(
        tmp_path: Path, mode: str) -> None:
    state = _knocks(tmp_path, mode)
    _act(state, "ko", who=1)
    # Knocking another out leaves the turn going: the player still chooses.
    assert state.current == 0 and state.knocked == [False, True, False, False]
    assert legal_actions(state, 1) == []  # not even `by: any` actions
    assert any(a.id == "shout" for a in legal_actions(state, 2))
    assert all(a.arg_map.get("who") != 1 for a in legal_actions(state) if a.id == "ko")
    _act(state, "go")
    assert state.current == 2  # B is passed by
    _act(state, "go")
    _act(state, "go")
    assert state.current == 0
    # Knocked out on their own turn, a player's turn ends with the running action.
    _act(state, "ko", who=0)
    assert state.current == 2 and not state.game_over


def test_a_round_never_starts_with_a_knocked_out_seat(tmp_path: Path) -> None:
    state = _knocks(tmp_path)
    _act(state, "ko", who=1)
    state.game_vars["starter"] = 1  # the next round's first_player names B, who is out
    for _ in range(4 - 1):
        _act(state, "go")
    assert state.round == 2 and state.round_order == [2, 3, 0] and state.current == 2


def test_response_windows_never_ask_a_knocked_out_player(tmp_path: Path) -> None:
    state = _knocks(tmp_path)
    _act(state, "ko", who=2)
    _act(state, "poke")
    asked = []
    while state.pending:
        seat = waiting_on(state)
        asked.append(seat)
        apply(state, Action(seat or 0, "pass"))
    assert asked == [1, 3]
    assert state.current == 1


def test_knocked_out_players_leave_the_counts_and_the_last_one_in_ends_the_game(
        tmp_path: Path) -> None:
    state = _knocks(tmp_path, players=3)

    def value(text: str, seat: int) -> Any:
        return compile_expr(text, Scope())(Ctx(state, seat))

    assert value("players_in", 0) == 3 and value("out", 1) is False
    _act(state, "ko", who=1)
    assert value("players_in", 0) == 2 and value("active_players", 0) == 2
    assert value("out", 1) is True and value("playing", 1) is False
    _act(state, "ko", who=2)
    # The end trigger is checked when A's turn ends: one player is left, and the game is
    # over rather than waiting on anyone.
    assert not state.game_over
    _act(state, "go")
    assert state.game_over and state.winners == [0]


def test_a_game_whose_every_player_is_knocked_out_finishes(tmp_path: Path) -> None:
    state = _knocks(tmp_path, players=2)
    _act(state, "ko", who=1)
    # The trigger needs one player left, and nobody is: the game ends all the same.
    _act(state, "ko", who=0)
    assert state.game_over
    assert sorted(state.winners) == [0, 1]  # both scored 0 turns: the score decides


def test_knock_out_in_a_phase_passes_the_seat_by_and_its_first(tmp_path: Path) -> None:
    data = yaml.safe_load(PHASED)
    data["actions"]["ko"] = {"phase": "bid", "args": {"who": "other_player"},
                             "effects": [{"knock_out": {"player": "$who"}}, {"end_turn": {}}]}
    data["vars"]["game"]["leader"] = 1
    rules = load_ruleset(write_rules(tmp_path, data))
    state = new_game(rules, ["A", "B", "C"], seed=1)
    apply(state, Action(0, "ko", (("who", 1),)))
    assert state.current == 2  # B is out: the bids go on with C
    apply(state, Action(2, "bid"))
    # The play phase's `first` names B (leader 1), who is out: C leads instead.
    assert state.phase == "play" and state.round_order == [2, 0] and state.current == 2


@pytest.mark.parametrize("mode", ["each_once", "until_ended"])
def test_a_player_dropped_in_round_start_does_not_take_the_first_turn_end_round_gave_them(
        tmp_path: Path, mode: str) -> None:
    state = _knocks(tmp_path, mode)
    state.game_vars["starter"] = -1  # no first_player: the round starts where end_round says
    # A ends the round naming B to start the next; round.start drops B (benched).
    _act(state, "close")
    assert state.round == 2 and state.out == [False, True, False, False]
    assert state.current == 2
    _act(state, "go")
    assert state.current == 3


@pytest.mark.parametrize(("change", "path", "words"), [
    ({"actions": {"bid": {"phase": "bidd", "effects": [{"end_turn": {}}]}}},
     "actions.bid.phase", "unknown phase 'bidd' (did you mean 'bid'?)"),
    ({"actions": {"bid": {"phase": ["bid", "trick"], "effects": [{"end_turn": {}}]}}},
     "actions.bid.phase[1]", "unknown phase 'trick'"),
    ({"actions": {"bid": {"phase": 3, "effects": [{"end_turn": {}}]}}},
     "actions.bid.phase", "expected a phase name or a list of phase names"),
    ({"round": {"phases": {"bid": {"firts": "leader"}}}},
     "round.phases.bid.firts", "unknown key of a phase 'firts' (did you mean 'first'?)"),
    ({"round": {"phases": {"bid": {"mode": "once"}}}},
     "round.phases.bid.mode", "unknown value 'once'"),
    ({"round": {"phases": ["bid", "play"]}},
     "round.phases", "expected a mapping of phase names"),
    ({"round": {"phases": {"bid": {"first": "'left'"}}}},
     "round.phases.bid.first", "a phase's `first` must be a seat"),
    ({"round": {"phases": {"bid": {"again": "'yes'"}}}},
     "round.phases.bid.again", "a condition must be true/false"),
    ({"round": {"phases": {"bid": {"start": [{"end_phas": {}}]}}}},
     "round.phases.bid.start[0].end_phas", "did you mean 'end_phase'"),
])
def test_misused_phase_keys_are_load_errors(tmp_path: Path, change: dict[str, Any],
                                            path: str, words: str) -> None:
    data = yaml.safe_load(PHASED)
    for key, value in change.items():
        if key == "actions":
            data["actions"].update(value)
        else:
            data[key] = {**data[key], **value}
    if "round" in change:
        # Actions naming phases the changed round lacks would add problems of their own.
        for adef in data["actions"].values():
            adef.pop("phase", None)
    problem = only_problem(write_rules(tmp_path, data))
    assert problem.path == path
    assert words in problem.message
    assert problem.file.endswith("rules.yaml") and problem.line > 0


def test_phase_and_end_phase_need_a_round_with_phases(tmp_path: Path) -> None:
    data = yaml.safe_load(BIDDING)
    del data["round"]
    for adef in data["actions"].values():
        adef.pop("phase")
    data["actions"]["call"]["effects"] = [{"end_phase": {}}, {"end_turn": {}}]
    problem = only_problem(write_rules(tmp_path, data))
    assert problem.path == "actions.call.effects[0].end_phase"
    assert "the round has none" in problem.message
    data["actions"]["call"]["effects"] = [{"end_turn": {}}]
    data["actions"]["show"]["phase"] = "reveal"
    problem = only_problem(write_rules(tmp_path, data))
    assert problem.path == "actions.show.phase" and "the round has no phases" in problem.message


# --- the fixture games, played to the end by every bot -----------------------------------

QUICK = Strength("quick", 25, 5.0, 4, 30, 1, heed=True)


@pytest.mark.parametrize("game", ["fixture_tricks", "fixture_knockout"])
@pytest.mark.parametrize("bot", ["random", "heuristic", "search"])
def test_the_fixture_games_play_to_the_end(game: str, bot: str) -> None:
    rules = load_ruleset(GOOD / game)
    for seed in range(2 if bot == "search" else 10):
        state = new_game(rules, ["A", "B", "C", "D"], seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not state.game_over:
            assert moves < 500, "the game does not end"
            if bot == "search":
                action = search.search(state, legal_actions(state), rng, QUICK)
            else:
                action = choose(bot, state, rng)
            assert action in legal_actions(state)
            apply(state, action)
            moves += 1
        assert state.winners
        if game == "fixture_tricks":
            assert state.round == 2 and moves == 32  # 2 rounds of 4 bids and 12 cards
        else:
            assert sum(not k for k in state.knocked) == 1
            assert state.winners == [state.knocked.index(False)]



def test_the_terminal_heads_the_table_with_the_phase_and_marks_a_knocked_out_player(
        tmp_path: Path) -> None:
    rules = load_ruleset(GOOD / "fixture_tricks")
    state = new_game(rules, ["Ann", "Ben", "Cat", "Dan"], seed=1)
    shown = io.StringIO()
    show_table(state, shown)
    assert shown.getvalue().splitlines()[0] == "   Round 1, Bid"
    while state.phase == "bid":
        apply(state, legal_actions(state)[0])
    shown = io.StringIO()
    show_table(state, shown)
    assert shown.getvalue().splitlines()[0] == "   Round 1, Tricks"

    state = _knocks(tmp_path)
    events = _act(state, "ko", who=1)
    assert [describe(e, state, None) for e in events if e.kind == "knocked_out"] == [
        "B is out of the game."]
    shown = io.StringIO()
    show_table(state, shown)
    lines = shown.getvalue().splitlines()
    assert lines[1].endswith("- OUT of the game") and "OUT" not in lines[0] + lines[2]


def test_the_table_shows_the_phase_by_the_round_and_a_knocked_out_plate_as_out(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.scenes.setup import Seat
    from dinotable.scenes.table import TableScene
    from dinotable.table import chrome

    plates: dict[str, str] = {}
    real = chrome.name_plate

    def plate(canvas: Any, rect: Any, name: str, *args: Any, **kw: Any) -> None:
        plates[name] = kw.get("extra", "")
        real(canvas, rect, name, *args, **kw)

    monkeypatch.setattr(chrome, "name_plate", plate)
    for game, until in (("fixture_tricks", lambda s: s.phase == "tricks"),
                        ("fixture_knockout", lambda s: any(s.knocked))):
        seats = [Seat(n, "random", i) for i, n in enumerate(["Ann", "Ben", "Cat", "Dan"])]
        table = TableScene(app, load_ruleset(GOOD / game), seats, {}, 3, saving=False)
        app.push(table)
        players = next(p for p in table.parts if isinstance(p, chrome.PlayersPart))
        if game == "fixture_tricks":
            assert players.footer() == "Round 1  ·  Bid"
        for _ in range(3000):
            if until(table.state) and table.idle:
                break
            app.step([], 1 / 30)
        assert until(table.state)
        app.step([], 1 / 30)
        if game == "fixture_tricks":
            assert players.footer() == "Round 1  ·  Tricks"
        else:
            out = [table.state.players[s] for s, k in enumerate(table.state.knocked) if k]
            assert out and all(plates[n] == " - OUT" for n in out)
        app.pop()


def test_a_phase_played_again_with_nobody_left_is_an_error_naming_the_phase(
        tmp_path: Path) -> None:
    data = yaml.safe_load(PHASED)
    data["round"]["phases"]["play"]["again"] = "true"
    data["actions"]["bid"]["effects"] = [{"drop_out": {}}, {"end_turn": {}}]
    rules = load_ruleset(write_rules(tmp_path, data))
    state = new_game(rules, ["A", "B", "C"], seed=1)
    apply(state, Action(0, "bid"))
    apply(state, Action(1, "bid"))
    with pytest.raises(RulesError, match="the phase 'play' was played 50 times over"):
        apply(state, Action(2, "bid"))
