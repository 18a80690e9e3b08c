"""The dice table's widgets: the tray with its physics, the cup, the areas dice are set
aside in and the race track (the legend, counters and status line: `table/side_parts.py`).

Each reads its own entry of the ruleset's `layout` and the host's display model (what the
table shows while events play back); none names a game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

from ..engine import Action, value_for
from ..physics.tray import Toss, Tray
from ..render import theme
from ..render.widgets import Panel
from ..ruleset.layout import Area
from .choice import Target
from .part import Part, Point
from .registry import register
from .sprites import Sprite, dice_words

if TYPE_CHECKING:
    from .host import PartHost
    from .widgets import Look

DIE = 64  # die size in the tray
LEAST_DIE = 48  # ... in a tray sharing the middle with much else (a wheel of piles round it)
SMALLEST_DIE = 32  # ... in a small tray holding many dice: the least a die's face reads at
SMALL_DIE = 46  # die size in an area, while a row holds them all
TRACK_BAND = 124  # height of the race track under the tray
TRAY = pygame.Rect(300, 112, 660, 400)  # the tray on the 1280x720 table, with no track
CLICK = 24  # a press that moves less than this is a click, not a throw
# How waiting dice are spread, loosest first: (pitch in die widths, the most a die is
# turned in degrees, how far off its place it may lie in die widths). Each is loose enough
# that no two dice touch, however nudged and turned.
SPREADS = ((1.4, 14.0, 0.08), (1.25, 8.0, 0.05), (1.12, 0.0, 0.0))
Place = tuple[float, float, float]  # where a die lies: canvas x, y and its turn in degrees


@register
class TrayPart(Part):
    """The felt the dice are tossed on; a drag across it throws them."""

    name = "tray"
    grow = True
    shrinks = False
    least = 3 * LEAST_DIE + 6  # three dice across: the least the physics throws in

    def __init__(self, host: PartHost) -> None:
        super().__init__(host)
        self._tray: Tray | None = None
        self._die: tuple[tuple[int, int, int], int] | None = None
        self._spread: tuple[Any, list[tuple[float, float, float]]] | None = None
        self.drag: list[tuple[float, float, float]] = []
        # The toss being played back: its paths, how far in, the bumps still to clatter.
        self.toss: Toss | None = None
        self.toss_t = 0.0
        self.toss_bumps: list[Any] = []
        # A player's drag, kept for the throw its action is about to make.
        self.pending_fling: tuple[float, float, float, float] | None = None

    @classmethod
    def build(cls, host: PartHost) -> list[Part]:
        return [cls(host)] if host.layout.tray else []

    def wanted(self, seats: int) -> int:
        return 240

    @property
    def die(self) -> int:
        """The dice's size here: full size, smaller in a tray too short for three of them,
        and smaller still until every die of the game fits in the tray as a loose handful
        (off its label), so a throw of them all can come to rest apart."""
        w, h = self.rect.size
        host = self.host
        key = (w, h, len(host.state.items))  # drawn every frame: counted once
        if self._die is None or self._die[0] != key:
            count = sum(1 for item in host.state.items if item.kind in host.rules.dice)
            largest = max(LEAST_DIE, min(DIE, (min(w, h) - 6) // 3 // 2 * 2))
            size = Tray.die_for(w, h, count, self.keep_clear(), largest, SMALLEST_DIE)
            self._die = (key, size)
        return self._die[1]

    @property
    def tray(self) -> Tray:
        """The physics for the tray's current size."""
        if self._tray is None or (self._tray.width, self._tray.height, self._tray.die_size) != (
                *self.rect.size, self.die):
            self._tray = Tray(self.rect.w, self.rect.h, self.die)
        return self._tray

    def label_rect(self) -> pygame.Rect:
        """Where the tray's count is written (dice never rest there): a tray of several
        zones counts each on a line of its own in small type, as wide as the longest."""
        zones = self.host.layout.tray
        width, height = 220, 44
        if len(zones) > 1:
            font = theme.font(theme.TINY, True)
            width = min(width, 24 + max(font.size(f"{self.host.rules.zones[z].label or z}: 00")[0]
                                        for z in zones))
            # Down to the foot of the second line's letters (drawn 21 below the first).
            height = max(height, 2 + 21 + font.get_ascent() - font.get_descent() + 1)
        return pygame.Rect(self.rect.x + 14, self.rect.y + 10, width, height)

    def keep_clear(self) -> list[tuple[float, float, float, float]]:
        """The tray's labels, in tray units, for the physics to keep dice off."""
        label = self.label_rect().move(-self.rect.x, -self.rect.y)
        return [(float(label.x), float(label.y), float(label.w), float(label.h))]

    def tilt(self, index: int, side: str = "right") -> float:
        """How the index-th waiting die is turned (degrees), as a hand puts dice down."""
        return self.spread(index + 1, side)[index][2]

    def spread(self, count: int, side: str = "right",
               taken: Sequence[Place] = ()) -> list[Place]:
        """Resting places for `count` waiting dice (canvas x, y and a slight turn): a loose
        cluster growing from the middle of one side, as dice put down by hand lie, never
        on the frame, the tray's labels, each other or the dice at `taken`."""
        key = (side, tuple(self.rect), tuple(taken))
        if self._spread is None or self._spread[0] != key:
            self._spread = (key, self._places(side, taken))
        places = self._spread[1]
        out = places[:count]
        while len(out) < count:  # more dice than the tray holds apart: they pile up
            out.append(out[len(out) % len(places)] if places else (
                float(self.rect.centerx), float(self.rect.centery), 0.0))
        return out

    def _places(self, side: str, taken: Sequence[Place]) -> list[Place]:
        """Every free place of the spread, nearest the middle of `side` first: as loose
        as leaves room for every die of the game, tighter and squarer when it must."""
        host = self.host
        dice = sum(1 for item in host.state.items if item.kind in host.rules.dice)
        places: list[tuple[float, float, float]] = []
        for pitch, tilt, jitter in SPREADS:
            places = self._lay(side, taken, pitch * self.die, tilt, jitter * self.die)
            if len(places) >= dice:
                break
        return places

    def _lay(self, side: str, taken: Sequence[Place], pitch: float, tilt: float,
             jitter: float) -> list[Place]:
        """Places on a staggered grid `pitch` apart, each nudged and turned a little."""
        w, h = self.rect.size
        lo = self.tray.wall_inset + self.tray.reach(math.radians(tilt)) + jitter + 1
        lx, ly, lw, lh = self.keep_clear()[0]
        anchor = (w - lo if side == "right" else lo, h / 2)
        # Columns of a staggered grid: each die as far from six others, and at least a
        # width across from the next column's (a tight grid is square-on).
        step = max(pitch * 0.87, self.die + 2 + 2 * jitter)
        spots: list[tuple[float, float, float, float]] = []
        laid: list[tuple[float, float, float]] = []
        for col in range(int((w - 2 * lo) // step) + 2):
            x = (w - lo - col * step) if side == "right" else lo + col * step
            for row in range(-int(h // pitch) - 1, int(h // pitch) + 2):
                y = h / 2 + row * pitch + (pitch / 2 if col % 2 else 0.0)
                if not (lo <= x <= w - lo and lo <= y <= h - lo):
                    continue
                # Each place has its own small, fixed wobble: a die put there lies still.
                wobble = random.Random(f"{col}:{row}")
                x1 = x + wobble.uniform(-jitter, jitter)
                y1 = y + wobble.uniform(-jitter, jitter)
                angle = wobble.uniform(-tilt, tilt) % 360.0
                if lx - lo < x1 < lx + lw + lo and ly - lo < y1 < ly + lh + lo:
                    continue  # on the tray's label
                here = (x1 + self.rect.x, y1 + self.rect.y, angle)
                # Apart from the dice lying there and from every other place, however
                # each is turned: any few of the places may be filled.
                if any(self.tray.overlap(here, other) > -1.0 for other in [*taken, *laid]
                       if abs(here[0] - other[0]) + abs(here[1] - other[1]) < 3 * self.die):
                    continue
                laid.append(here)
                spots.append((math.hypot(x1 - anchor[0], y1 - anchor[1]), x1, y1, angle))
        spots.sort()
        return [(self.rect.x + x, self.rect.y + y, a) for _d, x, y, a in spots]

    def entry(self, index: int) -> tuple[float, float, float]:
        """Where the index-th die taken from the cup is put down: beside the cup, clear of
        the dice already lying in the tray."""
        host = self.host
        taken = [(sp.x, sp.y, sp.angle) for sp in host.sprites.values()
                 if sp.zone in host.layout.tray and sp.goal is None]
        return self.spread(index + 1, "right", taken)[index]

    def place(self, zone: str, n: int) -> Place:
        """Where the n-th die of one of the tray's zones is laid when it is not thrown
        there (a game loaded, a move taken back): the tray's zones share one spread, each
        zone's dice after those of the zones before it, so no two dice share a place."""
        zones = self.host.layout.tray
        seen = self.host.view["zones"]
        before = sum(len(seen[z]) for z in zones[:zones.index(zone)]
                     if isinstance(seen.get(z), list))
        return self.spread(before + n + 1, "left")[before + n]

    def where(self, zone: str, owner: int | None, n: int) -> Point | None:
        if zone not in self.host.layout.tray:
            return None
        x, y, _angle = self.place(zone, n)
        return (x, y)

    def die_size(self, zone: str, owner: int | None, flying: bool) -> int | None:
        return self.die if zone in self.host.layout.tray else None

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        host = self.host
        theme.draw_tray(canvas, self.rect)
        tray_dice = [sp for sp in host.sprites.values() if sp.zone in host.layout.tray]
        if tray_dice and host.idle:
            # How many dice of each zone the tray shows (the Jungle's), or of them how many
            # show the face the zone is counted by (the dinosaurs among the red dice).
            counted = host.layout.tray_counts
            counts = [(zone, sum(1 for sp in tray_dice if sp.zone == zone),
                       sum(1 for sp in tray_dice if sp.zone == zone and (
                           zone not in counted or sp.face == counted[zone])))
                      for zone in host.layout.tray]
            lines = [f"{host.rules.zones[z].label or z}: {n}" for z, dice, n in counts if dice]
            box = self.label_rect()
            size = theme.SMALL if len(lines) == 1 else theme.TINY
            for k, line in enumerate(lines[:2]):
                words, fit = theme.squeezed(line, box.w - 12, size, bold=True)
                theme.text(canvas, words,
                           (box.x + 10, box.y + (8 if len(lines) == 1 else 2 + 21 * k)),
                           fit, theme.FELT_TEXT, bold=True)
        if not tray_dice and host.my_turn and host.layout.toss_action:
            hint = "Drag across the table and let go to throw the dice"
            lines = theme.wrap(hint, theme.font(theme.SMALL), self.rect.w - 40)
            line_h = theme.font(theme.SMALL).get_linesize()
            top = self.rect.centery - line_h * len(lines) // 2
            for n, line in enumerate(lines):  # a narrow tray (a 4:3 window) on two lines
                theme.text(canvas, line, (self.rect.centerx, top + n * line_h), theme.SMALL,
                           theme.FELT_TEXT, anchor="midtop")
        if len(self.drag) > 1:
            pygame.draw.lines(canvas, theme.PARCHMENT, False,
                              [(x, y) for x, y, _ in self.drag], 4)

    def targets_at(self) -> list[tuple[pygame.Rect, Target]]:
        """The dice resting in the tray, each a thing to click (to choose it), in the
        order they are drawn (the lowest on top)."""
        host = self.host
        if not host.idle:
            return []
        out = []
        for sprite in sorted((sp for sp in host.sprites.values()
                              if sp.zone in host.layout.tray and sp.goal is None),
                             key=lambda sp: sp.y):
            box = pygame.Rect(0, 0, self.die, self.die)
            box.center = (round(sprite.x), round(sprite.y))
            out.append((box, Target("item", sprite.id)))
        return out

    def handle(self, event: pygame.event.Event) -> bool:
        """Drag across the tray and let go to fling the dice; a plain click hints (a
        click on a die that may be chosen is the table's: it chooses the die)."""
        now = time.perf_counter()
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and (
                self.rect.collidepoint(event.pos)):
            glowing = self.host.chooser.targets() if self.host.my_turn else set()
            if any(box.collidepoint(event.pos) and target in glowing
                   for box, target in self.targets_at()):
                return False
            self.drag = [(float(event.pos[0]), float(event.pos[1]), now)]
            return True
        if event.type == pygame.MOUSEMOTION and self.drag:
            self.drag.append((float(event.pos[0]), float(event.pos[1]), now))
            self.drag = self.drag[-12:]
            return True
        if not (event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.drag):
            return False
        self.drag.append((float(event.pos[0]), float(event.pos[1]), now))
        path, self.drag = self.drag, []
        x0, y0, _ = path[0]
        x1, y1, t1 = path[-1]
        host = self.host
        toss = host.layout.toss_action
        if abs(x1 - x0) + abs(y1 - y0) < CLICK:
            if toss and host.my_turn and host.chooser.available(toss):
                host.hint("Drag across the table and let go to throw the dice.")
            elif not host.state.game_over and host.idle and not host.my_turn:
                host.hint(f"It is {host.name(host.deciding)}'s turn.")
            return True
        recent = [p for p in path if t1 - p[2] <= 0.12] or path
        rx, ry, rt = recent[0]
        span = max(t1 - rt, 1 / 60)
        vx, vy = (x1 - rx) / span, (y1 - ry) / span
        if toss is None:
            return True
        action = Action(host.state.current, toss)
        if host.my_turn and action in host.chooser.legal:
            self.pending_fling = (x0 - self.rect.x, y0 - self.rect.y, vx, vy)
            host.take(action)
            host.refresh_buttons()
        return True

    def throw(self, zone: str, dice: list[Any]) -> None:
        """Toss these dice (id, kind, the face the engine chose) from where they lie, with
        the player's drag, or for a bot or a key press a throw made up like a hand's. The
        toss is worked out to rest at once; the host plays it back (`roll_on`)."""
        host = self.host
        rect = self.rect
        batch = []
        resting: dict[str, tuple[float, float, float]] = {}
        showing: dict[str, str] = {}
        for item, kind, face in dice:
            sprite = host.sprites.get(item)
            if sprite is None:
                sx, sy = host.source_point()
                sprite = host.sprites[item] = Sprite(item, kind, None, zone, sx, sy)
            sprite.goal = None
            half = self.die / 2 + 2
            x = min(max(sprite.x - rect.x, half), rect.w - half)
            y = min(max(sprite.y - rect.y, half), rect.h - half)
            resting[item] = (x, y, sprite.angle)
            if sprite.face is not None:
                showing[item] = sprite.face
            batch.append((item, host.rules.dice[kind].faces, face))
        fling, self.pending_fling = self.pending_fling, None
        if fling is None:
            fling = self.fling_for_bot(host.toss_rng)
        # The dice not thrown (kept while others are thrown again) lie still where they
        # are, as solid as the frame: a thrown die bounces off them.
        still = [(sp.x - rect.x, sp.y - rect.y, sp.angle) for sp in host.sprites.values()
                 if sp.zone in host.layout.tray and sp.id not in resting and sp.goal is None]
        self.start(self.tray.toss(batch, host.toss_rng.randrange(1 << 30), fling, resting,
                                  showing=showing, keep_clear=self.keep_clear(), still=still))

    def show_off(self, seed: int) -> None:
        """Toss every die in the cup, for show only (the benchmark): no rule is touched."""
        host = self.host
        rng = random.Random(seed)
        dice = []
        source = host.layout.source
        for i in host.state.zone(source, host.state.current) if source else []:
            item = host.state.items[i]
            faces = host.rules.dice[item.kind].faces
            host.sprites[item.id] = Sprite(item.id, item.kind, None, host.layout.tray[0],
                                           self.rect.centerx, self.rect.centery)
            dice.append((item.id, faces, faces[rng.randrange(len(faces))]))
        self.start(self.tray.toss(dice, seed))

    def start(self, toss: Toss) -> None:
        """A toss begins: the host's playback holds until it has landed."""
        self.toss, self.toss_t, self.toss_bumps = toss, 0.0, list(toss.bumps)

    def roll_on(self, dt: float) -> None:
        """Move the tossed dice along their paths, with a clatter at each bump; the toss
        ends when they all rest."""
        host = self.host
        toss = self.toss
        assert toss is not None
        self.toss_t += dt
        while self.toss_bumps and self.toss_bumps[0].t <= self.toss_t:
            host.sounds.play("clatter", self.toss_bumps.pop(0).strength)
        for item, sprite in host.sprites.items():
            try:
                pose = toss.pose(item, self.toss_t)
            except KeyError:
                continue
            sprite.x, sprite.y = self.rect.x + pose.x, self.rect.y + pose.y
            sprite.angle, sprite.face = pose.angle, pose.face
        if self.toss_t >= toss.duration:
            self.toss = None

    def fling_for_bot(self, rng: object) -> tuple[float, float, float, float]:
        """A throw as a hand would make it: from near one end of the tray towards the
        other, at a lively speed (for bots, and for a throw by key)."""
        import random as _random

        r = rng if isinstance(rng, _random.Random) else _random.Random()
        w, h = self.rect.size
        from_right = r.random() < 0.5
        x = w - self.die * 1.2 if from_right else self.die * 1.2
        y = h * (0.3 + 0.4 * r.random())
        angle = r.uniform(-0.5, 0.5) + (math.pi if from_right else 0.0)
        speed = r.uniform(1100.0, 1900.0)
        return (x, y, speed * math.cos(angle), speed * math.sin(angle))


@register
class RaceTrackPart(Part):
    """The race: squares from the start to the goal, each player's piece on their score."""

    name = "race"
    shrinks = False

    @classmethod
    def build(cls, host: PartHost) -> list[Part]:
        return [cls(host)] if host.layout.track is not None else []

    def wanted(self, seats: int) -> int:
        return TRACK_BAND - 12

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        host = self.host
        track = host.layout.track
        assert track is not None
        length = max(1, int(value_for(host.state, host.viewer, track.length, scope=0)))
        band = self.rect
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
        for s in range(len(host.seats)):
            by_square.setdefault(min(length, max(0, round(host.shown.scores[s]))), []).append(s)
        for square, seats in by_square.items():
            x, y = centres[square]
            for k, s in enumerate(seats):
                offset = (k - (len(seats) - 1) / 2) * 9
                centre = (int(x + offset), int(y - 4 + abs(offset) / 3))
                pygame.draw.circle(canvas, theme.INK, centre, 11)
                pygame.draw.circle(canvas, host.colour(s), centre, 9)


@register
class CupPart(Part):
    """The cup or bag dice are drawn from, with how many of each kind are left."""

    name = "cup"
    region = "side"
    shrinks = False

    @classmethod
    def build(cls, host: PartHost) -> list[Part]:
        return [cls(host)] if host.layout.source else []

    def wanted(self, seats: int) -> int:
        return 148

    def point(self) -> Point:
        """Where dice come out of the cup."""
        return (self.rect.x + 70.0, self.rect.y + 78.0)

    def where(self, zone: str, owner: int | None, n: int) -> Point | None:
        return self.point() if zone == self.host.layout.source else None

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        host, box = self.host, self.rect
        layout = host.layout
        Panel(box, layout.source_label or layout.source or "").draw(canvas)
        theme.draw_cup(canvas, (box.x + 64, box.y + 92), 40)
        total = sum(host.shown.source.values())
        theme.text(canvas, f"{dice_words(total)} left", (box.x + 120, box.y + 58), theme.SMALL,
                   theme.INK, bold=True, anchor="midleft", tight=True)
        y = box.y + 88
        for kind in host.rules.dice:
            n = host.shown.source.get(kind, 0)
            pygame.draw.circle(canvas, look.die_colour(kind), (box.x + 132, y), 9)
            pygame.draw.circle(canvas, theme.INK, (box.x + 132, y), 9, 2)
            theme.text(canvas, f"{n} {kind}", (box.x + 148, y), theme.SMALL, theme.INK,
                       anchor="midleft", tight=True)
            y += 22


@register
class AreaPart(Part):
    """A row where the dice of a zone are set aside, with its label (and empty slots up to
    a limit); more dice than a row holds go on in smaller rows, never out of the panel."""

    name = "area"
    region = "side"
    shrinks = False

    def __init__(self, host: PartHost, area: Area | None = None) -> None:
        super().__init__(host)
        assert area is not None
        self.area = area

    @classmethod
    def build(cls, host: PartHost) -> list[Part]:
        return [cls(host, area) for area in host.layout.areas]

    def wanted(self, seats: int) -> int:
        return 112

    def held(self) -> int:
        return len(self.host.zone_sprites(self.area.zone))

    def grid(self, n: int) -> tuple[int, int]:
        """Die size and dice per row so that `n` dice fit inside the panel."""
        room_w, room_h = self.rect.w - 20, self.rect.h - 46 - 4
        size = SMALL_DIE
        while size > 14:
            per_row = max(1, room_w // (size + 6))
            rows = -(-max(1, n) // per_row)
            if rows * (size + 4) <= room_h:
                return size, per_row
            size -= 2
        return size, max(1, room_w // (size + 6))

    def slot(self, index: int, n: int) -> Point:
        size, per_row = self.grid(n)
        row, col = divmod(index, per_row)
        return (self.rect.x + 10 + size / 2 + col * (size + 6),
                self.rect.y + 46 + size / 2 + row * (size + 4))

    def shown_count(self, extra: int = 0) -> int:
        return max(self.held() + extra, self.area.limit or 0)

    def where(self, zone: str, owner: int | None, n: int) -> Point | None:
        if zone != self.area.zone or owner is not None:
            return None
        return self.slot(n, self.shown_count(max(0, n + 1 - self.held())))

    def die_size(self, zone: str, owner: int | None, flying: bool) -> int | None:
        if zone != self.area.zone or owner is not None:
            return None
        return self.grid(self.shown_count())[0]

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        area = self.area
        count = self.held()
        tone = {"good": theme.GOOD, "bad": theme.DANGER}.get(area.tone, theme.WOOD)
        title = f"{area.label}: {count}" + (f" of {area.limit}" if area.limit else "")
        Panel(self.rect, title, accent=tone).draw(canvas)
        if area.limit:
            size = self.grid(self.shown_count())[0]
            for k in range(count, area.limit):
                cx, cy = self.slot(k, self.shown_count())
                slot = pygame.Rect(0, 0, size, size)
                slot.center = (int(cx), int(cy))
                pygame.draw.rect(canvas, theme.SLOT, slot, width=3, border_radius=10)
