"""Game state: plain data, serialisable, with a readable text form."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, cast

from .chance import Chance
from .expr import Ctx
from .indexed import copy_vars, restore_keys, shown_value
from .model import Rules
from .origins import PASSED_ON, rules_error
from .variants import shaped


class Item:
    """A die, card, tile or token: an id, a kind, and (for dice) the face showing."""

    __slots__ = ("face", "id", "kind")

    def __init__(self, id: str, kind: str, face: str | None = None) -> None:
        self.id = id
        self.kind = kind
        self.face = face

    def __repr__(self) -> str:
        return f"{self.id}:{self.face}" if self.face else self.id


@dataclass(frozen=True)
class Action:
    """A player's choice: who, which action, and its arguments (sorted name/value pairs)."""

    player: int
    id: str
    args: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        # A subset argument read back from a save or a scenario is a list: made a tuple, it
        # compares and hashes like the one the engine listed.
        if any(type(v) is list for _, v in self.args):
            object.__setattr__(self, "args", tuple(
                (k, tuple(v) if type(v) is list else v) for k, v in self.args))

    @cached_property
    def arg_map(self) -> dict[str, Any]:
        """The arguments as a mapping, made once (an action is handed out again and again,
        and a bot reads each option's): read it, don't change it."""
        return dict(self.args)

    def __str__(self) -> str:
        if not self.args:
            return self.id
        inner = ", ".join(f"{k}={v}" for k, v in self.args)
        return f"{self.id}({inner})"


@dataclass
class Event:
    """A past-tense record of something that happened (`rolled`, `moved`, `turn_ended`)."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


class GameState:
    """Everything about one game in progress; the engine changes it in place."""

    # Named once: every read of a game's state (the generated effects make many a move)
    # is then a slot, not a lookup in an instance dict grown past the shared-key size.
    # `__weakref__`: a view keeps what it worked out for a game beside it (views.py).
    __slots__ = (
        "__weakref__", "active", "attached", "chance", "ctx", "current", "empty_passes",
        "face_down",
        "final_turns", "game_over", "game_vars", "idle_turns", "item_ids", "items",
        "knocked", "last_round", "legal_cache", "log", "next_starter", "options", "out",
        "pending", "phase", "phase_ended", "phase_starter", "plain_actions",
        "player_vars", "players", "round", "round_first", "round_order", "round_pos",
        "rules", "seen_cache", "shown", "shuffled", "tiebreak", "tiebreak_rounds",
        "turn_vars", "turns", "version", "winners", "zones")

    def __init__(self, rules: Rules, players: list[str], options: dict[str, Any], seed: int,
                 chance: Chance | None = None) -> None:
        self.rules = rules
        self.players = list(players)
        self.options = dict(options)
        # A copy brings its own chance: seeding a generator only to replace it costs as
        # much as the rest of a state together.
        self.chance = Chance(seed) if chance is None else chance
        self.items: list[Item] = []
        # Each zone is a list of item indexes; a per-player zone has one list per seat.
        self.zones: dict[str, list[list[int]]] = {}
        # Copied so that an indexed value (a dict) is never shared with the rules; without
        # indexed values every value is plain, and a plain copy does.
        copied = copy_vars if rules.indexed else dict.copy
        self.game_vars: dict[str, Any] = copied(rules.game_vars)
        self.player_vars: list[dict[str, Any]] = [copied(rules.player_vars) for _ in players]
        self.turn_vars: dict[str, Any] = copied(rules.turn_vars)
        self.current: int = 0
        self.round = 0
        self.turns = 0
        self.round_order: list[int] = []
        self.round_pos = 0
        self.active: list[bool] = [True] * len(players)  # taking part in the game's rounds
        self.out: list[bool] = [False] * len(players)  # dropped out of this round
        # Knocked out of the game for good (`knock_out`): such a seat is never active again.
        self.knocked: list[bool] = [False] * len(players)
        # Rounds with phases: the phase being played ('' without phases), the seat the
        # round began with (a phase pass without `first` begins there), and an `end_phase`
        # waiting for the turn to end (with the seat it names to begin what comes next).
        self.phase = ""
        self.round_first = 0
        self.phase_ended = False
        self.phase_starter: int | None = None
        # Phase passes in a row with nobody left to play a turn: guards a runaway `again`.
        # Such passes run within one call, so this is never part of a snapshot.
        self.empty_passes = 0
        self.last_round = False
        self.tiebreak = False
        self.tiebreak_rounds = 0
        self.final_turns: int | None = None  # turns left after the end was triggered
        self.next_starter: int | None = None  # set by end_round: the round ends with this turn
        self.idle_turns = 0  # turns begun since the last action: guards a runaway ruleset
        self.game_over = False
        self.winners: list[int] = []
        self.log: list[Action] = []
        # Decisions the game waits on, innermost last (see engine/decide.py): plain data.
        self.pending: list[dict[str, Any]] = []
        # Items lying in a deck in unknown (shuffled) order: drawing one is a chance event.
        self.shuffled: set[int] = set()
        self.face_down: set[int] = set()  # items lying face down (see engine/facing.py)
        # Zones shown to everyone until the turn ends (see engine/effects_show.py).
        self.shown: set[str] = set()
        # Items attached to an item, by its index (see engine/attach.py); in no zone.
        self.attached: dict[int, list[int]] = {}
        self.item_ids: dict[str, int] = {}  # item id -> index in `items`; fixed at setup
        # Not part of the game, only speed: bumped by every apply, so the legal list of
        # the last legal_actions call can be trusted while it matches.
        self.version = 0
        self.ctx = Ctx(self, 0)  # reused by every apply and legal_actions: no allocation
        # (version, seat, its legal list, the decision frame it answers or None)
        self.legal_cache: tuple[int, int, list[Action], Any] | None = None
        # The game as one seat may know it (views.seen_state), kept while nothing changes.
        self.seen_cache: tuple[int, int | None, GameState] | None = None
        # Actions without arguments, made once per ruleset and number of seats: the legal
        # lists hand them out, and apply knows them by identity.
        plain = rules.memo.get(("plain", len(players)))
        if plain is None:
            plain = rules.memo[("plain", len(players))] = [
                {aid: Action(seat, aid) for aid in rules.actions}
                for seat in range(len(players))]
        self.plain_actions: list[dict[str, Action]] = plain

    def zone(self, name: str, seat: int) -> list[int]:
        """The item list of a zone; a per-player zone answers for `seat`."""
        lists = self.zones[name]
        return lists[seat] if len(lists) > 1 or self.rules.zones[name].per_player else lists[0]

    def in_round(self, seat: int) -> bool:
        """Whether a seat still plays in the current round."""
        return self.active[seat] and not self.out[seat]

    def score(self, seat: int) -> Any:
        """A player's score as the ruleset defines it."""
        try:
            return self.rules.score(Ctx(self, seat))
        except PASSED_ON:
            raise
        except Exception as exc:  # the ruleset's score expression failed: name its line
            raise rules_error(self.rules, exc, "working out a score") from exc

    # --- serialisation ---------------------------------------------------

    def to_dict(self, log: bool = True) -> dict[str, Any]:
        """A JSON-ready snapshot; `from_dict` with the same rules restores it exactly.
        Without the `log` (left empty), for whoever keeps the moves already: a snapshot at
        every move of a long game would otherwise copy the moves before it again and again."""
        return {
            "ruleset": self.rules.id,
            "version": self.rules.version,
            "players": self.players,
            "options": self.options,
            "chance": self.chance.to_dict(),
            "items": [[it.id, it.kind, it.face] for it in self.items],
            "zones": {k: [list(v) for v in lists] for k, lists in self.zones.items()},
            "game_vars": copy_vars(self.game_vars),
            "player_vars": [copy_vars(v) for v in self.player_vars],
            "turn_vars": copy_vars(self.turn_vars),
            "current": self.current,
            "round": self.round,
            "turns": self.turns,
            "round_order": list(self.round_order),
            "round_pos": self.round_pos,
            "active": list(self.active),
            "out": list(self.out),
            "last_round": self.last_round,
            "tiebreak": self.tiebreak,
            "tiebreak_rounds": self.tiebreak_rounds,
            "next_starter": self.next_starter,
            "final_turns": self.final_turns,
            "game_over": self.game_over,
            "winners": list(self.winners),
            "log": [[a.player, a.id, [list(p) for p in a.args]] for a in self.log] if log else [],
            "pending": copy.deepcopy(self.pending),
            "shuffled": sorted(self.shuffled),
            "face_down": sorted(self.face_down),
            "shown": sorted(self.shown),
            "attached": [[host, list(held)] for host, held in sorted(self.attached.items())],
            # Saved only when used, so a game without phases or knock-outs saves as before.
            **({"knocked": list(self.knocked)} if any(self.knocked) else {}),
            **({"phase": self.phase, "round_first": self.round_first,
                "phase_ended": self.phase_ended, "phase_starter": self.phase_starter}
               if self.rules.phases else {}),
        }

    @classmethod
    def from_dict(cls, rules: Rules, data: dict[str, Any]) -> GameState:
        """Rebuild a state saved by `to_dict` (ValueError if it was saved under other rules)."""
        if data.get("ruleset") != rules.id or data.get("version") != rules.version:
            raise ValueError(f"this game was saved with {data.get('ruleset')!r} version "
                             f"{data.get('version')!r}, not {rules.id!r} version {rules.version}")
        # The rules this game's options shaped (boards, teams), as new_game played them.
        state = cls(shaped(rules, data["options"]), data["players"], data["options"], 0)
        state.chance = Chance.from_dict(data["chance"])
        state.items = [Item(i, k, f) for i, k, f in data["items"]]
        state.item_ids = {it.id: n for n, it in enumerate(state.items)}
        state.shuffled = set(data.get("shuffled", []))
        state.face_down = set(data.get("face_down", []))
        state.shown = set(data.get("shown", []))
        state.attached = {int(host): list(held) for host, held in data.get("attached", [])}
        state.zones = {k: [list(v) for v in lists] for k, lists in data["zones"].items()}
        # Indexed values copied, their number keys made numbers again (JSON makes them text).
        indexed = rules.indexed
        state.game_vars = copy_vars(restore_keys(data["game_vars"], indexed))
        state.player_vars = [copy_vars(restore_keys(v, indexed)) for v in data["player_vars"]]
        state.turn_vars = copy_vars(restore_keys(data["turn_vars"], indexed))
        for key in ("current", "round", "turns", "round_pos", "last_round", "tiebreak",
                    "game_over"):
            setattr(state, key, data[key])
        state.tiebreak_rounds = int(data.get("tiebreak_rounds", 0))
        state.next_starter = data.get("next_starter")
        state.final_turns = data.get("final_turns")
        state.round_order = list(data["round_order"])
        state.active = list(data["active"])
        state.out = list(data["out"])
        state.winners = list(data["winners"])
        state.log = [Action(p, i, tuple((k, v) for k, v in a)) for p, i, a in data["log"]]
        state.pending = copy.deepcopy(data.get("pending", []))
        state.knocked = [bool(k) for k in data.get("knocked", state.knocked)]
        state.phase = str(data.get("phase", ""))
        state.round_first = int(data.get("round_first", 0))
        state.phase_ended = bool(data.get("phase_ended", False))
        state.phase_starter = data.get("phase_starter")
        return state

    def copy(self, items: list[Item] | None = None, chance: Chance | None = None
             ) -> GameState:
        """A game to play on apart from this one, as `from_dict(to_dict())` would give it
        but without the round trip: what play changes is copied (items too: a die's face
        turns in place), the rules are shared and the speed caches start afresh. `items`
        and `chance`, where given, are the copy's own instead (a world dealt afresh)."""
        other = GameState(self.rules, self.players, self.options, 0,
                          chance if chance is not None else self.chance.copy())
        if items is None:
            other.items = [Item(it.id, it.kind, it.face) for it in self.items]
            other.item_ids = dict(self.item_ids)
        else:
            other.items = items
            other.item_ids = {it.id: n for n, it in enumerate(items)}
        other.zones = {k: [list(v) for v in lists] for k, lists in self.zones.items()}
        other.game_vars = copy_vars(self.game_vars)
        other.player_vars = [copy_vars(v) for v in self.player_vars]
        other.turn_vars = copy_vars(self.turn_vars)
        for key in ("current", "round", "turns", "round_pos", "last_round", "tiebreak",
                    "game_over", "tiebreak_rounds", "next_starter", "final_turns", "phase",
                    "round_first", "phase_ended", "phase_starter", "empty_passes",
                    "idle_turns"):
            setattr(other, key, getattr(self, key))
        for key in ("round_order", "active", "out", "knocked", "winners", "log"):
            setattr(other, key, list(getattr(self, key)))
        other.pending = copy.deepcopy(self.pending)
        other.shuffled, other.face_down, other.shown = (
            set(self.shuffled), set(self.face_down), set(self.shown))
        other.attached = {host: list(held) for host, held in self.attached.items()}
        return other

    def restore(self, data: dict[str, Any]) -> None:
        """Put this state back to a `to_dict` snapshot, in place."""
        other = GameState.from_dict(self.rules, data)
        ctx, version = self.ctx, self.version
        other.take_into(self)
        self.ctx = ctx
        self.version = version + 1  # anything cached before the restore is stale
        self.legal_cache = None

    def take_into(self, other: GameState) -> None:
        """Set every field of `other` to this state's (the values shared, not copied)."""
        _take_into(self, other)

    def __str__(self) -> str:
        lines = [f"{self.rules.name} - round {self.round}, "
                 + ("game over" if self.game_over else f"{self.players[self.current]} to play")]
        for seat, name in enumerate(self.players):
            pv = ", ".join(f"{k}={shown_value(v, self.rules.player_vars.get(k))}"
                           for k, v in self.player_vars[seat].items())
            lines.append(f"  {name}: score {self.score(seat)} ({pv})")
        for zname, lists in self.zones.items():
            for owner, content in enumerate(lists):
                label = zname if len(lists) == 1 else f"{zname}[{self.players[owner]}]"
                lines.append(f"  {label}: {[self.items[i] for i in content]}")
        if self.turn_vars:
            lines.append("  turn: " + ", ".join(f"{k}={shown_value(v, self.rules.turn_vars.get(k))}"
                                                for k, v in self.turn_vars.items()))
        return "\n".join(lines)


# The fields a state holds (its slots, the weak reference aside): what `take_into` copies.
_FIELDS = tuple(name for name in GameState.__slots__ if name != "__weakref__")


def _field_copier() -> Callable[[GameState, GameState], None]:
    """`take_into` written out field by field: a seen state is made this way for every
    move a bot weighs, and one assignment a field costs least."""
    made: dict[str, Any] = {}
    # Generated from the class's own slot names only.
    exec("def take_into(self, other):\n" + "".join(f"    other.{name} = self.{name}\n"
                                                   for name in _FIELDS), made)
    return cast(Callable[[GameState, GameState], None], made["take_into"])


_take_into = _field_copier()
