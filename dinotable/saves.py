"""Saved games: the ruleset, the seats, the options, the seed and every action taken.

A save replays: the same seed and the same actions rebuild the same game, so a save is
small, readable, and can never hold a state the rules could not reach. The table writes
one after every action (`autosave.yaml` in the user data folder), so closing the window or
a power cut loses nothing; the title screen offers to continue it.

Every save the app reads goes through `read` (and `load`, which also replays it): limits on
size, nesting and numbers come before the YAML parser sees the text, then every field is
checked for type and range. Anything wrong is one `LoadError`; nothing else escapes.

Format 2 (this build) adds, beside format 1's fields, the save's name, when it was written
and a summary (round, scores) for the lists of saves; a format-1 file still loads, and the
next write of it is format 2. A file of a newer format is refused (`NewerFormat`), and a
save from another version of its ruleset replays only where the ruleset declares it
(`replays:` in rules.yaml), else it is refused in words naming both versions.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .engine import Action, GameState, IllegalAction, apply, new_game
from .names import NAME_MAX, allowed_in_name, clean_name, name_problem, shorten
from .paths import user_data_dir
from .ruleset import LoadError, Problem, installed_rulesets, load_by_id
from .ruleset.problems import Reporter
from .ruleset.yamlsafe import load_text

FORMAT = 2
OLDEST_FORMAT = 1  # the oldest format this build still reads (and migrates)
SEAT_KINDS = ("human", "heuristic", "random")
PALETTE_SIZE = 6  # len(theme.PLAYER_COLOURS); kept here so saves never import pygame
MAX_SEATS = 8
MAX_BYTES = 512 * 1024  # a 5,000-move game is under 200 KB
SAVE_NAME_MAX = 40  # characters in a save's name
MAX_NESTING = 16  # a save nests four deep; YAML's C parser overflows the stack near 100,000
MAX_DIGITS = 40  # a seed fits in 19; Python refuses to read numbers past 4,300 digits
MAX_MOVES = 20_000
SEED_MAX = 2**63
KEEP_FINISHED = 20
__all__ = ["NAME_MAX", "NewerFormat", "SaveEntry", "SavedGame", "SavedSeat", "VersionChanged",
           "archive", "clean_name", "delete", "list_finished", "list_saves", "load",
           "name_problem", "newest_autosave", "read", "save_as", "set_aside", "shorten",
           "try_write", "write"]
RULESET_ID = re.compile(r"[a-z0-9_]{1,40}")
_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
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


def autosave_path() -> Path:
    """Where the game in progress is kept."""
    return user_data_dir() / "autosave.yaml"


SAVES_FOLDER = "saves"
FINISHED_FOLDER = "finished"


def finished_dir() -> Path:
    """Where finished games are archived (the last KEEP_FINISHED of them)."""
    return user_data_dir() / FINISHED_FOLDER


def saves_dir() -> Path:
    """Where games saved by name ("Save as...") are kept."""
    return user_data_dir() / SAVES_FOLDER


def to_data(game: SavedGame) -> dict[str, Any]:
    """The YAML-ready form of a saved game."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": game.ruleset,
        "version": game.version,
        "saved_at": game.saved_at or _now(),
        "seats": [{"name": s.name, "kind": s.kind, "colour": s.colour} for s in game.seats],
        "options": dict(game.options),
        "seed": game.seed,
        # A subset argument (a tuple of ids) is written as a YAML list.
        "log": [[p, a, [[k, list(v) if isinstance(v, tuple) else v] for k, v in args]]
                for p, a, args in game.log],
    }
    if game.name:
        data["name"] = game.name
    if game.summary is not None:
        data["summary"] = game.summary
    if game.bots_random is not None:
        version, words, gauss = game.bots_random
        data["bots_random"] = {"version": version, "state": list(words), "gauss": gauss}
    return data


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


# The text of a save is built by hand, not by the YAML emitter: PyYAML's representer takes
# ~50 ms for a 950-move game (20 ms with libyaml), which was most of an autosave's time.
# A move is written as a flow list whose scalars are JSON-quoted (JSON strings and numbers
# are YAML), and each distinct move's line is made once: games repeat a few moves.
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESOLVER: Any = yaml.resolver.Resolver()
_STR_TAG = "tag:yaml.org,2002:str"
_PLAIN = re.compile(r"[A-Za-z0-9_ .,:;!?'()+*/=<>@#%&$~^|-]*")


@lru_cache(maxsize=4096)
def _scalar(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and _WORD.fullmatch(value) and _RESOLVER.resolve(
            yaml.ScalarNode, value, (True, False)) == _STR_TAG:
        return value  # an id such as roll or die2 reads as it is
    if isinstance(value, str) and _PLAIN.fullmatch(value):
        return json.dumps(value)
    # Anything else (floats, non-ASCII text) through the emitter itself, which knows which
    # characters YAML lets stand and which it must escape.
    # Dumped inside a list, so the scalar is written as it may stand in a flow list.
    text: str = yaml.dump([value], Dumper=_DUMPER, allow_unicode=True,
                          default_flow_style=True, width=10**6).strip()
    return text[1:-1]


@lru_cache(maxsize=8192)
def _move_line(move: tuple[int, str, tuple[tuple[str, Any], ...]]) -> str:
    player, action, args = move
    parts = []
    for key, value in args:
        shown = ("[" + ", ".join(_scalar(v) for v in value) + "]"
                 if isinstance(value, tuple | list) else _scalar(value))
        parts.append(f"[{_scalar(key)}, {shown}]")
    return f"- [{player}, {_scalar(action)}, [{', '.join(parts)}]]\n"


def to_text(game: SavedGame) -> str:
    """The save as YAML text (what `read` reads back as the same game)."""
    data = to_data(game)
    log = data.pop("log")
    bots = data.pop("bots_random", None)
    head: str = yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True,
                          default_flow_style=None)
    out = [head, "log:\n" if log else "log: []\n"]
    out.extend(_move_line((p, a, tuple((k, tuple(v) if isinstance(v, list) else v)
                                       for k, v in args))) for p, a, args in game.log)
    if bots is not None:
        out.append(f"bots_random:\n  version: {_scalar(bots['version'])}\n"
                   f"  state: [{', '.join(map(str, bots['state']))}]\n"
                   f"  gauss: {_scalar(bots['gauss'])}\n")
    return "".join(out)


# --- writing -----------------------------------------------------------------------


def _tmp_of(path: Path) -> Path:
    return path.with_suffix(".tmp")


def try_write(game: SavedGame, path: Path | None = None, *, rotate: bool | None = None,
              sync_folder: bool | None = None) -> str | None:
    """Write a save durably; None when done, else why not, in words.

    The text goes to a temporary file that is flushed and synced before it is renamed over
    the slot: a crash or a power cut leaves the old save or the new one, never half of one.
    The autosave (`rotate`, the default for it) keeps the two before it as autosave.1.yaml
    and autosave.2.yaml, so a save that cannot be read still leaves the one before.

    The trade for speed: the folder is synced (which makes the rename itself survive a
    power cut) on the first write of a session, for named saves, and then at most every
    FOLDER_SYNC_SECONDS for the autosave. The file's own contents are always synced before
    the rename, so what a power cut can cost is the last few seconds of moves (the slot
    then holds an older, complete save), never a torn or empty file. A killed process
    loses nothing: the rename is done in the kernel.
    """
    global _last_folder_sync
    path = path or autosave_path()
    if rotate is None:
        rotate = path == autosave_path()
    tmp = _tmp_of(path)
    if not game.saved_at:
        game.saved_at = _now()
    text = to_text(game)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        if rotate:
            _rotate(path)
        os.replace(tmp, path)
        now = time.monotonic()
        if sync_folder is None:
            sync_folder = not rotate or now - _last_folder_sync > FOLDER_SYNC_SECONDS
        if sync_folder:
            _sync_folder(path.parent)
            _last_folder_sync = now
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return f"{path}: {exc.strerror or exc}"
    return None


FOLDER_SYNC_SECONDS = 5.0
_last_folder_sync = -1e9  # time.monotonic() of the last folder sync; the first write syncs
ROTATION = 3  # autosave.yaml and the two before it


def rotation_paths(path: Path | None = None) -> list[Path]:
    """The autosave and the ones kept before it, newest first."""
    path = path or autosave_path()
    return [path] + [path.with_name(f"{path.stem}.{n}{path.suffix}") for n in range(1, ROTATION)]


def _rotate(path: Path) -> None:
    """Shift the kept autosaves down one (the oldest goes) before a new one is renamed in.

    The current save is hard-linked to autosave.1, so autosave.yaml exists at every instant
    (a kill between two steps leaves every slot readable); where links are not supported the
    current one is renamed, and for that instant only the kept ones exist.
    """
    chain = rotation_paths(path)
    for newer, older in zip(reversed(chain[1:-1]), reversed(chain[2:]), strict=True):
        if newer.exists():
            os.replace(newer, older)
    first = chain[1]
    if path.exists():
        with contextlib.suppress(FileNotFoundError):
            first.unlink()
        try:
            os.link(path, first)
        except OSError:
            os.replace(path, first)


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
    # The autosave's and the settings' temporary files, and any a named save or an
    # archived game left in their folders.
    candidates = [folder / _tmp_of(autosave_path()).name, folder / "settings.json.tmp"]
    for sub in (SAVES_FOLDER, FINISHED_FOLDER):
        with contextlib.suppress(OSError):
            candidates.extend(sorted((folder / sub).glob("*.tmp")))
    for candidate in candidates:
        with contextlib.suppress(OSError):
            if candidate.is_file() and not candidate.is_symlink():
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
    fmt = data.get("format")
    if _is_int(fmt) and fmt > FORMAT:
        # Checked first: a newer format may hold anything; none of it is judged here.
        raise NewerFormat([Problem(report.file, *report.where(("format",)), "format",
                                   f"written by a newer dinotable (save format {fmt}); this "
                                   f"version reads formats {OLDEST_FORMAT} to {FORMAT}. "
                                   f"Update dinotable to open it")])
    known = {"format", "ruleset", "version", "seats", "options", "seed", "log", "bots_random"}
    if fmt == FORMAT:
        known |= {"name", "saved_at", "summary"}
    for key in data:
        if key not in known:
            report((shorten(key),) if isinstance(key, str) else (), f"unknown entry "
                   f"{shorten(repr(key))}; a save has {', '.join(sorted(known))}")
    if not (_is_int(fmt) and OLDEST_FORMAT <= fmt <= FORMAT):
        report(("format",), f"expected format {OLDEST_FORMAT} to {FORMAT}, found "
                            f"{shorten(repr(fmt))}")
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
    name, saved_at, summary = _check_extras(data, report)
    report.raise_if_any()
    return SavedGame(data["ruleset"], data["version"], seats, options, data["seed"], log,
                     bots_random, name=name, saved_at=saved_at, summary=summary, format=fmt)


def _check_extras(data: dict[Any, Any], report: Reporter
                  ) -> tuple[str, str, dict[str, Any] | None]:
    """Format 2's name, time and summary. The summary only saves a replay when listing, so
    one that does not add up is dropped rather than reported."""
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > SAVE_NAME_MAX or (name and name_problem(
            name[:NAME_MAX])):
        report(("name",), f"expected a save's name of at most {SAVE_NAME_MAX} characters")
        name = ""
    saved_at = data.get("saved_at", "")
    if not isinstance(saved_at, str) or len(saved_at) > 40:
        report(("saved_at",), "expected a time such as 2024-05-01 21:30:00")
        saved_at = ""
    raw = data.get("summary")
    summary: dict[str, Any] | None = None
    if (isinstance(raw, dict) and isinstance(raw.get("game"), str) and len(raw["game"]) <= 80
            and _is_int(raw.get("round")) and _is_int(raw.get("moves"))
            and isinstance(raw.get("over"), bool) and isinstance(raw.get("scores"), list)
            and len(raw["scores"]) == len(data["seats"])
            and all(v is None or (isinstance(v, int | float) and not isinstance(v, bool))
                    for v in raw["scores"])
            and isinstance(raw.get("winners"), list)
            and all(_is_int(w) and 0 <= w < len(data["seats"]) for w in raw["winners"])):
        summary = {k: raw[k] for k in ("game", "round", "moves", "scores", "over", "winners")}
    return name, saved_at, summary


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
    """Move a finished game's save into finished/, keeping the last KEEP_FINISHED.

    The archived copy gains its summary (for the "Finished games" list); the autosaves kept
    before it are dropped, so none of them is offered as a game to continue.
    """
    path = path or autosave_path()
    if path == autosave_path():
        for older in rotation_paths(path)[1:]:
            with contextlib.suppress(OSError):
                older.unlink()
    folder = finished_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Names sort in the order the games ended: the oldest go first when trimming.
        # After the highest number of this second, not in a gap left by trimming: a game
        # ended later must never sort before one ended earlier.
        taken = [int(p.stem.rsplit("-", 1)[1]) for p in folder.glob(f"{stamp}-*.yaml")
                 if p.stem.rsplit("-", 1)[1].isdigit()]
        n = max(taken, default=0) + 1
        while (target := folder / f"{stamp}-{n:03d}.yaml").exists():
            n += 1
        if not _write_summarised(path, target):
            os.replace(path, target)
        else:
            path.unlink()
    except OSError:
        discard(path)  # never offer a finished game as one to continue
        return None
    with contextlib.suppress(OSError):
        kept = sorted(folder.glob("*.yaml"))
        for old in kept[:-KEEP_FINISHED]:
            old.unlink()
    return target


def discard(path: Path | None = None) -> None:
    """Forget the game in progress (and the autosaves kept before it)."""
    path = path or autosave_path()
    for each in rotation_paths(path) if path == autosave_path() else [path]:
        with contextlib.suppress(OSError):
            each.unlink()


def _write_summarised(source: Path, target: Path) -> bool:
    """Copy a save to `target` with its summary filled in; False if it cannot be read."""
    try:
        game, state = load(source)
    except LoadError:
        return False
    game.summary = summarise(game, state)
    return try_write(game, target, rotate=False) is None


# --- the autosave and the ones kept before it -----------------------------------------


@dataclass
class Skipped:
    """An autosave that could not be opened: where it was, why, and where it was kept."""

    path: Path
    problems: list[str]
    kept: Path | None


def newest_autosave(keep_aside: bool = True
                    ) -> tuple[tuple[SavedGame, GameState, Path] | None, list[Skipped]]:
    """The newest autosave that opens (the game, its state and its file), and the newer
    ones skipped, with their problems in words.

    Each one skipped is moved aside byte for byte (`set_aside`) unless `keep_aside` is
    false, so it is reported once and never written over. A game found already over is
    archived with the finished games, not offered.
    """
    skipped: list[Skipped] = []
    for path in rotation_paths():
        if not path.is_file():
            continue  # nothing there (or a folder in the way: nothing to offer or move)
        try:
            game, state = load(path)
        except LoadError as exc:
            kept = set_aside(path) if keep_aside else None
            skipped.append(Skipped(path, [str(p) for p in exc.problems[:3]], kept))
            continue
        except Exception as exc:  # no file may stop the title appearing
            kept = set_aside(path) if keep_aside else None
            skipped.append(Skipped(path, [f"{path}: an unexpected problem "
                                          f"({type(exc).__name__}: {shorten(str(exc), 120)})"],
                                   kept))
            continue
        if state.game_over:
            if path == autosave_path():
                archive(path)
            else:
                discard()
            return None, skipped
        return (game, state, path), skipped
    return None, skipped


# --- named saves and the lists of saved and finished games ------------------------------


@dataclass
class SaveEntry:
    """One line of a list of saves; `problem` says why one cannot be opened."""

    path: Path
    name: str
    saved_at: str
    game: str  # the game's name, e.g. Dino Hunt
    ruleset: str
    players: list[str]
    round: int | None = None
    scores: list[Any] = field(default_factory=list)
    over: bool = False
    winners: list[int] = field(default_factory=list)
    moves: int = 0
    problem: str = ""

    def line(self) -> str:
        """"Round 4 — Ann 12, Ben 9" (or the game's result, or its problem)."""
        if self.problem:
            return self.problem
        if self.round is None:
            return f"{self.moves} moves"
        scores = ", ".join(f"{name} {_number(v) if v is not None else '?'}"
                           for name, v in zip(self.players, self.scores, strict=False))
        if self.over and self.winners:
            won = " and ".join(self.players[w] for w in self.winners if w < len(self.players))
            return f"{won} won in round {self.round} — {scores}"
        return f"Round {self.round} — {scores}"


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:30]
    return slug or "game"


def save_as(game: SavedGame, name: str, state: GameState | None = None,
            folder: Path | None = None) -> Path:
    """Save a game under a name in saves/ (a new file; no other save is replaced).

    Returns the file written; raises ValueError with the reason in words when the name is
    not usable or the file cannot be written. `state` is the game as it stands (replayed
    here when not given) for the summary the list shows.
    """
    name = clean_name_for_save(name)
    if not name:
        raise ValueError("A saved game needs a name")
    folder = folder or saves_dir()
    if state is None:
        state = game.replay()
    copy = SavedGame(game.ruleset, game.version, list(game.seats), dict(game.options),
                     game.seed, list(game.log), game.bots_random, name=name, saved_at=_now(),
                     summary=summarise(game, state))
    stem = _slug(name)
    for n in range(1, 10_000):
        target = folder / (f"{stem}.yaml" if n == 1 else f"{stem}-{n}.yaml")
        if not target.exists():
            break
    else:
        raise ValueError(f"{folder}: too many saves called {name!r}")
    problem = try_write(copy, target, rotate=False, sync_folder=True)
    if problem is not None:
        raise ValueError(problem)
    return target


def clean_name_for_save(name: str) -> str:
    """A save's name as typed, made safe: control characters dropped, cut to its limit."""
    kept = "".join(ch if allowed_in_name(ch) else " " for ch in str(name))
    return " ".join(kept.split())[:SAVE_NAME_MAX].strip()


def _entries(folder: Path) -> list[SaveEntry]:
    out: list[SaveEntry] = []
    try:
        files = sorted(folder.glob("*.yaml"))
    except OSError:
        return out
    for path in files:
        if ".unreadable" in path.name or not path.is_file():
            continue
        out.append(describe_file(path))
    # Newest first; the time is in the file (a copied file keeps its own), then its name.
    out.sort(key=lambda e: (e.saved_at, e.path.name), reverse=True)
    return out


def describe_file(path: Path) -> SaveEntry:
    """One save's line for a list, from its summary (replayed only for older saves)."""
    try:
        game = read(path)
    except LoadError as exc:
        first = exc.problems[0] if exc.problems else None
        reason = (f"cannot be opened: {first.message}" if first is not None
                  else "cannot be opened")
        return SaveEntry(path, path.stem, "", "", "", [], problem=shorten(reason, 160))
    except Exception as exc:  # a list never fails for one file
        return SaveEntry(path, path.stem, "", "", "", [],
                         problem=f"cannot be opened ({type(exc).__name__})")
    players = [s.name for s in game.seats]
    entry = SaveEntry(path, game.name, game.saved_at or _file_time(path), "",
                      game.ruleset, players, moves=len(game.log))
    summary = game.summary
    if summary is None:
        try:
            summary = summarise(game, game.replay())
        except LoadError as exc:
            first = exc.problems[0] if exc.problems else None
            entry.problem = shorten(f"cannot be opened: {first.message}" if first else
                                    "cannot be opened", 160)
            with contextlib.suppress(Exception):
                entry.game = load_by_id(game.ruleset).name
            return entry
    entry.game = summary["game"]
    entry.round = summary["round"]
    entry.scores = list(summary["scores"])
    entry.over = summary["over"]
    entry.winners = list(summary["winners"])
    return entry


def _file_time(path: Path) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(path.stat().st_mtime))
    except OSError:
        return ""


def list_saves(folder: Path | None = None) -> list[SaveEntry]:
    """The games saved by name, newest first."""
    return _entries(folder or saves_dir())


def list_finished(folder: Path | None = None) -> list[SaveEntry]:
    """The finished games kept (the last KEEP_FINISHED), newest first."""
    return _entries(folder or finished_dir())


def delete(path: Path) -> bool:
    """Delete a named save or a finished game; only files in those two folders."""
    try:
        where = path.resolve().parent
        allowed = {saves_dir().resolve(), finished_dir().resolve()}
    except OSError:
        return False
    if where not in allowed or path.suffix != ".yaml":
        return False
    try:
        path.unlink()
    except OSError:
        return False
    return True


def line_of(path: Path, where: str) -> tuple[int, int]:
    """The line and column of an entry ("version", "log[3]") in a save that reads; (1, 1)
    when it cannot be found. For problems found by replaying, which know only the entry."""
    match = re.fullmatch(r"([a-z_]+)(?:\[(\d+)\])?", where)
    if match is None:
        return 1, 1
    key: tuple[Any, ...] = (match.group(1),) if match.group(2) is None else (
        match.group(1), int(match.group(2)))
    try:
        _, marks = load_text(_read_text(path), str(path))
    except (LoadError, ValueError, RecursionError, OverflowError):
        return 1, 1
    return marks.get(key, (1, 1))
