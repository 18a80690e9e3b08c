"""Reading a ruleset's YAML: the checks every section shares.

`SectionReader` holds the small readers (a mapping, a whole number, a text, an id, one
of some values) and the section skeleton `entries`: a section of named entries, each a
mapping whose keys are checked, unknown ones reported with a suggestion.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any

from ..engine.effects import _unknown
from ..engine.expr import (
    CONSTANTS,
    FUNCTIONS,
)
from .problems import Path, Reporter, check_keys

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


def _first_too_large(value: Any) -> Any:
    """The first number beyond the bound anywhere in a value (a list's items, a table's
    keys and values), else None: a card's 400-digit property must not pass the load and
    overflow mid-game."""
    if isinstance(value, dict):
        for key, item in value.items():
            found = _first_too_large(key)
            if found is None:
                found = _first_too_large(item)
            if found is not None:
                return found
        return None
    if isinstance(value, list | tuple):
        for item in value:
            found = _first_too_large(item)
            if found is not None:
                return found
        return None
    return value if _too_large(value) else None


def _shown(value: Any) -> str:
    """A value for a message, a very long number cut short."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:12]}...{text[-4:]} ({len(text)} characters)"


@dataclass(frozen=True)
class Section:
    """How a section of named entries reads: `NAME: {KEY: VALUE, ...}` under `name`."""

    name: str  # the section's key, e.g. "zones"
    holds: str  # what it holds, for a message: "zone: {holds: ...}"
    entry: str  # what one entry is: "zone" (its name must be lower_snake_case)
    keys: frozenset[str] = frozenset()  # the keys an entry's mapping may have
    settings: str = ""  # what an entry's mapping holds; "" leaves the value unchecked
    key_word: str = ""  # what an unknown key is called: "key of a zone"
    shorthand: str = ""  # the key a plain value stands for (`goal: 10`: its default)


class SectionReader:
    """Reads ruleset sections, reporting every problem it meets."""

    def __init__(self, data: Any, report: Reporter, folder: FsPath) -> None:
        self.data = data
        self.report = report
        self.folder = folder
        self.owner_vars: set[str] = set()  # player variables only their owner sees
        self.indexed: dict[str, tuple[Any, ...]] = {}  # indexed variables: name -> keys

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

    def bounded(self, raw: Any, path: Path) -> bool:
        """Whether every number in a value is within the bound (reported at `path` if not)."""
        big = _first_too_large(raw)
        if big is None:
            return True
        self.report(path, f"number too large: {_shown(big)} (at most {MAX_NUMBER:,} either "
                          "side of zero)")
        return False

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

    def block(self, raw: Any, path: Path, what: str, keys: set[str] | frozenset[str],
              key_word: str) -> dict[Any, Any]:
        """A section that is one mapping (`end:`, `turn:`...), its unknown keys reported."""
        spec = self.mapping(raw, path, what)
        check_keys(self.report, spec, set(keys), path, key_word)
        return spec

    def entries(self, raw: Any, section: Section, keys: set[str] | None = None,
                refuse: Callable[[str], str | None] | None = None
                ) -> Iterator[tuple[str, Any, Path]]:
        """The section skeleton: (name, value, path) for each well-named entry of a section.

        The section must be a mapping and each name lower_snake_case; `refuse` may turn a
        name away with a message (a name taken elsewhere). With `section.settings`, a value
        must be a mapping whose keys are among `keys` (default: the section's)."""
        for name, spec in self.mapping(raw, (section.name,), section.holds).items():
            path = (section.name, name)
            if not self.ident(name, path, section.entry):
                continue
            why = refuse(name) if refuse is not None else None
            if why:
                self.report(path, why)
                continue
            if section.shorthand and not isinstance(spec, dict):
                spec = {section.shorthand: spec}
            elif section.settings:
                spec = self.mapping(spec, path, section.settings)
            if section.key_word:
                check_keys(self.report, spec, set(section.keys if keys is None else keys),
                           path, section.key_word)
            yield name, spec, path
