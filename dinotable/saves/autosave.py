"""The autosave's life: the newest one that opens is offered to continue, one that cannot
be opened is set aside byte for byte, and a finished game is archived with the others."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

from ..engine import GameState
from ..names import shorten
from ..ruleset import LoadError
from .folders import autosave_path, finished_dir
from .game import SavedGame, summarise
from .journal import journal_path, journal_tmp
from .reading import load
from .writing import rotation_paths, try_write

KEEP_FINISHED = 20  # finished games kept for the list


def set_aside(path: Path | None = None) -> Path | None:
    """Move a save that cannot be opened out of the way, byte for byte, for a bug report.

    Each goes to a name no earlier one has: autosave.unreadable.yaml, then
    autosave.unreadable-2.yaml, and so on (past 999 of them, a name with the time). None if
    it could not be moved (a read-only folder): then it is left where it is. Its journal
    (journal.py) goes with it, as autosave.unreadable.journal and so on.
    """
    path = path or autosave_path()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    tails = [("" if n == 1 else f"-{n}") for n in range(1, 1000)] + [
        f"-{stamp}-{n}" for n in range(1, 1000)]
    for tail in tails:
        kept = path.with_name(f"{path.stem}.unreadable{tail}{path.suffix}")
        if any(p.exists() or p.is_symlink() for p in (kept, journal_path(kept))):
            continue
        try:
            # A hard link cannot replace a file that appeared meanwhile; where links are
            # not supported (FAT sticks), rename after the check above.
            try:
                os.link(path, kept)
                path.unlink()
            except FileExistsError:
                continue
            except OSError:
                os.rename(path, kept)
        except OSError:
            return None
        with contextlib.suppress(OSError):
            if journal_path(path).is_file() and not journal_path(path).is_symlink():
                os.rename(journal_path(path), journal_path(kept))
        return kept
    return None


def archive(path: Path | None = None) -> Path | None:
    """Move a finished game's save into finished/, keeping the last KEEP_FINISHED.

    The archived copy gains its summary (for the "Finished games" list); the autosaves kept
    before it are dropped, so none of them is offered as a game to continue.
    """
    path = path or autosave_path()
    chain = rotation_paths()
    if path in chain:
        # The autosaves kept before this one are earlier moves of a game now over (or
        # older still); the newer ones, if any, are not this game's: they are left alone.
        for older in chain[chain.index(path) + 1:]:
            for each in (older, journal_path(older)):
                with contextlib.suppress(OSError):
                    if each.is_file() and not each.is_symlink():
                        each.unlink()
    folder = finished_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Names sort in the order the games ended: the oldest go first when trimming.
        # After the highest number of this second, not in a gap left by trimming: a game
        # ended later must never sort before one ended earlier.
        taken = [int(p.stem.rsplit("-", 1)[1]) for p in folder.glob(f"{stamp}-*.yaml")
                 if p.stem.rsplit("-", 1)[1].isdigit()]
        n = max(taken, default=0) + 1
        while (target := folder / f"{stamp}-{n:03d}.yaml").exists():
            n += 1
        if not _write_summarised(path, target):
            os.replace(path, target)
        else:
            try:
                path.unlink()
            except OSError:
                # Held open by another program (Windows): the summarised copy goes again,
                # or the game would be archived twice, once now and once when let go.
                with contextlib.suppress(OSError):
                    target.unlink()
                raise
    except OSError:
        # Left where it is: newest_autosave never offers a finished game to continue, and
        # the archive is tried again the next time the title opens.
        return None
    # Its moves are all in the archived copy (or the file moved was never read with them).
    with contextlib.suppress(OSError):
        if journal_path(path).is_file() and not journal_path(path).is_symlink():
            journal_path(path).unlink()
    with contextlib.suppress(OSError):
        kept = sorted(folder.glob("*.yaml"))
        for old in kept[:-KEEP_FINISHED]:
            old.unlink()
    return target


def discard(path: Path | None = None) -> None:
    """Forget the game in progress (and the autosaves kept before it)."""
    path = path or autosave_path()
    for save in rotation_paths(path) if path == autosave_path() else [path]:
        for each in (save, journal_path(save), journal_tmp(save)):
            with contextlib.suppress(OSError):
                if each.is_file() or each.is_symlink():  # never a folder someone put there
                    each.unlink()


def _write_summarised(source: Path, target: Path) -> bool:
    """Copy a save to `target` with its summary filled in; False if it cannot be read."""
    try:
        game, state = load(source)
    except LoadError:
        return False
    game.summary = summarise(game, state)
    return try_write(game, target, rotate=False) is None


# --- the autosave and the ones kept before it -----------------------------------------


@dataclass
class Skipped:
    """An autosave that could not be opened: where it was, why, and where it was kept."""

    path: Path
    problems: list[str]
    kept: Path | None


def newest_autosave(keep_aside: bool = True
                    ) -> tuple[tuple[SavedGame, GameState, Path] | None, list[Skipped]]:
    """The newest autosave that opens (the game, its state and its file), and the newer
    ones skipped, with their problems in words.

    Each one skipped is moved aside byte for byte (`set_aside`) unless `keep_aside` is
    false, so it is reported once and never written over. A game found already over is
    archived with the finished games, not offered.
    """
    skipped: list[Skipped] = []
    for path in rotation_paths():
        if not path.is_file():
            continue  # nothing there (or a folder in the way: nothing to offer or move)
        try:
            game, state = load(path)
        except LoadError as exc:
            kept = set_aside(path) if keep_aside else None
            skipped.append(Skipped(path, [str(p) for p in exc.problems[:3]], kept))
            continue
        except Exception as exc:  # no file may stop the title appearing
            kept = set_aside(path) if keep_aside else None
            skipped.append(Skipped(path, [f"{path}: an unexpected problem "
                                          f"({type(exc).__name__}: {shorten(str(exc), 120)})"],
                                   kept))
            continue
        if state.game_over:
            # Wherever in the rotation it lies, a finished game joins the finished ones.
            archive(path)
            return None, skipped
        return (game, state, path), skipped
    return None, skipped
