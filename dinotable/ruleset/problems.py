"""Problems found in a ruleset or scenario file, each pinned to file:line:col."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Path = tuple[Any, ...]


def format_path(path: Path) -> str:
    """`('actions', 'roll', 'effects', 2)` -> `actions.roll.effects[2]`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top)"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file."""

    file: str
    line: int
    col: int
    path: str
    message: str

    def __str__(self) -> str:
        # One line per problem, whatever a message quotes (editors and tools read lines).
        message = " ".join(self.message.split("\n"))
        return f"{self.file}:{self.line}:{self.col}: {self.path}: {message}"


class LoadError(Exception):
    """A file could not be loaded; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class Reporter:
    """Collects problems, mapping data paths back to the YAML marks."""

    def __init__(self, file: str, marks: dict[Path, tuple[int, int]]) -> None:
        self.file = file
        self.marks = marks
        self.problems: list[Problem] = []
        # Entries made from another (the kinds of a generated family): the first two parts
        # of their path -> the path of the entry written in the file.
        self.written_as: dict[Path, Path] = {}

    def where(self, path: Path) -> tuple[int, int]:
        """Line and column of the closest node the path reaches."""
        for cut in range(len(path), -1, -1):
            mark = self.marks.get(tuple(path[:cut]))
            if mark is not None:
                return mark
        return (1, 1)

    def __call__(self, path: Path, message: str) -> None:
        written = self.written_as.get(tuple(path[:2])) if self.written_as else None
        if written is not None:
            # A problem of a generated entry is its family's: reported once, at its line.
            path = (*written, *path[2:])
        line, col = self.where(path)
        problem = Problem(self.file, line, col, format_path(path), message)
        if written is None or problem not in self.problems:
            self.problems.append(problem)

    def raise_if_any(self) -> None:
        """Raise LoadError when anything was reported."""
        if self.problems:
            raise LoadError(sorted(self.problems, key=lambda p: (p.line, p.col)))


def check_keys(report: Callable[[Path, str], None], raw: dict[Any, Any], known: set[str],
               path: Path, what: str) -> None:
    """Report every key of a mapping that is not one of `known`, with a suggestion."""
    from ..engine.effects import _unknown

    for key in raw:
        if key not in known:
            report((*path, key), _unknown(what, str(key), sorted(known)))
