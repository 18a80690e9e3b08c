"""A `where` tested over a list: what reads the game alone is worked out once a listing,
only where the test reaches it, and every value passes or fails as it did before."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from dinotable.engine import EngineError, Rules, legal_actions, new_game
from dinotable.engine.hoist import (
    hoisted,
    mark_arg_free,
    reads_arguments,
    reads_no_args,
    setup_lines,
)
from dinotable.engine.naming import TableZone

RULES = """
name: Hoisting
id: hoisting
version: 1
players: {min: 2, max: 2}
items:
  gem: {type: token, copies: 3}
  rock: {type: token, copies: 2}
zones:
  pile: {holds: tokens, start: {gem: 3, rock: 2}}
  hand: {holds: tokens, per_player: true}
vars:
  player: {energy: 2, divisor: 0}
actions:
  take:
    args:
      what: {domain: kind_in, zone: pile, where: "WHERE"}
    effects:
      - move: {from: pile, to: hand, item: $what}
      - end_turn: {}
  pass: {effects: [{end_turn: {}}]}
end:
  trigger: "size(pile) == 0"
score: "size(hand)"
"""


def _game(load_text_ruleset: Callable[[str], Rules], where: str, rid: str = "hoisting") -> Any:
    text = RULES.replace("WHERE", where).replace("id: hoisting", f"id: {rid}")
    return new_game(load_text_ruleset(text), ["Ann", "Ben"], None, 1)


def test_a_part_that_reads_the_game_alone_is_read_through_the_memo() -> None:
    source, slots = hoisted("(c.args['kind'] == 'gem') and (st.player_vars[c.seat]['energy'] > 1)",
                            "kind", {})
    assert slots == 1
    assert "c.args['kind'] == 'gem'" in source  # the value's own part is tested each time
    assert "(_hoist_0 := (st.player_vars[c.seat]['energy'] > 1))" in source


def test_a_call_handed_the_context_is_never_kept() -> None:
    # A compiled function handed `c` may read the argument being listed.
    source, slots = hoisted("_f1(c) > 2", "kind", {"_f1": lambda c: 3})
    assert (source, slots) == ("_f1(c) > 2", 0)


def test_a_function_the_compiler_found_free_of_arguments_is_kept() -> None:
    def reads_the_game(c: Any) -> int:
        return 3

    namespace = {"_f1": reads_the_game, "_f2": lambda c: 4}
    mark_arg_free(reads_the_game)
    source, slots = hoisted("_f1(c) > 2 and _f2(c) > c.args['kind']", "kind", namespace)
    assert slots == 1 and "(_hoist_0 := (_f1(c) > 2))" in source
    assert "_f2(c) > c.args['kind']" in source  # not known free: worked out each time
    # Another seat's reading through a `lambda c:`, checked like the rest.
    seats = "sum([_for_seat(c, _s, lambda c: st.player_vars[c.seat]['energy']) for _s in " \
            "range(len(st.players))])"
    assert hoisted(seats, "kind", namespace)[1] == 1
    assert hoisted(seats.replace("c.seat]", "c.args['kind']]"), "kind", namespace)[1] == 0
    assert reads_no_args(seats, namespace)
    assert not reads_no_args("_f2(c) + 1", namespace)


def test_a_comprehension_is_kept_whole_or_not_at_all() -> None:
    kept, slots = hoisted("sum((1 for _i in st.zones['hand'][c.seat])) > 0", "kind", {})
    assert slots == 1 and kept.startswith("_hoist_0 if")
    reads, slots = hoisted("sum((1 for _i in st.zones['hand'][c.seat] "
                           "if st.items[_i].kind == c.args['kind'])) > 0", "kind", {})
    assert slots == 0 and "_hoist" not in reads


def test_the_listed_values_are_those_the_test_gives_one_by_one(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    state = _game(load_text_ruleset, "$kind == 'gem' and energy >= 2")
    assert [a.args for a in legal_actions(state)] == [(("what", "gem"),), ()]


def test_a_part_a_short_circuit_skips_is_not_worked_out(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    # `10 // divisor` reads the game alone, but no value reaches it: it never fails.
    state = _game(load_text_ruleset, "$kind != 'gem' and $kind != 'rock' and 10 // divisor > 1")
    assert [a.id for a in legal_actions(state)] == ["pass"]
    # Where a value does reach it, the failure names the rules file and line, as before.
    failing = _game(load_text_ruleset, "$kind == 'rock' and 10 // divisor > 1", "failing")
    with pytest.raises(EngineError, match=r"rules\.yaml:\d+: .*division"):
        legal_actions(failing)


def _counting(calls: list[int]) -> Any:
    def reads_the_game(c: Any) -> int:
        calls.append(1)
        return 3

    mark_arg_free(reads_the_game)
    return reads_the_game


def _run(source: str, namespace: dict[str, Any], values: list[Any]) -> list[Any]:
    """The values `source` passes, tested as a listing tests them (kept parts set afresh
    before the loop, as `setup_lines` says)."""
    from dinotable.engine.hoist import NAMES
    made: dict[str, Any] = {}
    exec("def _f(c):\n    out = []\n    SETUP\n"
         "    for _v in VALUES:\n        c.args['kind'] = _v\n        if SOURCE:\n"
         "            out.append(_v)\n    return out\n".replace("VALUES", repr(values))
         .replace("SOURCE", source).replace("SETUP", "; ".join(setup_lines(source)) or "pass"),
         {**namespace, **NAMES}, made)

    return list(made["_f"](SimpleNamespace(args={}, seat=0)))


def test_a_call_inside_several_kept_parts_is_worked_out_once_a_listing() -> None:
    # `projected != 'missed'` and `with_aim != projected`: one reading of `projected`.
    calls: list[int] = []
    namespace = {"_f1": _counting(calls)}
    test = ("(c.args['kind'] == 'a' and _f1(c) + 1 != 9) or "
            "(c.args['kind'] == 'b' and _f1(c) * 2 != 9) or (c.args['kind'] == 'c' and "
            "_f1(c) - 1 > 0)")
    source, slots = hoisted(test, "kind", namespace)
    assert slots == 4  # three parts and the call they share
    assert _run(source, namespace, ["a", "b", "c", "d"]) == ["a", "b", "c"]
    assert len(calls) == 1
    calls.clear()
    assert _run(test, namespace, ["a", "b", "c", "d"]) == ["a", "b", "c"]
    assert len(calls) == 3  # as written, each part made the call


def test_a_part_written_twice_has_one_slot_and_a_call_its_function_stays() -> None:
    calls: list[int] = []
    namespace = {"_f1": _counting(calls), "_readers": {"cost": lambda st, v: 1}}
    source, slots = hoisted("(_f1(c) > 2 and c.args['kind'] == 'a') or (_f1(c) > 2 and "
                            "_readers['cost'](st, c.args['kind']) == 1)", "kind", namespace)
    assert slots == 1
    assert "_readers['cost'](st, c.args['kind'])" in source  # read in one step, as written
    assert source.count("(_hoist_0 := ") == 2


def test_a_part_that_reads_no_seat_is_kept_for_every_seat_a_window_asks() -> None:
    # The window's name and a count of a table zone read no seat: a response window asking
    # seat after seat of an unchanging game works them out once (`c.common`).
    free = "st.pending[-1].get('window', '') == 'after_roll' and len(_zone_pile) > 0"
    source, _ = hoisted(f"({free}) and c.args['kind'] == 'a'", "kind",
                        {"_zone_pile": TableZone("pile")})
    assert "_hoist_common[" in source and "_hoist_0" not in source
    # The seat in scope, or a function that may read it: kept for one listing only.
    for seated in ("st.player_vars[c.seat]['energy'] > 1", "_f1(c) > 2"):
        namespace = {"_f1": _counting([])}
        source, slots = hoisted(f"({seated}) and c.args['kind'] == 'a'", "kind", namespace)
        assert slots == 1 and "_hoist_common" not in source, seated
    # Every seat's reading in turn (`total`, `highest`) is the same whoever asks.
    total = "_over_players(c, lambda c: st.player_vars[c.seat]['energy'], sum) > 3"
    assert "_hoist_common[" in hoisted(f"({total}) and c.args['kind'] == 'a'", "kind", {})[0]


def _formula(body: str, params: int, namespace: dict[str, Any]) -> Any:
    """A formula call as the compiler binds it, with its body as `direct_formula` keeps it."""
    direct = SimpleNamespace(body_source=body, namespace=namespace, param_count=params)

    def call(c: Any, *values: Any) -> Any:
        return eval(body, {**namespace, "c": c, "st": None,  # the test's own text
                           **{f"_p{i}": v for i, v in enumerate(values)}})

    call.direct = direct  # type: ignore[attr-defined]
    return call


def test_a_formula_called_with_the_value_tested_is_written_in_place() -> None:
    # `affordable($kind)`: its body reads the player's food (the same for every kind) and
    # the kind. Written in place, the food is counted once a listing, not once a kind.
    calls: list[int] = []
    namespace: dict[str, Any] = {"_d1": _formula("_f1(c) > _p0", 1, {"_f1": _counting(calls)})}
    source, slots = hoisted("_d1(c, c.args['kind']) and c.args['kind'] != 0", "kind",
                            namespace)
    assert "_d1" not in source and slots == 1
    assert _run(source, namespace, [0, 1, 2, 3, 4]) == [1, 2]
    assert len(calls) == 1
    calls.clear()
    assert _run("_d1(c, c.args['kind']) and c.args['kind'] != 0", namespace,
                [0, 1, 2, 3, 4]) == [1, 2]
    assert len(calls) == 5  # called, the body counted the food for every kind


def test_a_formula_is_called_where_writing_it_in_place_could_change_it() -> None:
    namespace: dict[str, Any] = {
        "_d1": _formula("_f1(c) > _p0", 1, {"_f1": _counting([])}),
        "_d2": _formula("_over_players(c, lambda c: _p0, sum) > 1", 1, {})}
    # An argument worked out (it might be dear, or fail): one call works it out once.
    assert "_d1(c, c.args['kind'] + 1)" in hoisted("_d1(c, c.args['kind'] + 1)", "kind",
                                                   namespace)[0]
    # Inside `lambda c:` the argument read would be another context's.
    assert "_d2(c, c.args['kind'])" in hoisted("_d2(c, c.args['kind'])", "kind", namespace)[0]
    # A constant means the same anywhere.
    assert "_d2" not in hoisted("_d2(c, 2) and c.args['kind'] == 1", "kind", namespace)[0]


def test_neighbouring_parts_of_an_and_are_kept_as_one() -> None:
    # `window == '' and seat == current and ...`: one reading a value, not one each.
    calls: list[int] = []
    namespace = {"_f1": _counting(calls)}
    test = "_f1(c) > 2 and c.seat == 0 and c.args['kind'] != 'b' or c.args['kind'] == 'z'"
    source, slots = hoisted(test, "kind", namespace)
    assert slots == 1 and "(_hoist_0 := (_f1(c) > 2 and c.seat == 0))" in source
    assert _run(source, namespace, ["a", "b", "c", "z"]) == ["a", "c", "z"]
    assert len(calls) == 1


def test_a_test_that_reads_no_argument_is_not_handed_the_value_as_one() -> None:
    # The listing then skips setting `$kind` for each value: only where nothing reads it.
    namespace = {"_f1": _counting([]), "_f2": lambda c: c.args["kind"]}
    assert not reads_arguments("_v > 1 and c.seat == 0 and _f1(c) > 2", "kind", namespace)
    assert not reads_arguments("_over_players(c, lambda c: st.x[c.seat], sum) > _v", "kind",
                               {})
    # Another argument, already set where the test reads it.
    assert not reads_arguments("_v > 1 and c.args['other'] == 2", "kind", namespace)
    assert reads_arguments("_v > 1 and c.args['kind'] == 2", "kind", namespace)
    assert reads_arguments("_v > 1 and len(c.args) == 2", "kind", namespace)
    assert reads_arguments("_f2(c) == _v", "kind", namespace)  # may read any argument
    assert reads_arguments("_over_players(c, lambda c: c.args['kind'], sum) > _v", "kind", {})
