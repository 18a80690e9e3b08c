"""The rules engine: pure game logic, no pygame, no pymunk.

A ruleset (built by `dinotable.ruleset`) is run by four functions: `new_game` (setup.py),
`legal_actions` (legality.py: who may act, and what), `apply` (flow.py: the action and the
turn flow it sets going) and `view_for` (views.py: what one seat may see).
"""

from . import attach as _attach  # noqa: F401  (registers attach and its functions)
from . import boards as _boards  # noqa: F401  (registers board functions and effects)
from . import effects_dice as _effects_dice  # noqa: F401  (registers roll, move_faces)
from . import effects_flow as _effects_flow  # noqa: F401  (registers end_turn, say, ...)
from . import effects_pay as _effects_pay  # noqa: F401  (registers pay, set_face)
from . import effects_show as _effects_show  # noqa: F401  (registers show)
from . import effects_vars as _effects_vars  # noqa: F401  (registers set, add)
from . import effects_zones as _effects_zones  # noqa: F401  (registers draw, move_all, move)
from . import facing as _facing  # noqa: F401  (registers flip)
from . import functions as _functions  # noqa: F401  (registers size, count, highest, ...)
from . import items as _items  # noqa: F401  (registers item functions and deck effects)
from . import iterables as _iterables  # noqa: F401  (registers numbers, faces, seats, sum)
from . import loops as _loops  # noqa: F401  (registers repeat and first_player)
from . import multisets as _multisets  # noqa: F401  (registers faces_of, matching, can_pay)
from . import odds as _odds  # noqa: F401  (registers chance_of)
from . import patterns as _patterns  # noqa: F401  (registers dice pattern functions)
from . import phrases as _phrases  # noqa: F401  (registers words, plural)
from . import picks as _picks  # noqa: F401  (registers first_in, first_where, count_kind)
from . import stacks as _stacks  # noqa: F401  (registers top_of, top, move_top, flip_top)
from .boards import space_owners
from .chance import Chance
from .decide import PASS
from .errors import ChanceError, EngineError, ExpressionError, IllegalAction
from .flow import apply, leaders, random_playout, scores
from .formulas import unchanging
from .indexed import shown_value
from .items import count_sets, set_members
from .legality import (
    Moves,
    Refusal,
    arg_values,
    is_subset,
    legal_actions,
    markable,
    moves,
    refusal,
    sample_action,
    waiting_on,
    why_illegal,
)
from .model import ActionDef, ArgDef, Rules
from .multisets import faces_dice, in_face_order
from .phrases import phrase_for, said_by
from .positions import PlacementError, arrange
from .preview import DiceTouched, dice_touched
from .setup import new_game, resolve_options
from .stacks import showing_tops
from .state import Action, Event, GameState, Item
from .undo import UndoInfo, undo_info, why_no_undo
from .undo import undo as take_back
from .variants import applies, for_new_game, option_applies
from .views import can_see, redact, seen_state, text_for, value_for, values_for, view_for

__all__ = [
    "PASS",
    "Action",
    "ActionDef",
    "ArgDef",
    "Chance",
    "ChanceError",
    "DiceTouched",
    "EngineError",
    "Event",
    "ExpressionError",
    "GameState",
    "IllegalAction",
    "Item",
    "Moves",
    "PlacementError",
    "Refusal",
    "Rules",
    "UndoInfo",
    "applies",
    "apply",
    "arg_values",
    "arrange",
    "can_see",
    "count_sets",
    "dice_touched",
    "faces_dice",
    "for_new_game",
    "in_face_order",
    "is_subset",
    "leaders",
    "legal_actions",
    "markable",
    "moves",
    "new_game",
    "option_applies",
    "phrase_for",
    "random_playout",
    "redact",
    "refusal",
    "resolve_options",
    "said_by",
    "sample_action",
    "scores",
    "seen_state",
    "set_members",
    "showing_tops",
    "shown_value",
    "space_owners",
    "take_back",
    "text_for",
    "unchanging",
    "undo_info",
    "value_for",
    "values_for",
    "view_for",
    "waiting_on",
    "why_illegal",
    "why_no_undo",
]
