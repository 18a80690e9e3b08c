"""Widgets: one small class per way of showing a zone or a board, drawn from a seat's view.

Each widget kind is registered by its layout name (`show: hand`); it takes a region, draws
what the view holds (never the engine's state: a hidden card is a back), and says which
target a click at a point hits. `default_widgets` picks one for every zone and board a
layout does not mention, so any ruleset opens on the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pygame

from ..engine import Rules
from ..render import cards, theme
from ..render.dice import draw_die
from ..ruleset.layout import Layout, WidgetSpec
from .choice import SPACE, Target, item_label
from .registry import WIDGETS
from .registry import register_widget as register

GREY = (200, 196, 186)


@dataclass
class Look:
    """What every widget draws from: the viewer's view and what a click would do now."""

    rules: Rules
    view: dict[str, Any]
    viewer: int | None
    names: list[str]
    colours: list[tuple[int, int, int]]
    die_colour: Callable[[str], tuple[int, int, int]]
    face_label: Callable[[str | None], str]
    targets: set[Target] = field(default_factory=set)
    marked: list[str] = field(default_factory=list)
    mouse: tuple[int, int] = (-1, -1)
    sees_all: bool = False  # a replay: every hand is shown face up
    answering: set[str] = field(default_factory=set)  # items a response window answers

    def zone(self, name: str, owner: int | None = None) -> list[Any] | dict[str, int]:
        """A zone as the viewer sees it: items (id, kind, face), or {"size": n} hidden."""
        shown = self.view["zones"].get(name, [])
        if self.rules.zones[name].per_player:
            return shown[owner if owner is not None else 0]  # type: ignore[no-any-return]
        return shown  # type: ignore[no-any-return]

    def space(self, zone: str) -> list[Any] | dict[str, int]:
        """A board space as the viewer sees it; on a board each player has, the viewer's
        own (or, with no viewer, that of the player the game is on)."""
        if zone in self.rules.zones and self.rules.zones[zone].per_player:
            seat = self.viewer if self.viewer is not None else self.view.get("current")
            return self.zone(zone, seat or 0)
        return self.view["zones"].get(zone, [])  # type: ignore[no-any-return]


def count(content: list[Any] | dict[str, int]) -> int:
    """How many items a zone holds, seen or not."""
    return int(content["size"]) if isinstance(content, dict) else len(content)


class Widget:
    """A way of showing one zone or board; subclasses register under their layout name."""

    kind: ClassVar[str] = ""
    side: ClassVar[bool] = False  # drawn in the side column rather than the middle

    def __init__(self, spec: WidgetSpec, rules: Rules) -> None:
        self.spec = spec
        self.rules = rules
        self.hits: list[tuple[pygame.Rect, Target]] = []
        # Every card face drawn this frame (where, which kind), and the one under the pointer:
        # what may be zoomed. Only faces the viewer sees are listed, never a back.
        self.faces: list[tuple[pygame.Rect, str]] = []
        self.hover: tuple[pygame.Rect, str] | None = None
        self.width = 660  # the width its region gives it (set by the layout before `wanted`)
        self.more: list[tuple[pygame.Rect, list[str]]] = []  # each "+N more", what it hides

    @property
    def label(self) -> str:
        """The widget's title: the layout's label, the zone's or board's own, or its name."""
        if self.spec.label:
            return self.spec.label
        if self.spec.zone:
            zdef = self.rules.zones[self.spec.zone]
            return zdef.label or self.spec.zone.replace("_", " ").capitalize()
        board = self.rules.boards[self.spec.board]
        return board.label or self.spec.board.replace("_", " ").capitalize()

    def height(self, seats: int) -> int:
        """How tall it would like to be."""
        return 120

    def wanted(self, seats: int, look: Look) -> int:
        """How tall it would like to be now, with what it holds (an empty row is a title)."""
        return self.height(seats)

    def draw(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        """Draw into `rect`, remembering where each clickable thing is."""
        raise NotImplementedError

    def hit(self, pos: tuple[int, int]) -> Target | None:
        """What a click at `pos` touches (the topmost thing drawn last)."""
        for rect, target in reversed(self.hits):
            if rect.collidepoint(pos):
                return target
        return None

    # --- shared drawing -----------------------------------------------------------

    def title(self, canvas: pygame.Surface, rect: pygame.Rect, text: str) -> None:
        theme.text(canvas, text, (rect.x + 6, rect.y + 2), theme.SMALL, theme.PARCHMENT,
                   bold=True)

    def item(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look,
             entry: tuple[str | None, str | None, str | None], small: bool = False) -> None:
        """One item as the viewer sees it: a die, a card's face, or a back."""
        item_id, kind, face = entry
        target = Target("item", item_id) if item_id is not None else None
        glow = target is not None and target in look.targets
        marked = item_id is not None and item_id in look.marked
        holds = self.rules.zones[self.spec.zone].holds if self.spec.zone else "tokens"
        if kind is None:
            cards.draw_back(canvas, rect, holds)
        elif kind in self.rules.dice and holds == "dice":
            size = min(rect.w, rect.h) - 6
            draw_die(canvas, rect.center, size, 0, look.die_colour(kind), face,
                     highlight=glow or marked)
            if marked:
                pygame.draw.rect(canvas, theme.GOLD, rect, width=4, border_radius=10)
                theme.text(canvas, "✓", (rect.right, rect.bottom), theme.SMALL, theme.GOLD,
                           bold=True, anchor="bottomright", tight=True)
        else:
            title, lines, text, band = describe_kind(self.rules, kind, face, look)
            small = small or rect.h < 90  # squeezed: its name only, the zoom reads the rest
            cards.draw_card(canvas, rect, kind, title, lines, text, band, glow, marked, small)
            if kind in self.rules.items:  # a card with a face to read (not a die's face)
                self.faces.append((rect, kind))
                if rect.collidepoint(look.mouse):
                    self.hover = (rect, kind)
        if item_id is not None and item_id in look.answering:
            # What the players asked to respond are answering (the dinosaur hunted): ringed
            # for everyone, whoever holds the laptop.
            pygame.draw.rect(canvas, theme.PARCHMENT_LIGHT, rect.inflate(12, 12), width=3,
                             border_radius=12)
            pygame.draw.rect(canvas, theme.DANGER, rect.inflate(6, 6), width=3,
                             border_radius=10)
        if target is not None:
            self.hits.append((rect, target))


def describe_kind(rules: Rules, kind: str, face: str | None, look: Look
                  ) -> tuple[str, list[str], str, tuple[int, int, int] | None]:
    """A card's name, key numbers (its properties), words and colour band."""
    idef = rules.items.get(kind)
    if idef is None:  # a one-faced "card" declared as a die kind: its face says what it is
        return (kind.replace("_", " ").capitalize(),
                [look.face_label(face)] if face else [], "", None)
    if getattr(rules.layout, "cards", None) is not None:
        # The ruleset says what a card's face shows: its first few key numbers and words.
        info = cards.card_info(rules, kind)
        return info.title, info.lines(), "", info.band
    lines = []
    suit = None
    for name, value in idef.props.items():
        pdef = rules.properties.get(name) if hasattr(rules, "properties") else None
        if pdef is not None and pdef.type in ("effects", "table", "list"):
            continue
        if name == "suit":
            suit = str(value)
        if value in (0, None, "none", "", False) or callable(value):
            continue
        lines.append(f"{name.replace('_', ' ').capitalize()}: {value}")
    return item_label(rules, kind), lines[:3], idef.text, cards.tint(kind, suit)


def layout_of(n: int, width: int, card_w: int, gap: int = 10) -> tuple[int, int]:
    """The card width and step that fit `n` cards in `width` (overlapping when crowded)."""
    if n <= 0:
        return card_w, card_w + gap
    step = min(card_w + gap, max(24, (width - card_w) // max(1, n - 1)) if n > 1 else card_w)
    return card_w, step


@register
class Row(Widget):
    """A shared zone's items in a row: the market, the dice in the tray, a played pile."""

    kind = "row"

    def height(self, seats: int) -> int:
        holds = self.rules.zones[self.spec.zone].holds
        return 104 if holds == "dice" else cards.CARD_H + 44

    def wanted(self, seats: int, look: Look) -> int:
        # An empty row takes no room: it is drawn when something lies in it.
        return self.height(seats) if count(look.zone(self.spec.zone)) else 0

    def draw(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        self.hits = []
        content = look.zone(self.spec.zone)
        if not count(content) or rect.h < 30:
            return
        self.title(canvas, rect, f"{self.label}: {count(content)}")
        top = rect.y + 36
        if isinstance(content, dict):
            cards.draw_stack(canvas, pygame.Rect(rect.x + 8, top, 60, 84), count(content),
                             self.label)
            return
        dice = self.rules.zones[self.spec.zone].holds == "dice"
        h = min(64 if dice else cards.CARD_H, rect.bottom - top - 4)  # squeezed: shorter
        w = h if dice else cards.CARD_W
        _, step = layout_of(len(content), rect.w - 16, w)
        for n, entry in enumerate(content):
            self.item(canvas, pygame.Rect(rect.x + 8 + n * step, top, w, h), look, tuple(entry))


@register
class Pile(Widget):
    """A stack with a count: the deck (backs), the discard pile (its top card showing)."""

    kind = "pile"
    side = True
    CELL_W = 76  # the narrowest a pile in a row of piles in the middle stands
    TALL_H = 140  # ... and its height: the name, the top card with its numbers, the count

    def height(self, seats: int) -> int:
        return 72

    def draw(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        self.hits = []
        content = look.zone(self.spec.zone)
        n = count(content)
        if rect.w < 3 * self.CELL_W:  # a cell of a row of piles, however short
            self.draw_tall(canvas, rect, look, content)
            return
        # The stack on the left, its name and count beside it: one tidy line per pile.
        tall = max(30, min(60, rect.h - 10))
        box = pygame.Rect(rect.x + 10, rect.centery - tall // 2 - 2, tall * 64 // 88, tall)
        top = None
        entry = shown_top(content)
        if entry is not None:
            top = lambda r: self.item(canvas, r, look, entry, small=True)  # noqa: E731
        if n:
            cards.draw_stack(canvas, box, n, self.label, top)
        else:  # an empty place, without words squeezed into it
            pygame.draw.rect(canvas, theme.FELT_LIGHT, box, width=3, border_radius=8)
        x = box.right + 16
        width = rect.right - x - 6
        size = theme.fit_size(self.label, width, theme.SMALL, bold=True, floor=theme.TINY)
        label = [self.label]
        if theme.font(size, True).size(self.label)[0] > width and rect.h >= 66:
            # A narrow column: the name on two lines ("Dinosaur / discards"), not cut.
            label = theme.wrap(self.label, theme.font(size, True), width)
            if len(label) != 2 or len(label[1]) < 3 or " ".join(label) != self.label:
                label = [self.label]  # two lines only where a word ends, never mid-word
        for k, words in enumerate(label):
            theme.text(canvas, theme.ellipsize(words, theme.font(size, True), width),
                       (x, rect.centery + 1 - 20 * (len(label) - 1 - k) - 3 * (len(label) == 1)),
                       size, theme.PARCHMENT, bold=True, anchor="bottomleft", tight=True)
        deck = self.rules.zones[self.spec.zone].order == "deck" or isinstance(content, dict)
        words = "empty" if not n else f"{n} left" if deck else f"{n} here"
        if self.spec.left:
            # What is still to come from it (a short game plays half the deck), not the
            # cards lying there.
            still = int(look.view["game_vars"].get(self.spec.left) or 0)
            words = "no more to come" if still <= 0 else f"{still} to come"
        theme.text(canvas, ellipsize_tiny(words, width),
                   (x, rect.centery + (7 if len(label) > 1 else 4)), theme.TINY,
                   theme.PARCHMENT_DIM, anchor="topleft", tight=True)


    def draw_tall(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look,
                  content: list[Any] | dict[str, int]) -> None:
        """A cell of a row of piles: its name over it, the top card large enough to read
        its numbers, and how many lie under it (or are left, face down) beneath."""
        n = count(content)
        font = theme.font(theme.TINY, True)
        # A narrow cell sets its name a little smaller rather than cut it.
        size = theme.fit_size(self.label, rect.w - 4, theme.TINY, bold=True,
                              floor=theme.TINY - 3)
        font = theme.font(size, True)
        theme.text(canvas, theme.ellipsize(self.label, font, rect.w - 4),
                   (rect.centerx, rect.y + 4), size, theme.PARCHMENT, bold=True,
                   anchor="midtop", tight=True)
        card_h = min(cards.CARD_H, rect.h - 52)  # a roomy cell: a whole card, no larger
        card_w = min(cards.CARD_W, rect.w - 14, card_h * 3 // 2)
        narrow = card_w < 96  # too narrow for its numbers: its name, the zoom reads the rest
        if narrow:
            card_h = min(card_h, 64)
        box = pygame.Rect(0, 0, card_w, card_h)
        box.midtop = (rect.centerx - 4, rect.y + 26)
        entry = shown_top(content)
        shown = entry is not None
        if entry is not None:
            cards.draw_stack(canvas, box, n, self.label,
                             lambda r: self.item(canvas, r, look, entry, small=narrow))
        elif n:
            cards.draw_stack(canvas, box, n, self.label)
        else:
            pygame.draw.rect(canvas, theme.FELT_LIGHT, box, width=3, border_radius=8)
        words = ("empty" if not n else f"{n - 1} under" if shown else f"{n} left")
        if theme.font(theme.TINY).size(words)[0] > rect.w - 4 and n:
            words = f"+{n - 1}" if shown else str(n)  # a narrow cell: the number alone
        theme.text(canvas, ellipsize_tiny(words, rect.w - 4), (rect.centerx, box.bottom + 20),
                   theme.TINY, theme.PARCHMENT_DIM, anchor="midbottom", tight=True)


def shown_top(content: list[Any] | dict[str, int]) -> tuple[Any, ...] | None:
    """A pile's top card when it shows: the last laid (a discard pile), else the first
    (a stack whose top is its first card, the rest face down under it); None: a back."""
    if isinstance(content, dict) or not content:
        return None
    for entry in (content[-1], content[0]):
        if entry[1] is not None:
            return tuple(entry)
    return None


def ellipsize_tiny(words: str, width: int) -> str:
    """`words` cut to `width` at the smallest type."""
    return theme.ellipsize(words, theme.font(theme.TINY), width)


@register
class Hand(Widget):
    """A zone each player has that only its owner sees: the viewer's cards face up, the
    others' as a count of backs."""

    kind = "hand"

    def height(self, seats: int) -> int:
        if self.spec.size == "small":
            return 40 + cards.SMALL_H + 8
        return cards.CARD_H + 80

    def wanted(self, seats: int, look: Look) -> int:
        # Only the viewer's own cards are laid out: nobody's, or none in it, is a title;
        # when nobody holds any, not even that.
        if not any(count(look.zone(self.spec.zone, s)) for s in range(len(look.names))):
            return 0
        if look.sees_all:  # every hand face up, a line of name chips each
            return 34 + seats * Players.SMALL_LINE
        if look.viewer is None or not count(look.zone(self.spec.zone, look.viewer)):
            return 36
        return self.height(seats)

    def draw(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        self.hits = []
        if rect.h < 30:
            return
        if look.sees_all:
            self.draw_every_hand(canvas, rect, look)
            return
        seats = range(len(look.names))
        others = "   ".join(f"{look.names[s]}: {count(look.zone(self.spec.zone, s))}"
                           for s in seats if s != look.viewer)
        if look.viewer is None:
            # "Hands: Ann 5", but "Bonus cards: ...", not "Bonus cardss".
            many = self.label if self.label.lower().endswith("s") else f"{self.label}s"
            self.title(canvas, rect, f"{many}: {others}")
            return
        own = look.zone(self.spec.zone, look.viewer)
        self.title(canvas, rect, f"{look.names[look.viewer]}'s {self.label.lower()}: "
                                 f"{count(own)}")
        theme.text(canvas, others, (rect.right - 6, rect.y + 2), theme.SMALL,
                   theme.PARCHMENT_DIM, anchor="topright")
        top = rect.y + 40
        if isinstance(own, dict):
            return
        small = self.spec.size == "small"
        w, h = (cards.SMALL_W + 40, cards.SMALL_H) if small else (cards.CARD_W, cards.CARD_H)
        _, step = layout_of(len(own), rect.w - 16, w)
        for n, entry in enumerate(own):
            self.item(canvas, pygame.Rect(rect.x + 8 + n * step, top, w,
                                          min(h, rect.bottom - top - 4)), look,
                      tuple(entry), small=small)

    def draw_every_hand(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        """Every player's cards face up, a line each: a replay shows all, after the game."""
        self.title(canvas, rect, f"{self.label}: everyone's, face up")
        n = len(look.names)
        line_h = max(22, min(Players.SMALL_LINE, (rect.h - 34) // max(1, n)))
        for s in range(n):
            y = rect.y + 34 + s * line_h
            name_rect = pygame.Rect(rect.x + 6, y, 110, line_h - 6)
            pygame.draw.rect(canvas, look.colours[s], name_rect, border_radius=8)
            content = look.zone(self.spec.zone, s)
            name = theme.ellipsize(f"{look.names[s]}: {count(content)}",
                                   theme.font(theme.TINY, True), 100)
            theme.text(canvas, name, name_rect.center, theme.TINY,
                       theme.ink_on(look.colours[s]), bold=True, anchor="center", tight=True)
            if isinstance(content, dict):
                continue
            left = name_rect.right + 10
            _, step = layout_of(len(content), rect.right - left - 6, cards.SMALL_W, 6)
            for k, entry in enumerate(content):
                self.item(canvas, pygame.Rect(left + k * step, y, cards.SMALL_W, line_h - 6),
                          look, tuple(entry), small=True)


@register
class Players(Widget):
    """A zone each player has, in a line per player: what everyone has built or found."""

    kind = "players"
    SMALL_LINE = 28  # a line per player of name chips (size: small)

    def height(self, seats: int) -> int:
        if self.spec.size == "small":
            return 34 + seats * self.SMALL_LINE
        return 36 + seats * (cards.SMALL_H + 8)

    def draw(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        clip = canvas.get_clip()
        canvas.set_clip(rect.clip(clip) if clip else rect)  # a squeezed row never spills
        try:
            self._draw(canvas, rect, look)
        finally:
            canvas.set_clip(clip)

    def _draw(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        self.hits = []
        self.title(canvas, rect, self.label)
        n = len(look.names)
        line_h = max(22, min(cards.SMALL_H + 8, (rect.h - 32) // max(1, n)))
        for s in range(n):
            y = rect.y + 32 + s * line_h
            name_rect = pygame.Rect(rect.x + 6, y, 110, line_h - 6)
            pygame.draw.rect(canvas, look.colours[s], name_rect, border_radius=8)
            held = count(look.zone(self.spec.zone, s))
            name = theme.ellipsize(f"{look.names[s]}: {held}", theme.font(theme.TINY, True), 100)
            theme.text(canvas, name, name_rect.center, theme.TINY,
                       theme.ink_on(look.colours[s]), bold=True, anchor="center", tight=True)
            content = look.zone(self.spec.zone, s)
            x = name_rect.right + 10
            if isinstance(content, dict) or self.rules.zones[self.spec.zone].holds == "tokens":
                theme.text(canvas, str(count(content)), (x, name_rect.centery), theme.SMALL,
                           theme.PARCHMENT, bold=True, anchor="midleft", tight=True)
                if isinstance(content, dict):
                    continue
            dice = self.rules.zones[self.spec.zone].holds == "dice"
            w = line_h - 6 if dice else cards.SMALL_W
            left = x + (40 if self.rules.zones[self.spec.zone].holds == "tokens" else 0)
            _, step = layout_of(len(content), rect.right - left - 6, w, 6)
            for k, entry in enumerate(content):
                self.item(canvas, pygame.Rect(left + k * step, y, w, line_h - 6), look,
                          tuple(entry), small=True)


@register
class Grid(Widget):
    """A board of rows and columns: its spaces, what lies on them, empty ones to click."""

    kind = "grid"

    def height(self, seats: int) -> int:
        board = self.rules.boards[self.spec.board]
        return 40 + board.rows * 96

    def draw(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        self.hits = []
        board = self.rules.boards[self.spec.board]
        self.title(canvas, rect, self.label)
        cell = max(40, min((rect.h - 40) // board.rows, (rect.w - 20) // board.cols, 110))
        left = rect.centerx - cell * board.cols // 2
        for n, space in enumerate(board.spaces):
            r, c = divmod(n, board.cols)
            box = pygame.Rect(left + c * cell, rect.y + 36 + r * cell, cell - 6, cell - 6)
            draw_space(self, canvas, box, look, space)


# A colour for each space of a track, in order, so neighbouring spaces never look alike.
SPACE_COLOURS = ((150, 96, 56), (92, 128, 62), (46, 112, 104), (64, 92, 150), (128, 74, 118),
                 (160, 124, 48), (90, 90, 90))


def chip_w(rules: Rules, kind: str | None, most: int) -> int:
    """A card's chip (on a track, in a player's area): its whole name at the smallest
    type, no wider than `most` (a back: a small blank chip)."""
    if kind is None:
        return min(most, 60)
    name = item_label(rules, kind)
    return min(most, int(theme.font(theme.TINY, True).size(name)[0]) + 18)


@register
class Track(Widget):
    """A track of named spaces, a coloured row each: the space's name in full, the players
    standing on it, and its cards side by side with their names in full (more lines when
    they do not fit on one)."""

    kind = "track"
    LINE = 36  # one line of cards on a space
    SQUEEZED = 32  # the shortest a line gets (its chips keep their names' height)
    ROOMY = 46  # the tallest, when the track has room to spare
    LABEL_W = 210  # the space's name and the players standing there (narrower when narrow)

    def label_w(self, width: int) -> int:
        """The space's plate in a track `width` wide."""
        return max(150, min(self.LABEL_W, width * 40 // 100))


    def lines(self, content: list[Any] | dict[str, int], width: int, look: Look | None = None,
              space: str = "", most: int | None = None) -> list[list[Any]]:
        """The cards of one space, split into lines that fit `width`. A space nobody can
        act on now (none of its cards glows, the viewer does not stand there) keeps to one
        line (two in a narrow track), ending with how many more it holds, so a crowded
        track still fits."""
        if isinstance(content, dict):
            return [[]]
        full = look is None or any(Target("item", e[0]) in look.targets for e in content) or (
            look.viewer is not None
            and space in look.view["player_vars"][look.viewer].values())
        limit = len(content) if full else 2 if width < 260 else 1
        if most is not None:
            limit = min(limit, most)  # the track has no room for more
        out: list[list[Any]] = [[]]
        used = 0
        more_w = theme.font(theme.TINY, True).size("+99 more")[0] + 8
        for n, entry in enumerate(content):
            w = chip_w(self.rules, entry[1], width) + 6
            last = n == len(content) - 1  # the last needs no room for a "+N more" after it
            if out[-1] and used + w > width - (0 if last or len(out) < limit else more_w):
                if len(out) < limit:
                    out.append([])
                    used = 0
                else:
                    while out[-1] and used + more_w > width:  # room for the "+N more"
                        used -= chip_w(self.rules, out[-1].pop()[1], width) + 6
                        n -= 1
                    # What the "+N more" hides, listed when the pointer is on it.
                    hidden = [item_label(self.rules, e[1]) if e[1] else "a card"
                              for e in content[n:]]
                    out[-1].append((None, f"+{len(content) - n}", hidden))
                    break
            out[-1].append(entry)
            used += w
        return out

    def room(self, width: int) -> int:
        return width - 12 - self.label_w(width) - 14

    def height(self, seats: int) -> int:
        return 34 + len(self.rules.boards[self.spec.board].spaces) * (self.LINE + 4)

    def wanted(self, seats: int, look: Look) -> int:
        room = self.room(self.width)
        board = self.rules.boards[self.spec.board]
        return 34 + sum(len(self.lines(look.space(
            f"{self.spec.board}{SPACE}{space}"), room, look, space)) * self.LINE + 4
            for space in board.spaces)

    def draw(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        self.hits = []
        board = self.rules.boards[self.spec.board]
        self.title(canvas, rect, self.label)
        proper = frozenset(board.spaces)
        room = self.room(rect.w)
        contents = [look.space(f"{self.spec.board}{SPACE}{space}") for space in board.spaces]
        avail = rect.h - 34

        def fit(laid: list[tuple[str, list[list[Any]]]]) -> bool:
            return sum(len(lines) * self.SQUEEZED + 4 for _, lines in laid) <= avail

        # Every card on its space while the track has the room. Short of room, the longest
        # space gives up a line (its "+N more" lists the rest) until the track fits: first
        # the spaces nobody acts on now, down to a line, then any.
        # Who stands on a space is shown at the end of its row when the plate has no room
        # for them beside the space's name: the cards there have that much less room.
        rooms = [room - (self.marks_w(look, space) + 8
                         if self.marks_at_end(rect.w, look, space) else 0)
                 for space in board.spaces]
        spaces = [(space, self.lines(content, width, None, space))
                  for space, content, width in zip(board.spaces, contents, rooms, strict=True)]
        keep = [len(self.lines(content, width, look, space))
                for space, content, width in zip(board.spaces, contents, rooms, strict=True)]
        while not fit(spaces):
            longer = [i for i in range(len(spaces)) if len(spaces[i][1]) > max(1, keep[i])]
            k = max(longer or range(len(spaces)), key=lambda i: len(spaces[i][1]))
            if len(spaces[k][1]) <= 1:
                break
            spaces[k] = (spaces[k][0], self.lines(contents[k], rooms[k], None, spaces[k][0],
                                                  most=len(spaces[k][1]) - 1))
        # Lines share the room: roomier when the track has more than it asked for, a
        # little shorter when squeezed (a small window with much on the table).
        total = sum(len(lines) for _, lines in spaces)
        line = max(self.SQUEEZED, min(self.ROOMY, (avail - 4 * len(spaces)) // max(1, total)))
        y = rect.y + 34
        for k, (space, lines) in enumerate(spaces):
            h = len(lines) * line
            row = pygame.Rect(rect.x + 6, y, rect.w - 12, h)
            self.space_row(canvas, row, look, space, k, lines, line, proper)
            y += h + 4

    def marks_at_end(self, width: int, look: Look, space: str) -> bool:
        """Whether the players standing on a space are shown at the end of its row rather
        than on its plate: when the space's name would not fit beside them."""
        name = cards.words_of(space, frozenset(self.rules.boards[self.spec.board].spaces))
        room = self.label_w(width) - 14 - self.marks_w(look, space)
        return theme.font(theme.TINY, True).size(name)[0] > room

    @staticmethod
    def standing(look: Look, space: str) -> list[int]:
        """The seats whose position variable names this space."""
        return [s for s, pv in enumerate(look.view["player_vars"]) if space in pv.values()]

    def marks_w(self, look: Look, space: str) -> int:
        """How wide the marks of the players standing on a space are."""
        at = self.standing(look, space)
        return (min(22, 66 // len(at)) * (len(at) - 1) + 20) if at else 0

    def space_row(self, canvas: pygame.Surface, row: pygame.Rect, look: Look, space: str,
                  k: int, lines: list[list[Any]], line: int, proper: frozenset[str]) -> None:
        """One space: its coloured name plate with the players on it, then its cards."""
        zone = f"{self.spec.board}{SPACE}{space}"
        target = Target("space", zone)
        glow = target in look.targets
        colour = SPACE_COLOURS[k % len(SPACE_COLOURS)]
        pygame.draw.rect(canvas, theme.mix(colour, theme.FELT_DARK, 0.55), row, border_radius=8)
        plate = pygame.Rect(row.x, row.y, self.label_w(row.w + 12), row.h)
        pygame.draw.rect(canvas, colour, plate, border_radius=8)
        pygame.draw.rect(canvas, theme.GOLD if glow else theme.INK, row if glow else plate,
                         width=4 if glow else 2, border_radius=8)
        at = self.standing(look, space)
        step = min(22, 66 // max(1, len(at)))
        at_end = self.marks_at_end(row.w + 12, look, space)
        name = cards.words_of(space, proper)
        name_w = plate.w - 14 - (0 if at_end else self.marks_w(look, space))
        size = theme.fit_size(name, name_w, theme.SMALL, bold=True, floor=theme.TINY)
        shown = short_name(name, name_w, plate.h, size)
        middle = plate.y + min(line, plate.h) // 2
        if len(shown) > 1:
            middle = plate.centery  # a name on two lines stands in the middle of its plate
        for n, words in enumerate(shown):
            theme.text(canvas, words, (plate.x + 8, middle + (n * 2 + 1 - len(shown)) * 11),
                       size, theme.ink_on(colour), bold=True, anchor="midleft", tight=True)
        right = row.right - 4 if at_end else plate.right
        for n, s in enumerate(at):
            centre = (right - 14 - (len(at) - 1 - n) * step, plate.y + min(line, plate.h) // 2)
            pygame.draw.circle(canvas, theme.INK, centre, 10)
            pygame.draw.circle(canvas, look.colours[s], centre, 8)
        for n, entries in enumerate(lines):
            x = plate.right + 8
            for entry in entries:
                if entry[0] is None and entry[1] and entry[1].startswith("+"):
                    box = theme.text(canvas, f"{entry[1]} more",
                                     (x + 2, row.y + n * line + line // 2), theme.TINY,
                                     theme.PARCHMENT, bold=True, anchor="midleft", tight=True)
                    self.more.append((box.inflate(8, 12), entry[2]))
                    break
                w = chip_w(self.rules, entry[1], row.right - x)
                chip_h = min(30, line - 5)  # a roomy line centres its chips, never stretches
                chip = pygame.Rect(x, row.y + n * line + (line - chip_h) // 2, w, chip_h)
                self.item(canvas, chip, look, tuple(entry), small=True)
                x += w + 6
        self.hits.insert(0, (row, target))  # the cards on the space are hit first


def short_name(name: str, width: int, height: int, size: int) -> list[str]:
    """A space's name in `width` px at `size`: whole on one line; else on two lines when
    the plate is tall enough; else with its first words cut to initials ("E. Cretaceous");
    only then cut short, and never to a letter or two."""
    font = theme.font(size, True)
    if font.size(name)[0] <= width:
        return [name]
    words = name.split()
    if height >= 56 and len(words) > 1:
        lines = theme.wrap(name, font, width)
        if len(lines) == 2 and all(font.size(line)[0] <= width for line in lines):
            return lines
    if len(words) > 1:
        initials = " ".join([f"{w[0]}." for w in words[:-1]] + words[-1:])
        if font.size(initials)[0] <= width:
            return [initials]
    return [theme.ellipsize(name, font, width)]


@register
class Count(Widget):
    """A zone as one line, its label and how many it holds (for each player when each has
    one): for zones a player only needs to know the size of."""

    kind = "count"
    side = True

    def height(self, seats: int) -> int:
        return 36

    def draw(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        self.hits = []
        if self.rules.zones[self.spec.zone].per_player:
            text = "  ".join(f"{look.names[s]}: {count(look.zone(self.spec.zone, s))}"
                             for s in range(len(look.names)))
        else:
            text = str(count(look.zone(self.spec.zone)))
        line = theme.ellipsize(f"{self.label}: {text}", theme.font(theme.SMALL, True),
                               rect.w - 12)
        theme.text(canvas, line, (rect.x + 6, rect.centery), theme.SMALL, theme.PARCHMENT,
                   bold=True, anchor="midleft", tight=True)



def draw_space(widget: Widget, canvas: pygame.Surface, box: pygame.Rect, look: Look,
               space: str) -> None:
    """One space of a board: its name, the items on it, a glow when a click may pick it,
    and the players whose marker variable names it."""
    zone = f"{widget.spec.board}{SPACE}{space}"
    target = Target("space", zone)
    glow = target in look.targets
    pygame.draw.rect(canvas, theme.GOLD_LIGHT if glow else theme.STONE_LIGHT, box,
                     border_radius=10)
    pygame.draw.rect(canvas, theme.GOLD if glow else theme.INK, box, width=5 if glow else 2,
                     border_radius=10)
    name = theme.ellipsize(space.replace("_", " "), theme.font(theme.TINY, True), box.w - 8)
    theme.text(canvas, name, (box.centerx, box.y + 6), theme.TINY, theme.INK, bold=True,
               anchor="midtop", tight=True)
    content = look.space(zone)
    n = count(content)
    if isinstance(content, list) and content:
        entry = tuple(content[-1])
        inner = pygame.Rect(0, 0, min(box.w - 16, 80), min(box.h - 40, 44))
        inner.center = (box.centerx, box.centery + 6)
        widget.item(canvas, inner, look, entry, small=True)
        if n > 1:
            theme.text(canvas, f"x{n}", (box.right - 6, box.bottom - 4), theme.TINY, theme.INK,
                       bold=True, anchor="bottomright", tight=True)
    # Players whose position variable names this space stand on it (fixture: `age`).
    at = [s for s, pv in enumerate(look.view["player_vars"]) if space in pv.values()]
    for k, s in enumerate(at):
        centre = (box.x + 16 + k * 24, box.bottom - 16)
        pygame.draw.circle(canvas, theme.INK, centre, 11)
        pygame.draw.circle(canvas, look.colours[s], centre, 9)
    widget.hits.append((box, target))


def default_widgets(rules: Rules, layout: Layout) -> list[Widget]:
    """The layout's widgets, then one for every zone and board it does not mention."""
    # `show: none` names a zone so that no widget is made for it, by the layout or here.
    out = [WIDGETS[spec.show](spec, rules) for spec in layout.widgets if spec.show != "none"]
    named = {spec.zone for spec in layout.widgets} | {spec.board for spec in layout.widgets}
    named |= set(layout.tray) | {a.zone for a in layout.areas} | {
        a.zone for a in layout.player_zones}
    if layout.source:
        named.add(layout.source)
    spaces = {f"{b}{SPACE}{s}" for b, bd in rules.boards.items() for s in bd.spaces}
    for name, zdef in rules.zones.items():
        if name in named or name in spaces:
            continue
        if zdef.per_player:
            show = "hand" if zdef.visible == "owner" else "players"
        elif zdef.visible == "none" or zdef.order == "deck" or zdef.blind or (
                zdef.holds == "tokens"):
            show = "pile"
        else:
            show = "row"
        out.append(WIDGETS[show](WidgetSpec(show, zone=name), rules))
    for name, board in rules.boards.items():
        if name not in named:
            show = "grid" if board.cols else "track"
            out.append(WIDGETS[show](WidgetSpec(show, board=name), rules))
    return out
