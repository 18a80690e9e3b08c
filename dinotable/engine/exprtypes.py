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
        self.loops: dict[str, str] = {}  # the loop names in force, by their values' type

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
            if name in self.loops:
                return self.loops[name]
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
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
            return self.indexed(n, n.value.id)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            formula = self.scope.formulas.get(n.func.id)
            if formula is not None:
                return self.formula_call(n, formula)
            if len(n.args) == 1 and isinstance(n.args[0], ast.GeneratorExp):
                return self.loop(n.func.id, n.args[0])
            return self.call(n, self.functions[n.func.id])
        if isinstance(n, ast.List):
            for elt in n.elts:
                if not isinstance(elt, ast.Name):  # a bare name is a text
                    self.type(elt)
            return "list"
        return "any"

    def loop(self, fname: str, gen: ast.GeneratorExp) -> str:
        """`sum(EXPR for NAME in LIST if TEST)`: the list must be one; the loop name takes
        the type of its values where it is known."""
        comp = gen.generators[0]
        over = self.type(comp.iter)
        if over not in ("list", "any"):
            raise self.fail(f"a loop runs over a list (numbers(LO, HI), [1, 2], faces(KIND), "
                            f"seats(), a list argument), not over {TYPE_WORDS[over]} "
                            f"({self.shown(comp.iter)})")
        name = comp.target.id if isinstance(comp.target, ast.Name) else ""
        saved = self.loops.get(name)
        self.loops[name] = self.element(comp.iter)
        try:
            body = self.type(gen.elt)
            for test in comp.ifs:
                self.type(test)
        finally:
            if saved is None:
                del self.loops[name]
            else:
                self.loops[name] = saved
        if fname in ("sum", "max", "min") and body in ("text", "list"):
            raise self.fail(f"{fname}() of a loop needs numbers, not {TYPE_WORDS[body]} "
                            f"({self.shown(gen.elt)})")
        if fname in ("any", "all"):
            return "bool"
        if fname in ("max", "min"):
            return _common([body, "number"])
        return "number"

    def element(self, n: ast.expr) -> str:
        """The type of each value of a list, where it can be known."""
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and (
                n.func.id not in self.scope.formulas):
            if n.func.id == "numbers":
                return "number"
            if n.func.id == "seats":
                return "player"
            if n.func.id == "faces" and n.args and isinstance(n.args[0], ast.Name):
                faces = self.scope.die_faces.get(n.args[0].id, ())
                return _common([type_of_value(f) for f in faces]) if faces else "any"
        if isinstance(n, ast.List) and n.elts:
            return _common(["text" if isinstance(e, ast.Name) and e.id not in (
                "True", "False") and not e.id.startswith("__arg_") else self.type(e)
                for e in n.elts])
        return "any"

    def indexed(self, n: ast.Subscript, name: str) -> str:
        """`NAME[KEY]`: the key must be of its keys' type; the value has the starting
        value's type."""
        keys = self.scope.indexed.get(name, ())
        key_type = "number" if keys and type(keys[0]) is int else "text"
        have = self.type(n.slice)
        if have != "any" and ((have in NUMERIC) != (key_type == "number") or have == "list"):
            raise self.fail(f"{name} has {key_type} keys, but {self.shown(n.slice)} is "
                            f"{TYPE_WORDS[have]}")
        return self.scope.types.get(name, "any")

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
            if kind in ("zone", "face", "kind", "indexed"):
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
