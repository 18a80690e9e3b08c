"""Cards, tiles and tokens: a face with its name, key numbers and words; a back; a stack.

Every face drawn goes through `draw_card`, which tells the `seen` hooks which kind it drew:
a test can then prove that no hidden card's face was ever drawn for a seat.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from . import theme
from .card_names import SMALLEST as SMALLEST
from .card_names import name_lines as name_lines
from .card_names import small_room as small_room
from .card_names import whole_name as whole_name
from .card_names import width_for as width_for

CARD_W, CARD_H = 116, 160  # a card at 1280x720: its words at 20 px at least
SMALL_W, SMALL_H = 96, 44  # a card in a player's row: just its name

# Called with the kind of every face drawn (tests record them; nothing else needs to).
seen: list[Callable[[str], None]] = []

_TINTS = ((196, 64, 52), (52, 132, 76), (52, 96, 168), (180, 132, 32), (128, 72, 150),
          (40, 130, 140), (150, 90, 60))
_SUITS = {"red": _TINTS[0], "green": _TINTS[1], "blue": _TINTS[2], "gold": _TINTS[3],
          "yellow": _TINTS[3], "purple": _TINTS[4]}


def tint(kind: str, suit: str | None = None) -> tuple[int, int, int]:
    """A kind's colour band: its suit's colour when it names one, else one of a few."""
    if suit is not None and suit in _SUITS:
        return _SUITS[suit]
    return _TINTS[zlib.crc32(kind.encode()) % len(_TINTS)]


def draw_card(surface: pygame.Surface, rect: pygame.Rect, kind: str, title: str,
              lines: Sequence[str] = (), text: str = "", band: Sequence[int] | None = None,
              glow: bool = False, marked: bool = False, small: bool = False,
              shown_w: int | None = None) -> pygame.Rect:
    """A card's face: a coloured band with its name, its key numbers, then its words.

    `glow`: a click on it does something now; `marked`: chosen for a set being built.
    `small`: a card in a player's row, its name only. `shown_w`: how much of its width the
    next card of a crowded row leaves uncovered (its name is set in that strip).
    """
    for hook in seen:
        hook(kind)
    colour = tuple(band) if band is not None else tint(kind)
    if marked:
        rect = rect.move(0, -10)  # lifted out of the row, as a hand picks it up
    if rect.w <= 0 or rect.h <= 0:
        return rect  # squeezed out of a crowded region: nothing to draw
    # A face is drawn once per look and size, then blitted: a table of sixty cards
    # redraws every frame, and text is the dear part.
    face = _face(rect.size, kind, title, tuple(lines), text, colour, glow, marked, small,
                 shown_w)
    surface.blit(face, rect.topleft)
    if small and glow and not marked:
        # A chip's glow rings it from outside: a ring drawn inside would crowd its name.
        pygame.draw.rect(surface, theme.GOLD, rect.inflate(6, 6), width=3, border_radius=12)
    return rect


_FACES: dict[tuple[Any, ...], pygame.Surface] = {}
_FACES_MAX = 400


def forget() -> None:
    """Paint every card face afresh from now on (a test or the audit then sees its words)."""
    _FACES.clear()
    _LARGE.clear()


def _face(size: tuple[int, int], kind: str, title: str, lines: tuple[str, ...], text: str,
          colour: tuple[int, ...], glow: bool, marked: bool, small: bool,
          shown_w: int | None = None) -> pygame.Surface:
    key = (size, kind, title, lines, text, colour, glow, marked, small, shown_w)
    face = _FACES.get(key)
    if face is None:
        if len(_FACES) >= _FACES_MAX:
            _FACES.clear()  # a new layout or zoom: start again rather than grow
        face = pygame.Surface((size[0] + 3, size[1] + 4), pygame.SRCALPHA)
        _paint_face(face, pygame.Rect((0, 0), size), title, lines, text, colour, glow,
                    marked, small, shown_w)
        _FACES[key] = face
    return face


def _paint_face(surface: pygame.Surface, rect: pygame.Rect, title: str, lines: Sequence[str],
                text: str, colour: Sequence[int], glow: bool, marked: bool,
                small: bool, shown_w: int | None = None) -> None:
    shadow = rect.move(3, 4)
    pygame.draw.rect(surface, theme.darker(theme.FELT_DARK, 0.3), shadow, border_radius=10)
    pygame.draw.rect(surface, theme.PARCHMENT_LIGHT, rect, border_radius=10)
    ink = theme.ink_on(tuple(colour))
    if small:
        head = rect
    else:
        # The whole name, on as many lines as it takes (two, three): the band grows for it.
        # A strip too narrow for a name (a very crowded row): set across the card.
        name_w = shown_w if shown_w is not None and 56 <= shown_w < rect.w else rect.w
        size, names = name_lines(title, name_w - 12, 3 if rect.h >= 150 else 2)
        step = theme.TINY + 2  # alike at any size: cards side by side keep their lines level
        head = pygame.Rect(rect.x, rect.y, rect.w, max(36, 14 + step * len(names)))
    pygame.draw.rect(surface, colour, head, border_radius=10)
    if not small:
        pygame.draw.rect(surface, colour, (rect.x, head.bottom - 16, rect.w, 16))
        for n, line in enumerate(names):
            theme.text(surface, line, (rect.x + name_w // 2, head.centery + (
                2 * n + 1 - len(names)) * step // 2), size, ink, bold=True, anchor="center",
                       tight=True)
    if small:
        # A chip, or a stack's top card in a narrow cell: its whole name on the lines the
        # card has room for, a size or more smaller where it must.
        size, names = name_lines(title, *small_room(rect.w, rect.h), SMALLEST)
        top = head.centery - ((size + 3) * len(names) - 3) // 2
        for k, line in enumerate(names):
            theme.text(surface, line, (head.centerx, top + k * (size + 3)), size, ink,
                       bold=True, anchor="midtop", tight=True)
    if not small:
        y = head.bottom + 8
        for line in lines:
            if y + 26 > rect.bottom - 4:
                break  # a squeezed card keeps the numbers that fit (the zoom reads all)
            shown = theme.ellipsize(line, theme.font(theme.TINY, True), rect.w - 14)
            theme.text(surface, shown, (rect.x + 8, y), theme.TINY, theme.INK, bold=True)
            y += 26
        if text:
            for line in theme.wrap(text, theme.font(theme.TINY), rect.w - 14):
                if y + 26 > rect.bottom - 4:
                    break
                theme.text(surface, line, (rect.x + 8, y), theme.TINY, theme.INK_SOFT)
                y += 24
    edge = theme.GOLD if glow or marked else theme.INK
    thick = 2 if small and not marked else 5 if glow or marked else 2  # a chip keeps its room
    pygame.draw.rect(surface, edge, rect, width=thick, border_radius=10)
    if marked:
        theme.text(surface, "✓", (rect.right - 8, rect.bottom - 6), theme.SMALL, theme.GOOD,
                   bold=True, anchor="bottomright", tight=True)


def draw_back(surface: pygame.Surface, rect: pygame.Rect, holds: str = "cards",
              glow: bool = False) -> pygame.Rect:
    """A card's back: the same for every card, so it tells nothing."""
    pygame.draw.rect(surface, theme.darker(theme.FELT_DARK, 0.3), rect.move(3, 4),
                     border_radius=10)
    pygame.draw.rect(surface, theme.WOOD, rect, border_radius=10)
    inner = rect.inflate(-14, -14)
    pygame.draw.rect(surface, theme.WOOD_LIGHT, inner, width=3, border_radius=8)
    if min(inner.w, inner.h) > 30:
        pygame.draw.circle(surface, theme.GOLD_LIGHT, inner.center, min(inner.w, inner.h) // 5,
                           width=3)
    pygame.draw.rect(surface, theme.GOLD if glow else theme.INK, rect, width=5 if glow else 2,
                     border_radius=10)
    return rect


def draw_stack(surface: pygame.Surface, rect: pygame.Rect, count: int, label: str,
               top: Callable[[pygame.Rect], None] | None = None, glow: bool = False
               ) -> pygame.Rect:
    """A pile: a few edges under the top card (its face, or a back), and how many there are."""
    if count == 0:
        pygame.draw.rect(surface, theme.FELT_LIGHT, rect, width=3, border_radius=10)
        theme.text(surface, "empty", rect.center, theme.TINY, theme.FELT_TEXT,
                   anchor="center", tight=True)
    else:
        for k in range(min(3, count - 1), 0, -1):
            edge = rect.move(k * 3, k * 3)
            pygame.draw.rect(surface, theme.PARCHMENT_DARK, edge, border_radius=10)
            pygame.draw.rect(surface, theme.INK, edge, width=1, border_radius=10)
        if top is not None:
            top(rect)
        else:
            draw_back(surface, rect, glow=glow)
    return rect


# --- a card read in full: its zoomed face, its back, and a tile in the card list --------

_ID = re.compile(r"^[a-z0-9_]+$")


def words_of(value: Any, proper: frozenset[str] = frozenset()) -> str:
    """A property value as words: ids read as words ("after_rival_roll" -> "After rival
    roll"; a name in `proper`, such as a board's space, "late_jurassic" -> "Late Jurassic"),
    lists joined with commas, whole numbers without a decimal point."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return ", ".join(words_of(v, proper) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{words_of(k, proper)}: {words_of(v, proper)}"
                         for k, v in value.items())
    text = str(value)
    if text in proper:
        return " ".join(w[:1].upper() + w[1:] for w in text.split("_"))
    if _ID.match(text) and not text.isdigit():
        text = text.replace("_", " ")
        return text[:1].upper() + text[1:]
    return text


@dataclass(frozen=True)
class Fact:
    """One thing printed on a card: a key number, a labelled value, a small table (`rows`),
    or words on their own (an empty label: a line of story)."""

    label: str
    value: str
    form: str = "words"  # number | words | table
    rows: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CardInfo:
    """Everything a kind of card shows, as the ruleset's `layout: cards` asks."""

    kind: str
    title: str
    copies: int
    band: tuple[int, int, int]
    face: tuple[Fact, ...]
    text: str
    back: tuple[Fact, ...]
    group: str = ""

    def lines(self, limit: int = 3) -> list[str]:
        """The first few key numbers and short values, for a small card."""
        short = [f"{f.label}: {f.value}" for f in self.face if f.form == "number"]
        short += [f.value for f in self.face if f.form == "words" and f.label
                  and len(f.value) <= 24]
        return short[:limit]


def _sort_key(value: Any) -> tuple[int, Any]:
    # Numbers before words, each in their own order, so mixed values never compare.
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, value)
    return (1, words_of(value).lower())


def _fact(name: str, label: str, value: Any, ptype: str,
          proper: frozenset[str] = frozenset()) -> Fact:
    if ptype == "table" and isinstance(value, dict):
        keys = sorted(value, key=_sort_key)
        return Fact(label, "", "table", tuple((words_of(k), words_of(value[k], proper))
                                              for k in keys))
    if ptype == "number" or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return Fact(label, words_of(value), "number")
    return Fact(label, words_of(value, proper), "words")


def _shown(value: Any, default: Any) -> bool:
    """Whether a value is worth printing: set on this card, and not empty."""
    if callable(value) or value in (None, "", [], {}, ()):
        return False
    return bool(value != default)


_INFO: dict[tuple[int, str], tuple[Any, CardInfo]] = {}


def card_info(rules: Any, kind: str) -> CardInfo:
    """What a kind of card shows, from its properties and the ruleset's `layout: cards`
    (without that key: every number and word the card carries, on its face). Worked out
    once per ruleset and kind: a table asks for every card on it every frame."""
    known = _INFO.get((id(rules), kind))
    if known is not None and known[0] is rules:
        return known[1]
    info = _card_info(rules, kind)
    if len(_INFO) > 4096:
        _INFO.clear()
    _INFO[(id(rules), kind)] = (rules, info)
    return info


def _card_info(rules: Any, kind: str) -> CardInfo:
    idef = rules.items[kind]
    props: dict[str, Any] = idef.props
    pdefs = getattr(rules, "properties", {}) or {}
    style = getattr(getattr(rules, "layout", None), "cards", None)
    # A board's spaces are names (periods, regions): they read with capitals.
    proper = frozenset(space for board in (getattr(rules, "boards", {}) or {}).values()
                       for space in board.spaces)

    def facts(pairs: Sequence[tuple[str, str]]) -> tuple[Fact, ...]:
        out = []
        for name, label in pairs:
            pdef = pdefs.get(name)
            value = props.get(name)
            if pdef is None or pdef.type == "effects" or not _shown(value, pdef.default):
                continue
            out.append(_fact(name, label, value, pdef.type, proper))
        return tuple(out)

    if style is not None:
        face, back = facts(style.face), facts(style.back)
    else:
        face = facts([(n, n.replace("_", " ").capitalize()) for n in props])
        back = ()
    colours = dict(style.colours) if style is not None else {}
    band = None
    for name in (style.band if style is not None else ()):
        value = props.get(name)
        if value not in (None, ""):
            band = colours.get(str(value), tint(str(value)))
            break
    if band is None:
        suit = props.get("suit")
        band = tint(kind, str(suit) if suit is not None else None)
    group = ""
    if style is not None and style.group:
        group = str(props.get(style.group, ""))
    title = idef.label or kind.replace("_", " ").capitalize()
    return CardInfo(kind, title, int(idef.copies), band, face, idef.text, back, group)


def _paragraph(string: str, size: int, colour: Sequence[int], width: int,
               bold: bool = False) -> pygame.Surface:
    """Words wrapped to `width` px by pygame-ce's own line breaking."""
    string = string.replace("\0", "")
    return theme.font(size, bold).render(string, True, colour, None, max(1, width))


Blit = tuple[pygame.Surface, tuple[int, int]]


def _face_blits(info: CardInfo, width: int, body: int) -> tuple[list[Blit], int]:
    """The face's words laid out in a column `width` wide, at text size `body`: what to
    draw where (relative to the column's top left), and the column's height."""
    out: list[Blit] = []
    y = 0
    small = max(theme.TINY, body - 4)
    label_w = int(width * 0.46)
    numbers = [f for f in info.face if f.form == "number"]
    words = [f for f in info.face if f.form == "words" and f.label]
    tables = [f for f in info.face if f.form == "table"]
    stories = [f for f in info.face if f.form == "words" and not f.label]
    for fact in numbers:
        label = _paragraph(fact.label, small, theme.INK_SOFT, label_w)
        value = _paragraph(fact.value, body + 6, theme.INK, width - label_w, bold=True)
        h = max(label.get_height(), value.get_height())
        out.append((label, (0, y + (h - label.get_height()) // 2)))
        out.append((value, (width - value.get_width(), y + (h - value.get_height()) // 2)))
        y += h + 2
    for fact in words:
        label = _paragraph(fact.label, small, theme.INK_SOFT, label_w - 8)
        value = _paragraph(fact.value, body - 2, theme.INK, width - label_w, bold=True)
        out.append((label, (0, y + 2)))
        out.append((value, (label_w, y)))
        y += max(label.get_height(), value.get_height()) + 2
    if info.text:
        y += 6
        text = _paragraph(info.text, body, theme.INK, width)
        out.append((text, (0, y)))
        y += text.get_height()
    for fact in tables:
        y += 8
        head = _paragraph(fact.label, small, theme.INK_SOFT, width, bold=True)
        out.append((head, (0, y)))
        y += head.get_height()
        half = (len(fact.rows) + 1) // 2
        col_w = width // 2
        top = y
        for i, (key, result) in enumerate(fact.rows):
            col, row = divmod(i, max(1, half))
            x = col * col_w
            cell = _paragraph(f"{key}: {result}", body - 2, theme.INK, col_w - 6)
            out.append((cell, (x, top + row * (cell.get_height()))))
            y = max(y, top + (row + 1) * cell.get_height())
    for fact in stories:
        y += 8
        story = _paragraph(fact.value, body - 2, theme.INK_SOFT, width)
        out.append((story, (0, y)))
        y += story.get_height()
    return out, y


def _back_blits(info: CardInfo, width: int, body: int) -> tuple[list[Blit], int]:
    """The back's facts, each under its label, in a column `width` wide."""
    out: list[Blit] = []
    y = 0
    facts = info.back or (Fact("", "Nothing is printed on the back of this card."),)
    for fact in facts:
        if fact.label:
            head = _paragraph(fact.label, max(theme.TINY, body - 4), theme.darker(info.band, 0.35),
                              width, bold=True)
            out.append((head, (0, y)))
            y += head.get_height()
        if fact.form == "table":
            value = _paragraph(", ".join(f"{k}: {v}" for k, v in fact.rows), body, theme.INK,
                               width)
        else:
            value = _paragraph(fact.value, body, theme.INK, width)
        out.append((value, (0, y)))
        y += value.get_height() + 12
    return out, y


def draw_card_large(surface: pygame.Surface, rect: pygame.Rect, info: CardInfo,
                    back: bool = False, glow: bool = False, body: int = theme.BODY
                    ) -> pygame.Rect:
    """A card zoomed to be read: its name, key numbers with labels, words, tables and story;
    or (`back`) its back, the facts printed there under their labels. Text starts at `body`
    px and shrinks (never below the theme's smallest) until it fits."""
    for hook in seen:
        hook(info.kind)
    if rect.w <= 0 or rect.h <= 0:
        return rect
    # Painted once per card, side and size, then blitted: the zoom follows the pointer
    # frame after frame, and fitting its words is the dear part.
    key = (info, rect.size, back, glow, body)
    image = _LARGE.get(key)
    if image is None:
        if len(_LARGE) >= 64:
            _LARGE.clear()
        image = pygame.Surface((rect.w + 5, rect.h + 7), pygame.SRCALPHA)
        _paint_large(image, pygame.Rect((0, 0), rect.size), info, back, glow, body)
        _LARGE[key] = image
    surface.blit(image, rect.topleft)
    return rect


_LARGE: dict[tuple[Any, ...], pygame.Surface] = {}


def _paint_large(surface: pygame.Surface, rect: pygame.Rect, info: CardInfo, back: bool,
                 glow: bool, body: int) -> None:
    pygame.draw.rect(surface, theme.darker(theme.FELT_DARK, 0.3), rect.move(5, 7),
                     border_radius=18)
    paper = theme.PARCHMENT if back else theme.PARCHMENT_LIGHT
    pygame.draw.rect(surface, paper, rect, border_radius=18)
    band = theme.darker(info.band, 0.25) if back else info.band
    head_h = max(56, body * 2 + 12)
    head = pygame.Rect(rect.x, rect.y, rect.w, head_h)
    pygame.draw.rect(surface, band, head, border_top_left_radius=18, border_top_right_radius=18)
    ink = theme.ink_on(band)
    tag = f"x{info.copies}" if info.copies > 1 else ""
    tag_w = theme.font(body, True).size(tag)[0] + 16 if tag else 0
    room = rect.w - 32 - tag_w
    size = theme.fit_size(info.title, room, body + 12, bold=True, floor=theme.TINY)
    theme.text(surface, theme.ellipsize(info.title, theme.font(size, True), room),
               (rect.x + 16, head.centery), size, ink, bold=True, anchor="midleft", tight=True)
    if tag:
        theme.text(surface, tag, (rect.right - 16, head.centery), body, ink, bold=True,
                   anchor="midright", tight=True)
    inner = pygame.Rect(rect.x + 18, head.bottom + 12, rect.w - 36, rect.bottom - head.bottom - 24)
    if back:
        note = _paragraph("Back of the card", max(theme.TINY, body - 6), theme.INK_SOFT, inner.w)
        surface.blit(note, (inner.right - note.get_width(), rect.bottom - note.get_height() - 8))
        inner.h -= note.get_height()
    lay = _back_blits if back else _face_blits
    text_size = body
    blits, height = lay(info, inner.w, text_size)
    while height > inner.h and text_size > theme.TINY:
        text_size -= 1
        blits, height = lay(info, inner.w, text_size)
    clip = surface.get_clip()
    surface.set_clip(inner.clip(clip) if clip else inner)
    for image, (x, y) in blits:
        surface.blit(image, (inner.x + x, inner.y + y))
    surface.set_clip(clip)
    edge = theme.GOLD if glow else theme.INK
    pygame.draw.rect(surface, edge, rect, width=6 if glow else 3, border_radius=18)


def draw_card_tile(surface: pygame.Surface, rect: pygame.Rect, info: CardInfo,
                   size: int = theme.TINY, focused: bool = False) -> pygame.Rect:
    """A card in the card list: its colour band and name, its first key numbers, and how
    many copies the game has ("x2")."""
    for hook in seen:
        hook(info.kind)
    pygame.draw.rect(surface, theme.darker(theme.FELT_DARK, 0.3), rect.move(3, 4),
                     border_radius=12)
    pygame.draw.rect(surface, theme.PARCHMENT_LIGHT, rect, border_radius=12)
    head_h = int(size * 2.3)
    head = pygame.Rect(rect.x, rect.y, rect.w, head_h)
    pygame.draw.rect(surface, info.band, head, border_top_left_radius=12,
                     border_top_right_radius=12)
    ink = theme.ink_on(info.band)
    name_size = theme.fit_size(info.title, rect.w - 16, size + 2, bold=True, floor=size - 3)
    name = theme.ellipsize(info.title, theme.font(name_size, True), rect.w - 14)
    theme.text(surface, name, (rect.x + 8, head.centery), name_size, ink, bold=True,
               anchor="midleft", tight=True)
    y = head.bottom + 6
    for line in info.lines():
        if y + size * 1.4 > rect.bottom - (int(size * 1.3) if info.copies > 1 else 0):
            break
        shown = theme.ellipsize(line, theme.font(size), rect.w - 16)
        theme.text(surface, shown, (rect.x + 8, y), size, theme.INK)
        y += int(size * 1.45)
    if info.copies > 1:
        theme.text(surface, f"x{info.copies}", (rect.right - 10, rect.bottom - 6), size,
                   theme.INK, bold=True, anchor="bottomright", tight=True)
    pygame.draw.rect(surface, theme.INK, rect, width=2, border_radius=12)
    if focused:
        pygame.draw.rect(surface, theme.INK, rect.inflate(14, 14), width=3, border_radius=16)
        pygame.draw.rect(surface, theme.GOLD, rect.inflate(8, 8), width=5, border_radius=14)
    return rect
