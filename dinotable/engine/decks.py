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


class Shuffled(set[int]):
    """The items lying in unknown order, remembering the unknown run it last measured in
    each deck: a deck's next draw then costs O(1), not a scan of every card below the top.

    Any change to the set forgets every run (the runs are only ever read while the set is
    as it was); the decks' own draws hand the shortened run on (`_remember`).
    """

    __slots__ = ("runs",)

    def __init__(self, items: Any = ()) -> None:
        super().__init__(items)
        self.runs: dict[int, tuple[list[int], int, int, int]] = {}

    def __reduce__(self) -> Any:
        return (Shuffled, (list(self),))

    def add(self, item: int) -> None:
        self.runs.clear()
        super().add(item)

    def discard(self, item: object) -> None:
        self.runs.clear()
        super().discard(item)

    def remove(self, item: int) -> None:
        self.runs.clear()
        super().remove(item)

    def pop(self) -> int:
        self.runs.clear()
        return super().pop()

    def clear(self) -> None:
        self.runs.clear()
        super().clear()

    def update(self, *others: Any) -> None:
        self.runs.clear()
        super().update(*others)

    def difference_update(self, *others: Any) -> None:
        self.runs.clear()
        super().difference_update(*others)

    def intersection_update(self, *others: Any) -> None:
        self.runs.clear()
        super().intersection_update(*others)

    def symmetric_difference_update(self, other: Any) -> None:
        self.runs.clear()
        super().symmetric_difference_update(other)

    def __ior__(self, other: Any) -> Shuffled:  # type: ignore[override,misc]
        self.update(other)
        return self

    def __isub__(self, other: Any) -> Shuffled:  # type: ignore[misc]
        self.difference_update(other)
        return self

    def __iand__(self, other: Any) -> Shuffled:  # type: ignore[misc]
        self.intersection_update(other)
        return self

    def __ixor__(self, other: Any) -> Shuffled:  # type: ignore[override,misc]
        self.symmetric_difference_update(other)
        return self


def unknown_run(state: GameState, zone: list[int], start: int = 0) -> int:
    """How many items from `start` on lie in unknown order, one after another."""
    shuffled = state.shuffled
    if type(shuffled) is set:  # rebuilt from a snapshot (GameState.from_dict): remember again
        shuffled = state.shuffled = Shuffled(shuffled)
    size = len(zone)
    if isinstance(shuffled, Shuffled):
        known = shuffled.runs.get(id(zone))
        if known is not None and known[0] is zone and known[1] == size and known[2] == start:
            run = known[3]
            # The ends of the run still look as measured (a cheap guard against a list
            # rearranged in place while the set stayed as it was).
            end = start + run
            if (run == 0 or zone[end - 1] in shuffled) and (end == size
                                                            or zone[end] not in shuffled):
                return run
    end = start
    while end < size and zone[end] in shuffled:
        end += 1
    _remember(state, zone, start, end - start)
    return end - start


def _remember(state: GameState, zone: list[int], start: int, run: int) -> None:
    shuffled = state.shuffled
    if isinstance(shuffled, Shuffled):
        if len(shuffled.runs) > 64:  # decks come and go with undo: keep only a few
            shuffled.runs.clear()
        shuffled.runs[id(zone)] = (zone, len(zone), start, run)


def _pick(state: GameState, zone: list[int], pos: int, run: int, event: str) -> int:
    """Which of the `run` cards in unknown order from `pos` on lies first: a chance event
    (forcible by id or kind), or none for one card."""
    if run < 2:  # one unknown card left is no chance at all
        return 0
    chance = state.chance
    if chance.forced and not isinstance(chance.forced[0], list):
        items = state.items
        return chance.pick_index(event, [(items[i].id, items[i].kind)
                                         for i in zone[pos:pos + run]])
    return chance.randbelow(run)


def fix_position(state: GameState, zone: list[int], pos: int, event: str) -> None:
    """Settle which item lies at `pos` (a chance event when its place was unknown)."""
    run = unknown_run(state, zone, pos)
    if run == 0:
        return
    pick = _pick(state, zone, pos, run, event)
    if pick:
        zone.insert(pos, zone.pop(pos + pick))
    state.shuffled.discard(zone[pos])
    # The rest of the run is still unknown: the next place down starts a run one shorter.
    _remember(state, zone, pos + 1, run - 1)


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
    run = unknown_run(state, zone, 0)
    if not run:
        return zone.pop(0)  # a top whose place is known: no chance in it
    # `fix_position` at the top, then the top taken, in one step: the card the chance
    # picks leaves the run, and the rest keep their order.
    top = zone.pop(_pick(state, zone, 0, run, f"drawing from {name}"))
    state.shuffled.discard(top)
    _remember(state, zone, 0, run - 1)  # the next draw finds its run without a scan
    return top


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
    index = state.item_ids.get(wanted)
    if index is not None and items[index].id == wanted:
        # Ids are one an item: where that one item lies, if it lies here.
        if index in zone:
            return zone.index(index)
    elif isinstance(wanted, str) and wanted.startswith("hidden"):
        # Every id is in `item_ids` but a blank item's in a seen state (views.py).
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
