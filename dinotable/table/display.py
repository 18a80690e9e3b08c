"""What the table shows while the engine has already moved on: the display model (`Shown`,
the dice sprites) brought level with the viewer's view once playback ends, advanced frame
by frame (scores ticking up, sliding dice, the banner and the hint fading), and the layers
drawn over the parts (dice, banner, hint)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import pygame

from ..engine import dice_touched
from ..render import cards, theme
from ..render.dice import draw_die
from ..render.widgets import Banner
from ..scenes.base import Menu
from .areas import more_under
from .choice import Target
from .host import PartHost
from .part import Part, Point
from .sprites import Sprite

if TYPE_CHECKING:
    from .dice_parts import TrayPart

LIFT = 9  # how far a chosen die is lifted off the felt
CARD_MIN_W = 150  # a card shown in the middle is no narrower: its words read


class Showing(PartHost, Protocol):
    """The table as its display model and top layers see it, beyond what its parts see:
    the parts and where the dice lie among them, the banner, the hint and the pointer."""

    parts: list[Part]
    sprite_zones: set[str]  # the zones whose dice are sprites
    banner: tuple[str, tuple[int, int, int], float] | None
    showcase: list[str]  # a banner's words, then the card kinds shown under it
    toast: tuple[str, float] | None  # the hint of the moment, and its seconds left
    wait: float  # seconds the playback waits
    menu: Menu
    pointer: tuple[int, int]  # where the pointer is, as every motion reports it
    dirty: bool  # something changed: draw again

    @property
    def tray_part(self) -> TrayPart | None: ...

    @property
    def tr(self) -> pygame.Rect: ...

    def slot(self, zone: str, owner: int | None, index: int) -> Point: ...

    def sprite_size(self, sprite: Sprite) -> int: ...

    def die_colour(self, kind: str) -> tuple[int, int, int]: ...

    def log_line(self, text: str) -> None: ...


def source_counts(table: PartHost) -> dict[str, int]:
    """How many dice of each kind the cup holds, as the view shows it."""
    counts: dict[str, int] = {}
    layout = table.layout
    if layout.source:
        content = table.view["zones"][layout.source]
        if table.rules.zones[layout.source].per_player:
            content = content[table.state.current]
        for entry in content if isinstance(content, list) else []:
            kind = entry[1]
            if kind is not None:
                counts[kind] = counts.get(kind, 0) + 1
    return counts


def level(table: Showing) -> None:
    """After playback: the display matches the viewer's view of the engine exactly."""
    shown, state, view = table.shown, table.state, table.view
    shown.current = state.current
    shown.score_goals = [float(v or 0) for v in view["scores"]]
    shown.source = source_counts(table)
    shown.round = state.round
    shown.phase = state.phase
    shown.out = {s for s in range(len(table.seats)) if state.out[s]}
    tray = table.layout.tray
    sprites = table.sprites
    on_table = set()
    for zname in table.sprite_zones:
        per_player = table.rules.zones[zname].per_player
        seen = view["zones"][zname]
        for owner, content in enumerate(seen if per_player else [seen]):
            if isinstance(content, dict):
                continue  # hidden from this viewer: nothing to draw
            for n, (item_id, kind, face) in enumerate(content):
                if item_id is None:
                    continue
                on_table.add(item_id)
                sprite = sprites.get(item_id)
                where = owner if per_player else None
                if sprite is None:
                    sx, sy = table.source_point()
                    sprite = sprites[item_id] = Sprite(item_id, kind, face, zname, sx, sy)
                    tray_part = table.tray_part
                    if zname in tray and tray_part is not None:
                        sprite.x, sprite.y, sprite.angle = tray_part.place(zname, n)
                sprite.face, sprite.zone, sprite.owner = face, zname, where
                if zname not in tray and sprite.goal is None:
                    # Set aside: in its slot (a row may have regrown to fit them all).
                    sprite.x, sprite.y = table.slot(zname, where, n)
    for gone in set(sprites) - on_table:
        del sprites[gone]


def tick(table: Showing, dt: float) -> None:
    """One frame of time for what is shown: the hint and banner fade, dice slide, scores
    count towards what they will be."""
    if table.toast is not None:
        text, left = table.toast
        table.toast = (text, left - dt) if left - dt > 0 else None
    for sprite in table.sprites.values():
        sprite.update(dt)
    shown = table.shown
    for s, goal in enumerate(shown.score_goals):
        cur = shown.scores[s]
        if cur != goal:
            step = max(abs(goal - cur) * min(1.0, dt * 6), dt * 8)
            shown.scores[s] = goal if abs(goal - cur) <= step else (
                cur + step if goal > cur else cur - step)
    if table.banner is not None:
        text, colour, left = table.banner
        table.banner = (text, colour, left - dt) if left - dt > 0 else None
    if table.banner is None or table.showcase[:1] != [table.banner[0]]:
        table.showcase = []  # the cards go with the banner that tells of them


def draw_sprites(table: Showing, canvas: pygame.Surface) -> None:
    """The dice outside the cup: those at rest top to bottom, then those in flight. On
    the holder's turn a die a click would choose glows; one chosen (to throw again, or
    that pays for the card chosen) lies lifted with a gold frame and a tick; one a move
    on the bar would turn (a dinosaur bones may negate) is framed red with a "!"."""
    sprites = table.sprites.values()
    resting = sorted((s for s in sprites if s.goal is None), key=lambda s: s.y)
    flying = [s for s in sprites if s.goal is not None]
    live = table.my_turn and bool(resting)  # no dice on show: nothing to work out
    chooser = table.chooser
    glowing = chooser.targets() if live else set()
    chosen = set(chooser.marked()) | set(chooser.paying()) if live else set()
    warned = set(chooser.threatened()) if live else set()
    for sprite in resting + flying:
        size = table.sprite_size(sprite)
        up = sprite.goal is None and sprite.id in chosen
        centre = (sprite.x, sprite.y - (lift(table, sprite, size) if up else 0))
        draw_die(canvas, centre, size, sprite.angle, table.die_colour(sprite.kind),
                 sprite.face, highlight=Target("item", sprite.id) in glowing and not up)
        if sprite.goal is not None:
            continue
        if up:
            frame_die(canvas, centre, size, theme.GOLD, "✓")
        elif sprite.id in warned:
            frame_die(canvas, centre, size, theme.DANGER, "!")


def lift(table: Showing, sprite: Sprite, size: int) -> float:
    """How far a chosen die is lifted: LIFT, or less near the tray's top, whose rim its
    frame never covers."""
    if sprite.zone not in table.layout.tray:
        return LIFT
    room = sprite.y - (size + 16) / 2 - table.tr.y - 6
    return max(0.0, min(LIFT, room))


def frame_die(canvas: pygame.Surface, centre: tuple[float, float], size: int,
              colour: tuple[int, int, int], sign: str) -> None:
    """A frame round a die, dark-edged so it shows on felt and on a pale die alike, with a
    sign in a disc at its corner (a tick: chosen; "!": in danger): not colour alone."""
    box = pygame.Rect(0, 0, size + 12, size + 12)
    box.center = (round(centre[0]), round(centre[1]))
    pygame.draw.rect(canvas, theme.INK, box.inflate(4, 4), width=3, border_radius=14)
    pygame.draw.rect(canvas, colour, box, width=4, border_radius=12)
    badge = (box.right - 2, box.y + 2)
    pygame.draw.circle(canvas, theme.INK, badge, 13)
    pygame.draw.circle(canvas, colour, badge, 11)
    theme.text(canvas, sign, badge, theme.TINY, theme.INK if colour == theme.GOLD else
               theme.PARCHMENT_LIGHT, bold=True, anchor="center", tight=True)


def stand_in(table: PartHost, action: Any) -> None:
    """Identical dice are interchangeable, so the engine throws (or spends) whichever
    dice show the faces chosen. The player chose particular ones: each die the engine
    takes instead trades places on screen with a chosen die showing the same face, so
    exactly the dice clicked are thrown and the others lie still."""
    chooser = table.chooser
    building = chooser.building
    if building is None or building.adef.id != action.id or not building.marked:
        return
    touched = dice_touched(table.state, action)
    moving = set(touched.thrown) | set(touched.spent)
    state = table.state

    def face(item: str) -> Any:
        return state.items[state.item_ids[item]].face

    spare = [i for i in moving if i not in building.marked and i in table.sprites]
    for mine in building.marked:
        if mine in moving or mine not in table.sprites:
            continue
        sprite = table.sprites[mine]
        other = next((i for i in spare if face(i) == face(mine)
                      and table.sprites[i].zone == sprite.zone), None)
        if other is None:
            continue
        spare.remove(other)
        theirs = table.sprites[other]
        sprite.x, theirs.x = theirs.x, sprite.x
        sprite.y, theirs.y = theirs.y, sprite.y
        sprite.angle, theirs.angle = theirs.angle, sprite.angle


def draw_over(table: Showing, canvas: pygame.Surface) -> None:
    """The banner across the middle and the hint of the moment, over everything."""
    middle = table.tr
    if table.banner is not None and table.showcase[:1] == [table.banner[0]]:
        draw_showcase(table, canvas)
    elif table.banner is not None and not banner_gives_way(table):
        text, colour, left = table.banner
        Banner(text, colour).draw(canvas, banner_rect(table), alpha=min(1.0, left * 3))
    if table.toast is not None:
        draw_toast(canvas, middle, table.toast)
    note_unseen(table)


def note_unseen(table: Showing) -> None:
    """Tell the chooser which cards it may offer were not drawn (under a "+N more"), so the
    bar offers them as buttons: a move is never asked for by a click on nothing."""
    chooser = table.chooser
    unseen: frozenset[Target] = frozenset()
    if table.my_turn and table.idle:
        glowing = {t for t in chooser.targets() if t.kind == "item" and chooser.is_card(
            str(t.value))}
        if glowing:
            drawn = {t for part in table.parts for _, t in part.targets_at()}
            unseen = frozenset(glowing - drawn)
    if unseen != chooser.unseen:
        chooser.unseen = unseen
        table.refresh_buttons()


def banner_rect(table: Showing) -> pygame.Rect:
    """Where the banner lies: across the middle of the table."""
    middle = table.tr
    return pygame.Rect(middle.x - 40, middle.centery - 50, middle.w + 80, 100)


def banner_gives_way(table: Showing) -> bool:
    """Whether the banner must not be drawn: a player choosing dice (the dice to reroll),
    or about to (dice in the tray glow for them), sees the dice it would cover; and dice
    come to rest under it (a bot's throw) are read, not covered (the log says it too)."""
    if table.chooser.building is not None:
        return True
    over = banner_rect(table)
    for sprite in table.sprites.values():
        if sprite.zone in table.layout.tray and sprite.goal is None and table.toss is None:
            size = table.sprite_size(sprite)
            if over.colliderect(pygame.Rect(sprite.x - size / 2, sprite.y - size / 2, size,
                                            size)):
                return True
    tray = table.tray_part
    if tray is None or not (table.idle and table.my_turn):
        return False
    glowing = table.chooser.targets()
    return any(t.kind == "item" and t in glowing for _, t in tray.targets_at())


def draw_showcase(table: Showing, canvas: pygame.Surface) -> None:
    """The banner at the top of the middle and, under it, the cards it tells of face up,
    large enough to read (a player's hidden cards turned up at the end), alike cards once
    with how many, in rows."""
    assert table.banner is not None
    text, colour, left = table.banner
    middle = table.area["centre"]
    veil = pygame.Surface(middle.size, pygame.SRCALPHA)  # the table behind steps back
    veil.fill((*theme.FELT_DARK, 200))
    canvas.blit(veil, middle.topleft)
    Banner(text, colour).draw(canvas, pygame.Rect(middle.x - 20, middle.y, middle.w + 40, 84),
                              alpha=min(1.0, left * 3))
    turned = table.showcase[1:]
    kinds = list(dict.fromkeys(turned))  # alike cards once, in the order turned up
    gap = 12
    room = pygame.Rect(middle.x, middle.y + 96, middle.w, middle.h - 96)
    n = len(kinds)
    cols = max(1, min(n, (room.w + gap) // (CARD_MIN_W + gap)))
    rows = -(-n // cols)
    w = min(CARD_MIN_W + 40, (room.w - gap * (cols - 1)) // cols)
    h = min(w * 4 // 3, (room.h - gap * (rows - 1)) // rows)
    for k, kind in enumerate(kinds):
        row, col = divmod(k, cols)
        across = min(cols, n - row * cols)  # a last row that is short stands centred
        x = room.centerx - (across * w + (across - 1) * gap) // 2 + col * (w + gap)
        shown_card(canvas, pygame.Rect(x, room.y + row * (h + gap), w, h),
                   cards.card_info(table.rules, kind), turned.count(kind))


def shown_card(canvas: pygame.Surface, rect: pygame.Rect, info: cards.CardInfo,
               many: int) -> None:
    """A card shown to be read in passing: its whole name in its colour band, its key
    numbers, then its words as far as they fit; `many` alike ones say "x2"."""
    pygame.draw.rect(canvas, theme.darker(theme.FELT_DARK, 0.3), rect.move(3, 4),
                     border_radius=12)
    pygame.draw.rect(canvas, theme.PARCHMENT_LIGHT, rect, border_radius=12)
    bold, plain = theme.font(theme.SMALL, True), theme.font(theme.TINY)
    names = theme.wrap(info.title, bold, rect.w - 16)
    head = pygame.Rect(rect.x, rect.y, rect.w, 14 + 26 * len(names))
    pygame.draw.rect(canvas, info.band, head, border_top_left_radius=12,
                     border_top_right_radius=12)
    ink = theme.ink_on(info.band)
    for k, line in enumerate(names):
        theme.text(canvas, line, (rect.centerx, head.y + 8 + 26 * k), theme.SMALL, ink,
                   bold=True, anchor="midtop", tight=True)
    story = " ".join([info.text, *(f.value for f in info.face
                                    if f.form == "words" and not f.label)]).strip()
    keys = [part for line in info.lines() for part in theme.wrap(line, theme.font(
        theme.TINY, True), rect.w - 16)]
    y = head.bottom + 8
    for n, line in enumerate([*keys, "", *theme.wrap(story, plain, rect.w - 16)]):
        if y + 22 > rect.bottom - (30 if many > 1 else 6):
            break  # the rest is read on the card itself, in the player's area
        theme.text(canvas, line, (rect.x + 8, y), theme.TINY,
                   theme.INK if n < len(keys) else theme.INK_SOFT, bold=n < len(keys),
                   tight=True)
        y += 24 if line else 8
    if many > 1:
        theme.text(canvas, f"x{many}", (rect.right - 10, rect.bottom - 6), theme.SMALL,
                   theme.INK, bold=True, anchor="bottomright", tight=True)
    pygame.draw.rect(canvas, theme.INK, rect, width=2, border_radius=12)


def draw_toast(canvas: pygame.Surface, middle: pygame.Rect, toast: tuple[str, Any]) -> None:
    """The hint of the moment, on a parchment tab at the top of the middle."""
    text, _ = toast
    font = theme.font(theme.SMALL, True)
    words = theme.ellipsize(text, font, middle.w - 40)
    box = pygame.Rect(0, 0, font.size(words)[0] + 32, font.get_height() + 14)
    box.midtop = (middle.centerx, middle.y + 14)
    pygame.draw.rect(canvas, theme.PARCHMENT_LIGHT, box, border_radius=10)
    pygame.draw.rect(canvas, theme.INK, box, 2, border_radius=10)
    theme.text(canvas, words, box.center, theme.SMALL, theme.INK, bold=True,
               anchor="center")


def hover_key(table: Showing) -> tuple[Any, ...]:
    """What under the pointer changes the picture: the button, the part, the thing."""
    pos = table.pointer
    thing = next((rect.topleft for part in table.parts for rect, _ in part.targets_at()
                  if rect.collidepoint(pos)), None)
    part = next((n for n, p in enumerate(table.parts) if p.rect.collidepoint(pos)), None)
    # A "+N more" under the pointer lists what it hides a moment later, for a while: the
    # tooltips' timers count here, and their coming and going are changes to draw.
    shows = [w for p in table.parts for w in (p, getattr(p, "areas", None)) if w is not None]
    more = more_under(shows, pos)
    tip = table.zoom.tip
    tip.at(more, pos)
    # So does reading the card under the pointer large (the topmost card drawn there).
    face = next(((kind, tuple(rect)) for shown in reversed(shows)
                 for rect, kind in reversed(shown.faces) if rect.collidepoint(table.mouse)),
                None)
    reading = table.zoom.reading
    reading.at(face, table.mouse)
    return (table.menu.at(pos), part, thing, more, tip.showing(), table.menu.tip_showing(),
            face, reading.showing())


def noticed(table: Showing, event: pygame.event.Event) -> None:
    """Input arrived: any but a bare pointer move changes what is drawn."""
    if event.type == pygame.MOUSEMOTION:
        table.pointer = event.pos
        if any(event.dict.get("buttons", ())):
            table.dirty = True  # a drag is drawn as it goes
    else:
        table.dirty = True


def opening(table: Showing, seconds: float) -> None:
    """A new game a bot begins opens on the table, saying who goes first, a moment before
    the bot moves: nobody is asked to answer a move they never saw."""
    seats = range(len(table.seats))
    if table.state.log or not table.is_bot(table.deciding) or all(map(table.is_bot, seats)):
        return
    who = table.name(table.deciding)
    table.banner = (f"{who} goes first", theme.WOOD, seconds)
    table.log_line(f"{who} goes first.")
    table.wait = seconds
