"""Expressions: parsed once at load into closures, evaluated many times.

The language is a small, safe subset of Python's expression syntax: numbers,
strings, true/false, names, `and`/`or`/`not`, comparisons, + - * // %, and
calls of the functions registered in `FUNCTIONS`. `$name` reads an argument of
the action being taken. Every name is resolved when the expression is
compiled, so a misspelt name is a load error, never a surprise mid-game.

This module holds what an expression sees (`Ctx`, `Scope`), the registries of
functions and constants, and the compiler. The functions themselves are in
functions.py (and the modules of each mechanic), the load-time type checker in
exprtypes.py.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from .errors import ExpressionError
from .errors import suggest as suggest
from .exprforms import (
    LOOP_FORM as LOOP_FORM,
)
from .exprforms import (
    LOOP_FUNCTIONS as LOOP_FUNCTIONS,
)
from .exprforms import (
    ByFace as ByFace,
)
from .exprforms import (
    FaceExpr as FaceExpr,
)
from .exprforms import (
    Forms,
    loop_names,
)
from .exprtypes import TypeChecker, type_of_value
from .formulas import FRAMES, FRAMES_NAME, Formula, each_option_its_own, param_source
from .hoist import mark_arg_free, reads_no_args
from .naming import (
    BoardItems as BoardItems,
)
from .naming import (
    FamilyZones as FamilyZones,
)
from .naming import (
    IndexedName as IndexedName,
)
from .naming import (
    KeyedZone as KeyedZone,
)
from .naming import (
    TableZone as TableZone,
)
from .naming import (
    ZoneName as ZoneName,
)
from .naming import (
    bind as bind,
)
from .naming import (
    family_members as family_members,
)
from .naming import (
    zone_id as zone_id,
)
from .naming import (
    zone_local as zone_local,
)
from .origins import PASSED_ON
from .registry import CONSTANTS as CONSTANTS
from .registry import FUNCTIONS as FUNCTIONS
from .registry import INLINE_HELPERS
from .registry import Function as Function
from .registry import function as function

if TYPE_CHECKING:
    from .state import GameState

Compiled = Callable[["Ctx"], Any]


class Ctx:
    """What an expression or effect sees: the state, the seat in scope, the action's arguments."""

    __slots__ = ("after", "args", "common", "events", "sampler", "seat", "state", "turn_over")

    def __init__(self, state: GameState, seat: int, args: Mapping[str, Any] | None = None) -> None:
        self.state = state
        self.seat = seat
        self.args: Mapping[str, Any] = args or {}
        self.events: list[Any] | None = None  # None: nobody is watching, record nothing
        self.turn_over = False
        # Where the turn flow goes on once the running effect list is done; a question or
        # a response window that suspends the list keeps it for when the list resumes.
        self.after = "action"
        # Set while a bot samples one legal action: large domains give one random value.
        self.sampler: Any = None
        # What listings for several seats of one unchanging game share (see hoist.COMMON).
        self.common: dict[int, Any] | None = None


@dataclass(frozen=True)
class Scope:
    """The names an expression may use, by kind; built by the ruleset loader."""

    options: frozenset[str] = frozenset()
    game_vars: frozenset[str] = frozenset()
    player_vars: frozenset[str] = frozenset()
    turn_vars: frozenset[str] = frozenset()
    zones: frozenset[str] = frozenset()
    player_zones: frozenset[str] = frozenset()
    faces: frozenset[str | int] = frozenset()  # a number face is the number
    kinds: frozenset[str] = frozenset()
    # Each die kind's faces, in order (what `faces(KIND)` runs over in a loop).
    die_faces: Mapping[str, tuple[Any, ...]] = field(default_factory=dict, compare=False,
                                                     hash=False)
    args: frozenset[str] = frozenset()
    props: frozenset[str] = frozenset()
    boards: frozenset[str] = frozenset()
    # Named expressions (`define:`): name -> (Python source, the names that source uses).
    defines: Mapping[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    # Named expressions with parameters (`define: {farkle(n): ...}`), called like functions.
    formulas: Mapping[str, Formula] = field(default_factory=dict)
    # While a formula's body is compiled: its parameters, read as plain names.
    params: tuple[str, ...] = ()
    # The value type of each variable and option (its starting value's), and of `$arg`s by
    # "$name"; a name not here is `any` and never a type error.
    types: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    # Indexed variables (one value per key, read as `NAME[KEY]`): name -> its keys in order.
    indexed: Mapping[str, tuple[Any, ...]] = field(default_factory=dict, compare=False,
                                                   hash=False)
    # Zone families (a zone declared with `keys`, one zone `NAME_KEY` per key, named in an
    # expression as `NAME[KEY]`): name -> its keys in order.
    zone_families: Mapping[str, tuple[Any, ...]] = field(default_factory=dict, compare=False,
                                                         hash=False)

    def all_names(self) -> list[str]:
        """Every plain name an expression could use, for suggestions."""
        return sorted(
            self.options | self.game_vars | self.player_vars | self.turn_vars | set(CONSTANTS)
            | set(self.defines) | set(self.params)
        )


_BINOPS: dict[type, str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%",
}
_CMPOPS: dict[type, str] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
}


# Functions and effects with an inline form have a called form too (`build`): the inline
# one is what games run; the called one is switched on only by `called_forms`, for the test
# that plays every ruleset both ways and demands the same games.
_INLINING = [True]


@contextmanager
def called_forms() -> Iterator[None]:
    """Compile rulesets loaded inside this block with every function and effect called
    through its closure instead of inlined (for the differential test)."""
    _INLINING[0] = False
    try:
        yield
    finally:
        _INLINING[0] = True


def inlining() -> bool:
    """Whether compiled code may inline functions and effects (see `called_forms`)."""
    return _INLINING[0]


# Generated code names the game state `st`, never `c.state`: every generated function
# (an expression, an effect list, the legal-action lister) starts with this line, so the
# source emitted for an expression means the same wherever it is inlined.
STATE_BINDING = "st = c.state"


def prologue(namespace: dict[str, Any], indent: str = "    ") -> str:
    """The first lines of a generated function: the state, then each table zone its source
    reads (those recorded in `namespace` by `zone_local`)."""
    zones = [(k, v.name) for k, v in namespace.items() if isinstance(v, TableZone)]
    table = "_zones" if len(zones) > 1 else "st.zones"  # several read the table once
    lines = [STATE_BINDING, *(["_zones = st.zones"] if len(zones) > 1 else []),
             *(f"{k} = {table}[{name!r}][0]" for k, name in zones)]
    return "".join(f"{indent}{line}\n" for line in lines)


def make_closure(source: str, namespace: dict[str, Any]) -> Compiled:
    """A function of the context giving SOURCE, its names bound in `namespace`; it keeps
    its source so that generated code can inline it."""
    # The source is built by _Compiler from a parsed, whitelisted expression: every name in
    # it is a context read or a value bound in `namespace`, never text from the ruleset.
    namespace.setdefault("_for_seat", for_seat)
    made: dict[str, Any] = {}
    exec(f"def _expr(c):\n{prologue(namespace)}    return {source}\n", namespace, made)
    fn: Any = made["_expr"]
    fn.source = source
    fn.namespace = namespace
    if reads_no_args(source, namespace):
        mark_arg_free(fn)  # a `where` may work it out once a listing (hoist.py)
    return cast(Compiled, fn)


def direct_formula(body: Compiled, count: int) -> Callable[..., Any] | None:
    """A formula's body as `def _formula(c, _p0, ...)`, its parameters plain arguments, for
    a body whose every parameter read lies in its own source; None where one lies inside a
    function compiled apart (that one reads the innermost call's frame, see formulas.py)."""
    source = getattr(body, "source", None)
    if not isinstance(source, str):
        return None
    marks = [param_source(i) for i in range(count)]
    if sum(source.count(m) for m in marks) != getattr(body, "param_reads", -1):
        return None
    for i, mark in enumerate(marks):
        source = source.replace(mark, f"_p{i}")
    namespace: dict[str, Any] = dict(getattr(body, "namespace", {}))
    params = "".join(f", _p{i}" for i in range(count))
    made: dict[str, Any] = {}
    # The body's own generated source (see make_closure), its parameter reads renamed.
    exec(f"def _formula(c{params}):\n{prologue(namespace)}    return {source}\n",
         namespace, made)
    fn: Any = made["_formula"]
    # What a `where` needs to write the body in place of a call (hoist.py): the source with
    # parameters `_p0`, ..., and the names it reads.
    fn.body_source, fn.namespace, fn.param_count = source, namespace, count
    return cast(Callable[..., Any], fn)


def source_of(fn: Compiled, namespace: dict[str, Any]) -> str:
    """Python source for a compiled expression, its names merged into `namespace`."""
    src = getattr(fn, "source", None)
    if src is None:
        return f"{bind(namespace, fn, 'x')}(c)"
    namespace.update(getattr(fn, "namespace", {}))
    return str(src)


_TOKENS = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|\$([A-Za-z_][A-Za-z0-9_]*)"""
                     r"|\b(true|false)\b")


def _rewrite_token(m: re.Match[str]) -> str:
    if m.group(1):
        return m.group(1)  # a quoted string, kept as written
    if m.group(2):
        return f"__arg_{m.group(2)}"
    return "True" if m.group(3) == "true" else "False"


_LINE_BREAKS = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|\s*\n\s*""")


def one_line(source: str) -> str:
    """An expression's text with its line breaks (outside quoted strings) made spaces: a
    folded YAML scalar keeps the breaks of its more-indented lines."""
    return _LINE_BREAKS.sub(lambda m: m.group(1) or " ", source.strip())


MAX_LITERAL = 10**9  # a larger number in a ruleset is a typo, and could make a game hang


def _literal(value: Any, text: str) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        raise ExpressionError(text, f"the number {value!r} is too large")
    if isinstance(value, int | float) and not isinstance(value, bool) and (
            not -MAX_LITERAL <= value <= MAX_LITERAL):
        shown = repr(value) if len(repr(value)) <= 40 else f"of {len(repr(value))} digits"
        raise ExpressionError(text, f"number too large: {shown} (at most {MAX_LITERAL:,} "
                                    "either side of zero)")
    return repr(value)


def compile_expr(source: Any, scope: Scope) -> Compiled:
    """Compile an expression (or a plain number/bool) into a closure over a Ctx."""
    if isinstance(source, bool | int | float):
        fn = make_closure(_literal(source, repr(source)), {})
        cast(Any, fn).vtype = type_of_value(source)
        cast(Any, fn).text = repr(source).lower() if isinstance(source, bool) else repr(source)
        return fn
    if not isinstance(source, str):
        raise ExpressionError(repr(source), "expected an expression (text, number or true/false)")
    text = one_line(source)
    if not text:  # `set: {led: ""}`: the empty YAML text is the empty text
        text = "''"
    # Rewrite `$arg`, `true` and `false` outside quoted strings only.
    python = _TOKENS.sub(_rewrite_token, text)
    try:
        tree = ast.parse(python, mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(text, f"not a valid expression ({exc.msg})") from None
    compiler = _Compiler(text, scope)
    fn = make_closure(compiler.node(tree.body), compiler.ns)
    cast(Any, fn).param_reads = compiler.param_reads
    # Every name resolved: now the types, so `size(cup) >= 'x'` is a load error too.
    cast(Any, fn).vtype = TypeChecker(text, scope, FUNCTIONS).type(tree.body)
    cast(Any, fn).text = text
    return fn


# Functions whose single argument may be a loop, `sum(EXPR for NAME in LIST if TEST)`, and
# the Python each becomes: `count` counts the true values, `max`/`min` of nothing are 0.
class _Compiler(Forms):
    """Turns a parsed expression into Python source over the context `c`."""

    def __init__(self, text: str, scope: Scope) -> None:
        self.text = text
        self.scope = scope
        self.ns: dict[str, Any] = {}
        # The loop names in force (innermost last), each read as a local of the generated
        # generator: name -> that local's name.
        self.loops: dict[str, str] = {}
        # The calls made so far by name and arguments' source: the name each is bound to.
        self.calls: dict[tuple[Any, ...], str] = {}
        # How many times a formula's parameter was read (each read is one piece of source).
        self.param_reads = 0

    def fail(self, message: str, suggestion: str | None = None) -> ExpressionError:
        return ExpressionError(self.text, message, suggestion)

    def node(self, n: ast.expr) -> str:
        if isinstance(n, ast.Constant):
            if not isinstance(n.value, int | float | str | bool):
                raise self.fail(f"constant {n.value!r} is not allowed")
            return _literal(n.value, self.text)
        if isinstance(n, ast.Name):
            return self.name(n.id)
        if isinstance(n, ast.BoolOp):
            joiner = " and " if isinstance(n.op, ast.And) else " or "
            return "(" + joiner.join(self.node(v) for v in n.values) + ")"
        if isinstance(n, ast.UnaryOp):
            inner = self.node(n.operand)
            if isinstance(n.op, ast.Not):
                return f"(not {inner})"
            if isinstance(n.op, ast.USub):
                return f"(-{inner})"
            raise self.fail("only 'not' and '-' may stand before a value")
        if isinstance(n, ast.BinOp):
            symbol = _BINOPS.get(type(n.op))
            if symbol is None:
                raise self.fail("only + - * // % are allowed between numbers")
            return f"({self.node(n.left)} {symbol} {self.node(n.right)})"
        if isinstance(n, ast.Compare):
            parts = [self.node(n.left)]
            for cmp, right in zip(n.ops, n.comparators, strict=True):
                word = _CMPOPS.get(type(cmp))
                if word is None:
                    raise self.fail("only == != < <= > >= compare values")
                parts += [word, self.node(right)]
            return "(" + " ".join(parts) + ")"
        if isinstance(n, ast.IfExp):
            return f"({self.node(n.body)} if {self.node(n.test)} else {self.node(n.orelse)})"
        if isinstance(n, ast.Call):
            return self.call(n)
        if isinstance(n, ast.List):
            return self.list_literal(n)
        if isinstance(n, ast.GeneratorExp | ast.ListComp | ast.SetComp):
            raise self.fail(f"a loop is written as the one argument of {loop_names()}: "
                            f"{LOOP_FORM}")
        if isinstance(n, ast.Subscript):
            return self.indexed(n)
        raise self.fail(f"{type(n).__name__} is not part of the expression language")

    def name(self, name: str) -> str:
        s = self.scope
        if name.startswith("__arg_"):
            arg = name[6:]
            if arg not in s.args:
                raise self.fail(f"${arg} is not an argument of this action",
                                suggest(arg, s.args))
            return f"c.args[{arg!r}]"
        if name in ("True", "False"):
            return name
        if name in self.loops:
            return self.loops[name]
        if name in s.params:  # a parameter of the formula being compiled
            self.ns[FRAMES_NAME] = FRAMES
            self.param_reads += 1  # see `direct_formula`
            return param_source(s.params.index(name))
        if name in s.indexed:
            keys = s.indexed[name]
            raise self.fail(f"{name} holds one value per key: read one value as {name}[KEY], "
                            f"e.g. {name}[{keys[0]!r}] (keys({name}) lists its keys)")
        if name in s.turn_vars:
            return f"st.turn_vars[{name!r}]"
        if name in s.player_vars:
            return f"st.player_vars[c.seat][{name!r}]"
        if name in s.game_vars:
            return f"st.game_vars[{name!r}]"
        if name in s.options:
            return f"st.options[{name!r}]"
        if name in CONSTANTS:
            return CONSTANTS[name][1]
        if name in s.defines:  # a named expression: its source inlined, compiled once
            source, names = s.defines[name]
            self.ns.update(names)
            return f"({source})"
        if name in FUNCTIONS:
            raise self.fail(f"{name} is a function: call it as {FUNCTIONS[name].example}")
        if name in s.formulas:
            raise self.fail(f"{name} takes parameters: call it as {s.formulas[name].example}")
        raise self.fail(f"unknown name {name!r}", suggest(name, s.all_names()))

    def call(self, n: ast.Call) -> str:
        if not isinstance(n.func, ast.Name):
            raise self.fail("only named functions may be called")
        fname = n.func.id
        if fname in self.scope.formulas:
            return self.formula_call(n, self.scope.formulas[fname])
        if fname in LOOP_FUNCTIONS and len(n.args) == 1 and isinstance(
                n.args[0], ast.GeneratorExp) and not n.keywords:
            return self.loop(fname, n.args[0])
        fn = FUNCTIONS.get(fname)
        if fn is None:
            raise self.fail(f"unknown function {fname!r}",
                            suggest(fname, [*FUNCTIONS, *self.scope.formulas]))
        if n.keywords:
            raise self.fail(f"{fname}() takes no keyword arguments")
        given = n.args
        if fname == "faces" and len(given) == 1 and isinstance(given[0], ast.Name) and (
                given[0].id in self.scope.kinds and given[0].id not in self.scope.die_faces):
            raise self.fail(f"faces() takes a kind of die; {given[0].id!r} is not one",
                            suggest(given[0].id, self.scope.die_faces))
        lo = len(fn.params) - fn.optional
        if not fn.varargs and not lo <= len(given) <= len(fn.params):
            raise self.fail(f"{fname}() takes {len(fn.params)} argument(s): {fn.example}")
        if fn.varargs and len(given) < 1:
            raise self.fail(f"{fname}() needs at least one argument: {fn.example}")
        kinds = [fn.params[min(i, len(fn.params) - 1)] for i in range(len(given))]
        if fn.inline is not None and _INLINING[0]:
            source = fn.inline(*[self.param(fname, k, a, True)
                                 for k, a in zip(kinds, given, strict=True)])
            self.ns.update({k: v for k, v in INLINE_HELPERS.items() if k in source})
            return source
        parts = [self.param(fname, k, a, True) for k, a in zip(kinds, given, strict=True)]
        exprs = [k not in _NAMED_KINDS for k in kinds]
        # A family's zone by a computed key: the zone is looked up as the game runs, and
        # the function built once for each zone met, as for a face worked out then.
        parts = [FaceExpr(f"{bind(self.ns, p.zones.zone_names(), 'fz')}[{p.key_source}]")
                 if isinstance(p, KeyedZone) else p for p in parts]
        if any(e and self.reads_loop(p) for e, p in zip(exprs, parts, strict=True)):
            # An argument reading a loop name: the function is built as the game runs, its
            # expressions closures over the loop's value in hand.
            args = ", ".join(p.source if isinstance(p, FaceExpr) else
                             (f"(lambda c: {p})" if self.reads_loop(p) else
                              bind(self.ns, make_closure(p, self.ns), "x")) if e else
                             bind(self.ns, p, "a") for e, p in zip(exprs, parts, strict=True))
            return f"{bind(self.ns, fn.build, 'fb')}({args})(c)"
        built = [make_closure(p, self.ns) if e else p for e, p in zip(exprs, parts, strict=True)]
        faces = [p.source for p in parts if isinstance(p, FaceExpr)]
        if faces:  # a face known only as the game runs: built once for each face met
            return f"{bind(self.ns, ByFace(fn.build, built), 'fb')}({', '.join(faces)})(c)"
        # The same call written twice in one expression is one function under one name, so
        # that it reads as the same call (shared_parts.py works a repeated call out once).
        key = (fname, *parts) if all(type(p) in (str, int, float) for p in parts) else None
        known = self.calls.get(key) if key is not None else None
        if known is not None:
            return f"{known}(c)"
        made = fn.build(*built)
        if all(reads_no_args(p.source if isinstance(p, FaceExpr) else p, self.ns)
               for p in parts if isinstance(p, str | FaceExpr)):
            mark_arg_free(made)  # a `where` may work it out once a listing (hoist.py)
        name = bind(self.ns, made, "f")
        if key is not None:
            self.calls[key] = name
        return f"{name}(c)"

    def reads_loop(self, source: str) -> bool:
        """Whether generated source reads a loop name in force (a local of its generator)."""
        return any(re.search(rf"\b{local}\b", source) for local in self.loops.values())

    def formula_call(self, n: ast.Call, formula: Formula) -> str:
        """A call of a named expression with parameters: its arguments, then its body."""
        if n.keywords:
            raise self.fail(f"{formula.name}() takes no keyword arguments")
        if len(n.args) != len(formula.params):
            raise self.fail(f"{formula.name}() takes {len(formula.params)} argument(s), "
                            f"not {len(n.args)}: {formula.example}")
        sources = [self.formula_arg(a) for a in n.args]
        own = each_option_its_own(sources, self.scope.args)  # no two options call alike
        fn = (formula.unmemoised or formula.call) if own else formula.call
        mark_arg_free(fn)  # a body never reads an action's arguments
        return f"{bind(self.ns, fn, 'd')}(c{''.join(f', {s}' for s in sources)})"

    def formula_arg(self, arg: ast.expr) -> str:
        """A formula's argument: an expression, or a face written bare (`points(dino)`)."""
        if isinstance(arg, ast.Name) and arg.id in self.scope.faces and (
                self.taken(arg.id) is None and not arg.id.startswith("__arg_")):
            return repr(arg.id)
        return self.node(arg)

    def param(self, fname: str, kind: str, arg: ast.expr, as_source: bool) -> Any:
        s = self.scope
        if kind == "face" and isinstance(arg, ast.Name) and (
                arg.id in self.loops or arg.id in s.params):
            return FaceExpr(self.name(arg.id))  # a loop name or a parameter naming a face
        if kind == "face" and isinstance(arg, ast.Constant) and type(arg.value) is int:
            # A die whose faces are numbers: the face is named by its number.
            if arg.value not in s.faces:
                raise self.fail(f"unknown face {arg.value!r}", suggest(str(arg.value), s.faces))
            return arg.value
        if kind == "zone" and isinstance(arg, ast.Subscript) and isinstance(
                arg.value, ast.Name) and arg.value.id in s.zone_families:
            return self.family_zone(arg.value.id, arg.slice)
        if kind in ("zone", "face", "kind", "board"):
            if not isinstance(arg, ast.Name):
                raise self.fail(f"{fname}() expects a {kind} name here")
            if arg.id in self.loops or arg.id in s.params:
                raise self.fail(f"{fname}() expects a {kind} name here: a loop name or a "
                                f"parameter ({arg.id}) stands for a face only")
            if kind == "zone" and arg.id in s.boards:  # everything on the board's spaces
                return BoardItems(arg.id, False)
            known = {"zone": s.zones | s.player_zones, "face": s.faces, "kind": s.kinds,
                     "board": s.boards}[kind]
            if kind == "zone" and arg.id in s.zone_families:
                raise self.fail(f"{arg.id} is a family of zones: name one as {arg.id}[KEY], "
                                f"e.g. {fname}({arg.id}[{s.zone_families[arg.id][0]!r}])")
            if arg.id not in known:
                raise self.fail(f"unknown {kind} {arg.id!r}", suggest(arg.id, known))
            if kind == "zone":
                return ZoneName(arg.id, arg.id in s.player_zones, self.ns)
            return arg.id
        if kind == "indexed" and isinstance(arg, ast.Name) and arg.id in s.zone_families:
            return IndexedName(arg.id, tuple(s.zone_families[arg.id]))  # a family's keys
        if kind == "indexed":  # an indexed variable named whole, not one of its values
            if not isinstance(arg, ast.Name) or arg.id not in s.indexed:
                raise self.fail(f"{fname}() expects the name of a variable declared with "
                                "`keys` (or of a zone family)",
                                suggest(getattr(arg, "id", ""), [*s.indexed, *s.zone_families]))
            return IndexedName(arg.id, tuple(s.indexed[arg.id]))
        if kind == "prop":
            if not isinstance(arg, ast.Name):
                raise self.fail(f"{fname}() expects a property name here")
            if arg.id not in s.props:
                raise self.fail(f"unknown property {arg.id!r}", suggest(arg.id, s.props))
            return arg.id
        if kind == "values":  # a list written out: bare names are text, as in YAML
            if not isinstance(arg, ast.List | ast.Tuple) or not arg.elts:
                raise self.fail(f"{fname}() expects a list of values here, e.g. [red, blue]")
            values: list[Any] = []
            for elt in arg.elts:
                if isinstance(elt, ast.Name):
                    values.append({"True": True, "False": False}.get(elt.id, elt.id))
                elif isinstance(elt, ast.Constant) and isinstance(elt.value, int | float | str):
                    values.append(elt.value)
                else:
                    raise self.fail(f"{fname}(): a list holds plain values (names, numbers)")
            return tuple(values)
        source = self.node(arg)
        return source if as_source else make_closure(source, self.ns)

_NAMED_KINDS = ("zone", "face", "kind", "board", "prop", "values", "indexed")


def for_seat(c: Ctx, seat: int, fn: Compiled) -> Any:
    """Evaluate `fn` with another seat in scope, then put the scope back."""
    saved = c.seat
    c.seat = seat
    try:
        return fn(c)
    finally:
        c.seat = saved


def evaluate(fn: Compiled, state: GameState, seat: int, args: Mapping[str, Any] | None = None
             ) -> Any:
    """Evaluate a compiled expression once, outside an action (for views and tools).

    A failure (a division by zero, say) is an EngineError naming the ruleset's line.
    """
    try:
        return fn(Ctx(state, seat, args))
    except PASSED_ON:
        raise
    except Exception as exc:
        from .origins import rules_error

        raise rules_error(state.rules, exc, "working out a value for the table") from exc


def body_type(text: str, scope: Scope, types: Mapping[str, str]) -> str:
    """The type of a compiled expression's text with some names typed anew (a formula's
    parameters, as one call's arguments give them); ExpressionError on a clash."""
    tree = ast.parse(_TOKENS.sub(_rewrite_token, text.strip()), mode="eval")
    checker = TypeChecker(text, replace(scope, types={**scope.types, **types}), FUNCTIONS)
    return checker.type(tree.body)


def declare_types(name: str, returns: str, arg_types: tuple[str, ...] = ()) -> None:
    """Give an already registered function its types (for the load-time checker)."""
    FUNCTIONS[name] = replace(FUNCTIONS[name], returns=returns, arg_types=arg_types)
