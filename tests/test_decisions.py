"""Decisions: questions asked mid-effect and response windows, through fixture rulesets.

The fixtures' scenarios pin the rules; these tests add what a scenario cannot say (views,
refusals' words). Random bots playing every fixture to the end, with saves restored while a
decision waits and replays from the log, are in test_playouts.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dinotable import check, scenarios
from dinotable.engine import (
    Action,
    IllegalAction,
    apply,
    legal_actions,
    new_game,
    view_for,
    waiting_on,
)
from dinotable.ruleset import load_ruleset

GOOD = Path(__file__).resolve().parent / "fixtures" / "good_rulesets"
FIXTURES = ("fixture_respond", "fixture_choose", "fixture_teams", "fixture_reroll", "fixture_grid",
            "fixture_track", "fixture_pay", "fixture_yacht", "fixture_shapes", "fixture_targets")


def _load(rid: str):  # type: ignore[no-untyped-def]
    return load_ruleset(GOOD / rid)


@pytest.mark.parametrize("rid", FIXTURES)
def test_fixture_scenarios_pass(rid: str) -> None:
    files = sorted((GOOD / rid / "scenarios").glob("*.yaml"))
    assert files
    for path in files:
        outcome = check.run_scenario(scenarios.load_scenario(path))
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




def test_the_terminal_tells_who_must_answer_and_who_may_respond() -> None:
    from dinotable.narrate import describe

    rules = _load("fixture_respond")
    state = new_game(rules, ["Ann", "Ben"])
    state.chance.force(["hit"])
    words = [describe(e, state, None) for e in apply(state, Action(0, "attack"))]
    assert "Ben may respond." in words
    rules = _load("fixture_choose")
    state = new_game(rules, ["Ann", "Ben"])
    apply(state, Action(0, "mood", (("feeling", "calm"),)))
    words = [describe(e, state, None) for e in apply(state, Action(0, "play"))]
    assert "Ann wagers 1, 2 or 3 (bold players only 2 or 3)." in words


def test_the_end_is_told_in_the_words_of_the_rulesets_own_ending() -> None:
    from dinotable.narrate import describe

    rules = _load("fixture_teams")
    state = new_game(rules, ["Ann", "Ben", "Cat", "Dan"])
    state.chance.force(["dino"] * 10)
    words: list[str | None] = []
    for _ in range(5):
        words += [describe(e, state, None) for e in apply(state, Action(state.current, "roll"))]
    assert "The end has begun: everyone else gets one last turn." in words
    assert not any(w and "reached the goal" in w for w in words)
