"""What a save holds: the seats, the game that replays from them, the format number, and
the words for a save that this build or this version of its ruleset cannot replay."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..engine import Action, GameState, IllegalAction, apply, new_game
from ..names import shorten
from ..ruleset import LoadError, Problem, load_by_id

FORMAT = 2
OLDEST_FORMAT = 1  # the oldest format this build still reads (and migrates)
SAVE_NAME_MAX = 40  # characters in a save's name


@dataclass
class SavedSeat:
    """A seat as saved: its player's name, who plays it, and its colour index."""

    name: str
    kind: str
    colour: int


@dataclass
class SavedGame:
    """A game that can be rebuilt by replaying it."""

    ruleset: str
    version: int
    seats: list[SavedSeat]
    options: dict[str, Any]
    seed: int
    log: list[tuple[int, str, tuple[tuple[str, Any], ...]]]
    # The bots' random source as it stood (random.Random.getstate()); None in older saves.
    bots_random: tuple[Any, ...] | None = field(default=None, compare=True)
    # Format 2: what the lists of saves show without replaying the game. None of these
    # change the game, so two saves of the same game compare equal whatever they hold.
    name: str = field(default="", compare=False)
    saved_at: str = field(default="", compare=False)  # local time, "2024-05-01 21:30"
    summary: dict[str, Any] | None = field(default=None, compare=False)
    format: int = field(default=FORMAT, compare=False)  # the format it was read from

    def replay(self) -> GameState:
        """The game as it stood when saved (LoadError if the rules no longer allow it)."""
        rules = load_by_id(self.ruleset)
        where = f"the saved {rules.name} game"
        if rules.version != self.version and self.version not in replayable_versions(rules):
            raise VersionChanged([Problem(where, 1, 1, "version", version_words(
                self.version, rules.name, rules.version))])
        try:
            state = new_game(rules, [s.name for s in self.seats], self.options, self.seed)
        except (ValueError, TypeError) as exc:
            raise LoadError([Problem(where, 1, 1, "(setup)", shorten(str(exc), 200))]) from None
        for n, (player, action_id, args) in enumerate(self.log):
            if state.game_over:
                raise LoadError([Problem(where, 1, 1, f"log[{n}]", f"move {n + 1} comes after "
                                         "the game ended")])
            try:
                apply(state, Action(player, action_id, args), record=False)
            except IllegalAction as exc:
                raise LoadError([Problem(where, 1, 1, f"log[{n}]", f"move {n + 1} cannot be "
                                         f"replayed: {shorten(str(exc), 200)}")]) from None
            except (ValueError, TypeError, KeyError, IndexError) as exc:
                # The engine trusts its callers; a hand-made move it cannot even judge is
                # still just an unusable save.
                raise LoadError([Problem(where, 1, 1, f"log[{n}]", f"move {n + 1} cannot be "
                                         f"replayed ({type(exc).__name__})")]) from None
        return state

    def bots_rng(self) -> random.Random:
        """The bots' random source, where it stood when the game was saved."""
        rng = random.Random(self.seed ^ 0xB07)  # how a table seeds it (older saves)
        if self.bots_random is not None:
            rng.setstate(self.bots_random)
        return rng

    def describe(self, state: GameState | None = None) -> str:
        """One line for the title screen: "Round 5 — Ann 12, Ben 9, with Ann and Ben".

        `state` is the game as replayed; without it the save is replayed here (cheap). A save
        that cannot be replayed is still described, by its seats and how many moves it has.
        """
        names = [s.name for s in self.seats]
        together = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        if state is None:
            try:
                state = self.replay()
            except LoadError:
                state = None
        if state is None or len(state.players) != len(names):
            return f"{len(self.log)} moves played, with {together}"
        scores = ", ".join(f"{name} {_number(state.score(seat))}"
                           for seat, name in enumerate(names))
        return f"Round {state.round} — {scores}, with {together}"


class VersionChanged(LoadError):
    """A save from a version of its ruleset that this version does not declare it replays."""


class NewerFormat(LoadError):
    """A save written by a newer dinotable, in a format this build cannot read."""


def replayable_versions(rules: Any) -> frozenset[int]:
    """The older versions of a ruleset whose saves it still replays (its `replays:` list)."""
    raw = rules.data.get("replays") if isinstance(rules.data, dict) else None
    if not isinstance(raw, list):
        return frozenset()
    return frozenset(v for v in raw if _is_int(v))


def version_words(saved: int, name: str, current: int) -> str:
    """Why a save from another version of the rules cannot be replayed, in words."""
    return (f"saved with version {saved} of {name}'s rules; this is version {current}, "
            f"which does not replay it")


def summarise(game: SavedGame, state: GameState) -> dict[str, Any]:
    """What a list of saves shows of a game (kept in the file so listing replays nothing)."""
    return {"game": state.rules.name, "round": state.round, "moves": len(game.log),
            "scores": [_plain_score(state.score(seat)) for seat in range(len(state.players))],
            "over": bool(state.game_over),
            "winners": list(state.winners) if state.game_over else []}


def _plain_score(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value) if float(value).is_integer() else float(value)


def _number(value: float) -> str:
    """A score as people write it: 12, not 12.0."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
