"""Reading a user's file within bounds: a regular file only, a size cap, and for YAML a
nesting-depth cap and a number-length cap checked before anything builds values.

Every file the app reads (rulesets, scenarios, saves, settings, a rules text) comes through
`read_text`: a device (/dev/zero), a pipe (which would block forever) or a folder is refused
before it is opened, and no file is read past its cap. YAML text then goes through
`prescan`, which walks the parser's events without recursion, so a document nested a
million deep is refused at its line instead of overflowing the stack when composed.

Nothing here imports the rules engine (the title's first frame reads rulesets' heads).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
MAX_DEPTH = 64  # a ruleset nests about a dozen deep
MAX_DIGITS = 40  # a number's characters: a seed fits in 19, any ruleset number in far fewer


class Refused(Exception):
    """A file that is not read: where (line, column) and why, in words."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


def read_bytes(path: Path | str, cap: int, what: str = "a file") -> bytes:
    """A regular file's bytes, at most `cap` of them (Refused otherwise)."""
    try:
        info = os.stat(path)  # follows a link: what matters is what it points at
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"is not a regular file ({_kind(info.st_mode)}); expected {what}")
        if info.st_size > cap:
            raise Refused(f"is {info.st_size} bytes; {what} is at most {cap}")
        with open(path, "rb") as f:
            raw = f.read(cap + 1)
    except OSError as exc:
        raise Refused(f"cannot be read: {exc.strerror or exc}") from None
    if len(raw) > cap:  # grew since it was measured
        raise Refused(f"is more than {cap} bytes; {what} is at most {cap}")
    return raw


def read_text(path: Path | str, cap: int, what: str = "a file") -> str:
    """A regular file's UTF-8 text, at most `cap` bytes (Refused otherwise)."""
    raw = read_bytes(path, cap, what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(f"not UTF-8 text ({exc.reason} at byte {exc.start + 1})") from None


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def prescan(text: str, max_depth: int = MAX_DEPTH, max_digits: int | None = MAX_DIGITS
            ) -> None:
    """Refuse nesting deeper than `max_depth` and numbers longer than `max_digits`
    characters (Refused, at the line), before any value is built from the text. With
    `max_digits` None numbers are left to the reader that knows where each one stands.

    Text that is not valid YAML passes: the loader that follows reports it in its words.
    """
    import yaml  # here, not at the top: the title's first frame reads files without it

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    resolver: Any = yaml.resolver.Resolver()
    depth = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > max_depth:
                    raise Refused(f"nested deeper than {max_depth} levels", *_at(event))
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
            elif (max_digits is not None and isinstance(event, yaml.ScalarEvent)
                  and len(event.value) > max_digits
                  and event.implicit[0]
                  and resolver.resolve(yaml.ScalarNode, event.value, (True, False))
                  in _NUMBER_TAGS):
                raise Refused(f"a number of {len(event.value)} characters; at most "
                              f"{max_digits} are read", *_at(event))
    except yaml.YAMLError as exc:
        # Newer libyaml stops very deep nesting itself: the same problem, in the same words.
        if "nesting depth" in str(exc):
            mark = getattr(exc, "problem_mark", None)
            line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            raise Refused(f"nested deeper than {max_depth} levels", line, col) from None


def _at(event: Any) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
