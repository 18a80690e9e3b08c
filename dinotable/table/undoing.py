"""Taking back a move at the table (Undo, Ctrl+Z): the seat the game waits on takes back
its own last action, one at a time, never past a reveal (`engine.undo`); the session
rebuilds the game from its seed and log (`TableSession.take_back`), so the next roll shows
what it would have shown. Here is what the table does around it: the button and the words."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from .choice import Choice, Chooser
from .host import PartHost

if TYPE_CHECKING:
    from .choice import Target
    from .session import TableSession
    from .sprites import Step


class Rewinding(PartHost, Protocol):
    """The table as taking back a move touches it, beyond what its parts see: the session
    that rebuilds the game, and the playback, bar and focus laid out afresh."""

    session: TableSession
    steps: deque[Step]  # the playback still queued, dropped
    page: int  # the action bar's page, back to the first
    ring: Target | None  # the keyboard's focus, back to nothing

    def log_line(self, text: str) -> None: ...

    def autosave(self) -> None: ...


def choice(reason: str) -> Choice:
    """Undo as a choice: enabled, or greyed with the reason it cannot be used."""
    return Choice("Undo", "undo", enabled=not reason, reason=no_undo_words(reason),
                  key="Ctrl+Z")


def take_back_last(table: Rewinding, settle: Callable[[], object], remote: bool = False
                   ) -> str:
    """The seat the game waits on takes back its last action: the table is laid out afresh
    at the shorter game (`settle`: the display brought level with it), it is saved, and the
    log says so (or a hint says why not, and the words are returned). `remote`: asked from
    that seat's phone."""
    seat = table.deciding
    taken, reason = table.session.take_back(table.idle, remote=remote)
    if taken is None:
        if not remote:
            table.hint(no_undo_words(reason))
        table.refresh_buttons()
        return no_undo_words(reason)
    table.chooser = Chooser(table.state, table.session.names)
    table.page = 0
    table.ring = None
    table.steps.clear()
    table.sprites = {}  # laid out afresh where the shorter game has them
    settle()
    table.shown.scores = list(table.shown.score_goals)
    words = f"{table.name(seat)} takes back: {table.rules.actions[taken.id].label}."
    table.log_line(words)
    table.last_words = words
    table.autosave()
    table.refresh_buttons()
    return ""


def no_undo_words(reason: str) -> str:
    """A greyed Undo's words: "No undo now. The dice have been rolled since." """
    return f"No undo now. {reason}." if reason else ""
