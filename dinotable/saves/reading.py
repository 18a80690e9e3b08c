"""Reading a save: the file within its limits, the YAML parsed safely, every field checked
(see checking.py), and the game replayed; anything wrong is one `LoadError`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from ..engine import GameState
from ..ruleset import LoadError, Problem
from ..ruleset.problems import Reporter
from ..ruleset.yamlsafe import load_text
from .checking import _check
from .folders import autosave_path
from .game import SavedGame

MAX_BYTES = 512 * 1024  # a 5,000-move game is under 200 KB
MAX_NESTING = 16  # a save nests four deep; YAML's C parser overflows the stack near 100,000
MAX_DIGITS = 40  # a seed fits in 19; Python refuses to read numbers past 4,300 digits
_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_INT_TAG = "tag:yaml.org,2002:int"


def _fail(name: str, line: int, col: int, where: str, message: str) -> LoadError:
    return LoadError([Problem(name, line, col, where, message)])


def _read_text(path: Path) -> str:
    """The file's text, within the size limit, as UTF-8."""
    name = str(path)
    try:
        if not path.is_file():
            raise _fail(name, 1, 1, "(file)", "is not a file")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise _fail(name, 1, 1, "(file)", f"is {size} bytes; a save is at most "
                                              f"{MAX_BYTES}")
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _fail(name, 1, 1, "(file)", f"cannot be read: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise _fail(name, 1, 1, "(file)", f"is more than {MAX_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(name, 1, 1, "(file)", f"is not UTF-8 text (byte {exc.start + 1})") from None


def _prescan(text: str, name: str) -> None:
    """Refuse deep nesting and huge numbers before anything builds values from the text.

    libyaml's parser walks the text without recursion, so counting its events is safe
    where composing a 100,000-deep document would overflow the stack.
    """
    resolver: Any = yaml.resolver.Resolver()
    depth = 0

    def at(event: Any) -> tuple[int, int]:
        mark = event.start_mark
        return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)

    try:
        for event in yaml.parse(text, Loader=_YAML_LOADER):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_NESTING:
                    raise _fail(name, *at(event), "(file)",
                                f"nested deeper than {MAX_NESTING} levels")
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
            elif (isinstance(event, yaml.ScalarEvent) and len(event.value) > MAX_DIGITS
                  and event.implicit[0]
                  and resolver.resolve(yaml.ScalarNode, event.value, (True, False))
                  == _INT_TAG):
                raise _fail(name, *at(event), "(file)",
                            f"a number of {len(event.value)} characters; at most "
                            f"{MAX_DIGITS} are read")
    except yaml.YAMLError as exc:
        # Newer libyaml stops very deep nesting itself: the same problem, in the same words.
        if "nesting depth" in str(exc):
            mark = getattr(exc, "problem_mark", None)
            line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            raise _fail(name, line, col, "(file)",
                        f"nested deeper than {MAX_NESTING} levels") from None
        return  # the loader below reports it, with its line and column


def read(path: Path | None = None) -> SavedGame:
    """Read and check a save; LoadError names the file, line and what is wrong."""
    path = path or autosave_path()
    name = str(path)
    text = _read_text(path)
    _prescan(text, name)
    try:
        data, marks = load_text(text, name)
    except (ValueError, RecursionError, OverflowError) as exc:
        # The limits above should stop these first; a parser surprise is still a bad file.
        raise _fail(name, 1, 1, "(yaml)", f"not a readable save ({type(exc).__name__})"
                    ) from None
    return _check(data, Reporter(name, marks))


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
        _, marks = load_text(_read_text(path), str(path))
    except (LoadError, ValueError, RecursionError, OverflowError):
        return 1, 1
    return marks.get(key, (1, 1))
