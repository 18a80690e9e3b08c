"""Expression functions that pick out one item in a zone, or count a kind named by value.

`first_in(ZONE)` and `first_where(ZONE, PROP, VALUE)` give an item's id ('' when there is
none), so effects can go through the items of a zone one at a time (with `repeat`), such as
placing every card drawn that has only one place to go. `count_kind(ZONE, ITEM)` counts
the items of the kind an expression names (the kind of an item id, or a kind).
"""

from __future__ import annotations

from typing import Any

from .errors import EngineError
from .expr import Compiled, Ctx, ZoneName, function
from .items import _matches, kind_of, prop_of


def _known(c: Ctx, index: int, zone: str) -> int:
    # A card of a shuffled deck whose place is not settled yet has no identity to read.
    if index in c.state.shuffled:
        raise EngineError(f"the first card of {zone!r} is not known yet (the deck is "
                          "shuffled); draw or look at it first")
    return index


@function("first_in", ("zone",), "The id of the first item in a zone ('' when it is empty).",
          "first_in(drawn)")
def _first_in(zone: ZoneName) -> Compiled:
    get = zone.items()
    name = zone.name

    def run(c: Ctx) -> str:
        items = get(c)
        return c.state.items[_known(c, items[0], name)].id if items else ""

    return run


@function("first_where", ("zone", "prop", "expr"), "The id of the first item in a zone whose "
          "property equals a value (a list property: holds it); '' when there is none.",
          "first_where(drawn, span, 1)")
def _first_where(zone: ZoneName, prop: str, value: Compiled) -> Compiled:
    get = zone.items()
    name = zone.name

    def run(c: Ctx) -> str:
        wanted = value(c)
        for i in get(c):
            item = c.state.items[_known(c, i, name)]
            if _matches(prop_of(c.state, item.id, prop), wanted):
                return item.id
        return ""

    return run


@function("count_kind", ("zone", "expr"), "Items in a zone of the kind an expression names "
          "(an item's id stands for its kind).", "count_kind(gadgets, $card)")
def _count_kind(zone: ZoneName, item: Compiled) -> Compiled:
    get = zone.items()
    return lambda c: len(of_named_kind(c, get(c), item(c)))


def of_named_kind(c: Ctx, indexes: list[int], wanted: Any) -> list[int]:
    """The items at `indexes` of the kind `wanted` names (an item's id stands for its
    kind; '' names none)."""
    if wanted == "":
        return []
    kind = kind_of(c.state, wanted)
    items = c.state.items
    return [i for i in indexes if items[i].kind == kind]
