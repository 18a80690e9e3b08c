"""The one base of everything on the table.

A part is one thing on the table (the tray, the cup, an area, the players column, the
header, the log, a hand of cards, a pile, a track...). It says which region it goes in and
how tall it likes to be, says which of it the layout asks for (`build`), draws into the
rect the layout manager gives it, answers what a click on it means (a target for the
Chooser), where slot n of a zone it shows is (for the dice that fly between parts), and how
big a die is drawn there. A part that shows a zone or board of the ruleset names the
layout's `show:` it answers to (`kind`: hand, pile, row, players, grid, track, count). A
part sees the table only through `PartHost` (`host.py`); every kind registers in
`registry.py`, and the table scene knows nothing of any one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import pygame

from .choice import Target

if TYPE_CHECKING:
    from .host import PartHost
    from .widgets import Look

Point = tuple[float, float]


class Part:
    """One registered thing on the table (see the module's docstring)."""

    name: ClassVar[str] = ""
    kind: ClassVar[str] = ""  # the layout's `show:` it answers to ("": one of the table's own)
    region: str = "centre"
    grow = False
    shrinks = True
    pairs = False
    fills = False  # takes what its column has left over when no part there grows
    least = 0  # growing, it takes at least this height: the parts that shrink give way
    lifts = False  # under the pointer it is drawn last (a card read large lies over all)
    on_top: ClassVar[bool] = False  # drawn after everything else (the card a click pinned)
    # Holds the players' areas: the players column is made wide for it, this share (in
    # hundredths) of the window's width at most (0: not wide).
    wide = 0
    # Kinds are drawn layer by layer, lowest first (the frame's panels, whose shadows lie
    # under what stands beside them); a layer's kinds keep the order they registered in.
    layer: ClassVar[int] = 1

    def __init__(self, host: PartHost) -> None:
        self.host = host
        self.rect = pygame.Rect(0, 0, 0, 0)
        # What it drew this frame: each clickable thing (where, what a click means), each
        # card face the viewer sees (where, which kind: what may be read large), the face
        # under the pointer, and each "+N more" with what it hides.
        self.hits: list[tuple[pygame.Rect, Target]] = []
        self.faces: list[tuple[pygame.Rect, str]] = []
        self.hover: tuple[pygame.Rect, str] | None = None
        self.more: list[tuple[pygame.Rect, list[str]]] = []
        # Each space ringed as one of a set (see `board_sets`): where, which, the set's number.
        self.ringed: list[tuple[pygame.Rect, Target, int]] = []
        # What it said about each player, as words (seat, what, words): a score, a counter,
        # a name, a board's shape. Read by the table's audit against the engine's view.
        self.told: list[tuple[int, str, str]] = []

    @classmethod
    def build(cls, host: PartHost) -> list[Part]:
        """The parts of this kind the table's layout asks for (none, one or several)."""
        return [cls(host)]

    def wanted(self, seats: int) -> int:
        """How tall it would like to be."""
        return 0

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        """Draw into `self.rect`."""

    def hit(self, pos: tuple[int, int]) -> Target | None:
        """What a click at `pos` means here, the topmost thing drawn last (None: nothing)."""
        for rect, target in reversed(self.hits):
            if rect.collidepoint(pos):
                return target
        return None

    def targets_at(self) -> list[tuple[pygame.Rect, Target]]:
        """Where each clickable thing is now, for the keyboard's focus ring."""
        return list(self.hits)

    def handle(self, event: pygame.event.Event) -> bool:
        """A raw mouse event (a drag); True when used."""
        return False

    def where(self, zone: str, owner: int | None, n: int) -> Point | None:
        """Where the n-th die of a zone this part shows sits (None: not shown here)."""
        return None

    def die_size(self, zone: str, owner: int | None, flying: bool) -> int | None:
        """How big a die of this zone is drawn (None: not shown here)."""
        return None
