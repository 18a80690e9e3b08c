"""Keeping the game left unfinished when another one starts: it goes to Saved games, and
the new table says so for a moment. Imports no other scene, so the setup and the table
both may use it."""

from __future__ import annotations

from typing import Any

from .. import saves

KEPT_SECONDS = 5.0  # how long the note that an unfinished game was kept stays up


def keep_unfinished() -> str:
    """A new game is about to take the unfinished one's place as the game to continue:
    keep that one in Saved games first, as a family would expect, and return the words
    that say so ("" when there was nothing to keep or it could not be kept)."""
    try:
        # Any newer autosave that does not open is set aside first (byte for byte): the
        # discard below must not take it with the rest.
        found, _skipped = saves.newest_autosave()
        if found is None:
            return ""
        game, state, _path = found
        if state.game_over or not game.log:
            return ""  # finished (it is with the finished games), or not begun
        names = ", ".join(s.name for s in game.seats)
        name = saves.clean_name_for_save(f"{state.rules.name}: {names}")
        saves.save_as(game, name, state)
        saves.discard()  # kept: a second new game must not keep it twice
    except Exception:  # keeping it is a kindness; the new game must start regardless
        return ""
    return f"Your unfinished game of {state.rules.name} is kept in Saved games."


def tell_kept(table: Any, words: str) -> None:
    """Say on the new table, for a few seconds and in its log, that the old game is kept."""
    if words:
        table.log_line(words)
        table.toast = ("Your unfinished game is kept in Saved games.", KEPT_SECONDS)
