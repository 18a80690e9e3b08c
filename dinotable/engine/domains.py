"""Argument domains: where an action's arguments come from, so every choice is enumerable."""

from __future__ import annotations

import ast
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from .errors import EngineError
from .expr import Compiled, Ctx, prologue
from .hoist import COMMON, hoisted, reads_arguments, setup_lines
from .hoist import NAMES as HOIST_NAMES
from .origins import origin_of, register

Values = Callable[[Ctx], list[Any]]


@dataclass(frozen=True)
class DomainSpec:
    """A registered argument domain."""

    name: str
    doc: str
    example: str
    params: tuple[str, ...]  # parameter names; `zone` params take a zone name
    is_player: bool
    build: Callable[..., Values] = field(repr=False)


DOMAINS: dict[str, DomainSpec] = {}


def domain(name: str, doc: str, example: str, params: tuple[str, ...] = (),
           is_player: bool = False) -> Callable[[Callable[..., Values]], Callable[..., Values]]:
    """Register an argument domain."""

    def register(build: Callable[..., Values]) -> Callable[..., Values]:
        DOMAINS[name] = DomainSpec(name, doc, example, params, is_player, build)
        return build

    return register


Raw = Callable[[Ctx], list[Any]]


def listed_by(values: Values, raw: Raw, where: Compiled | None, tested: str) -> Values:
    """Mark a domain's values function as the `raw` candidates tested by `where` (each as
    `$tested`), in order: what `values` gives is exactly those that pass. Such an argument
    is listed by generated code (listers.py) rather than through `values`."""
    fn: Any = values
    fn.raw, fn.where, fn.tested = raw, where, tested
    return values


@domain("player", "Any player still in the game; with `where`, only those for whom it holds "
        "(`$player` is the seat tested).", "target: player", ("where",), is_player=True)
def _player() -> Values:
    return lambda c: [s for s in range(len(c.state.players)) if c.state.active[s]]


@domain("other_player", "Any player still in the game other than the one acting; with "
        "`where`, only those for whom it holds (`$player` is the seat tested).",
        "from: other_player", ("where",), is_player=True)
def _other_player() -> Values:
    return lambda c: [s for s in range(len(c.state.players)) if s != c.seat and c.state.active[s]]


@domain("other_player_with", "Another player whose own copy of a zone is not empty.",
        "from: {domain: other_player_with, zone: kept}", ("zone",), is_player=True)
def _other_player_with(zone: str) -> Values:
    return lambda c: [s for s in range(len(c.state.players))
                      if s != c.seat and c.state.active[s] and c.state.zones[zone][s]]


@domain("item_in", "The id of any item in a zone (the acting player's own, for a per-player "
        "zone).", "card: {domain: item_in, zone: hand}", ("zone",))
def _item_in(zone: str) -> Values:
    return lambda c: [c.state.items[i].id for i in c.state.zone(zone, c.seat)]


@domain("kind_in", "The kind of any item in a zone (the acting player's own, for a "
        "per-player zone), each kind once: with copies, one answer stands for any of them; "
        "with `where`, only kinds for which it holds (`$kind` is the kind tested).",
        "card: {domain: kind_in, zone: hand}", ("zone", "where"))
def _kind_in(zone: str, where: Compiled | None = None) -> Values:
    values = listed_by(lambda c: kinds_passing(c, c.state.zone(zone, c.seat), where),
                       lambda c: kinds_of(c, c.state.zone(zone, c.seat)), where, "kind")
    # The same candidates as source, for a lister to write in line (no call for them): the
    # kinds as a dict's keys, each once and in order, which the lister only loops over.
    cast(Any, values).raw_source = (f"{{st.items[_i].kind: None for _i in "
                                    f"st.zone({zone!r}, c.seat)}}")
    return values


def kinds_of(c: Ctx, indexes: list[int]) -> list[Any]:
    """The kinds of the items at `indexes`, each once, in order."""
    items = c.state.items
    return list(dict.fromkeys([items[i].kind for i in indexes]))


def kinds_passing(c: Ctx, indexes: list[int], where: Compiled | None) -> list[Any]:
    """The kinds of the items at `indexes`, each once, in order; with `where`, only those
    for which it holds (`$kind` is the kind tested)."""
    items = c.state.items
    kinds = list(dict.fromkeys([items[i].kind for i in indexes]))
    return kinds if where is None or not kinds else passing(c, kinds, "kind", where)


def passing(c: Ctx, values: list[Any], name: str, where: Compiled | None) -> list[Any]:
    """The values for which `where` holds, each tested as the argument `$name` (all of
    them when there is no `where`), in order."""
    if where is None:
        return values
    test = filter_for(where, name)
    saved = c.args
    # One copy of the arguments, its `$name` set to each value in turn: `where` reads the
    # arguments as it runs and keeps none of them.
    args = c.args = {**saved}
    try:
        return test(c, values, args, name)
    finally:
        c.args = saved


Filter = Callable[[Ctx, Any, dict[str, Any], str], list[Any]]
_OTHER_FILTERS: dict[Any, dict[str, Filter]] = {}  # tests that cannot carry them


def filter_for(where: Compiled, name: str) -> Filter:
    """`where` as one function over a list of values tested as `$name`: called as
    `test(c, values, args, name)` with `c.args` being `args`, which it sets `$name` in."""
    made: dict[str, Filter] | None = getattr(where, "filters", None)
    if made is None:
        made = _filters_of(where)
    test = made.get(name)
    if test is None:
        test = made[name] = _filter_of(where, name)
    return test


def _filters_of(where: Compiled) -> dict[str, Filter]:
    """The filters made of `where`, by the name it tests: kept on the function itself."""
    made: dict[str, Filter] = {}
    try:
        where.filters = made  # type: ignore[attr-defined]
    except AttributeError:  # a bound method, say
        made = _OTHER_FILTERS.setdefault(where, made)
    return made


def _filter_of(where: Compiled, name: str) -> Filter:
    """`where` as one function over a list of values tested as `$name`. A generated
    expression's source is written into a loop, with the parts that do not read the value
    worked out once a listing (hoist.py); the state and the zones it reads are looked up
    once, and no call is made per value. Any other test is called for each value."""
    source = getattr(where, "source", None)
    namespace = getattr(where, "namespace", None)
    if source is None or namespace is None:
        def called(c: Ctx, values: Any, args: dict[str, Any], name: str) -> list[Any]:
            out = []
            for value in values:
                args[name] = value
                if where(c):
                    out.append(value)
            return out

        return called
    lines = filter_lines(where, name, "_values", "_out")
    assert lines is not None
    made: dict[str, Any] = {}
    # The source is the compiler's own (see expr.make_closure), never text from the ruleset.
    exec("def _filter(c, _values, _args, _name):\n" + prologue(namespace)
         + "".join(f"    {line}\n" for line in lines) + "    return _out\n", namespace, made)
    origin = origin_of(where)
    if origin is not None:  # a failure names the `where`'s line, as the test itself would
        register(made["_filter"], origin)
    return cast(Filter, made["_filter"])


def filter_lines(where: Compiled, name: str, values: str, out: str) -> list[str] | None:
    """Lines of generated code putting into `out` the items of the list `values` for
    which `where` holds, each set as `$name` in the dict `_args` (which is `c.args`): its
    parts that do not read the value worked out once (hoist.py). They need `st`, the zone
    locals of `where.namespace` (see `prologue`) and the names there; None when `where`
    is not generated code."""
    source = getattr(where, "source", None)
    namespace = getattr(where, "namespace", None)
    if source is None or namespace is None:
        return None
    test, _ = hoisted(source, name, namespace)
    namespace.update(HOIST_NAMES)
    test = _value_read(test, name)
    # The common memo is the caller's (a window asking seat after seat), else this one's.
    common = [f"{COMMON} = c.common if c.common is not None else {{}}"] if COMMON in test else []
    # The value is set as `$name` in `_args` only for a test that may read it there.
    reads = reads_arguments(test, name, namespace)
    setting = [f"    {SETS_ARGUMENT}{name!r}] = _v"] if reads else []
    return [*setup_lines(test), *common, f"{out} = []",
            f"for _v in {values}:", *setting, f"    if {test}:",
            f"        {out}.append(_v)"]


SETS_ARGUMENT = "_args["  # how a filter's line setting the value tested begins


class _ValueRead(ast.NodeTransformer):
    """`c.args['NAME']` read as `_v`, the value the loop is testing (which it is)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def visit_Subscript(self, node: ast.Subscript) -> Any:
        value, key = node.value, node.slice
        if isinstance(value, ast.Attribute) and value.attr == "args" and isinstance(
                value.value, ast.Name) and value.value.id == "c" and isinstance(
                key, ast.Constant) and key.value == self.name:
            return ast.copy_location(ast.Name("_v", ast.Load()), node)
        return self.generic_visit(node)


def _value_read(test: str, name: str) -> str:
    """A test's source with its reads of the value tested made reads of the loop's `_v`:
    inside a filter `c.args` is the dict the loop sets `$name` in, so the two are one."""
    tree = ast.parse(test, mode="eval")
    return ast.unparse(ast.fix_missing_locations(_ValueRead(name).visit(tree)))


@domain("choice", "One of a fixed list of values, or a whole number in a range; with "
        "`where`, only those for which it holds (`$value` is the value tested).",
        "colour: {domain: choice, values: [red, blue]}", ("values", "from", "to", "where"))
def _choice(values: list[Any]) -> Values:
    fixed = list(values)
    return lambda c: fixed


# --- subsets -------------------------------------------------------------------------

MAX_LISTED_SUBSETS = 20_000  # beyond this, listing every subset is refused: sample instead
SMALL_DOMAIN = 256  # up to this many subsets, sampling lists them and picks one


def _eligible(c: Ctx, zone: str, where: Compiled | None) -> list[str]:
    """The ids of the items of a zone (the acting player's copy) that pass `where`."""
    items = c.state.items
    return passing(c, [items[i].id for i in c.state.zone(zone, c.seat)], "item", where)


def _bounds(c: Ctx, lo: Compiled | None, hi: Compiled | None, n: int) -> tuple[int, int]:
    low = 0 if lo is None else max(0, int(lo(c)))
    high = n if hi is None else min(n, int(hi(c)))
    return low, high


def _passes(c: Ctx, name: str, test: Compiled | None, chosen: tuple[str, ...]) -> bool:
    if test is None:
        return True
    saved = c.args
    c.args = {**saved, name: chosen}
    try:
        return bool(test(c))
    finally:
        c.args = saved


@dataclass(frozen=True)
class Subset:
    """The `subset_of` domain of one argument: its pieces, compiled."""

    name: str
    zone: str
    lo: Compiled | None
    hi: Compiled | None
    where: Compiled | None
    test: Compiled | None

    def eligible(self, c: Ctx) -> list[str]:
        """The ids of the items that may be in a subset, in zone order (each passing `where`)."""
        return _eligible(c, self.zone, self.where)

    def values(self, c: Ctx) -> list[Any]:
        """Every allowed subset, as a tuple of ids in zone order (refused when huge)."""
        ids = _eligible(c, self.zone, self.where)
        low, high = _bounds(c, self.lo, self.hi, len(ids))
        total = sum(math.comb(len(ids), k) for k in range(low, high + 1))
        if total > MAX_LISTED_SUBSETS:
            raise EngineError(f"{self.name}: {total} subsets are too many to list; "
                              "ask whether one is legal, or sample one")
        return [combo for k in range(low, high + 1)
                for combo in itertools.combinations(ids, k)
                if _passes(c, self.name, self.test, combo)]

    def contains(self, c: Ctx, value: Any) -> bool:
        """Whether one subset is allowed, without listing the others."""
        if not isinstance(value, tuple | list) or len(set(value)) != len(value):
            return False
        ids = _eligible(c, self.zone, self.where)
        low, high = _bounds(c, self.lo, self.hi, len(ids))
        if not low <= len(value) <= high or not set(value) <= set(ids):
            return False
        ordered = tuple(i for i in ids if i in set(value))
        return _passes(c, self.name, self.test, ordered)

    def sample(self, c: Ctx, rng: Any) -> Any:
        """A random allowed subset (None when none is found in a few tries)."""
        ids = _eligible(c, self.zone, self.where)
        low, high = _bounds(c, self.lo, self.hi, len(ids))
        if low > high:
            return None
        if sum(math.comb(len(ids), k) for k in range(low, high + 1)) <= SMALL_DOMAIN:
            # Few enough to list: a fair pick among those that pass, with no retries.
            found = self.values(c)
            return found[int(rng.random() * len(found))] if found else None
        for _ in range(64):
            k = low + int(rng.random() * (high - low + 1))
            picked = set(rng.sample(ids, k))
            combo = tuple(i for i in ids if i in picked)
            if _passes(c, self.name, self.test, combo):
                return combo
        # A demanding test: fall back to listing (bounded), then to nothing.
        try:
            found = self.values(c)
        except EngineError:
            return None
        return found[int(rng.random() * len(found))] if found else None


SUBSET_DOC = ("A set of items from a zone (the acting player's own, for a per-player zone): "
              "between `min` and `max` of them (default: any number), each passing `where` "
              "(`$item` is the item tested), the whole passing `test` (the argument itself "
              "names the chosen ids). The value is the list of ids, in zone order.")
DOMAINS["subset_of"] = DomainSpec(
    "subset_of", SUBSET_DOC,
    "dice: {domain: subset_of, zone: tray, min: 1, max: 5}",
    ("zone", "min", "max", "where", "test"), False, lambda *a: (lambda c: []))
SUBSET_OPTIONAL = ("min", "max", "where", "test")
