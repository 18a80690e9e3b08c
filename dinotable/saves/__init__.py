"""Saved games: the ruleset, the seats, the options, the seed and every action taken.

A save replays: the same seed and the same actions rebuild the same game, so a save is
small, readable, and can never hold a state the rules could not reach. The table saves
after every action (`autosave.yaml` in the user data folder, written whole now and then,
and the moves since appended to `autosave.journal` beside it: see journal.py), so closing
the window or a kill loses nothing, and a power cut at most the last moves; the title
screen offers to continue it.

Every save the app reads goes through `read` (and `load`, which also replays it): limits on
size, nesting and numbers come before the YAML parser sees the text, then every field is
checked for type and range. Anything wrong is one `LoadError`; nothing else escapes.

Format 2 (this build) adds, beside format 1's fields, the save's name, when it was written
and a summary (round, scores) for the lists of saves; a format-1 file still loads, and the
next write of it is format 2. A file of a newer format is refused (`NewerFormat`), and a
save from another version of its ruleset replays only where the ruleset declares it
(`replays:` in rules.yaml), else it is refused in words naming both versions
(`VersionChanged`). So is a save from a declared older version that reaches a move the
rules no longer allow: one version number may once have covered rules that changed.

Where each part lives:

- `game.py`: what a save holds (`SavedGame`, `SavedSeat`), its format, replaying it;
- `text.py`: a save as YAML text;
- `writing.py`: writing durably, and the autosaves kept before the current one;
- `journal.py`: the autosave's moves appended between its whole writes, and read back;
- `reading.py`: reading a file within its limits; `checking.py` checks every field;
- `autosave.py`: the newest autosave that opens, unreadable ones set aside, games archived;
- `listing.py`: games saved by name and the lists of saved and finished games;
- `folders.py`: where all of these are kept.
"""

from __future__ import annotations

from ..names import NAME_MAX, clean_name, name_problem, shorten
from ..paths import user_data_dir
from .autosave import KEEP_FINISHED, Skipped, archive, discard, newest_autosave, set_aside
from .checking import MAX_MOVES, MAX_SEATS, PALETTE_SIZE, RULESET_ID, SEAT_KINDS, SEED_MAX
from .folders import FINISHED_FOLDER, SAVES_FOLDER, autosave_path, finished_dir, saves_dir
from .game import (
    FORMAT,
    OLDEST_FORMAT,
    SAVE_NAME_MAX,
    NewerFormat,
    SavedGame,
    SavedSeat,
    VersionChanged,
    check_version,
    end_refused,
    move_refused,
    replay_options,
    replayable_versions,
    summarise,
    version_words,
)
from .listing import (
    SaveEntry,
    clean_name_for_save,
    delete,
    describe_file,
    list_finished,
    list_saves,
    save_as,
)
from .reading import MAX_BYTES, MAX_DIGITS, MAX_NESTING, line_of, load, read
from .text import to_data, to_text
from .writing import (
    FOLDER_SYNC_SECONDS,
    ROTATION,
    remove_stale,
    rotation_paths,
    try_write,
    write,
)

# Names other modules and tests reach through `saves.`: the package keeps the one module's
# interface it replaced.
__all__ = [
    "FINISHED_FOLDER", "FOLDER_SYNC_SECONDS", "FORMAT", "KEEP_FINISHED", "MAX_BYTES",
    "MAX_DIGITS", "MAX_MOVES", "MAX_NESTING", "MAX_SEATS", "NAME_MAX", "OLDEST_FORMAT",
    "PALETTE_SIZE", "ROTATION", "RULESET_ID", "SAVES_FOLDER", "SAVE_NAME_MAX", "SEAT_KINDS",
    "SEED_MAX", "NewerFormat", "SaveEntry", "SavedGame", "SavedSeat", "Skipped",
    "VersionChanged", "archive", "autosave_path", "check_version", "clean_name",
    "clean_name_for_save", "delete", "describe_file", "discard", "end_refused",
    "finished_dir", "line_of", "list_finished", "list_saves", "load", "move_refused",
    "name_problem", "newest_autosave", "read", "remove_stale", "replay_options",
    "replayable_versions", "rotation_paths", "save_as", "saves_dir", "set_aside", "shorten",
    "summarise", "to_data", "to_text", "try_write", "user_data_dir", "version_words", "write",
]
