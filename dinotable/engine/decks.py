"""Decks: ordered zones drawn from the top, shuffled lazily.

A deck zone's list is top first. Items in `state.shuffled` lie in unknown order: nobody
has fixed where they are. Drawing the top card when it is one of them is a chance event
among the unknown run at the top (forcible by item id or kind), so a shuffle costs nothing
and a scenario pins each draw as it comes. A card whose place is known (looked at, put on
the bottom, pinned by a forced shuffle) is taken without chance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ChanceError, EngineError

if TYPE_CHECKING:
    from .expr import Ctx
    from .state import GameState


def unknown_run(state: GameState, zone: list[int], start: int = 0) -> int:
    """How many items from `start` on lie in unknown order, one after another."""
    shuffled = state.shuffled
    end = start
    while end < len(zone) and zone[end] in shuffled:
        end += 1
    return end - start


def fix_position(state: GameState, zone: list[int], pos: int, event: str) -> None:
    """Settle which item lies at `pos` (a chance event when its place was unknown)."""
    run = unknown_run(state, zone, pos)
    if run == 0:
        return
    pick = 0
    if run > 1:  # one unknown card left is no chance at all
        chance = state.chance
        if chance.forced and not isinstance(chance.forced[0], list):
            items = state.items
            pick = chance.pick_index(event, [(items[i].id, items[i].kind)
                                             for i in zone[pos:pos + run]])
        else:
            pick = chance.randbelow(run)
    if pick:
        zone.insert(pos, zone.pop(pos + pick))
    state.shuffled.discard(zone[pos])


def settle_all(state: GameState, zone: list[int], name: str) -> None:
    """Settle every place of a deck, top first, as drawing them one by one would.

    For the whole deck leaving at once (`move_all`) to a zone that is not a deck: there
    the cards are looked at by id, so each must be known, and forced outcomes pin them.
    """
    for pos in range(len(zone)):
        fix_position(state, zone, pos, f"drawing from {name}")


def take_top(state: GameState, zone: list[int], name: str) -> int | None:
    """Take a deck's top item (None when the deck is empty)."""
    if not zone:
        return None
    fix_position(state, zone, 0, f"drawing from {name}")
    return zone.pop(0)


def shuffle(state: GameState, zone: list[int], name: str) -> None:
    """Put every item of a deck in unknown order.

    A forced outcome that is a list (`force: [[rex, jet_pack]]`) is the shuffle's own: those
    items (ids or kinds) end on top, first listed on top, in known order. A single forced
    outcome is left for the draws that follow.
    """
    state.shuffled.update(zone)
    chance = state.chance
    if not (chance.forced and isinstance(chance.forced[0], list)):
        return
    wanted: list[Any] = chance.forced.popleft()
    items = state.items
    top: list[int] = []
    for want in wanted:
        for i in zone:
            if i not in top and want in (items[i].id, items[i].kind):
                top.append(i)
                break
        else:
            raise ChanceError(f"forced outcome {want!r} is impossible for shuffling {name}: "
                              f"possible are {sorted({items[i].id for i in zone})}")
    zone[:] = top + [i for i in zone if i not in top]
    state.shuffled.difference_update(top)


def find_item(state: GameState, zone: list[int], wanted: Any, name: str) -> int:
    """The position in `zone` of the item with id `wanted`, else of one of kind `wanted`."""
    items = state.items
    for pos, i in enumerate(zone):
        if items[i].id == wanted:
            return pos
    for pos, i in enumerate(zone):
        if items[i].kind == wanted:
            return pos
    raise EngineError(f"{wanted!r} is not in {name}")


def owner_of(c: Ctx, ref: Any) -> int | None:
    """The seat owning a compiled zone reference (None for a shared zone), for events."""
    if ref.shared:
        return None
    return c.seat if ref.owner is None else int(ref.owner(c))
