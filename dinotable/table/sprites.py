"""The table's shared sprite layer: dice that fly between widgets (cup, tray, an area, a
player's row), and the display model that trails the engine while events play back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Sprite:
    """A die on the table outside the cup, where it is drawn now and where it is going."""

    id: str
    kind: str
    face: str | None
    zone: str
    x: float
    y: float
    owner: int | None = None  # whose zone, for a zone every player has
    angle: float = 0.0
    start: tuple[float, float] = (0.0, 0.0)
    goal: tuple[float, float] | None = None
    turn: float = 0.0  # the angle it comes to lie at
    t: float = 0.0
    duration: float = 0.0

    def tween(self, goal: tuple[float, float], duration: float, turn: float = 0.0) -> None:
        """Slide to a point (ease-out), e.g. a caught dino going to its row, coming to lie
        turned by `turn` degrees (square by default)."""
        self.start = (self.x, self.y)
        self.goal = goal
        self.turn = turn
        # The short way round: 350 degrees to 10 turns by 20, not 340.
        self.angle = turn + (self.angle - turn + 180.0) % 360.0 - 180.0
        self.t = 0.0
        self.duration = duration

    def update(self, dt: float) -> None:
        """Advance a slide."""
        if self.goal is None:
            return
        self.t = min(self.duration, self.t + dt)
        k = 1.0 if self.duration <= 0 else self.t / self.duration
        k = 1 - (1 - k) ** 3
        self.x = self.start[0] + (self.goal[0] - self.start[0]) * k
        self.y = self.start[1] + (self.goal[1] - self.start[1]) * k
        self.angle = self.turn + (self.angle - self.turn) * (1 - k)
        if self.t >= self.duration:
            self.x, self.y = self.goal
            self.angle = self.turn % 360.0
            self.goal = None


@dataclass
class Step:
    """One beat of the playback: something starts, then the table waits `duration`."""

    start: Callable[[], float]  # returns how long to wait after starting
    label: str = ""


@dataclass
class Shown:
    """What the table shows, trailing the engine while events play back."""

    current: int = 0
    scores: list[float] = field(default_factory=list)
    score_goals: list[float] = field(default_factory=list)
    source: dict[str, int] = field(default_factory=dict)  # kind -> dice in the cup
    round: int = 1
    out: set[int] = field(default_factory=set)  # dropped out of this round
    phase: str = ""  # the round's phase being played ('' without phases)


def dice_words(n: int) -> str:
    """"1 die", "3 dice"."""
    return f"{n} {'die' if n == 1 else 'dice'}"
