"""Spending and turning dice: pay (a cost in faces or kinds, in one step) and set_face."""

from __future__ import annotations

from typing import Any

from .codegen import ZoneRef
from .decks import find_item, owner_of
from .effects import Param, effect
from .errors import EngineError
from .expr import Compiled, Ctx
from .model import Effect
from .multisets import as_cost, pay_from
from .state import Event


@effect("pay", "Move the items of a zone that pay a cost to another zone, in one step: a "
        "list of faces or kinds (a list property, a `faces_of` argument), one item per "
        "entry, showing that face or else of that kind; `count` times over.",
        "pay: {from: tray, cost: \"prop($card, cost)\", to: spent}",
        {"from": Param("zone", "where the items are"),
         "cost": Param("expr", "the cost: a list of faces or kinds (or one of them)"),
         "to": Param("zone", "where the items that pay go"),
         "count": Param("expr", "how many times the cost is paid (default 1)", required=False,
                        default=1, vtype="number")})
def _pay(p: dict[str, Any]) -> Effect:
    src: ZoneRef = p["from"]
    dst: ZoneRef = p["to"]
    cost: Compiled = p["cost"]
    count: Compiled = p["count"]

    def run(c: Ctx) -> bool:
        st = c.state
        z, t = src.get(c), dst.get(c)
        wanted = as_cost(cost(c)) * max(0, int(count(c)))
        paid = pay_from(st, z, wanted)
        if paid is None:
            raise EngineError(f"{src.name} cannot pay {wanted}: test it first with "
                              f"can_pay({src.name}, ...)")
        if not paid or z is t:
            return False
        gone = set(paid)
        z[:] = [i for i in z if i not in gone]
        t.extend(paid)
        if st.rules.zones[dst.name].blind:
            for i in paid:
                st.items[i].face = None
        if c.events is not None:
            c.events.append(Event("moved", c.seat, {
                "from": src.name, "to": dst.name, "from_owner": owner_of(c, src),
                "to_owner": owner_of(c, dst), "items": [st.items[i].id for i in paid],
                "kinds": [st.items[i].kind for i in paid]}))
        return False

    return run


@effect("set_face", "Turn dice to show a given face without rolling them (a negated "
        "dinosaur turns blank): the die `item`, or up to `count` dice showing `showing`, or "
        "else every die in the zone. No chance is involved.",
        "set_face: {zone: hand, to: leaves, showing: dino, count: 1}",
        {"zone": Param("zone", "where the dice are"),
         "to": Param("face", "the face they turn to (every such die must have it)"),
         "showing": Param("face", "only dice showing this face", required=False),
         "count": Param("expr", "at most this many (default: all)", required=False,
                        vtype="number"),
         "item": Param("expr", "only this die: its id, or a list of ids", required=False)})
def _set_face(p: dict[str, Any]) -> Effect:
    zone: ZoneRef = p["zone"]
    to: Any = p["to"]
    showing: Any = p.get("showing")
    count: Compiled | None = p.get("count")
    item: Compiled | None = p.get("item")

    def run(c: Ctx) -> bool:
        st = c.state
        z = zone.get(c)
        if item is not None:
            wanted = item(c)
            chosen = [z[find_item(st, z, one, zone.name)]
                      for one in (wanted if isinstance(wanted, tuple | list) else (wanted,))]
        else:
            chosen = [i for i in z if showing is None or st.items[i].face == showing]
        if count is not None:
            chosen = chosen[:max(0, int(count(c)))]
        dice = st.rules.dice
        for i in chosen:
            it = st.items[i]
            die = dice.get(it.kind)
            if die is None or to not in die.faces:
                raise EngineError(f"{it.id} has no face {to!r} to turn to")
            it.face = to
        if c.events is not None and chosen:
            c.events.append(Event("faces_set", c.seat, {
                "zone": zone.name, "owner": owner_of(c, zone),
                "dice": [(st.items[i].id, st.items[i].kind, to) for i in chosen]}))
        return False

    return run
