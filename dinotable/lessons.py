"""Lessons: a ruleset's `lessons/*.yaml`, scenarios that also speak to the learner.

A lesson is a scenario (the format `dinotable check` runs) with a `learner`, the player
the person learning plays, and steps that may carry `say` (a caption in plain words),
`point` (the thing on the table to look at: a die, a card, a space, a player, a zone or a
button) and `hint` (what a wrong click is told). A step with only `say` is a page the
learner reads and goes on from. The act steps of the learner's seat are theirs to make;
the script plays every other act. Because `dinotable check` runs lessons like scenarios, a
lesson can never drift from the rules.

`LessonRun` walks a lesson for the table: it needs no pygame, so a lesson can be followed
(and tested) without a window.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .check import run_step, step_action
from .engine import Action, EngineError, GameState, PlacementError, apply, new_game
from .ruleset import LoadError
from .scenarios import Scenario, Step, load_rules, load_scenario, near

if TYPE_CHECKING:
    from .engine import Rules
    from .ruleset.problems import Reporter

POINT_KINDS = ("die", "card", "space", "player", "zone", "button")
NEXT = "next"  # `point: {button: next}`: the lesson's own Next button


def check_lesson(data: dict[str, Any], steps: list[Step], report: Reporter,
                 rules: Rules | None, names: list[str]) -> tuple[str | None, str]:
    """Check a lesson's own keys (learner, title, and each step's say, point and hint),
    copying them onto the steps; returns the learner and the title."""
    learner = data.get("learner")
    if "learner" not in data:
        report((), "missing required key 'learner': the player the learner plays, e.g. Ann")
        learner = None
    elif learner not in names:
        report(("learner",), f"no player {learner!r}{near(str(learner), names)}; "
                             f"the players are {', '.join(names)}")
        learner = None
    title = data.get("title", data.get("name", ""))
    if not isinstance(title, str):
        report(("title",), "expected the lesson's title as text")
        title = ""
    found = data.get("steps")
    raw_steps: list[Any] = found if isinstance(found, list) else []
    for step in steps:
        raw = raw_steps[step.index]
        path = ("steps", step.index)
        for key in ("say", "hint"):
            if key in raw and (not isinstance(raw[key], str) or not raw[key].strip()):
                report((*path, key), "expected words for the learner, e.g. 'Press Roll.'")
        step.say = str(raw.get("say") or "").strip()
        step.hint = str(raw.get("hint") or "").strip()
        if "point" in raw:
            step.point = _point(raw["point"], (*path, "point"), report, rules, names)
    if steps and not steps[0].say and not any(s.say for s in steps if s.kind != "force"):
        report(("steps",), "a lesson says something to the learner: give a step `say`")
    return learner, title


def _point(raw: Any, path: tuple[Any, ...], report: Reporter, rules: Rules | None,
           names: list[str]) -> dict[str, str] | None:
    """A step's `point`: one of die, card, space, player, zone or button, and what it names."""
    shape = ("expected one thing to point at, e.g. {button: roll}, {die: footprint}, "
             f"{{player: {names[0] if names else 'Ann'}}}; the kinds are "
             f"{', '.join(POINT_KINDS)}")
    if not isinstance(raw, dict) or len(raw) != 1:
        report(path, shape)
        return None
    kind, value = next(iter(raw.items()))
    if kind not in POINT_KINDS:
        report((*path, kind), f"unknown thing {kind!r}{near(str(kind), list(POINT_KINDS))}; "
                              f"expected one of {', '.join(POINT_KINDS)}")
        return None
    if not isinstance(value, str | int) or isinstance(value, bool):
        report((*path, kind), f"expected the name of a {kind}")
        return None
    value = str(value)
    if rules is None:
        return {kind: value}
    known: list[str]
    if kind == "player":
        known = names
    elif kind == "button":
        known = [*rules.actions, NEXT]
    elif kind == "space":
        known = [s for board in rules.boards.values() for s in board.spaces]
    elif kind == "zone":
        known = list(rules.zones)
    elif kind == "die":
        known = [*rules.dice, *{f for d in rules.dice.values() for f in _faces(d)}]
    else:
        known = list(rules.items)
    if value not in known:
        report((*path, kind), f"no {kind} {value!r}{near(value, known)}; expected one of "
                              f"{', '.join(sorted(known)[:12])}{' ...' if len(known) > 12 else ''}")
        return None
    return {kind: value}


def _faces(die: Any) -> list[str]:
    return [str(getattr(f, "id", f)) for f in getattr(die, "faces", ())]


_READ: dict[Path, tuple[float, Scenario | None]] = {}  # a lesson file read, by its mtime


def lessons_of(rules: Rules) -> list[Scenario]:
    """A ruleset's lessons that load, in file name order (a broken one is left out; `dinotable
    check` names what is wrong with it). A file is read again only once it has changed."""
    folder = Path(str(getattr(rules, "source", ""))) / "lessons"
    out = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            stamp = path.stat().st_mtime
        except OSError:
            continue
        known = _READ.get(path)
        if known is None or known[0] != stamp:
            try:
                known = (stamp, load_scenario(path))
            except LoadError:
                known = (stamp, None)
            _READ[path] = known
        lesson = known[1]
        if lesson is not None and lesson.ruleset == rules.id and lesson.learner is not None:
            out.append(lesson)
    return out


class LessonRun:
    """A lesson being followed: the game, and the step it has come to.

    Each step is one of: `auto` (forced chance queued, a check made: done at once), `read`
    (words to read: the learner goes on with Next), `learner` (the learner must make the
    act), `script` (another seat's act, which the table plays) or `done`."""

    def __init__(self, lesson: Scenario, start: int = 0) -> None:
        self.lesson = lesson
        self.rules = load_rules(lesson.ruleset, lesson.folder)
        self.learner = lesson.players.index(str(lesson.learner))
        lead = 0
        while lead < len(lesson.steps) and lesson.steps[lead].kind == "force":
            lead += 1
        opening = [o for step in lesson.steps[:lead] for o in step.value]
        setup = lesson.setup
        self.state: GameState = new_game(self.rules, lesson.players, lesson.options,
                                         lesson.seed, force=opening,
                                         setup=None if setup is None else setup.apply)
        self.cursor = lead
        self.first = lead
        self.problems: list[str] = []  # a check that did not hold (a lesson bug, said)
        while self.cursor < min(start, len(lesson.steps)):
            self.play_silently()

    # --- where the lesson is -------------------------------------------------------

    @property
    def steps(self) -> list[Step]:
        """Every step of the lesson."""
        return self.lesson.steps

    @property
    def step(self) -> Step | None:
        """The step the lesson is at (None: the end)."""
        return self.steps[self.cursor] if self.cursor < len(self.steps) else None

    def kind(self, at: int | None = None) -> str:
        """What the step at `at` (default: the current one) asks: see the class."""
        at = self.cursor if at is None else at
        if at >= len(self.steps):
            return "done"
        step = self.steps[at]
        if step.kind == "act" and not step.illegal:
            if at != self.cursor:
                return "learner" if step.player == self.lesson.learner else "act"
            return "learner" if self.action().player == self.learner else "script"
        if step.say and step.kind in ("say", "expect"):
            return "read"
        return "auto"

    def caption(self) -> str:
        """The words on screen now: the last `say` met, up to the current step."""
        for step in reversed(self.steps[:self.cursor + 1]):
            if step.say:
                return step.say
        return ""

    def point(self) -> dict[str, str] | None:
        """What the current step points at, when it says."""
        step = self.step
        return None if step is None else step.point

    def action(self) -> Action:
        """The current act step's action, as the engine will take it."""
        step = self.step
        assert step is not None and step.kind == "act"
        return step_action(self.state, step)

    @property
    def stops(self) -> list[int]:
        """The steps the learner stops at (reads, or acts): where Back and Skip go."""
        out = []
        for at in range(self.first, len(self.steps)):
            step = self.steps[at]
            if (step.say and step.kind in ("say", "expect")) or (
                    step.kind == "act" and step.say and not step.illegal):
                out.append(at)
        return out

    def back_to(self) -> int:
        """Where Back goes: the stop before the current one (the first stays the first)."""
        earlier = [s for s in self.stops if s < self.cursor]
        return earlier[-1] if earlier else self.first

    def skip_to(self) -> int:
        """Where Skip goes: the next stop after the current one, or the end."""
        later = [s for s in self.stops if s > self.cursor]
        return later[0] if later else len(self.steps)

    def progress(self) -> tuple[int, int]:
        """Which stop this is, of how many (1-based), for "Step 3 of 9"."""
        stops = self.stops
        done = sum(1 for s in stops if s < self.cursor) + (1 if self.cursor in stops else 0)
        return max(1, min(done, len(stops))), max(1, len(stops))

    # --- going on ------------------------------------------------------------------

    def go_on(self) -> None:
        """Past the current step, having done what it does (the table has taken its act)."""
        self.cursor += 1

    def auto(self) -> None:
        """Do an `auto` or `read` step: queue its chance or make its check."""
        step = self.step
        if step is None:
            return
        try:
            problem = run_step(self.state, step)  # an act here is one the rules refuse
        except EngineError as exc:
            problem = str(exc)
        if problem:
            self.problems.append(f"step {step.index + 1} (line {step.line}): {problem}")
        self.cursor += 1

    def play_silently(self) -> None:
        """Do the current step whatever it is, acts too (Back and Skip replay the lesson
        this way up to where they go)."""
        step = self.step
        if step is None:
            return
        if step.kind == "act" and not step.illegal:
            try:
                apply(self.state, self.action())
            except (EngineError, PlacementError) as exc:
                self.problems.append(f"step {step.index + 1} (line {step.line}): {exc}")
            self.cursor += 1
            return
        self.auto()

    def finish(self) -> None:
        """Play the rest of the lesson without stopping."""
        while self.step is not None:
            self.play_silently()
