"""The registries of what expressions may call and read: functions (`FUNCTIONS`, filled by
`@function` in functions.py and the modules of each mechanic) and constants (`CONSTANTS`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .expr import Compiled


@dataclass(frozen=True)
class Function:
    """A function callable from expressions; `params` names each parameter's kind.

    `build` gets the arguments (closures for expressions, `ZoneName`s, face ids) and returns
    a closure. `inline`, when given, gets the same arguments with expressions as Python
    source instead, and returns source: the common functions then cost no call at all.
    """

    name: str
    params: tuple[str, ...]
    doc: str
    example: str
    build: Callable[..., Compiled] = field(repr=False)
    varargs: bool = False
    optional: int = 0
    inline: Callable[..., str] | None = field(default=None, repr=False)
    # Types for the load-time checker: what the call gives ("number", "bool", "text",
    # "player", "list", "any", or "same": the common type of its expression arguments) and
    # what each expression parameter must be (by position; "any" or missing: unchecked).
    returns: str = "any"
    arg_types: tuple[str, ...] = ()


FUNCTIONS: dict[str, Function] = {}
# Helpers an inline form's source may call (bound by name in every expression that uses
# one): a function's inline form that needs more than builtins names one of these. A
# helper is a function, or a table of them (`prop`'s readers, one a property name).
INLINE_HELPERS: dict[str, Callable[..., object] | dict[str, Callable[..., object]]] = {}

# Constants every expression may read: (doc, Python source over the context `c`).
CONSTANTS: dict[str, tuple[str, str]] = {
    "players": ("number of seats at the table", "len(st.players)"),
    "round": ("the round number, from 1", "st.round"),
    "current": ("the seat whose turn it is", "st.current"),
    "me": ("the seat in scope (the acting player, or each player inside highest/total)",
           "c.seat"),
    "last_round": ("true once the end has been triggered (and during tiebreak rounds)",
                   "(st.last_round or st.tiebreak)"),
    "playing": ("true while the seat in scope is still in this round (has not dropped out)",
                "st.in_round(c.seat)"),
    "team": ("the team of the seat in scope, from 0 (without teams, every seat is a team)",
             "(c.seat % st.rules.teams if st.rules.teams else c.seat)"),
    "window": ("the response window asking now ('' when none is open)",
               "(st.pending[-1].get('window', '') if st.pending else '')"),
    "active_players": ("players still taking part in this round",
                       "sum(1 for _s in range(len(st.players)) if st.in_round(_s))"),
}
# Phases and knock-outs (see flow.py and effects_flow.py).
CONSTANTS.update({
    "phase": ("the name of the round's phase being played ('' outside phases)", "st.phase"),
    "out": ("true when the seat in scope is knocked out of the game (knock_out)",
            "st.knocked[c.seat]"),
    "players_in": ("how many players are not knocked out of the game",
                   "st.knocked.count(False)"),
})


def function(
    name: str, params: tuple[str, ...], doc: str, example: str,
    varargs: bool = False, optional: int = 0, inline: Callable[..., str] | None = None,
    returns: str = "any", arg_types: tuple[str, ...] = (),
) -> Callable[[Callable[..., Compiled]], Callable[..., Compiled]]:
    """Register an expression function; `build` gets compiled arguments and returns a closure."""

    def register(build: Callable[..., Compiled]) -> Callable[..., Compiled]:
        FUNCTIONS[name] = Function(name, params, doc, example, build, varargs, optional, inline,
                                   returns, arg_types)
        return build

    return register
