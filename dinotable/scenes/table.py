"""The table: any ruleset drawn from its `layout`, played by people and bots in turn.

The engine has already decided everything when `apply` returns; this scene plays the
returned events back one by one (dice drawn, tossed, set aside, words said, the turn
passed) on a display model that trails the engine until the animation catches up.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from .. import bots, saves
from ..engine import (
    Action,
    Event,
    GameState,
    Rules,
    apply,
    new_game,
    redact,
    view_for,
    waiting_on,
)
from ..engine.expr import evaluate
from ..narrate import LAST_ROUND, describe
from ..physics.tray import Toss, Tray
from ..render import theme
from ..render.dice import draw_die, name_faces
from ..render.widgets import Banner, Panel, draw_log, name_plate
from ..ruleset.layout import Layout
from ..settings import BOT_SPEEDS
from ..table.choice import Choice, Chooser, Target
from ..table.widgets import Look, Widget, default_widgets
from .base import Control, Menu, Scene

if TYPE_CHECKING:
    from ..app import App
    from .setup import Seat

DIE = 64  # die size in the tray
SMALL_DIE = 46  # die size in the areas
PLAYER_DIE = 16  # die size in a player's row (up to twelve fit under a name plate)
TRAY = pygame.Rect(300, 112, 660, 400)
SCORES = pygame.Rect(16, 112, 268, 400)
SIDE = pygame.Rect(976, 112, 288, 400)
LOG = pygame.Rect(976, 528, 288, 176)
TRACK_BAND = 124  # height of the race track under the tray, when the ruleset has one
HURRY = 0.12  # seconds a bot waits when hurried (H)
GREY = (200, 196, 186)
SOUND_OF_TONE = {"bad": "bust", "good": "bank"}


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
    t: float = 0.0
    duration: float = 0.0

    def tween(self, goal: tuple[float, float], duration: float) -> None:
        """Slide to a point (ease-out), e.g. a caught dino going to its row."""
        self.start = (self.x, self.y)
        self.goal = goal
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
        self.angle *= 1 - k
        if self.t >= self.duration:
            self.x, self.y = self.goal
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


class TableScene(Scene):
    """A game in progress."""

    def __init__(self, app: App, rules: Rules, seats: list[Seat], options: dict[str, Any],
                 seed: int, state: GameState | None = None,
                 bots_rng: random.Random | None = None, saving: bool = True) -> None:
        super().__init__(app)
        self.saving = saving  # False: a demo, which never touches the autosave
        self.rules = rules
        self.seats = seats
        self.options = options
        self.seed = seed
        self.layout: Layout = rules.layout
        # A continued game arrives as the state its saved moves rebuilt.
        self.state: GameState = state or new_game(rules, [s.name for s in seats], options, seed)
        # The bots' choices come from a source that is saved with the game, so a continued
        # game plays on exactly as it would have; the dice's tumbling has its own.
        self.rng = bots_rng or random.Random(seed ^ 0xB07)
        self.toss_rng = random.Random(seed ^ 0x7055)
        self.save_problem = ""
        # A track takes a band under the tray; the tray shrinks to make room.
        self.tr = TRAY if rules.layout.track is None else pygame.Rect(
            TRAY.x, TRAY.y, TRAY.w, TRAY.h - TRACK_BAND)
        self.tray = Tray(self.tr.w, self.tr.h, DIE)
        self.sprites: dict[str, Sprite] = {}
        self.steps: deque[Step] = deque()
        self.wait = 0.0
        self.toss: Toss | None = None
        self.toss_t = 0.0
        self.toss_bumps: list[Any] = []
        self.pending_fling: tuple[float, float, float, float] | None = None
        self.drag: list[tuple[float, float, float]] = []
        self.banner: tuple[str, tuple[int, int, int], float] | None = None
        self.log: list[str] = []
        self.log_scroll = 0
        who = seats[self.state.current].name
        self.last_words = (f"{who} starts." if not self.state.log else
                           f"Welcome back: the game goes on with {who}.")
        self.bot_wait = 0.0
        self.hurry = False
        self.show_odds = app.settings.show_odds
        self.menu = Menu()
        self.handoff_seen: int | None = None
        self.handoff_due = False
        self.results_shown = False
        # The person holding the laptop: the table draws only what this seat may see (None:
        # nobody yet, so only what is public). Set when a hand-off is answered, or when a
        # human seat acts; bots playing leave it with the last human.
        self.holder: int | None = None
        self.view: dict[str, Any] = view_for(self.state, None)
        self.chooser = Chooser(self.state, [s.name for s in seats])
        self.widgets: list[Widget] = default_widgets(rules, rules.layout)
        name_faces({face: style.label for face, style in rules.layout.faces.items()})
        self.widget_rects: list[pygame.Rect] = []
        self.mouse: tuple[int, int] = (-1, -1)
        self.asked = ""  # the prompt of the question the game waits on, for the header
        self.page = 0  # the action bar's page, when there are more buttons than fit
        self.sprite_zones = set(self.layout.tray) | {a.zone for a in self.layout.areas} | {
            a.zone for a in self.layout.player_zones}
        scores = [float(v or 0) for v in self.view["scores"]]
        self.shown = Shown(self.state.current, scores, list(scores), self._source_counts(),
                           self.state.round)
        self._settle()  # dice that start on the table (a pool in the tray) are laid out

    # --- helpers -----------------------------------------------------------

    def _source_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        if self.layout.source:
            content = self.view["zones"][self.layout.source]
            if self.rules.zones[self.layout.source].per_player:
                content = content[self.state.current]
            for entry in content if isinstance(content, list) else []:
                kind = entry[1]
                if kind is not None:
                    counts[kind] = counts.get(kind, 0) + 1
        return counts

    def colour(self, seat: int) -> tuple[int, int, int]:
        """A seat's player colour."""
        return theme.PLAYER_COLOURS[self.seats[seat].colour].rgb

    def mark(self, seat: int) -> str:
        """A seat's shape mark, so players are told apart without colour."""
        return theme.PLAYER_COLOURS[self.seats[seat].colour].mark

    def die_colour(self, kind: str) -> tuple[int, int, int]:
        """A die kind's colour from the layout (grey when the layout names none)."""
        return self.layout.dice_colours.get(kind, GREY)

    def face_label(self, face: str | None) -> str:
        """A face's name on screen."""
        if face is None:
            return "?"
        style = self.layout.faces.get(face)
        return style.label if style else str(face).replace("_", " ")

    @property
    def idle(self) -> bool:
        """No animation is playing: the table shows the engine's state."""
        return not self.steps and self.wait <= 0 and self.toss is None

    @property
    def animating(self) -> bool:
        """Dice rolling, pieces sliding, a banner showing, a score ticking, a bot to move."""
        return (not self.idle or self.banner is not None or self.handoff_due
                or any(sp.goal is not None for sp in self.sprites.values())
                or self.shown.scores != self.shown.score_goals
                or (not self.state.game_over and self.is_bot(self.deciding)))

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays this seat."""
        return self.seats[seat].kind != "human"

    def name(self, seat: int) -> str:
        """A seat's player name."""
        return self.seats[seat].name

    # --- positions ---------------------------------------------------------

    def source_point(self) -> tuple[float, float]:
        """Where dice come out of the cup (canvas coordinates)."""
        return (SIDE.x + 70.0, SIDE.y + 78.0)

    def area_rect(self, index: int) -> pygame.Rect:
        """The row of an area in the side column."""
        return pygame.Rect(SIDE.x + 8, SIDE.y + 160 + index * 122, SIDE.w - 16, 112)

    def slot(self, zone: str, index: int) -> tuple[float, float]:
        """Where the index-th die of an area's zone sits."""
        for i, area in enumerate(self.layout.areas):
            if area.zone == zone:
                rect = self.area_rect(i)
                per_row = max(1, (rect.w - 16) // (SMALL_DIE + 6))
                row, col = divmod(index, per_row)
                return (rect.x + 10 + SMALL_DIE / 2 + col * (SMALL_DIE + 6),
                        rect.y + 46 + SMALL_DIE / 2 + row * (SMALL_DIE * 0.55))
        return self.source_point()

    def zone_sprites(self, zone: str, owner: int | None = None) -> list[Sprite]:
        """The sprites shown in a zone (one player's, for a per-player zone), in order."""
        return [s for s in self.sprites.values() if s.zone == zone and s.owner == owner]

    @property
    def row_height(self) -> int:
        """A player's row: the name plate, and a strip below it when they have things."""
        layout = self.layout
        return 92 if layout.player_zones or layout.player_counters else 56

    def plate_rect(self, seat: int) -> pygame.Rect:
        """A player's name plate in the score column."""
        return pygame.Rect(SCORES.x + 10, SCORES.y + 52 + seat * self.row_height,
                           SCORES.w - 20, 50)

    def row_rect(self, seat: int) -> pygame.Rect:
        """A player's whole row (plate and strip): what a click on a player hits."""
        plate = self.plate_rect(seat)
        return pygame.Rect(plate.x, plate.y, plate.w, self.row_height - 4)

    def player_slot(self, seat: int, index: int) -> tuple[float, float]:
        """Where the index-th die of a player's own zone sits, under their plate."""
        plate = self.plate_rect(seat)
        return (plate.x + 6 + PLAYER_DIE / 2 + index * (PLAYER_DIE + 1),
                plate.bottom + 6 + PLAYER_DIE / 2)

    def tray_spot(self, index: int, side: str = "right") -> tuple[float, float]:
        """A resting place for a die at one edge of the tray."""
        col, row = divmod(index, 5)
        x = (self.tr.right - DIE * (0.8 + col)) if side == "right" else (
            self.tr.x + DIE * (0.8 + col))
        return (x, self.tr.y + DIE * 0.9 + row * (DIE + 8))

    # --- playing actions ---------------------------------------------------

    @property
    def viewer(self) -> int | None:
        """The seat whose view the table shows: whoever holds the laptop."""
        return self.holder

    def take(self, action: Action) -> None:
        """Apply an action and queue its events, as the laptop's holder may see them."""
        if not self.is_bot(action.player):
            self.holder = action.player
        events = redact(apply(self.state, action), self.viewer, self.state)
        adef = self.rules.actions[action.id]
        self.log_line(f"{self.name(action.player)}: {adef.label}.")
        self.chooser.cancel()
        for event in events:
            self.queue_event(event)
        self.steps.append(Step(self._settle, "settle"))
        self.autosave()

    def saved_game(self) -> saves.SavedGame:
        """The game as it will be written: enough to rebuild it exactly."""
        return saves.SavedGame(
            self.rules.id, self.rules.version,
            [saves.SavedSeat(s.name, s.kind, s.colour) for s in self.seats],
            dict(self.state.options), self.seed,
            [(a.player, a.id, a.args) for a in self.state.log], self.rng.getstate())

    def autosave(self) -> None:
        """Keep the game on disk after every move; a finished game goes to finished/."""
        if not self.saving:
            return
        problem = saves.try_write(self.saved_game())
        if problem is None:
            if self.state.game_over:
                saves.archive()
            return
        if not self.save_problem:
            # Once: the game goes on, and the players know it will not be kept.
            self.save_problem = problem
            self.log_line(f"This game cannot be saved ({problem}); play goes on.")
            self.last_words = "This game cannot be saved; play goes on."

    def closing(self) -> None:
        # Saved after every move already; this keeps a game nobody has moved in yet.
        if self.saving and not self.state.game_over:
            self.autosave()

    def queue_event(self, event: Event) -> None:
        """Turn one engine event into playback steps."""
        kind, data, seat = event.kind, event.data, event.seat
        if kind in ("drew", "rolled", "moved") and (data.get("hidden") or not (
                {data.get("from"), data.get("to"), data.get("zone")} & self.sprite_zones)):
            # Cards and pieces the widgets draw from the view; the dice in the tray and
            # its areas are animated below. Either way the log says it in words.
            line = describe(event, self.view, self.viewer)
            if line:
                self.steps.append(Step(partial(self._note, line), "note"))
            return
        if kind == "asked":
            self.asked = str(data.get("prompt") or "")
        if kind == "window_opened":
            asking = int(data["asking"])
            text = f"{self.name(asking)} may respond."
            self.steps.append(Step(partial(self._note, text), "window"))
            return
        if kind == "drew":
            self.steps.append(Step(lambda: self._drew(data), "drew"))
        elif kind == "rolled":
            self.steps.append(Step(lambda: self._rolled(data), "rolled"))
        elif kind == "moved":
            self.steps.append(Step(lambda: self._moved(data), "moved"))
        elif kind == "said" or (kind == "asked" and data.get("prompt")):
            text = str(data.get("text") or data.get("prompt"))
            tone = str(data.get("tone", "news"))
            self.steps.append(Step(lambda: self._said(text, tone), "said"))
        elif kind == "changed" and seat is not None:
            self.steps.append(Step(lambda: self._changed(seat, data), "changed"))
        elif kind == "turn_started" and seat is not None:
            self.steps.append(Step(lambda: self._turn_started(seat), "turn"))
        elif kind == "last_round" and seat is not None:
            text = LAST_ROUND.get(str(data.get("then")), "The end of the game has begun.")
            self.steps.append(Step(lambda: self._announce(text, theme.GOLD, 2.2), "last"))
        elif kind == "tiebreak":
            tied = " and ".join(self.name(s) for s in data["seats"])
            text = f"A tie! {tied} play a tiebreaker round."
            self.steps.append(Step(lambda: self._announce(text, theme.GOLD, 2.4), "tie"))
        elif kind == "dropped_out" and seat is not None:
            self.steps.append(Step(lambda: self._dropped(seat), "out"))
        elif kind == "round_started":
            number = int(data["round"])
            self.steps.append(Step(lambda: self._round(number), "round"))
        elif kind == "game_over":
            winners = " and ".join(self.name(s) for s in data["winners"])
            text = f"{winners} win{'s' if len(data['winners']) == 1 else ''} the game!"
            self.steps.append(Step(lambda: self._announce(text, theme.GOLD, 2.0, "bank"),
                                   "over"))

    def _drew(self, data: dict[str, Any]) -> float:
        sx, sy = self.source_point()
        entry = [(self.tr.right - DIE, self.tr.y + DIE + i * (DIE + 12)) for i in range(6)]
        for n, (item, kind) in enumerate(zip(data["items"], data["kinds"], strict=True)):
            if kind in self.shown.source:
                self.shown.source[kind] = max(0, self.shown.source[kind] - 1)
            sprite = Sprite(item, kind, None, data["to"], sx, sy)
            sprite.tween(entry[n % len(entry)], 0.3)
            self.sprites[item] = sprite
        n = len(data["items"])
        where = self.layout.source_label.lower() or "cup"
        self.log_line(f"{self.name(self.shown.current)} takes {n} "
                      f"{'die' if n == 1 else 'dice'} from the {where}.")
        return 0.32

    def _rolled(self, data: dict[str, Any]) -> float:
        dice = []
        resting: dict[str, tuple[float, float, float]] = {}
        showing: dict[str, str] = {}
        for item, kind, face in data["dice"]:
            sprite = self.sprites.get(item)
            if sprite is None:
                sx, sy = self.source_point()
                sprite = self.sprites[item] = Sprite(item, kind, None, data["zone"], sx, sy)
            sprite.goal = None
            x = min(max(sprite.x - self.tr.x, DIE / 2 + 2), self.tr.w - DIE / 2 - 2)
            y = min(max(sprite.y - self.tr.y, DIE / 2 + 2), self.tr.h - DIE / 2 - 2)
            resting[item] = (x, y, sprite.angle)
            if sprite.face is not None:
                showing[item] = sprite.face
            dice.append((item, self.rules.dice[kind].faces, face))
        fling, self.pending_fling = self.pending_fling, None
        self.toss = self.tray.toss(dice, self.toss_rng.randrange(1 << 30), fling, resting,
                                   showing=showing)
        self.toss_t = 0.0
        self.toss_bumps = list(self.toss.bumps)
        shown = ", ".join(self.face_label(face) for _, _, face in data["dice"])
        self.log_line(f"{self.name(self.shown.current)} rolls: {shown}.")
        self.last_words = f"{self.name(self.shown.current)} rolled {shown}."
        return 0.0  # the toss itself holds the playback until the dice rest

    def _moved(self, data: dict[str, Any]) -> float:
        target = data["to"]
        if target == self.layout.source:
            for item in data["items"]:
                sprite = self.sprites.pop(item, None)
                if sprite is not None:
                    self.shown.source[sprite.kind] = self.shown.source.get(sprite.kind, 0) + 1
            return 0.12
        owner = data.get("to_owner")
        start = len(self.zone_sprites(target, owner))
        in_tray = len(self.zone_sprites(target)) if target in self.layout.tray else 0
        for n, item in enumerate(data["items"]):
            sprite = self.sprites.get(item)
            if sprite is None:
                continue
            sprite.zone, sprite.owner = target, owner
            if target in self.layout.tray:
                if data.get("from") not in self.layout.tray:  # turned in: back on the table
                    sprite.tween(self.tray_spot(in_tray + n, "left"), 0.5)
                continue
            if owner is not None:
                sprite.tween(self.player_slot(owner, start + n), 0.45)
            else:
                sprite.tween(self.slot(target, start + n), 0.4)
        return 0.47

    def _said(self, text: str, tone: str) -> float:
        # The ruleset says whether its words are good or bad news: colour and sound follow.
        self.log_line(text)
        self.last_words = text
        colour = {"bad": theme.DANGER, "good": theme.GOOD}.get(tone, theme.WOOD)
        if tone in SOUND_OF_TONE:
            self.app.sounds.play(SOUND_OF_TONE[tone])
        self.banner = (text, colour, 2.0)
        return 1.2

    def _changed(self, seat: int, data: dict[str, Any]) -> float:
        score = data.get("score")
        if not isinstance(score, int | float):
            return 0.0  # a secret score, or one not shown before the end: nothing ticks up
        self.shown.score_goals[seat] = float(score)
        return 0.3

    def _note(self, text: str) -> float:
        self.log_line(text)
        self.last_words = text
        return 0.35

    def _turn_started(self, seat: int) -> float:
        self.shown.current = seat
        if self.layout.passed:
            # The dice go round the table: they slide over to the new thrower's side.
            dice = [sp for sp in self.sprites.values() if sp.zone in self.layout.tray]
            for n, sprite in enumerate(dice):
                sprite.tween(self.tray_spot(n, "left"), 0.5)
        self.app.sounds.play("turn")
        who = self.name(seat) + (" (bot)" if self.is_bot(seat) else "")
        self.banner = (f"{who}'s turn", self.colour(seat), 1.0)
        self.log_line(f"--- {self.name(seat)}'s turn ---")
        return 0.5

    def _round(self, number: int) -> float:
        self.shown.round = number
        self.shown.out.clear()
        return 0.0

    def _dropped(self, seat: int) -> float:
        self.shown.out.add(seat)
        return 0.2

    def _announce(self, text: str, colour: tuple[int, int, int], seconds: float,
                  sound: str = "turn") -> float:
        self.banner = (text, colour, seconds)
        self.log_line(text)
        self.last_words = text
        self.app.sounds.play(sound)
        return seconds * 0.8

    def _settle(self) -> float:
        """After playback: the display matches the engine exactly."""
        if not self.state.game_over:
            self._maybe_handoff()  # may change who holds the laptop, so it comes first
        self.view = view_for(self.state, self.viewer)
        self.shown.current = self.state.current
        self.shown.score_goals = [float(v or 0) for v in self.view["scores"]]
        self.shown.source = self._source_counts()
        self.shown.round = self.state.round
        self.shown.out = {s for s in range(len(self.seats)) if self.state.out[s]}
        on_table = set()
        for zname in self.sprite_zones:
            per_player = self.rules.zones[zname].per_player
            shown = self.view["zones"][zname]
            for owner, content in enumerate(shown if per_player else [shown]):
                if isinstance(content, dict):
                    continue  # hidden from this viewer: nothing to draw
                for n, (item_id, kind, face) in enumerate(content):
                    if item_id is None:
                        continue
                    on_table.add(item_id)
                    sprite = self.sprites.get(item_id)
                    if sprite is None:
                        sx, sy = self.source_point()
                        sprite = self.sprites[item_id] = Sprite(item_id, kind, face, zname,
                                                                sx, sy)
                        if zname in self.layout.tray:
                            sprite.x, sprite.y = self.tray_spot(n, "left")
                    sprite.face, sprite.zone = face, zname
                    sprite.owner = owner if per_player else None
                    if per_player and sprite.goal is None:
                        sprite.x, sprite.y = self.player_slot(owner, n)
        for gone in set(self.sprites) - on_table:
            del self.sprites[gone]
        if not self.state.pending:
            self.asked = ""
        self.chooser.refresh()
        self._refresh_buttons()
        return 0.0

    def _maybe_handoff(self) -> None:
        """A human seat is asked to act: when it is not the one holding the laptop and the
        game hides things, the laptop is passed (the hand-off screen) before anything of
        theirs is drawn; otherwise they simply hold it now."""
        seat = self.deciding
        if self.state.game_over or self.is_bot(seat) or self.holder == seat:
            return
        humans = [s for s in range(len(self.seats)) if not self.is_bot(s)]
        needed = self.rules.hidden_information or self.app.settings.always_handoff
        if needed and len(humans) > 1:
            if self.handoff_seen != seat:
                self.handoff_seen = seat
                self.handoff_due = True  # shown from update(), once this scene is on top
            return
        self.holder = seat

    def handed(self, seat: int) -> None:
        """The hand-off was answered: `seat` holds the laptop; the table shows their view."""
        self.holder = seat
        self.handoff_seen = None
        self.view = view_for(self.state, seat)
        self.chooser.refresh()
        self._refresh_buttons()

    def handoff_words(self, seat: int) -> str:
        """Why the laptop goes to `seat`: their turn, or a question or a chance to respond
        on someone else's turn."""
        decision = view_for(self.state, None)["decision"]
        name = self.name(seat)
        if decision is not None and seat != self.state.current:
            if decision["kind"] == "window":
                return f"{name}, you may respond"
            return f"{name}, you are asked"
        return f"{name}'s turn"

    @property
    def deciding(self) -> int:
        """The seat the game waits on (whose turn it is, or who is asked to answer)."""
        seat = waiting_on(self.state)
        return self.state.current if seat is None else seat

    def log_line(self, text: str) -> None:
        """Add a line to the table's log."""
        self.log.append(text)
        self.log = self.log[-200:]
        self.log_scroll = 0

    # --- buttons -------------------------------------------------------------

    BAR = pygame.Rect(160, 600, 800, 70)  # the action bar, left of the log

    def _refresh_buttons(self) -> None:
        seat = self.deciding
        human_turn = (not self.state.game_over and not self.is_bot(seat) and self.idle
                      and self.holder == seat)
        choices = self.chooser.choices() if human_turn else []
        if not human_turn and not self.state.game_over and not self.chooser.building:
            # Greyed, so everyone sees what the game is about, with why on hover.
            reason = ("Wait for the table to settle" if not self.idle else
                      f"It is {self.name(seat)}'s turn")
            choices = [Choice(adef.label, f"action:{adef.id}", enabled=False, reason=reason,
                              key=adef.key.upper())
                       for adef in self.rules.actions.values()
                       if adef.by == "current" and not self.state.pending]
        controls = self._bar(choices)
        controls.append(Control(pygame.Rect(16, 600, 130, 56), "Menu", self.pause, key="Esc",
                                tag="pause"))
        if self.layout.odds is not None:
            controls.append(Control(pygame.Rect(16, 662, 130, 50), "Odds", self.toggle_odds,
                                    key="O", tag="odds"))
        self.menu.set(controls)
        self.menu.show_focus = human_turn  # no ring to chase while a bot or the dice move
        focused = self.menu.focused
        if human_turn and not (focused.enabled and focused.tag not in ("pause", "odds")):
            # The player's first choice gets the keyboard focus: Enter does the obvious thing.
            for i, c in enumerate(controls):
                if c.enabled and c.tag not in ("pause", "odds") and not c.tag.startswith(
                        "page:"):
                    self.menu.focus = i
                    break

    def _bar(self, choices: list[Choice]) -> list[Control]:
        """The choices as buttons along the bar; when they do not fit, a page at a time
        with arrows either side, so none ever runs off the screen."""
        bar = self.BAR

        def width(c: Choice) -> int:
            text = theme.font(theme.SIZE_BUTTON, True).size(c.label)[0]
            keycap = theme.font(theme.SMALL, True).size(c.key)[0] + 40 if c.key else 0
            return min(bar.w // 2, max(150, text + keycap + 50))

        pages: list[list[Choice]]
        room = bar.w - 2 * 66  # space between the arrows
        cap = max(150, room // 3 - 12)
        if sum(width(c) + 12 for c in choices) > bar.w:
            # Paged: no button wider than a third of a page, and each page filled with
            # every later button that still fits before a new page is begun.
            pages = []
            used_by: list[int] = []
            for c in choices:
                w = min(width(c), cap) + 12
                for k, used in enumerate(used_by):
                    if used + w <= room:
                        pages[k].append(c)
                        used_by[k] += w
                        break
                else:
                    pages.append([c])
                    used_by.append(w)
        else:
            pages = [list(choices)]
        self.page = min(self.page, len(pages) - 1)
        paged = len(pages) > 1
        x = bar.x + (66 if paged else 0)
        controls: list[Control] = []
        for c in pages[self.page]:
            w = min(width(c), cap) if paged else width(c)
            label = theme.ellipsize(c.label, theme.font(theme.SIZE_BUTTON, True),
                                    w - (theme.font(theme.SMALL, True).size(c.key)[0] + 40
                                         if c.key else 0) - 30)
            controls.append(Control(pygame.Rect(x, bar.y, w, bar.h), label,
                                    partial(self.choose, c), key=c.key, enabled=c.enabled,
                                    why_disabled=c.reason, tag=c.tag))
            x += w + 12
        if paged:
            controls.append(Control(pygame.Rect(bar.x, bar.y, 56, bar.h), "<",
                                    partial(self.turn_page, -1), tag="page:prev",
                                    enabled=self.page > 0))
            controls.append(Control(pygame.Rect(bar.right - 56, bar.y, 56, bar.h), ">",
                                    partial(self.turn_page, 1), tag="page:next",
                                    enabled=self.page < len(pages) - 1))
        return controls

    def turn_page(self, step: int) -> None:
        """Show the next or previous page of the action bar."""
        self.page = max(0, self.page + step)
        self._refresh_buttons()

    def choose(self, choice: Choice) -> None:
        """A button pressed: take its action, or take a step of a choice being built."""
        action = choice.action if choice.step is None else choice.step()
        if action is not None and choice.enabled:
            self.page = 0
            self.take(action)
        self._refresh_buttons()

    def click_target(self, target: Target) -> bool:
        """A click on a die, card, space or player: an action, a step, or nothing."""
        if not self.idle or self.state.game_over or self.is_bot(self.deciding) or (
                self.holder != self.deciding):
            return False
        if target not in self.chooser.targets():
            return False
        action = self.chooser.click(target)
        if action is not None:
            self.page = 0
            self.take(action)
        self._refresh_buttons()
        return True

    def toggle_odds(self) -> None:
        """Show or hide the chance panel."""
        self.show_odds = not self.show_odds
        self.app.settings.show_odds = self.show_odds
        self.app.settings.save()

    def pause(self) -> None:
        """The pause menu."""
        from .pause import PauseScene

        self.app.push(PauseScene(self.app, self))

    def restart(self) -> None:
        """The same seats and options, new dice."""
        self.app.replace(TableScene(self.app, self.rules, self.seats, self.options,
                                    random.randrange(1 << 30)))

    def demo_toss(self, seed: int) -> None:
        """Toss every die in the cup across the tray, for show only (the benchmark's load):
        the engine's state is not touched."""
        rng = random.Random(seed)
        dice = []
        for i in self.state.zone(self.layout.source, self.state.current) if self.layout.source \
                else []:
            item = self.state.items[i]
            faces = self.rules.dice[item.kind].faces
            self.sprites[item.id] = Sprite(item.id, item.kind, None, self.layout.tray[0],
                                           self.tr.centerx, self.tr.centery)
            dice.append((item.id, faces, faces[rng.randrange(len(faces))]))
        self.toss = self.tray.toss(dice, seed)
        self.toss_t = 0.0
        self.toss_bumps = list(self.toss.bumps)

    # --- input -----------------------------------------------------------------

    def action_for_key(self, key: int) -> Action | None:
        """The legal action a key stands for, if any."""
        if not self.idle or self.state.game_over or self.is_bot(self.deciding) or (
                self.holder != self.deciding):
            return None
        toss = self.layout.toss_action
        if key == pygame.K_SPACE and toss and self.chooser.available(toss) and (
                self.chooser.building is None):
            return self.chooser.for_key(self.rules.actions[toss].key) or next(
                (c.action for c in self.chooser.choices()
                 if c.tag == f"action:{toss}" and c.enabled), None)
        for choice in self.chooser.choices():
            if choice.key and len(choice.key) == 1 and choice.enabled and (
                    choice.action is not None) and choice.step is None and (
                    key == pygame.key.key_code(choice.key.lower())):
                return choice.action
        return None

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.pause()
                return
            if event.key == pygame.K_F1:
                from .rules import RulesScene

                self.app.push(RulesScene(self.app, self.rules))
                return
            if event.key == pygame.K_o:
                self.toggle_odds()
                return
            if event.key == pygame.K_h:
                self.hurry = not self.hurry
                return
            if event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
                self.scroll_log(3 if event.key == pygame.K_PAGEUP else -3)
                return
            action = self.action_for_key(event.key)
            if action is not None:
                self.take(action)
                self._refresh_buttons()
                return
            if event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER) and not (
                    self.idle and not self.state.game_over
                    and not self.is_bot(self.deciding)):
                # An impatient Space while the dice roll must not press whatever button
                # happens to have the focus (it would open the menu): it does nothing.
                return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_log(event.y)
            return
        if self._drag(event):
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for seat in self.steal_targets():
                if self.row_rect(seat).collidepoint(event.pos):
                    self.click_target(Target("seat", seat))
                    return
            for widget in self.widgets:
                target = widget.hit(event.pos)
                if target is not None and self.click_target(target):
                    return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_BACKSPACE and (
                self.chooser.building is not None):
            self.chooser.cancel()
            self._refresh_buttons()
            return
        if self.menu.handle(event):
            self._refresh_buttons()

    def scroll_log(self, lines: int) -> None:
        """Scroll the log (positive: back in time)."""
        self.log_scroll = max(0, min(max(0, len(self.log) - 5), self.log_scroll + lines))

    def _drag(self, event: pygame.event.Event) -> bool:
        """Drag across the tray and let go to fling the dice."""
        now = time.perf_counter()
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.tr.collidepoint(
                event.pos):
            self.drag = [(float(event.pos[0]), float(event.pos[1]), now)]
            return True
        if event.type == pygame.MOUSEMOTION and self.drag:
            self.drag.append((float(event.pos[0]), float(event.pos[1]), now))
            self.drag = self.drag[-12:]
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.drag:
            self.drag.append((float(event.pos[0]), float(event.pos[1]), now))
            path, self.drag = self.drag, []
            x0, y0, _ = path[0]
            x1, y1, t1 = path[-1]
            if abs(x1 - x0) + abs(y1 - y0) < 24:
                return True  # a click, not a fling
            recent = [p for p in path if t1 - p[2] <= 0.12] or path
            rx, ry, rt = recent[0]
            span = max(t1 - rt, 1 / 60)
            vx, vy = (x1 - rx) / span, (y1 - ry) / span
            toss = self.layout.toss_action
            if toss is None:
                return True
            action = Action(self.state.current, toss)
            if self.idle and not self.is_bot(self.state.current) and action in (
                    self.chooser.legal) and self.holder == self.deciding:
                self.pending_fling = (x0 - self.tr.x, y0 - self.tr.y, vx, vy)
                self.take(action)
                self._refresh_buttons()
            return True
        return False

    # --- time -------------------------------------------------------------------

    def update(self, dt: float) -> None:
        if self.handoff_due and self.app.top is self:
            from .handoff import HandoffScene

            self.handoff_due = False
            seat = self.deciding
            self.app.push(HandoffScene(self.app, self.name(seat), self.colour(seat),
                                       partial(self.handed, seat), self.handoff_words(seat)))
            return
        for sprite in self.sprites.values():
            sprite.update(dt)
        goals = self.shown.score_goals
        for s, goal in enumerate(goals):
            cur = self.shown.scores[s]
            if cur != goal:
                step = max(abs(goal - cur) * min(1.0, dt * 6), dt * 8)
                self.shown.scores[s] = goal if abs(goal - cur) <= step else (
                    cur + step if goal > cur else cur - step)
        if self.banner is not None:
            text, colour, left = self.banner
            self.banner = (text, colour, left - dt) if left - dt > 0 else None
        if self.toss is not None:
            self.toss_t += dt
            while self.toss_bumps and self.toss_bumps[0].t <= self.toss_t:
                self.app.sounds.play("clatter", self.toss_bumps.pop(0).strength)
            for item in list(self.sprites):
                sprite = self.sprites[item]
                try:
                    pose = self.toss.pose(item, self.toss_t)
                except KeyError:
                    continue
                sprite.x, sprite.y = self.tr.x + pose.x, self.tr.y + pose.y
                sprite.angle, sprite.face = pose.angle, pose.face
            if self.toss_t >= self.toss.duration:
                self.toss = None
            return
        if self.wait > 0:
            self.wait -= dt
            return
        while self.steps and self.wait <= 0 and self.toss is None:
            beat = self.steps.popleft()
            self.wait = beat.start()
        if self.idle:
            self._bot_turn(dt)
        # A bot may just have moved: its playback comes before the results.
        if self.idle and not self.results_shown and self.state.game_over:
            self.results_shown = True
            from .results import ResultsScene

            self.app.push(ResultsScene(self.app, self))

    def _bot_turn(self, dt: float) -> None:
        seat = self.deciding
        if self.state.game_over or not self.is_bot(seat) or self.app.top is not self:
            return
        self.bot_wait += dt
        if self.bot_wait < (HURRY if self.hurry else BOT_SPEEDS[self.app.settings.bot_speed]):
            return
        self.bot_wait = 0.0
        self.take(bots.choose(self.seats[seat].kind, self.state, self.rng))
        self._refresh_buttons()

    # --- drawing ----------------------------------------------------------------

    def draw(self, canvas: pygame.Surface) -> None:
        theme.draw_table_background(canvas)
        self.draw_header(canvas)
        self.draw_scores(canvas)
        if self.layout.tray:
            self.draw_tray(canvas)
        self.draw_track(canvas)
        self.draw_side(canvas)
        self.draw_widgets(canvas)
        self.draw_footer(canvas)
        if self.banner is not None:
            text, colour, left = self.banner
            Banner(text, colour).draw(canvas, pygame.Rect(self.tr.x - 40, self.tr.centery - 50,
                                                          self.tr.w + 80, 100),
                                      alpha=min(1.0, left * 3))

    def look(self) -> Look:
        """What the widgets draw from: the holder's view, and what a click would do."""
        live = self.idle and not self.state.game_over and self.holder == self.deciding and (
            not self.is_bot(self.deciding))
        return Look(self.rules, self.view, self.viewer, [s.name for s in self.seats],
                    [self.colour(s) for s in range(len(self.seats))], self.die_colour,
                    self.face_label, self.chooser.targets() if live else set(),
                    self.chooser.marked() if live else [], self.mouse)

    def widget_regions(self) -> list[tuple[Widget, pygame.Rect]]:
        """Where each widget goes: piles in the side column when it is free, the rest
        stacked in the middle, each as tall as it likes or shrunk alike to fit."""
        side_free = not self.layout.source and not self.layout.areas
        middle = [w for w in self.widgets if not (w.side and side_free)]
        side = [w for w in self.widgets if w.side and side_free]
        out: list[tuple[Widget, pygame.Rect]] = []
        top = SIDE.y
        for w in side:
            out.append((w, pygame.Rect(SIDE.x, top, SIDE.w, w.height(len(self.seats)))))
            top += out[-1][1].h + 8
        if top > SIDE.bottom + 8:  # shrink the side column alike to fit above the log
            # one-line counts keep their height; the piles share what is left
            fixed = sum(r.h for w, r in out if w.kind == "count")
            room = SIDE.h - 8 * (len(side) - 1) - fixed
            shrinking = sum(r.h for w, r in out if w.kind != "count")
            y = SIDE.y
            for n, (w, r) in enumerate(out):
                h = r.h if w.kind == "count" else int(r.h * room / max(1, shrinking))
                out[n] = (w, pygame.Rect(r.x, y, r.w, h))
                y += h + 8
        # Without a tray or race track the middle runs down to the action bar.
        area = (pygame.Rect(TRAY.x, TRAY.y, TRAY.w, self.BAR.y - 10 - TRAY.y)
                if not self.layout.tray and self.layout.track is None else
                TRAY if not self.layout.tray else pygame.Rect(TRAY.x, 0, TRAY.w, 0))
        look = self.look()
        # Players widgets one after another share a row, side by side.
        rows: list[list[Widget]] = []
        for w in middle:
            if rows and w.kind == "players" and all(x.kind == "players" for x in rows[-1]) and (
                    len(rows[-1]) < 2):
                rows[-1].append(w)
            else:
                rows.append([w])
        wanted = [max(w.wanted(len(self.seats), look) for w in row) for row in rows]
        room = area.h - 8 * max(0, len(rows) - 1)
        scale = min(1.0, room / sum(wanted)) if wanted else 1.0
        y = area.y
        for row, h in zip(rows, wanted, strict=True):
            w_each = (area.w - 8 * (len(row) - 1)) // len(row)
            for k, w in enumerate(row):
                out.append((w, pygame.Rect(area.x + k * (w_each + 8), y, w_each,
                                           int(h * scale))))
            y += int(h * scale) + 8
        return out

    def draw_widgets(self, canvas: pygame.Surface) -> None:
        look = self.look()
        regions = self.widget_regions()
        for _widget, rect in regions:
            pygame.draw.rect(canvas, theme.FELT_DARK, rect, border_radius=12)
        hovered = None
        for widget, rect in regions:
            # A hovered card grows over its neighbours: it is drawn last.
            if rect.collidepoint(self.mouse):
                hovered = (widget, rect)
                continue
            widget.draw(canvas, rect, look)
        if hovered is not None:
            hovered[0].draw(canvas, hovered[1], look)

    def draw_header(self, canvas: pygame.Surface) -> None:
        seat = self.shown.current
        over = self.state.game_over and self.idle
        head = pygame.Rect(16, 12, 1248, 84)
        if over:
            title, colour = "Game over", theme.GOLD
        else:
            who = self.name(seat) + (" (bot)" if self.is_bot(seat) else "")
            title, colour = f"{who}'s turn", self.colour(seat)
        Banner(title, colour).draw(canvas, pygame.Rect(head.x, head.y, 560, head.h))
        width = head.right - (head.x + 580)
        what = self.what_to_do()
        theme.text(canvas, what, (head.x + 580, head.y + 8),
                   theme.fit_size(what, width, theme.BODY, bold=True, floor=theme.SMALL),
                   theme.PARCHMENT, bold=True)
        words = theme.ellipsize(self.last_words, theme.font(theme.SMALL), width)
        theme.text(canvas, words, (head.x + 580, head.y + 46), theme.SMALL, theme.PARCHMENT)

    def what_to_do(self) -> str:
        """One line telling everyone who the game waits on and what they can do."""
        seat = self.deciding
        if self.state.game_over:
            return "The game is over."
        if self.toss is not None:
            return "Watch the dice..."
        if not self.idle:
            return "Watch the table..."
        name = self.name(seat)
        decision = self.view.get("decision") or view_for(self.state, None)["decision"]
        if decision is not None and decision["kind"] == "window":
            asked = f"{name} may respond"
            return asked + (" (thinking...)" if self.is_bot(seat) else
                            ": play a card or press Pass.")
        waiting = self.is_bot(seat) or self.holder != seat
        if decision is not None and waiting:
            # Everyone reads who must answer; the one asked reads what to click instead
            # (the question itself is in the line below, where the table said it).
            return (self.asked or f"{name} must answer") + (
                " (thinking...)" if self.is_bot(seat) else "")
        if self.is_bot(seat):
            return f"{name} is thinking... (H to hurry)"
        if self.holder != seat:
            return f"Pass the laptop to {name}."
        if self.chooser.building is not None:
            return self.chooser.prompt()
        choices = self.chooser.choices()
        labels = list(dict.fromkeys(self.rules.actions[c.tag.split(":")[-1]].label
                                    if c.tag.startswith("action:") else c.label.split(":")[0]
                                    for c in choices if c.enabled))
        toss = self.layout.toss_action
        if toss and self.chooser.available(toss):
            toss_label = self.rules.actions[toss].label
            others = [lab for lab in labels if lab != toss_label]
            tail = f", or {' or '.join(others)}" if others else ""
            return f"{name}: drag or press Space to {toss_label.lower()}{tail}."
        seats = {t.value for t in self.chooser.targets() if t.kind == "seat"}
        if seats and all(c.tag.split(":")[0] in self.rules.actions for c in choices):
            label = choices[0].label.split(":")[0].lower()
            return f"{name}: click a glowing player to {label} them."
        if any(t.kind in ("item", "space") for t in self.chooser.targets()):
            return f"{name}: click something glowing, or choose " + " or ".join(labels) + "."
        return f"{name}: choose " + " or ".join(labels) + "."

    def steal_targets(self) -> set[int]:
        """Players a click on whose row takes or starts an action aimed at them."""
        if not self.idle or self.state.game_over or self.is_bot(self.deciding) or (
                self.holder != self.deciding):
            return set()
        return {int(t.value) for t in self.chooser.targets() if t.kind == "seat"}

    @property
    def scores_rect(self) -> pygame.Rect:
        """The score column, tall enough for every player's row."""
        height = max(SCORES.h, 52 + len(self.seats) * self.row_height + 44)
        return pygame.Rect(SCORES.x, SCORES.y, SCORES.w, min(height, 590 - SCORES.y))

    def draw_scores(self, canvas: pygame.Surface) -> None:
        panel = self.scores_rect
        Panel(panel, "Scores").draw(canvas)
        goal = self.state.options.get("goal")
        targets = self.steal_targets()
        for s in range(len(self.seats)):
            rect = self.plate_rect(s)
            name = self.name(s) + (" (bot)" if self.is_bot(s) else "")
            active = s == self.shown.current and not (self.state.game_over and self.idle)
            out = not self.state.active[s] or s in self.shown.out
            if s in targets:
                glow = self.row_rect(s).inflate(10, 8)
                pygame.draw.rect(canvas, theme.GOLD, glow, width=5, border_radius=14)
            seen = self.view["scores"][s]
            name_plate(canvas, rect, name + (" - out" if s in self.shown.out else ""),
                       self.colour(s), active,
                       "?" if seen is None else round(self.shown.scores[s]),
                       mark=self.mark(s), dim=out,
                       status="THINKING" if self.is_bot(s) else "YOUR TURN")
            shown_vars = self.view["player_vars"][s]
            counters = "  ".join(
                f"{c.label}: {'?' if shown_vars[c.var] is None else shown_vars[c.var]}"
                for c in self.layout.player_counters)
            strip_y = rect.bottom + 6 + PLAYER_DIE // 2
            if counters:
                counters = theme.ellipsize(counters, theme.font(theme.TINY, True), rect.w - 8)
                theme.text(canvas, counters, (rect.right - 4, strip_y), theme.TINY,
                           theme.INK, bold=True, anchor="midright", tight=True)
            for area in self.layout.player_zones:
                held = len(self.zone_sprites(area.zone, s))
                if held:
                    x = self.player_slot(s, held)[0] - PLAYER_DIE / 2 + 4
                    theme.text(canvas, str(held), (int(x), strip_y), theme.TINY, theme.INK,
                               bold=True, anchor="midleft", tight=True)
        if targets:
            theme.text(canvas, "Click a player to choose", (panel.centerx, panel.bottom - 62),
                       theme.SMALL, theme.DANGER, bold=True, anchor="center", tight=True)
        footer = f"Round {self.shown.round}" + (f"  ·  Goal: {goal}" if goal is not None else "")
        theme.text(canvas, footer, (panel.centerx, panel.bottom - 30), theme.SMALL,
                   theme.INK, bold=True, anchor="center")
        for sprite in self.sprites.values():
            if sprite.owner is not None and sprite.goal is None:
                draw_die(canvas, (sprite.x, sprite.y), PLAYER_DIE, 0,
                         self.die_colour(sprite.kind), sprite.face)

    def draw_track(self, canvas: pygame.Surface) -> None:
        """The race: squares from the start to the goal, each player's piece on their score."""
        track = self.layout.track
        if track is None:
            return
        length = max(1, int(evaluate(track.length, self.state, 0)))
        band = pygame.Rect(self.tr.x, self.tr.bottom + 8, self.tr.w, TRACK_BAND - 12)
        pygame.draw.rect(canvas, theme.WOOD_DARK, band, border_radius=14)
        rows = 1 if (band.w - 140) // (length + 1) >= 40 else 2
        per_row = -(-(length + 1) // rows)
        size = min(64, (band.w - 140) // per_row, (band.h - 12) // rows - 4)
        left = band.x + 70 + (band.w - 140 - per_row * size) // 2
        centres = []
        for n in range(length + 1):
            row, col = divmod(n, per_row)
            # The path snakes: left to right, then back right to left towards the goal.
            x = left + (col if row == 0 else per_row - 1 - col) * size + size // 2
            y = band.centery + (row - (rows - 1) / 2) * (size + 4)
            centres.append((x, int(y)))
        for n, (x, y) in enumerate(centres):
            cell = pygame.Rect(0, 0, size - 3, size - 3)
            cell.center = (x, y)
            colour = theme.STONE_LIGHT if n not in (0, length) else theme.GOLD_LIGHT
            pygame.draw.rect(canvas, colour, cell, border_radius=6)
            if n % 5 == 0 and 0 < n < length:
                theme.text(canvas, str(n), cell.center, theme.TINY, theme.INK_SOFT,
                           anchor="center", tight=True)
        # The ends are named beside the path, where no piece can hide the words.
        sx, sy = centres[0]
        theme.text(canvas, track.start, (sx - size // 2 - 8, sy), theme.TINY, theme.PARCHMENT,
                   bold=True, anchor="midright", tight=True)
        ex, ey = centres[-1]
        towards_left = rows == 2 or ex < band.centerx
        end_at = (ex - size // 2 - 8, ey) if towards_left else (ex + size // 2 + 8, ey)
        theme.text(canvas, track.end, end_at, theme.TINY, theme.GOLD_LIGHT, bold=True,
                   anchor="midright" if towards_left else "midleft", tight=True)
        by_square: dict[int, list[int]] = {}
        for s in range(len(self.seats)):
            by_square.setdefault(min(length, max(0, round(self.shown.scores[s]))), []).append(s)
        for square, seats in by_square.items():
            x, y = centres[square]
            for k, s in enumerate(seats):
                offset = (k - (len(seats) - 1) / 2) * 9
                centre = (int(x + offset), int(y - 4 + abs(offset) / 3))
                pygame.draw.circle(canvas, theme.INK, centre, 11)
                pygame.draw.circle(canvas, self.colour(s), centre, 9)

    def draw_tray(self, canvas: pygame.Surface) -> None:
        theme.draw_tray(canvas, self.tr)
        drawn = [s for s in self.sprites.values() if s.owner is None and (
            s.zone in self.layout.tray or (s.goal is None and self.tr.collidepoint(s.x, s.y)
                                           and s.zone not in {a.zone for a in self.layout.areas}))]
        tray_dice = [sp for sp in drawn if sp.zone in self.layout.tray]
        if tray_dice and self.idle:
            label = self.rules.zones[tray_dice[0].zone].label
            theme.text(canvas, f"{label}: {len(tray_dice)}", (self.tr.x + 24, self.tr.y + 18),
                       theme.SMALL, theme.FELT_TEXT, bold=True)
        if not drawn and self.idle and not self.state.game_over and self.layout.toss_action:
            theme.text(canvas, "Drag across the table and let go to throw the dice",
                       self.tr.center, theme.SMALL, theme.FELT_TEXT, anchor="center")
        for sprite in sorted(drawn, key=lambda s: s.y):
            draw_die(canvas, (sprite.x, sprite.y), DIE, sprite.angle,
                     self.die_colour(sprite.kind), sprite.face)
        if self.drag:
            points = [(x, y) for x, y, _ in self.drag]
            if len(points) > 1:
                pygame.draw.lines(canvas, theme.PARCHMENT, False, points, 4)

    def draw_side(self, canvas: pygame.Surface) -> None:
        layout = self.layout
        if layout.source:
            box = pygame.Rect(SIDE.x, SIDE.y, SIDE.w, 148)
            Panel(box, layout.source_label or layout.source).draw(canvas)
            theme.draw_cup(canvas, (box.x + 64, box.y + 92), 40)
            total = sum(self.shown.source.values())
            theme.text(canvas, f"{total} {'die' if total == 1 else 'dice'} left",
                       (box.x + 120, box.y + 58), theme.SMALL, theme.INK, bold=True,
                       anchor="midleft", tight=True)
            y = box.y + 88
            for kind in self.rules.dice:
                n = self.shown.source.get(kind, 0)
                pygame.draw.circle(canvas, self.die_colour(kind), (box.x + 132, y), 9)
                pygame.draw.circle(canvas, theme.INK, (box.x + 132, y), 9, 2)
                theme.text(canvas, f"{n} {kind}", (box.x + 148, y), theme.SMALL, theme.INK,
                           anchor="midleft", tight=True)
                y += 22
        if not layout.source and not layout.areas:
            piles = sum(w.height(len(self.seats)) + 8 for w in self.widgets if w.side)
            y = SIDE.y + piles
            if layout.faces and self.rules.dice:
                self.draw_legend(canvas, pygame.Rect(SIDE.x, y, SIDE.w, 250))
                y += 262
            for counter in layout.counters:
                box = pygame.Rect(SIDE.x, y, SIDE.w, 70)
                Panel(box, "").draw(canvas)
                value = self.state.game_vars[counter.var]
                theme.text(canvas, f"{counter.label}: {value}", (box.x + 18, box.centery),
                           theme.SMALL, theme.INK, bold=True, anchor="midleft", tight=True)
                y += 80
        rolled_names = {a.zone for a in layout.areas}
        for i, area in enumerate(layout.areas):
            rect = self.area_rect(i)
            tone = {"good": theme.GOOD, "bad": theme.DANGER}.get(area.tone, theme.WOOD)
            sprites = [s for s in self.zone_sprites(area.zone) if s.zone in rolled_names]
            count = len(sprites)
            title = f"{area.label}: {count}" + (f" of {area.limit}" if area.limit else "")
            Panel(rect, title, accent=tone).draw(canvas)
            if area.limit:
                for k in range(count, area.limit):
                    cx, cy = self.slot(area.zone, k)
                    slot = pygame.Rect(0, 0, SMALL_DIE, SMALL_DIE)
                    slot.center = (int(cx), int(cy))
                    pygame.draw.rect(canvas, theme.SLOT, slot, width=3, border_radius=10)
        for sprite in self.sprites.values():
            if sprite.owner is not None and sprite.goal is not None:
                draw_die(canvas, (sprite.x, sprite.y), PLAYER_DIE + 12, sprite.angle,
                         self.die_colour(sprite.kind), sprite.face)
            elif sprite.zone in rolled_names or (sprite.goal is not None and
                                                 sprite.zone not in self.layout.tray):
                draw_die(canvas, (sprite.x, sprite.y), SMALL_DIE if sprite.goal is None or
                         sprite.zone in rolled_names else DIE, sprite.angle,
                         self.die_colour(sprite.kind), sprite.face)

    def draw_legend(self, canvas: pygame.Surface, box: pygame.Rect) -> None:
        """What each face means, with the face drawn on a die."""
        Panel(box, "The dice").draw(canvas)
        y = box.y + 72
        kind = next(iter(self.rules.dice))
        for face, style in self.layout.faces.items():
            draw_die(canvas, (box.x + 40, y), 44, 0, self.die_colour(kind), face)
            theme.text(canvas, style.label, (box.x + 72, y - 12), theme.SMALL, theme.INK,
                       bold=True, anchor="midleft", tight=True)
            if style.meaning:
                theme.text(canvas, style.meaning, (box.x + 72, y + 12), theme.TINY,
                           theme.INK_SOFT, anchor="midleft", tight=True)
            y += 56

    def draw_footer(self, canvas: pygame.Surface) -> None:
        status = ""
        if self.layout.status is not None and self.idle and not self.state.game_over and (
                self.viewer is not None and self.viewer == self.state.current):
            # Said to the player whose turn it is, and only while they hold the laptop.
            from ..engine.expr import Ctx

            status = self.layout.status.render(Ctx(self.state, self.viewer))
        if status:
            theme.text(canvas, status, (self.tr.x, 524), theme.BODY, theme.PARCHMENT, bold=True)
        odds = self.layout.odds
        if odds is not None and self.show_odds and self.idle and not self.state.game_over:
            seat = self.state.current
            if odds.when is None or evaluate(odds.when, self.state, seat):
                chance = float(evaluate(odds.chance, self.state, seat))
                text = f"{odds.label}: {chance:.0%}" + theme.in_words(chance)
                theme.text(canvas, text, (self.tr.x, 562),
                           theme.fit_size(text, self.tr.w, theme.SMALL, bold=True, floor=18),
                           theme.GOLD_LIGHT, bold=True)
        self.menu.draw(canvas)
        draw_log(canvas, LOG, self.log, self.log_scroll)
        if self.save_problem:
            # Stays up: a player must not believe the game is kept when it is not.
            note = theme.ellipsize(f"Not saved: {self.save_problem}", theme.font(theme.SMALL),
                                   self.tr.w)
            theme.text(canvas, note, (self.tr.x, 684), theme.SMALL, theme.DANGER_LIGHT)
