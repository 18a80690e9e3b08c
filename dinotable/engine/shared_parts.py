"""A call written more than once in one expression, worked out once.

A bot's preference often repeats itself: Dino Hunt's hunt score counts the rolls that
capture three times over, eighteen `lookup(prop($target, hunt), ...)` calls for six values,
and it is read for every dinosaur in every move a bot weighs. An expression reads the game
and changes nothing, so a call made twice with the same arguments in the same scope gives
the same value: `once_each` keeps the first one's value (`:=`) and reads it where the call
comes again.

Only a call the expression always makes is kept, at the place it is first made, so what
is worked out, and in what order, is what was before: never one in a branch that may not
be taken (an `if`'s sides, the later operands of `and`/`or`), and nothing inside a function
of its own or a loop (`lambda`, a comprehension), whose scope (the seat, the loop's name)
may differ.
"""

from __future__ import annotations

import ast
import itertools
from typing import Any

from .expr import Compiled, make_closure
from .origins import origin_of, register

_names = itertools.count()


class _Finder:
    """The calls of a tree in the order Python makes them, each with whether it is always
    made (not in a branch, a function or a loop of its own)."""

    def __init__(self) -> None:
        self.calls: list[tuple[ast.Call, bool]] = []

    def visit(self, node: ast.AST, always: bool) -> None:
        if isinstance(node, ast.Lambda | ast.GeneratorExp | ast.ListComp | ast.SetComp
                      | ast.DictComp | ast.NamedExpr):
            return  # a scope of its own: neither kept nor replaced
        if isinstance(node, ast.IfExp):
            self.visit(node.test, always)
            self.visit(node.body, False)
            self.visit(node.orelse, False)
            return
        if isinstance(node, ast.BoolOp):
            self.visit(node.values[0], always)
            for value in node.values[1:]:
                self.visit(value, False)
            return
        if isinstance(node, ast.Call):
            # The function and its arguments are worked out before the call is made.
            for child in ast.iter_child_nodes(node):
                self.visit(child, always)
            self.calls.append((node, always))
            return
        for child in ast.iter_child_nodes(node):
            self.visit(child, always)


def shared_source(source: str) -> str:
    """`source` with each call it always makes more than once worked out once (the source
    as it was when there is none)."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return source
    finder = _Finder()
    finder.visit(tree.body, True)
    seen: dict[str, list[tuple[ast.Call, bool]]] = {}
    for call, always in finder.calls:
        seen.setdefault(ast.dump(call), []).append((call, always))
    kept: dict[int, str] = {}  # a call's id: the name its value is kept under
    first: set[int] = set()
    for found in seen.values():
        head, always = found[0]
        if len(found) < 2 or not always:
            continue
        name = f"_once{next(_names)}"
        first.add(id(head))
        for call, _ in found:
            kept[id(call)] = name
    if not kept:
        return source

    class _Replace(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> Any:
            name = kept.get(id(node))
            if name is None:
                return self.generic_visit(node)
            if id(node) in first:
                value = self.generic_visit(node)
                assert isinstance(value, ast.expr)
                return ast.NamedExpr(ast.Name(name, ast.Store()), value)
            return ast.Name(name, ast.Load())

    body = _Replace().visit(tree)
    return ast.unparse(ast.fix_missing_locations(body))


def once_each(fn: Compiled | None) -> Compiled | None:
    """A compiled expression with its repeated calls worked out once (see the module), or
    `fn` itself when it has none or is not generated code."""
    source = getattr(fn, "source", None)
    namespace = getattr(fn, "namespace", None)
    if fn is None or source is None or namespace is None:
        return fn
    shared = shared_source(str(source))
    if shared == source:
        return fn
    made: Any = make_closure(shared, namespace)
    for attr in ("vtype", "text"):
        if hasattr(fn, attr):
            setattr(made, attr, getattr(fn, attr))
    origin = origin_of(fn)
    if origin is not None:  # a failure names the ruleset's line, as before
        register(made, origin)
    return made  # type: ignore[no-any-return]
