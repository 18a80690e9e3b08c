"""Stacks of cards whose top card shows: choosing among the tops of several stacks.

A zone lists its items top first. Its top item *shows* when it lies face up and its place
is known (not a card of a shuffled deck): `top_kind(ZONE)` and the state path `zones.ZONE.top`
read the kind showing ('' when none does), the `top_of` domain offers the kinds showing on
any of several zones, `move_top` takes the one chosen from the first zone showing it, and
`flip_top` turns the top items of zones face up (or down) at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .codegen import ZoneRef
from .decks import fix_position, owner_of
from .domains import DOMAINS, DomainSpec, kinds_passing
from .effects import Param, effect
from .errors import EngineError
from .expr import Compiled, Ctx, ZoneName, declare_types, function
from .facing import FACINGS
from .model import Effect
from .state import Event, GameState


def showing_top(state: GameState, zone: list[int]) -> int | None:
    """The index of a zone's top item when it shows (face up, place known), else None."""
    if not zone:
        return None
    top = zone[0]
    if top in state.face_down or top in state.shuffled:
        return None
    return top


def top_kind(state: GameState, zone: list[int]) -> str:
    """The kind of a zone's top item when it shows; '' when the zone is empty or it does not."""
    top = showing_top(state, zone)
    return "" if top is None else state.items[top].kind


@function("top_kind", ("zone",), "The kind of the item on top of a zone (its first) when it "
          "shows: face up, and not a card of a shuffled deck; '' when the zone is empty or "
          "its top does not show.", "top_kind(stack_1)")
def _top_kind(zone: ZoneName) -> Compiled:
    get = zone.items()
    return lambda c: top_kind(c.state, get(c))


declare_types("top_kind", "text")


# --- the top_of domain ----------------------------------------------------------------

@dataclass(frozen=True)
class TopOf:
    """The `top_of` domain: the kinds showing on top of several zones."""

    zones: tuple[str, ...]
    where: Compiled | None

    def showing(self, state: GameState, seat: int) -> list[int]:
        """The items showing on top of the zones (the seat's own copies), in zone order."""
        tops = [showing_top(state, state.zone(z, seat)) for z in self.zones]
        return [i for i in tops if i is not None]

    def values(self, c: Ctx) -> list[Any]:
        """The kinds showing on top of the zones (the acting player's own copies), in zone
        order, each once; with `where`, only those for which it holds."""
        return kinds_passing(c, self.showing(c.state, c.seat), self.where)


def showing_tops(state: GameState, seat: int, arg: Any) -> list[tuple[str, str]] | None:
    """For a front end: the (id, kind) of each item showing on top of a `top_of`
    argument's zones (the seat's own copies), in zone order; None for another argument."""
    tops = getattr(arg.values, "__self__", None)
    if not isinstance(tops, TopOf):
        return None
    items = state.items
    return [(items[i].id, items[i].kind) for i in tops.showing(state, seat)]


TOP_DOC = ("The kind of the item on top of any of several zones (stacks, the acting "
           "player's own for per-player zones), when it shows: face up and not in a shuffled "
           "deck. Each kind once: two stacks showing alike cards give one answer, and the "
           "effects take it from the first. With `where`, only kinds for which it holds "
           "(`$kind` is the kind tested).")
DOMAINS["top_of"] = DomainSpec("top_of", TOP_DOC,
                               "card: {domain: top_of, zones: [stack_1, stack_2]}",
                               ("zones", "where"), False, lambda *a: (lambda c: []))


# --- effects --------------------------------------------------------------------------

@effect("move_top", "Move the item on top of the first of several zones whose top shows "
        "the kind (or id) given, such as a `top_of` argument, to another zone.",
        "move_top: {from: [stack_1, stack_2], item: $card, to: built}",
        {"from": Param("zones", "the zones (stacks) to take from, in order"),
         "item": Param("expr", "the kind (or id) of the top item to take"),
         "to": Param("zone", "where it goes")})
def _move_top(p: dict[str, Any]) -> Effect:
    sources: list[ZoneRef] = p["from"]
    dst: ZoneRef = p["to"]
    item: Compiled = p["item"]

    def run(c: Ctx) -> bool:
        st = c.state
        wanted = item(c)
        for src in sources:
            z = src.get(c)
            top = showing_top(st, z)
            if top is None or wanted not in (st.items[top].kind, st.items[top].id):
                continue
            t = dst.get(c)
            if z is t:
                return False
            z.pop(0)
            t.append(top)
            if c.events is not None:
                c.events.append(Event("moved", c.seat, {
                    "from": src.name, "to": dst.name, "from_owner": owner_of(c, src),
                    "to_owner": owner_of(c, dst), "items": [st.items[top].id],
                    "kinds": [st.items[top].kind]}))
            return False
        raise EngineError(f"no top of {', '.join(s.name for s in sources)} shows {wanted!r}")

    return run


@effect("flip_top", "Turn the item on top of each of several zones face up (or down, or "
        "over): the next card of each stack shows. An empty zone is skipped; the top of a "
        "shuffled deck is settled first, a chance event like a draw.",
        "flip_top: {zones: [stack_1, stack_2], to: up}",
        {"zones": Param("zones", "the zones (stacks)"),
         "to": Param("facing", "up, down or over (default: up)", required=False,
                     default="up")})
def _flip_top(p: dict[str, Any]) -> Effect:
    zones: list[ZoneRef] = p["zones"]
    to: str = p["to"]
    if to not in FACINGS:
        raise EngineError(f"flip_top to {to!r}")  # the loader checks it first

    def run(c: Ctx) -> bool:
        st = c.state
        for ref in zones:
            z = ref.get(c)
            if not z:
                continue
            # The top of a shuffled deck is settled first, as a draw would.
            fix_position(st, z, 0, f"turning up the top of {ref.name}")
            top = z[0]
            down = top not in st.face_down if to == "over" else to == "down"
            if down == (top in st.face_down):
                continue
            if down:
                st.face_down.add(top)
            else:
                st.face_down.discard(top)
            if c.events is not None:
                c.events.append(Event("flipped", c.seat, {
                    "zone": ref.name, "owner": owner_of(c, ref),
                    "face_up": [] if down else [st.items[top].id],
                    "face_down": 1 if down else 0}))
        return False

    return run
