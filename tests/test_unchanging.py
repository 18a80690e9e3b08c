"""Formula values remembered while a bot reads its preferences (`engine.unchanging`): the
bots play exactly as when every formula is worked out afresh, only with less work."""

from __future__ import annotations

import contextlib
import random

import pytest
from helpers import danger_at_a_reroll

import dinotable.bots as bots
from dinotable.engine import apply, legal_actions, new_game, unchanging, values_for, waiting_on
from dinotable.engine.expr import Ctx, Scope, compile_expr
from dinotable.engine.formulas import FRAMES, make_formula
from dinotable.ruleset import installed_rulesets, load_ruleset


def _heuristic_game(folder: object, seats: int, seed: int) -> list[tuple[object, ...]]:
    rules = load_ruleset(folder)  # type: ignore[arg-type]
    state = new_game(rules, [f"P{i}" for i in range(seats)], None, seed)
    rng = random.Random(seed)
    while not state.game_over:
        legal = legal_actions(state)
        apply(state, bots.heuristic_policy(state, legal, rng), False)
    return [(a.player, a.id, a.args) for a in state.log] + [tuple(state.winners)]


@pytest.mark.parametrize("folder", installed_rulesets(), ids=lambda p: p.name)
def test_remembered_formulas_change_no_move_of_a_heuristic_game(
        folder: object, monkeypatch: pytest.MonkeyPatch) -> None:
    remembered = _heuristic_game(folder, 3, 4)
    monkeypatch.setattr(bots, "unchanging", contextlib.nullcontext)
    assert _heuristic_game(folder, 3, 4) == remembered


def test_a_formula_is_worked_out_once_for_the_same_game_seat_and_arguments() -> None:
    runs: list[int] = []

    def body(c: Ctx) -> int:
        runs.append(FRAMES.stack[-1][0])
        return int(2 * FRAMES.stack[-1][0])

    double = make_formula("double", ["n"], body, lambda types: "int")
    rules = load_ruleset(installed_rulesets()[0])
    state = new_game(rules, ["Ann", "Ben"], None, 1)
    with unchanging():
        assert [double.call(Ctx(state, 0), n) for n in (3, 3, 4)] == [6, 6, 8]
        assert double.call(Ctx(state, 1), 3) == 6  # another seat: worked out again
    assert runs == [3, 4, 3]
    double.call(Ctx(state, 0), 3)  # outside, nothing is remembered
    assert runs == [3, 4, 3, 3]


def test_formula_calls_on_two_threads_keep_their_own_arguments() -> None:
    # A bot thinks on its own thread while the table reads the game on another: each
    # call reads the arguments of its own thread's call, never the other's.
    import threading
    import time

    def body(c: Ctx) -> bool:
        mine = FRAMES.stack[-1][0]
        time.sleep(0.0005)  # let the other thread run in between
        return bool(FRAMES.stack[-1][0] == mine)

    same = make_formula("same", ["n"], body, lambda types: "bool")
    rules = load_ruleset(installed_rulesets()[0])
    state = new_game(rules, ["Ann", "Ben"], None, 1)
    results: list[bool] = []

    def calls(n: int) -> None:
        with unchanging():
            results.extend(same.call(Ctx(state, 0), (n, i)) for i in range(100))

    threads = [threading.Thread(target=calls, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 200 and all(results)


def test_a_formula_of_each_options_own_arguments_is_worked_out_without_the_memo() -> None:
    """Danger's reroll preference scores every choice of dice by `rethrow($dice)`: each
    choice is its own, so its call is never looked up nor kept, while `spare(f)` inside it,
    the same for every choice, is worked out once a face."""
    state = danger_at_a_reroll(3)
    hint = next(h for h in state.rules.bot_hints if h.action == "reroll" and h.best)
    options = [a.arg_map for a in legal_actions(state) if a.id == "reroll"]
    with unchanging():
        scored = values_for(state, waiting_on(state), hint.best, options)
        kept = FRAMES.memo
        assert kept is not None
        names = [key[0] for key in kept]
    assert len(scored) == len(options) > 20
    assert "rethrow" not in names
    assert 0 < names.count("spare") <= 6  # one a face of the exploration die at most
    # The same worths as when nothing at all is remembered.
    assert values_for(state, waiting_on(state), hint.best, options) == scored


@pytest.mark.parametrize(("args", "text", "looked_up"), [
    ({"dice"}, "twice($dice)", False),  # each option calls with its own value
    ({"dino", "to"}, "twice($dino)", True),  # options to two places share a dinosaur
    ({"dice"}, "twice(size(cup))", True),  # the same call for every option
    ({"dice"}, "twice(length($dice))", True),  # two choices may be as many dice
])
def test_a_call_is_looked_up_unless_no_two_options_can_make_it(
        args: set[str], text: str, looked_up: bool) -> None:
    twice = make_formula("twice", ["n"], lambda c: 2 * FRAMES.stack[-1][0], lambda t: "int")
    fn = compile_expr(text, Scope(args=frozenset(args), zones=frozenset({"cup"}),
                                  formulas={"twice": twice}))
    bound = [v for v in fn.namespace.values() if v is twice.call or v is twice.unmemoised]
    assert bound == [twice.call if looked_up else twice.unmemoised]
