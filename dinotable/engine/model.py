"""The compiled, frozen shape of a ruleset that the engine runs.

Only the ruleset loader builds these; the engine reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .expr import Compiled, Ctx

Effect = Callable[["Ctx"], bool]
"""A compiled effect; returns True when the turn (or round) ended and the rest must not run."""


@dataclass(frozen=True)
class OptionDef:
    """A table option chosen at setup (`goal`, a variant switch)."""

    name: str
    default: Any
    label: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] = ()
    # At some numbers of players: (default, choices) in place of the usual ones (five
    # players always play by night); see variants.py.
    by_players: dict[int, tuple[Any, tuple[Any, ...]]] = field(default_factory=dict)
    # Only matters while these other options have one of these values (a party game's
    # goal): setup offers it, and the table shows it, only then; see variants.py.
    applies_when: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    # Never offered at set-up nor shown at the table: a value only older saves (`replays:`),
    # scenarios and `--option` set, such as the edition of the rules a game was played under.
    hidden: bool = False


@dataclass(frozen=True)
class DieDef:
    """A kind of die and its named faces, in order."""

    name: str
    faces: tuple[Any, ...]  # face ids: names, or the numbers themselves
    label: str = ""
    values: tuple[int, ...] = ()  # each face's value, in parallel (integer faces: the number)


@dataclass(frozen=True)
class ZoneDef:
    """A place items sit: shared (one) or per player (one per seat), with its visibility."""

    name: str
    holds: str
    per_player: bool = False
    visible: str = "all"  # all | owner | none: who may see what the items are
    start: tuple[tuple[str, int], ...] = ()
    label: str = ""
    blind: bool = False  # a cup or bag: items in it show no face until drawn and rolled
    order: str = "pile"  # pile | deck: a deck is drawn from the top, shuffled lazily
    face: str = "up"  # up | down: whether items put here lie face up
    # Cards, tiles and tokens placed here at setup: (kind, count) pairs (`start: all` expanded).
    start_items: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class PropertyDef:
    """A property items may carry, its type and the value a kind that does not set it has."""

    name: str
    type: str  # number | text | list | table | effects
    default: Any = None


@dataclass(frozen=True)
class ItemKindDef:
    """A kind of card, tile or token: how many copies, its words, and its property values.

    `props` holds every declared property (defaults filled in); an `effects` property holds
    the compiled effect list written on the card.
    """

    name: str
    type: str  # card | tile | token
    copies: int = 1
    label: str = ""
    text: str = ""
    props: dict[str, Any] = field(default_factory=dict, compare=False)
    # Properties with a value for each copy (`{per_copy: [...]}`): name -> the values, first
    # copy first; `props` holds the first copy's, which is also what the kind reads.
    per_copy: dict[str, tuple[Any, ...]] = field(default_factory=dict, compare=False)
    family: str = ""  # the generated family (`for_each`) the kind comes from, if any


@dataclass(frozen=True)
class BoardDef:
    """A board of spaces (a grid of rows and columns, or a track of named spaces in a line);
    each space holds items, as the zone `NAME@SPACE`."""

    name: str
    spaces: tuple[str, ...]
    rows: int = 1
    cols: int = 0  # 0: a track, spaces in a line
    per_player: bool = False
    label: str = ""
    index: dict[str, int] = field(default_factory=dict, compare=False)
    # A board whose shape an option chooses: the option, and its value -> the spaces in play
    # (every space of every shape has its zone); see variants.py.
    shape_option: str = ""
    shapes: dict[Any, tuple[str, ...]] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class ArgDef:
    """One argument of an action and the domain it is drawn from."""

    name: str
    domain: str
    values: Callable[[Ctx], list[Any]]
    is_player: bool = False
    # For domains too large to list every time (subsets): a direct test of one value, and a
    # random value (None when nothing fits). Without them, the listed values are the test.
    contains: Callable[[Ctx, Any], bool] | None = None
    sample: Callable[[Ctx, Any], Any] | None = None
    # A space of a board each player has: the board, and whose it is (None: the acting
    # player's own), so a table can show the choice on the right player's board.
    board: str = ""
    owner: Callable[[Ctx], Any] | None = None
    line: int = 0  # where rules.yaml declares it (for a game nobody can go on with)


@dataclass(frozen=True)
class ActionDef:
    """A choice a player can make, when it is legal, and what it does."""

    id: str
    label: str
    key: str
    when: Compiled | None
    why_not: str
    args: tuple[ArgDef, ...]
    effects: Effect
    by: str = "current"  # current | others | any | window (only when asked) | answer
    help: str = ""
    windows: tuple[str, ...] = ()  # response windows in which it may be played when asked
    # Only under these options (Craft, not in a party game): never legal, and not shown as
    # a greyed button, in a game where it does not apply.
    applies_when: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    # The move in the ruleset's own words ("bid {words($count)} {$face}s"): a Template
    # filled in with the move's arguments, or None (then the arguments are named).
    says: Any = None


@dataclass(frozen=True)
class QuestionDef:
    """A `choose` form: a question an effect asks mid-list, answered with action `id`."""

    id: str
    args: tuple[ArgDef, ...]
    who: Compiled | None  # the seat that answers (None: the seat in scope)
    auto_single: bool  # an only possible answer is taken without asking
    then: int  # continuation run with the answer
    rest: int  # continuation run when nobody can answer (the list after the form)
    prompt: Any = None  # a Template, or None


@dataclass(frozen=True)
class WindowDef:
    """A response window: who is asked, in what order."""

    id: str
    ask: str = "others_then_me"  # others | others_then_me | everyone


@dataclass(frozen=True)
class PhaseDef:
    """A named phase of a round: its turns go by `mode`, each pass led by `first` (the
    round's first player when None), and it is played again while `again` holds."""

    name: str
    mode: str
    start: Effect
    end: Effect
    first: Compiled | None = None
    again: Compiled | None = None


@dataclass(frozen=True)
class EndDef:
    """When the game ends and how the winner is found."""

    trigger: Compiled
    finish_round: bool = False
    ties: str = "shared"  # shared | leaders_replay
    tiebreak: Compiled | None = None
    last_turns: bool = False  # everyone else gets one last turn after the trigger
    tiebreaks: tuple[Compiled, ...] = ()  # compared in order after the score; higher leads


@dataclass(frozen=True)
class BotHint:
    """A heuristic bot's preference: take `action` when `when` holds, choosing the arguments
    that score highest on `best`."""

    action: str
    when: Compiled | None = None
    best: Compiled | None = None


@dataclass(frozen=True)
class Rules:
    """A validated, compiled ruleset: everything the engine needs to run a game."""

    id: str
    name: str
    version: int
    min_players: int
    max_players: int
    options: dict[str, OptionDef]
    dice: dict[str, DieDef]
    zones: dict[str, ZoneDef]
    game_vars: dict[str, Any]
    player_vars: dict[str, Any]
    turn_vars: dict[str, Any]
    actions: dict[str, ActionDef]
    turn_start: Effect
    turn_end: Effect
    round_start: Effect
    round_end: Effect
    score: Compiled
    end: EndDef
    # each_once: every active player once, in seat order; until_ended: play passes to the
    # next player still in the round until an end_round effect ends it.
    round_mode: str = "each_once"
    # The round's phases in order (none: the round is one run of turns by `round_mode`).
    phases: tuple[PhaseDef, ...] = ()
    boards: dict[str, BoardDef] = field(default_factory=dict)
    large_domains: bool = False  # some argument is a subset: bots sample rather than list
    teams: int = 0  # seats in teams: seat s plays for team s % teams (0: no teams)
    teams_option: str = ""  # a true/false option that switches the teams on (see variants.py)
    hidden_information: bool = False
    state_paths: tuple[str, ...] = ()
    bot_hints: tuple[BotHint, ...] = ()
    legal: Callable[[Ctx, int], list[Any]] = field(default=lambda c, s: [],
                                                         repr=False, compare=False)
    data: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # What every game of these rules starts from, worked out once (by number of seats):
    # the items in their starting zones, the actions without arguments. Filled as used.
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    source: str = ""
    layout: Any = field(default=None, repr=False, compare=False)  # the table's plan; see ruleset
    # Decisions: continuations of effect lists suspended by a question or a response window
    # (a frame on the state names them by index, so a state stays plain data).
    continuations: tuple[Effect, ...] = field(default=(), repr=False, compare=False)
    questions: tuple[QuestionDef, ...] = field(default=(), repr=False, compare=False)
    windows: dict[str, WindowDef] = field(default_factory=dict, repr=False, compare=False)
    # Hidden information beyond zones: player variables only their owner sees, and whether
    # other players' scores are shown before the game is over (always | at_end).
    owner_vars: frozenset[str] = frozenset()
    reveal_scores: str = "always"
    # Options under which `at_end` holds (none: every game); other games show every score.
    reveal_when: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    items: dict[str, ItemKindDef] = field(default_factory=dict)
    properties: dict[str, PropertyDef] = field(default_factory=dict)
    file: str = ""  # the rules file as problems name it, e.g. rulesets/x/rules.yaml
    # Scenario state paths of the ruleset's own: (pattern, target) with CAPITAL placeholders
    # matching one part of a path (see paths.state_value).
    state_aliases: tuple[tuple[str, str], ...] = ()
    # Indexed variables (one value per key; see indexed.py): name -> its keys in order.
    indexed: dict[str, tuple[Any, ...]] = field(default_factory=dict, compare=False)
