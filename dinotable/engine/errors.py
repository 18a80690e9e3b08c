"""Errors the engine raises."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class EngineError(Exception):
    """Base class for every engine error."""


class IllegalAction(EngineError):
    """An action the rules do not allow now; raised before any state changes. `kind` says
    why in a word a program can test (see `engine.legality.REFUSALS`)."""

    def __init__(self, message: str, kind: str = "illegal") -> None:
        super().__init__(message)
        self.kind = kind


class ChanceError(EngineError):
    """A forced chance outcome that is impossible at the moment it is used."""


class ExpressionError(EngineError):
    """An expression that cannot be compiled; the message quotes it."""

    def __init__(self, expression: str, message: str, suggestion: str | None = None) -> None:
        self.expression = expression
        self.reason = message
        self.suggestion = suggestion
        text = f"in expression {expression!r}: {message}"
        if suggestion:
            text += f" (did you mean {suggestion!r}?)"
        super().__init__(text)


def suggest(word: str, choices: Iterable[str | int]) -> str | None:
    """The closest known name to a misspelt one, if any is close."""
    # A YAML key can be null or a number (`{&a}`, `3:`): compare its text.
    found = difflib.get_close_matches(str(word), sorted(map(str, choices)), n=1, cutoff=0.6)
    return found[0] if found else None
