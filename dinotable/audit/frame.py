"""One frame of the table as data, and what is wrong with it.

A frame is what the parts recorded as they drew (`Part.told`, `Part.faces`), every line of
text drawn and cut (`theme.seeing_text`), and the cards read large. Each check compares
it with the engine's view for the person holding the laptop, or with the frame before: no
pixel is read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from ..engine import shown_value, view_for
from ..render import cards, theme

if TYPE_CHECKING:
    from ..scenes.table import TableScene
    from ..table.part import Part

TINY = theme.SIZE_TINY  # the smallest type the table may use: a cut word that fits at it
# is cut where it could have been set smaller


@dataclass
class Frame:
    """What one drawing of the table showed."""

    texts: list[tuple[str, pygame.Rect]] = field(default_factory=list)  # on the canvas
    cut: list[tuple[str, str, int]] = field(default_factory=list)  # whole, shown, room
    spans: list[tuple[str, pygame.Rect, int, int]] = field(default_factory=list)
    cutters: list[tuple[str, int]] = field(default_factory=list)  # part, first cut it made
    large: list[tuple[pygame.Rect, int]] = field(default_factory=list)  # card, texts before it
    faces: list[tuple[pygame.Rect, str]] = field(default_factory=list)
    told: list[tuple[int, str, str]] = field(default_factory=list)


def shown_parts(table: TableScene) -> list[Part]:
    """Every part and the parts a part draws for (the players column's areas)."""
    out: list[Part] = []
    for part in table.parts:
        out.append(part)
        inner = getattr(part, "areas", None)
        if inner is not None:
            out.append(inner)
    return out


class Recorder:
    """Wraps each part's drawing and the large card's, so a frame can say which part drew
    what (installed once on a table; the table itself is not changed otherwise)."""

    def __init__(self, table: TableScene) -> None:
        self.table = table
        self.spans: list[tuple[str, pygame.Rect, int, int]] = []
        self.cutters: list[tuple[str, int]] = []
        self.large: list[tuple[pygame.Rect, int]] = []
        self.seen: theme.TextSeen | None = None
        for part in table.parts:
            self._wrap(part)
        original = cards.draw_card_large

        def large(canvas: pygame.Surface, rect: pygame.Rect, *args: Any, **kw: Any) -> Any:
            if self.seen is not None and canvas is self.canvas:
                self.large.append((rect.copy(), len(self.seen.drawn)))
            return original(canvas, rect, *args, **kw)

        self.original_large = original
        cards.draw_card_large = large  # type: ignore[assignment]
        self.canvas: pygame.Surface | None = None

    def close(self) -> None:
        """Put the large card's drawing back."""
        cards.draw_card_large = self.original_large

    def _wrap(self, part: Part) -> None:
        draw = part.draw

        def drawing(canvas: pygame.Surface, look: Any) -> None:
            seen = self.seen
            first = len(seen.drawn) if seen is not None else 0
            if seen is not None:
                self.cutters.append((part.name, len(seen.cut)))
            draw(canvas, look)
            if seen is not None:
                self.spans.append((part.name, part.rect.copy(), first, len(seen.drawn)))

        part.draw = drawing  # type: ignore[method-assign]

    def frame(self, canvas: pygame.Surface, fresh: bool = True) -> Frame:
        """Draw the table on `canvas` and say what was drawn (`fresh`: every card face
        painted afresh, so the words on it are seen too)."""
        table = self.table
        self.spans, self.large, self.cutters, self.canvas = [], [], [], canvas
        if fresh:
            cards.forget()
        with theme.seeing_text() as seen:
            self.seen = seen
            table.draw(canvas)
            self.seen = None
        texts = [(s, r) for s, r, surface in seen.drawn]
        on_canvas = {k for k, (_, _, surface) in enumerate(seen.drawn) if surface is canvas}
        cut = [(whole, shown, room)
               for (whole, shown), room in zip(seen.cut, seen.rooms, strict=True)]
        frame = Frame([(s, r) if k in on_canvas else (s, pygame.Rect(-1, -1, 0, 0))
                       for k, (s, r) in enumerate(texts)], cut, list(self.spans),
                      list(self.cutters), list(self.large))
        for part in shown_parts(table):
            frame.faces += part.faces
            frame.told += part.told
        return frame


# --- the checks ---------------------------------------------------------------------------


def allowed_viewer(table: TableScene) -> int | None:
    """Whose private things may be on screen now: the holder's, unless the game already
    waits on another person (the laptop is about to be passed), then nobody's."""
    deciding = table.session.deciding
    holder = table.viewer
    if table.state.game_over or table.is_bot(deciding) or deciding == holder:
        return holder
    return None


def visible_kinds(view: dict[str, Any]) -> Counter[str]:
    """Every item kind a view shows face up, as many times as it shows it."""
    out: Counter[str] = Counter()
    for content in view["zones"].values():
        lists = content if content and isinstance(content, list) and isinstance(
            content[0], (list, dict)) else [content]
        for entries in lists:
            if isinstance(entries, list):
                out.update(kind for _, kind, _ in entries if kind is not None)
    for held in view.get("attached", {}).values():
        for entry in held:
            kind = entry[1] if isinstance(entry, (list, tuple)) else None
            if kind is not None:
                out[kind] += 1
    return out


def privacy_faults(table: TableScene, frame: Frame) -> list[str]:
    """Card faces drawn that the person who may look now is not allowed to see."""
    if table.sees_all or table.state.game_over:
        return []
    who = allowed_viewer(table)
    seeable = visible_kinds(view_for(table.state, who))
    # The table trails the engine while a move plays out: a card may be seen where it was
    # or where it goes, as the viewer's view before and after the move allows.
    seeable |= visible_kinds(table.view) if table.viewer == who else Counter()
    drawn = Counter(kind for _, kind in frame.faces)
    over = {kind: n - seeable[kind] for kind, n in drawn.items() if n > seeable[kind]}
    if not over:
        return []
    whose = "the public's" if who is None else f"{table.name(who)}'s"
    return [f"shows {kind} x{n}, hidden from {whose} view" for kind, n in sorted(over.items())]


def number_faults(table: TableScene, frame: Frame) -> list[str]:
    """Scores and counters drawn about a player that differ from the holder's view."""
    view = view_for(table.state, table.viewer, everything=table.sees_all)
    faults = []
    for seat, what, words in frame.told:
        if what == "score":
            value = view["scores"][seat]
            want = "?" if value is None else str(round(value))
        elif what in view["player_vars"][seat]:
            value = view["player_vars"][seat][what]
            want = shown_value(value, table.state.rules.player_vars.get(what))
        else:
            continue
        if words != want:
            faults.append(f"{table.name(seat)}'s {what} reads {words}, the game says {want}")
    return faults


def name_faults(table: TableScene, frame: Frame) -> list[str]:
    """A bot's plate that does not say it is a bot."""
    names = {seat: words for seat, what, words in frame.told if what == "name"}
    return [f"{table.name(s)} plays as a bot, but the plate reads {names[s]!r}"
            for s in sorted(names) if table.is_bot(s) and "(bot)" not in names[s]]


def text_faults(table: TableScene, frame: Frame, screen: pygame.Rect) -> list[str]:
    """Words cut though they would fit whole at the smallest type, words off the screen or
    past the part that drew them, parts overlapping or off the screen."""
    faults = []
    smallest = theme.font(TINY, True)
    for k, (whole, shown, width) in enumerate(frame.cut):
        where = next((f" in {name}" for name, first in reversed(frame.cutters) if first <= k),
                     "")
        if smallest.size(whole)[0] <= width:
            faults.append(f"{whole!r} cut to {shown!r}{where}, though it fits whole in "
                          f"smaller type")
        elif len(shown.rstrip("…")) < 3:
            faults.append(f"{whole!r} cut to {shown!r}{where}")
    for string, letters in frame.texts:
        if letters.w and not screen.contains(letters):
            faults.append(f"{string!r} at {tuple(letters)} is off the screen")
    for name, rect, first, last in frame.spans:
        room = rect.inflate(2, 2)
        for string, letters in frame.texts[first:last]:
            if letters.w and not room.contains(letters):
                faults.append(f"{string!r} at {tuple(letters)} runs past {name} "
                              f"{tuple(rect)}")
    regions = table.regions()
    for k, (part, rect) in enumerate(regions):
        if not screen.contains(rect):
            faults.append(f"{part} {tuple(rect)} is off the screen")
        faults += [f"{part} {tuple(rect)} overlaps {other} {tuple(rect2)}"
                   for other, rect2 in regions[k + 1:] if rect.colliderect(rect2)]
    buttons = [c.rect for c in table.menu.controls]
    for name, _, first, last in frame.spans:
        for string, letters in frame.texts[first:last]:
            if letters.w and any(b.colliderect(letters) for b in buttons):
                faults.append(f"{string!r} of {name} lies under a button")
    return faults


def layer_faults(frame: Frame) -> list[str]:
    """Words drawn over a card read large (it must lie on top of everything)."""
    faults = []
    for rect, first in frame.large:
        faults += [f"{string!r} drawn over the card read large"
                   for string, letters in frame.texts[first:]
                   if letters.w and rect.colliderect(letters) and not rect.contains(letters)]
    return faults


def dice_faults(table: TableScene) -> list[str]:
    """Dice at rest in the tray lying on one another (each must be read whole)."""
    resting = [s for s in table.sprites.values()
               if s.zone in table.layout.tray and s.goal is None]
    faults = []
    for k, a in enumerate(resting):
        for b in resting[k + 1:]:
            size = min(table.sprite_size(a), table.sprite_size(b))
            if (a.x - b.x) ** 2 + (a.y - b.y) ** 2 < (0.8 * size) ** 2:
                faults.append(f"dice {a.face} and {b.face} lie on one another in the tray")
    return faults


def shape_faults(before: dict[int, str], frame: Frame, table: TableScene) -> list[str]:
    """A player's board drawn in another shape than at the last move (same window)."""
    faults = []
    for seat, what, words in frame.told:
        if what == "board":
            old = before.get(seat)
            if old is not None and old != words:
                faults.append(f"{table.name(seat)}'s board changed shape from {old} to "
                              f"{words}")
            before[seat] = words
    return faults
