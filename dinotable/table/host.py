"""What a part of the table may see and touch: `PartHost`, a narrow view of the table.

A part (`part.py`) is given this, not the scene: the game as the viewer may see it, who
sits where, what is shown while events play back, what a click may do, and a few ways to
speak to the players. Anything else of the table is out of a part's reach, and the type
checker says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import random

    from ..engine import Action, GameState, Rules
    from ..physics.tray import Toss
    from ..ruleset.layout import Layout
    from .choice import Chooser
    from .chrome import Zoom
    from .part import Point
    from .session import Seat
    from .sprites import Shown, Sprite
    from .widgets import Look


class PartHost(Protocol):
    """The table as its parts see it."""

    # The game and how it is laid out; the view the table draws, and for whom.
    rules: Rules
    layout: Layout
    view: dict[str, Any]
    sees_all: bool  # a replay: every hand is face up

    @property
    def state(self) -> GameState: ...  # read for the engine's views (value_for, text_for)

    @property
    def viewer(self) -> int | None: ...  # the seat holding the laptop (None: nobody yet)

    @property
    def holder(self) -> int | None: ...

    # The seats.
    @property
    def seats(self) -> list[Seat]: ...

    def name(self, seat: int) -> str: ...

    def colour(self, seat: int) -> tuple[int, int, int]: ...

    def mark(self, seat: int) -> str: ...

    def is_bot(self, seat: int) -> bool: ...

    @property
    def deciding(self) -> int: ...

    # What is shown while events play back, and whether anything still moves.
    shown: Shown
    sprites: dict[str, Sprite]
    toss_rng: random.Random  # the dice's tumbling (never a bot's choice)

    @property
    def toss(self) -> Toss | None: ...

    @property
    def idle(self) -> bool: ...

    @property
    def my_turn(self) -> bool: ...

    def zone_sprites(self, zone: str, owner: int | None = None) -> list[Sprite]: ...

    def source_point(self) -> Point: ...

    # What a click may do.
    chooser: Chooser
    zoom: Zoom  # the card being read (one for the whole table)
    mouse: tuple[int, int]

    def steal_targets(self) -> set[int]: ...

    def take(self, action: Action) -> None: ...

    def refresh_buttons(self) -> None: ...

    def look(self) -> Look: ...

    # Words and sounds for the players.
    last_words: str
    asked: str
    log: list[str]
    log_scroll: int
    show_odds: bool

    @property
    def save_problem(self) -> str: ...

    @property
    def sounds(self) -> Any: ...

    def hint(self, text: str) -> None: ...
