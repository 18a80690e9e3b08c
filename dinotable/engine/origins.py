"""Where generated code came from, so a failure at play names the ruleset's line.

Effect lists and expressions are compiled into Python functions. Each one's code object is
registered here with the YAML path, line and text it was compiled from (a generated effect
function with a table of its source lines, one entry per effect). When a game step fails
with an ordinary Python error (a division by zero, an index out of range, a type error the
checker could not see), `rules_error` walks the traceback to the innermost registered code
and words an `EngineError` such as::

    rulesets/x/rules.yaml:31: actions.roll.effects[3]: division or modulo by zero in
    '10 // size(cup)'

Nothing here runs unless something fails: the engine wraps whole steps in one try.
"""

from __future__ import annotations

import bisect
import traceback
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType, TracebackType
from typing import Any

from .errors import ChanceError, EngineError, IllegalAction

Path = tuple[Any, ...]


@dataclass(frozen=True)
class Origin:
    """One piece of a ruleset: its data path, line (0: unknown) and its text as written."""

    path: Path
    line: int
    text: str


class _Table:
    """The origins of a generated function's lines: (first line, origin), sorted."""

    __slots__ = ("lines", "origins")

    def __init__(self, marks: list[tuple[int, Origin]]) -> None:
        marks = sorted(marks, key=lambda m: m[0])
        self.lines = [m[0] for m in marks]
        self.origins = [m[1] for m in marks]

    def at(self, line: int) -> Origin | None:
        i = bisect.bisect_right(self.lines, line) - 1
        return self.origins[i] if i >= 0 else None


# Keyed by the code object's identity (equal code compiled twice, say `size(cup)` in two
# places, must keep two origins); an entry goes when its code does, with its rules.
_ORIGINS: dict[int, tuple[weakref.ref[CodeType], Origin | _Table]] = {}


def _entry(code: CodeType) -> Origin | _Table | None:
    found = _ORIGINS.get(id(code))
    return found[1] if found is not None and found[0]() is code else None


def _forget(key: int) -> Callable[[weakref.ref[CodeType]], None]:
    """A weakref callback dropping the entry of code that is gone (not a newer one's)."""

    def forget(ref: weakref.ref[CodeType]) -> None:
        found = _ORIGINS.get(key)
        if found is not None and found[0] is ref:
            del _ORIGINS[key]

    return forget


def register(fn: Any, origin: Origin | None = None,
             marks: list[tuple[int, Origin]] | None = None) -> None:
    """Remember where a compiled function came from (one origin, or one per source line)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return
    entry: Origin | _Table | None = origin if origin is not None else (
        _Table(marks) if marks else None)
    if entry is not None:
        _ORIGINS[id(code)] = (weakref.ref(code, _forget(id(code))), entry)


def origin_of(fn: Any) -> Origin | None:
    """The origin registered for a compiled function, if any."""
    code = getattr(fn, "__code__", None)
    found = _entry(code) if code is not None else None
    return found if isinstance(found, Origin) else None


def find_origin(tb: TracebackType | None) -> Origin | None:
    """The innermost registered piece of ruleset a traceback passes through."""
    found: Origin | None = None
    for frame, line in traceback.walk_tb(tb):
        entry = _entry(frame.f_code)
        if entry is None:
            continue
        here = entry if isinstance(entry, Origin) else entry.at(line)
        if here is not None:
            found = here
    return found


def describe(exc: BaseException) -> str:
    """An ordinary Python error in words a ruleset author knows."""
    if isinstance(exc, ZeroDivisionError):
        return "division or modulo by zero"
    if isinstance(exc, IndexError):
        return "a seat or position out of range"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, MemoryError):
        return "a value too large to hold"
    text = str(exc) or type(exc).__name__
    return text if isinstance(exc, TypeError | ValueError) else f"{type(exc).__name__}: {text}"


class RulesError(EngineError):
    """A ruleset that loaded but failed while being played; the message names its line."""

    def __init__(self, message: str, file: str = "", line: int = 0, path: str = "") -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.path = path


def rules_file(rules: Any) -> str:
    """The rules file a compiled ruleset was loaded from, as the loader showed it."""
    return str(getattr(rules, "file", "") or f"{getattr(rules, 'source', '?')}/rules.yaml")


# Errors that already say what they are: a refused action, an impossible forced outcome, a
# rules error with its line. Any other failure inside a ruleset's code (an EngineError from
# a function given a value it cannot use, a Python error) is reported with its line.
PASSED_ON: tuple[type[EngineError], ...] = (IllegalAction, ChanceError, RulesError)


def rules_error(rules: Any, exc: BaseException, doing: str) -> RulesError:
    """An EngineError for a failure inside a ruleset's compiled code, naming its line."""
    file = rules_file(rules)
    origin = find_origin(exc.__traceback__)
    reason = describe(exc)
    if origin is None:
        return RulesError(f"{file}: {reason} (while {doing})", file)
    where = f"{file}:{origin.line}" if origin.line else file
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in origin.path)
    path = path.lstrip(".") or "(top)"
    return RulesError(f"{where}: {path}: {reason} in {origin.text!r}", file, origin.line, path)
