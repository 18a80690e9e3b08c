"""Games saved by name ("Save as..."), and the lists of saved and finished games, each line
read from the save's summary."""

from __future__ import annotations

import contextlib
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import GameState
from ..names import allowed_in_name, shorten
from ..ruleset import LoadError, load_by_id
from .folders import finished_dir, saves_dir
from .game import SAVE_NAME_MAX, SavedGame, _number, summarise
from .reading import read, read_head
from .text import _now
from .writing import try_write


@dataclass
class SaveEntry:
    """One line of a list of saves; `problem` says why one cannot be opened."""

    path: Path
    name: str
    saved_at: str
    game: str  # the game's name, e.g. Dino Hunt
    ruleset: str
    players: list[str]
    round: int | None = None
    scores: list[Any] = field(default_factory=list)
    over: bool = False
    winners: list[int] = field(default_factory=list)
    moves: int = 0
    problem: str = ""

    def line(self) -> str:
        """"Round 4 — Ann 12, Ben 9" (or the game's result, or its problem)."""
        if self.problem:
            return self.problem
        if self.round is None:
            return f"{self.moves} moves"
        scores = ", ".join(f"{name} {_number(v) if v is not None else '?'}"
                           for name, v in zip(self.players, self.scores, strict=False))
        if self.over and self.winners:
            won = " and ".join(self.players[w] for w in self.winners if w < len(self.players))
            return f"{won} won in round {self.round} — {scores}"
        return f"Round {self.round} — {scores}"


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:30]
    return slug or "game"


def save_as(game: SavedGame, name: str, state: GameState | None = None,
            folder: Path | None = None) -> Path:
    """Save a game under a name in saves/ (a new file; no other save is replaced).

    Returns the file written; raises ValueError with the reason in words when the name is
    not usable or the file cannot be written. `state` is the game as it stands (replayed
    here when not given) for the summary the list shows.
    """
    name = clean_name_for_save(name)
    if not name:
        raise ValueError("A saved game needs a name")
    folder = folder or saves_dir()
    if state is None:
        state = game.replay()
    copy = SavedGame(game.ruleset, game.version, list(game.seats), dict(game.options),
                     game.seed, list(game.log), game.bots_random, name=name, saved_at=_now(),
                     summary=summarise(game, state))
    stem = _slug(name)
    for n in range(1, 10_000):
        target = folder / (f"{stem}.yaml" if n == 1 else f"{stem}-{n}.yaml")
        if not target.exists():
            break
    else:
        raise ValueError(f"{folder}: too many saves called {name!r}")
    problem = try_write(copy, target, rotate=False, sync_folder=True)
    if problem is not None:
        raise ValueError(problem)
    return target


def clean_name_for_save(name: str) -> str:
    """A save's name as typed, made safe: control characters dropped, cut to its limit."""
    kept = "".join(ch if allowed_in_name(ch) else " " for ch in str(name))
    return " ".join(kept.split())[:SAVE_NAME_MAX].strip()


def _entries(folder: Path) -> list[SaveEntry]:
    out: list[SaveEntry] = []
    try:
        files = sorted(folder.glob("*.yaml"))
    except OSError:
        return out
    for path in files:
        if ".unreadable" in path.name or not path.is_file():
            continue
        out.append(describe_file(path))
    # Newest first; the time is in the file (a copied file keeps its own), then its name.
    out.sort(key=lambda e: (e.saved_at, e.path.name), reverse=True)
    return out


def describe_file(path: Path) -> SaveEntry:
    """One save's line for a list, from its summary (replayed only for older saves).

    Only the file's head (everything before the moves) is parsed when it holds a summary:
    a list of 500 saves then reads 500 short heads, not 500 games' every move."""
    try:
        head = read_head(path)
    except LoadError:
        head = None  # the whole file is read below, for its problem in full
    except Exception:  # a list never fails for one file
        head = None
    if head is not None and head.summary is not None:
        entry = SaveEntry(path, head.name, head.saved_at or _file_time(path), "",
                          head.ruleset, [s.name for s in head.seats],
                          moves=int(head.summary["moves"]))
        _fill(entry, head.summary)
        return entry
    try:
        game = read(path)
    except LoadError as exc:
        first = exc.problems[0] if exc.problems else None
        reason = (f"cannot be opened: {first.message}" if first is not None
                  else "cannot be opened")
        return SaveEntry(path, path.stem, "", "", "", [], problem=shorten(reason, 160))
    except Exception as exc:  # a list never fails for one file
        return SaveEntry(path, path.stem, "", "", "", [],
                         problem=f"cannot be opened ({type(exc).__name__})")
    players = [s.name for s in game.seats]
    entry = SaveEntry(path, game.name, game.saved_at or _file_time(path), "",
                      game.ruleset, players, moves=len(game.log))
    summary = game.summary
    if summary is None:
        try:
            summary = summarise(game, game.replay())
        except LoadError as exc:
            first = exc.problems[0] if exc.problems else None
            entry.problem = shorten(f"cannot be opened: {first.message}" if first else
                                    "cannot be opened", 160)
            with contextlib.suppress(Exception):
                entry.game = load_by_id(game.ruleset).name
            return entry
    _fill(entry, summary)
    return entry


def _fill(entry: SaveEntry, summary: dict[str, Any]) -> None:
    """A list line's game, round, scores and result, from a save's summary."""
    entry.game = summary["game"]
    entry.round = summary["round"]
    entry.scores = list(summary["scores"])
    entry.over = summary["over"]
    entry.winners = list(summary["winners"])


def _file_time(path: Path) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(path.stat().st_mtime))
    except OSError:
        return ""


def list_saves(folder: Path | None = None) -> list[SaveEntry]:
    """The games saved by name, newest first."""
    return _entries(folder or saves_dir())


def list_finished(folder: Path | None = None) -> list[SaveEntry]:
    """The finished games kept (the last KEEP_FINISHED), newest first."""
    return _entries(folder or finished_dir())


def delete(path: Path) -> bool:
    """Delete a named save or a finished game; only files in those two folders."""
    try:
        where = path.resolve().parent
        allowed = {saves_dir().resolve(), finished_dir().resolve()}
    except OSError:
        return False
    if where not in allowed or path.suffix != ".yaml":
        return False
    try:
        path.unlink()
    except OSError:
        return False
    return True
