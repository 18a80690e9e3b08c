"""Generated families of item kinds: `for_each` over the product of lists (suits x ranks).

A family in `items:` is one entry with `for_each: {KEY: VALUES, ...}`. Each combination of
values, in product order (the first key outermost), becomes a kind of its own whose id is
the family's name and the values joined by `_` (`card_hearts_12`). Each key becomes a
property holding that value; any other property written as text is an expression over the
keys, worked out once at load; `label` and `text` fill in `{EXPR}` placeholders over the
keys and the card's properties. The families are expanded into plain kinds before the
items are read, so everything downstream (zones, `start: all`, ids, drawing by id) sees
ordinary kinds in the order written.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any, ClassVar, cast

from ..engine.errors import ExpressionError
from ..engine.expr import Compiled, Ctx, Scope, compile_expr
from ..engine.exprtypes import type_of_value
from ..engine.formulas import FRAMES
from ..engine.model import PropertyDef
from .problems import Path, Reporter, check_keys
from .reader import _ID, _shown, _too_large

FAMILY_KEY = "for_each"
ITEM_KEYS = {"type", "copies", "label", "text"}  # as in components.ITEM_KEYS
MAX_KINDS = 10_000  # kinds one family makes: a 5,000-card deck plays, a typo does not
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_WORDS = {"number": "whole numbers", "text": "texts"}


def expand_families(raw: Any, properties: dict[str, PropertyDef], dice: Any,
                    report: Reporter) -> tuple[Any, dict[str, str]]:
    """`items:` with every generated family replaced, in place, by the kinds it makes;
    and each generated kind's family.

    The keys of a family are declared as properties (in `properties`) when the ruleset does
    not declare them itself. Problems are reported at the family's lines; a family with a
    problem makes no kinds (a kind it makes that is already another is left out)."""
    def taken(kind_id: str) -> str | None:
        return "a die kind" if kind_id in dice else None

    return expand_section(
        raw, FAMILY_KEY, "items", "kind",
        lambda name, spec: _Family(name, spec, properties, report).expand(), report, taken)


def expand_section(raw: Any, family_key: str, section: str, word: str,
                   expand: Callable[[str, dict[str, Any]], dict[str, Any]], report: Reporter,
                   taken: Callable[[str], str | None] = lambda _: None
                   ) -> tuple[Any, dict[str, str]]:
    """A section with each family (an entry holding `family_key`) replaced, in place, by
    the entries `expand` makes of it; and each made entry's family.

    A made entry whose name is already an entry written out, another family's or `taken`
    (which says what it is) is reported at the family's `family_key`, once a family, and
    left out. A family with a badly written name is left to the section's reader."""
    if not isinstance(raw, dict) or not any(
            isinstance(spec, dict) and family_key in spec for spec in raw.values()):
        return raw, {}  # the usual case: nothing generated, the section as written
    written = {name for name, spec in raw.items()
               if not (isinstance(spec, dict) and family_key in spec)}
    made: dict[str, str] = {}  # a made entry -> its family
    out: dict[Any, Any] = {}
    for name, spec in raw.items():
        if not (isinstance(spec, dict) and family_key in spec):
            out[name] = spec
            continue
        if not isinstance(name, str) or not _ID.match(name):
            out[name] = spec  # the section's reader reports the name itself
            continue
        told = False
        for entry, entry_spec in expand(name, spec).items():
            what = taken(entry) if entry not in written else (
                "an item kind written out" if section == "items" else f"a {word} written out")
            clash = f"is already {what}" if what is not None else (
                f"the family {made[entry]!r} makes too" if entry in made else None)
            if clash is not None:
                if not told:
                    report((section, name, family_key), f"the family makes the {word} "
                                                        f"{entry!r}, which {clash}; rename "
                                                        "one of them")
                told = True
                continue
            made[entry] = name
            out[entry] = entry_spec
            report.written_as[(section, entry)] = (section, name)
    return out, made


class _Family:
    """One family being expanded."""

    def __init__(self, name: str, spec: dict[str, Any], properties: dict[str, PropertyDef],
                 report: Reporter) -> None:
        self.name = name
        self.spec = spec
        self.properties = properties
        self.report = report
        self.path: Path = ("items", name)
        self.names: tuple[str, ...] = ()  # the keys, once read

    def expand(self) -> dict[str, dict[str, Any]]:
        keys = self.keys()
        if keys is None:
            return {}
        names = self.names = tuple(keys)
        check_keys(self.report, self.spec, ITEM_KEYS | set(self.properties) | {FAMILY_KEY},
                   self.path, "property of an item kind")
        combos = list(itertools.product(*keys.values()))
        if len(combos) > MAX_KINDS:
            self.report((*self.path, FAMILY_KEY), f"the family makes {len(combos):,} kinds; "
                                                  f"at most {MAX_KINDS:,}")
            return {}
        computed: dict[str, list[Any]] = {}
        for pname, raw in self.spec.items():
            if pname in ITEM_KEYS or pname == FAMILY_KEY or pname in names:
                continue
            pdef = self.properties.get(pname)
            if pdef is None:
                continue  # reported above as an unknown key
            values = self.computed(pname, pdef, raw, names, combos)
            if values is None:
                return {}
            computed[pname] = values
        common = {k: v for k, v in self.spec.items() if k in ("type", "copies")}
        # `label` and `text` read the keys and every property the kind has (its default
        # when the family does not set it).
        fields = (*names, *(p for p, d in self.properties.items()
                            if d.type != "effects" and p not in names))
        templates = {}
        for word in ("label", "text"):
            if word in self.spec:
                parts = self.template(word, fields)
                if parts is None:
                    return {}
                templates[word] = parts
        out: dict[str, dict[str, Any]] = {}
        for n, combo in enumerate(combos):
            kind = "_".join([self.name, *(str(v) for v in combo)])
            own = {**common, **dict(zip(names, combo, strict=True)),
                   **{p: vs[n] for p, vs in computed.items()}}
            seen = tuple(own[f] if f in own else self.properties[f].default for f in fields)
            for word, parts in templates.items():
                filled = self.fill(parts, seen, word)
                if filled is None:
                    return {}
                own[word] = filled
            out[kind] = own
        return out

    def keys(self) -> dict[str, list[Any]] | None:
        """`for_each`: each key and its values, checked; None after a problem."""
        path = (*self.path, FAMILY_KEY)
        raw = self.spec[FAMILY_KEY]
        if not isinstance(raw, dict) or not raw:
            self.report(path, "expected a mapping of KEY: [VALUES] (or KEY: {from: N, to: "
                              "N}), e.g. {suit: [clubs, hearts], rank: {from: 2, to: 14}}")
            return None
        out: dict[str, list[Any]] = {}
        ok = True
        for key, values in raw.items():
            kpath = (*path, key)
            if not isinstance(key, str) or not _ID.match(key):
                self.report(kpath, f"a key {key!r} must be lower_snake_case")
                ok = False
                continue
            if key in ITEM_KEYS or key == FAMILY_KEY:
                self.report(kpath, f"{key!r} is a key every item kind has; choose another")
                ok = False
                continue
            if key in self.spec:
                self.report((*self.path, key), f"{key!r} is a key of for_each: each kind "
                                               "the family makes has its own value")
                ok = False
                continue
            listed = self.values(values, kpath)
            if listed is None or not self.declare(key, listed, kpath):
                ok = False
                continue
            out[key] = listed
        return out if ok else None

    def values(self, raw: Any, path: Path) -> list[Any] | None:
        """A key's values: a list, or `{from: N, to: N}` (both ends included)."""
        if isinstance(raw, dict):
            check_keys(self.report, raw, {"from", "to"}, path, "key of a range")
            lo, hi = raw.get("from"), raw.get("to")
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi)):
                self.report(path, "a range is {from: N, to: N} with whole numbers")
                return None
            lo, hi = cast(int, lo), cast(int, hi)
            if lo < 0 or hi > MAX_KINDS:
                self.report(path, f"a range runs within 0 to {MAX_KINDS:,}, not {lo} to {hi}")
                return None
            if hi < lo:
                self.report(path, f"the range from {lo} to {hi} is empty: it makes no kinds")
                return None
            return list(range(lo, hi + 1))
        if not isinstance(raw, list):
            self.report(path, "expected a list of values or a range {from: N, to: N}")
            return None
        if not raw:
            self.report(path, "the list is empty: it makes no kinds")
            return None
        for value in raw:
            number = isinstance(value, int) and not isinstance(value, bool)
            if number and _too_large(value):
                self.report(path, f"number too large: {_shown(value)}")
                return None
            if not (number and value >= 0) and not (isinstance(value, str) and _ID.match(value)):
                self.report(path, f"a value is a whole number from 0 or a lower_snake_case "
                                  f"name (it is part of each kind's id), not {_shown(value)}")
                return None
        if len(set(raw)) != len(raw):
            dup = next(v for v in raw if raw.count(v) > 1)
            self.report(path, f"{_shown(dup)} is listed twice")
            return None
        return list(raw)

    def declare(self, key: str, values: list[Any], path: Path) -> bool:
        """The key as a property: declared here unless `properties` has it, of one type."""
        types = {type_of_value(v) for v in values}
        if len(types) != 1:
            self.report(path, "the values must all be whole numbers or all be names")
            return False
        vtype = types.pop()
        pdef = self.properties.get(key)
        if pdef is None:
            self.properties[key] = PropertyDef(key, vtype, 0 if vtype == "number" else "")
            return True
        if pdef.type != vtype:
            self.report(path, f"{key!r} is a property holding {_WORDS.get(pdef.type, pdef.type)}"
                              f" (in properties or another family), but these values are "
                              f"{_WORDS[vtype]}")
            return False
        return True

    def computed(self, pname: str, pdef: PropertyDef, raw: Any, names: tuple[str, ...],
                 combos: list[tuple[Any, ...]]) -> list[Any] | None:
        """A property written as text (not an effects list): an expression over the keys,
        its value for each combination. None after a problem; absent for other values."""
        if not isinstance(raw, str) or pdef.type == "effects":
            return [raw] * len(combos)
        path = (*self.path, pname)
        fn = self.compile(raw, names, path)
        if fn is None:
            return None
        out = []
        for combo in combos:
            value = self.run(fn, raw, combo, path)
            if value is _FAILED:
                return None
            if type_of_value(value) != pdef.type:
                self.report(path, f"{pname!r} holds {_WORDS.get(pdef.type, pdef.type)}, but "
                                  f"{raw!r} gives {_shown(value)} for {_place(names, combo)}")
                return None
            out.append(value)
        return out

    def compile(self, text: str, names: tuple[str, ...], path: Path) -> Compiled | None:
        try:
            return compile_expr(text, Scope(params=names))
        except ExpressionError as exc:
            hint = ""
            if exc.reason.startswith("unknown name"):
                hint = (f"; in a family, text is an expression over its keys "
                        f"({', '.join(names)}): quote a fixed text inside, e.g. \"'red'\"")
            self.report(path, f"{exc}{hint}")
            return None

    def run(self, fn: Compiled, text: str, combo: tuple[Any, ...], path: Path) -> Any:
        """The expression's value with the keys taking one combination's values. It runs
        before any game exists: reading one (a variable, the round) is a failure too."""
        FRAMES.stack.append(combo)
        try:
            return fn(cast(Ctx, _NO_GAME))
        except Exception as exc:  # any failure is the ruleset's: report it, never crash
            why = "it reads the game, which does not exist yet" if isinstance(
                exc, AttributeError) else str(exc) or type(exc).__name__
            self.report(path, f"in expression {text!r}: fails for "
                              f"{_place(self.names, combo[:len(self.names)])}: "
                              f"{why}")
            return _FAILED
        finally:
            FRAMES.stack.pop()

    def template(self, word: str, fields: tuple[str, ...]) -> list[Any] | None:
        """`label` or `text`: plain pieces and `{EXPR}` placeholders, each compiled once
        over `fields`; None after a problem."""
        raw = self.spec[word]
        path = (*self.path, word)
        if not isinstance(raw, str):
            self.report(path, f"expected text, found {_shown(raw)}")
            return None
        parts: list[Any] = []
        pos = 0
        for m in _PLACEHOLDER.finditer(raw):
            parts.append(raw[pos:m.start()])
            inner = m.group(1).strip()
            fn = self.compile(inner, fields, path)
            if fn is None:
                return None
            parts.append((inner, fn))
            pos = m.end()
        parts.append(raw[pos:])
        return parts

    def fill(self, parts: list[Any], values: tuple[Any, ...], word: str) -> str | None:
        """A template filled in for one kind; None when a placeholder fails."""
        out = []
        for part in parts:
            if isinstance(part, str):
                out.append(part)
                continue
            value = self.run(part[1], part[0], values, (*self.path, word))
            if value is _FAILED:
                return None
            out.append(str(value))
        return "".join(out)


class _NoGame:
    """What a load-time expression sees for the game: nothing (its reads fail)."""

    __slots__ = ()
    state = None
    seat = 0
    args: ClassVar[dict[str, Any]] = {}


_NO_GAME = _NoGame()
_FAILED = object()


def _place(names: tuple[str, ...], combo: tuple[Any, ...]) -> str:
    return ", ".join(f"{n}={v!r}" for n, v in zip(names, combo, strict=True))
