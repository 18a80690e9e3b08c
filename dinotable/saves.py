"""Saved games: the ruleset, the seats, the options, the seed and every action taken.

A save replays: the same seed and the same actions rebuild the same game, so a save is
small, readable, and can never hold a state the rules could not reach. The table writes
one after every action (`autosave.yaml` in the user data folder), so closing the window or
a power cut loses nothing; the title screen offers to continue it.

Every save the app reads goes through `read` (and `load`, which also replays it): limits on
size, nesting and numbers come before the YAML parser sees the text, then every field is
checked for type and range. Anything wrong is one `LoadError`; nothing else escapes.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .engine import Action, GameState, IllegalAction, apply, new_game
from .names import NAME_MAX, clean_name, name_problem, shorten
from .paths import user_data_dir
from .ruleset import LoadError, Problem, installed_rulesets, load_by_id
from .ruleset.problems import Reporter
from .ruleset.yamlsafe import load_text

FORMAT = 1
SEAT_KINDS = ("human", "heuristic", "random")
PALETTE_SIZE = 6  # len(theme.PLAYER_COLOURS); kept here so saves never import pygame
MAX_SEATS = 8
MAX_BYTES = 512 * 1024  # a 5,000-move game is under 200 KB
MAX_NESTING = 16  # a save nests four deep; YAML's C parser overflows the stack near 100,000
MAX_DIGITS = 40  # a seed fits in 19; Python refuses to read numbers past 4,300 digits
MAX_MOVES = 20_000
SEED_MAX = 2**63
KEEP_FINISHED = 20
__all__ = ["NAME_MAX", "SavedGame", "SavedSeat", "archive", "clean_name", "load",
           "name_problem", "read", "set_aside", "shorten", "try_write", "write"]
RULESET_ID = re.compile(r"[a-z0-9_]{1,40}")
_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_INT_TAG = "tag:yaml.org,2002:int"


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


def _number(value: float) -> str:
    """A score as people write it: 12, not 12.0."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def autosave_path() -> Path:
    """Where the game in progress is kept."""
    return user_data_dir() / "autosave.yaml"


def finished_dir() -> Path:
    """Where finished games are archived (the last KEEP_FINISHED of them)."""
    return user_data_dir() / "finished"


def to_data(game: SavedGame) -> dict[str, Any]:
    """The YAML-ready form of a saved game."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": game.ruleset,
        "version": game.version,
        "seats": [{"name": s.name, "kind": s.kind, "colour": s.colour} for s in game.seats],
        "options": dict(game.options),
        "seed": game.seed,
        # A subset argument (a tuple of ids) is written as a YAML list.
        "log": [[p, a, [[k, list(v) if isinstance(v, tuple) else v] for k, v in args]]
                for p, a, args in game.log],
    }
    if game.bots_random is not None:
        version, words, gauss = game.bots_random
        data["bots_random"] = {"version": version, "state": list(words), "gauss": gauss}
    return data


# --- writing -----------------------------------------------------------------------


def _tmp_of(path: Path) -> Path:
    return path.with_suffix(".tmp")


def try_write(game: SavedGame, path: Path | None = None) -> str | None:
    """Write a save durably; None when done, else why not, in words.

    The text goes to a temporary file that is flushed and synced before it is renamed over
    the slot, and the folder is synced after: a crash or a power cut leaves the old save or
    the new one, never half of one.
    """
    path = path or autosave_path()
    tmp = _tmp_of(path)
    # Flow style for the innermost lists: a move, or the random source, takes one line.
    text = yaml.safe_dump(to_data(game), sort_keys=False, allow_unicode=True,
                          default_flow_style=None)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        _sync_folder(path.parent)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return f"{path}: {exc.strerror or exc}"
    return None


def write(game: SavedGame, path: Path | None = None) -> bool:
    """Write a save (see try_write); False when it could not be written."""
    return try_write(game, path) is None


def _sync_folder(folder: Path) -> None:
    # The rename is only durable once the folder's entry is on disk; Windows cannot open a
    # folder this way, and there the rename is already journalled.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale(folder: Path | None = None) -> list[Path]:
    """Delete temporary files a killed save left behind; returns what was removed."""
    folder = folder or user_data_dir()
    removed = []
    for tmp in (_tmp_of(autosave_path()).name, "settings.json.tmp"):
        candidate = folder / tmp
        with contextlib.suppress(OSError):
            if candidate.is_file():
                candidate.unlink()
                removed.append(candidate)
    return removed


# --- reading -----------------------------------------------------------------------


def _fail(name: str, line: int, col: int, where: str, message: str) -> LoadError:
    return LoadError([Problem(name, line, col, where, message)])


def _read_text(path: Path) -> str:
    """The file's text, within the size limit, as UTF-8."""
    name = str(path)
    try:
        if not path.is_file():
            raise _fail(name, 1, 1, "(file)", "is not a file")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise _fail(name, 1, 1, "(file)", f"is {size} bytes; a save is at most "
                                              f"{MAX_BYTES}")
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _fail(name, 1, 1, "(file)", f"cannot be read: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise _fail(name, 1, 1, "(file)", f"is more than {MAX_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(name, 1, 1, "(file)", f"is not UTF-8 text (byte {exc.start + 1})") from None


def _prescan(text: str, name: str) -> None:
    """Refuse deep nesting and huge numbers before anything builds values from the text.

    libyaml's parser walks the text without recursion, so counting its events is safe
    where composing a 100,000-deep document would overflow the stack.
    """
    resolver: Any = yaml.resolver.Resolver()
    depth = 0

    def at(event: Any) -> tuple[int, int]:
        mark = event.start_mark
        return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)

    try:
        for event in yaml.parse(text, Loader=_YAML_LOADER):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_NESTING:
                    raise _fail(name, *at(event), "(file)",
                                f"nested deeper than {MAX_NESTING} levels")
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
            elif (isinstance(event, yaml.ScalarEvent) and len(event.value) > MAX_DIGITS
                  and event.implicit[0]
                  and resolver.resolve(yaml.ScalarNode, event.value, (True, False))
                  == _INT_TAG):
                raise _fail(name, *at(event), "(file)",
                            f"a number of {len(event.value)} characters; at most "
                            f"{MAX_DIGITS} are read")
    except yaml.YAMLError as exc:
        # Newer libyaml stops very deep nesting itself: the same problem, in the same words.
        if "nesting depth" in str(exc):
            mark = getattr(exc, "problem_mark", None)
            line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            raise _fail(name, line, col, "(file)",
                        f"nested deeper than {MAX_NESTING} levels") from None
        return  # the loader below reports it, with its line and column


def read(path: Path | None = None) -> SavedGame:
    """Read and check a save; LoadError names the file, line and what is wrong."""
    path = path or autosave_path()
    name = str(path)
    text = _read_text(path)
    _prescan(text, name)
    try:
        data, marks = load_text(text, name)
    except (ValueError, RecursionError, OverflowError) as exc:
        # The limits above should stop these first; a parser surprise is still a bad file.
        raise _fail(name, 1, 1, "(yaml)", f"not a readable save ({type(exc).__name__})"
                    ) from None
    return _check(data, Reporter(name, marks))


def load(path: Path | None = None) -> tuple[SavedGame, GameState]:
    """Read, check and replay a save: the game and the state it rebuilds (or LoadError)."""
    game = read(path)
    return game, game.replay()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(data: Any, report: Reporter) -> SavedGame:
    """Every field of a parsed save, checked for type and range."""
    if not isinstance(data, dict):
        report((), "expected a saved game: ruleset, version, seats, options, seed, log")
        report.raise_if_any()
    known = {"format", "ruleset", "version", "seats", "options", "seed", "log", "bots_random"}
    for key in data:
        if key not in known:
            report((shorten(key),) if isinstance(key, str) else (), f"unknown entry "
                   f"{shorten(repr(key))}; a save has {', '.join(sorted(known))}")
    if data.get("format") != FORMAT:
        report(("format",), f"expected format {FORMAT}, found {shorten(repr(data.get('format')))}")
    for key, kind in (("ruleset", str), ("version", int), ("seed", int), ("seats", list),
                      ("options", dict), ("log", list)):
        value = data.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            report((key,), f"expected {kind.__name__} for {key!r}, found {shorten(repr(value))}")
    report.raise_if_any()
    _check_ruleset(data["ruleset"], report)
    rules_ok = not report.problems
    if not 0 <= data["seed"] < SEED_MAX:
        report(("seed",), f"expected a seed from 0 to 2**63, found {shorten(str(data['seed']))}")
    seats = _check_seats(data["seats"], report)
    options = _check_options(data["options"], data["ruleset"] if rules_ok else None, report)
    log = _check_log(data["log"], len(seats), report)
    bots_random = _check_random(data.get("bots_random"), report)
    report.raise_if_any()
    return SavedGame(data["ruleset"], data["version"], seats, options, data["seed"], log,
                     bots_random)


def _check_ruleset(value: str, report: Reporter) -> None:
    # An id, never a path: a save must not make the app load rules from anywhere else.
    if not RULESET_ID.fullmatch(value):
        report(("ruleset",), f"expected a ruleset id (lower-case letters, digits, _), found "
                             f"{shorten(repr(value))}")
    elif value not in {p.name for p in installed_rulesets()}:
        report(("ruleset",), f"no installed ruleset {value!r}")


def _check_seats(raw_seats: list[Any], report: Reporter) -> list[SavedSeat]:
    seats: list[SavedSeat] = []
    if not 1 <= len(raw_seats) <= MAX_SEATS:
        report(("seats",), f"expected 1 to {MAX_SEATS} seats, found {len(raw_seats)}")
        return seats
    names: set[str] = set()
    colours: set[int] = set()
    for i, raw in enumerate(raw_seats):
        if not isinstance(raw, dict) or set(raw) != {"name", "kind", "colour"}:
            report(("seats", i), "expected {name: TEXT, kind: human|heuristic|random, "
                                 "colour: NUMBER}")
            continue
        name, kind, colour = raw["name"], raw["kind"], raw["colour"]
        problem = name_problem(name)
        if problem:
            report(("seats", i, "name"), problem)
        elif name.lower() in names:
            report(("seats", i, "name"), f"two seats are called {name!r}")
        if kind not in SEAT_KINDS:
            report(("seats", i, "kind"), f"expected one of {', '.join(SEAT_KINDS)}, found "
                                         f"{shorten(repr(kind))}")
        if not _is_int(colour) or not 0 <= colour < PALETTE_SIZE:
            report(("seats", i, "colour"), f"expected a colour from 0 to {PALETTE_SIZE - 1}, "
                                           f"found {shorten(repr(colour))}")
        elif colour in colours:
            report(("seats", i, "colour"), f"two seats have colour {colour}")
        if not problem and kind in SEAT_KINDS and _is_int(colour):
            names.add(name.lower())
            colours.add(colour)
            seats.append(SavedSeat(name, kind, colour))
    return seats


def _check_options(raw: dict[Any, Any], rules_id: str | None, report: Reporter
                   ) -> dict[str, Any]:
    try:
        rules = load_by_id(rules_id) if rules_id is not None else None
    except LoadError:
        report(("ruleset",), f"the installed ruleset {rules_id!r} does not load")
        return {}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if not isinstance(key, str):
            report(("options",), f"an option name is text, not {shorten(repr(key))}")
            continue
        if rules is None:
            continue
        o = rules.options.get(key)
        if o is None:
            known = ", ".join(rules.options) or "none"
            report(("options", shorten(key)), f"{rules.id} has no option {shorten(repr(key))}; "
                                     f"it has: {known}")
            continue
        if o.choices:
            ok = value in o.choices and type(value) is type(o.default)
        elif isinstance(o.default, bool):
            ok = isinstance(value, bool)
        elif isinstance(o.default, int):
            ok = (_is_int(value) and (o.minimum is None or value >= o.minimum)
                  and (o.maximum is None or value <= o.maximum))
        else:
            ok = type(value) is type(o.default)
        if not ok:
            report(("options", key), f"{shorten(repr(value))} is not a legal value for "
                                     f"{key}")
            continue
        out[key] = value
    return out


_ARG_TYPES = (str, int, bool, float, type(None))


def _check_log(raw_log: list[Any], seats: int, report: Reporter
               ) -> list[tuple[int, str, tuple[tuple[str, Any], ...]]]:
    log: list[tuple[int, str, tuple[tuple[str, Any], ...]]] = []
    if len(raw_log) > MAX_MOVES:
        report(("log",), f"{len(raw_log)} moves; a save holds at most {MAX_MOVES}")
        return log
    for i, raw in enumerate(raw_log):
        if (not isinstance(raw, list) or len(raw) != 3 or not _is_int(raw[0])
                or not isinstance(raw[1], str) or not isinstance(raw[2], list)
                or not all(isinstance(kv, list) and len(kv) == 2 and isinstance(kv[0], str)
                           and _arg_value_ok(kv[1]) for kv in raw[2])):
            report(("log", i), "expected [seat, action, [[argument, value], ...]]")
            continue
        if seats and not 0 <= raw[0] < seats:
            report(("log", i), f"seat {shorten(str(raw[0]))} is not at the table")
            continue
        log.append((raw[0], raw[1], tuple(
            (k, tuple(v) if isinstance(v, list) else v) for k, v in raw[2])))
    return log


def _arg_value_ok(value: Any) -> bool:
    """A plain value, or a short list of them (a subset of items chosen)."""
    if isinstance(value, list):
        return len(value) <= 100 and all(isinstance(v, _ARG_TYPES) for v in value)
    return isinstance(value, _ARG_TYPES)


def _check_random(raw: Any, report: Reporter) -> tuple[Any, ...] | None:
    if raw is None:
        return None  # saved before the bots' random source was kept
    where = ("bots_random",)
    if not isinstance(raw, dict) or set(raw) != {"version", "state", "gauss"}:
        report(where, "expected {version, state, gauss}")
        return None
    words, gauss = raw["state"], raw["gauss"]
    if (not isinstance(words, list) or len(words) != 625
            or not all(_is_int(w) and 0 <= w < 2**32 for w in words[:624])
            or not _is_int(words[-1]) or not 1 <= words[-1] <= 624
            or not (gauss is None or isinstance(gauss, float))):
        report(where, "not a random source this version can restore")
        return None
    state = (raw["version"], tuple(words), gauss)
    try:
        random.Random().setstate(state)
    except (ValueError, TypeError, OverflowError):
        report(where, "not a random source this version can restore")
        return None
    return state


# --- files that cannot be opened, and games that are over ----------------------------


def set_aside(path: Path | None = None) -> Path | None:
    """Move a save that cannot be opened out of the way, byte for byte, for a bug report.

    Each goes to a name no earlier one has: autosave.unreadable.yaml, then
    autosave.unreadable-2.yaml, and so on. None if it could not be moved.
    """
    path = path or autosave_path()
    for n in range(1, 1000):
        tail = "" if n == 1 else f"-{n}"
        kept = path.with_name(f"{path.stem}.unreadable{tail}{path.suffix}")
        if kept.exists() or kept.is_symlink():
            continue
        try:
            # A hard link cannot replace a file that appeared meanwhile; where links are
            # not supported (FAT sticks), rename after the check above.
            try:
                os.link(path, kept)
                path.unlink()
            except FileExistsError:
                continue
            except OSError:
                os.rename(path, kept)
        except OSError:
            return None
        return kept
    return None


def archive(path: Path | None = None) -> Path | None:
    """Move a finished game's save into finished/, keeping the last KEEP_FINISHED."""
    path = path or autosave_path()
    folder = finished_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Names sort in the order the games ended: the oldest go first when trimming.
        n = 1
        while (target := folder / f"{stamp}-{n:03d}.yaml").exists():
            n += 1
        os.replace(path, target)
    except OSError:
        discard(path)  # never offer a finished game as one to continue
        return None
    with contextlib.suppress(OSError):
        kept = sorted(folder.glob("*.yaml"))
        for old in kept[:-KEEP_FINISHED]:
            old.unlink()
    return target


def discard(path: Path | None = None) -> None:
    """Forget the game in progress."""
    with contextlib.suppress(OSError):
        (path or autosave_path()).unlink()
