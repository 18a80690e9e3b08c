"""Zone effects: draw, move_all, move (from a deck: the top card, see decks.py)."""

from __future__ import annotations

from typing import Any

from .codegen import Piece, ZoneRef, call_piece, generate
from .decks import find_item, owner_of, settle_all, take_top
from .effects import Param, effect
from .expr import (
    Compiled,
    Ctx,
    source_of,
)
from .model import Effect
from .state import Event


def _emit_draw(p: dict[str, Any]) -> Piece:
    src, dst = p["from"], p["to"]
    if src.deck:  # from the top, lazily shuffled: see decks.py
        return call_piece(_deck_draw(p))
    ns: dict[str, Any] = {"_Event": Event}
    event = (f"'from': {src.name!r}, 'to': {dst.name!r}, 'from_owner': "
             f"{src.owner_source(ns)}, 'to_owner': {dst.owner_source(ns)}, 'items': "
             "[_items[_i].id for _i in _drawn], 'kinds': [_items[_i].kind for _i in _drawn]")
    return Piece([
        f"_z = {src.source(ns)}",
        f"_n = min(int({source_of(p['count'], ns)}), len(_z))",
        "if _n > 0:",
        "    _ch = st.chance",
        f"    _t = {dst.source(ns)}",
        "    if c.events is None and not _ch.forced and _t is not _z:",
        "        _r = _ch.random",  # nobody watching: straight from one zone into the other
        "        for _k in range(_n):",
        "            _t.append(_z.pop(int(_r() * len(_z))))",
        "    else:",
        "        _items = st.items",
        "        _drawn = []",
        "        for _k in range(_n):",
        f"            _drawn.append(_z.pop(_ch.pick_index('drawing from {src.name}', "
        "[(_items[_i].id, _items[_i].kind) for _i in _z]) if _ch.forced else "
        "int(_ch.random() * len(_z))))",
        "        _t.extend(_drawn)",
        "        if c.events is not None:",
        f"            c.events.append(_Event('drew', c.seat, {{{event}}}))",
    ], ns)


@effect("draw", "Draw items at random from a zone into another (as many as there are, "
        "up to `count`). Each draw is a chance event whose outcome is the item's id or kind.",
        "draw: {from: cup, to: hand, count: \"3 - size(hand)\"}",
        {"from": Param("zone", "the zone drawn from"), "to": Param("zone", "where items go"),
         "count": Param("expr", "how many to draw", required=False, default=1,
                        vtype="number")}, emit=_emit_draw)
def _draw(p: dict[str, Any]) -> Effect:
    return generate([_emit_draw(p)])


def _emit_move_all(p: dict[str, Any]) -> Piece:
    sources: list[ZoneRef] = p["from"]
    dst: ZoneRef = p["to"]
    if any(z.deck for z in sources) and not dst.deck:  # cards settled as they leave
        return call_piece(_deck_move_all(p))
    ns: dict[str, Any] = {"_Event": Event}
    lines = [f"_t = {dst.source(ns)}", "_items = st.items"]
    # Dice landing in a cup show no face: known when the rules load, so only then written.
    blank = ["    for _i in _z:", "        _items[_i].face = None"] if dst.blind else []
    for z in sources:  # written out zone by zone: this runs at the end of every turn
        lines += [
            f"_z = {z.source(ns)}",
            "if _z and _z is not _t:",
            "    _t.extend(_z)",
            *blank,
            "    if c.events is not None:",
            f"        c.events.append(_Event('moved', c.seat, {{'from': {z.name!r}, "
            f"'to': {dst.name!r}, 'from_owner': {z.owner_source(ns)}, "
            f"'to_owner': {dst.owner_source(ns)}, 'items': [_items[_i].id for _i in _z]}}))",
            "    _z.clear()",
        ]
    return Piece(lines, ns)


@effect("move_all", "Move every item from one or more zones into a zone, in order.",
        "move_all: {from: [hand, caught, stomped], to: cup}",
        {"from": Param("zones", "a zone or a list of zones"), "to": Param("zone", "the target")},
        emit=_emit_move_all)
def _move_all(p: dict[str, Any]) -> Effect:
    return generate([_emit_move_all(p)])


def _emit_move(p: dict[str, Any]) -> Piece | None:
    src, dst = p["from"], p["to"]
    if p.get("item") is not None or src.deck:
        return None  # one named item, or a deck's top: see _move_picked
    ns: dict[str, Any] = {"_Event": Event}
    return Piece([
        f"_z = {src.source(ns)}",
        f"_t = {dst.source(ns)}",
        "_items = st.items",
        f"_n = max(0, min(int({source_of(p['count'], ns)}), len(_z)))",
        "if _n and _z is not _t:",
        "    _mv = _z[:_n]",
        "    del _z[:_n]",
        "    _t.extend(_mv)",
        f"    if st.rules.zones[{dst.name!r}].blind:",
        "        for _i in _mv:",
        "            _items[_i].face = None",
        "    if c.events is not None:",
        f"        c.events.append(_Event('moved', c.seat, {{'from': {src.name!r}, "
        f"'to': {dst.name!r}, 'from_owner': {src.owner_source(ns)}, "
        f"'to_owner': {dst.owner_source(ns)}, 'items': [_items[_i].id for _i in _mv]}}))",
    ], ns)


@effect("move", "Move up to `count` items from the front of one zone to the end of another, "
        "e.g. one dinosaur die taken from another player's row.",
        "move: {from: {name: kept, owner: \"$from\"}, to: kept, count: 1}",
        {"from": Param("zone", "where the items are"), "to": Param("zone", "where they go"),
         "count": Param("expr", "how many (as many as there are, at most)", required=False,
                        default=1, vtype="number"),
         "item": Param("expr", "one particular item to move: its id, or a kind (any one item "
                               "of that kind), or a list of them (such as a subset argument)",
                       required=False)}, emit=_emit_move)
def _move(p: dict[str, Any]) -> Effect:
    piece = _emit_move(p)
    return _move_picked(p) if piece is None else generate([piece])



# --- decks and single items (see decks.py) ------------------------------------------


def moved_event(c: Ctx, src: ZoneRef, dst: ZoneRef, moved: list[int], kind: str = "moved"
                 ) -> None:
    if c.events is not None and moved:
        items = c.state.items
        c.events.append(Event(kind, c.seat, {
            "from": src.name, "to": dst.name, "from_owner": owner_of(c, src),
            "to_owner": owner_of(c, dst), "items": [items[i].id for i in moved],
            "kinds": [items[i].kind for i in moved]}))


def _deck_draw(p: dict[str, Any]) -> Effect:
    """`draw` from a deck: the top card each time, a chance event while its place is unknown."""
    src: ZoneRef = p["from"]
    dst: ZoneRef = p["to"]
    count: Compiled = p["count"]

    def run(c: Ctx) -> bool:
        st = c.state
        z, t = src.get(c), dst.get(c)
        drawn: list[int] = []
        for _ in range(int(count(c))):
            i = take_top(st, z, src.name)
            if i is None:
                break
            drawn.append(i)
        t.extend(drawn)
        moved_event(c, src, dst, drawn, "drew")
        return False

    return run


def _deck_move_all(p: dict[str, Any]) -> Effect:
    """`move_all` out of a deck: each card's place is settled, top first, as it leaves."""
    sources: list[ZoneRef] = p["from"]
    dst: ZoneRef = p["to"]

    def run(c: Ctx) -> bool:
        st = c.state
        t = dst.get(c)
        for src in sources:
            z = src.get(c)
            if not z or z is t:
                continue
            if src.deck:
                settle_all(st, z, src.name)
            moved = list(z)
            z.clear()
            t.extend(moved)
            _landed(c, src, dst, moved)
        return False

    return run


def _move_picked(p: dict[str, Any]) -> Effect:
    """`move` of one named item, or of the top of a deck."""
    src: ZoneRef = p["from"]
    dst: ZoneRef = p["to"]
    count: Compiled = p["count"]
    item: Compiled | None = p.get("item")

    def run(c: Ctx) -> bool:
        st = c.state
        z, t = src.get(c), dst.get(c)
        if z is t:
            return False
        moved: list[int] = []
        if item is not None:
            wanted = item(c)
            # A list (a subset argument) moves every item named in it, in its order.
            for one in wanted if isinstance(wanted, tuple | list) else (wanted,):
                moved.append(z.pop(find_item(st, z, one, src.name)))
                st.shuffled.discard(moved[-1])
        else:
            for _ in range(max(0, int(count(c)))):
                i = take_top(st, z, src.name)
                if i is None:
                    break
                moved.append(i)
        t.extend(moved)
        _landed(c, src, dst, moved)
        return False

    return run


def _landed(c: Ctx, src: ZoneRef, dst: ZoneRef, moved: list[int]) -> None:
    """Items moved into `dst`: in a blind zone (a cup) they show no face; the move is told."""
    st = c.state
    if st.rules.zones[dst.name].blind:
        for i in moved:
            st.items[i].face = None
    moved_event(c, src, dst, moved)
