"""Table furniture: wooden buttons with keycaps, banners, parchment panels, soft shadows and
tooltips (a player's name plate is in `plates`, the log in `game_log`).

Everything is big enough to read from across a kitchen table and says what it means in
words or shapes as well as colour: a focused button has a thick ring, a disabled button a
flat stone look and a tooltip saying why.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import pygame

from dinotable.render import theme

Colour = tuple[int, int, int]
Pos = tuple[int, int]

_shadow_cache: dict[tuple[int, int, int, int], pygame.Surface] = {}
_shadow_models: dict[tuple[int, int, int, int], pygame.Surface] = {}  # see _shadow


def soft_shadow(
    surface: pygame.Surface,
    rect: pygame.Rect,
    radius: int,
    offset: tuple[int, int] = (0, 6),
    alpha: int = 110,
    blur: int = 8,
) -> None:
    """A blurred dark rounded rect under `rect`, so panels sit on the table."""
    key = (rect.width, rect.height, radius, alpha * 100 + blur)
    shadow = _shadow_cache.get(key)
    if shadow is None:
        shadow = _shadow_cache[key] = theme.finish(_shadow(rect.size, radius, alpha, blur))
    surface.blit(shadow, (rect.x - 2 * blur + offset[0], rect.y - 2 * blur + offset[1]))


def _blurred(size: tuple[int, int], radius: int, alpha: int, blur: int) -> pygame.Surface:
    """The shadow of a `size` rounded rect, with a margin of 2 * blur all round."""
    # Blurred at half size and scaled up, by two box blurs rather than a gaussian one: the
    # same soft edge (alpha within 6 of 255) at a fraction of the cost, which the title's
    # first frame would otherwise wait on.
    w, h = size
    full = (w + 4 * blur, h + 4 * blur)
    half = pygame.Surface(((full[0] + 1) // 2, (full[1] + 1) // 2), pygame.SRCALPHA)
    half.fill((0, 0, 0, 0))
    pygame.draw.rect(half, (0, 0, 0, alpha), (blur, blur, (w + 1) // 2, (h + 1) // 2),
                     border_radius=radius // 2)
    for _ in range(2):
        half = pygame.transform.box_blur(half, max(1, blur // 2))
    return pygame.transform.smoothscale(half, full)


def _shadow(size: tuple[int, int], radius: int, alpha: int, blur: int) -> pygame.Surface:
    """A shadow of any size from one blurred small enough to be cheap: away from the
    corners a shadow's rows (and columns) are all alike, so the small one's middle row
    and column are stretched to the size wanted (a title's first frame shows a dozen)."""
    corner = 2 * (radius + blur + 3)  # wide enough that its middle is clear of both ends
    small = (min(size[0], corner), min(size[1], corner))
    if small == size:
        return _blurred(size, radius, alpha, blur)
    key = (*small, radius, alpha * 100 + blur)
    out = _shadow_models.get(key)
    if out is None:
        out = _shadow_models[key] = _blurred(small, radius, alpha, blur)
    if size[0] > small[0]:
        out = _stretch(out, size[0] + 4 * blur, 0)
    if size[1] > small[1]:
        out = _stretch(out, size[1] + 4 * blur, 1)
    return out


def _stretch(image: pygame.Surface, length: int, axis: int) -> pygame.Surface:
    """`image` made `length` long along `axis` (0: across, 1: down) by repeating its
    middle line."""
    w, h = image.get_size()
    mid = (w if axis == 0 else h) // 2
    tail = (w if axis == 0 else h) - mid - 1
    size = (length, h) if axis == 0 else (w, length)
    out = pygame.Surface(size, pygame.SRCALPHA)
    out.fill((0, 0, 0, 0))

    def part(start: int, count: int) -> pygame.Rect:
        return pygame.Rect(start, 0, count, h) if axis == 0 else pygame.Rect(0, start, w, count)

    def at(start: int) -> tuple[int, int]:
        return (start, 0) if axis == 0 else (0, start)

    # Copied, not blended: every pixel is black, MAX of clear and shadow is the shadow.
    copy = pygame.BLEND_RGBA_MAX
    out.blit(image, (0, 0), part(0, mid), copy)
    out.blit(image, at(length - tail), part(mid + 1, tail), copy)
    line = image.subsurface(part(mid, 1))
    middle = pygame.transform.scale(line, part(0, length - mid - tail).size)
    out.blit(middle, at(mid), None, copy)
    return out


def focus_ring(surface: pygame.Surface, rect: pygame.Rect, radius: int) -> None:
    """The keyboard focus ring: thick gold inside a dark edge, readable on felt and parchment."""
    pygame.draw.rect(surface, theme.INK, rect.inflate(22, 22), width=4, border_radius=radius + 11)
    pygame.draw.rect(surface, theme.GOLD, rect.inflate(16, 16), width=5, border_radius=radius + 8)


def keycap(
    surface: pygame.Surface,
    key: str,
    pos: Pos,
    height: int,
    enabled: bool = True,
    anchor: theme.Anchor = "midleft",
) -> pygame.Rect:
    """A little keyboard key with `key` printed on it ("R", "Space")."""
    size = max(theme.SIZE_SMALL, round(height * 0.62))
    words = theme.font(size, bold=True)
    width = max(height, words.size(key)[0] + 18)
    cap = pygame.Rect(0, 0, width, height)
    setattr(cap, anchor, pos)
    depth = max(3, height // 9)
    face = theme.PARCHMENT_LIGHT if enabled else theme.STONE_LIGHT
    side = theme.STONE_DARK if enabled else theme.STONE
    pygame.draw.rect(surface, side, cap, border_radius=8)
    top = cap.copy()
    top.height -= depth
    pygame.draw.rect(surface, face, top, border_radius=8)
    pygame.draw.rect(surface, theme.INK if enabled else theme.STONE_DARK, cap, 2, border_radius=8)
    theme.text(
        surface,
        key,
        top.center,
        size,
        theme.INK if enabled else theme.INK_SOFT,
        bold=True,
        anchor="center",
    )
    return cap


TIP_DELAY = 0.5  # seconds the pointer rests on a thing before its tooltip shows
TIP_SECONDS = 4.0  # how long a tooltip stays under a pointer left standing still


def clock() -> float:
    """Seconds, for tooltips' timing (a test may put another clock in its place)."""
    return time.monotonic()


class Dwell:
    """When a tooltip shows: once the pointer has rested a moment on its subject, and
    only for a few seconds after the pointer last moved, so a pointer left standing (after
    a click, while the bots play) never hides what lies under the tip for long."""

    def __init__(self, delay: float = TIP_DELAY, seconds: float = TIP_SECONDS) -> None:
        self.delay, self.seconds = delay, seconds
        self.subject: object = None
        self.pos: object = None
        self.since = 0.0  # when the pointer came to the subject (or last moved on it)

    def at(self, subject: object, pos: object) -> bool:
        """Whether the tip of `subject` (None: nothing) shows, the pointer being at `pos`."""
        now = clock()
        if subject != self.subject:
            self.subject, self.since = subject, now
        elif pos != self.pos and now - self.since >= self.delay:
            self.since = now - self.delay  # a pointer moving on the thing keeps its tip
        self.pos = pos
        return self.showing()

    def showing(self) -> bool:
        """Whether the tip shows now (without the pointer having moved)."""
        return self.subject is not None and (
            self.delay <= clock() - self.since <= self.seconds)


def draw_tooltip(
    surface: pygame.Surface,
    pos: Pos,
    text: str,
    place: Literal["above", "below"] = "above",
    max_width: int = 420,
) -> pygame.Rect:
    """A dark note with cream words at `pos`, kept inside the surface.

    `above` centres it over `pos` (over a button's top edge, or the mouse pointer), moving
    below when there is no room; `below` puts it under and right of a mouse pointer.
    """
    size = theme.SIZE_SMALL
    words = theme.font(size)
    lines = theme.wrap(text, words, max_width)
    line_h = words.get_linesize()
    width = max(words.size(line)[0] for line in lines) + 28
    box = pygame.Rect(0, 0, width, line_h * len(lines) + 20)
    if place == "above":
        box.midbottom = (pos[0], pos[1] - 10)
        if box.top < 0:
            box.midtop = (pos[0], pos[1] + 24)
    else:
        box.topleft = (pos[0] + 14, pos[1] + 22)
    box.clamp_ip(surface.get_rect())
    soft_shadow(surface, box, 10, (0, 4), 120, 5)
    pygame.draw.rect(surface, theme.INK, box, border_radius=10)
    pygame.draw.rect(surface, theme.GOLD, box, 2, border_radius=10)
    y = box.y + 10
    for line in lines:
        theme.text(surface, line, (box.x + 14, y), size, theme.INK_LIGHT)
        y += line_h
    return box


@dataclass
class Button:
    """A big wooden (or parchment) button with its keyboard key shown as a keycap.

    `hit` is pure geometry (so a disabled button can still show its tooltip);
    `clicked` also needs the button to be enabled.
    """

    rect: pygame.Rect
    label: str
    key: str | None = None
    enabled: bool = True
    tooltip: str = ""
    focused: bool = False
    hovered: bool = False
    pressed: bool = False
    style: Literal["wood", "parchment"] = "wood"

    def hit(self, pos: Sequence[float]) -> bool:
        return bool(self.rect.collidepoint(pos[0], pos[1]))

    def clicked(self, pos: Sequence[float]) -> bool:
        return self.enabled and self.hit(pos)

    def _colours(self, hot: bool) -> tuple[Colour, Colour, Colour]:
        """(face, side, text) colours for the current state."""
        if not self.enabled:
            return theme.STONE_LIGHT, theme.STONE, theme.INK_SOFT
        if self.style == "parchment":
            face = theme.PARCHMENT_LIGHT if hot else theme.PARCHMENT
            return face, theme.WOOD, theme.INK
        # hover lifts the wood only a little: cream text must keep 4.5:1 on it
        face = theme.mix(theme.WOOD, theme.WOOD_LIGHT, 0.3) if hot else theme.WOOD
        return face, theme.WOOD_DARK, theme.INK_LIGHT

    def draw(
        self, surface: pygame.Surface, mouse: Sequence[float] | None = None, tooltip: bool = True
    ) -> None:
        """Draw the button; with `tooltip`, also its tooltip when hovered or focused.

        Scenes that want tooltips above everything pass tooltip=False and call
        `draw_tooltip` last.
        """
        hovered = self.hovered or (mouse is not None and self.hit(mouse))
        hot = hovered and self.enabled
        face_colour, side_colour, ink = self._colours(hot)
        radius = min(16, self.rect.height // 3)
        depth = 0 if not self.enabled else (2 if self.pressed else 6)

        if self.enabled:
            soft_shadow(surface, self.rect, radius, (0, 5), 90, 5)
        if self.focused:
            focus_ring(surface, self.rect, radius)
        pygame.draw.rect(surface, side_colour, self.rect, border_radius=radius)
        face = self.rect.copy()
        face.height -= depth
        if self.pressed and self.enabled:
            face.y += 4  # pushed down onto its side: the top moves, the side shrinks
            face.height -= 4
        pygame.draw.rect(surface, face_colour, face, border_radius=radius)
        if self.enabled and self.style == "wood":
            self._grain(surface, face)
        if self.enabled:
            # a lighter lip along the top edge: light from above
            lip = pygame.Rect(face.x + radius, face.y + 3, face.width - 2 * radius, 3)
            pygame.draw.rect(surface, theme.lighter(face_colour, 0.25), lip, border_radius=2)
        outline = theme.INK if self.enabled else theme.STONE_DARK
        pygame.draw.rect(surface, outline, self.rect, 2, border_radius=radius)

        left = face.x + 14
        if self.key:
            cap_h = max(30, min(44, face.height - 18))
            cap = keycap(surface, self.key, (left, face.centery), cap_h, self.enabled)
            left = cap.right + 12
        room = face.right - 14 - left
        size = theme.fit_size(
            self.label, room, theme.SIZE_BUTTON, bold=True, floor=theme.SIZE_TINY
        )
        centre = (left + room // 2, face.centery)
        shadow = theme.WOOD_DARK if ink == theme.INK_LIGHT else None
        theme.text(
            surface, self.label, centre, size, ink, bold=True, anchor="center", shadow=shadow
        )

        if tooltip and self.tooltip and (hovered or self.focused):
            self.draw_tooltip(surface)

    def draw_tooltip(self, surface: pygame.Surface) -> pygame.Rect | None:
        """The tooltip over the button (say why it is disabled, or what it does)."""
        if not self.tooltip:
            return None
        if self.rect.top > 90:
            return draw_tooltip(surface, self.rect.midtop, self.tooltip)
        below = (self.rect.centerx, self.rect.bottom + 10)
        return draw_tooltip(surface, below, self.tooltip, place="below")

    @staticmethod
    def _grain(surface: pygame.Surface, face: pygame.Rect) -> None:
        clip = surface.get_clip()
        surface.set_clip(face.inflate(-6, -6).clip(clip) if clip else face.inflate(-6, -6))
        grain = theme.darker(theme.WOOD, 0.12)
        for i, frac in enumerate((0.3, 0.55, 0.8)):
            y = face.y + round(face.height * frac)
            points = [
                (x, y + round(2 * math.sin((x + 40 * i) / 23)))
                for x in range(face.x, face.right + 1, 8)
            ]
            if len(points) >= 2:
                pygame.draw.lines(surface, grain, False, points, 1)
        surface.set_clip(clip)


_banner_cache: dict[tuple[str, str, Colour, int, int], pygame.Surface] = {}
_BANNER_MARGIN = 18  # room round a banner image for its shadow


@dataclass
class Banner:
    """A big ribbon for news: "Three stomps!", "Ana wins!", "Sam's turn"."""

    text: str
    colour: Colour = theme.GOLD
    subtitle: str = ""

    def natural_size(self, surface: pygame.Surface) -> tuple[int, int]:
        """The ribbon's size at full banner type, kept inside the surface."""
        size = theme.fit_size(
            self.text, surface.get_width() - 260, theme.SIZE_BANNER, bold=True, floor=32
        )
        title = theme.render_text(self.text, size, theme.INK, bold=True).get_bounding_rect()
        height = title.height + 40
        if self.subtitle:
            height += (
                theme.render_text(self.subtitle, theme.SIZE_BODY, theme.INK, True)
                .get_bounding_rect()
                .height
                + 12
            )
        tail = min(90, round(height * 0.7))
        width = min(surface.get_width() - 40, title.width + 120 + round(1.5 * tail))
        return width, height + height // 5

    def draw(
        self,
        surface: pygame.Surface,
        where: tuple[int, int] | pygame.Rect | None = None,
        width: int | None = None,
        alpha: float = 1.0,
    ) -> pygame.Rect:
        """Draw centred at a point (default: the middle of `surface`) or filling a Rect.

        `alpha` (0..1) fades it in and out. Returns the rect the ribbon fills.
        """
        if isinstance(where, pygame.Rect):
            outer = where.copy()
        else:
            w, h = self.natural_size(surface)
            if width is not None:
                w = width
            outer = pygame.Rect(0, 0, w, h)
            outer.center = where if where is not None else surface.get_rect().center
        image = self._image(outer.width, outer.height)
        fade = round(255 * max(0.0, min(1.0, alpha)))
        if fade <= 0:
            return outer
        # 255, not None: None would also switch off the image's per-pixel alpha
        image.set_alpha(fade)
        surface.blit(image, (outer.x - _BANNER_MARGIN, outer.y - _BANNER_MARGIN))
        image.set_alpha(255)
        return outer

    def _image(self, w: int, h: int) -> pygame.Surface:
        key = (self.text, self.subtitle, self.colour, w, h)
        cached = _banner_cache.get(key)
        if cached is not None:
            return cached
        m = _BANNER_MARGIN
        image = pygame.Surface((w + 2 * m, h + 2 * m), pygame.SRCALPHA)
        image.fill((0, 0, 0, 0))
        drop = h // 6
        tail_w = min(90, round(h * 0.7))
        inset = round(tail_w * 0.75)
        band = pygame.Rect(m + inset, m, w - 2 * inset, h - drop)

        # swallow-tailed ends, tucked behind the band
        dark = theme.darker(self.colour, 0.3)
        darker = theme.darker(self.colour, 0.5)
        for side in (-1, 1):
            x0 = band.left if side < 0 else band.right
            inner = x0 - side * 30
            outer = x0 - side * inset
            top, bottom = band.top + drop, band.bottom + drop
            notch = min(26, inset // 2)
            tail = [
                (inner, top),
                (outer, top),
                (outer + side * notch, (top + bottom) // 2),
                (outer, bottom),
                (inner, bottom),
            ]
            pygame.draw.polygon(image, dark, tail)
            pygame.draw.polygon(image, theme.INK, tail, 3)
            fold = [
                (x0, band.bottom),
                (x0 - side * 30, band.bottom + drop),
                (x0 - side * 30, band.bottom),
            ]
            pygame.draw.polygon(image, darker, fold)
        soft_shadow(image, band, 6, (0, 6), 120, 6)
        pygame.draw.rect(image, self.colour, band, border_radius=6)
        pygame.draw.rect(
            image, theme.lighter(self.colour, 0.35), band.inflate(-12, -12), 2, border_radius=4
        )
        pygame.draw.rect(image, theme.INK, band, 3, border_radius=6)

        # words: sized to the band, centred by their ink, not by the font's tall line box
        ink = theme.ink_on(self.colour)
        shadow = theme.SHADOW if ink == theme.INK_LIGHT else None
        sub = None
        room_h = band.height - 18
        if self.subtitle:
            sub_size = theme.fit_size(
                self.subtitle, band.width - 40, theme.SIZE_BODY, bold=True, floor=theme.SIZE_TINY
            )
            sub = theme.render_text(self.subtitle, sub_size, ink, bold=True)
            room_h -= sub.get_bounding_rect().height + 8
        size = theme.fit_size(self.text, band.width - 40, theme.SIZE_BANNER, bold=True, floor=14)
        title = theme.render_text(self.text, size, ink, bold=True, shadow=shadow)
        while size > 14 and title.get_bounding_rect().height > room_h:
            size -= 2
            title = theme.render_text(self.text, size, ink, bold=True, shadow=shadow)
        t_box = title.get_bounding_rect()
        s_box = sub.get_bounding_rect() if sub is not None else pygame.Rect(0, 0, 0, -8)
        total = t_box.height + 8 + s_box.height
        y = band.centery - total // 2
        image.blit(title, (band.centerx - t_box.width // 2 - t_box.x, y - t_box.y))
        if sub is not None:
            sub_y = y + t_box.height + 8
            image.blit(sub, (band.centerx - s_box.width // 2 - s_box.x, sub_y - s_box.y))
        image = theme.finish(image)
        if len(_banner_cache) > 64:
            _banner_cache.clear()
        _banner_cache[key] = image
        return image


@dataclass
class Panel:
    """A parchment sheet in a wooden frame, with an optional title.

    `accent` recolours the frame (a place's tone; say it in the title too), `focused`
    adds the focus ring, `dim` greys the sheet for something that cannot be chosen.
    """

    rect: pygame.Rect
    title: str | None = None
    title_size: int = theme.SIZE_BUTTON
    accent: Colour | None = None
    focused: bool = False
    dim: bool = False

    BORDER = 6
    TITLE_TOP = 12  # from the sheet's top to the top of the title's letters

    def _title_image(self, colour: Colour) -> pygame.Surface | None:
        if not self.title:
            return None
        width = self.rect.width - 2 * self.BORDER - 40
        size = theme.fit_size(self.title, width, self.title_size, True, theme.SIZE_SMALL)
        return theme.render_text(self.title, size, colour, bold=True)

    def _title_bottom(self) -> int:
        """y of the line under the title (the sheet's top when there is no title)."""
        sheet_top = self.rect.y + self.BORDER
        image = self._title_image(theme.INK)
        if image is None:
            return sheet_top
        return sheet_top + self.TITLE_TOP + theme.ink_rect(image).height + 10

    @property
    def content_rect(self) -> pygame.Rect:
        """Where the panel's contents go: inside the frame, below the title."""
        inner = self.rect.inflate(-2 * (self.BORDER + 14), -2 * (self.BORDER + 12))
        if self.title:
            top = self._title_bottom() + 10
            inner.height -= top - inner.y
            inner.y = top
        return inner

    def draw(self, surface: pygame.Surface) -> pygame.Rect:
        """Draw the panel and return its content rect."""
        radius = min(18, self.rect.height // 4)
        frame = self.accent if self.accent is not None else theme.WOOD
        if self.dim:
            frame = theme.mix(frame, theme.STONE, 0.6)
        soft_shadow(surface, self.rect, radius, (0, 8), 110, 10)
        if self.focused:
            focus_ring(surface, self.rect, radius)
        pygame.draw.rect(surface, frame, self.rect, border_radius=radius)
        pygame.draw.rect(surface, theme.darker(frame, 0.35), self.rect, 3, border_radius=radius)
        sheet = self.rect.inflate(-2 * self.BORDER, -2 * self.BORDER)
        paper = theme.mix(theme.PARCHMENT, theme.STONE_LIGHT, 0.7) if self.dim else theme.PARCHMENT
        pygame.draw.rect(surface, paper, sheet, border_radius=max(2, radius - 4))
        pygame.draw.rect(
            surface,
            theme.darker(paper, 0.1),
            sheet.inflate(-10, -10),
            2,
            border_radius=max(2, radius - 8),
        )
        image = self._title_image(theme.INK_SOFT if self.dim else theme.INK)
        if image is not None:
            # placed by its letters, not the font's tall line box, so small panels keep room
            box = theme.ink_rect(image)
            top = sheet.y + self.TITLE_TOP
            surface.blit(image, (sheet.centerx - box.width // 2 - box.x, top - box.y))
            if self.rect.height >= 160:  # a rule under the title, where there is room for it
                y = self._title_bottom()
                pygame.draw.line(surface, frame, (sheet.x + 24, y), (sheet.right - 24, y), 3)
        return self.content_rect


def forget() -> None:
    for cache in (_shadow_cache, _shadow_models, _banner_cache):
        cache.clear()


pygame.register_quit(forget)
