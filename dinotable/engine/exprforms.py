"""The forms an expression may take beyond plain Python-like operators: loops over a list
(`sum(EXPR for NAME in LIST)` and its kin), written-out lists, one value of an indexed
variable (`height[$col]`), and one zone of a zone family (`game[k]`). `Forms` is a part of
the expression compiler (`expr._Compiler`), kept here so each form reads on its own.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import ExpressionError, suggest
from .indexed import keys_text, lookup
from .naming import FamilyZones, KeyedZone, ZoneName, _counter, zone_id
from .registry import CONSTANTS, FUNCTIONS

if TYPE_CHECKING:
    from .expr import Compiled, Scope

LOOP_FUNCTIONS = ("sum", "count", "any", "all", "max", "min")
LOOP_FORM = "sum(EXPR for NAME in LIST)"


class FaceExpr:
    """A face worked out as the game runs (a loop name or a definition's parameter) where a
    function takes a face: its source stands where a face's literal would (`repr`)."""

    __slots__ = ("source",)

    def __init__(self, source: str) -> None:
        self.source = source

    def __repr__(self) -> str:
        return self.source

class Forms:
    """The compiler's methods for loops, lists, indexed values and zone families."""

    if TYPE_CHECKING:
        scope: Scope
        ns: dict[str, Any]
        loops: dict[str, str]

        def fail(self, message: str, suggestion: str | None = None) -> ExpressionError: ...

        def node(self, n: ast.expr) -> str: ...

    def list_literal(self, n: ast.List) -> str:
        """`[1, 2, 3]`, `[red, blue]`: a list; a bare name in it is a text, as in YAML."""
        parts = [repr(e.id) if isinstance(e, ast.Name) and not e.id.startswith("__arg_")
                 and e.id not in ("True", "False") else self.node(e) for e in n.elts]
        return "(" + "".join(f"{p}, " for p in parts) + ")"

    def loop(self, fname: str, gen: ast.GeneratorExp) -> str:
        """`sum(EXPR for NAME in LIST if TEST)` and its kin: a Python generator over the list,
        the loop name a local of it."""
        if len(gen.generators) != 1:
            raise self.fail(f"{fname}(): a loop has one `for` (a loop inside the expression "
                            f"is fine): {LOOP_FORM}")
        comp = gen.generators[0]
        if not isinstance(comp.target, ast.Name) or comp.target.id.startswith("__arg_"):
            raise self.fail(f"{fname}(): the loop name is one plain name, e.g. "
                            "`for f in faces(d6)`")
        if len(comp.ifs) > 1:
            raise self.fail(f"{fname}(): a loop takes at most one `if`: "
                            f"{fname}(EXPR for NAME in LIST if TEST)")
        name = comp.target.id
        clash = self.taken(name)
        if clash:
            raise self.fail(f"the loop name {name!r} is already {clash}: choose another")
        over = self.iterable(comp.iter)
        local = f"_lp{next(_counter)}"
        self.loops[name] = local
        try:
            body = self.node(gen.elt)
            test = self.node(comp.ifs[0]) if comp.ifs else None
        finally:
            del self.loops[name]
        if fname == "count":  # the true ones, among those passing the `if`
            keep = f"({test}) and ({body})" if test else body
            return f"sum(1 for {local} in {over} if {keep})"
        items = f"{body} for {local} in {over}" + (f" if {test}" if test else "")
        if fname in ("max", "min"):
            return f"{fname}(({items}), default=0)"
        return f"{fname}({items})"

    def iterable(self, n: ast.expr) -> str:
        """What a loop runs over: any list; a range of numbers or the seats without making
        the list."""
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and not n.keywords and (
                n.func.id not in self.scope.formulas):
            if n.func.id == "numbers" and len(n.args) == 2:
                lo, hi = (self.node(a) for a in n.args)
                return f"range(int({lo}), int({hi}) + 1)"
            if n.func.id == "seats" and not n.args:
                return "range(len(st.players))"
            if n.func.id == "faces" and len(n.args) == 1 and isinstance(n.args[0], ast.Name) and (
                    n.args[0].id in self.scope.die_faces):  # the faces, known at load
                return repr(tuple(dict.fromkeys(self.scope.die_faces[n.args[0].id])))
        return self.node(n)

    def taken(self, name: str) -> str | None:
        """What a name already means, if anything a loop name may not hide."""
        s = self.scope
        for what, names in (("a loop name", self.loops), ("a parameter", s.params),
                            ("a variable", s.turn_vars | s.player_vars | s.game_vars),
                            ("an option", s.options), ("a constant", CONSTANTS),
                            ("a definition", {**s.defines, **s.formulas}),
                            ("a function", FUNCTIONS), ("a value", ("True", "False"))):
            if name in names:
                return what
        return None

    def indexed(self, n: ast.Subscript) -> str:
        """`NAME[KEY]`: one value of an indexed variable; a key written out must be one of
        its keys, a computed one is checked as the game is played."""
        s = self.scope
        if isinstance(n.value, ast.Name) and n.value.id in s.zone_families:
            name = n.value.id
            raise self.fail(f"{name}[KEY] names one zone of the family {name!r}: use it where "
                            f"a function takes a zone, e.g. size({name}[KEY])")
        if not isinstance(n.value, ast.Name) or n.value.id not in s.indexed:
            target = ast.unparse(n.value).replace("__arg_", "$")
            raise self.fail(f"{target} cannot be indexed: only a variable declared with `keys` "
                            "is read as NAME[KEY]")
        name = n.value.id
        if isinstance(n.slice, ast.Slice | ast.Tuple):
            raise self.fail(f"{name}[...] takes one key, e.g. {name}[{s.indexed[name][0]!r}]")
        keys = s.indexed[name]
        table = self.var_table(name)
        if isinstance(n.slice, ast.Constant):
            if n.slice.value not in keys or type(n.slice.value) is bool:
                shown = str(n.slice.value).lower() if isinstance(n.slice.value, bool) else (
                    repr(n.slice.value))
                raise self.fail(f"{name} has no key {shown} (its keys: "
                                f"{keys_text(list(keys))})",
                                suggest(str(n.slice.value), map(str, keys)))
            return f"{table}[{n.slice.value!r}]"  # a key known to be there: read directly
        self.ns["_ix"] = lookup
        return f"_ix({table}, {name!r}, {self.node(n.slice)})"

    def var_table(self, name: str) -> str:
        """Python source for the dict of an indexed variable of the seat in scope."""
        s = self.scope
        if name in s.turn_vars:
            return f"st.turn_vars[{name!r}]"
        if name in s.player_vars:
            return f"st.player_vars[c.seat][{name!r}]"
        return f"st.game_vars[{name!r}]"

    def family_zone(self, family: str, key: ast.expr) -> ZoneName:
        """`NAME[KEY]` where a function takes a zone: a key written out is that zone, known
        at load; a computed one picks the zone as the game runs."""
        s = self.scope
        keys = s.zone_families[family]
        members = {k: zone_id(family, k) for k in keys}
        per_player = members[keys[0]] in s.player_zones
        if isinstance(key, ast.Slice | ast.Tuple):
            raise self.fail(f"{family}[...] takes one key, e.g. {family}[{keys[0]!r}]")
        if isinstance(key, ast.Constant):
            if type(key.value) is bool or key.value not in members:
                shown = str(key.value).lower() if isinstance(key.value, bool) else (
                    repr(key.value))
                raise self.fail(f"the zone family {family} has no key {shown} (its keys: "
                                f"{keys_text(list(keys))})", suggest(str(key.value),
                                                                    map(str, keys)))
            return ZoneName(members[key.value], per_player, self.ns)
        return KeyedZone(family, per_player, self.ns, FamilyZones(family, members, per_player),
                         self.node(key))


class ByFace:
    """A function whose face arguments are worked out as the game runs: built with those
    faces the first time they are met, then kept (a die has few faces)."""

    __slots__ = ("args", "build", "built")

    def __init__(self, build: Callable[..., Compiled], args: list[Any]) -> None:
        self.build = build
        self.args = args  # FaceExpr where a face goes, the built argument elsewhere
        self.built: dict[tuple[Any, ...], Compiled] = {}

    def __call__(self, *faces: Any) -> Compiled:
        try:
            return self.built[faces]
        except KeyError:
            given = iter(faces)
            made = self.build(*[next(given) if isinstance(a, FaceExpr) else a
                                for a in self.args])
            if len(self.built) < 64:  # any number may name a face: keep the first few
                self.built[faces] = made
            return made


def loop_names() -> str:
    return ", ".join(f"{f}()" for f in LOOP_FUNCTIONS[:-1]) + f" or {LOOP_FUNCTIONS[-1]}()"
