"""Saved games: the ruleset, the seats, the options, the seed and every action taken.

A save replays: the same seed and the same actions rebuild the same game, so a save is
small, readable, and can never hold a state the rules could not reach. The table writes
one after every action (`autosave.yaml` in the user data folder), so closing the window or
a power cut loses nothing; the title screen offers to continue it.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .engine import Action, GameState, IllegalAction, apply, new_game
from .paths import user_data_dir
from .ruleset import LoadError, Problem, load_by_id
from .ruleset.problems import Reporter
from .ruleset.yamlsafe import load_file

FORMAT = 1
SEAT_KINDS = ("human", "heuristic", "random")


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

    def replay(self) -> GameState:
        """The game as it stood when saved (LoadError if the rules no longer allow it)."""
        rules = load_by_id(self.ruleset)
        where = f"the saved {rules.name} game"
        if rules.version != self.version:
            raise LoadError([Problem(where, 1, 1, "version", f"saved with version "
                                     f"{self.version} of the rules; these are version "
                                     f"{rules.version}")])
        try:
            state = new_game(rules, [s.name for s in self.seats], self.options, self.seed)
        except ValueError as exc:
            raise LoadError([Problem(where, 1, 1, "(setup)", str(exc))]) from None
        for n, (player, action_id, args) in enumerate(self.log):
            try:
                apply(state, Action(player, action_id, args), record=False)
            except IllegalAction as exc:
                raise LoadError([Problem(where, 1, 1, f"log[{n}]",
                                         f"move {n + 1} cannot be replayed: {exc}")]) from None
        return state

    def describe(self) -> str:
        """One line for the title screen."""
        names = ", ".join(s.name for s in self.seats)
        return f"{len(self.log)} moves played, with {names}"


def autosave_path() -> Path:
    """Where the game in progress is kept."""
    return user_data_dir() / "autosave.yaml"


def to_data(game: SavedGame) -> dict[str, Any]:
    """The YAML-ready form of a saved game."""
    return {
        "format": FORMAT,
        "ruleset": game.ruleset,
        "version": game.version,
        "seats": [{"name": s.name, "kind": s.kind, "colour": s.colour} for s in game.seats],
        "options": dict(game.options),
        "seed": game.seed,
        "log": [[p, a, [list(kv) for kv in args]] for p, a, args in game.log],
    }


def write(game: SavedGame, path: Path | None = None) -> bool:
    """Write a save atomically (a half-written file never replaces a good one)."""
    path = path or autosave_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(yaml.safe_dump(to_data(game), sort_keys=False), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        return False  # a read-only disk must not stop the game
    return True


def read(path: Path | None = None) -> SavedGame:
    """Read and check a save; LoadError names the file, line and what was expected."""
    path = path or autosave_path()
    data, marks = load_file(path)
    report = Reporter(str(path), marks)
    if not isinstance(data, dict):
        report((), "expected a saved game: ruleset, version, seats, options, seed, log")
        report.raise_if_any()
    if data.get("format") != FORMAT:
        report(("format",), f"expected format {FORMAT}, found {data.get('format')!r}")
    for key, kind in (("ruleset", str), ("version", int), ("seed", int), ("seats", list),
                      ("options", dict), ("log", list)):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            report((key,), f"expected {kind.__name__} for {key!r}, found {data.get(key)!r}")
    report.raise_if_any()
    seats = []
    for i, raw in enumerate(data["seats"]):
        if (not isinstance(raw, dict) or not isinstance(raw.get("name"), str)
                or raw.get("kind") not in SEAT_KINDS or not isinstance(raw.get("colour"), int)):
            report(("seats", i), "expected {name: TEXT, kind: human|heuristic|random, "
                                 "colour: NUMBER}")
            continue
        seats.append(SavedSeat(raw["name"], raw["kind"], raw["colour"]))
    log = []
    for i, raw in enumerate(data["log"]):
        if (not isinstance(raw, list) or len(raw) != 3 or not isinstance(raw[0], int)
                or not isinstance(raw[1], str) or not isinstance(raw[2], list)
                or not all(isinstance(kv, list) and len(kv) == 2 for kv in raw[2])):
            report(("log", i), "expected [seat, action, [[argument, value], ...]]")
            continue
        log.append((raw[0], raw[1], tuple((str(k), v) for k, v in raw[2])))
    report.raise_if_any()
    return SavedGame(data["ruleset"], data["version"], seats, data["options"], data["seed"],
                     log)


def set_aside(path: Path | None = None) -> Path | None:
    """Move a save that cannot be opened out of the way, keeping it for a bug report."""
    path = path or autosave_path()
    broken = path.with_name(path.stem + ".unreadable" + path.suffix)
    try:
        os.replace(path, broken)
    except OSError:
        return None
    return broken


def discard(path: Path | None = None) -> None:
    """Forget the game in progress (it has ended)."""
    with contextlib.suppress(OSError):
        (path or autosave_path()).unlink()
