"""Keeping the game left unfinished when another one starts: it goes to Saved games, and
the new table says so for a moment. Imports no other scene, so the setup and the table
both may use it."""

from __future__ import annotations

from typing import Any

from .. import saves
from ..render import theme

KEPT_SECONDS = 8.0  # how long the note that an unfinished game was kept stays up
SHORT_WORDS = "Your unfinished game is kept in Saved games."  # where the whole note is too long


def together(names: list[str]) -> str:
    """"Ann, Ben and Cat"."""
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def keep_unfinished(opening: saves.SavedGame | None = None) -> str:
    """A new game is about to take the unfinished one's place as the game to continue:
    keep that one in Saved games first, as a family would expect, and return the words
    that say so ("" when there was nothing to keep or it could not be kept). `opening`:
    the saved game about to be played on, which needs no second copy if it is the very
    game left unfinished."""
    try:
        # Any newer autosave that does not open is set aside first (byte for byte): the
        # discard below must not take it with the rest.
        found, _skipped = saves.newest_autosave()
        if found is None:
            return ""
        game, state, _path = found
        if state.game_over or not game.log:
            return ""  # finished (it is with the finished games), or not begun
        if opening is not None and opening == game:
            return ""  # the save opened is this game, move for move: it goes on from there
        names = ", ".join(s.name for s in game.seats)
        name = saves.clean_name_for_save(f"{state.rules.name}: {names}")
        saves.save_as(game, name, state)
        saves.discard()  # kept: a second new game must not keep it twice
    except Exception:  # keeping it is a kindness; the new game must start regardless
        return ""
    who = together([s.name for s in game.seats])
    return f"Your unfinished game of {state.rules.name} with {who} is kept in Saved games."


def tell_kept(table: Any, words: str) -> None:
    """Say on the new table, for a few seconds and in its log, that the old game is kept:
    the whole note (which game, with whom) when the table's middle has room for it."""
    if words:
        table.log_line(words)
        room = table.tr.w - 40 if hasattr(table, "tr") else 0
        fits = theme.font(theme.SMALL, True).size(words)[0] <= room
        table.toast = (words if fits else SHORT_WORDS, KEPT_SECONDS)
