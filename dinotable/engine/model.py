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


@dataclass(frozen=True)
class DieDef:
    """A kind of die and its named faces, in order."""

    name: str
    faces: tuple[str, ...]
    label: str = ""


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


@dataclass(frozen=True)
class ArgDef:
    """One argument of an action and the domain it is drawn from."""

    name: str
    domain: str
    values: Callable[[Ctx], list[Any]]
    is_player: bool = False


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
    by: str = "current"  # current | others | any
    help: str = ""


@dataclass(frozen=True)
class EndDef:
    """When the game ends and how the winner is found."""

    trigger: Compiled
    finish_round: bool = False
    ties: str = "shared"  # shared | leaders_replay
    tiebreak: Compiled | None = None


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
    hidden_information: bool = False
    state_paths: tuple[str, ...] = ()
    bot_hints: tuple[BotHint, ...] = ()
    legal: Callable[[Ctx, int, bool], list[Any]] = field(default=lambda c, s, cur: [],
                                                         repr=False, compare=False)
    data: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    source: str = ""
    layout: Any = field(default=None, repr=False, compare=False)  # the table's plan; see ruleset
    file: str = ""  # the rules file as problems name it, e.g. rulesets/x/rules.yaml
