"""A `where` tested over a list of values, with what does not depend on the value worked out
once per listing.

An argument's `where` is tested once for every value (each card in a hand, each space of a
board), and much of it often reads the game alone: `energy`, a count of the player's
Gadgets, the window that is open. `hoisted` rewrites a generated expression's source so
that each such part is kept in a memo the first time the test reaches it, and read from
there for every later value of the same listing.

What is kept must read nothing that changes from one value to the next. A part qualifies
when it names the context `c` only as `c.seat` or as another argument (`c.args['k']` for
a `k` other than the one being listed), calls nothing with `c` (a compiled function may
read the arguments), defines no name of its own (`:=`) and makes no function (`lambda`).
A comprehension is kept whole or not at all: its own loop names are not the listing's.
A compiled function may be handed `c` where the compiler found that it reads no action
argument at all (`reads_no_args`, marked by `mark_arg_free`): `lookup(prop(quarry, hunt),
...)` is worked out once, while `prop($kind, cost)` is worked out for every kind.

A part is worked out only where the test reaches it, as before, and at most once a
listing: a part that would fail fails where it failed before, and the game does not change
while a listing runs, so every value is tested exactly as before.
"""

from __future__ import annotations

import ast
import contextlib
import weakref
from typing import Any

# Compiled functions (closures, formula calls) that never read an action's arguments.
_ARG_FREE: weakref.WeakSet[Any] = weakref.WeakSet()


def mark_arg_free(fn: Any) -> None:
    """Record that `fn(c, ...)` reads no action argument (the compiler saw all it reads)."""
    with contextlib.suppress(TypeError):  # not weakly referable: never treated as free
        _ARG_FREE.add(fn)


# Functions that run a function of the context with other seats in scope, by name: how many
# arguments they take and which one is that function. `_for_seat(c, seat, fn)` runs it for
# one seat, `_over_players(c, fn, reduce)` for every seat.
_SEAT_RUNNERS = {"_for_seat": (3, 2), "_over_players": (3, 1)}


def _free_call(call: ast.Call, use: ast.Name, namespace: dict[str, Any]) -> bool:
    """Whether `use` (the context `c`) is handed to a function known to read no argument.
    A seat runner (`_SEAT_RUNNERS`) is free when the function it runs is a `lambda c:`
    (its body is checked like the rest) or a function marked free."""
    func = call.func
    if not isinstance(func, ast.Name) or not any(arg is use for arg in call.args):
        return False
    runner = _SEAT_RUNNERS.get(func.id)
    if runner is not None:
        if len(call.args) != runner[0] or call.args[0] is not use:
            return False
        fn = call.args[runner[1]]
        return _seat_lambda(call, fn) or (
            isinstance(fn, ast.Name) and namespace.get(fn.id) in _ARG_FREE)
    return namespace.get(func.id) in _ARG_FREE


def _seat_lambda(call: ast.Call, node: ast.AST) -> bool:
    """Whether `node` is the `lambda c: ...` a seat runner runs."""
    runner = _SEAT_RUNNERS.get(call.func.id) if isinstance(call.func, ast.Name) else None
    return isinstance(node, ast.Lambda) and runner is not None and (
        len(call.args) == runner[0] and call.args[runner[1]] is node
        and [a.arg for a in node.args.args] == ["c"] and not node.args.kwonlyargs
        and node.args.vararg is None and node.args.kwarg is None)


def _lambda_allowed(root: ast.AST, node: ast.Lambda) -> bool:
    return any(isinstance(call, ast.Call) and _seat_lambda(call, node) for call in ast.walk(root))


def reads_no_args(source: str, namespace: dict[str, Any]) -> bool:
    """Whether generated source reads no action argument: `c` only as `c.seat`, `c.state`
    or handed to functions marked free."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return False
    return _independent(tree, None, namespace)

MEMO = "_hoist_memo"
UNSET = object()  # a memo slot not yet worked out
_KEEP = "_hoist_keep"  # keep(memo, slot, value): stores the value and gives it back


def keep(memo: list[Any], slot: int, value: Any) -> Any:
    """Store a part's value in its memo slot and give it back."""
    memo[slot] = value
    return value


# Kept whole or not at all: a comprehension's loop names are its own, and the pieces of a
# formatted text or a slice are no expressions of their own.
_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
           ast.JoinedStr)
_NEVER = (ast.Constant, ast.Name, ast.Starred, ast.Slice, ast.FormattedValue)


def _independent(node: ast.AST, name: str | None, namespace: dict[str, Any]) -> bool:
    """Whether `node` reads nothing that changes from one listed value `name` to the next
    (for `name` None: no action argument at all)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.NamedExpr | ast.Yield | ast.Await) or (
                isinstance(sub, ast.Lambda) and not _lambda_allowed(node, sub)):
            return False
        if isinstance(sub, ast.Name) and sub.id == "c" and not _allowed_use(
                node, sub, name, namespace):
            return False
    return True


def _allowed_use(root: ast.AST, use: ast.Name, name: str | None,
                 namespace: dict[str, Any]) -> bool:
    """Whether this use of `c` is `c.seat`, `c.state`, `c.args['k']` for an argument `k`
    other than `name` (never, for `name` None), or `c` handed to a function marked free."""
    for parent in ast.walk(root):
        if isinstance(parent, ast.Attribute) and parent.value is use:
            if parent.attr in ("seat", "state"):
                return True
            if parent.attr == "args" and name is not None:
                return _other_argument(root, parent, name)
            return False
        if isinstance(parent, ast.Call) and use in parent.args:
            return _free_call(parent, use, namespace)
    return False


def _other_argument(root: ast.AST, args: ast.Attribute, name: str) -> bool:
    for parent in ast.walk(root):
        if isinstance(parent, ast.Subscript) and parent.value is args:
            key = parent.slice
            return isinstance(key, ast.Constant) and isinstance(key.value, str) \
                and key.value != name
    return False


class _Hoister(ast.NodeTransformer):
    def __init__(self, name: str, namespace: dict[str, Any]) -> None:
        self.name = name
        self.namespace = namespace
        self.slots = 0

    def visit(self, node: ast.AST) -> Any:
        if isinstance(node, ast.expr) and not isinstance(node, _NEVER) and _independent(
                node, self.name, self.namespace):
            slot = self.slots
            self.slots += 1
            read = ast.parse(f"({MEMO}[{slot}] if {MEMO}[{slot}] is not _HOIST_UNSET else "
                             f"{_KEEP}({MEMO}, {slot}, None))", mode="eval").body
            assert isinstance(read, ast.IfExp) and isinstance(read.orelse, ast.Call)
            read.orelse.args[2] = node  # the part itself, worked out where it was
            return read
        if isinstance(node, _SCOPES):
            return node  # kept whole or not at all (see _SCOPES)
        return self.generic_visit(node)


def hoisted(source: str, name: str, namespace: dict[str, Any]) -> tuple[str, int]:
    """`source` with its value-independent parts read through a memo (see the module's
    docstring), and the memo's size; the source as it was, and 0, when nothing qualifies
    or it cannot be read."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return source, 0
    if any(isinstance(n, ast.NamedExpr) for n in ast.walk(tree)):
        return source, 0  # a name defined inside: left exactly as it is
    hoister = _Hoister(name, namespace)
    body = hoister.visit(tree.body)
    if not hoister.slots:
        return source, 0
    return ast.unparse(ast.fix_missing_locations(ast.Expression(body))), hoister.slots


NAMES = {"_HOIST_UNSET": UNSET, _KEEP: keep}
