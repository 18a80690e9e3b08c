"""Decisions: questions asked mid-effect and response windows, through fixture rulesets.

The fixtures' scenarios pin the rules; these tests add what a scenario cannot say: a game
waiting on a decision saves, copies and replays exactly, and random bots answer every
decision to the end of the game.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dinotable import check
from dinotable.engine import (
    Action,
    GameState,
    IllegalAction,
    apply,
    legal_actions,
    new_game,
    view_for,
    waiting_on,
)
from dinotable.ruleset import load_ruleset

GOOD = Path(__file__).resolve().parent / "fixtures" / "good_rulesets"
FIXTURES = ("fixture_respond", "fixture_choose", "fixture_teams", "fixture_reroll")


def _load(rid: str):  # type: ignore[no-untyped-def]
    return load_ruleset(GOOD / rid)


@pytest.fixture
def fixture_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    real = check.load_by_id
    monkeypatch.setattr(check, "load_by_id",
                        lambda rid: _load(rid) if (GOOD / rid).is_dir() else real(rid))


@pytest.mark.parametrize("rid", FIXTURES)
def test_fixture_scenarios_pass(rid: str, fixture_ids: None) -> None:
    files = sorted((GOOD / rid / "scenarios").glob("*.yaml"))
    assert files
    for path in files:
        outcome = check.run_scenario(check.load_scenario(path))
        assert outcome.passed, f"{path.name}: {outcome.reason}"


def test_a_window_asks_a_rival_on_the_attackers_turn() -> None:
    rules = _load("fixture_respond")
    state = new_game(rules, ["Ann", "Ben", "Cat"])
    state.chance.force(["hit"])
    events = apply(state, Action(0, "attack"))
    assert state.current == 0, "it is still Ann's turn"
    assert waiting_on(state) == 1, "but the game waits on Ben"
    assert [str(a) for a in legal_actions(state)] == ["shield", "pass"]
    assert legal_actions(state, 0) == [] and legal_actions(state, 2) == []
    assert any(e.kind == "window_opened" for e in events)
    view = view_for(state, 2)
    assert view["waiting_on"] == 1 and view["decision"]["window"] == "after_attack"
    with pytest.raises(IllegalAction, match="waits on Ben"):
        apply(state, Action(2, "shield"))


def test_an_answer_from_the_wrong_seat_or_outside_the_choices_is_refused() -> None:
    rules = _load("fixture_choose")
    state = new_game(rules, ["Ann", "Ben"])
    with pytest.raises(IllegalAction, match="not a choice"):
        apply(state, Action(0, "mood", (("feeling", "grumpy"),)))
    with pytest.raises(IllegalAction, match="not an answer now"):
        apply(state, Action(0, "play"))
    before = state.to_dict()
    with pytest.raises(IllegalAction):
        apply(state, Action(1, "mood", (("feeling", "calm"),)))
    assert state.to_dict() == before


def _play_to_end(rules_id: str, players: int, seed: int) -> tuple[GameState, int]:
    """Random answers to every decision; a JSON copy taken mid-decision plays on alike."""
    rules = _load(rules_id)
    names = [f"P{i + 1}" for i in range(players)]
    state = new_game(rules, names, None, seed)
    rng = random.Random(seed)
    copy: GameState | None = None
    copied_mid_decision = 0
    moves = 0
    while not state.game_over:
        legal = legal_actions(state)
        assert legal, f"nothing legal in a game not over:\n{state}"
        assert all(a.player == waiting_on(state) for a in legal)
        if copy is None and state.pending and rng.random() < 0.3:
            copy = GameState.from_dict(rules, json.loads(json.dumps(state.to_dict())))
            copied_mid_decision = 1
        action = legal[rng.randrange(len(legal))]
        if copy is not None:
            assert legal_actions(copy) == legal
            assert apply(copy, action) == apply(state, action)
        else:
            apply(state, action)
        moves += 1
        assert moves < 5_000
    if copy is not None:
        assert copy.to_dict() == state.to_dict()
    # The action log replays to the very same game.
    again = new_game(rules, names, None, seed)
    for action in state.log:
        apply(again, action, record=False)
    assert again.to_dict() == state.to_dict()
    return state, copied_mid_decision


def _cases() -> list[object]:
    out = []
    for rid in FIXTURES:
        rules = _load(rid)
        for n in sorted({rules.min_players, rules.max_players}):
            out.append(pytest.param(rid, n, id=f"{rid}-{n}p"))
    return out


@pytest.mark.parametrize(("rid", "players"), _cases())
def test_random_bots_play_every_fixture_to_the_end_and_copies_play_on_alike(
        rid: str, players: int) -> None:
    copies = 0
    for seed in range(40):
        state, copied = _play_to_end(rid, players, seed)
        assert state.winners
        copies += copied
    if _load(rid).questions or _load(rid).windows:
        assert copies >= 10, "too few games were copied while waiting on a decision"
