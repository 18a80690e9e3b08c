"""Items lying face down: in a zone everyone may see, a face-down card shows only its back.

Facing belongs to the item, as with a real card: it keeps lying as it lies when moved,
until it is flipped. Items placed at setup in a zone with `face: down` start face down. A
face-down item is seen by the owner of the per-player zone it lies in, and by nobody else.
"""

from __future__ import annotations

from typing import Any

from .codegen import ZoneRef
from .decks import find_item, owner_of
from .effects import Param, effect
from .errors import EngineError
from .expr import Compiled, Ctx
from .model import Effect
from .state import Event, GameState

FACINGS = ("up", "down", "over")


def sees_face(state: GameState, index: int, zone: str, owner: int, viewer: int | None) -> bool:
    """Whether `viewer` sees the face of an item lying in a zone they can see."""
    if index not in state.face_down:
        return True
    return state.rules.zones[zone].per_player and viewer is not None and owner == viewer


def lay_start_items(state: GameState) -> None:
    """Items set up in a zone with `face: down` start face down."""
    for zname, lists in state.zones.items():
        if state.rules.zones[zname].face == "down":
            for content in lists:
                state.face_down.update(content)


@effect("flip", "Turn items in a zone face up or face down (`to: over` turns each over): "
        "`item` (an id or a kind) or else every item there. A face-down item shows only its "
        "back, except to the owner of the player's zone it lies in.",
        "flip: {zone: display, to: up}",
        {"zone": Param("zone", "where the items lie"),
         "to": Param("facing", "up, down or over (default: over)", required=False,
                     default="over"),
         "item": Param("expr", "only this item: its id or a kind", required=False)})
def _flip(p: dict[str, Any]) -> Effect:
    zone: ZoneRef = p["zone"]
    to: str = p["to"]
    item: Compiled | None = p.get("item")
    if to not in FACINGS:
        raise EngineError(f"flip to {to!r}")  # the loader checks it first

    def run(c: Ctx) -> bool:
        st = c.state
        content = zone.get(c)
        chosen = content if item is None else [content[find_item(st, content, item(c),
                                                                  zone.name)]]
        turned_up: list[str] = []
        turned_down = 0
        for i in chosen:
            down = i not in st.face_down if to == "over" else to == "down"
            if down and i not in st.face_down:
                st.face_down.add(i)
                turned_down += 1
            elif not down and i in st.face_down:
                st.face_down.discard(i)
                turned_up.append(st.items[i].id)
        if c.events is not None and (turned_up or turned_down):
            c.events.append(Event("flipped", c.seat, {
                "zone": zone.name, "owner": owner_of(c, zone), "face_up": turned_up,
                "face_down": turned_down}))
        return False

    return run
