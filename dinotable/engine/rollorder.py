"""The order dice rolled together are rolled in, which is the order forced outcomes go to.

Dice being re-rolled (showing a face) come first, in the order they were last rolled, then
newly drawn dice (showing none yet: out of a cup or bag) in the order drawn. A zone keeps
its dice in the order they were rolled, so the order a zone lists its dice in is the order
they were last rolled; drawn dice join its end in the order drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import GameState


def roll_order(state: GameState, zone: list[int], rolled: list[int]) -> list[int]:
    """The dice of `rolled` (all in `zone`, in zone order) in the order they are rolled.

    When that is not zone order (a die that shows no face lies before one that does), the
    zone's rolled dice are laid in the new order, so the next roll finds them as rolled.
    """
    items = state.items
    fresh = [i for i in rolled if items[i].face is None]
    if not fresh or len(fresh) == len(rolled):
        return rolled
    order = [i for i in rolled if items[i].face is not None] + fresh
    if order == rolled:
        return rolled
    chosen = set(rolled)
    slots = [pos for pos, i in enumerate(zone) if i in chosen]
    for pos, i in zip(slots, order, strict=True):
        zone[pos] = i
    return order
