"""The rules engine: pure game logic, no pygame, no pymunk.

A ruleset (built by `dinotable.ruleset`) is run by four functions:
`new_game`, `legal_actions`, `apply` and `view_for`.
"""

from . import items as _items  # noqa: F401  (registers item functions and deck effects)
from . import odds as _odds  # noqa: F401  (registers chance_of)
from .chance import Chance
from .errors import ChanceError, EngineError, ExpressionError, IllegalAction
from .game import (
    apply,
    leaders,
    legal_actions,
    new_game,
    resolve_options,
    scores,
    view_for,
    waiting_on,
    why_illegal,
)
from .model import Rules
from .state import Action, Event, GameState, Item

__all__ = [
    "Action", "Chance", "ChanceError", "EngineError", "Event", "ExpressionError", "GameState",
    "IllegalAction", "Item", "Rules", "apply", "leaders", "legal_actions", "new_game",
    "resolve_options", "scores", "view_for", "waiting_on", "why_illegal",
]
