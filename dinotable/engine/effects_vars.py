"""Variable effects: set and add (a player variable that changes is told as a score change),
and `keys()`, the keys of an indexed variable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .codegen import Piece
from .effects import Param, effect
from .expr import (
    Compiled,
    Ctx,
    IndexedName,
    function,
    source_of,
)
from .indexed import Keyed, check_key
from .model import Effect
from .origins import Origin, origin_of
from .state import Event


def _assign(p: dict[str, Any], combine: Callable[[Any, Any], Any]) -> Effect:
    assigns: list[tuple[str, str, Compiled]] = p["assign"]
    who: Compiled | None = p.get("player")
    if any(isinstance(var, Keyed) for _, var, _ in assigns):
        return _assign_keyed(p, combine)
    if len(assigns) == 1 and assigns[0][0] == "turn" and combine is _replace:
        # The commonest form, `set: {flag: value}` on a turn variable, needs no loop.
        _, tvar, tvalue = assigns[0]

        def set_turn(c: Ctx) -> bool:
            c.state.turn_vars[tvar] = tvalue(c)
            return False

        return set_turn

    def run(c: Ctx) -> bool:
        st = c.state
        seat = c.seat if who is None else who(c)
        for scope, var, value in assigns:
            new = value(c)
            if scope == "turn":
                st.turn_vars[var] = combine(st.turn_vars[var], new)
            elif scope == "player":
                pv = st.player_vars[seat]
                old = pv[var]
                pv[var] = combine(old, new)
                if pv[var] != old and c.events is not None:
                    c.events.append(Event("changed", seat, {"var": var, "old": old,
                                                            "new": pv[var],
                                                            "score": st.score(seat)}))
            else:
                st.game_vars[var] = combine(st.game_vars[var], new)
        return False

    return run


def _assign_keyed(p: dict[str, Any], combine: Callable[[Any, Any], Any]) -> Effect:
    """set/add with some target `NAME[KEY]`: the key is worked out, checked, then written."""
    assigns: list[tuple[str, str | Keyed, Compiled]] = p["assign"]
    who: Compiled | None = p.get("player")

    def run(c: Ctx) -> bool:
        st = c.state
        seat = c.seat if who is None else who(c)
        for scope, target, value in assigns:
            table = (st.turn_vars if scope == "turn" else st.player_vars[seat]
                     if scope == "player" else st.game_vars)
            key = None
            if isinstance(target, Keyed):
                var, values = target.name, table[target.name]
                key = check_key(values, var, target.key(c))
            else:
                var, values = target, table
            new = value(c)
            old = values[var if key is None else key]
            values[var if key is None else key] = changed = combine(old, new)
            if scope == "player" and changed != old and c.events is not None:
                data = {"var": var, "old": old, "new": changed, "score": st.score(seat)}
                c.events.append(Event("changed", seat, data if key is None else
                                      {**data, "key": key}))
        return False

    return run


def _replace(old: Any, new: Any) -> Any:
    return new


_ASSIGN_PARAMS = {
    "assign": Param("assignments", "variable: expression pairs"),
    "player": Param("expr", "whose player variables (default: the acting player)",
                    required=False, vtype="player"),
}


def _emit_assign(p: dict[str, Any], adding: bool) -> Piece | None:
    """Inline code for `set` and `add` on the acting player's, the turn's and the game's
    variables (a player variable that changes is told as a score change)."""
    if p.get("player") is not None or any(isinstance(v, Keyed) for _, v, _ in p["assign"]):
        return None  # the called form (indexed targets are rare: no inline form for them)
    ns: dict[str, Any] = {"_Event": Event}
    lines: list[str] = []
    marks: list[tuple[int, Origin]] = []
    for scope, var, value in p["assign"]:
        table = "st.player_vars[c.seat]" if scope == "player" else f"st.{scope}_vars"
        new = source_of(value, ns)
        origin = origin_of(value)
        if origin is not None:  # a value that fails at play names its own expression
            marks.append((len(lines) + (2 if scope == "player" else 0), origin))
        if scope != "player":
            lines.append(f"{table}[{var!r}] = " + (f"{table}[{var!r}] + ({new})" if adding
                                                     else new))
            continue
        lines += [
            f"_pv = {table}",
            f"_old = _pv[{var!r}]",
            f"_pv[{var!r}] = " + (f"_old + ({new})" if adding else new),
            f"if c.events is not None and _pv[{var!r}] != _old:",
            f"    c.events.append(_Event('changed', c.seat, {{'var': {var!r}, 'old': _old, "
            f"'new': _pv[{var!r}], 'score': st.score(c.seat)}}))",
        ]
    return Piece(lines, ns, marks)


def _emit_set(p: dict[str, Any]) -> Piece | None:
    return _emit_assign(p, adding=False)


@effect("set", "Set variables (turn, player or game) to the values of expressions.",
        "set: {rolled: true}", _ASSIGN_PARAMS, emit=_emit_set)
def _set(p: dict[str, Any]) -> Effect:
    return _assign(p, _replace)


def _emit_add(p: dict[str, Any]) -> Piece | None:
    return _emit_assign(p, adding=True)


@effect("add", "Add the values of expressions to variables; a player variable added to "
        "shows as a score change.", "add: {banked: \"size(caught)\"}", _ASSIGN_PARAMS,
        emit=_emit_add)
def _add(p: dict[str, Any]) -> Effect:
    return _assign(p, lambda old, new: old + new)


@function("keys", ("indexed",), "The keys of an indexed variable or of a zone family, as a "
          "list in the order declared.", "keys(height)", returns="list",
          inline=lambda var: f"list({var.keys!r})")
def _keys(var: IndexedName) -> Compiled:
    keys = var.keys
    return lambda c: list(keys)
