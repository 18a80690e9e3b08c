"""The parts that show a board: a grid of spaces, and a track of named spaces a row each
(the time track of Dino Hunt), drawn from a seat's view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from ..render import cards, theme
from . import player_boards
from .choice import SPACE, Target, item_label
from .registry import register
from .widgets import Look, ZonePart, chip_w, count

if TYPE_CHECKING:
    from ..ruleset.layout import WidgetSpec
    from .host import PartHost


@register
class Grid(ZonePart):
    """A board of rows and columns: its spaces, what lies on them, empty ones to click."""

    kind = "grid"

    def __init__(self, host: PartHost, spec: WidgetSpec) -> None:
        super().__init__(host, spec)
        # A board each player has: the viewer's own, large (the others' are in the players'
        # areas), taking the room left over.
        self.every = self.rules.boards[spec.board].per_player
        self.grow = self.every

    def height(self, seats: int) -> int:
        board = self.rules.boards[self.spec.board]
        if self.every:
            return 14 + player_boards.NAME_H + board.rows * 44
        return 40 + board.rows * 96

    def draw_zone(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        self.hits = []
        if self.every:
            player_boards.draw_own(self, canvas, rect, look)
            return
        board = self.rules.boards[self.spec.board]
        self.title(canvas, rect, self.label)
        cell = max(40, min((rect.h - 40) // board.rows, (rect.w - 20) // board.cols, 110))
        left = rect.centerx - cell * board.cols // 2
        for n, space in enumerate(board.spaces):
            r, c = divmod(n, board.cols)
            box = pygame.Rect(left + c * cell, rect.y + 36 + r * cell, cell - 6, cell - 6)
            draw_space(self, canvas, box, look, space)


def draw_space(part: ZonePart, canvas: pygame.Surface, box: pygame.Rect, look: Look,
               space: str) -> None:
    """One space of a board: its name, the items on it, a glow when a click may pick it,
    and the players whose marker variable names it."""
    zone = f"{part.spec.board}{SPACE}{space}"
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
        part.item(canvas, inner, look, entry, small=True)
        if n > 1:
            theme.text(canvas, f"x{n}", (box.right - 6, box.bottom - 4), theme.TINY, theme.INK,
                       bold=True, anchor="bottomright", tight=True)
    # Players whose position variable names this space stand on it (fixture: `age`).
    at = [s for s, pv in enumerate(look.view["player_vars"]) if space in pv.values()]
    for k, s in enumerate(at):
        centre = (box.x + 16 + k * 24, box.bottom - 16)
        pygame.draw.circle(canvas, theme.INK, centre, 11)
        pygame.draw.circle(canvas, look.colours[s], centre, 9)
    part.hits.append((box, target))


# A colour for each space of a track, in order, so neighbouring spaces never look alike.
SPACE_COLOURS = ((150, 96, 56), (92, 128, 62), (46, 112, 104), (64, 92, 150), (128, 74, 118),
                 (160, 124, 48), (90, 90, 90))


@register
class Track(ZonePart):
    """A track of named spaces, a coloured row each: the space's name in full, the players
    standing on it, and its cards side by side with their names in full (more lines when
    they do not fit on one)."""

    kind = "track"
    fills = True  # its rows grow roomier into spare room
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

    def need(self, seats: int, look: Look) -> int:
        room = self.room(self.width)
        board = self.rules.boards[self.spec.board]
        return 34 + sum(len(self.lines(look.space(
            f"{self.spec.board}{SPACE}{space}"), room, look, space)) * self.LINE + 4
            for space in board.spaces)

    def draw_zone(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
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
