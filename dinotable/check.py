"""`dinotable check`: run rules scenarios (format: docs/scenarios.md), read by
`scenarios.py`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engine import (
    Action,
    ChanceError,
    EngineError,
    GameState,
    IllegalAction,
    apply,
    legal_actions,
    new_game,
    waiting_on,
)
from .engine.multisets import in_face_order
from .engine.paths import PathError, state_value
from .engine.positions import PlacementError
from .ruleset import LoadError, Problem
from .scenarios import Scenario, Step, load_rules, load_scenario, scenario_files

RESERVED_ACT = {"id", "player", "illegal"}


@dataclass
class Outcome:
    """The result of running one scenario."""

    name: str
    passed: bool
    reason: str = ""


def run_scenario(sc: Scenario) -> Outcome:
    """Play a scenario's steps; the first that does not hold fails it."""
    rules = load_rules(sc.ruleset, sc.folder)
    # Forces before the first act or expect are the ruleset's own setup's chance.
    lead = 0
    while lead < len(sc.steps) and sc.steps[lead].kind == "force":
        lead += 1
    opening = [o for step in sc.steps[:lead] for o in step.value]
    try:
        state = new_game(rules, sc.players, sc.options, sc.seed, force=opening,
                         setup=None if sc.setup is None else sc.setup.apply)
    except (EngineError, PlacementError) as exc:
        return Outcome(sc.name, False, f"setting up the game{_set_up_where(sc, lead)}: {exc}")
    learner = sc.players.index(sc.learner) if sc.learner in sc.players else None
    for step in sc.steps[lead:]:
        where = f"step {step.index + 1} (line {step.line})"
        if learner is not None and step.kind == "act" and not step.say and not step.illegal and (
                step_action(state, step).player == learner):
            # The learner is never asked to act without being told what to do.
            return Outcome(sc.name, False, f"{where}: the learner's act has no `say` "
                                           "telling them what to do")
        try:
            problem = run_step(state, step)
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


def _set_up_where(sc: Scenario, lead: int) -> str:
    """Where in the scenario the set-up comes from: its `setup:` section, else the
    `force` steps that feed it (the rules line is in the error itself)."""
    if sc.setup_line:
        return f" (setup, line {sc.setup_line})"
    if lead:
        first, last = sc.steps[0], sc.steps[lead - 1]
        span = f"step {first.index + 1}" if lead == 1 else (
            f"steps {first.index + 1}-{last.index + 1}")
        return f" ({span}, line {first.line})"
    return ""


def step_action(state: GameState, step: Step) -> Action:
    """The action an act step names, as the engine takes it: player names as seats, dice
    named by faces in the engine's order, and the seat the game waits on unless it says."""
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


def run_step(state: GameState, step: Step) -> str | None:
    """Play one step on the game; what did not hold, or None."""
    if step.kind == "say":
        return None
    if step.kind == "force":
        state.chance.force(step.value)
        return None
    if step.kind == "act":
        action = step_action(state, step)
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
