"""What the table shows while the engine has already moved on: the display model (`Shown`,
the dice sprites) brought level with the viewer's view once playback ends, advanced frame
by frame (scores ticking up, sliding dice, the banner and the hint fading), and the layers
drawn over the parts (dice, banner, hint)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from ..render import theme
from ..render.dice import draw_die
from ..render.widgets import Banner
from .areas import more_under
from .sprites import Sprite

if TYPE_CHECKING:
    from ..scenes.table import TableScene


def source_counts(table: TableScene) -> dict[str, int]:
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


def level(table: TableScene) -> None:
    """After playback: the display matches the viewer's view of the engine exactly."""
    shown, state, view = table.shown, table.state, table.view
    shown.current = state.current
    shown.score_goals = [float(v or 0) for v in view["scores"]]
    shown.source = source_counts(table)
    shown.round = state.round
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
                        sprite.x, sprite.y = table.slot(zname, None, n)
                        sprite.angle = tray_part.tilt(n, "left")
                sprite.face, sprite.zone, sprite.owner = face, zname, where
                if zname not in tray and sprite.goal is None:
                    # Set aside: in its slot (a row may have regrown to fit them all).
                    sprite.x, sprite.y = table.slot(zname, where, n)
    for gone in set(sprites) - on_table:
        del sprites[gone]


def tick(table: TableScene, dt: float) -> None:
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


def draw_sprites(table: TableScene, canvas: pygame.Surface) -> None:
    """The dice outside the cup: those at rest top to bottom, then those in flight."""
    sprites = table.sprites.values()
    resting = sorted((s for s in sprites if s.goal is None), key=lambda s: s.y)
    flying = [s for s in sprites if s.goal is not None]
    for sprite in resting + flying:
        draw_die(canvas, (sprite.x, sprite.y), table.sprite_size(sprite), sprite.angle,
                 table.die_colour(sprite.kind), sprite.face)


def draw_over(table: TableScene, canvas: pygame.Surface) -> None:
    """The banner across the middle and the hint of the moment, over everything."""
    middle = table.tr
    if table.banner is not None:
        text, colour, left = table.banner
        Banner(text, colour).draw(canvas, pygame.Rect(middle.x - 40, middle.centery - 50,
                                                      middle.w + 80, 100),
                                  alpha=min(1.0, left * 3))
    if table.toast is not None:
        draw_toast(canvas, middle, table.toast)


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


def hover_key(table: TableScene) -> tuple[Any, ...]:
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


def noticed(table: TableScene, event: pygame.event.Event) -> None:
    """Input arrived: any but a bare pointer move changes what is drawn."""
    if event.type == pygame.MOUSEMOTION:
        table.pointer = event.pos
        if any(event.dict.get("buttons", ())):
            table.dirty = True  # a drag is drawn as it goes
    else:
        table.dirty = True


def opening(table: TableScene, seconds: float) -> None:
    """A new game a bot begins opens on the table, saying who goes first, a moment before
    the bot moves: nobody is asked to answer a move they never saw."""
    seats = range(len(table.seats))
    if table.state.log or not table.is_bot(table.deciding) or all(map(table.is_bot, seats)):
        return
    who = table.name(table.deciding)
    table.banner = (f"{who} goes first", theme.WOOD, seconds)
    table.log_line(f"{who} goes first.")
    table.wait = seconds
