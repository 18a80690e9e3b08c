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
while a listing runs, so every value is tested exactly as before. A part written twice has
one slot, and so has a call that several parts make (`projected` in five card tests).
A part that reads no seat either is kept in `c.common` where the caller hands one in: a
response window asks seat after seat of a game that stands still, and works it out once.

A kept part lives in a local of the generated function (`_hoist_0`), worked out where the
test first reaches it (`(_hoist_0 := part)`). Before the parts are found, the test is
rewritten so that more of it qualifies, each step giving the same values in the same
order:
- a formula called with plain arguments (`affordable($kind)`) is written in place, its
  body with those arguments in it (`_Inliner`);
- `prop()` of the value tested is a lookup in the property's table, and a space's items a
  lookup in the board's lists by space, each table read once a listing (`_TableReads`);
- neighbouring operands of an `and` or `or` that read no value are one part
  (`_GroupRuns`).
"""

from __future__ import annotations

import ast
import contextlib
import copy
import itertools
import re
import weakref
from collections import Counter
from typing import Any, cast

from .naming import TableZone
from .registry import INLINE_HELPERS

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

# A kept part lives in a local of the generated function, `_hoist_N` (`_hoist_cK` for one
# from the common memo): one name read is the cheapest test Python has, and the part is
# worked out where the test first reaches it, `(_hoist_0 := part)`.
LOCAL = "_hoist_"
UNSET = object()  # a part not yet worked out this listing
_LOCAL_NAME = re.compile(r"\b_hoist_c?\d+\b")


# A property's table (`items.prop_table`) is read into a local `_prop_t_NAME` before the
# loop: fetching it reads the rules alone and cannot fail.
TABLE = "_prop_t_"
_TABLE_NAME = re.compile(r"\b_prop_t_(\w+)")


def setup_lines(source: str) -> list[str]:
    """The lines to run before the loop that tests hoisted source: each property table it
    reads fetched, and every kept part marked not yet worked out."""
    lines = [f"{TABLE}{prop} = _prop_table(st, {prop!r})"
             for prop in sorted(set(_TABLE_NAME.findall(source)))]
    names = sorted(set(_LOCAL_NAME.findall(source)))
    return lines + ([" = ".join([*names, "_HOIST_UNSET"])] if names else [])


# Parts that read neither the seat in scope nor an argument are the same for every seat a
# response window asks while the game stands still: those are kept in `c.common` when the
# caller hands one in (decide.skip_unplayable), one dict for every lister it runs, by a
# number standing for the part's source (see `_common_key`).
COMMON = "_hoist_common"
_PUT = "_hoist_put"
_COMMON_KEYS: dict[str, int] = {}
_NUMBERS = itertools.count()
# What such a part may name besides `st`, `c` (as `c.state`), its own loop names and table
# zones: helpers that mean the same in every generated function and read no seat.
_SEAT_FREE_NAMES = frozenset({"st", "_lookup_in", "_prop_readers", "_prop_table",
                              "_steps_from",
                              "_over_players",
                              "True", "False", "None", "min", "max", "sum", "len", "abs",
                              "int", "round", "any", "all", "sorted", "list", "tuple", "range",
                              "str", "bool", "float", "set", "dict"})
# Handed `c`, these read no seat: the first runs a function with every seat in turn.
_SEAT_FREE_CALLS = frozenset({"_over_players", "_steps_from"})


def put(common: dict[int, Any], key: int, value: Any) -> Any:
    """Store a part's value under its number in the common memo and give it back."""
    common[key] = value
    return value


def _common_key(node: ast.expr, namespace: dict[str, Any]) -> int | None:
    """The number a part is kept under in the common memo, or None: for a part that reads
    no seat and no argument, and names only what means the same in any generated code."""
    bound = {n.id for node_ in ast.walk(node) if isinstance(node_, ast.comprehension)
             for n in ast.walk(node_.target) if isinstance(n, ast.Name)}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Lambda):
            bound.update(a.arg for a in sub.args.args)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            if sub.id == "c":
                if not _seat_free_use(node, sub):
                    return None
            elif sub.id not in _SEAT_FREE_NAMES and sub.id not in bound and not (
                    sub.id.startswith("_zone_") and isinstance(namespace.get(sub.id),
                                                                TableZone)):
                return None
    text = ast.dump(node)
    found = _COMMON_KEYS.get(text)
    if found is None:
        # A number drawn once and for all, so that two rulesets compiling on two threads
        # never give two parts the same one.
        found = _COMMON_KEYS.setdefault(text, next(_NUMBERS))
    return found


def _seat_free_use(root: ast.expr, use: ast.Name) -> bool:
    """Whether this `c` is `c.state`, the first argument of a call that reads no seat, or
    the `c` of a `lambda c:` that such a call runs (its own seat, not the caller's)."""
    for parent in ast.walk(root):
        if isinstance(parent, ast.Lambda) and use in list(ast.walk(parent.body)) and any(
                a.arg == "c" for a in parent.args.args):
            return True
        if isinstance(parent, ast.Attribute) and parent.value is use:
            return parent.attr == "state"
        if isinstance(parent, ast.Call) and use in parent.args:
            return isinstance(parent.func, ast.Name) and (
                parent.func.id in _SEAT_FREE_CALLS) and parent.args[0] is use
    return False


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


def reads_arguments(source: str, name: str, namespace: dict[str, Any]) -> bool:
    """Whether a test's source (hoisted, its value read as `_v`) may read the argument
    `name` in `c.args`: it names it, reads the arguments in another way than one named
    argument, or hands `c` to a function that may read them. A listing need not set the
    value tested as an argument for a test that does not."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return True
    # Each node's parent, found once: a long test names `c` many times.
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for use in ast.walk(tree):
        if isinstance(use, ast.Name) and use.id == "c" and not _argless_use(
                parents, use, name, namespace):
            return True
    return False


def _argless_use(parents: dict[ast.AST, ast.AST], use: ast.Name, name: str,
                 namespace: dict[str, Any]) -> bool:
    parent = parents.get(use)
    if isinstance(parent, ast.Attribute) and parent.value is use:
        if parent.attr == "args":  # another argument, read by name, is as it was
            read = parents.get(parent)
            return isinstance(read, ast.Subscript) and read.value is parent and isinstance(
                read.slice, ast.Constant) and isinstance(read.slice.value, str) and (
                read.slice.value != name)
        return parent.attr in ("seat", "state", "common")
    if isinstance(parent, ast.Call) and use in parent.args:
        return _free_call(parent, use, namespace)
    return False


def _local_read(name: str, node: ast.expr) -> ast.expr:
    """`node` read through the local `name`: worked out (where it was) the first time."""
    read = ast.parse(f"({name} if {name} is not _HOIST_UNSET else ({name} := None))",
                     mode="eval").body
    assert isinstance(read, ast.IfExp) and isinstance(read.orelse, ast.NamedExpr)
    read.orelse.value = node  # the part itself, worked out where it was
    return read


def _read(slot: int, node: ast.expr) -> ast.expr:
    """`node` kept in this listing's local for slot `slot`."""
    return _local_read(f"{LOCAL}{slot}", node)


def _common_read(key: int, node: ast.expr) -> ast.expr:
    """`node` read through the common memo under `key` (see COMMON), and kept in a local
    once read, so that later values read one name."""
    fetch = ast.parse(f"({COMMON}[{key}] if {key} in {COMMON} else {_PUT}({COMMON}, {key}, "
                      "None))", mode="eval").body
    assert isinstance(fetch, ast.IfExp) and isinstance(fetch.orelse, ast.Call)
    fetch.orelse.args[2] = node
    return _local_read(f"{LOCAL}c{key}", fetch)


def _inner_parts(node: ast.AST) -> list[ast.expr]:
    """The expressions inside a kept part that make a call (worth keeping on their own),
    not looking into a scope of its own (see _SCOPES)."""
    found: list[ast.expr] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr) and not isinstance(child, _NEVER):
            if any(isinstance(n, ast.Call) for n in ast.walk(child)):
                found.append(child)
            if not isinstance(child, _SCOPES):
                found += _inner_parts(child)
    return found


class _GroupRuns(ast.NodeTransformer):
    """`a and b and $kind == x`, where `a` and `b` read no value, as `(a and b) and $kind ==
    x`: one part kept, read once a value, not two. `and` and `or` give the same value
    grouped either way, working out the same operands in the same order."""

    def __init__(self, qualifies: Any) -> None:
        self.qualifies = qualifies

    def visit_BoolOp(self, node: ast.BoolOp) -> Any:
        self.generic_visit(node)
        if self.qualifies(node):
            return node  # kept whole
        values: list[ast.expr] = []
        run: list[ast.expr] = []  # neighbouring operands that read no value
        for value in node.values:
            if self.qualifies(value):
                run.append(value)
                continue
            values += self.grouped(node.op, run)
            values.append(value)
            run = []
        node.values = values + self.grouped(node.op, run)
        return node

    @staticmethod
    def grouped(op: ast.boolop, run: list[ast.expr]) -> list[ast.expr]:
        return [ast.BoolOp(op, run)] if len(run) > 1 else run


class _Hoister(ast.NodeTransformer):
    """Each part that does not read the listed value becomes a memo read. A part written
    more than once (the same source) has one slot, and so has a call inside kept parts
    met in more places than the part around it: `projected` inside `projected != 'missed'`
    and `with_aim != projected` is worked out once a listing, not once each."""

    def __init__(self, name: str, namespace: dict[str, Any]) -> None:
        self.name = name
        self.namespace = namespace
        self.slots = 0
        self.slot_of: dict[str, int] = {}  # a part's or inner call's source: its slot
        self.met: Counter[str] = Counter()  # how often each part and inner call is met
        self.answers: dict[ast.AST, bool] = {}  # `qualifies`, by node

    def hoist(self, tree: ast.expr) -> ast.expr:
        """The tree with its parts read through the memo."""
        tree = cast(ast.expr, _GroupRuns(self.qualifies).visit(tree))
        parts: list[ast.expr] = []
        self.collect(tree, parts)
        for part in parts:
            self.met.update(ast.dump(inner) for inner in [part, *_inner_parts(part)])
        return cast(ast.expr, self.visit(tree))

    def qualifies(self, node: ast.AST) -> bool:
        # Asked of a node more than once (grouping, then collecting): answered once.
        found = self.answers.get(node)
        if found is None:
            found = self.answers[node] = isinstance(node, ast.expr) and not isinstance(
                node, _NEVER) and _independent(node, self.name, self.namespace)
        return found

    def collect(self, node: ast.AST, parts: list[ast.expr]) -> None:
        """The parts `visit` keeps, in the order it meets them."""
        if self.qualifies(node):
            parts.append(cast(ast.expr, node))
        elif not isinstance(node, _SCOPES):
            for child in self.children(node):
                self.collect(child, parts)

    @staticmethod
    def children(node: ast.AST) -> list[ast.AST]:
        # A call's function is never a part of its own: `_prop_readers['cost'](st, _v)`
        # reads its table in one step, no dearer than reading a memo.
        return [child for child in ast.iter_child_nodes(node)
                if not (isinstance(node, ast.Call) and child is node.func)]

    def slot(self, key: str) -> int:
        found = self.slot_of.get(key)
        if found is None:
            found = self.slot_of[key] = self.slots
            self.slots += 1
        return found

    def shared_inside(self, node: ast.expr, around: int) -> ast.expr:
        """A kept part met `around` times, with the inner calls met more often than that
        read through slots of their own."""
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                setattr(node, field, [self.inner(v, around) for v in value])
            elif isinstance(value, ast.expr):
                setattr(node, field, self.inner(value, around))
        return node

    def inner(self, node: Any, around: int) -> Any:
        if not isinstance(node, ast.expr) or isinstance(node, _NEVER + _SCOPES):
            return node
        key = ast.dump(node)
        met = self.met[key]
        if met > around and any(isinstance(n, ast.Call) for n in ast.walk(node)):
            return self.kept(node, key, met)
        return self.shared_inside(node, around)

    def kept(self, node: ast.expr, key: str, met: int) -> ast.expr:
        """A part read through its slot, or through the common memo where it may be."""
        common = _common_key(node, self.namespace)
        if common is not None:
            return _common_read(common, self.shared_inside(node, met))
        return _read(self.slot(key), self.shared_inside(node, met))

    def visit(self, node: ast.AST) -> Any:
        if self.qualifies(node):
            expr = cast(ast.expr, node)
            key = ast.dump(expr)
            return self.kept(expr, key, self.met[key])
        if isinstance(node, _SCOPES):
            return node  # kept whole or not at all (see _SCOPES)
        if isinstance(node, ast.Call):  # its function stays as it is (see `children`)
            node.args = [self.visit(a) for a in node.args]
            node.keywords = [self.visit(k) for k in node.keywords]
            return node
        return self.generic_visit(node)


# A formula written in place of its call, and those its body calls in turn, this deep.
_INLINE_DEPTH = 4


def _formula_body(fn: Any) -> tuple[str, dict[str, Any], int] | None:
    """A formula call's body as `expr.direct_formula` made it (its source with parameters
    `_p0`, ..., its names, how many parameters), or None for anything else."""
    direct = getattr(fn, "direct", fn)
    source = getattr(direct, "body_source", None)
    if not isinstance(source, str):
        return None
    return source, direct.namespace, direct.param_count


def _argument_read(node: ast.expr) -> bool:
    """Whether `node` is `c.args['k']`: the value tested, or another argument."""
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and (
        node.value.attr == "args" and isinstance(node.value.value, ast.Name)
        and node.value.value.id == "c" and isinstance(node.slice, ast.Constant))


class _Inliner(ast.NodeTransformer):
    """A formula's call with plain arguments (a constant, an argument read) becomes the
    formula's body with those arguments in it, so that the hoisting sees inside:
    `affordable($kind)` reads the player's food, which is the same for every kind. Read
    twice or not at all, such an argument gives the same value and costs nothing."""

    def __init__(self, namespace: dict[str, Any], depth: int) -> None:
        self.namespace = namespace
        self.depth = depth
        self.inlined = 0

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        if self.depth <= 0 or not isinstance(node.func, ast.Name) or node.keywords:
            return node
        found = _formula_body(self.namespace.get(node.func.id))
        if found is None:
            return node
        source, names, count = found
        first, values = node.args[:1], node.args[1:]
        if len(values) != count or not (first and isinstance(first[0], ast.Name)
                                        and first[0].id == "c"):
            return node
        if not all(isinstance(v, ast.Constant) or _argument_read(v) for v in values):
            return node
        try:
            body = ast.parse(source, mode="eval").body
        except SyntaxError:
            return node
        params = {f"_p{i}": v for i, v in enumerate(values)}
        for sub in ast.walk(body):
            if isinstance(sub, ast.NamedExpr):
                return node
            # Inside `lambda c:` an argument read would read that other context's.
            if isinstance(sub, ast.Lambda) and any(
                    isinstance(n, ast.Name) and n.id in params and not isinstance(
                        params[n.id], ast.Constant) for n in ast.walk(sub)):
                return node
        body = _Substitute(params).visit(body)
        self.namespace.update(names)
        inner = _Inliner(self.namespace, self.depth - 1)
        body = inner.visit(body)
        self.inlined += 1 + inner.inlined
        return body


class _Substitute(ast.NodeTransformer):
    """A body's parameter names (`_p0`, ...) replaced by copies of the call's arguments."""

    def __init__(self, params: dict[str, ast.expr]) -> None:
        self.params = params

    def visit_Name(self, node: ast.Name) -> Any:
        value = self.params.get(node.id)
        return node if value is None else copy.deepcopy(value)


class _TableReads(ast.NodeTransformer):
    """Reads of a value tested made lookups in a table worked out once a listing:

    - `prop(x, name)`, `_prop_readers['name'](st, x)`, read from the property's table
      where the kind is in it (`items.prop_table`), else by its reader as before. The
      table reads the rules alone. Only for an `x` that is an argument read (read twice at
      no cost) and changes with the value.
    - A space's items, `_space_list(c, board, x)`, read from the board's lists by space
      (`boards.space_lists`), which the hoisting then keeps for the listing."""

    def __init__(self, name: str, namespace: dict[str, Any]) -> None:
        self.name = name
        self.namespace = namespace
        self.made = 0

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id == "_space_list" and len(node.args) == 3 \
                and not node.keywords and not _independent(node.args[2], self.name,
                                                           self.namespace):
            self.namespace["_space_lists"] = INLINE_HELPERS["_space_lists"]
            table = ast.Call(ast.Name("_space_lists"), node.args[:2], [])
            return ast.Subscript(table, node.args[2], ast.Load())
        if not (isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name)
                and func.value.id == "_prop_readers" and isinstance(func.slice, ast.Constant)
                and len(node.args) == 2 and not node.keywords
                and _argument_read(node.args[1])  # read twice at no cost, to the same value
                and not _independent(node.args[1], self.name, self.namespace)):
            return node  # (a read of what does not change is kept whole by the hoisting)
        prop = func.slice.value
        if not isinstance(prop, str) or not prop.isidentifier():
            return node
        item = node.args[1]
        self.made += 1
        return ast.IfExp(
            test=ast.Compare(copy.deepcopy(item), [ast.In()], [ast.Name(TABLE + prop)]),
            body=ast.Subscript(ast.Name(TABLE + prop), copy.deepcopy(item), ast.Load()),
            orelse=node)


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
    inliner = _Inliner(namespace, _INLINE_DEPTH)
    tables = _TableReads(name, namespace)
    hoister = _Hoister(name, namespace)
    body = hoister.hoist(tables.visit(inliner.visit(tree.body)))
    made = ast.unparse(ast.fix_missing_locations(ast.Expression(body)))
    if not hoister.slots and COMMON not in made and not inliner.inlined:
        return source, 0
    if tables.made:
        namespace["_prop_table"] = INLINE_HELPERS["_prop_table"]
    return made, hoister.slots


NAMES = {"_HOIST_UNSET": UNSET, _PUT: put}
