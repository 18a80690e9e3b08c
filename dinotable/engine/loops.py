"""Effects that repeat and that decide who plays first.

- `repeat: {while: EXPR, do: [EFFECTS]}` runs its effects again and again while EXPR holds
  (tested before each pass), such as a roll-off where tied players roll again. A loop that
  would never stop is an engine error after `limit` passes (default 1000), never a hang.
- `first_player: EXPR` (in `round.start`) makes that seat take the round's first turn: the
  round's order is turned to begin with it.
"""

from __future__ import annotations

from typing import Any

from .codegen import Piece, ends_turn, generate
from .compiler import EffectCompiler
from .effects import CONTROL_FORMS, EXTRA_FORMS, Param, _unknown, effect
from .errors import EngineError
from .expr import Compiled, Ctx, bind, source_of
from .model import Effect

REPEAT_KEYS = ("while", "do", "limit")
DEFAULT_LIMIT = 1000

CONTROL_FORMS["repeat"] = (
    "repeat: {while: EXPR, do: [EFFECTS], limit: N} - run the effects again and again while "
    "EXPR holds (tested before every pass); more than `limit` passes (default 1000) is an "
    "engine error, so a loop can never hang a game.")


def _too_long(limit: int) -> None:
    raise EngineError(f"a repeat form ran {limit} times and its `while` still holds")


def _repeat(compiler: EffectCompiler, raw: dict[str, Any], path: tuple[Any, ...]) -> Piece:
    """The code of a repeat form: a bounded while loop around its effects."""
    body_raw = raw["repeat"]
    extra = [k for k in raw if k != "repeat"]
    for key in extra:
        compiler.report((*path, key), "repeat takes only its mapping of while, do and limit")
    if not isinstance(body_raw, dict) or "while" not in body_raw or "do" not in body_raw:
        compiler.report((*path, "repeat"), "expected repeat: {while: EXPR, do: [EFFECTS]}")
        return Piece([], {})
    for key in sorted(set(body_raw) - set(REPEAT_KEYS)):
        compiler.report((*path, "repeat", key), _unknown("key of repeat", str(key),
                                                         list(REPEAT_KEYS)))
    limit = body_raw.get("limit", DEFAULT_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        compiler.report((*path, "repeat", "limit"), "limit is a whole number of at least 1")
        limit = DEFAULT_LIMIT
    test = compiler.expr(body_raw["while"], (*path, "repeat", "while"))
    body = generate(compiler.pieces(body_raw["do"], (*path, "repeat", "do")))
    if test is None:
        return Piece([], {})
    ns: dict[str, Any] = {"_too_long": _too_long}
    name = bind(ns, body, "loop")
    return Piece([
        "_n = 0",
        f"while {source_of(test, ns)}:",
        f"    if _n >= {limit}:",
        f"        _too_long({limit})",
        "    _n += 1",
        f"    if {name}(c):",
        "        return True",
    ], ns, ends_turn=ends_turn(body))


EXTRA_FORMS["repeat"] = _repeat


@effect("first_player", "Make a seat take the round's first turn (run it in `round.start`): "
        "the round's order is turned to begin with that seat.",
        "first_player: \"left_of(current)\"",
        {"seat": Param("expr", "the seat that plays first")}, shorthand="seat")
def _first_player(p: dict[str, Any]) -> Effect:
    seat: Compiled = p["seat"]

    def run(c: Ctx) -> bool:
        st = c.state
        n = len(st.players)
        first = int(seat(c)) % n
        st.round_order = [s for s in ((first + k) % n for k in range(n)) if st.active[s]]
        st.round_pos = 0
        return False

    return run
