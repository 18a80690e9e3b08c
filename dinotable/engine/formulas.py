"""Named expressions with parameters (`define: {farkle(n): "..."}`): formulas.

A formula's body is compiled once at load into a closure over the context, like any
expression. Its parameters are read from the innermost call's frame: a call works out its
arguments (with the caller's seat in scope), pushes them, runs the body and pops them, so a
parameter means the same value wherever the body reads it, even inside `highest()`. Where
every read lies in the body's own source, the body is also made a function taking the
parameters as arguments (`expr.direct_formula`), and is called that way, no frame pushed.
Each call is type-checked at load: the body is checked again with the parameters taking
the types of that call's arguments.
"""

from __future__ import annotations

import ast
import contextlib
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any


class _PerThread(threading.local):
    """What formula calls keep while they run, apart for each thread: a bot thinks on a
    thread of its own while the table reads the game on another.

    `stack`: the argument values of the formula calls in progress, innermost last (one call
    runs inside another). `memo`: while `unchanging()` runs, each call's value by (formula,
    game, seat, arguments), for many readings of one unchanging game."""

    def __init__(self) -> None:
        self.stack: list[tuple[Any, ...]] = []
        self.memo: dict[tuple[Any, ...], Any] | None = None


FRAMES = _PerThread()
_UNKNOWN = object()  # a call not in the memo yet
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
    # The call without the memo: for a call whose arguments differ for each option a bot
    # weighs (an action's own arguments), where every lookup would miss.
    unmemoised: Callable[..., Any] | None = None

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
    return f"{FRAMES_NAME}.stack[-1][{index}]"


# An action's argument read as it is, in generated code: `$dice` is `c.args['dice']`.
_ARG_READ = re.compile(r"c\.args\['([^'\\]+)'\]")


def each_option_its_own(sources: list[str], args: frozenset[str]) -> bool:
    """Whether a call's arguments (their sources) are the option's own arguments (`args`)
    as they are, every one of them (`rethrow($dice)` for a reroll of some dice): then no two
    options a bot weighs make the same call, and a memo lookup could only miss."""
    named = set()
    for source in sources:
        read = _ARG_READ.fullmatch(source)
        if read is None:
            return False
        named.add(read.group(1))
    return bool(named) and named == args


def make_formula(name: str, params: list[str], body: Callable[[Any], Any],
                 check: Callable[[tuple[str, ...]], str],
                 direct: Callable[..., Any] | None = None) -> Formula:
    """A formula running `body` (compiled with its parameters as `param_source` reads), or
    `direct(c, *values)`, the same body taking its parameters as arguments, where there is
    one (`expr.direct_formula`): no frame to push for it."""
    local = FRAMES
    if direct is not None:
        run = direct
    else:
        def run(c: Any, *values: Any) -> Any:
            frames = local.stack
            frames.append(values)
            try:
                return body(c)
            finally:
                frames.pop()

    if reads_parameters_only(body):
        # Its value is fixed by its arguments alone: remembering it would cost more than
        # working it out (`thrown(d, s): "d - 11 * max(0, d - s)"`).
        return Formula(name, tuple(params), run, check)

    def call(c: Any, *values: Any) -> Any:
        memo = local.memo
        if memo is None:
            return run(c, *values)
        # A body reads the game, the seat in scope and its parameters, never an action's
        # arguments: with the game unchanged, those three fix its value.
        key = (name, id(c.state), c.state.version, c.seat, values)
        try:
            found = memo.get(key, _UNKNOWN)  # a miss is no exception: most calls miss
        except TypeError:  # an argument that cannot be a key (a list): work it out
            return run(c, *values)
        if found is _UNKNOWN:
            found = memo[key] = run(c, *values)
        return found

    if direct is not None:
        call.direct = direct  # type: ignore[attr-defined]  # its body, for hoist.py
    return Formula(name, tuple(params), call, check, run)


_BUILTINS = frozenset({"abs", "min", "max", "int", "round", "len", "sum", "any", "all",
                       "float", "str", "bool", "tuple", "list", "sorted", "range"})


def reads_parameters_only(body: Any) -> bool:
    """Whether a compiled body reads nothing but its parameters: no game, no seat, no other
    function (any of which `c` would reach), only plain Python over constants."""
    source = getattr(body, "source", None)
    if not isinstance(source, str):
        return False
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return False
    bound = {n.id for node in ast.walk(tree) if isinstance(node, ast.comprehension)
             for n in ast.walk(node.target) if isinstance(n, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda | ast.NamedExpr):
            return False
        if isinstance(node, ast.Name) and node.id not in bound and node.id != FRAMES_NAME \
                and node.id not in _BUILTINS:
            return False
    return True


@contextlib.contextmanager
def unchanging() -> Iterator[None]:
    """Within it, a formula called again with the same seat and arguments gives the value it
    gave before, without working it out: only for readings of a game that does not change
    meanwhile (never while an action's effects run)."""
    before = FRAMES.memo
    FRAMES.memo = {}
    try:
        yield
    finally:
        FRAMES.memo = before


def stand_in(name: str, params: list[str]) -> Formula:
    """A formula whose body failed to compile (reported once): its calls still compile."""
    return make_formula(name, params, lambda c: None, lambda types: "any")
