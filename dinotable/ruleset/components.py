"""The table's components: options, dice, item properties and kinds, zones and boards."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine.boards import space_zone
from ..engine.compiler import EffectCompiler
from ..engine.effects import _unknown
from ..engine.expr import (
    FUNCTIONS,
)
from ..engine.exprtypes import type_of_value
from ..engine.model import (
    BoardDef,
    DieDef,
    ItemKindDef,
    OptionDef,
    PropertyDef,
    ZoneDef,
)
from .problems import Path, check_keys
from .reader import _ID, MAX_NUMBER, MAX_START, RESERVED, Section, SectionReader, _shown, _too_large
from .variant_keys import board_shapes, option_applies_when, option_by_players

OPTION_KEYS = {"default", "label", "min", "max", "choices", "by_players", "applies_when",
               "hidden"}
DIE_KEYS = {"faces", "label", "values"}
ZONE_KEYS = {"holds", "per_player", "visible", "blind", "start", "label", "order", "face",
             "keys"}  # `keys`: a zone family, expanded before the zones are read
ITEM_KEYS = {"type", "copies", "label", "text"}
ITEM_TYPES = ("card", "tile", "token")
PROPERTY_TYPES = ("number", "text", "list", "table", "effects")
ORDERS = ("pile", "deck")
BOARD_KEYS = {"rows", "cols", "spaces", "per_player", "visible", "holds", "label",
              "shape_option", "shapes"}
MAX_SPACES = 400
FACES = ("up", "down")


VISIBILITY = ("all", "owner", "none")
HOLDS = ("dice", "cards", "tiles", "tokens")
_ALL_OF = {"tokens": "token", "tiles": "tile"}  # `start: all` in a zone holding these


MAX_COPIES = 10_000  # copies of one item kind: a 5,000-card deck plays, a typo does not
MAX_ITEMS = 20_000  # items the zones start with, every seat filled

_MISSING = object()
_EMPTY: dict[str, Any] = {"number": 0, "text": "", "list": [], "table": {}, "effects": []}
_A = {"number": "a number", "text": "text", "list": "a list", "table": "a table (key: value)",
      "effects": "a list of effects"}


def _is_per_copy(raw: Any) -> bool:
    """`{per_copy: [...]}`: a property's value for each copy of a kind."""
    return isinstance(raw, dict) and len(raw) == 1 and "per_copy" in raw


def _type_of(value: Any) -> str | None:
    """The property type a default value gives: the expression checker's, or a table."""
    if isinstance(value, dict):
        return "table"
    found = type_of_value(value)
    return found if found in ("number", "text", "list") else None


OPTIONS = Section("options", "option: {default: ...}", "option", frozenset(OPTION_KEYS),
                  key_word="key of an option", shorthand="default")
DICE = Section("dice", "kind: {faces: [...]}", "die kind", frozenset(DIE_KEYS),
               "faces and label", "key of a die")
PROPERTIES = Section("properties", "property: default", "property")
ITEMS = Section("items", "kind: {type: card, ...}", "item kind", frozenset(ITEM_KEYS),
                "type, copies and properties", "property of an item kind")
ZONES = Section("zones", "zone: {holds: ...}", "zone", frozenset(ZONE_KEYS), "zone settings",
                "key of a zone")
BOARDS = Section("boards", "board: {rows, cols} or {spaces: [...]}", "board",
                 frozenset(BOARD_KEYS), "board settings", "key of a board")


def _reserved_option(name: str) -> str | None:
    # A function is only ever called, so an option may share its name (a fixed option id
    # such as `length`): the bare name reads the option.
    if name in RESERVED and name not in FUNCTIONS:
        return f"{name!r} is a reserved name ({RESERVED[name]}); choose another"
    return None


class ComponentsReader(SectionReader):
    """Reads the sections that say what is on the table."""

    def options(self, raw: Any) -> dict[str, OptionDef]:
        out: dict[str, OptionDef] = {}
        for name, spec, path in self.entries(raw, OPTIONS, refuse=_reserved_option):
            if "default" not in spec:
                self.report(path, "an option needs a default")
                continue
            default = spec["default"]
            # A bad default is reported, and the option kept (as a number or unknown), so
            # expressions reading it do not add "unknown name" problems.
            if _too_large(default):
                self.report((*path, "default"), f"number too large: {_shown(default)} (at most "
                                                f"{MAX_NUMBER:,} either side of zero)")
                default = None
            elif not isinstance(default, int | float | str | bool):
                self.report((*path, "default"), "a default is a number, text or true/false")
                default = None
            lo, hi = spec.get("min"), spec.get("max")
            if lo is not None:
                lo = self.integer(lo, (*path, "min"))
            if hi is not None:
                hi = self.integer(hi, (*path, "max"))
            if isinstance(default, int) and not isinstance(default, bool) and (
                    (lo is not None and default < lo) or (hi is not None and default > hi)):
                self.report((*path, "default"), f"default {default} is outside {lo}..{hi}")
            choices = spec.get("choices") or []
            if not isinstance(choices, list):
                self.report((*path, "choices"), "expected a list of values")
                choices = []
            elif not self.bounded(choices, (*path, "choices")):
                choices = []
            hidden = spec.get("hidden", False)
            if not isinstance(hidden, bool):
                self.report((*path, "hidden"), f"expected true or false, found {_shown(hidden)}")
                hidden = False
            out[name] = OptionDef(name, default, self.text(spec.get("label"), (*path, "label"),
                                                           name), lo, hi, tuple(choices),
                                  option_by_players(self, spec, path, default, choices),
                                  option_applies_when(self, spec, path), hidden)
        return out

    def dice(self, raw: Any) -> dict[str, DieDef]:
        out: dict[str, DieDef] = {}
        for name, spec, path in self.entries(raw, DICE):
            faces = spec.get("faces")
            if not isinstance(faces, list) or not faces:
                self.report((*path, "faces"), "expected a list of face ids")
                continue
            numbers = all(isinstance(f, int) and not isinstance(f, bool) for f in faces)
            if not numbers and not all(isinstance(f, str) and _ID.match(f) for f in faces):
                self.report((*path, "faces"), "every face id must be lower_snake_case "
                                              "(or every face a whole number)")
                continue
            if not self.bounded(faces, (*path, "faces")) or not self.bounded(
                    spec.get("values"), (*path, "values")):
                continue
            values = self.face_values(spec, faces, numbers, path)
            out[name] = DieDef(name, tuple(faces), self.text(spec.get("label"),
                                                             (*path, "label"), name), values)
        return out

    def zones(self, raw: Any, dice: dict[str, DieDef], kinds: dict[str, dict[str, Any]],
              seats: int = 1) -> dict[str, ZoneDef]:
        out: dict[str, ZoneDef] = {}
        for name, spec, path in self.entries(raw, ZONES):
            holds = self.choice(spec.get("holds"), (*path, "holds"), HOLDS, "dice")
            per_player = spec.get("per_player", False)
            if not isinstance(per_player, bool):
                self.report((*path, "per_player"), "expected true or false")
                per_player = False
            visible = self.choice(spec.get("visible"), (*path, "visible"), VISIBILITY, "all")
            blind = spec.get("blind", False)
            if not isinstance(blind, bool):
                self.report((*path, "blind"), "expected true or false")
                blind = False
            start: list[tuple[str, int]] = []
            start_items: list[tuple[str, int]] = []
            raw_start = spec.get("start")
            if raw_start == "all":
                # Every copy of every kind of what the zone holds: a token or tile zone its
                # tokens or tiles, any other zone the cards (the whole deck).
                wanted = _ALL_OF.get(holds, "card")
                start_items = [(k, int(v.get("copies", 1))) for k, v in kinds.items()
                               if v.get("type", "card") == wanted]
                raw_start = None
            for kind, count in self.mapping(raw_start, (*path, "start"),
                                            "kind: count (or all)").items():
                if kind not in dice and kind not in kinds:
                    self.report((*path, "start", kind), _unknown(
                        "die or item kind" if kinds else "die kind", str(kind),
                        [*dice, *kinds]))
                    continue
                if count == "all" and kind in kinds:  # every copy of the kind
                    start_items.append((kind, int(kinds[kind]["copies"])))
                    continue
                if count == "all":
                    self.report((*path, "start", kind), f"{kind!r} is a die kind: give how "
                                                        "many (all is for cards, tiles and "
                                                        "tokens)")
                    continue
                n = self.integer(count, (*path, "start", kind), 0, MAX_START)
                if n is not None:
                    (start if kind in dice else start_items).append((kind, n))
            order = self.choice(spec.get("order"), (*path, "order"), ORDERS, "pile")
            face = self.choice(spec.get("face"), (*path, "face"), FACES, "up")
            out[name] = ZoneDef(name, holds, per_player, visible, tuple(start),
                                self.text(spec.get("label"), (*path, "label"), name), blind,
                                order, face, tuple(start_items))
        self.check_copies(out, kinds, seats)
        return out

    def check_copies(self, zones: dict[str, ZoneDef], kinds: dict[str, dict[str, Any]],
                     seats: int) -> None:
        """No zone set-up places more of an item kind than the box holds (`copies`), with
        the most players the game takes: a per-player zone's start is placed once per seat."""
        placed: dict[str, int] = {}
        mine: dict[str, str] = {}  # a kind a per-player zone starts with: that zone
        for zdef in zones.values():
            for kind, count in zdef.start_items:
                placed[kind] = placed.get(kind, 0) + count * (seats if zdef.per_player else 1)
                if zdef.per_player:
                    mine.setdefault(kind, zdef.name)
        total = sum(placed.values())
        if total > MAX_ITEMS:
            self.report(("zones",), f"the zones start with {total} items; a table holds at "
                                    f"most {MAX_ITEMS:,}")
        for kind, count in placed.items():
            copies = int(kinds[kind]["copies"])
            if count > copies:
                why = (f" ({mine[kind]!r} is each player's own, placed for each of up to "
                       f"{seats} players)" if kind in mine else "")
                where = ("zones", mine[kind], "start", kind) if kind in mine else ("items", kind)
                self.report(where, f"the zones start with {count} of {kind!r}{why} but it "
                                   f"has {copies} (copies: {copies})")

    # --- dice values, items with data, named expressions --------------------------------

    def face_values(self, spec: dict[str, Any], faces: list[Any], numbers: bool, path: Path
                    ) -> tuple[int, ...]:
        """Each face's value: the number on a number face, else `values:` in parallel."""
        raw = spec.get("values")
        if raw is None:
            return tuple(faces) if numbers else ()
        vpath = (*path, "values")
        if not isinstance(raw, list) or len(raw) != len(faces) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in raw):
            self.report(vpath, f"expected a list of {len(faces)} whole numbers, one per face")
            return ()
        seen: dict[Any, int] = {}
        for f, v in zip(faces, raw, strict=True):
            if seen.setdefault(f, v) != v:
                self.report(vpath, f"face {f!r} is given two values ({seen[f]} and {v})")
                return ()
        return tuple(raw)

    def properties(self, raw: Any) -> dict[str, PropertyDef]:
        """`properties:` name -> default value (its type follows), or {type, default}."""
        out: dict[str, PropertyDef] = {}
        for name, spec, path in self.entries(raw, PROPERTIES, refuse=lambda name: (
                f"{name!r} is a key every item kind has; choose another name"
                if name in ITEM_KEYS else None)):
            if isinstance(spec, dict) and "type" in spec:
                check_keys(self.report, spec, {"type", "default"}, path, "key of a property")
                ptype = self.choice(spec.get("type"), (*path, "type"), PROPERTY_TYPES, "")
                if not ptype:
                    continue
                default = spec.get("default", _EMPTY[ptype])
            else:
                default = spec
                inferred = _type_of(spec)
                if inferred is None:
                    self.report(path, "a default is a number, text, a list or a table "
                                      "(or {type: effects})")
                    continue
                ptype = inferred
            value = self.prop_value(ptype, default, (*path, "default"))
            if value is not _MISSING:
                out[name] = PropertyDef(name, ptype, value)
        return out

    def prop_value(self, ptype: str, raw: Any, path: Path) -> Any:
        """A property value checked against its type (effects are compiled later)."""
        if ptype != "effects" and _type_of(raw) != ptype:
            self.report(path, f"expected {_A[ptype]}, found {_shown(raw)}")
            return _MISSING
        if ptype != "effects" and not self.bounded(raw, path):
            return _MISSING
        if ptype == "list":
            return tuple(raw)
        if ptype == "effects" and not isinstance(raw, list | dict):
            self.report(path, "expected a list of effects")
            return _MISSING
        return raw

    def item_kinds(self, raw: Any, properties: dict[str, PropertyDef],
                   dice: dict[str, DieDef]) -> dict[str, dict[str, Any]]:
        """`items:` checked; effects are compiled once the scope is known (item_props)."""
        out: dict[str, dict[str, Any]] = {}
        for name, spec, path in self.entries(
                raw, ITEMS, ITEM_KEYS | set(properties),
                lambda name: f"{name!r} is already a die kind" if name in dice else None):
            if "type" not in spec:
                self.report(path, f"an item kind needs a type: one of {', '.join(ITEM_TYPES)}")
            self.choice(spec.get("type", "card"), (*path, "type"), ITEM_TYPES, "card")
            copies = self.integer(spec.get("copies", 1), (*path, "copies"), 1, MAX_COPIES)
            self.text(spec.get("label"), (*path, "label"))
            self.text(spec.get("text"), (*path, "text"))
            out[name] = {**spec, "copies": copies or 1}
        return out

    def item_props(self, kinds: dict[str, dict[str, Any]], properties: dict[str, PropertyDef],
                   compiler: EffectCompiler, families: dict[str, str] | None = None
                   ) -> dict[str, ItemKindDef]:
        """Every item kind with all its property values; card effects compiled with `$card`.
        `families`: the family each generated kind comes from."""
        card_scope = replace(compiler.scope, args=frozenset({"card"}))
        # The rules' shared decisions: a question (`choose`) asked by a card's effects is
        # answered like one asked by an action.
        cards = EffectCompiler(card_scope, self.report, compiler.zone_defs, compiler.shared)
        cards.effect_props = compiler.effect_props
        out: dict[str, ItemKindDef] = {}
        for name, spec in kinds.items():
            props: dict[str, Any] = {}
            per_copy: dict[str, tuple[Any, ...]] = {}
            for pname, pdef in properties.items():
                ppath = ("items", name, pname)
                raw = spec.get(pname, pdef.default)
                if _is_per_copy(raw) and pdef.type != "effects":
                    values = self.per_copy(pdef, raw["per_copy"], int(spec["copies"]), ppath)
                    if values is not None:
                        props[pname] = values[0]
                        per_copy[pname] = values
                    continue
                if pdef.type == "effects":
                    value = self.prop_value("effects", raw, ppath)
                    if value is not _MISSING:
                        props[pname] = cards.effects(raw, ppath)
                    continue
                value = self.prop_value(pdef.type, raw, ppath) if pname in spec else raw
                if value is not _MISSING:
                    props[pname] = value
            out[name] = ItemKindDef(
                name, str(spec.get("type", "card")), int(spec["copies"]),
                str(spec.get("label") or name.replace("_", " ").title()),
                str(spec.get("text") or ""), props, per_copy, (families or {}).get(name, ""))
        return out

    def per_copy(self, pdef: PropertyDef, raw: Any, copies: int, path: Path
                 ) -> tuple[Any, ...] | None:
        """`{per_copy: [...]}`: one value of the property's type for each copy."""
        path = (*path, "per_copy")
        if not isinstance(raw, list) or len(raw) != copies:
            self.report(path, f"expected a list of {copies} values, one for each copy "
                              f"(copies: {copies}), found {_shown(raw)}")
            return None
        values = [self.prop_value(pdef.type, v, (*path, n)) for n, v in enumerate(raw)]
        if any(v is _MISSING for v in values):
            return None
        return tuple(values)

    def boards(self, raw: Any, zones: dict[str, ZoneDef], seen: dict[str, str]
               ) -> dict[str, BoardDef]:
        """Grids and tracks; each space becomes a zone `BOARD@SPACE` holding its items."""
        out: dict[str, BoardDef] = {}
        for name, spec, path in self.entries(raw, BOARDS, refuse=lambda name: (
                f"{name!r} is already the name of a zone" if name in zones else
                f"{name!r} is already the name of a zone family"
                if seen.get(name) == "zone family" else None)):
            spaces: list[str] = []
            rows, cols = 1, 0
            if "spaces" in spec:
                if "rows" in spec:
                    self.report(path, "a board is either a grid (rows and cols) or a track "
                                      "(spaces), not both; named spaces in rows take `cols`")
                    continue
                raw_spaces = spec["spaces"]
                if (not isinstance(raw_spaces, list) or not raw_spaces
                        or not all(isinstance(x, str) and _ID.match(x) for x in raw_spaces)
                        or len(set(raw_spaces)) != len(raw_spaces)):
                    self.report((*path, "spaces"), "expected a list of different "
                                                   "lower_snake_case space names")
                    continue
                spaces = list(raw_spaces)
                if "cols" in spec:  # named spaces laid out in rows of `cols`: a grid
                    cols = self.integer(spec.get("cols"), (*path, "cols"), 1) or 0
                    if not cols:
                        continue
                    rows = -(-len(spaces) // cols)
            else:
                rows = self.integer(spec.get("rows"), (*path, "rows"), 1) or 0
                cols = self.integer(spec.get("cols"), (*path, "cols"), 1) or 0
                if not rows or not cols:
                    continue
                if rows * cols > MAX_SPACES:
                    self.report(path, f"{rows} x {cols} spaces is more than {MAX_SPACES}")
                    continue
                spaces = [f"r{r + 1}c{c + 1}" for r in range(rows) for c in range(cols)]
            per_player = spec.get("per_player", False)
            if not isinstance(per_player, bool):
                self.report((*path, "per_player"), "expected true or false")
                per_player = False
            visible = self.choice(spec.get("visible"), (*path, "visible"), VISIBILITY, "all")
            holds = self.choice(spec.get("holds"), (*path, "holds"), HOLDS, "tiles")
            label = self.text(spec.get("label"), (*path, "label"), name.replace("_", " "))
            option, shapes = board_shapes(self, spec, path, spaces)
            out[name] = BoardDef(name, tuple(spaces), rows, cols, per_player, label,
                                 {s: i for i, s in enumerate(spaces)}, option, shapes)
            seen[name] = "board"
            for space in dict.fromkeys([*spaces, *(s for v in shapes.values() for s in v)]):
                zname = space_zone(name, space)
                zones[zname] = ZoneDef(zname, holds, per_player, visible,
                                       label=f"{label}: {space.replace('_', ' ')}")
        return out
