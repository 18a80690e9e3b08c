"""Errors the engine raises."""

from __future__ import annotations


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
