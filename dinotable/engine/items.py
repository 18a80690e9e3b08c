"""Cards, tiles and tokens with data; decks; scoring helpers.

Expression functions read item properties (`prop`, `sum_prop`, `sets`, ...) and die face
values (`value`, `pips`); effects shuffle, deal, look at and bottom decks, and run the
effects written on a card (`run_card`). Importing this module registers them all.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from .codegen import ZoneRef
from .decks import find_item, fix_position, owner_of, shuffle, take_top, unknown_run
from .effects import Param, effect
from .errors import EngineError
from .expr import Compiled, Ctx, ZoneName, function
from .model import DieDef, Effect, Rules
from .registry import INLINE_HELPERS
from .state import Event, GameState, Item

# --- reading items -------------------------------------------------------------


def kind_of(state: GameState, wanted: Any) -> str:
    """The kind of an item given by id, or `wanted` itself when it names a kind."""
    index = state.item_ids.get(wanted)
    if index is not None:
        return state.items[index].kind
    if wanted in state.rules.items or wanted in state.rules.dice:
        return str(wanted)
    raise EngineError(f"{wanted!r} is neither an item nor a kind of item")


def prop_of(state: GameState, wanted: Any, name: str) -> Any:
    """A property of an item (by id) or of a kind (a value per copy: the first copy's)."""
    kind = kind_of(state, wanted)
    kdef = state.rules.items.get(kind)
    if kdef is None:
        raise EngineError(f"{wanted!r} is a die: it has no property {name!r}")
    if kdef.per_copy and wanted != kind and name in kdef.per_copy:
        return kdef.per_copy[name][copy_number(state.items[state.item_ids[wanted]])]
    return kdef.props[name]


def copy_number(item: Item) -> int:
    """Which copy of its kind an item is, from 0: ids run KIND, KIND_2, KIND_3, ..."""
    return 0 if item.id == item.kind else int(item.id[len(item.kind) + 1:]) - 1


def item_prop(state: GameState, index: int, name: str) -> Any:
    """A property of the item at `index` (None for a die), its own when it has one per copy."""
    it = state.items[index]
    kdef = state.rules.items.get(it.kind)
    if kdef is None:
        return None
    values = kdef.per_copy.get(name) if kdef.per_copy else None
    return kdef.props[name] if values is None else values[copy_number(it)]


def _values_in(c: Ctx, zone: list[int], name: str) -> list[Any]:
    """The property `name` of every item in a zone (dice are skipped: they have none)."""
    kinds = c.state.rules.items
    items = c.state.items
    if name in _per_copy_names(c.state.rules):
        return [item_prop(c.state, i, name) for i in zone if items[i].kind in kinds]
    return [kinds[items[i].kind].props[name] for i in zone if items[i].kind in kinds]


def _per_copy_names(rules: Rules) -> frozenset[str]:
    """The properties some kind gives a value per copy (usually none): worked out once."""
    found: frozenset[str] | None = rules.memo.get("per_copy")
    if found is None:
        found = rules.memo["per_copy"] = frozenset(
            name for kdef in rules.items.values() for name in kdef.per_copy)
    return found


@lru_cache(maxsize=256)
def _face_values(die: DieDef) -> dict[Any, int]:
    return dict(zip(die.faces, die.values, strict=True))


def face_value(state: GameState, index: int) -> int:
    """The value of the face a die shows (0 while it shows none)."""
    it = state.items[index]
    die = state.rules.dice.get(it.kind)
    if die is None:
        raise EngineError(f"{it.id!r} is not a die: it shows no face value")
    if it.face is None:
        return 0
    if not die.values:
        raise EngineError(f"die kind {it.kind!r} has no face values (give it `values:`)")
    return _face_values(die)[it.face]


def plain_reader(name: str) -> Callable[[GameState, Any], Any]:
    """`prop(wanted, name)` for one property name, as compiled code calls it: a kind's
    plain value from the table made once per ruleset (kept beside the rules it was made
    for, one pair swapped whole, so a thread reading another ruleset never sees half),
    else `prop_of`."""
    box: list[tuple[Any, dict[str, Any]]] = [(None, {})]

    def read(state: GameState, wanted: Any) -> Any:
        rules = state.rules
        pair = box[0]
        if pair[0] is not rules:
            pair = box[0] = (rules, plain_values(rules, name))
        value = pair[1].get(wanted, _MISSING)
        return prop_of(state, wanted, name) if value is _MISSING else value

    return read


# Each property name's reader, made as the first expression naming it compiles.
_READERS: dict[str, Callable[[GameState, Any], Any]] = {}
INLINE_HELPERS["_prop_readers"] = _READERS


# Each property's table with the rules it was made for, one pair swapped whole (as the
# readers keep theirs): fetched before every listing's loop, it costs one lookup.
_TABLES: dict[str, tuple[Any, dict[str, Any]]] = {}


def prop_table(state: GameState, name: str) -> dict[str, Any]:
    """The kinds whose property `name` its reader takes from the table (`plain_values`):
    a `where` testing many kinds reads it once and looks each kind up in it (hoist.py)."""
    pair = _TABLES.get(name)
    if pair is None or pair[0] is not state.rules:
        pair = _TABLES[name] = (state.rules, plain_values(state.rules, name))
    return pair[1]


INLINE_HELPERS["_prop_table"] = prop_table


def _prop_source(item: str, name: str) -> str:
    """The inline form of `prop`: a call of the property's own reader."""
    if name not in _READERS:
        _READERS[name] = plain_reader(name)
    return f"_prop_readers[{name!r}](st, {item})"


@function("prop", ("expr", "prop"), "A property of an item (its id) or of a kind of item.",
          "prop($card, cost)", inline=_prop_source)
def _prop(item: Compiled, name: str) -> Compiled:
    read = plain_reader(name)
    return lambda c: read(c.state, item(c))


_MISSING = object()
_COPY_ID = re.compile(r"(.+)_\d+$")


def plain_values(rules: Rules, name: str) -> dict[str, Any]:
    """The kinds whose property `name` `prop` reads straight from the kind, with its values:
    a kind's name read as `prop`'s argument always means the kind (or its first copy, which
    shares its value), unless the name could also be another kind's copy (`fence_2`) or a
    hidden item's, which are left to `prop_of`."""
    key = ("plain_values", name)
    found: dict[str, Any] | None = rules.memo.get(key)
    if found is None:
        found = {}
        for kind, kdef in rules.items.items():
            copy_of = _COPY_ID.match(kind)
            if name not in kdef.props or (kdef.per_copy and name in kdef.per_copy) or (
                    copy_of and copy_of.group(1) in rules.items) or kind.startswith("hidden"):
                continue
            found[kind] = kdef.props[name]
        rules.memo[key] = found
    return found


@function("kind_of", ("expr",), "The kind of an item, given its id.", "kind_of($card)")
def _kind_of(item: Compiled) -> Compiled:
    return lambda c: kind_of(c.state, item(c))


@function("has", ("expr", "expr"), "Whether a list (a list property) holds a value.",
          "has(prop($card, tags), 'predator')",
          inline=lambda seq, value: f"(({value}) in ({seq}))")
def _has(seq: Compiled, value: Compiled) -> Compiled:
    return lambda c: value(c) in seq(c)


def _lookup_in(table: Any, key: Any) -> Any:
    """A table's entry for `key`, else its `other`; an EngineError where it has neither."""
    if not isinstance(table, dict):
        raise EngineError(f"lookup() needs a table, not {table!r}")
    if key in table:
        return table[key]
    if "other" in table:
        return table["other"]
    raise EngineError(f"the table {table!r} has no entry for {key!r} (and no `other`)")


INLINE_HELPERS["_lookup_in"] = _lookup_in


@function("lookup", ("expr", "expr"), "The entry of a table (a table property) for a key, "
          "such as a die result; the entry `other` answers for any key not listed.",
          "lookup(prop($card, hunt), 6)",
          inline=lambda table, key: f"_lookup_in({table}, {key})")
def _lookup(table: Compiled, key: Compiled) -> Compiled:
    return lambda c: _lookup_in(table(c), key(c))


@function("clamp", ("expr", "expr", "expr"), "A number kept within a low and a high bound.",
          "clamp(energy - 2, 0, 10)",
          inline=lambda x, lo, hi: f"min(max({x}, {lo}), {hi})")
def _clamp(x: Compiled, lo: Compiled, hi: Compiled) -> Compiled:
    return lambda c: min(max(x(c), lo(c)), hi(c))


@function("sum_prop", ("zone", "prop"), "The sum of a number property over the items in a "
          "zone (the seat in scope's own, for a per-player zone).", "sum_prop(played, points)")
def _sum_prop(zone: ZoneName, name: str) -> Compiled:
    get = zone.items()
    return lambda c: sum(_values_in(c, get(c), name))


def _matches(have: Any, value: Any) -> bool:
    return bool(have == value or (isinstance(have, tuple | list) and value in have))


@function("count_where", ("zone", "prop", "expr"), "Items in a zone whose property equals "
          "a value (a list property: holds it).", "count_where(played, suit, 'red')")
def _count_where(zone: ZoneName, name: str, value: Compiled) -> Compiled:
    get = zone.items()
    return lambda c: sum(1 for v in _values_in(c, get(c), name) if _matches(v, value(c)))


@function("value", ("expr",), "The value of the face a die shows (its number, for a die "
          "with number faces; 0 before it is rolled).", "value('d6_1')")
def _value(item: Compiled) -> Compiled:
    def run(c: Ctx) -> int:
        wanted = item(c)
        index = c.state.item_ids.get(wanted)
        if index is None:
            raise EngineError(f"{wanted!r} is not an item")
        return face_value(c.state, index)

    return run


@function("pips", ("zone",), "The sum of the face values of the dice in a zone.", "pips(hand)")
def _pips(zone: ZoneName) -> Compiled:
    get = zone.items()
    return lambda c: sum(face_value(c.state, i) for i in get(c))


def count_sets(values: list[Any], wanted: tuple[Any, ...]) -> int:
    """Complete sets, each item used once: one item of each wanted value per set."""
    return _complete(Counter(values), Counter(wanted))


def _complete(have: Counter[Any], need: Counter[Any]) -> int:
    """How many sets `have` completes: the value it is shortest of decides."""
    return min((have[v] // n for v, n in need.items()), default=0)


def set_members(values: Sequence[Any], wanted: Sequence[Any]) -> list[list[int]]:
    """The complete sets `sets()` counts, as the positions in `values` of the items making
    each up: one item of each wanted value per set (two of a value listed twice), each
    item in one set at most, the first free ones in order. There are always exactly
    `count_sets(values, wanted)` of them, so what is shown agrees with the score."""
    need = Counter(wanted)
    free: dict[Any, list[int]] = {}
    for n, value in enumerate(values):
        if value in need:
            free.setdefault(value, []).append(n)
    sets = _complete(Counter({v: len(at) for v, at in free.items()}), need)
    taken = dict.fromkeys(need, 0)
    out = []
    for _ in range(sets):
        members = []
        for value in wanted:
            members.append(free[value][taken[value]])
            taken[value] += 1
        out.append(members)
    return out


@function("sets", ("zone", "prop", "values"), "Complete sets in a zone, each item used once: "
          "a set is one item with each listed property value.",
          "sets(played, suit, [red, green, blue])")
def _sets(zone: ZoneName, name: str, wanted: tuple[Any, ...]) -> Compiled:
    get = zone.items()
    return lambda c: count_sets(_values_in(c, get(c), name), wanted)


@function("groups", ("zone", "prop", "expr"), "Groups of `size` items sharing a property "
          "value, each item used once.", "groups(played, suit, 3)")
def _groups(zone: ZoneName, name: str, size: Compiled) -> Compiled:
    get = zone.items()

    def run(c: Ctx) -> int:
        n = int(size(c))
        if n <= 0:
            raise EngineError(f"groups() needs a size of at least 1, not {n}")
        return sum(k // n for k in Counter(_values_in(c, get(c), name)).values())

    return run


@function("distinct", ("zone", "prop"), "Distinct values of a property in a zone "
          "(duplicates count once).", "distinct(played, suit)")
def _distinct(zone: ZoneName, name: str) -> Compiled:
    get = zone.items()
    return lambda c: len(set(_values_in(c, get(c), name)))


def _sole_highest(c: Ctx, inner: Compiled) -> bool:
    saved = c.seat
    mine = inner(c)
    try:
        for seat in range(len(c.state.players)):
            if seat != saved and c.state.active[seat]:
                c.seat = seat
                if inner(c) >= mine:
                    return False
    finally:
        c.seat = saved
    return True


@function("sole_highest", ("expr",), "True when the seat in scope's value is strictly higher "
          "than every other active player's (nobody is highest on a tie).",
          "sole_highest(size(played))")
def _sole_highest_fn(inner: Compiled) -> Compiled:
    return lambda c: _sole_highest(c, inner)


# --- effects ---------------------------------------------------------------------


def _event(c: Ctx, kind: str, data: Callable[[], dict[str, Any]]) -> None:
    if c.events is not None:
        c.events.append(Event(kind, c.seat, data()))


def _ids(state: GameState, indexes: list[int]) -> list[str]:
    return [state.items[i].id for i in indexes]


@effect("shuffle", "Shuffle a deck: its cards lie in unknown order, and each draw from it is "
        "a chance event. A forced outcome that is a list pins the cards (ids or kinds) that "
        "end on top, first listed on top.", "shuffle: {zone: deck}",
        {"zone": Param("deck", "the deck")}, shorthand="zone")
def _shuffle(p: dict[str, Any]) -> Effect:
    zone: ZoneRef = p["zone"]

    def run(c: Ctx) -> bool:
        z = zone.get(c)
        shuffle(c.state, z, zone.name)
        _event(c, "shuffled", lambda: {"zone": zone.name, "owner": owner_of(c, zone),
                                       "size": len(z)})
        return False

    return run


@effect("reshuffle_into", "Move every item of a zone (a discard pile) into a deck, then "
        "shuffle the deck.", "reshuffle_into: {from: discard, to: deck}",
        {"from": Param("zone", "the pile"), "to": Param("deck", "the deck")})
def _reshuffle_into(p: dict[str, Any]) -> Effect:
    src: ZoneRef = p["from"]
    dst: ZoneRef = p["to"]

    def run(c: Ctx) -> bool:
        z, t = src.get(c), dst.get(c)
        if z is not t:
            moved = list(z)
            z.clear()
            t.extend(moved)
            _event(c, "moved", lambda: {"from": src.name, "to": dst.name,
                                        "from_owner": owner_of(c, src),
                                        "to_owner": owner_of(c, dst),
                                        "items": _ids(c.state, moved)})
        shuffle(c.state, t, dst.name)
        _event(c, "shuffled", lambda: {"zone": dst.name, "owner": owner_of(c, dst),
                                       "size": len(t)})
        return False

    return run


@effect("deal", "Deal `count` cards to every player still in the game, one at a time round "
        "the table in seat order, each from the top of the deck.",
        "deal: {from: deck, to: hand, count: 3}",
        {"from": Param("zone", "the deck"),
         "to": Param("player_zone", "each player's own zone"),
         "count": Param("expr", "cards per player", required=False, default=1)})
def _deal(p: dict[str, Any]) -> Effect:
    src: ZoneRef = p["from"]
    dst_name: str = p["to"].name
    count: Compiled = p["count"]

    def run(c: Ctx) -> bool:
        st = c.state
        z = src.get(c)
        dealt: list[tuple[int, str]] = []
        for _ in range(int(count(c))):
            for seat in range(len(st.players)):
                if not st.active[seat]:
                    continue
                i = take_top(st, z, src.name) if src.deck else (z.pop(0) if z else None)
                if i is None:
                    break
                st.zones[dst_name][seat].append(i)
                dealt.append((seat, st.items[i].id))
        _event(c, "dealt", lambda: {"from": src.name, "to": dst_name,
                                    "cards": [list(d) for d in dealt]})
        return False

    return run


@effect("look", "The acting player looks at the top `count` cards of a deck: their order "
        "is settled (a chance event for each one not yet known) and shown to that player; "
        "with `to`, they are then moved there.", "look: {zone: deck, count: 2}",
        {"zone": Param("deck", "the deck"),
         "count": Param("expr", "how many from the top", required=False, default=1),
         "to": Param("zone", "where the cards go after (default: they stay on top)",
                     required=False)})
def _look(p: dict[str, Any]) -> Effect:
    zone: ZoneRef = p["zone"]
    count: Compiled = p["count"]
    dst: ZoneRef | None = p.get("to")

    def run(c: Ctx) -> bool:
        st = c.state
        z = zone.get(c)
        n = max(0, min(int(count(c)), len(z)))
        for pos in range(n):
            if unknown_run(st, z, pos):
                fix_position(st, z, pos, f"looking at {zone.name}")
        seen = z[:n]
        _event(c, "looked", lambda: {"zone": zone.name, "items": _ids(st, seen)})
        if dst is not None and seen:
            t = dst.get(c)
            if t is not z:
                del z[:n]
                t.extend(seen)
        return False

    return run


@effect("put_bottom", "Put an item (by id or kind; default the top or front one) from a zone "
        "on the bottom of a deck, where its place is known.",
        "put_bottom: {from: hand, to: deck, item: \"$card\"}",
        {"from": Param("zone", "where the item is"), "to": Param("deck", "the deck"),
         "item": Param("expr", "the item's id or kind", required=False)})
def _put_bottom(p: dict[str, Any]) -> Effect:
    src: ZoneRef = p["from"]
    dst: ZoneRef = p["to"]
    item: Compiled | None = p.get("item")

    def run(c: Ctx) -> bool:
        st = c.state
        z, t = src.get(c), dst.get(c)
        if item is not None:
            i: int | None = z.pop(find_item(st, z, item(c), src.name))
        elif src.deck:
            i = take_top(st, z, src.name)
        else:
            i = z.pop(0) if z else None
        if i is None:
            return False
        st.shuffled.discard(i)
        t.append(i)
        _event(c, "moved", lambda: {"from": src.name, "to": dst.name,
                                    "from_owner": owner_of(c, src),
                                    "to_owner": owner_of(c, dst), "items": _ids(st, [i])})
        return False

    return run


@effect("run_card", "Run the effects written on an item: the list in its kind's `effects` "
        "property named here. Inside, `$card` is the item (the id or kind given) and the "
        "seat in scope stays the acting player.",
        "run_card: {item: \"$card\", effects: on_play}",
        {"item": Param("expr", "the item's id or kind"),
         "effects": Param("effects_prop", "the property holding the effects")})
def _run_card(p: dict[str, Any]) -> Effect:
    item: Compiled = p["item"]
    name: str = p["effects"]

    def run(c: Ctx) -> bool:
        wanted = item(c)
        body: Effect = prop_of(c.state, wanted, name)
        saved = c.args
        c.args = {"card": wanted}
        try:
            return body(c)
        finally:
            c.args = saved

    return run


def label_of(state: GameState, wanted: Any) -> str:
    """An item's or kind's name as people read it: its `label`, or its kind in words; any
    other name (a board's space, `late_jurassic`) in words with capitals (Late Jurassic)."""
    if wanted not in state.item_ids and wanted not in state.rules.items and (
            wanted not in state.rules.dice):
        return " ".join(w.capitalize() for w in str(wanted).split("_"))
    kind = kind_of(state, wanted)
    idef = state.rules.items.get(kind)
    if idef is not None and idef.label:
        return str(idef.label)
    die = state.rules.dice.get(kind)
    if die is not None and die.label:
        return die.label
    return kind.replace("_", " ").capitalize()


@function("label", ("expr",), "The name of an item (its id) or kind as people read it: its "
          "`label`, or the kind in words; any other name (a board's space) in words with "
          "capitals; for sentences the table says.",
          "label($card)")
def _label(item: Compiled) -> Compiled:
    return lambda c: label_of(c.state, item(c))
