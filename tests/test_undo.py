"""Taking back a move: only your own, never past a roll, a draw, a card shown or another
player's decision, and an undo never changes what the next roll shows."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from dinotable.engine import (
    Action,
    GameState,
    Rules,
    apply,
    legal_actions,
    new_game,
    sample_action,
    take_back,
    undo_info,
    view_for,
    why_no_undo,
)
from dinotable.engine.undo import replay
from dinotable.ruleset import installed_rulesets, load_by_id, load_ruleset

GOOD = Path(__file__).resolve().parent / "fixtures" / "good_rulesets"
RULESETS = [p.name for p in installed_rulesets()] + sorted(
    str(p) for p in GOOD.iterdir() if (p / "rules.yaml").is_file())


def _rules(which: str) -> Rules:
    return load_ruleset(which) if "/" in which else load_by_id(which)


def _strings(value: Any, out: set[str]) -> set[str]:
    """Every string anywhere in a view (item ids among them)."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _strings(v, out)
    return out


def _known_items(state: GameState, seat: int) -> set[str]:
    ids = set(state.item_ids)
    return _strings(view_for(state, seat), set()) & ids


def _names(rules: Rules) -> list[str]:
    return ["Ann", "Ben", "Cat", "Dan"][:max(2, rules.min_players)]


@pytest.mark.parametrize("which", RULESETS, ids=lambda w: Path(w).name)
def test_random_games_never_undo_past_chance_or_a_reveal_and_the_next_roll_is_the_same(
        which: str) -> None:
    rules = _rules(which)
    names = _names(rules)
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(rules, names, None, seed)
        before: list[dict[str, Any]] = [state.to_dict()]
        moves = 0
        while not state.game_over and moves < 80:
            apply(state, sample_action(state, rng))
            before.append(state.to_dict())
            moves += 1
            info = undo_info(rules, names, None, seed, state.log)
            if not info.steps:
                assert info.reason
                continue
            # Each action that may be taken back was the waiting seat's own, drew nothing
            # from chance and showed nobody anything new.
            tail = state.log[-info.steps:]
            assert all(a.player == info.seat for a in tail)
            for back in range(1, info.steps + 1):
                earlier = GameState.from_dict(rules, before[-back - 1])
                later = before[-back]
                assert later["chance"] == earlier.to_dict()["chance"]
                after = GameState.from_dict(rules, later)
                for seat in range(len(names)):
                    assert _known_items(after, seat) <= _known_items(earlier, seat)
            # Taking back one: the game is as it was before that action, random source and
            # all; playing the same action again gives back the very same game.
            log, reason = take_back(rules, names, None, seed, state.log, info.seat)
            assert reason == "" and log == state.log[:-1]
            undone = replay(rules, names, None, seed, log)
            assert undone.to_dict() == {**before[-2], "log": undone.to_dict()["log"]}
            assert undone.chance.to_dict() == state.chance.to_dict()
            apply(undone, state.log[-1])
            assert undone.to_dict() == state.to_dict()
            # What the next chance event shows is the same whichever way the game got here.
            probe = random.Random(seed + moves)
            a, b = replay(rules, names, None, seed, state.log), undone
            for _ in range(20):
                if a.game_over:
                    break
                action = sample_action(a, probe)
                apply(a, action)
                apply(b, action)
            assert a.to_dict() == b.to_dict()


def test_the_greyed_button_says_why_in_words() -> None:
    rules = load_by_id("dino_hunt_dice")
    names = ["Ann", "Ben"]
    state = new_game(rules, names, None, 3)
    assert why_no_undo(rules, names, None, 3, []) == "Nothing to take back"
    roll = next(a for a in legal_actions(state) if a.id == "roll")
    apply(state, roll)
    assert why_no_undo(rules, names, None, 3, state.log) == "The dice have been rolled since"
    log, reason = take_back(rules, names, None, 3, state.log)
    assert log == state.log and reason == "The dice have been rolled since"
    # Ann stops: Ben is waited on and has not played; once he has, Ann's turn is his past.
    while state.current == 0 and not state.game_over:
        apply(state, legal_actions(state)[-1])
    assert why_no_undo(rules, names, None, 3, state.log) == "Nothing to take back"
    assert why_no_undo(rules, names, None, 3, state.log, is_bot=True) == (
        "Bots never take back a move")


def test_another_players_decision_stops_an_undo() -> None:
    rules = load_by_id("dino_hunt")
    names = ["Ann", "Ben"]
    rng = random.Random(1)
    state = new_game(rules, names, None, 1)
    found = False
    for _ in range(300):
        if state.game_over:
            break
        apply(state, sample_action(state, rng))
        seat = state.current
        if state.log[-1].player != seat and any(a.player == seat for a in state.log):
            info = undo_info(rules, names, None, 1, state.log)
            assert info.steps == 0
            assert info.reason == f"{names[state.log[-1].player]} has played since"
            found = True
            break
    assert found


def test_only_the_seat_the_game_waits_on_may_take_back() -> None:
    rules = load_by_id("dino_hunt")
    names = ["Ann", "Ben"]
    rng = random.Random(2)
    state = new_game(rules, names, None, 2)
    while not undo_info(rules, names, None, 2, state.log).steps:
        apply(state, sample_action(state, rng))
    info = undo_info(rules, names, None, 2, state.log)
    assert info.seat is not None
    other = 1 - info.seat
    log, reason = take_back(rules, names, None, 2, state.log, other)
    assert log == state.log and "waits on" in reason
    log, reason = take_back(rules, names, None, 2,
                            [(a.player, a.id, a.args) for a in state.log], info.seat)
    assert reason == "" and log == [Action(a.player, a.id, a.args) for a in state.log[:-1]]
