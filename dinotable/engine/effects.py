"""The effect registry: one-key mappings in YAML, compiled once into closures.

Each effect is registered with its parameters (by kind), a one-line doc and a
YAML example; `rulesets/README.md` is kept in step with this registry by a
test. Effects never ask questions: every choice is an action argument.

The compiler is in compiler.py, code generation in codegen.py, and the effects
themselves by mechanic: effects_dice.py, effects_zones.py, effects_vars.py,
effects_flow.py, items.py, boards.py, facing.py, loops.py (each registers on import).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .codegen import Piece
from .expr import (
    suggest,
)
from .model import Effect

if TYPE_CHECKING:
    from .compiler import EffectCompiler


@dataclass(frozen=True)
class Param:
    """One parameter of an effect: its kind (zone, zones, expr, face, text, ...) and default."""

    kind: str
    doc: str
    required: bool = True
    default: Any = None
    vtype: str = "any"  # for an expr parameter: the value type it needs (number, player, ...)


@dataclass(frozen=True)
class EffectSpec:
    """A registered effect."""

    name: str
    doc: str
    example: str
    params: dict[str, Param]
    build: Callable[[dict[str, Any]], Effect] = field(repr=False)
    shorthand: str | None = None  # the parameter a plain scalar value fills
    emit: Callable[[dict[str, Any]], Piece | None] | None = field(default=None, repr=False)


EFFECTS: dict[str, EffectSpec] = {}
CONTROL_FORMS = {
    "when": "when: EXPR, then: [EFFECTS], else: [EFFECTS] - run `then` if EXPR holds, "
            "else `else` (optional).",
    "for_each_player": "for_each_player: [EFFECTS] - run the effects once for every player, "
                       "in seat order, with that player in scope (their variables and zones); "
                       "ending the turn inside is not allowed.",
    "choose": "choose: ID, args: {NAME: DOMAIN}, then: [EFFECTS] - ask a question in the "
              "middle of the list: the game waits until the player answers with action ID and "
              "the chosen arguments, then runs `then` with them ($NAME) and goes on with the "
              "list. `who: EXPR` names who answers (default: the player in scope); "
              "`single: auto` takes an only possible answer without asking; `prompt: TEXT`. "
              "With no possible answer, `then` is skipped.",
    "respond": "respond: WINDOW (or {window: WINDOW, ask: others_then_me}) - open a response "
               "window: players are asked in turn (`others`: the rest from the acting player's "
               "left; `others_then_me` (default): then the acting player; `everyone`: the "
               "acting player first) and may play an action listing the window under "
               "`windows:`, or pass. Every play asks everyone else again; when all asked have "
               "passed, the list goes on. Nobody with nothing playable is asked.",
}
SUSPENDING = ("choose", "respond")
# Control forms added by other modules (see loops.py): form name -> builder taking the
# compiler, the form's mapping and its path, giving the form's code piece.
EXTRA_FORMS: dict[str, Callable[[EffectCompiler, dict[str, Any], tuple[Any, ...]], Piece]] = {}



def effect(name: str, doc: str, example: str, params: dict[str, Param],
           shorthand: str | None = None, emit: Callable[[dict[str, Any]], Piece | None] | None
           = None) -> Callable[[Callable[[dict[str, Any]], Effect]],
                               Callable[[dict[str, Any]], Effect]]:
    """Register an effect builder under `name` (with `emit`, inline code for hot cases)."""

    def register(build: Callable[[dict[str, Any]], Effect]) -> Callable[[dict[str, Any]], Effect]:
        EFFECTS[name] = EffectSpec(name, doc, example, params, build, shorthand, emit)
        return build

    return register



def _unknown(what: str, name: str, known: list[str] | list[str | int]) -> str:
    name = str(name)  # a YAML key may be null or a number
    near = suggest(name, known)
    hint = f" (did you mean {near!r}?)" if near else ""
    return f"unknown {what} {name!r}{hint}; expected one of: {', '.join(sorted(map(str, known)))}"
