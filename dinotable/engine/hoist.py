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

A part is worked out only where the test reaches it, as before, and at most once a
listing: a part that would fail fails where it failed before, and the game does not change
while a listing runs, so every value is tested exactly as before.
"""

from __future__ import annotations

import ast
from typing import Any

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


def _independent(node: ast.AST, name: str) -> bool:
    """Whether `node` reads nothing that changes from one listed value to the next."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Lambda | ast.NamedExpr | ast.Yield | ast.Await):
            return False
        if isinstance(sub, ast.Name) and sub.id == "c" and not _allowed_use(node, sub, name):
            return False
    return True


def _allowed_use(root: ast.AST, use: ast.Name, name: str) -> bool:
    """Whether this use of `c` is `c.seat` or `c.args['k']` for another argument `k`."""
    for parent in ast.walk(root):
        if isinstance(parent, ast.Attribute) and parent.value is use:
            if parent.attr == "seat":
                return True
            if parent.attr == "args":
                return _other_argument(root, parent, name)
            return False
    return False


def _other_argument(root: ast.AST, args: ast.Attribute, name: str) -> bool:
    for parent in ast.walk(root):
        if isinstance(parent, ast.Subscript) and parent.value is args:
            key = parent.slice
            return isinstance(key, ast.Constant) and isinstance(key.value, str) \
                and key.value != name
    return False


class _Hoister(ast.NodeTransformer):
    def __init__(self, name: str) -> None:
        self.name = name
        self.slots = 0

    def visit(self, node: ast.AST) -> Any:
        if isinstance(node, ast.expr) and not isinstance(node, _NEVER) and _independent(
                node, self.name):
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


def hoisted(source: str, name: str) -> tuple[str, int]:
    """`source` with its value-independent parts read through a memo (see the module's
    docstring), and the memo's size; the source as it was, and 0, when nothing qualifies
    or it cannot be read."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return source, 0
    if any(isinstance(n, ast.NamedExpr) for n in ast.walk(tree)):
        return source, 0  # a name defined inside: left exactly as it is
    hoister = _Hoister(name)
    body = hoister.visit(tree.body)
    if not hoister.slots:
        return source, 0
    return ast.unparse(ast.fix_missing_locations(ast.Expression(body))), hoister.slots


NAMES = {"_HOIST_UNSET": UNSET, _KEEP: keep}
