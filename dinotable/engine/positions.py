"""Placing a position by hand: the items of some zones stated outright (scenario `setup`).

A rules test often starts from a position that many moves would reach: a deck of known
cards, a hand holding one particular card. `arrange` puts exactly the listed items in the
listed zones, taking each from wherever it is; a card may be listed more often than the
game has copies (more copies are made), but never a kind the ruleset does not have.
"""

from __future__ import annotations

from .state import GameState, Item

ZoneKey = tuple[str, int]
"""A zone's name and owner (0 for a shared zone)."""


class PlacementError(ValueError):
    """An item asked for cannot be placed; `zone`, `owner` and `index` say which entry."""

    def __init__(self, message: str, zone: str, owner: int, index: int) -> None:
        super().__init__(message)
        self.zone = zone
        self.owner = owner
        self.index = index


def keep_order(state: GameState, zone: str, owner: int) -> None:
    """Mark a zone set by hand as one whose order is known: a deck set so is drawn from its
    top without a chance event."""
    state.shuffled.difference_update(state.zone(zone, owner))


def arrange(state: GameState, wanted: dict[ZoneKey, list[str]]) -> None:
    """Give each listed zone exactly the listed items, top (front) first.

    Each entry is an item id or a kind. An item of a kind is taken, by preference, from
    the zone being set, then from another zone being set, then from items out of play,
    then from any other zone (which loses it). What a listed zone held and is not
    listed again is set aside, out of play. A card kind listed more often than the game
    has copies gets new copies (dice do not: they are the game's equipment). Every item
    placed lies as its zone says (`face: down` or up), as at the game's own setup, whatever
    it was or wherever it came from. Raises
    PlacementError when an id is unknown or listed twice, or no die of a kind is left.
    """
    targets = set(wanted)
    where: dict[int, ZoneKey] = {}
    for zname, lists in state.zones.items():
        for owner, content in enumerate(lists):
            for i in content:
                where[i] = (zname, owner)
    by_id = {it.id: i for i, it in enumerate(state.items)}
    claimed: set[int] = set()
    placed: dict[ZoneKey, list[int]] = {}
    for key, names in wanted.items():
        picked: list[int] = []
        for n, name in enumerate(names):
            index = _pick(state, name, key, targets, where, by_id, claimed, n)
            claimed.add(index)
            picked.append(index)
        placed[key] = picked
    for zname, lists in state.zones.items():
        for owner, content in enumerate(lists):
            if (zname, owner) in targets:
                content.clear()
            elif claimed:
                content[:] = [i for i in content if i not in claimed]
    for (zname, owner), picked in placed.items():
        state.zones[zname][owner].extend(picked)
        if state.rules.zones[zname].blind:  # as a move into a cup: no face until rolled
            for i in picked:
                state.items[i].face = None
        # A position stated is laid out as the game lays out its own start: a stack of
        # cards face down stays a stack of backs, a copy made for it included.
        if state.rules.zones[zname].face == "down":
            state.face_down.update(picked)
        else:
            state.face_down.difference_update(picked)
        keep_order(state, zname, owner)


def _pick(state: GameState, name: str, key: ZoneKey, targets: set[ZoneKey],
          where: dict[int, ZoneKey], by_id: dict[str, int], claimed: set[int], n: int) -> int:
    zone, owner = key
    is_kind = name in state.rules.items or name in state.rules.dice
    if name in by_id and not (is_kind and by_id[name] in claimed):
        index = by_id[name]
        if index in claimed:
            raise PlacementError(f"item {name!r} is listed twice", zone, owner, n)
        return index
    candidates = [i for i, it in enumerate(state.items) if it.kind == name and i not in claimed]
    if not candidates:
        if name in state.rules.items:
            # A card listed more often than the game has copies: one more copy is made (a
            # position may hold two of a card the deck has once), from the ruleset's own list.
            return _extra_copy(state, name, by_id)
        if is_kind:  # dice are the game's equipment: a position uses the ones it has
            total = sum(1 for it in state.items if it.kind == name)
            raise PlacementError(f"no {name!r} is left to place in {zone}: the game has "
                                 f"{total} and all are listed already", zone, owner, n)
        raise PlacementError(f"{state.rules.name} has no item or item kind {name!r}",
                             zone, owner, n)

    def preference(i: int) -> tuple[int, int]:
        at = where.get(i)
        rank = 0 if at == key else 1 if at in targets else 2 if at is None else 3
        return rank, i

    return min(candidates, key=preference)


def _extra_copy(state: GameState, kind: str, by_id: dict[str, int]) -> int:
    """A new item of `kind`, named as copies are (kind_2, kind_3, ...), for a position."""
    k = sum(1 for it in state.items if it.kind == kind) + 1
    while f"{kind}_{k}" in by_id:
        k += 1
    index = len(state.items)
    state.items.append(Item(f"{kind}_{k}", kind))
    state.item_ids[f"{kind}_{k}"] = index
    by_id[f"{kind}_{k}"] = index
    return index
