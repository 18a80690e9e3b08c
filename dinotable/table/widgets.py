"""The parts that show a zone: one small kind per way of showing it, drawn from a seat's view.

Each kind is a `Part` registered like any other, answering to the layout's `show:` (hand,
pile, row, players, count; a board's grid and track are in `boards.py`); it draws what the
view holds (never the engine's state: a hidden card is a back), and says which target a
click at a point hits. `zone_specs` picks a way to show every zone and board a layout does
not mention, so any ruleset opens on the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import pygame

from ..engine import Rules, applies
from ..render import cards, theme
from ..render.dice import draw_die
from ..ruleset.layout import Layout, WidgetSpec
from .choice import SPACE, Target, item_label
from .part import Part
from .player_boards import draw_item, draw_price, food_of
from .reading import read_card, show_read
from .registry import kind_for, register

if TYPE_CHECKING:
    from .host import PartHost

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
    # A ruleset text filled in for a player, as the viewer may know the game (a heading
    # with that player's running total); None: no game to read it from.
    words: Callable[[Any, int], str] | None = None

    def attached(self, item_id: str | None) -> list[Any]:
        """The items attached to an item the viewer sees (a Tool Bonus behind its card)."""
        held = self.view.get("attached", {}).get(item_id) if item_id is not None else None
        return list(held or [])

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


class ZonePart(Part):
    """A part that shows one zone or board of the ruleset, as the layout's `show:` names
    it (`kind`), in the centre, or down the side column when nothing of the dice table is
    there. Any card face it shows grows to a readable large card under the pointer; a
    click on one that is not a choice pins it large until the next click."""

    name = "cards"
    lifts = True
    side: ClassVar[bool] = False  # drawn in the side column when the dice table leaves it

    def __init__(self, host: PartHost, spec: WidgetSpec) -> None:
        super().__init__(host)
        self.spec = spec
        self.rules = host.rules
        self.zoom = host.zoom  # one for the whole table: one card is read at a time
        self.width = 660  # the width its region gives it (set before `need`)
        # The side column is the piles' when the dice table's parts (the cup, the areas,
        # the face legend) do not take it.
        layout = host.layout
        side_free = not layout.source and not layout.areas and not (
            layout.faces and host.rules.dice)
        self.region = "side" if self.side and side_free else "centre"

    @classmethod
    def build(cls, host: PartHost) -> list[Part]:
        """A part for every zone and board the layout shows, of the kind its `show:` names,
        in the layout's order (but for those the players' areas show)."""
        options = host.state.options
        taken = {spec.zone for spec in area_specs(host.rules, host.layout, options)}
        return [kind_for(spec.show)(host, spec)
                for spec in zone_specs(host.rules, host.layout, options)
                if not (spec.zone in taken and spec.show in ("hand", "players", "count"))]

    @property
    def label(self) -> str:
        """Its title: the layout's label, the zone's or board's own, or its name."""
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

    def need(self, seats: int, look: Look) -> int:
        """How tall it would like to be now, with what it holds (an empty row is a title)."""
        return self.height(seats)

    def wanted(self, seats: int) -> int:
        if self.region == "side":
            return self.height(seats)
        self.width = self.host.area[self.region].w  # what its lines may fill
        return self.need(seats, self.host.look())

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        self.faces, self.hover, self.more, self.ringed = [], None, [], []
        if self.rect.h < 30:
            self.hits = []
            return  # squeezed out of a crowded column: no empty band
        pygame.draw.rect(canvas, theme.FELT_DARK, self.rect, border_radius=12)
        self.draw_zone(canvas, self.rect, look)
        show_read(self.host, self, self.zoom, canvas, self.rect)

    def draw_zone(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        """Draw what it shows into `rect`, remembering where each clickable thing is."""
        raise NotImplementedError

    def handle(self, event: pygame.event.Event) -> bool:
        return read_card(self.host, self, self.zoom, event)

    # --- shared drawing -----------------------------------------------------------

    def title(self, canvas: pygame.Surface, rect: pygame.Rect, text: str) -> None:
        theme.text(canvas, text, (rect.x + 6, rect.y + 2), theme.SMALL, theme.PARCHMENT,
                   bold=True)

    def item(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look,
             entry: tuple[str | None, str | None, str | None], small: bool = False,
             shown_w: int | None = None) -> None:
        """One item as the viewer sees it: a die, a card's face, or a back (`shown_w`: the
        width of it the next card in a crowded row leaves uncovered)."""
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
            cards.draw_card(canvas, rect, kind, title, lines, text, band, glow, marked, small,
                            shown_w)
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


def covered(step: int, card_w: int, n: int, cards_n: int) -> int | None:
    """How much of the n-th card of a row the next one leaves uncovered (None: all)."""
    return step - 4 if step < card_w and n < cards_n - 1 else None


@register
class Row(ZonePart):
    """A shared zone's items in a row: the market, the dice in the tray, a played pile."""

    kind = "row"

    def height(self, seats: int) -> int:
        holds = self.rules.zones[self.spec.zone].holds
        return 104 if holds == "dice" else 140 if holds == "tiles" else cards.CARD_H + 44

    def need(self, seats: int, look: Look) -> int:
        # An empty row takes no room: it is drawn when something lies in it.
        return self.height(seats) if count(look.zone(self.spec.zone)) else 0

    def draw_zone(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
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
        holds = self.rules.zones[self.spec.zone].holds
        dice, tiles = holds == "dice", holds == "tiles"  # tiles: square, as on a board
        h = min(64 if dice else 96 if tiles else cards.CARD_H, rect.bottom - top - 4)
        w = h if dice or tiles else cards.CARD_W
        _, step = layout_of(len(content), rect.w - 16, w)
        for n, entry in enumerate(content):
            if tiles:
                draw_item(self, canvas, pygame.Rect(rect.x + 8 + n * step, top, w, h), look,
                          tuple(entry))
                continue
            self.item(canvas, pygame.Rect(rect.x + 8 + n * step, top, w, h), look, tuple(entry),
                      shown_w=covered(step, w, n, len(content)))


@register
class Pile(ZonePart):
    """A stack with a count: the deck (backs), the discard pile (its top card showing)."""

    kind = "pile"
    side = True
    CELL_W = 76  # the narrowest a pile in a row of piles in the middle stands
    TALL_H = 140  # ... and its height: the name, the top card with its numbers, the count

    def __init__(self, host: PartHost, spec: WidgetSpec) -> None:
        super().__init__(host, spec)
        # Piles in the middle stand side by side, a row of them, their cards larger into
        # spare room.
        self.pairs = self.fills = self.region == "centre"

    @property
    def per_row(self) -> int:
        """How many piles share a row: as many as stand readable."""
        return max(2, min(5, self.host.area[self.region].w // self.CELL_W))

    def height(self, seats: int) -> int:
        return 72

    def wanted(self, seats: int) -> int:
        # A cell of a row of piles: its top card read whole.
        return self.height(seats) if self.region == "side" else self.TALL_H

    def draw_zone(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        self.hits = []
        content = look.zone(self.spec.zone)
        n = count(content)
        if rect.w < 3 * self.CELL_W:  # a cell of a row of piles, however short
            self.draw_tall(canvas, rect, look, content)
            return
        # The stack on the left, its name and count beside it: one tidy line per pile.
        tall = max(30, min(60, rect.h - 10))
        entry = shown_top(content)
        # A card's shape, wider where the name of the card showing needs it to read whole
        # (as long as its pile's name keeps a line).
        title = cards.card_info(self.rules, str(entry[1])).title if entry is not None and (
            entry[1] in self.rules.items) else ""
        most = min(rect.w // 3, rect.w - 32 - theme.font(theme.TINY, True).size(self.label)[0])
        box = pygame.Rect(rect.x + 10, rect.centery - tall // 2 - 2,
                          cards.width_for(title, tall * 64 // 88, tall, most), tall)
        top = None
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
        # A short pile (a crowded column) sets its name and count closer, inside it.
        lift = 3 * (len(label) == 1) if rect.h >= 48 else 0
        for k, words in enumerate(label):
            theme.text(canvas, theme.ellipsize(words, theme.font(size, True), width),
                       (x, rect.centery + 1 - 20 * (len(label) - 1 - k) - lift),
                       size, theme.PARCHMENT, bold=True, anchor="bottomleft", tight=True)
        deck = self.rules.zones[self.spec.zone].order == "deck" or isinstance(content, dict)
        words = "empty" if not n else f"{n} left" if deck else f"{n} here"
        if self.spec.left:
            # What is still to come from it (a short game plays half the deck), not the
            # cards lying there.
            still = int(look.view["game_vars"].get(self.spec.left) or 0)
            words = "no more to come" if still <= 0 else f"{still} to come"
        theme.text(canvas, ellipsize_tiny(words, width),
                   (x, rect.centery + (7 if len(label) > 1 else 4 if rect.h >= 48 else 3)),
                   theme.TINY,
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
            # The card takes the cell's width, its name wrapped whole on the lines it needs.
            card_w, card_h = rect.w - 4, min(card_h, 72)
        box = pygame.Rect(0, 0, card_w, card_h)
        box.midtop = (rect.centerx - (1 if narrow else 4), rect.y + 26)
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
        cost = food_of(self.rules, str(entry[1])) if entry is not None and narrow else []
        if cost and draw_price(canvas, rect, box, cost, f"+{n - 1}" if n > 1 else ""):
            return
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
class Hand(ZonePart):
    """A zone each player has that only its owner sees: the viewer's cards face up, the
    others' as a count of backs."""

    kind = "hand"

    def height(self, seats: int) -> int:
        if self.spec.size == "small":
            return 40 + cards.SMALL_H + 8
        return cards.CARD_H + 80

    def need(self, seats: int, look: Look) -> int:
        # Only the viewer's own cards are laid out: nobody's, or none in it, is a title;
        # when nobody holds any, not even that.
        if not any(count(look.zone(self.spec.zone, s)) for s in range(len(look.names))):
            return 0
        if look.sees_all:  # every hand face up, a line of name chips each
            return 34 + seats * Players.SMALL_LINE
        if look.viewer is None or not count(look.zone(self.spec.zone, look.viewer)):
            return 36
        return self.height(seats)

    def draw_zone(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
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
                      tuple(entry), small=small, shown_w=covered(step, w, n, len(own)))

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
class Players(ZonePart):
    """A zone each player has, in a line per player: what everyone has built or found."""

    kind = "players"
    pairs = True  # two players' panels share a row
    SMALL_LINE = 28  # a line per player of name chips (size: small)

    def height(self, seats: int) -> int:
        if self.spec.size == "small":
            return 34 + seats * self.SMALL_LINE
        return 36 + seats * (cards.SMALL_H + 8)

    def draw_zone(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
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


def chip_w(rules: Rules, kind: str | None, most: int) -> int:
    """A card's chip (on a track, in a player's area): its whole name at the smallest
    type, no wider than `most` (a back: a small blank chip)."""
    if kind is None:
        return min(most, 60)
    name = item_label(rules, kind)
    return min(most, int(theme.font(theme.TINY, True).size(name)[0]) + 18)


def zone_specs(rules: Rules, layout: Layout, options: dict[str, Any] | None = None
               ) -> list[WidgetSpec]:
    """How each zone and board is shown: the layout's entries (with `options`, those that
    apply under them), then one for every zone and board it does not mention, so any
    ruleset opens on the table."""
    # `show: none` names a zone so that nothing shows it, by the layout or here; an entry
    # that does not apply still names its zone, which then shows nowhere.
    out = [spec for spec in layout.widgets if spec.show != "none" and (
        options is None or applies(spec.applies_when, options))]
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
        out.append(WidgetSpec(show, zone=name))
    for name, board in rules.boards.items():
        if name not in named:
            out.append(WidgetSpec("grid" if board.cols else "track", board=name))
    return out


def area_specs(rules: Rules, layout: Layout, options: dict[str, Any] | None = None
               ) -> list[WidgetSpec]:
    """What the players' areas of a card game show: every per-player hand or row, when
    there are two or more (one alone is shown on its own)."""
    specs = [spec for spec in zone_specs(rules, layout, options) if spec.show in (
        "hand", "players", "count") and spec.zone and rules.zones[spec.zone].per_player]
    return specs if len(specs) >= 2 else []
