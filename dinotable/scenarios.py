"""A scenario file (format: docs/scenarios.md): read and checked, every problem
at its line, for `dinotable check` to play (`check.py`); a lesson is a scenario too
(`lessons.py`)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from .engine import EngineError, GameState, Rules, new_game
from .engine.indexed import keys_text
from .engine.positions import PlacementError, ZoneKey, arrange
from .paths import rulesets_dir
from .ruleset import LoadError, load_by_id, load_ruleset
from .ruleset.loader import RULES_FILE
from .ruleset.problems import Reporter
from .ruleset.yamlsafe import load_file

TOP_KEYS = {"name", "ruleset", "players", "options", "seed", "setup", "steps"}
SETUP_KEYS = ("zones", "players", "game")
STEP_KEYS = ("force", "act", "expect")
# A lesson (a file under a ruleset's lessons/) is a scenario whose steps also speak to the
# learner: see `dinotable/lessons.py`.
LESSON_TOP = {"learner", "title"}
LESSON_STEP = ("say", "point", "hint")
EXPECT_KEYS = ("current_player", "legal", "scores", "game_over", "winners", "state")


@dataclass
class Step:
    """One step of a scenario with the line it came from."""

    index: int
    line: int
    kind: str
    value: Any
    player: str | None = None
    illegal: bool = False
    say: str = ""  # a lesson's caption for this step
    point: dict[str, str] | None = None  # a lesson's pointer: {die|card|space|...: name}
    hint: str = ""  # a lesson's words for a wrong click on this step


@dataclass
class Scenario:
    """A validated scenario file."""

    file: str
    name: str
    ruleset: str
    players: list[str]
    options: dict[str, Any]
    seed: int
    steps: list[Step] = field(default_factory=list)
    setup: Setup | None = None
    folder: str | None = None  # the ruleset's folder when it is not a shipped one
    learner: str | None = None  # a lesson's: the player the learner plays
    title: str = ""  # a lesson's: its name on the screen
    setup_line: int = 0  # the line of its `setup:` section (0: it has none)


@dataclass
class Setup:
    """A scenario's starting position: zone contents (zone, owner -> items, top first),
    player variables (seat -> var -> value) and game variables."""

    zones: dict[ZoneKey, list[str]] = field(default_factory=dict)
    player_vars: dict[int, dict[str, Any]] = field(default_factory=dict)
    game_vars: dict[str, Any] = field(default_factory=dict)

    def apply(self, state: GameState) -> None:
        """Put the position on the table (called by new_game before the first round)."""
        if self.zones:
            arrange(state, self.zones)
        for seat, values in self.player_vars.items():
            _put_vars(state.player_vars[seat], values)
        _put_vars(state.game_vars, self.game_vars)


def _put_vars(store: dict[str, Any], values: dict[str, Any]) -> None:
    """Set variables; an indexed one gets only the keys listed (the others keep theirs)."""
    for var, value in values.items():
        if isinstance(value, dict):
            store[var] = {**store[var], **value}
        else:
            store[var] = value


def scenario_files(paths: list[str]) -> list[FsPath]:
    """The scenario files named (folders searched for *.yaml); default: every shipped one."""
    if not paths:
        return sorted([*rulesets_dir().glob("*/scenarios/**/*.yaml"),
                       *rulesets_dir().glob("*/lessons/**/*.yaml")])
    out: list[FsPath] = []
    for p in paths:
        path = FsPath(p)
        if path.is_dir():
            out.extend(_scenarios_under(path))
        else:
            out.append(path)
    return out


def _scenarios_under(root: FsPath) -> list[FsPath]:
    """The scenario files in a folder: inside a ruleset folder (one with rules.yaml), only
    those under its `scenarios/` and `lessons/`, never its rules or data files."""
    found = []
    for f in sorted(root.rglob("*.yaml")):
        folder = f.parent
        while True:
            if (folder / RULES_FILE).is_file():
                keep = any(folder / sub in f.parents for sub in ("scenarios", "lessons"))
                break
            if folder == root or folder == folder.parent:
                keep = True
                break
            folder = folder.parent
        if keep:
            found.append(f)
    return found


def near(word: str, choices: list[str]) -> str:
    """A hint for a misspelt word: " (did you mean 'x'?)" with the closest choice, or ""."""
    found = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean {found[0]!r}?)" if found else ""


def is_lesson(path: FsPath) -> bool:
    """Whether a file is a lesson: it lies in a folder named `lessons` (the nearer of a
    `scenarios` and a `lessons` folder over it decides)."""
    for parent in path.resolve().parents:
        if parent.name in ("scenarios", "lessons"):
            return parent.name == "lessons"
    return False


def load_scenario(path: FsPath) -> Scenario:
    """Read and validate a scenario (or lesson) file; LoadError lists every problem."""
    display = str(path)
    data, marks = load_file(path, display)
    report = Reporter(display, marks)
    lesson = is_lesson(path)
    if not isinstance(data, dict):
        report((), "expected a " + ("lesson: a mapping with name, ruleset, learner, "
                                    "players and steps" if lesson else
                                    "scenario: a mapping with name, ruleset, players and steps"))
        report.raise_if_any()
    top = TOP_KEYS | LESSON_TOP if lesson else TOP_KEYS
    for key in data:
        if key not in top:
            report((key,), f"unknown key {key!r}{near(str(key), sorted(top))}; "
                           f"expected {', '.join(sorted(top))}")
    for key in ("name", "ruleset", "players", "steps"):
        if key not in data:
            report((), f"missing required key {key!r}")
    name = data.get("name")
    if "name" in data and not isinstance(name, str):
        report(("name",), "expected the scenario's name as text")
    players = data.get("players")
    if "players" in data and (not isinstance(players, list) or not players
                              or not all(isinstance(p, str) for p in players)
                              or len(set(players)) != len(players)):
        report(("players",), "expected a list of different player names, e.g. [Ann, Ben]")
        players = None
    options = data.get("options") or {}
    if not isinstance(options, dict):
        report(("options",), "expected a mapping of option: value")
        options = {}
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        report(("seed",), f"expected a whole number, found {seed!r}")
        seed = 0
    rules = None
    rid = data.get("ruleset")
    folder = _own_ruleset_folder(path, str(rid))
    if "ruleset" in data:
        try:
            rules = load_rules(str(rid), folder)
        except LoadError as exc:
            first = exc.problems[0]
            detail = first.message if first.path == "(ruleset)" else (
                f"the ruleset does not load: {first}")
            report(("ruleset",), detail)
    if rules is not None and isinstance(players, list):
        if not rules.min_players <= len(players) <= rules.max_players:
            report(("players",), f"{rules.name} seats {rules.min_players} to "
                                 f"{rules.max_players} players, not {len(players)}")
        from .engine import resolve_options

        try:
            resolve_options(rules, options)
        except ValueError as exc:
            report(("options",), str(exc))
    steps: list[Step] = []
    raw_steps = data.get("steps")
    if "steps" in data and not isinstance(raw_steps, list):
        report(("steps",), "expected a list of steps")
        raw_steps = []
    names = players if isinstance(players, list) else []
    for i, raw in enumerate(raw_steps or []):
        step = _step(i, raw, report, names, lesson)
        if step is not None:
            steps.append(step)
    setup = None
    if "setup" in data:
        setup = _setup(data["setup"], report, rules, names)
        if setup is not None and rules is not None and not report.problems:
            _try_setup(setup, report, rules, names, options, seed)
    learner, title = None, ""
    if lesson:
        from .lessons import check_lesson

        learner, title = check_lesson(data, steps, report, rules, names)
    report.raise_if_any()
    return Scenario(display, str(name), str(rid), list(players or []), options, seed, steps,
                    setup, None if folder is None else str(folder), learner, title,
                    report.where(("setup",))[0] if setup is not None else 0)


def _own_ruleset_folder(path: FsPath, rid: str) -> FsPath | None:
    """The ruleset folder a scenario lives in (`<folder>/scenarios/...`) when its id is the
    one the scenario names: a ruleset outside rulesets/ (a test fixture, one being
    written) runs its own scenarios."""
    for parent in path.resolve().parents:
        if parent.name in ("scenarios", "lessons"):
            folder = parent.parent
            if folder.name == rid and (folder / RULES_FILE).is_file():
                return folder
    return None


_FOLDER_RULES: dict[str, Rules] = {}


def load_rules(rid: str, folder: FsPath | str | None) -> Rules:
    """A shipped ruleset by id, or the one in `folder` (loaded once per run)."""
    if folder is None:
        return load_by_id(rid)
    key = str(folder)
    if key not in _FOLDER_RULES:
        _FOLDER_RULES[key] = load_ruleset(folder)
    return _FOLDER_RULES[key]


def _setup(raw: Any, report: Reporter, rules: Rules | None, names: list[str]) -> Setup | None:
    """Check the `setup` section against the ruleset; None when it cannot be used."""
    if not isinstance(raw, dict):
        report(("setup",), "expected a mapping with zones, players and game")
        return None
    for key in raw:
        if key not in SETUP_KEYS:
            report(("setup", key), f"unknown key {key!r}{near(str(key), list(SETUP_KEYS))}; "
                                   f"expected {', '.join(SETUP_KEYS)}")
    if rules is None:
        return None
    setup = Setup()
    zones = raw.get("zones") or {}
    if not isinstance(zones, dict):
        report(("setup", "zones"), "expected a mapping of zone: [items, top first]")
    else:
        for zone, items in zones.items():
            _setup_zone(("setup", "zones", zone), zone, items, None, report, rules, setup)
    players = raw.get("players") or {}
    if not isinstance(players, dict):
        report(("setup", "players"), "expected a mapping of player name: {variable: value}")
        players = {}
    for pname, values in players.items():
        ppath = ("setup", "players", pname)
        if pname not in names:
            report(ppath, f"no player {pname!r}{near(str(pname), names)}; "
                          f"the players are {', '.join(names)}")
            continue
        if not isinstance(values, dict):
            report(ppath, "expected a mapping of variable: value (and zones)")
            continue
        seat = names.index(pname)
        for var, value in values.items():
            if var == "zones":
                own = value if isinstance(value, dict) else {}
                if not isinstance(value, dict):
                    report((*ppath, "zones"), "expected a mapping of zone: [items, top first]")
                for zone, items in own.items():
                    _setup_zone((*ppath, "zones", zone), zone, items, seat, report, rules, setup)
            elif _setup_var((*ppath, var), var, value, rules.player_vars, "player", report):
                setup.player_vars.setdefault(seat, {})[var] = _keyed_value(
                    value, rules.player_vars[var])
    game = raw.get("game") or {}
    if not isinstance(game, dict):
        report(("setup", "game"), "expected a mapping of game variable: value")
        game = {}
    for var, value in game.items():
        if _setup_var(("setup", "game", var), var, value, rules.game_vars, "game", report):
            setup.game_vars[var] = _keyed_value(value, rules.game_vars[var])
    return setup


def _setup_var(path: tuple[Any, ...], var: Any, value: Any, known: dict[str, Any],
               scope: str, report: Reporter) -> bool:
    if var not in known:
        report(path, f"unknown {scope} variable {var!r}{near(str(var), list(known))}; "
                     f"expected one of {', '.join(sorted(known)) or '(none)'}")
        return False
    start = known[var]
    if isinstance(start, dict):  # an indexed variable: {KEY: VALUE} for the keys set
        return _setup_indexed(path, var, value, start, report)
    same = (isinstance(value, bool) == isinstance(start, bool)) and (
        isinstance(value, bool) or (isinstance(value, int | float) and isinstance(
            start, int | float)) or type(value) is type(start))
    if not same:
        report(path, f"expected a value like {var}'s starting value {start!r}, found {value!r}")
        return False
    return True


def _setup_indexed(path: tuple[Any, ...], var: str, value: Any, start: dict[Any, Any],
                   report: Reporter) -> bool:
    """An indexed variable in `setup`: a mapping of some of its keys to values, each like
    its starting value."""
    if not isinstance(value, dict) or not value:
        report(path, f"{var} holds one value per key: expected a mapping KEY: VALUE, e.g. "
                     f"{{{next(iter(start))}: {next(iter(start.values()))!r}}}")
        return False
    by_text = {str(k): k for k in start}
    ok = True
    for key, each in value.items():
        known = by_text.get(str(key))
        if known is None:
            report((*path, key), f"{var} has no key {key!r}; its keys are "
                                 f"{keys_text(list(start))}")
            ok = False
        elif not _setup_var((*path, key), f"{var}[{known!r}]", each,
                            {f"{var}[{known!r}]": start[known]}, "indexed", report):
            ok = False
    return ok


def _keyed_value(value: Any, start: Any) -> Any:
    """A setup value as the state holds it: an indexed one's keys as declared (a key
    written `"7"` is the number 7 when the keys are numbers)."""
    if not isinstance(start, dict):
        return value
    by_text = {str(k): k for k in start}
    return {by_text[str(k)]: v for k, v in value.items()}


def _setup_zone(path: tuple[Any, ...], zone: Any, items: Any, seat: int | None,
                report: Reporter, rules: Rules, setup: Setup) -> None:
    zdef = rules.zones.get(zone)
    if zdef is None:
        report(path, f"unknown zone {zone!r}{near(str(zone), list(rules.zones))}; "
                     f"expected one of {', '.join(sorted(rules.zones))}")
        return
    if seat is None and zdef.per_player:
        report(path, f"{zone} is each player's own zone: set it under "
                     f"players: NAME: zones: {{{zone}: [...]}}")
        return
    if seat is not None and not zdef.per_player:
        report(path, f"{zone} is shared, not a player's own zone: set it under setup: zones")
        return
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        report(path, "expected a list of item ids or kinds, top first, e.g. [green, red]")
        return
    setup.zones[(zone, 0 if seat is None else seat)] = list(items)


class _Placed(Exception):
    """Stops a trial game once its setup is placed: no turn needs to run at load time."""


def _try_setup(setup: Setup, report: Reporter, rules: Rules, names: list[str],
               options: dict[str, Any], seed: int) -> None:
    """Place the setup in a trial game, so an item that cannot be placed is reported at its
    line now instead of failing the run."""
    paths = {}
    for zone, owner in setup.zones:
        zdef = rules.zones[zone]
        paths[(zone, owner)] = (("setup", "players", names[owner], "zones", zone)
                                if zdef.per_player else ("setup", "zones", zone))

    def place(state: GameState) -> None:
        kinds = sorted({it.kind for it in state.items} | set(rules.dice))
        ids = [it.id for it in state.items]
        for key, items in setup.zones.items():
            for n, item in enumerate(items):
                if item not in kinds and item not in ids:
                    report((*paths[key], n), f"unknown item or item kind {item!r}"
                                             f"{near(item, kinds + ids)}; the kinds are "
                                             f"{', '.join(kinds)}")
        if report.problems:
            raise _Placed
        try:
            setup.apply(state)
        except PlacementError as exc:
            report((*paths[(exc.zone, exc.owner)], exc.index), str(exc))
        raise _Placed

    try:
        new_game(rules, names, options, seed, setup=place)
    except _Placed:
        pass
    except (ValueError, LoadError):
        pass  # the players or options are wrong: reported on their own lines
    except EngineError:
        # The game's own set-up failed before the position could be placed: a rules error,
        # which running the scenario reports as its FAIL, naming the rules line.
        pass


def _step(i: int, raw: Any, report: Reporter, names: list[str],
          lesson: bool = False) -> Step | None:
    path: tuple[Any, ...] = ("steps", i)
    line = report.where(path)[0]
    own = LESSON_STEP if lesson else ()
    if not isinstance(raw, dict):
        report(path, "a step is a mapping with one of force, act or expect"
               + (", or a `say` for the learner" if lesson else ""))
        return None
    kinds = [k for k in STEP_KEYS if k in raw]
    extra = [k for k in raw if k not in (*STEP_KEYS, "player", "illegal", *own)]
    for k in extra:
        report((*path, k), f"unknown step key {k!r}{near(str(k), [*STEP_KEYS, *own])}; "
                           + ("a lesson step has say, point, hint and at most one of force, "
                              "act, expect" if lesson else
                              "a step has exactly one of force, act, expect"))
    if lesson and not kinds and not extra and "say" in raw:
        return Step(i, line, "say", None)  # words only: the learner reads, then goes on
    if len(kinds) != 1:
        if not extra:
            report(path, ("a lesson step has at most one of force, act or expect, and a "
                          "step without one needs `say`" if lesson else
                          "a step has exactly one of force, act or expect") +
                   f", found {kinds or 'none'}")
        return None
    kind = kinds[0]
    value = raw[kind]
    step = Step(i, line, kind, value)
    if kind != "act" and ("player" in raw or "illegal" in raw):
        report(path, "player and illegal belong to an act step")
        return None
    if kind == "force":
        step.value = value if isinstance(value, list) else [value]
        if not step.value:
            report((*path, "force"), "expected a list of outcomes")
    elif kind == "act":
        player, illegal = raw.get("player"), raw.get("illegal", False)
        if isinstance(value, dict):
            if "id" not in value:
                report((*path, "act"), "an action mapping needs `id`, e.g. {id: steal, from: Ben}")
                return None
            player = value.get("player", player)
            illegal = value.get("illegal", illegal)
        elif not isinstance(value, str):
            report((*path, "act"), "expected an action id or {id: ..., argument: value}")
            return None
        if player is not None and player not in names:
            report((*path, "player"), f"no player {player!r}{near(str(player), names)}")
        if not isinstance(illegal, bool):
            report((*path, "illegal"), "expected true or false")
            illegal = False
        step.player, step.illegal = player, illegal
    else:
        if not isinstance(value, dict) or not value:
            report((*path, "expect"), "expected a mapping of checks")
            return None
        for key, want in value.items():
            kpath = (*path, "expect", key)
            if key not in EXPECT_KEYS:
                report(kpath, f"unknown check {key!r}{near(str(key), list(EXPECT_KEYS))}; "
                              f"expected one of {', '.join(EXPECT_KEYS)}")
            elif key == "current_player" and want is not None and want not in names:
                report(kpath, f"no player {want!r}{near(str(want), names)}")
            elif key in ("legal", "winners") and not isinstance(want, list):
                report(kpath, "expected a list")
            elif key == "winners" and any(w not in names for w in want):
                report(kpath, f"winners must be player names from {names}")
            elif key in ("scores", "state") and not isinstance(want, dict):
                report(kpath, "expected a mapping")
            elif key == "scores" and any(n not in names for n in want):
                bad = next(n for n in want if n not in names)
                report(kpath, f"no player {bad!r}{near(str(bad), names)}")
            elif key == "game_over" and not isinstance(want, bool):
                report(kpath, "expected true or false")
    return step
