"""Reading a ruleset's YAML: the checks every section shares.

`SectionReader` holds the small readers (a mapping, a whole number, a text, an id, one
of some values) and the section skeleton `entries`: a section of named entries, each a
mapping whose keys are checked, unknown ones reported with a suggestion.
"""

from __future__ import annotations

import re
from pathlib import Path as FsPath
from typing import Any

from ..engine.effects import _unknown
from ..engine.expr import (
    CONSTANTS,
    FUNCTIONS,
)
from .problems import Path, Reporter

# Names an option or variable may not take: expressions would read the other meaning.
RESERVED: dict[str, str] = {
    **{name: "an expression constant" for name in CONSTANTS},
    **{name: "an expression function" for name in FUNCTIONS},
    "player": "set/add use `player:` for whose variables change",
    "true": "a truth value", "false": "a truth value",
}
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
# Bounds that keep a typo from hanging a game: a 30-digit goal or dice count is a mistake.
MAX_SEATS = 8
MAX_START = 200  # items of one kind a zone starts with (per owner)
MAX_NUMBER = 10**9  # any whole number a ruleset writes: option values, variables, literals


def _too_large(value: Any) -> bool:
    """A number beyond what any ruleset needs (or not finite)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return not -MAX_NUMBER <= value <= MAX_NUMBER


def _shown(value: Any) -> str:
    """A value for a message, a very long number cut short."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:12]}...{text[-4:]} ({len(text)} characters)"


class SectionReader:
    """Reads ruleset sections, reporting every problem it meets."""

    def __init__(self, data: Any, report: Reporter, folder: FsPath) -> None:
        self.data = data
        self.report = report
        self.folder = folder
        self.owner_vars: set[str] = set()  # player variables only their owner sees

    def mapping(self, raw: Any, path: Path, what: str) -> dict[Any, Any]:
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            self.report(path, f"expected a mapping of {what}")
            return {}
        return raw

    def integer(self, raw: Any, path: Path, lo: int | None = None, hi: int = MAX_NUMBER
                ) -> int | None:
        if not isinstance(raw, int) or isinstance(raw, bool):
            self.report(path, f"expected a whole number, found {_shown(raw)}")
            return None
        if lo is not None and raw < lo:
            self.report(path, f"expected at least {lo}, found {_shown(raw)}")
            return None
        if not -MAX_NUMBER <= raw <= hi:
            self.report(path, f"expected at most {hi}, found {_shown(raw)}" if raw > 0 else
                        f"number too large: {_shown(raw)} (at most {MAX_NUMBER:,} either side "
                        "of zero)")
            return None
        return raw

    def text(self, raw: Any, path: Path, default: str = "") -> str:
        if raw is None:
            return default
        if not isinstance(raw, str):
            self.report(path, f"expected text, found {raw!r}")
            return default
        return raw

    def ident(self, raw: Any, path: Path, what: str) -> bool:
        if not isinstance(raw, str) or not _ID.match(raw):
            self.report(path, f"{what} {raw!r} must be lower_snake_case")
            return False
        return True

    def choice(self, raw: Any, path: Path, allowed: tuple[str, ...], default: str) -> str:
        if raw is None:
            return default
        if raw not in allowed:
            self.report(path, _unknown("value", str(raw), list(allowed)))
            return default
        return str(raw)
