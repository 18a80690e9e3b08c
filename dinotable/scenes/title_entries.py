"""What the title lists: every installed game (loaded, or why it cannot be), and the game
to continue, read in a thread of their own while the title's first frame shows."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..catalog import Listing

if TYPE_CHECKING:
    from ..engine import GameState, Rules
    from ..saves import SavedGame, Skipped


class Entry(NamedTuple):
    """A game on the title screen: its rules, or why it cannot be played. (Named tuples
    here: a dataclass costs the first frame about half a millisecond to build.)"""

    id: str
    rules: Rules | None
    problem: str = ""
    listing: Listing | None = None  # what the first frame shows before the rules load


def discover() -> list[Entry]:
    """Every installed ruleset, loaded; a broken one becomes an entry with its message."""
    from ..ruleset import LoadError, installed_rulesets, load_ruleset

    out = []
    for folder in installed_rulesets():
        try:
            out.append(Entry(folder.name, load_ruleset(folder)))
        except LoadError as exc:
            first = exc.problems[0]
            more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
            out.append(Entry(folder.name, None, f"{first}{more}"))
    return out


class SavesRead(NamedTuple):
    """The autosave as the title finds it: the newest that opens (game, state, file), the
    newer ones skipped, or an unexpected problem in words. Nothing of pygame's in it."""

    found: tuple[SavedGame, GameState, Path] | None = None
    skipped: Sequence[Skipped] = ()
    problem: str = ""


def read_saves() -> SavesRead:
    """Clear what a killed save left behind, then find the game to continue."""
    from .. import saves

    saves.remove_stale()
    try:
        # The newest autosave that opens; newer ones that do not are kept aside and
        # reported, and the game goes on from the one before (the rotation).
        found, skipped = saves.newest_autosave()
    except Exception as exc:  # no file may stop the title appearing
        return SavesRead(problem=f"{saves.autosave_path()}: an unexpected problem "
                                 f"({type(exc).__name__}: {saves.shorten(str(exc), 120)})")
    return SavesRead(found, skipped)


class Loading:
    """The games' rules and the autosave, read in a thread of their own while the title
    shows what it read from the rules files' heads: reading and checking every ruleset
    takes some hundred milliseconds, which would freeze a window already up. The thread
    never touches pygame; the title takes the result in its update, on the main thread."""

    def __init__(self) -> None:
        self.result: tuple[list[Entry], SavesRead] | None = None
        self.error: Exception | None = None
        # A daemon: closing the window while the games are still being read must not wait.
        self.thread = threading.Thread(target=self._run, name="title-loading", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.result = (discover(), read_saves())
        except Exception as exc:  # raised again on the main thread, which reports it
            self.error = exc

    @property
    def done(self) -> bool:
        """Whether the reading has finished (well or not)."""
        return not self.thread.is_alive()

    def take(self) -> tuple[list[Entry], SavesRead]:
        """What was read, waiting for it if need be; a failure is raised here."""
        self.thread.join()
        if self.error is not None:
            raise self.error
        if self.result is None:
            raise RuntimeError("reading the games stopped before it finished")
        return self.result
