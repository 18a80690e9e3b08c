"""Writing a save durably: a synced temporary file renamed over the slot, the autosave's
moves appended to its journal in between (journal.py), the autosaves kept before the
current one, and the temporary files a killed write left behind."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from ..paths import user_data_dir, why_not_written
from .folders import FINISHED_FOLDER, SAVES_FOLDER, autosave_path
from .game import SavedGame
from .journal import forget, journal_path, journal_tmp, started, try_append
from .text import _now, to_text


def _tmp_of(path: Path) -> Path:
    return path.with_suffix(".tmp")


def try_write(game: SavedGame, path: Path | None = None, *, rotate: bool | None = None,
              sync_folder: bool | None = None, compact: bool = False) -> str | None:
    """Write a save durably; None when done, else why not, in words.

    The autosave (`rotate`) is mostly written by appending the moves made since the last
    write to its journal (see journal.py), which costs the same at move 3,000 as at move
    30; it is written in full when the journal cannot be used, has grown as large as the
    save, or `compact` asks for it (a game being closed: then the file alone holds it all,
    for any reader).

    The text goes to a temporary file that is flushed and synced before it is renamed over
    the slot: a crash or a power cut leaves the old save or the new one, never half of one.
    The autosave (`rotate`, the default for it) keeps the two before it as autosave.1.yaml
    and autosave.2.yaml, so a save that cannot be read still leaves the one before.

    The trade for speed: the folder is synced (which makes the rename itself survive a
    power cut) on the first write of a session, for named saves, and then at most every
    FOLDER_SYNC_SECONDS for the autosave. The file's own contents are always synced before
    the rename, so what a power cut can cost is the last few seconds of moves (the slot
    then holds an older, complete save), never a torn or empty file. A killed process
    loses nothing: the rename is done in the kernel.
    """
    global _last_folder_sync
    path = path or autosave_path()
    if rotate is None:
        rotate = path == autosave_path()
    if rotate and not compact and try_append(game, path):
        return None
    tmp = _tmp_of(path)
    if not game.saved_at:
        game.saved_at = _now()
    raw = to_text(game).encode("utf-8")
    if rotate:
        forget()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        if rotate:
            _rotate(path)
        os.replace(tmp, path)
        if rotate:
            # Its journal starts afresh; the one beside it names the base just replaced.
            started(path, raw, game)
        now = time.monotonic()
        if sync_folder is None:
            sync_folder = not rotate or now - _last_folder_sync > FOLDER_SYNC_SECONDS
        if sync_folder:
            _sync_folder(path.parent)
            _last_folder_sync = now
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return f"{path}: {why_not_written(path, exc)}"
    return None


FOLDER_SYNC_SECONDS = 5.0
_last_folder_sync = -1e9  # time.monotonic() of the last folder sync; the first write syncs
ROTATION = 3  # autosave.yaml and the two before it


def rotation_paths(path: Path | None = None) -> list[Path]:
    """The autosave and the ones kept before it, newest first."""
    path = path or autosave_path()
    return [path] + [path.with_name(f"{path.stem}.{n}{path.suffix}") for n in range(1, ROTATION)]


def _rotate(path: Path) -> None:
    """Shift the kept autosaves down one (the oldest goes) before a new one is renamed in.

    The current save is hard-linked to autosave.1, so autosave.yaml exists at every instant
    (a kill between two steps leaves every slot readable); where links are not supported the
    current one is renamed, and for that instant only the kept ones exist.
    """
    chain = rotation_paths(path)
    for newer, older in zip(reversed(chain[1:-1]), reversed(chain[2:]), strict=True):
        if _is_save(newer) and _replaceable(older):
            _move_journal(newer, older, os.replace)
            os.replace(newer, older)
    first = chain[1]
    # Only saves are rotated: a folder (or anything else) a user put at one of these names
    # is theirs, and stays where it is.
    if _is_save(path) and _replaceable(first):
        # The journal goes with its base (linked: the new one replaces it, never grows it).
        _move_journal(path, first, os.link)
        with contextlib.suppress(FileNotFoundError):
            first.unlink()
        try:
            os.link(path, first)
        except OSError:
            os.replace(path, first)


def _move_journal(newer: Path, older: Path, how: Any) -> None:
    """Take a kept autosave's journal along with it; one left behind names another base
    and is never read, so a failure here costs only the journal's moves."""
    source, target = journal_path(newer), journal_path(older)
    with contextlib.suppress(OSError):
        if _replaceable(target):
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
            if _is_save(source):
                how(source, target)


def _is_save(path: Path) -> bool:
    """A regular file (a save, readable or not), not a link or a folder."""
    return path.is_file() and not path.is_symlink()


def _replaceable(path: Path) -> bool:
    """Nothing there, or a save that may be replaced by a newer one."""
    return _is_save(path) or not (path.exists() or path.is_symlink())


def write(game: SavedGame, path: Path | None = None) -> bool:
    """Write a save (see try_write); False when it could not be written."""
    return try_write(game, path) is None


def _sync_folder(folder: Path) -> None:
    # The rename is only durable once the folder's entry is on disk; Windows cannot open a
    # folder this way, and there the rename is already journalled.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale(folder: Path | None = None) -> list[Path]:
    """Delete temporary files a killed save left behind; returns what was removed."""
    folder = folder or user_data_dir()
    removed = []
    # The autosave's and the settings' temporary files, and any a named save or an
    # archived game left in their folders.
    candidates = [folder / _tmp_of(autosave_path()).name, folder / "settings.json.tmp",
                  folder / journal_tmp(autosave_path()).name]
    for sub in (SAVES_FOLDER, FINISHED_FOLDER):
        with contextlib.suppress(OSError):
            candidates.extend(sorted((folder / sub).glob("*.tmp")))
    for candidate in candidates:
        with contextlib.suppress(OSError):
            if candidate.is_file() and not candidate.is_symlink():
                candidate.unlink()
                removed.append(candidate)
    return removed
