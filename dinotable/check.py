"""`dinotable check`: run rules scenarios (see the scenario spec in the README)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from .engine import (
    Action,
    ChanceError,
    EngineError,
    GameState,
    IllegalAction,
    Rules,
    apply,
    legal_actions,
    new_game,
    waiting_on,
)
from .engine.multisets import in_face_order
from .engine.paths import PathError, state_value
from .engine.positions import PlacementError, ZoneKey, arrange
from .paths import rulesets_dir
from .ruleset import LoadError, Problem, load_by_id, load_ruleset
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
RESERVED_ACT = {"id", "player", "illegal"}


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
            state.player_vars[seat].update(values)
        state.game_vars.update(self.game_vars)


@dataclass
class Outcome:
    """The result of running one scenario."""

    name: str
    passed: bool
    reason: str = ""


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


def _near(word: str, choices: list[str]) -> str:
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
            report((key,), f"unknown key {key!r}{_near(str(key), sorted(top))}; "
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
            rules = _load_rules(str(rid), folder)
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
                    setup, None if folder is None else str(folder), learner, title)


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


def _load_rules(rid: str, folder: FsPath | str | None) -> Rules:
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
            report(("setup", key), f"unknown key {key!r}{_near(str(key), list(SETUP_KEYS))}; "
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
            report(ppath, f"no player {pname!r}{_near(str(pname), names)}; "
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
                setup.player_vars.setdefault(seat, {})[var] = value
    game = raw.get("game") or {}
    if not isinstance(game, dict):
        report(("setup", "game"), "expected a mapping of game variable: value")
        game = {}
    for var, value in game.items():
        if _setup_var(("setup", "game", var), var, value, rules.game_vars, "game", report):
            setup.game_vars[var] = value
    return setup


def _setup_var(path: tuple[Any, ...], var: Any, value: Any, known: dict[str, Any],
               scope: str, report: Reporter) -> bool:
    if var not in known:
        report(path, f"unknown {scope} variable {var!r}{_near(str(var), list(known))}; "
                     f"expected one of {', '.join(sorted(known)) or '(none)'}")
        return False
    start = known[var]
    same = (isinstance(value, bool) == isinstance(start, bool)) and (
        isinstance(value, bool) or (isinstance(value, int | float) and isinstance(
            start, int | float)) or type(value) is type(start))
    if not same:
        report(path, f"expected a value like {var}'s starting value {start!r}, found {value!r}")
        return False
    return True


def _setup_zone(path: tuple[Any, ...], zone: Any, items: Any, seat: int | None,
                report: Reporter, rules: Rules, setup: Setup) -> None:
    zdef = rules.zones.get(zone)
    if zdef is None:
        report(path, f"unknown zone {zone!r}{_near(str(zone), list(rules.zones))}; "
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
                                             f"{_near(item, kinds + ids)}; the kinds are "
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
        report((*path, k), f"unknown step key {k!r}{_near(str(k), [*STEP_KEYS, *own])}; "
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
            report((*path, "player"), f"no player {player!r}{_near(str(player), names)}")
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
                report(kpath, f"unknown check {key!r}{_near(str(key), list(EXPECT_KEYS))}; "
                              f"expected one of {', '.join(EXPECT_KEYS)}")
            elif key == "current_player" and want is not None and want not in names:
                report(kpath, f"no player {want!r}{_near(str(want), names)}")
            elif key in ("legal", "winners") and not isinstance(want, list):
                report(kpath, "expected a list")
            elif key == "winners" and any(w not in names for w in want):
                report(kpath, f"winners must be player names from {names}")
            elif key in ("scores", "state") and not isinstance(want, dict):
                report(kpath, "expected a mapping")
            elif key == "scores" and any(n not in names for n in want):
                bad = next(n for n in want if n not in names)
                report(kpath, f"no player {bad!r}{_near(str(bad), names)}")
            elif key == "game_over" and not isinstance(want, bool):
                report(kpath, "expected true or false")
    return step


def run_scenario(sc: Scenario) -> Outcome:
    """Play a scenario's steps; the first that does not hold fails it."""
    rules = _load_rules(sc.ruleset, sc.folder)
    # Forces before the first act or expect are the ruleset's own setup's chance.
    lead = 0
    while lead < len(sc.steps) and sc.steps[lead].kind == "force":
        lead += 1
    opening = [o for step in sc.steps[:lead] for o in step.value]
    try:
        state = new_game(rules, sc.players, sc.options, sc.seed, force=opening,
                         setup=None if sc.setup is None else sc.setup.apply)
    except (EngineError, PlacementError) as exc:
        return Outcome(sc.name, False, f"setting up the game: {exc}")
    learner = sc.players.index(sc.learner) if sc.learner in sc.players else None
    for step in sc.steps[lead:]:
        where = f"step {step.index + 1} (line {step.line})"
        if learner is not None and step.kind == "act" and not step.say and not step.illegal and (
                _act(state, step).player == learner):
            # The learner is never asked to act without being told what to do.
            return Outcome(sc.name, False, f"{where}: the learner's act has no `say` "
                                           "telling them what to do")
        try:
            problem = _run_step(state, step)
        except ChanceError as exc:
            problem = str(exc)
        except EngineError as exc:  # the ruleset failed at play: the message names its line
            return Outcome(sc.name, False, f"{where}: {exc}")
        if problem:
            return Outcome(sc.name, False, f"{where}: {problem}")
    left = len(state.chance.forced)
    if left:
        return Outcome(sc.name, False, f"{left} forced outcome{'s were' if left > 1 else ' was'}"
                                       f" never used: {list(state.chance.forced)}")
    return Outcome(sc.name, True)


def _act(state: GameState, step: Step) -> Action:
    value = step.value
    action_id = value if isinstance(value, str) else str(value["id"])
    args: dict[str, Any] = {}
    if isinstance(value, dict):
        args = {k: v for k, v in value.items() if k not in RESERVED_ACT}
    adef = state.rules.actions.get(action_id)
    for name, v in list(args.items()):
        if adef is not None and isinstance(v, str) and v in state.players and any(
                a.name == name and a.is_player for a in adef.args):
            args[name] = state.players.index(v)
        elif adef is not None and isinstance(v, list) and any(
                a.name == name and a.domain == "faces_of" for a in adef.args):
            # Dice named by faces are a multiset: any order written means the same dice.
            args[name] = in_face_order(state.rules, v)
    if step.player:
        seat = state.players.index(step.player)
    else:
        waiting = waiting_on(state)
        seat = state.current if waiting is None else waiting
    return Action(seat, action_id, tuple(sorted(args.items())))


def _run_step(state: GameState, step: Step) -> str | None:
    if step.kind == "say":
        return None
    if step.kind == "force":
        state.chance.force(step.value)
        return None
    if step.kind == "act":
        action = _act(state, step)
        if step.illegal:
            before = state.to_dict()
            try:
                apply(state, action)
            except IllegalAction:
                if state.to_dict() != before:
                    return f"{action} was refused but the state changed"
                return None
            return f"expected {action} to be refused, but it was allowed"
        try:
            apply(state, action)
        except IllegalAction as exc:
            who = state.players[action.player] if 0 <= action.player < len(state.players) else "?"
            return f"{who} could not {action}: {exc}"
        return None
    for key, want in step.value.items():
        problem = _expect(state, key, want)
        if problem:
            return problem
    return None


def _expect(state: GameState, key: str, want: Any) -> str | None:
    waiting = waiting_on(state)
    if key == "current_player":
        got: Any = None if waiting is None else state.players[waiting]
    elif key == "legal":
        got = sorted({a.id for a in legal_actions(state, waiting)})
        want = sorted(set(want))
    elif key == "scores":
        for name, value in want.items():
            score = state.score(state.players.index(name))
            if score != value:
                return f"expected scores.{name} = {value}, got {score}"
        return None
    elif key == "game_over":
        got = state.game_over
    elif key == "winners":
        got = sorted(state.players[s] for s in state.winners)
        want = sorted(want)
    else:
        for path, value in want.items():
            try:
                actual = state_value(state, str(path))
            except PathError as exc:
                return f"state {exc}"
            if actual != value:
                return f"expected state {path} = {value!r}, got {actual!r}"
        return None
    if got != want:
        return f"expected {key} = {want!r}, got {got!r}"
    return None


def run_check(paths: list[str], out: Any, err: Any) -> int:
    """The `check` command: print PASS/FAIL lines and the summary; return the exit status."""
    files = scenario_files(paths)
    bad: list[Problem] = []
    passed = failed = crashed = 0
    for f in files:
        try:
            sc = load_scenario(f)
        except LoadError as exc:
            bad.extend(exc.problems)
            continue
        try:
            result = run_scenario(sc)
        except Exception as exc:
            # A crash is not a failed scenario: it says so, names the scenario, and the
            # run carries on with the others.
            crashed += 1
            print(f"ERROR {sc.name}: internal error: {type(exc).__name__}: "
                  f"{str(exc)[:200]}", file=out)
            continue
        if result.passed:
            passed += 1
            print(f"PASS {result.name}", file=out)
        else:
            failed += 1
            print(f"FAIL {result.name}: {result.reason}", file=out)
    for p in bad:
        print(str(p), file=err)
    if not files:
        print(f"no scenario files found in {' '.join(paths) or 'the shipped rulesets'}",
              file=err)
    print(f"{passed} passed, {failed} failed"
          + (f", {crashed} crashed" if crashed else ""), file=out)
    # 3 an internal error, 2 bad input, 1 a scenario failed, 0 all passed.
    if crashed:
        return 3
    if bad or not files:
        return 2
    return 1 if failed else 0
