"""Reading a save: the file within its limits, the YAML parsed safely, every field checked
(see checking.py), and the game replayed; anything wrong is one `LoadError`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .. import bounded
from ..engine import GameState
from ..ruleset import LoadError, Problem
from ..ruleset.problems import Reporter
from ..ruleset.yamlsafe import load_text
from .checking import _check
from .folders import autosave_path
from .game import SavedGame
from .journal import apply_journal

MAX_BYTES = 512 * 1024  # a 5,000-move game is under 200 KB
MAX_NESTING = 16  # a save nests four deep; YAML's C parser overflows the stack near 100,000
MAX_DIGITS = 40  # a seed fits in 19; Python refuses to read numbers past 4,300 digits


def _fail(name: str, line: int, col: int, where: str, message: str) -> LoadError:
    return LoadError([Problem(name, line, col, where, message)])


def _read_text(path: Path) -> str:
    """The file's text, within the size limit, as UTF-8 (a regular file only)."""
    name = str(path)
    try:
        raw = bounded.read_bytes(path, MAX_BYTES, "a save")
    except bounded.Refused as exc:
        raise _fail(name, 1, 1, "(file)", exc.message) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(name, 1, 1, "(file)", f"is not UTF-8 text (byte {exc.start + 1})") from None


def read(path: Path | None = None) -> SavedGame:
    """Read and check a save, with the moves in its journal when it has one (the
    autosave: see journal.py); LoadError names the file, line and what is wrong."""
    path = path or autosave_path()
    name = str(path)
    text = _read_text(path)
    try:
        # Deep nesting and huge numbers are refused before anything is built from the text.
        data, marks = load_text(text, name, MAX_NESTING, MAX_DIGITS)
    except (ValueError, RecursionError, OverflowError) as exc:
        # The limits above should stop these first; a parser surprise is still a bad file.
        raise _fail(name, 1, 1, "(yaml)", f"not a readable save ({type(exc).__name__})"
                    ) from None
    return apply_journal(_check(data, Reporter(name, marks)), text, path)


_LOG_LINE = re.compile(r"^log:", re.MULTILINE)


def read_head(path: Path) -> SavedGame | None:
    """A save's fields before its log (name, time, seats, options, summary), checked as
    `read` checks them, without parsing the moves: what a list of saves shows. None when
    the file is not laid out as this build writes it (a format-1 save, a hand-edited one,
    one without a summary): then `read` it whole. LoadError for a file that cannot be read.
    """
    text = _read_text(path)
    found = _LOG_LINE.search(text)
    if found is None:
        return None
    name = str(path)
    try:
        data, marks = load_text(text[:found.start()], name, MAX_NESTING, MAX_DIGITS)
    except LoadError:
        return None  # the whole file's problem, in its own words, from `read`
    if not isinstance(data, dict) or "log" in data or not isinstance(data.get("summary"),
                                                                      dict):
        return None
    game = _check({**data, "log": []}, Reporter(name, marks))
    return game if game.summary is not None else None


def load(path: Path | None = None) -> tuple[SavedGame, GameState]:
    """Read, check and replay a save: the game and the state it rebuilds (or LoadError)."""
    game = read(path)
    return game, game.replay()


def line_of(path: Path, where: str) -> tuple[int, int]:
    """The line and column of an entry ("version", "log[3]") in a save that reads; (1, 1)
    when it cannot be found. For problems found by replaying, which know only the entry."""
    match = re.fullmatch(r"([a-z_]+)(?:\[(\d+)\])?", where)
    if match is None:
        return 1, 1
    key: tuple[Any, ...] = (match.group(1),) if match.group(2) is None else (
        match.group(1), int(match.group(2)))
    try:
        _, marks = load_text(_read_text(path), str(path), MAX_NESTING, MAX_DIGITS)
    except (LoadError, ValueError, RecursionError, OverflowError):
        return 1, 1
    return marks.get(key, (1, 1))
