"""Named expressions with parameters (`define: {farkle(n): "..."}`): formulas.

A formula's body is compiled once at load into a closure over the context, like any
expression. Its parameters are read from the innermost call's frame: a call works out its
arguments (with the caller's seat in scope), pushes them, runs the body and pops them, so a
parameter means the same value wherever the body reads it, even inside `highest()`.
Each call is type-checked at load: the body is checked again with the parameters taking
the types of that call's arguments.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# The argument values of the formula calls in progress, innermost last. Expressions are
# evaluated on one thread, one call inside another: a stack is all a call needs.
FRAMES: list[tuple[Any, ...]] = []
FRAMES_NAME = "_formula_frames"

_SIGNATURE = re.compile(r"^([a-z][a-z0-9_]*)\s*\((.*)\)$", re.S)
_PARAM = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Formula:
    """A compiled formula: its parameters, `call(c, *values)`, and `check(types)`, the type
    of its body with parameters of those types (an ExpressionError where they clash)."""

    name: str
    params: tuple[str, ...]
    call: Callable[..., Any]
    check: Callable[[tuple[str, ...]], str]

    @property
    def example(self) -> str:
        """How a call looks, for messages."""
        return f"{self.name}({', '.join(self.params)})"


def parse_signature(key: str) -> tuple[str, list[str]] | str | None:
    """`name(a, b)` as (name, [a, b]); None when `key` is a plain name, and a message when
    it is a malformed signature."""
    if "(" not in key and ")" not in key:
        return None
    m = _SIGNATURE.match(key.strip())
    if not m:
        return (f"{key!r} is not a definition with parameters: write NAME(PARAM, ...), "
                "e.g. farkle(n)")
    params: list[str] = []
    for part in (p.strip() for p in m.group(2).split(",")) if m.group(2).strip() else ():
        if not _PARAM.match(part):
            return f"{key!r}: a parameter is a lower_snake_case name, not {part!r}"
        if part in params:
            return f"{key!r}: the parameter {part!r} is named twice"
        params.append(part)
    if not params:
        return f"{key!r}: a definition with brackets needs at least one parameter"
    return m.group(1), params


def param_source(index: int) -> str:
    """Python source reading a parameter of the innermost formula call."""
    return f"{FRAMES_NAME}[-1][{index}]"


def make_formula(name: str, params: list[str], body: Callable[[Any], Any],
                 check: Callable[[tuple[str, ...]], str]) -> Formula:
    """A formula running `body` (compiled with its parameters as `param_source` reads)."""
    frames = FRAMES

    def call(c: Any, *values: Any) -> Any:
        frames.append(values)
        try:
            return body(c)
        finally:
            frames.pop()

    return Formula(name, tuple(params), call, check)


def stand_in(name: str, params: list[str]) -> Formula:
    """A formula whose body failed to compile (reported once): its calls still compile."""
    return make_formula(name, params, lambda c: None, lambda types: "any")
