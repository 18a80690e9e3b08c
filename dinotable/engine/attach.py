"""Items attached to other items: a bonus card slid behind a card.

An attached item leaves its zone and is held by its host (`state.attached`: host index ->
the indexes attached to it, in order), so it goes wherever the host goes and no zone
counts it: `size()` and `sum_prop()` see the host alone. Expressions read attachments with
`attached()`, `count_bare()`, `count_bare_where()` and `sum_prop_attached()`; the state
path `zones.ZONE.attached` counts them; `view_for` shows them, under `attached`, for the
hosts the viewer sees.
"""

from __future__ import annotations

from typing import Any

from .codegen import ZoneRef
from .decks import find_item, owner_of
from .effects import Param, effect
from .errors import EngineError
from .expr import Compiled, Ctx, ZoneName, declare_types, function
from .facing import sees_face
from .items import _matches, item_prop
from .model import Effect
from .picks import of_named_kind
from .registry import INLINE_HELPERS
from .state import Event, GameState


def attached_to(state: GameState, index: int) -> list[int]:
    """The items attached to an item (by index), in the order they were attached."""
    return state.attached.get(index, [])


def attached_in(state: GameState, zone: list[int]) -> int:
    """How many items are attached to the items of a zone."""
    held = state.attached
    return sum(len(held[i]) for i in zone if i in held)


def _host(state: GameState, zone: list[int], wanted: Any, name: str) -> int:
    """The item `wanted` names in a zone: for a kind, the first of that kind with nothing
    attached, else the first of that kind; else the item with that id. (A kind is read as
    a kind even where its first copy's id is the same word.)"""
    items = state.items
    if wanted in state.rules.items:
        for i in zone:
            if items[i].kind == wanted and i not in state.attached:
                return i
    return zone[find_item(state, zone, wanted, name)]


@effect("attach", "Attach an item to another: it leaves its zone and is held by the item it "
        "is attached to (`onto`, in zone `to`), going wherever that item goes; no zone "
        "counts it. `item` (an id or a kind) or else the first item of `from`.",
        "attach: {from: hand, item: $tool, to: built, onto: $card}",
        {"from": Param("zone", "where the item to attach is"),
         "item": Param("expr", "the item to attach: its id or a kind", required=False),
         "to": Param("zone", "where the item it is attached to lies"),
         "onto": Param("expr", "the item it is attached to: its id, or a kind (the first "
                               "item of that kind with nothing attached yet)")})
def _attach(p: dict[str, Any]) -> Effect:
    src: ZoneRef = p["from"]
    dst: ZoneRef = p["to"]
    item: Compiled | None = p.get("item")
    onto: Compiled = p["onto"]

    def run(c: Ctx) -> bool:
        st = c.state
        z, t = src.get(c), dst.get(c)
        if not z:
            raise EngineError(f"{src.name} holds nothing to attach")
        pos = 0 if item is None else find_item(st, z, item(c), src.name)
        index = z[pos]
        host = _host(st, t, onto(c), dst.name)
        if host == index:
            raise EngineError(f"{st.items[index].id} cannot be attached to itself")
        z.pop(pos)
        st.shuffled.discard(index)
        st.attached.setdefault(host, []).append(index)
        if c.events is not None:
            c.events.append(Event("attached", c.seat, {
                "from": src.name, "from_owner": owner_of(c, src), "zone": dst.name,
                "owner": owner_of(c, dst), "item": st.items[index].id,
                "kind": st.items[index].kind, "onto": st.items[host].id,
                "onto_kind": st.items[host].kind}))
        return False

    return run


@function("attached", ("expr",), "How many items are attached to an item (its id; '' "
          "gives 0).", "attached($card)")
def _attached(item: Compiled) -> Compiled:
    def run(c: Ctx) -> int:
        wanted = item(c)
        if wanted == "":
            return 0
        index = c.state.item_ids.get(wanted)
        if index is None:
            raise EngineError(f"{wanted!r} is not an item (attached() needs an item's id)")
        return len(attached_to(c.state, index))

    return run


@function("count_bare", ("zone", "expr"), "Items in a zone of the kind an expression names "
          "(an item's id stands for its kind) that have nothing attached.",
          "count_bare(built, $card)")
def _count_bare(zone: ZoneName, item: Compiled) -> Compiled:
    get = zone.items()

    def run(c: Ctx) -> int:
        held = c.state.attached
        return sum(1 for i in of_named_kind(c, get(c), item(c)) if i not in held)

    return run


def bare_where(state: GameState, items: list[int], name: str, wanted: Any) -> int:
    """`count_bare_where`: the items with nothing attached whose property `name` equals
    `wanted` (a list property: holds it)."""
    held = state.attached
    return sum(1 for i in items if i not in held and _matches(item_prop(state, i, name), wanted))


INLINE_HELPERS["_bare_where"] = bare_where


@function("count_bare_where", ("zone", "prop", "expr"), "Items in a zone with nothing "
          "attached whose property equals a value (a list property: holds it).",
          "count_bare_where(built, suit, 'red')",
          inline=lambda zone, name, value: f"_bare_where(st, {zone.source()}, {name!r}, {value})")
def _count_bare_where(zone: ZoneName, name: str, value: Compiled) -> Compiled:
    get = zone.items()
    return lambda c: bare_where(c.state, get(c), name, value(c))


@function("sum_prop_attached", ("zone", "prop"), "The sum of a number property over the "
          "items in a zone that have something attached (to count an attached card twice, "
          "add it to `sum_prop`).", "sum_prop_attached(built, points)")
def _sum_prop_attached(zone: ZoneName, name: str) -> Compiled:
    get = zone.items()

    def run(c: Ctx) -> Any:
        held = c.state.attached
        return sum(v for i in get(c) if i in held
                   for v in (item_prop(c.state, i, name),) if v is not None)

    return run


declare_types("attached", "number")
declare_types("count_bare", "number")
declare_types("count_bare_where", "number")
declare_types("sum_prop_attached", "number")


# --- what the table sees ---------------------------------------------------------------

def attached_view(state: GameState, seat: int | None, everything: bool = False
                  ) -> dict[str, list[tuple[Any, Any, Any]]]:
    """The attachments a viewer sees, by the id of the item they are attached to: (id,
    kind, face) each, as zones show items; (None, None, None) for one lying face down. Only
    hosts the viewer sees (in a zone it may look into, face up) are listed."""
    if not state.attached:
        return {}
    rules = state.rules
    out: dict[str, list[tuple[Any, Any, Any]]] = {}
    for zname, lists in state.zones.items():
        zdef = rules.zones[zname]
        for owner, content in enumerate(lists):
            if not (everything or zdef.visible == "all" or (
                    zdef.visible == "owner" and zdef.per_player and owner == seat)):
                continue
            for host in content:
                held = state.attached.get(host)
                if not held or not (everything or sees_face(state, host, zname, owner, seat)):
                    continue
                out[state.items[host].id] = [
                    (state.items[i].id, state.items[i].kind, state.items[i].face)
                    if everything or i not in state.face_down else (None, None, None)
                    for i in held]
    return out
