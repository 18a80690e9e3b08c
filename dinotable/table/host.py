"""What a part of the table may see and touch: `PartHost`, a narrow view of the table; and
`TableHost`, the table that answers it.

A part (`part.py`) is typed against `PartHost`, not the scene: the game as the viewer may
see it, who sits where, what is shown while events play back, what a click may do, and a
few ways to speak to the players. Anything else of the table is out of a part's reach, and
the type checker says so. `TableHost` answers those questions from a `TableSession` and
the display model; the table scene is one, and adds input, time and drawing.
"""

from __future__ import annotations

import random
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from ..engine import text_for, view_for
from ..render import theme
from . import chrome, dice_parts
from .choice import Chooser
from .focus import FocusRing
from .part import Part, Point
from .regions import place, regions_for
from .sprites import Shown, Sprite, Step
from .widgets import Look, ZonePart

if TYPE_CHECKING:
    from ..app import App
    from ..engine import Action, GameState, Rules
    from ..physics.tray import Toss
    from ..ruleset.layout import Layout
    from .choice import Target
    from .reading import Zoom
    from .session import Seat, TableSession

DIE = dice_parts.DIE
GREY = (200, 196, 186)  # a die kind the layout gives no colour
HINT_SECONDS = 2.2


class PartHost(Protocol):
    """The table as its parts see it."""

    # The game and how it is laid out; the view the table draws, and for whom.
    rules: Rules
    layout: Layout
    view: dict[str, Any]
    sees_all: bool  # a replay: every hand is face up
    demo: bool  # bots play for show: any key leaves, none hurries them

    @property
    def state(self) -> GameState: ...  # read for the engine's views (value_for, text_for)

    @property
    def viewer(self) -> int | None: ...  # the seat holding the laptop (None: nobody yet)

    # The seats.
    @property
    def seats(self) -> list[Seat]: ...

    def name(self, seat: int) -> str: ...

    def colour(self, seat: int) -> tuple[int, int, int]: ...

    def mark(self, seat: int) -> str: ...

    def is_bot(self, seat: int) -> bool: ...

    def on_phone(self, seat: int) -> bool: ...  # the seat plays from its phone

    @property
    def deciding(self) -> int: ...

    # What is shown while events play back, and whether anything still moves.
    shown: Shown
    sprites: dict[str, Sprite]
    toss_rng: random.Random  # the dice's tumbling (never a bot's choice)

    @property
    def toss(self) -> Toss | None: ...

    @property
    def idle(self) -> bool: ...

    @property
    def my_turn(self) -> bool: ...

    def zone_sprites(self, zone: str, owner: int | None = None) -> list[Sprite]: ...

    def source_point(self) -> Point: ...

    # What a click may do.
    chooser: Chooser
    zoom: Zoom  # the card being read (one for the whole table)
    area: dict[str, pygame.Rect]  # the regions of the canvas: where each part may go
    mouse: tuple[int, int]

    def steal_targets(self) -> set[int]: ...

    def take(self, action: Action) -> None: ...

    def refresh_buttons(self) -> None: ...

    def look(self) -> Look: ...

    # Words and sounds for the players.
    last_words: str
    asked: str
    log: list[str]
    log_scroll: int
    show_odds: bool

    @property
    def save_problem(self) -> str: ...

    @property
    def sounds(self) -> Any: ...

    def hint(self, text: str) -> None: ...


def _session_field(name: str, doc: str) -> Any:
    """A field of the session, read and written through the table."""
    return property(lambda self: getattr(self.session, name),
                    lambda self, value: setattr(self.session, name, value), doc=doc)


def set_apart(dice: list[Sprite], size: int, within: pygame.Rect) -> None:
    """Nudge dice at rest off one another, inside `within` (a tray made smaller brings
    them closer: each must still be read whole)."""
    for _ in range(40):
        moved = False
        for k, a in enumerate(dice):
            for b in dice[k + 1:]:
                dx, dy = b.x - a.x, b.y - a.y
                gap = (dx * dx + dy * dy) ** 0.5
                if gap >= size:
                    continue
                if gap < 1e-6:
                    dx, dy, gap = 1.0, 0.0, 1.0
                push = (size - gap) / 2 + 0.5
                a.x, a.y = a.x - dx / gap * push, a.y - dy / gap * push
                b.x, b.y = b.x + dx / gap * push, b.y + dy / gap * push
                moved = True
        for die in dice:
            die.x = min(max(die.x, within.left), within.right)
            die.y = min(max(die.y, within.top), within.bottom)
        if not moved:
            return


class TableHost:
    """The table as its parts see it, over a session and the display model: the concrete
    `PartHost`. The table scene is one, and adds input, time and drawing."""

    sees_all = False  # True: every hand and face is drawn (a replay, after the game)
    demo = False  # True: bots play for show, and any key leaves (no key hurries them)
    state: GameState = _session_field("state", "The game, as the engine has it.")
    seats: list[Seat] = _session_field("seats", "Who sits at the table.")
    holder: int | None = _session_field("holder", "The seat holding the laptop.")
    rng: random.Random = _session_field("rng", "The bots' random source.")
    save_problem: str = _session_field("save_problem", "Why the game cannot be saved.")
    app: App
    session: TableSession
    rules: Rules
    layout: Layout
    view: dict[str, Any]
    parts: list[Part]
    shown: Shown
    sprites: dict[str, Sprite]
    steps: deque[Step]
    wait: float
    toast: tuple[str, float] | None
    log: list[str]
    log_scroll: int
    chooser: Chooser
    focus: FocusRing
    mouse: tuple[int, int]
    banner: tuple[str, tuple[int, int, int], float] | None
    handoff_due: bool
    area: dict[str, pygame.Rect]  # the regions of the canvas the table is drawn on
    area_size: tuple[int, int]
    dirty: bool
    ahead: tuple[Any, dict[str, Any]] | None = None  # the view `view_ahead` worked out last
    showcase: list[str]  # a banner's words, then the card kinds shown under it

    def view_ahead(self) -> dict[str, Any]:
        """The viewer's view of the engine as it is now, ahead of the view the playback
        has reached: the zones an event touched are brought to it one by one (once per
        move, worked out on the first such event)."""
        key = (self.state.version, self.viewer, self.sees_all)
        if self.ahead is None or self.ahead[0] != key:
            self.ahead = (key, view_for(self.state, self.viewer, everything=self.sees_all))
        return self.ahead[1]

    def refresh_buttons(self) -> None:
        """The action bar for what can be done now: the scene's own."""
        raise NotImplementedError

    # --- the parts -----------------------------------------------------------

    def relayout(self) -> None:
        """Give every part its region (a card widget's height follows what it holds)."""
        for part, rect in zip(self.parts, place(self.parts, len(self.seats), self.area),
                              strict=True):
            part.rect = rect

    def resized(self, size: tuple[int, int]) -> None:
        """The canvas changed shape (the window was resized): lay the table out anew, and
        move the dice at rest with the parts they lie in."""
        old = self.tr.copy()
        self.area_size = size
        self.area = regions_for(size, max(p.wide for p in self.parts))
        self.relayout()
        new = self.tr
        for zone in {s.zone for s in self.sprites.values()}:
            for owner in {s.owner for s in self.sprites.values() if s.zone == zone}:
                for n, sprite in enumerate(self.zone_sprites(zone, owner)):
                    if sprite.goal is not None:
                        continue  # in flight: it lands where its part now is
                    if zone in self.layout.tray:  # where it came to rest, on the new felt
                        sprite.x = new.x + (sprite.x - old.x) * new.w / max(1, old.w)
                        sprite.y = new.y + (sprite.y - old.y) * new.h / max(1, old.h)
                    else:
                        sprite.x, sprite.y = self.slot(zone, owner, n)
        resting = [s for s in self.sprites.values() if s.zone in self.layout.tray
                   and s.goal is None]
        if resting:
            set_apart(resting, DIE, new.inflate(-DIE, -DIE))
        self.refresh_buttons()
        self.dirty = True

    def part(self, kind: type[Part]) -> Any:
        """The first part of a kind, or None."""
        return next((p for p in self.parts if isinstance(p, kind)), None)

    @property
    def tray_part(self) -> dice_parts.TrayPart | None:
        """The tray, when the ruleset tosses dice."""
        part: dice_parts.TrayPart | None = self.part(dice_parts.TrayPart)
        return part

    @property
    def tr(self) -> pygame.Rect:
        """The tray's rect (the centre region when there is no tray)."""
        tray = self.tray_part
        return tray.rect if tray is not None else self.area["centre"]

    @property
    def toss(self) -> Toss | None:
        """The dice thrown and still tumbling (the tray's), or None."""
        tray = self.tray_part
        return tray.toss if tray is not None else None

    @property
    def widgets(self) -> list[ZonePart]:
        """The parts that show a zone or board of the ruleset (`kind`: the layout's `show:`)."""
        return [p for p in self.parts if isinstance(p, ZonePart)]

    def regions(self) -> list[tuple[str, pygame.Rect]]:
        """Every part's name and rect, with the action bar and menu: for layout checks."""
        out = [(p.name, p.rect) for p in self.parts if p.rect.w and p.rect.h]
        return [*out, ("bar", self.area["bar"]), ("menu", self.area["menu"])]

    # --- what parts ask of the table (table/host.py) ----------------------------------

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
    def my_turn(self) -> bool:
        """The table waits on the person holding the laptop, and nothing moves."""
        return (self.idle and not self.state.game_over and not self.is_bot(self.deciding)
                and self.holder == self.deciding)

    @property
    def animating(self) -> bool:
        """Dice rolling, pieces sliding, a banner showing, a score ticking, a bot to move."""
        return (not self.idle or self.banner is not None or self.handoff_due
                or self.toast is not None
                or any(sp.goal is not None for sp in self.sprites.values())
                or self.shown.scores != self.shown.score_goals or self.session.bot_to_move)

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays this seat."""
        return self.session.is_bot(seat)

    def name(self, seat: int) -> str:
        """A seat's player name."""
        return self.session.name(seat)

    @property
    def deciding(self) -> int:
        """The seat the game waits on (whose turn it is, or who is asked to answer)."""
        return self.session.deciding

    def on_phone(self, seat: int) -> bool:
        """Whether the seat plays from its phone (hands on phones), not at the laptop."""
        return seat in self.session.phones

    @property
    def viewer(self) -> int | None:
        """The seat whose view the table shows: whoever holds the laptop."""
        return self.holder

    @property
    def sounds(self) -> Any:
        """The app's sounds."""
        return self.app.sounds

    def hint(self, text: str) -> None:
        """A short note over the table for a moment (a click that did nothing, a key)."""
        self.toast = (text, HINT_SECONDS)

    def log_line(self, text: str) -> None:
        """Add a line to the table's log."""
        self.log.append(text)
        self.log = self.log[-200:]
        if self.log_scroll:
            # Someone is reading back: what they read stays put while the game goes on.
            self.log_scroll = min(self.log_scroll + 1, max(0, len(self.log) - 5))

    def wait_words(self) -> str:
        """Why nothing can be pressed while a move plays out: the dice only when they roll
        (a card game has none to wait for)."""
        return ("Wait for the dice to settle" if self.toss is not None else
                "Wait for the move to finish")

    def what_to_do(self) -> str:
        """The header's line: who the game waits on and what they can do."""
        header: chrome.HeaderPart = self.part(chrome.HeaderPart)
        return header.what_to_do()

    def steal_targets(self) -> set[int]:
        """Players a click on whose row takes or starts an action aimed at them."""
        if not self.my_turn:
            return set()
        return {int(t.value) for t in self.chooser.targets() if t.kind == "seat"}

    def look(self) -> Look:
        """What the widgets draw from: the holder's view, and what a click would do."""
        live = self.my_turn
        return Look(self.rules, self.view, self.viewer, self.session.names,
                    [self.colour(s) for s in range(len(self.seats))], self.die_colour,
                    self.face_label, self.chooser.targets() if live else set(),
                    # A card chosen: the dice that would pay for it are ticked too.
                    [*self.chooser.marked(), *self.chooser.paying()] if live else [],
                    self.mouse, self.sees_all,
                    self.chooser.answering(),
                    lambda template, seat: text_for(self.state, self.viewer, template,
                                                    scope=seat))

    # --- positions: each part answers for the zones it shows -------------------

    def source_point(self) -> Point:
        """Where dice come out of the cup (or appear, with no cup)."""
        cup = self.part(dice_parts.CupPart)
        if cup is not None:
            point: Point = cup.point()
            return point
        return (self.tr.right - DIE, self.tr.y + DIE)

    def entry_point(self, n: int) -> Point:
        """Where the n-th die drawn from the cup lands in the tray."""
        tray = self.tray_part
        return tray.entry(n)[:2] if tray is not None else self.source_point()

    def slot(self, zone: str, owner: int | None, index: int) -> Point:
        """Where the index-th die of a zone sits, as the part showing it says."""
        return next((p for part in self.parts
                     if (p := part.where(zone, owner, index)) is not None), None) or (
            self.source_point())

    def sprite_size(self, sprite: Sprite) -> int:
        """How big a die is drawn where it is (or where it is flying to)."""
        return next((s for part in self.parts if (s := part.die_size(
            sprite.zone, sprite.owner, sprite.goal is not None)) is not None), DIE)

    def zone_sprites(self, zone: str, owner: int | None = None) -> list[Sprite]:
        """The sprites shown in a zone (one player's, for a per-player zone), in order."""
        return [s for s in self.sprites.values() if s.zone == zone and s.owner == owner]

    def row_rect(self, seat: int) -> pygame.Rect:
        """A player's row in the players column: what a click on a player hits."""
        players: chrome.PlayersPart = self.part(chrome.PlayersPart)
        return players.row_rect(seat)


    @property
    def ring(self) -> Target | None:
        """The glowing thing the keyboard's focus is on."""
        return self.focus.ring

    @ring.setter
    def ring(self, target: Target | None) -> None:
        self.focus.ring = target

    def ring_targets(self) -> list[tuple[pygame.Rect, Target]]:
        """The glowing things on the table, in reading order, for the keyboard."""
        return self.focus.targets(self.parts, self.chooser.targets()) if self.my_turn else []
