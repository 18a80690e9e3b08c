"""Whole seeded games played through the real table scene, every frame checked.

A case is a ruleset, a number of seats (people in several of them, so the laptop is
passed) and a way of playing (the mouse, or the keyboard alone); in a phones case the
second person plays from a phone (hands on phones), so the laptop shows the public table
while the game waits on them. The window takes each of
the three sizes in turn, a move at a time. Every frame drawn while a move plays out is
checked for privacy; every settled frame of every decision is checked in full.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from .. import bots
from ..engine import Action, Rules
from ..table.session import Seat
from .drive import Driver, key_event
from .frame import (
    Frame,
    Recorder,
    dice_faults,
    layer_faults,
    name_faults,
    number_faults,
    privacy_faults,
    shape_faults,
    text_faults,
)

if TYPE_CHECKING:
    from ..app import App
    from ..scenes.table import TableScene

WINDOWS = ((1280, 720), (800, 600), (1440, 900))
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
STEP = 0.1  # seconds a frame while a move plays out
PATIENCE = 400  # frames a move may take to play out before the table is called stuck


@dataclass(frozen=True)
class Case:
    """One game to audit."""

    name: str
    rules: Rules
    seats: int
    keyboard: bool
    seed: int = 1
    moves: int = 400  # decisions at most (a fixture game could go on)
    every: int = 1  # while a move plays out, every how many frames privacy is checked
    phones: bool = False  # the second seat's person plays from a phone

    def __str__(self) -> str:
        return (f"{self.name} {self.seats} seats {'keyboard' if self.keyboard else 'mouse'}"
                + (" phones" if self.phones else ""))


@dataclass
class Report:
    """What auditing one case found."""

    case: Case
    decisions: int = 0
    frames: int = 0
    faults: list[str] = field(default_factory=list)
    seconds: float = 0.0
    finished: bool = False


def seat_kinds(seats: int) -> list[str]:
    """People in the first two seats, then bots and people in turn: hand-offs between
    people, and bots' turns between them."""
    return ["human", "human"] + ["heuristic" if k % 2 == 0 else "human"
                                 for k in range(2, seats)]


class Audit:
    """Plays one case through the real table and collects its faults."""

    def __init__(self, app: App, case: Case) -> None:
        from ..scenes.table import TableScene

        self.app = app
        self.case = case
        self.report = Report(case)
        self.window = WINDOWS[0]
        self.resize(self.window)
        seats = [Seat(NAMES[k], kind, k % 6) for k, kind in enumerate(seat_kinds(case.seats))]
        self.table: TableScene = TableScene(app, case.rules, seats, {}, case.seed, saving=False)
        app.push(self.table)
        if case.phones:
            self.join_phone()
        self.recorder = Recorder(self.table)
        self.driver = Driver(self.table, case.keyboard, self.draw)
        self.rng = random.Random(case.seed)
        self.shapes: dict[tuple[int, int], dict[int, str]] = {}
        self.checked: tuple[int, int | None, tuple[int, int]] | None = None
        self.move = 0
        self.seen: dict[str, int] = {}  # each fault's place in the report
        self.again: list[int] = []  # how often each fault came back

    def join_phone(self) -> None:
        """The second seat's phone joins: its moves come through the phones' hub, as the
        server leaves them (no port is opened for the audit)."""
        from ..companion.link import PhoneLink

        table = self.table
        humans = [s for s in range(len(table.seats)) if not table.is_bot(s)]
        link = PhoneLink(humans, ["#888888"], table.rules.name)
        table.use_link(link)
        link.phones.join(1)

    def phone_move(self, wanted: Action) -> None:
        """Send the move from the deciding seat's phone; the table takes it in a frame."""
        from ..companion.hub import PhoneMove

        link = self.table.link
        assert link is not None
        move = PhoneMove(wanted.player, "act", wanted.id, dict(wanted.args))
        problem = link.phones.submit(move)
        for _ in range(PATIENCE):
            if problem or move.done.is_set():
                break
            self.app.step([], STEP)
        answer = move.answer or {"ok": False, "reason": problem or "never answered"}
        if not answer["ok"]:
            self.fault(f"the phone's move {wanted} was refused: {answer['reason']}")

    def fault(self, what: str) -> None:
        size = f"{self.window[0]}x{self.window[1]}"
        line = f"{self.case.name} {self.case.seats} seats {size} " \
               f"{'keyboard' if self.case.keyboard else 'mouse'} move {self.move}: {what}"
        # Each fault once per game, where it was first seen, with how often it came back.
        seen = self.seen.get(what)
        if seen is None:
            self.seen[what] = len(self.report.faults)
            self.report.faults.append(line)
            self.again.append(0)
        else:
            self.again[seen] += 1

    def resize(self, size: tuple[int, int]) -> None:
        self.window = size
        self.app.dispatch(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1],
                                             size=size))

    def draw(self, fresh: bool = True) -> Frame:
        """The table drawn on the app's canvas, as data."""
        self.report.frames += 1
        return self.recorder.frame(self.app.canvas, fresh)

    # --- the checks ----------------------------------------------------------------------

    def check_privacy(self) -> None:
        for what in privacy_faults(self.table, self.draw(fresh=False)):
            self.fault(what)

    def check_settled(self) -> None:
        """Every check, once per decision and window."""
        table = self.table
        key = (len(table.state.log), table.viewer, self.window)
        if key == self.checked:
            return
        self.checked = key
        self.report.decisions += 1
        frame = self.draw()
        faults = privacy_faults(table, frame) + number_faults(table, frame) + name_faults(
            table, frame) + text_faults(table, frame, self.app.canvas.get_rect())
        faults += shape_faults(self.shapes.setdefault(self.window, {}), frame, table)
        faults += self.check_reading(frame) + dice_faults(table)
        for what in faults:
            self.fault(what)

    def check_reading(self, frame: Frame) -> list[str]:
        """A card read large lies over everything else on the table."""
        table = self.table
        if not frame.faces or self.move % 5:
            return []
        rect, kind = frame.faces[len(frame.faces) // 2]
        table.zoom.pinned, table.zoom.viewer = kind, table.viewer
        table.mouse = rect.center
        try:
            return layer_faults(self.draw())
        finally:
            table.zoom.clear()
            table.mouse = (-1, -1)

    def check_escape(self) -> None:
        """Esc opens the menu; Esc again closes it, the game as it was."""
        from ..scenes.pause import PauseScene

        app = self.app
        below = app.top
        app.dispatch(key_event(pygame.K_ESCAPE))
        if not isinstance(app.top, PauseScene):
            self.fault(f"Esc on the {type(below).__name__} does not open the menu")
            if app.top is not below:
                app.pop()
            return
        app.dispatch(key_event(pygame.K_ESCAPE))
        if app.top is not below:
            self.fault("Esc in the menu does not go back to the game")
            while app.top is not below and len(app.stack) > 1:
                app.pop()

    # --- playing ---------------------------------------------------------------------------

    def settled(self) -> bool:
        """Nothing moves: the table shows the engine's state as it will stay."""
        table = self.table
        return (table.idle and table.shown.scores == table.shown.score_goals
                and not any(s.goal is not None for s in table.sprites.values()))

    def play_out(self) -> bool:
        """Frames until a person must act or the game is over (False: stuck)."""
        from ..scenes.handoff import HandoffScene

        app, table = self.app, self.table
        for frame in range(PATIENCE):
            top = app.top
            if isinstance(top, HandoffScene):
                if self.case.keyboard:
                    self.check_escape()
                app.dispatch(key_event(pygame.K_RETURN, unicode="\r"))
                continue
            if top is not table:
                return True  # the results, over the finished game
            if self.settled():
                self.check_settled()
                if table.my_turn or table.state.game_over or (
                        table.on_phone(table.deciding) and not table.session.bot_to_move):
                    return True
            app.step([], STEP)
            if app.top is table and not self.settled() and frame % self.case.every == 0:
                self.check_privacy()
        self.fault("the table never settled for a person to act")
        return False

    def run(self) -> Report:
        start = time.perf_counter()
        app, table = self.app, self.table
        app.draw = lambda: None  # type: ignore[method-assign]  # the audit draws, as data
        try:
            while self.move < self.case.moves and self.play_out():
                if table.state.game_over or app.top is not table:
                    self.report.finished = table.state.game_over
                    break
                size = WINDOWS[self.move % len(WINDOWS)]
                if size != self.window:
                    self.resize(size)
                    self.check_settled()
                if self.case.keyboard:
                    self.check_escape()
                wanted = bots.choose("heuristic" if self.rng.random() < 0.85 else "random",
                                     table.state, self.rng)
                if table.on_phone(table.deciding):
                    self.phone_move(wanted)
                else:
                    for what in self.driver.make(wanted):
                        self.fault(what)
                self.move += 1
        finally:
            del app.draw
            self.recorder.close()
            app.hold_phones(None)
            while app.stack:
                app.pop()
        self.report.seconds = time.perf_counter() - start
        self.report.faults = [line + (f" (and {n} times more)" if n else "")
                              for line, n in zip(self.report.faults, self.again, strict=True)]
        return self.report


def audit(app: App, case: Case) -> Report:
    """Play one case through the table; what it found."""
    return Audit(app, case).run()


def cases(rulesets: list[tuple[str, Rules]], quick: bool) -> list[Case]:
    """The games to play: each ruleset at two seats and at the most it allows, once by
    mouse and once by keyboard. Quick (the suite's): a shipped game's first 30 moves at two
    seats by mouse and at the most by keyboard; a fixture's first 20 at one of them, in
    turn; privacy looked at every third frame of a move's playback."""
    out = []
    for k, (name, rules) in enumerate(rulesets):
        low, high = max(2, rules.min_players), min(6, rules.max_players)
        # Hands on phones where a hand is private: the laptop shows the public table while
        # the second person plays from their phone.
        phones = rules.hidden_information and not name.startswith("fixture_")
        if not quick:
            for seats in sorted({low, high}):
                out += [Case(name, rules, seats, False), Case(name, rules, seats, True)]
                if phones:
                    out.append(Case(name, rules, seats, seats == high, phones=True))
        elif name.startswith("fixture_"):
            out.append(Case(name, rules, high if k % 2 else low, bool(k % 2), moves=20,
                            every=3))
        else:
            out += [Case(name, rules, low, False, moves=30, every=3),
                    Case(name, rules, high, True, moves=30, every=3)]
            if phones:
                out.append(Case(name, rules, high, False, moves=30, every=3, phones=True))
    return out
