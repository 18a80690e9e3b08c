"""The rules engine: pure game logic, no pygame, no pymunk.

A ruleset (built by `dinotable.ruleset`) is run by four functions:
`new_game`, `legal_actions`, `apply` and `view_for`.
"""

from . import boards as _boards  # noqa: F401  (registers board functions and effects)
from . import facing as _facing  # noqa: F401  (registers flip)
from . import items as _items  # noqa: F401  (registers item functions and deck effects)
from . import loops as _loops  # noqa: F401  (registers repeat and first_player)
from . import odds as _odds  # noqa: F401  (registers chance_of)
from . import patterns as _patterns  # noqa: F401  (registers dice pattern functions)
from . import picks as _picks  # noqa: F401  (registers first_in, first_where, count_kind)
from .chance import Chance
from .errors import ChanceError, EngineError, ExpressionError, IllegalAction
from .game import (
    apply,
    leaders,
    legal_actions,
    new_game,
    resolve_options,
    sample_action,
    scores,
    view_for,
    waiting_on,
    why_illegal,
)
from .model import Rules
from .positions import PlacementError, arrange
from .state import Action, Event, GameState, Item
from .undo import UndoInfo, undo_info, why_no_undo
from .undo import undo as take_back
from .views import can_see, redact

__all__ = [
    "Action", "Chance", "ChanceError", "EngineError", "Event", "ExpressionError", "GameState",
    "IllegalAction", "Item", "PlacementError", "Rules", "UndoInfo", "apply", "arrange", "can_see",
    "leaders", "legal_actions", "new_game", "redact", "resolve_options", "sample_action",
    "scores", "take_back", "undo_info", "view_for", "waiting_on", "why_illegal", "why_no_undo",
]
