"""Every player's board at once, for a board each player has (a ranch of spaces each):
the viewer's own large, the others smaller beside it, each under its owner's name; what
lies on a space drawn as a compact tile (its colour, its points, the food it eats), read
whole under the pointer; the spaces a move may choose glowing on whoever's board they are."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from ..render import cards, theme
from ..render.dice import die_surface
from .board_sets import draw_sets
from .board_spaces import SPACE, Target
from .choice import item_label
from .tallies import tally

if TYPE_CHECKING:
    from .widgets import Look, ZonePart

NAME_H = 26  # a small board's name plate
GAP = 10
LARGEST = 96  # a space of the viewer's own board at most
SMALLEST = 22  # a space of another's board at least: its points still read


def own_cell(w: int, h: int, cols: int, rows: int) -> int:
    """The space size of the viewer's own board in `w` x `h` (its name plate above)."""
    return max(SMALLEST, min(LARGEST, (w - 8) // cols, (h - NAME_H - 8) // rows))


def area_cell(width: int, cols: int) -> int:
    """The space size of a board in a player's area `width` wide."""
    return max(SMALLEST, min(AREA_CELL, width // cols))


AREA_CELL = 56  # a space of a board in a player's area at most: room for its name
SIDE_CELL = 34  # ... beside its owner's zones, which share the width: its points read
READABLE = 28  # a space of a board in a player's area: its points read, its food shows
GIVES_WAY = 26  # ... the least it becomes to leave its owner's zones a line beside it
ZONES_W = 150  # what a wide area keeps beside its board for the player's zones, at least


def shape(n: int, cols: int, w: int, h: int, reflow: bool, most: int = AREA_CELL
          ) -> tuple[int, int]:
    """The space size (`most` at most) and columns of a board of `n` spaces drawn in
    `w` x `h`: in its own columns, or (`reflow`) in whichever makes its spaces largest."""
    choices = range(1, n + 1) if reflow else (cols,)
    best = max((min(most, w // k, h // -(-n // k)), -abs(k - cols), k) for k in choices)
    return max(12, best[0]), best[2]


def split_area(rules: Any, board: str, rect: pygame.Rect, line: int, reflow: bool = False,
               plate: int = 0, zones: int = 0, cols: int | None = None, least: int = 0
               ) -> tuple[int, int, pygame.Rect, pygame.Rect]:
    """A player's area (`rect`, their name plate `plate` px tall at its top) shared between
    their board and their zones: the space size, the board's columns, where it goes and
    where the zones go. The board goes where its spaces are largest: at the right of a
    wide area, the whole area tall, the plate and the zones beside it; or under the plate,
    leaving a line under it. `reflow`: a board whose shape does not matter is drawn in
    whatever columns fit. `zones`: the width the zones' first line would like beside it,
    theirs while the board's spaces still read. `cols`: the columns it keeps (a board
    reflowed once keeps its shape while its area keeps its width). `least`: the width its
    owner's name plate needs beside it, never given to the board."""
    if cols is not None:
        reflow = False
    else:
        cols, _, _ = board_size(rules, board, 1)
    n = len(rules.boards[board].spaces)
    below = rect.y + plate + (2 if plate else 0)
    top = shape(n, cols, rect.w, rect.bottom - below - line - 4, reflow)
    # Beside the zones a board grows no larger than its points need: the rest of the
    # width is for the zones' lines.
    side = (0, cols)
    if rect.w >= 260:
        # The plate's room first; where that leaves the board too small to read, the
        # board's (the plate then says "(bot)" under it, see `PlayersPart.draw`).
        for keep in (max(ZONES_W, zones, least), max(ZONES_W, rect.w * 2 // 5, least),
                     max(ZONES_W, zones), max(ZONES_W, rect.w * 2 // 5)):
            side = shape(n, cols, max(0, rect.w - keep - 8), rect.h - 4, reflow, SIDE_CELL)
            if side[0] >= GIVES_WAY:
                break
    if side[0] >= top[0]:
        cell, cols = side
        spot = pygame.Rect(rect.right - cols * cell, rect.y, cols * cell, -(-n // cols) * cell)
        return cell, cols, spot, pygame.Rect(rect.x, below, rect.w - spot.w - 8,
                                             rect.bottom - below)
    cell, cols = top
    spot = pygame.Rect(rect.x, below, cols * cell, -(-n // cols) * cell)
    return cell, cols, spot, pygame.Rect(rect.x, spot.bottom + 4, rect.w,
                                         rect.bottom - spot.bottom - 4)


def board_size(rules: Any, board: str, cell: int) -> tuple[int, int, int]:
    """A board's columns and rows, and its height at `cell` px a space."""
    bdef = rules.boards[board]
    cols = max(1, bdef.cols)
    rows = -(-len(bdef.spaces) // cols)
    return cols, rows, rows * cell


def draw_own(part: ZonePart, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
    """The viewer's own board large in `rect` (with no viewer, that of the player whose
    turn it is), under a name plate saying whose it is."""
    board = part.rules.boards[part.spec.board]
    cols, rows, _ = board_size(part.rules, part.spec.board, 0)
    own = look.viewer if look.viewer is not None else int(look.view.get("current") or 0)
    cell = own_cell(rect.w - 12, rect.h - 8, cols, rows)
    box = pygame.Rect(0, 0, cols * cell, NAME_H + rows * cell)
    box.midtop = (rect.centerx, rect.y + 6)
    plate = pygame.Rect(box.x, box.y, box.w, NAME_H - 4)
    draw_plate(canvas, plate, look, own)
    draw_spaces(part, canvas, pygame.Rect(box.x, box.y + NAME_H, box.w, rows * cell), look,
                own, part.spec.board, list(board.spaces), cols, cell)


def draw_plate(canvas: pygame.Surface, plate: pygame.Rect, look: Look, seat: int) -> None:
    """Whose board it is: a name plate in their colour, gold-edged on their turn."""
    current = look.view.get("current") == seat
    pygame.draw.rect(canvas, look.colours[seat], plate, border_radius=8)
    pygame.draw.rect(canvas, theme.GOLD if current else theme.INK, plate,
                     width=3 if current else 1, border_radius=8)
    name = look.names[seat]
    words = [f"{name}'s ranch", name]
    if seat == look.viewer:
        words.insert(0, f"Your ranch ({name})")
    shown = next((w for w in words if fitted(w, plate.w - 10)), "")
    if shown:
        theme.text(canvas, shown, (plate.centerx, plate.centery), theme.TINY,
                   theme.ink_on(look.colours[seat]), bold=True, anchor="center", tight=True)


def draw_spaces(part: ZonePart, canvas: pygame.Surface, box: pygame.Rect, look: Look,
                seat: int, board: str, spaces: list[str], cols: int, cell: int) -> None:
    """A player's board's spaces in rows of `cols`, `cell` px each, from `box`'s corner;
    at the end, the sets the layout names ringed on it."""
    boxes = {}
    for n, space in enumerate(spaces):
        r, c = divmod(n, cols)
        boxes[space] = pygame.Rect(box.x + c * cell, box.y + r * cell, cell - 3, cell - 3)
        draw_space(part, canvas, boxes[space], look, seat, f"{board}{SPACE}{space}")
    draw_sets(part, canvas, boxes, look, seat, board)


def fitted(words: str, width: int) -> str:
    """`words` when they fit `width` at the smallest type, else nothing (never cut)."""
    return words if theme.font(theme.TINY, True).size(words)[0] <= width else ""


def draw_space(part: ZonePart, canvas: pygame.Surface, box: pygame.Rect, look: Look,
               seat: int, zone: str) -> None:
    """One space of a player's board: empty, or the tile on it; a glow when a click on it
    would choose it."""
    target = Target("space", zone, seat)
    glow = target in look.targets
    content = look.zone(zone, seat) if zone in part.rules.zones else []
    top = content[-1] if isinstance(content, list) and content else None
    if top is None or top[1] is None:
        pygame.draw.rect(canvas, theme.GOLD_LIGHT if glow else theme.mix(
            theme.STONE_LIGHT, theme.FELT_DARK, 0.35), box, border_radius=6)
        if content:  # face down: only that something lies there
            cards.draw_back(canvas, box.inflate(-4, -4), "tiles")
    else:
        draw_tile(part, canvas, box, look, str(top[1]))
    pygame.draw.rect(canvas, theme.GOLD if glow else theme.INK, box,
                     width=4 if glow else 1, border_radius=6)
    part.hits.append((box, target))


def food_of(rules: Any, kind: str) -> list[str]:
    """What a tile eats, as the die faces its list property names (its cost in food)."""
    idef = rules.items.get(kind)
    faces = {f for die in rules.dice.values() for f in die.faces}
    for value in (idef.props.values() if idef is not None else ()):
        if isinstance(value, (list, tuple)) and value and any(v in faces for v in value):
            return [str(v) for v in value if v in faces]
    return []


def draw_price(canvas: pygame.Surface, rect: pygame.Rect, box: pygame.Rect,
              cost: list[str], more: str) -> bool:
    """What the top card of a narrow cell costs, as little dice faces under it, and how
    many lie under it ("+4"): a card named alone would hide its price. False: no room."""
    font = theme.font(theme.TINY, True)
    for tail in (more, ""):  # the count gives way to the price where both do not fit
        more_w = font.size(tail)[0] + 4 if tail else 0
        pip = min(18, (rect.w - 4 - more_w + 2) // len(cost) - 2)
        if pip >= 13:
            more = tail
            break
    else:
        return False
    width = len(cost) * (pip + 2) - 2 + more_w
    x = rect.centerx - width // 2
    y = box.bottom + 4
    for face in cost:
        canvas.blit(die_surface(theme.PARCHMENT_LIGHT, face, pip), (x, y))
        x += pip + 2
    if more:
        theme.text(canvas, more, (x + 2, y + pip // 2), theme.TINY, theme.PARCHMENT_DIM,
                   bold=True, anchor="midleft", tight=True)
    return True


def points_of(info: cards.CardInfo) -> str:
    """A tile's first key number (its points), as the card face shows it."""
    return next((f.value for f in info.face if f.form == "number"), "")


def draw_tile(part: ZonePart, canvas: pygame.Surface, box: pygame.Rect, look: Look,
              kind: str) -> None:
    """A tile on a space, compact: its colour, its points large, its name when there is
    room, and the food it eats as little die faces. The pointer on it reads it whole."""
    info = cards.card_info(part.rules, kind)
    pygame.draw.rect(canvas, info.band, box, border_radius=6)
    ink = theme.ink_on(info.band)
    points = points_of(info)
    size = theme.SMALL if box.h >= 44 else theme.TINY
    if points and box.h < 30:  # a small board: the points alone, in the middle
        theme.text(canvas, points, box.center, size, ink, bold=True, anchor="center",
                   tight=True)
    elif points:
        theme.text(canvas, points, (box.right - 4, box.y + 3), size, ink, bold=True,
                   anchor="topright", tight=True)
    food = food_of(part.rules, kind)
    if box.h >= 56:
        # The whole name between the points and the food, on two lines where it must (a
        # long name broken after a syllable, "Plesio-saurus"), never cut to "Ples.".
        top = box.y + (22 if points else 4)
        room = box.bottom - (min(box.h // 3, 24) + 6 if food else 4) - top
        # Two lines may rise a little beside the points; where even so it has no room
        # whole, its colour, points and food tell it (read whole on hover).
        size, names = cards.whole_name(info.title, box.w - 8, 2, room + 14,
                                       cards.SMALLEST) or (0, [])
        y = top + (room - len(names) * (size + 3) + 3) // 2
        for n, line in enumerate(names):
            theme.text(canvas, line, (box.x + 4, y + n * (size + 3)), size, ink, bold=True,
                       tight=True)
    if food and box.h >= 30:
        pip = max(10, min(box.h // 3, (box.w - 6) // len(food) - 2))
        x = box.x + 3
        for face in food:
            if x + pip > box.right - 2:
                break
            canvas.blit(die_surface(theme.PARCHMENT_LIGHT, face, pip),
                        (x, box.bottom - pip - 3))
            x += pip + 2
    part.faces.append((box, kind))
    if box.collidepoint(look.mouse):
        part.hover = (box, kind)


def draw_item(part: ZonePart, canvas: pygame.Surface, box: pygame.Rect, look: Look,
              entry: tuple[Any, ...]) -> None:
    """A tile lying in a row (the market) as it would lie on a board: a click may take it."""
    item_id, kind = entry[0], entry[1]
    if kind is None:
        cards.draw_back(canvas, box, "tiles")
        return
    draw_tile(part, canvas, box, look, str(kind))
    target = Target("item", item_id)
    glow = target in look.targets
    pygame.draw.rect(canvas, theme.GOLD if glow else theme.INK, box, width=4 if glow else 1,
                     border_radius=6)
    part.hits.append((box, target))


PIP = 20  # a token's little face in a player's area


def tally_tokens(rules: Any, zone: str, content: list[Any] | dict[str, int]
                 ) -> list[tuple[str, Any, int]]:
    """A player's tokens kind by kind for their area's flow: a little face (a die face of
    that name) and how many, or the words ("2 Leaf") for a kind no die shows."""
    faces = {f for die in rules.dice.values() for f in die.faces}
    font = theme.font(theme.TINY, True)
    out: list[tuple[str, Any, int]] = []
    for words in tally(rules, zone, content).split(", "):
        n, kind = words.split(" ", 1)[0], kind_named(rules, words)
        if kind in faces:
            out.append(("tally", (words, kind, n), PIP + 3 + font.size(n)[0]))
        else:
            out.append(("words", words, font.size(words)[0]))
    return out


def kind_named(rules: Any, words: str) -> str:
    """The kind a tally's words ("2 Leaf") count."""
    label = words.split(" ", 1)[-1]
    return next((k for k in rules.items if item_label(rules, k) == label), "")


def draw_tally(canvas: pygame.Surface, at: tuple[int, int], what: tuple[str, str, str]
               ) -> None:
    """A kind of token in a player's area: its little face, then how many."""
    _, face, n = what
    canvas.blit(die_surface(theme.PARCHMENT_LIGHT, face, PIP), (at[0], at[1] - PIP // 2))
    theme.text(canvas, n, (at[0] + PIP + 3, at[1]), theme.TINY, theme.INK, bold=True,
               anchor="midleft", tight=True)
