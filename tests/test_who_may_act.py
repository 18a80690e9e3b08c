"""Who may act is decided once: for every seat, at every step of random games of every
shipped and fixture ruleset, an action is accepted exactly when `legal_actions` lists it,
and refused with a reason otherwise; the table's moves are the engine's own."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dinotable.engine import (
    Action,
    GameState,
    IllegalAction,
    Rules,
    apply,
    legal_actions,
    moves,
    new_game,
    refusal,
    sample_action,
    why_illegal,
)
from dinotable.engine.legality import REFUSALS
from dinotable.ruleset import installed_rulesets, load_ruleset

FIXTURES = sorted(p for p in (Path(__file__).resolve().parent / "fixtures" / "good_rulesets")
                  .iterdir() if (p / "rules.yaml").is_file())
FOLDERS = [*installed_rulesets(), *FIXTURES]
RULES = {p.name: load_ruleset(p) for p in FOLDERS}
STEPS = 60  # actions into each game, checking every seat at each


def _candidates(state: GameState, listed: dict[int, list[Action]]) -> set[Action]:
    """Actions worth asking about: everything listed for any seat, offered to every seat,
    plus each action without its arguments and with an argument value that is not one."""
    seats = range(len(state.players))
    found: set[Action] = set()
    for actions in listed.values():
        for a in actions:
            for seat in seats:
                found.add(Action(seat, a.id, a.args))
                found.add(Action(seat, a.id))
                if a.args:
                    name = a.args[0][0]
                    found.add(Action(seat, a.id, ((name, "no such thing"),)))
    for aid in state.rules.actions:
        for seat in seats:
            found.add(Action(seat, aid))
    return found


def _check_step(state: GameState) -> None:
    seats = range(len(state.players))
    listed = {s: list(legal_actions(state, s)) for s in seats}
    for action in sorted(_candidates(state, listed), key=str):
        reason = refusal(state, action)
        if action in listed[action.player]:
            assert reason is None, f"{action} is listed but refused: {reason}"
        else:
            assert reason is not None, f"{action} is not listed, yet accepted"
            assert reason.kind in REFUSALS and reason.text
            assert why_illegal(state, action) == reason.text
    # The table's moves for the waiting seat are exactly what the engine lists for it.
    found = moves(state)
    if found.seat is not None and not found.built:
        assert set(found.listed) == set(listed[found.seat])


def _play(rules: Rules, seed: int, players: int) -> None:
    state = new_game(rules, [f"P{i}" for i in range(players)], None, seed)
    rng = random.Random(seed)
    for _ in range(STEPS):
        if state.game_over:
            break
        _check_step(state)
        action = sample_action(state, rng)
        # Refused actions leave the state as it was; the chosen one is taken.
        before = state.to_dict()
        wrong = Action((action.player + 1) % players, action.id, action.args)
        if refusal(state, wrong) is not None:
            with pytest.raises(IllegalAction) as refused:
                apply(state, wrong)
            assert refused.value.kind in REFUSALS
            assert state.to_dict() == before
        apply(state, action)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(RULES)), seed=st.integers(0, 2**32), extra=st.integers(0, 4))
def test_an_action_is_accepted_exactly_when_listed(name: str, seed: int, extra: int) -> None:
    rules = RULES[name]
    players = min(rules.max_players, rules.min_players + extra)
    if rules.teams:
        players -= players % rules.teams
    _play(rules, seed, players)


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_ruleset_is_checked_at_least_once(name: str) -> None:
    rules = RULES[name]
    players = max(rules.min_players, rules.teams or 0)
    _play(rules, 1, players)


TIEBREAK = """
id: tiebreak_any
name: Tiebreak
version: 1
players: {min: 3, max: 3}
vars:
  player: {points: 0}
score: points
actions:
  score_two:
    when: "round == 1 and me != 1"
    effects: [{add: {points: 2}}, {end_turn: {}}]
  wait:
    effects: [{end_turn: {}}]
  cheer:
    by: any
    effects: [{add: {points: 1}}]
end: {trigger: "round >= 1", finish_round: true, ties: leaders_replay}
"""


def test_a_seat_left_out_of_a_tiebreak_can_play_nothing(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    """A `by: any` action was listed for nobody out of the tiebreak, yet accepted."""
    rules = load_text_ruleset(TIEBREAK)
    state = new_game(rules, ["Ann", "Ben", "Cat"], None, 1)
    for _ in range(3):  # Ann and Cat score 2, Ben waits: Ann and Cat tie
        seat = state.current
        apply(state, Action(seat, "wait" if seat == 1 else "score_two"))
    assert state.tiebreak and not state.active[1]
    assert legal_actions(state, 1) == []
    cheer = Action(1, "cheer")
    found = refusal(state, cheer)
    assert found is not None and found.kind == "not_playing"
    with pytest.raises(IllegalAction, match="takes no part"):
        apply(state, cheer)
    assert Action(state.current, "cheer") in legal_actions(state, state.current)


HAND = Path(__file__).resolve().parent / "fixtures" / "good_rulesets" / "fixture_hand"


def test_values_outside_the_engine_read_the_game_as_the_seat_knows_it() -> None:
    """A status line or a bot's preference is worked out on what its seat may see: another
    seat's hand, a face-down pile and another seat's secret points are blank to it."""
    from dinotable.engine import seen_state, text_for, value_for
    from dinotable.engine.expr import Scope, compile_expr

    rules = load_ruleset(HAND)
    state = new_game(rules, ["Ann", "Ben"], None, 3)
    apply(state, Action(0, "keep"))  # Ann keeps a secret point; Ben draws
    seen = seen_state(state, 0)
    ben_hand = [state.items[i].kind for i in state.zones["hand"][1]]
    assert ben_hand and all(seen.items[i].kind == "?" for i in state.zones["hand"][1])
    assert all(seen.items[i].kind == "?" for i in state.zones["pile"][0])
    assert [seen.items[i].kind for i in state.zones["hand"][1]] != ben_hand
    assert seen.player_vars[0]["secret"] == 1 and seen.player_vars[1]["secret"] is None
    scope = Scope(kinds=frozenset(rules.dice), zones=frozenset({"pile"}),
                  player_zones=frozenset({"hand", "shown"}))
    counted = compile_expr(f"kinds(hand, {ben_hand[0]})", scope)
    assert value_for(state, 1, counted) == 1  # Ben sees his own gem
    assert value_for(state, 0, counted, scope=1) == 0  # Ann, reading Ben's hand, does not
    assert text_for(state, 1, rules.layout.status).startswith("1 in your hand")
    # Nothing about the real game changed, and it plays on.
    assert state.items[state.zones["hand"][1][0]].kind == ben_hand[0]
    apply(state, legal_actions(state)[0])
