"""Sets outlined on a player's board once their cards lie open: the layout's `sets:` on a
grid names cards (a Rancher Bonus, turned up at the end) whose list property is a set of
values, and the items on the board making up each complete set (as the engine's `sets()`
counts them, each item once) are ringed in a colour of their own, with the set's number
where the space has room."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from ..engine import set_members
from ..render import theme
from .board_spaces import SPACE, Target

if TYPE_CHECKING:
    from ..ruleset.layout import BoardSets
    from .widgets import Look, ZonePart

# A set's ring: bright, far from one another and from the tiles' own bands.
COLOURS = ((255, 214, 10), (40, 220, 255), (255, 90, 210), (150, 255, 60), (255, 140, 20),
           (250, 250, 250))
BADGE = 40  # a space at least this wide shows its set's number too


def sets_of(part: ZonePart, board: str) -> BoardSets | None:
    """The layout's `sets:` for a board, if it has one."""
    return next((w.sets for w in part.host.layout.widgets
                 if w.board == board and w.sets is not None), None)


def set_spaces(part: ZonePart, look: Look, seat: int | None, board: str,
               spaces: list[str]) -> list[list[str]]:
    """The spaces of each complete set on `seat`'s board, card by card (none while the
    cards are secret)."""
    sets = sets_of(part, board)
    rules = part.rules
    if sets is None or not revealed(look, sets.zone, seat):
        return []
    cards = look.zone(sets.zone, seat)
    assert isinstance(cards, list)
    where: list[str] = []
    values: list[Any] = []
    for space in spaces:
        zone = f"{board}{SPACE}{space}"
        content = look.zone(zone, seat) if zone in rules.zones else []
        for entry in content if isinstance(content, list) else ():
            idef = rules.items.get(entry[1]) if entry[1] is not None else None
            if idef is not None:
                where.append(space)
                values.append(hashable(idef.props.get(sets.by)))
    out: list[list[str]] = []
    for card in cards:
        idef = rules.items.get(card[1]) if card[1] is not None else None
        wanted = idef.props.get(sets.set) if idef is not None else None
        if isinstance(wanted, (list, tuple)) and wanted:
            out += [[where[n] for n in group]
                    for group in set_members(values, [hashable(v) for v in wanted])]
    return out


def revealed(look: Look, zone: str, seat: int | None) -> bool:
    """Whether the cards in a player's zone lie open to all (a secret card turned up at
    the end): another's the viewer sees; the viewer's own, once every player's shows."""
    def seen(owner: int | None) -> bool:
        content = look.zone(zone, owner)
        return isinstance(content, list) and all(entry[1] is not None for entry in content)

    if seat is not None and seat != look.viewer:
        return seen(seat)
    return all(seen(owner) for owner in range(len(look.names)))


def hashable(value: Any) -> Any:
    """A property's value as a set may hold it (a list as a tuple)."""
    return tuple(value) if isinstance(value, list) else value


def draw_sets(part: ZonePart, canvas: pygame.Surface, boxes: dict[str, pygame.Rect],
              look: Look, seat: int | None, board: str) -> None:
    """Ring the spaces of each complete set, a colour a set (and its number on a roomy
    space), so two sets of the same card are told apart."""
    rings: dict[str, int] = {}  # a space in two sets (two cards) has its rings nested
    for n, spaces in enumerate(set_spaces(part, look, seat, board, list(boxes))):
        colour = COLOURS[n % len(COLOURS)]
        for space in spaces:
            inset = 3 * rings.get(space, 0)
            rings[space] = rings.get(space, 0) + 1
            box = boxes[space].inflate(-2 * inset, -2 * inset)
            pygame.draw.rect(canvas, theme.INK, box, width=5, border_radius=6)
            pygame.draw.rect(canvas, colour, box.inflate(-2, -2), width=3, border_radius=6)
            part.ringed.append((box, Target("space", f"{board}{SPACE}{space}", seat), n + 1))
            if box.w >= BADGE and not inset:
                badge(canvas, (box.x + 11, box.y + 11), str(n + 1), colour)


def badge(canvas: pygame.Surface, centre: tuple[int, int], number: str,
          colour: tuple[int, int, int]) -> None:
    """A set's number in a disc of its colour."""
    pygame.draw.circle(canvas, theme.INK, centre, 10)
    pygame.draw.circle(canvas, colour, centre, 9)
    theme.text(canvas, number, centre, theme.TINY, theme.ink_on(colour), bold=True,
               anchor="center", tight=True)
