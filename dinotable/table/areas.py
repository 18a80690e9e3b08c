"""Players' areas: each player's own zones together under their name plate, and the
"+N more" that lists what an area has no room to show."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from ..render import theme
from . import player_boards
from .choice import Target, item_label
from .part import Part
from .registry import kind_for
from .tallies import several
from .widgets import Look, ZonePart, area_specs, chip_w, count, zone_specs

if TYPE_CHECKING:
    from .host import PartHost

PIECE = "\x00"  # marks the rest of words broken over lines, in what "+N more" lists
TUCK = 10  # how far an attached card lies behind the card it is attached to
PEEK = 56  # how much of it shows in a narrow area


PLATE_FRAME = 80  # a plate's marker, score and margins beside the name (its shape gives way), px


class Areas(ZonePart):
    """Each player's own zones together in that player's area (under their name plate in
    the players column): one flow of whole-name chips, zone by zone, wrapped onto as many
    lines as the area has; what does not fit ends in "+N more", which lists it on hover.
    A zone the viewer may not see is its label and a count. The players column holds and
    draws it, a player at a time: it is not a part of the table of its own."""

    kind = "areas"
    LINE = 31  # one line of chips: a name at the smallest type, clear of the chip's edge
    GAP = 6

    def __init__(self, host: PartHost, members: list[ZonePart], board: str = "") -> None:
        super().__init__(host, members[0].spec)
        self.members = members
        self.board = board  # a board each player has: theirs at the top of their area
        self.reflow = False  # ... drawn in whatever columns make its spaces largest
        self._first: dict[tuple[int, int | None], tuple[Any, int]] = {}  # see `first_line`
        # The columns each player's board was reflowed into when their area first took its
        # width: the board keeps its shape from move to move (see `split`).
        self._kept: dict[tuple[int, int], int] = {}

    @classmethod
    def of(cls, host: PartHost) -> Areas | None:
        """The players' areas of a card game: every per-player hand or row the layout
        shows, when there are two or more (one alone is a part of its own)."""
        options = host.state.options
        members = [kind_for(spec.show)(host, spec)
                   for spec in area_specs(host.rules, host.layout, options)]
        grid = next((spec for spec in zone_specs(host.rules, host.layout, options)
                     if spec.show == "grid" and host.rules.boards[spec.board].per_player), None)
        if not members:
            return None
        areas = cls(host, members, grid.board if grid is not None else "")
        areas.reflow = grid is not None and grid.reflow
        return areas

    def shows_board(self, seat: int, look: Look) -> bool:
        """Whether a player's area shows their board (not the viewer's own, which the table
        shows large)."""
        own = look.viewer if look.viewer is not None else look.view.get("current")
        return bool(self.board) and seat != own

    @property
    def zones(self) -> set[str]:
        return {w.spec.zone for w in self.members}

    def tokens(self, seat: int, look: Look, first: str) -> list[tuple[str, Any, int]]:
        """What a player's area shows, in order: (kind, what, width); kinds are words,
        a zone's label, and a card's chip."""
        words = theme.font(theme.TINY, True)
        out: list[tuple[str, Any, int]] = []
        # The counters one by one ("Bones: 1", "Family: 0"): a squeezed area wraps them,
        # or lists the last under its "+N more", rather than cut one.
        for counter in first.split("  ") if first else []:
            out.append(("words", counter, words.size(counter)[0]))
        for member in self.members:
            zone = member.spec.zone
            content = look.zone(zone, seat)
            n = count(content)
            label = member.label
            if not n:
                continue  # nothing there: the room goes to what is
            # Hidden, or tokens all alike (cubes, stones): a count says it. Tokens of
            # different kinds (score boxes) are things to read and click, as cards are.
            alike = len({entry[1] for entry in content}) <= 1 if isinstance(content, list) else True
            # Cards all face down to the viewer (another's Secret cards) tell only how many.
            backs = isinstance(content, list) and all(entry[1] is None for entry in content)
            if member.kind == "count" and several(self.rules, zone):
                # Tokens of several kinds (food): how many of each, a kind a token.
                out.append(("label", f"{label}:", words.size(f"{label}:")[0]))
                out += player_boards.tally_tokens(self.rules, zone, content)
                continue
            # ... unless a click may choose them now (the tokens that pay): then each.
            glowing = isinstance(content, list) and any(
                Target("item", entry[0]) in look.targets for entry in content)
            if isinstance(content, dict) or backs or (
                    self.rules.zones[zone].holds == "tokens" and alike and not glowing):
                text = f"{label}: {n}"
                out.append(("words", text, words.size(text)[0]))
                continue
            if member.spec.group and isinstance(content, list):
                out += self.grouped(seat, look, member, content)
                continue
            text = f"{label}:"
            out.append(("label", text, words.size(text)[0]))
            out += [self.chip(entry, member, look) for entry in content]
        return out

    def chip(self, entry: Any, member: ZonePart, look: Look) -> tuple[str, Any, int]:
        """A card's chip token, with what is attached to it (drawn tucked behind it)."""
        return ("chip", (tuple(entry), member.spec, tuple(map(tuple, look.attached(
            entry[0])))), 0)

    def grouped(self, seat: int, look: Look, member: ZonePart, content: list[Any]
                ) -> list[tuple[str, Any, int]]:
        """A zone's cards grouped by a property (a player's ideas by colour), each group
        after its heading: the ruleset's words for it, such as a running total ("Red 25"),
        in the ruleset's order; cards with no such value after, under the zone's label."""
        spec = member.spec
        by: dict[str, list[Any]] = {}
        for entry in content:
            idef = self.rules.items.get(entry[1]) if entry[1] is not None else None
            by.setdefault(str(idef.props.get(spec.group) or "") if idef else "", []).append(
                entry)
        headings = dict(spec.groups)
        order = [v for v, _ in spec.groups if v in by] + [v for v in by if v not in headings]
        font = theme.font(theme.TINY, True)
        out: list[tuple[str, Any, int]] = []
        for value in order:
            if value in headings and look.words is not None:
                text = look.words(headings[value], seat)
            else:
                text = value.replace("_", " ").capitalize() if value else member.label
            out.append(("label", f"{text}:", font.size(f"{text}:")[0]))
            out += [self.chip(entry, member, look) for entry in by[value]]
        return out

    def chip_width(self, what: Any, width: int) -> int:
        """A chip's width in the flow: its card's, and what peeks out behind it."""
        entry, _, behind = what
        w = chip_w(self.rules, entry[1], width)
        peeks = [chip_w(self.rules, b[1], width) - TUCK for b in behind]
        if w + sum(peeks) > width * 7 // 10:
            # A narrow area: what is attached only peeks out (read whole on hover), so the
            # card and its heading keep one line.
            peeks = [min(p, PEEK) for p in peeks]
        return min(width, w + sum(peeks))

    def flow(self, tokens: list[tuple[str, Any, int]], width: int, lines: int
             ) -> tuple[list[list[tuple[str, Any, int, int]]], list[str]]:
        """The tokens laid out on at most `lines` lines of `width`: (kind, what, x, w)
        per line, and the names of the cards that did not fit (shown as "+N more")."""
        tokens = broken(tokens, width)
        out: list[list[tuple[str, Any, int, int]]] = [[]]
        x = 0
        font = theme.font(theme.TINY, True)
        for n, (kind, what, w) in enumerate(tokens):
            w = self.chip_width(what, width) if kind == "chip" else min(w, width)
            # A heading keeps its first card with it: never left alone at a line's end.
            need = w + (self.GAP + self.chip_width(tokens[n + 1][1], width) if kind == "label"
                        and n + 1 < len(tokens) and tokens[n + 1][0] == "chip" else 0)
            if out[-1] and x + need > width:
                if len(out) == lines:
                    break
                out.append([])
                x = 0
            last_line = len(out) == lines
            rest = tokens[n + 1:]
            # As wide as the "+N more" would stand, were the rest to go under it.
            more_w = font.size(f"+{sum(k != 'label' for k, _, _ in rest)} more")[0]
            if last_line and rest and x + w + self.GAP + more_w > width and any(
                    k == "chip" for k, _, _ in rest) and out[-1] and (
                    x + w + self.rest_w(rest, width) > width):
                break  # room for the "+N more" rather than this one (unless all the rest fit)
            out[-1].append((kind, what, x, w))
            x += w + self.GAP
        else:
            return out, []
        placed = sum(len(line) for line in out)
        hidden = [self.named(kind, what) for kind, what, _ in tokens[placed:]
                  if kind != "label"]
        # The "+N more" stands at the last line's end: what leaves it no room goes under it.
        line = out[-1]
        while hidden and line and line[-1][2] + line[-1][3] + self.GAP + font.size(
                f"+{len(hidden)} more")[0] > width:
            kind, what, _, _ = line.pop()
            if kind != "label":
                hidden.insert(0, self.named(kind, what))
        # A heading whose cards all went under the "+N more" goes with them; the "+N more"
        # then stands up a line when there is room for it there.
        for line in reversed(out if hidden else []):
            while line and line[-1][0] == "label":
                line.pop()
            if line:
                break
        more_w = font.size(f"+{len(hidden)} more")[0]
        while hidden and len(out) > 1 and not out[-1] and (
                not out[-2] or out[-2][-1][2] + out[-2][-1][3] + self.GAP + more_w <= width):
            out.pop()
        # Words broken over two lines are listed whole ("Rancher Bonus: 1").
        for n in range(len(hidden) - 1, 0, -1):
            if hidden[n].startswith(PIECE):
                hidden[n - 1] += " " + hidden.pop(n)[len(PIECE):]
        return out, [name.removeprefix(PIECE) for name in hidden]

    def named(self, kind: str, what: Any) -> str:
        """A token as the "+N more" lists it: a card's name (with what is attached to it),
        or the words."""
        if kind == "piece":
            return PIECE + str(what)
        if kind != "chip":
            return str(what[0] if kind == "tally" else what)
        entry, _, behind = what
        name = item_label(self.rules, entry[1]) if entry[1] else "a card"
        tucked = [item_label(self.rules, b[1]) for b in behind if b[1]]
        return f"{name} ({', '.join(tucked)})" if tucked else name

    def rest_w(self, rest: list[tuple[str, Any, int]], width: int) -> int:
        """How wide the tokens of `rest` are on one line, each after a gap."""
        return sum(self.GAP + (self.chip_width(what, width) if kind == "chip"
                               else min(w, width)) for kind, what, w in rest)

    def split(self, seat: int, look: Look, area: pygame.Rect, plate: int
              ) -> tuple[int, int, pygame.Rect, pygame.Rect] | None:
        """Where a player's board and zones go in their area (`area`, their plate `plate`
        px tall at its top): the space size, the board's columns, the board and the zones
        (None: no board there)."""
        if not self.shows_board(seat, look):
            return None
        # The board's shape is worked out once for an area of this width: a purchase that
        # lengthens a line or an area grown a little must not turn a rival's ranch from
        # 5x3 into rows of 8 and 7.
        key = (seat, area.w)
        cols = self._kept.get(key) if self.reflow else None
        first, need = self.first_line(seat, look), self.plate_need(seat)
        split = player_boards.split_area(self.rules, self.board, area, self.LINE,
                                         self.reflow, plate, first, cols, need)
        if cols is not None and split[0] < player_boards.GIVES_WAY:
            # The area has shrunk too far for that shape to read: a new one, kept from now.
            cols = None
            split = player_boards.split_area(self.rules, self.board, area, self.LINE,
                                             self.reflow, plate, first, None, need)
        if self.reflow and cols is None and area.h < 9999:  # not a height asked for
            if len(self._kept) > 512:
                self._kept.clear()
            self._kept[key] = split[1]
        return split

    def first_line(self, seat: int, look: Look) -> int:
        """How wide a player's first zone stands on a line, with room for a "+N more"
        after it (their food, say, beside their board)."""
        key = (seat, look.viewer)
        known = self._first.get(key)
        if known is None or known[0] is not look.view:  # worked out once per view
            known = self._first[key] = (look.view, self._first_line(seat, look))
        return known[1]

    def _first_line(self, seat: int, look: Look) -> int:
        tokens = self.tokens(seat, look, "")
        first = next((n for n, (kind, _, _) in enumerate(tokens[1:], 1)
                      if kind in ("label", "words")), len(tokens))
        more = theme.font(theme.TINY, True).size("+9 more")[0]
        return sum(w + self.GAP for _, _, w in tokens[:first]) + (
            more if first < len(tokens) else 0)

    def height_for(self, seat: int, look: Look, width: int, first: str, plate: int = 0
                   ) -> int:
        """How tall a player's area would like to be under its plate, every card showing
        (its board beside the plate, when it stands there, may reach above)."""
        split = self.split(seat, look, pygame.Rect(0, 0, width, 9999), plate)
        if split is not None:
            width = split[3].w
        lines, _ = self.flow(self.tokens(seat, look, first), width, 99)
        need = len(lines) * self.LINE if any(lines) else 0
        if split is None:
            return need
        board = split[2]
        return max(need, board.h - plate - 2) if board.x else need + board.h + 4

    def plate_need(self, seat: int) -> int:
        """How wide a player's name plate must be for their name and "(bot)" whole in the
        plate's smallest type, beside its marker, shape and score."""
        host = self.host
        name = host.name(seat) + (" (bot)" if host.is_bot(seat) else "")
        return theme.font(theme.TINY, True).size(name)[0] + PLATE_FRAME

    def plate_w(self, seat: int, look: Look, area: pygame.Rect, plate: int) -> int:
        """How wide a player's name plate is: the area's width, less their board when it
        stands beside it."""
        split = self.split(seat, look, inner(area), plate)
        if split is None or split[2].y > area.y:
            return area.w
        return split[2].x - 8 - area.x

    def draw_seat(self, canvas: pygame.Surface, area: pygame.Rect, look: Look, seat: int,
                  first: str, plate: int) -> None:
        """A player's board and zones in their area (their name plate `plate` px tall at
        its top, drawn by the players column)."""
        rect = pygame.Rect(area.x + 4, area.y + plate + 2, area.w - 8, area.h - plate - 2)
        split = self.split(seat, look, inner(area), plate)
        if split is not None:
            cell, cols, board, rect = split
            spaces = len(self.rules.boards[self.board].spaces)
            self.told.append((seat, "board", f"{cols}x{-(-spaces // cols)}"))
            player_boards.draw_spaces(self, canvas, board, look, seat, self.board,
                                      list(self.rules.boards[self.board].spaces), cols, cell)
            if rect.h < self.LINE - 6:
                return  # no room left for a line of their zones
        # A line's chips stand 2 px clear of its foot: the last line needs no more than that.
        lines = max(1, (rect.h + 2) // self.LINE)
        laid, hidden = self.flow(self.tokens(seat, look, first), rect.w, lines)
        font = theme.font(theme.TINY, True)
        for n, line in enumerate(laid):
            y = rect.y + n * self.LINE
            for kind, what, x, w in line:
                if kind == "tally":
                    player_boards.draw_tally(canvas, (rect.x + x, y + self.LINE // 2), what)
                    continue
                if kind == "chip":
                    entry, self.spec, behind = what  # drawn as its zone holds things
                    own = chip_w(self.rules, entry[1], w) if behind else w
                    # What is attached lies behind the card, peeking out at its right
                    # (a Tool Bonus slid behind its Big Idea), drawn first.
                    left = rect.x + x + own - TUCK
                    tucked = []
                    for item in behind:
                        tw = min(chip_w(self.rules, item[1], w), rect.x + x + w - left)
                        tucked.append((pygame.Rect(left, y + 5, tw, self.LINE - 8), item))
                        left += tw - TUCK
                    for box, item in reversed(tucked):
                        self.item(canvas, box, look, item, small=True)
                    self.item(canvas, pygame.Rect(rect.x + x, y + 2, own, self.LINE - 4), look,
                              entry, small=True)
                    continue
                shown = theme.ellipsize(what, font, w)
                theme.text(canvas, shown, (rect.x + x, y + self.LINE // 2), theme.TINY,
                           theme.INK if kind == "label" else theme.INK_SOFT, bold=True,
                           anchor="midleft", tight=True)
        if hidden:
            x = max((x + w for line in laid[-1:] for _, _, x, w in line), default=0)
            words = f"+{len(hidden)} more"
            box = theme.text(canvas, words, (rect.x + x + self.GAP, rect.y + (len(laid) - 1) *
                                             self.LINE + self.LINE // 2), theme.TINY,
                             theme.INK, bold=True, anchor="midleft", tight=True)
            self.more.append((box.inflate(8, 12), hidden))

    def draw_zone(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        raise NotImplementedError("drawn a player at a time by the players column")


def broken(tokens: list[tuple[str, Any, int]], width: int) -> list[tuple[str, Any, int]]:
    """The tokens, words wider than `width` broken where a word ends ("Rancher" and
    "Bonus: 1" on two lines), so a narrow area shows them whole rather than cut."""
    font = theme.font(theme.TINY, True)
    out: list[tuple[str, Any, int]] = []
    for kind, what, w in tokens:
        if kind not in ("words", "label") or w <= width:
            out.append((kind, what, w))
            continue
        lines = theme.wrap(str(what), font, width)
        if " ".join(lines) != what:
            out.append((kind, what, w))  # a word wider than the area: cut as before
            continue
        out += [(kind if n == 0 or kind == "label" else "piece", line, font.size(line)[0])
                for n, line in enumerate(lines)]
    return out


def inner(area: pygame.Rect) -> pygame.Rect:
    """A player's area less its sides' margins: where their board and zones go."""
    return pygame.Rect(area.x + 4, area.y, area.w - 8, area.h)


def more_under(parts: list[Part], pos: tuple[int, int]) -> tuple[int, ...] | None:
    """The "+N more" under the pointer, of those the parts drew last."""
    return next((tuple(rect) for part in parts for rect, _ in part.more
                 if rect.collidepoint(pos)), None)
