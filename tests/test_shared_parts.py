"""A call an expression makes twice is worked out once, where it is always made; what a
bot's preferences score is the same as before, at every decision of seeded games."""

from __future__ import annotations

import random
from typing import Any

import pytest

import dinotable.ruleset.ending as ending
from dinotable.bots import heuristic_policy
from dinotable.engine import apply, legal_actions, new_game, values_for
from dinotable.engine.shared_parts import shared_source
from dinotable.ruleset import installed_rulesets, load_ruleset


def _calls(source: str, **values: Any) -> tuple[Any, list[str]]:
    """Evaluate source with counting functions f, g, h; its value and the calls made."""
    made: list[str] = []

    def counted(name: str) -> Any:
        def call(*args: Any) -> Any:
            made.append(name)
            return len(name) + sum(args)
        return call

    scope = {"f": counted("f"), "g": counted("g"), "h": counted("h"), **values}
    return eval(shared_source(source), scope), made  # the test's own source, not input


def test_a_call_repeated_is_made_once_and_gives_the_same_value() -> None:
    source = "f(g(1)) + f(g(1)) * 2 + g(1)"
    value, made = _calls(source)
    assert made == ["g", "f"]  # once each, in the order first written
    assert value == 3 + 3 * 2 + 2  # g(1) = 1 + 1, f(g(1)) = 1 + 2


@pytest.mark.parametrize("source", ["(h(1) if a else 0) + h(1)", "(a and h(1)) + h(1)",
                                    "sum(h(1) for _ in [1, 2]) + h(1)"])
def test_a_call_in_a_branch_or_a_loop_is_never_kept(source: str) -> None:
    assert shared_source(source) == source


def test_a_call_after_a_branch_reads_the_value_kept_before_it() -> None:
    assert _calls("h(1) + (h(1) if a else 0)", a=True)[1] == ["h"]
    assert _calls("h(1) + (a or h(1))", a=False)[1] == ["h"]


@pytest.mark.parametrize("folder", installed_rulesets(), ids=lambda f: f.name)
def test_every_preference_scores_as_written(folder: Any, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    shared = load_ruleset(folder)
    monkeypatch.setattr(ending, "once_each", lambda fn: fn)
    written = load_ruleset(folder)
    pairs = list(zip(shared.bot_hints, written.bot_hints, strict=True))
    state = new_game(shared, ["A", "B", "C"][:max(2, min(3, shared.max_players))], None, 4)
    rng = random.Random(4)
    for _ in range(120):
        if state.game_over:
            break
        legal = legal_actions(state)
        seat = legal[0].player
        for mine, theirs in pairs:
            options = [a.arg_map for a in legal if a.id == mine.action]
            for a, b, given in ((mine.when, theirs.when, [{}]),
                                (mine.best, theirs.best, options)):
                if a is not None and b is not None:
                    assert values_for(state, seat, a, given) == values_for(
                        state, seat, b, given)
        apply(state, heuristic_policy(state, legal, rng), False)
