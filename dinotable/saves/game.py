"""What a save holds: the seats, the game that replays from them, the format number, and
the words for a save that this build or this version of its ruleset cannot replay."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..engine import Action, GameState, IllegalAction, Rules, apply, new_game
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
        """The game as it stood when saved (LoadError if the rules no longer allow it;
        VersionChanged if that is because the rules changed since it was saved)."""
        rules = load_by_id(self.ruleset)
        check_version(self, rules)
        where = f"the saved {rules.name} game"
        try:
            state = new_game(rules, [s.name for s in self.seats], self.options, self.seed)
        except (ValueError, TypeError) as exc:
            raise LoadError([Problem(where, 1, 1, "(setup)", shorten(str(exc), 200))]) from None
        for n, (player, action_id, args) in enumerate(self.log):
            if state.game_over:
                raise move_refused(self, rules, n, "comes after the game ended")
            try:
                apply(state, Action(player, action_id, args), record=False)
            except IllegalAction as exc:
                raise move_refused(self, rules, n, f"cannot be replayed: "
                                                   f"{shorten(str(exc), 200)}") from None
            except (ValueError, TypeError, KeyError, IndexError) as exc:
                # The engine trusts its callers; a hand-made move it cannot even judge is
                # still just an unusable save.
                raise move_refused(self, rules, n, f"cannot be replayed "
                                                   f"({type(exc).__name__})") from None
        ending = end_refused(self, rules, state)
        if ending is not None:
            raise ending
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
    """The older versions of a ruleset whose saves it still replays (its `replays:` list,
    or the versions its `replays:` mapping names)."""
    raw = rules.data.get("replays") if isinstance(rules.data, dict) else None
    if not isinstance(raw, list | dict):
        return frozenset()
    return frozenset(v for v in raw if _is_int(v))


def replay_options(rules: Any, version: int) -> dict[str, Any]:
    """The option values a save of an older `version` replays and plays on with (`replays:
    {VERSION: {options: {...}}}`): the rules it was played under, where these rules keep
    them behind an option. Empty for these rules' own version and for a plain list."""
    raw = rules.data.get("replays") if isinstance(rules.data, dict) else None
    if version == rules.version or not isinstance(raw, dict):
        return {}
    spec = raw.get(version)
    chosen = spec.get("options") if isinstance(spec, dict) else None
    return dict(chosen) if isinstance(chosen, dict) else {}


def version_words(saved: int, name: str, current: int) -> str:
    """Why a save from another version of the rules cannot be replayed, in words."""
    return (f"saved with version {saved} of {name}'s rules; this is version {current}, "
            f"which does not replay it")


def check_version(game: SavedGame, rules: Rules) -> None:
    """VersionChanged unless the save is from these rules' version or one they replay."""
    if rules.version != game.version and game.version not in replayable_versions(rules):
        raise VersionChanged([Problem(f"the saved {rules.name} game", 1, 1, "version",
                                      version_words(game.version, rules.name, rules.version))])


def move_refused(game: SavedGame, rules: Rules, n: int, problem: str) -> LoadError:
    """Why move `n` (from 0) of a save cannot be replayed.

    A save from an older version the rules declare they replay was played under rules
    that may since have changed (one version number once covered several texts): a move
    they no longer allow is the version's doing, so it is refused as VersionChanged,
    naming both versions, and kept aside like any save of another version. A move of a
    save from these very rules that does not replay is a damaged save: `problem` says why.
    """
    where = f"the saved {rules.name} game"
    if game.version != rules.version:
        return VersionChanged([Problem(where, 1, 1, f"log[{n}]", (
            f"saved with version {game.version} of {rules.name}'s rules; move {n + 1} is not "
            f"allowed in version {rules.version}, so it cannot be replayed"))])
    return LoadError([Problem(where, 1, 1, f"log[{n}]", f"move {n + 1} {problem}")])


def end_refused(game: SavedGame, rules: Rules, state: GameState) -> LoadError | None:
    """For a finished save from an older version: VersionChanged when its moves, replayed
    under these rules, no longer end the game as its summary says it ended (so watching it
    would show another game). None when they do, or when there is nothing to compare."""
    summary = game.summary
    if game.version == rules.version or summary is None or not summary["over"]:
        return None
    now = summarise(game, state)
    if all(now[key] == summary[key] for key in ("over", "winners", "scores")):
        return None
    return VersionChanged([Problem(f"the saved {rules.name} game", 1, 1, "log", (
        f"saved with version {game.version} of {rules.name}'s rules; in version "
        f"{rules.version} its moves no longer end the game as it ended, so it cannot be "
        f"replayed"))])


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
