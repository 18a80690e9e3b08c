"""Types of expressions, checked once at load.

Every compiled expression carries the type the checker found (`expr_type`): a number, a
true/false, a text, a seat, a list, or anything (unknown). `clash` says when a type can
never serve where another is needed; the compiler and the loader report such a use.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import ExpressionError
from .formulas import Formula

if TYPE_CHECKING:
    from .expr import Function, Scope


# --- types -----------------------------------------------------------------
# Checked once at load: a number compared with a text, arithmetic on text, or `-` before a
# list would otherwise fail mid-game. `any` (an argument, a function that declares nothing)
# never fails the check.

NUMERIC = frozenset({"number", "bool", "player"})
TYPE_WORDS = {"number": "a number", "bool": "true/false", "text": "a text", "player": "a seat",
              "list": "a list", "any": "anything"}
CONSTANT_TYPES: dict[str, str] = {
    "players": "number", "round": "number", "current": "player", "me": "player",
    "last_round": "bool", "playing": "bool", "active_players": "number",
}
CONSTANT_TYPES.update({"phase": "text", "out": "bool", "players_in": "number"})


def type_of_value(value: Any) -> str:
    """The checker's type of a plain value (a starting value, an option's default)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "list"
    return "any"


def expr_type(fn: Any) -> str:
    """The type the checker found for a compiled expression ("any" when unknown)."""
    return str(getattr(fn, "vtype", "any"))


def clash(have: str, want: str) -> bool:
    """True when a value of type `have` can never serve where `want` is needed."""
    if "any" in (have, want) or have == want:
        return False
    if want == "number" or want == "player":
        return have not in NUMERIC
    if want == "bool":
        return have == "list"
    return True


def _common(types: list[str]) -> str:
    if all(t == types[0] for t in types):
        return types[0]
    if all(t in NUMERIC for t in types):
        return "number"
    return "any"


class TypeChecker:
    """Infers a type for every node of an expression; raises ExpressionError on a clash."""

    def __init__(self, text: str, scope: Scope, functions: Mapping[str, Function]) -> None:
        self.text = text
        self.scope = scope
        self.functions = functions  # the registry (expr.FUNCTIONS), passed in: no cycle

    def fail(self, message: str) -> ExpressionError:
        return ExpressionError(self.text, message)

    @staticmethod
    def shown(n: ast.expr) -> str:
        text = ast.unparse(n).replace("__arg_", "$")
        return re.sub(r"\b(True|False)\b", lambda m: m.group().lower(), text)

    def type(self, n: ast.expr) -> str:
        if isinstance(n, ast.Constant):
            return type_of_value(n.value)
        if isinstance(n, ast.Name):
            name = n.id
            if name in ("True", "False"):
                return "bool"
            if name.startswith("__arg_"):
                return self.scope.types.get("$" + name[6:], "any")
            return self.scope.types.get(name) or CONSTANT_TYPES.get(name, "any")
        if isinstance(n, ast.BoolOp):
            return _common([self.type(v) for v in n.values])
        if isinstance(n, ast.UnaryOp):
            inner = self.type(n.operand)
            if isinstance(n.op, ast.Not):
                return "bool"
            if inner in ("text", "list"):
                raise self.fail(f"'-' before {TYPE_WORDS[inner]} ({self.shown(n.operand)})")
            return "number" if inner != "any" else "any"
        if isinstance(n, ast.BinOp):
            left, right = self.type(n.left), self.type(n.right)
            for side, t in ((n.left, left), (n.right, right)):
                if t in ("text", "list"):
                    raise self.fail(f"arithmetic on {TYPE_WORDS[t]}: {self.shown(side)} is not "
                                    f"a number (in {self.shown(n)})")
            return "number" if "any" not in (left, right) else "any"
        if isinstance(n, ast.Compare):
            types = [self.type(n.left), *(self.type(c) for c in n.comparators)]
            nodes = [n.left, *n.comparators]
            for i, op in enumerate(n.ops):
                a, b = types[i], types[i + 1]
                if "any" in (a, b):
                    continue
                ordered = not isinstance(op, ast.Eq | ast.NotEq)
                mixed = (a in NUMERIC) != (b in NUMERIC) or (
                    a not in NUMERIC and a != b)
                if mixed or (ordered and a == b == "list"):
                    raise self.fail(f"compares {TYPE_WORDS[a]} ({self.shown(nodes[i])}) with "
                                    f"{TYPE_WORDS[b]} ({self.shown(nodes[i + 1])})")
            return "bool"
        if isinstance(n, ast.IfExp):
            self.type(n.test)
            body, orelse = self.type(n.body), self.type(n.orelse)
            if "any" not in (body, orelse) and _common([body, orelse]) == "any":
                raise self.fail(f"one branch gives {TYPE_WORDS[body]} ({self.shown(n.body)}), "
                                f"the other {TYPE_WORDS[orelse]} ({self.shown(n.orelse)})")
            return _common([body, orelse])
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            formula = self.scope.formulas.get(n.func.id)
            if formula is not None:
                return self.formula_call(n, formula)
            return self.call(n, self.functions[n.func.id])
        return "any"

    def formula_call(self, n: ast.Call, formula: Formula) -> str:
        types = tuple(self.type(a) for a in n.args)
        try:
            return formula.check(types)
        except ExpressionError as exc:
            given = ", ".join(f"{p} = {self.shown(a)}" for p, a in
                              zip(formula.params, n.args, strict=True))
            raise self.fail(f"{formula.name}() with {given}: {exc.reason}") from None

    def call(self, n: ast.Call, fn: Function) -> str:
        found: list[str] = []
        for i, arg in enumerate(n.args):
            kind = fn.params[min(i, len(fn.params) - 1)]
            if kind in ("zone", "face", "kind"):
                continue
            t = self.type(arg)
            if kind != "player":  # "same": the type of the values, not of whose they are
                found.append(t)
            want = fn.arg_types[min(i, len(fn.arg_types) - 1)] if fn.arg_types else "any"
            if kind == "player" and want == "any":
                want = "player"
            if clash(t, want):
                raise self.fail(f"{fn.name}() needs {TYPE_WORDS.get(want, want)} here, not "
                                f"{TYPE_WORDS[t]} ({self.shown(arg)})")
        if fn.returns == "same":
            if fn.name in ("min", "max") and len(found) > 1 and _common(found) == "any" and (
                    "any" not in found):
                raise self.fail(f"{fn.name}() compares {TYPE_WORDS[found[0]]} with another "
                                f"type ({self.shown(n)})")
            return _common(found) if found else "any"
        return fn.returns
