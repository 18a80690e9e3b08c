"""A player's name plate: their colour, shape mark and score; whose turn it is, shown by a
glow, a ▶ marker and the words YOUR TURN, never by colour alone."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from dinotable.render import theme
from dinotable.render.widgets import Colour, soft_shadow


def draw_mark(
    surface: pygame.Surface,
    mark: str,
    center: tuple[float, float],
    radius: float,
    colour: Sequence[int],
    outline: Sequence[int] | None = None,
) -> None:
    """A player's shape (circle, square, triangle, diamond, star, hexagon)."""
    cx, cy = center
    points: list[tuple[float, float]]
    if mark == "square":
        r = radius * 0.85
        points = [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    elif mark == "triangle":
        points = [
            (
                cx + radius * math.cos(math.radians(-90 + 120 * k)),
                cy + radius * 1.1 * math.sin(math.radians(-90 + 120 * k)) + radius * 0.15,
            )
            for k in range(3)
        ]
    elif mark == "diamond":
        points = [
            (cx, cy - radius * 1.1),
            (cx + radius, cy),
            (cx, cy + radius * 1.1),
            (cx - radius, cy),
        ]
    elif mark == "star":
        points = [
            (
                cx
                + (radius if k % 2 == 0 else radius * 0.45) * math.cos(math.radians(-90 + 36 * k)),
                cy
                + (radius if k % 2 == 0 else radius * 0.45) * math.sin(math.radians(-90 + 36 * k))
                + radius * 0.08,
            )
            for k in range(10)
        ]
    elif mark == "hexagon":
        points = [
            (
                cx + radius * math.cos(math.radians(60 * k)),
                cy + radius * math.sin(math.radians(60 * k)),
            )
            for k in range(6)
        ]
    else:
        pygame.draw.circle(surface, colour, (cx, cy), radius)
        if outline is not None:
            pygame.draw.circle(surface, outline, (cx, cy), radius, 2)
        return
    pygame.draw.polygon(surface, colour, points)
    if outline is not None:
        pygame.draw.polygon(surface, outline, points, 2)


def turn_marker(
    surface: pygame.Surface,
    center: tuple[float, float],
    height: float,
    colour: Sequence[int] = theme.GOLD,
) -> None:
    """A ▶ arrow pointing at whoever plays now."""
    cx, cy = center
    h = height / 2
    points = [(cx - h * 0.7, cy - h), (cx + h * 0.9, cy), (cx - h * 0.7, cy + h)]
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, theme.INK, points, 3)


_glow_cache: dict[tuple[int, int, int], pygame.Surface] = {}


def _plate_glow(width: int, height: int, radius: int) -> pygame.Surface:
    key = (width, height, radius)
    glow = _glow_cache.get(key)
    if glow is None:
        glow = pygame.Surface((width + 48, height + 48), pygame.SRCALPHA)
        glow.fill((*theme.GOLD, 0))
        pygame.draw.rect(
            glow, (*theme.GOLD, 220), glow.get_rect().inflate(-28, -28), border_radius=radius + 10
        )
        glow = theme.finish(pygame.transform.gaussian_blur(glow, 8))
        _glow_cache[key] = glow
    return glow


def name_plate(
    surface: pygame.Surface,
    rect: pygame.Rect,
    name: str,
    colour: Sequence[int],
    active: bool,
    score: int | str | None = None,
    mark: str | None = None,
    dim: bool = False,
    status: str = "YOUR TURN",
    tail: str = "",
    extra: str = "",
) -> pygame.Rect:
    """A player's plate in their colour, with their score.

    The active plate glows, carries a ▶ marker and the words YOUR TURN, so whose turn
    it is never rests on colour alone. `mark` is the player's shape (see
    theme.PLAYER_COLOURS). `dim` is a player who is out: faded, with the name struck through.
    `status` replaces YOUR TURN (a bot's plate says it is thinking; the winner's, WINNER).
    `tail` always shows after the name (" (bot)"): a name too long for both is shortened.
    `extra` follows where the plate has room for it whole (" - out", which the struck-through
    name says too).
    """
    rgb: Colour = (int(colour[0]), int(colour[1]), int(colour[2]))
    if dim:
        rgb = theme.mix(rgb, theme.STONE_LIGHT, 0.65)
    ink = theme.ink_on(rgb)
    radius = min(14, rect.height // 3)
    if active:
        surface.blit(_plate_glow(rect.width, rect.height, radius), (rect.x - 24, rect.y - 24))
    else:
        soft_shadow(surface, rect, radius, (0, 4), 90, 5)
    pygame.draw.rect(surface, rgb, rect, border_radius=radius)
    pygame.draw.rect(
        surface, theme.GOLD if active else theme.INK, rect, 5 if active else 3, border_radius=radius
    )
    if active:
        pygame.draw.rect(surface, theme.INK, rect.inflate(4, 4), 2, border_radius=radius + 2)

    # The active plate stacks the name over its status: a long name beside a two-digit
    # score needs every pixel, so the marker, the gaps and the score are a little smaller.
    two_lines = active and rect.height >= 46 and bool(status)  # no status: the name alone
    squeeze = two_lines and rect.width < 320  # a plate in the players column
    gap = 6 if two_lines else 10
    left = rect.x + (8 if two_lines else 12)
    if active:
        marker = rect.height * (0.4 if two_lines else 0.5)
        turn_marker(surface, (left + marker * 0.44, rect.centery), marker)
        left += round(marker) + (9 if two_lines else 6)
    right = rect.right - (6 if two_lines else 10)
    if score is not None:
        words = str(score)
        size = theme.fit_size(
            words,
            rect.width // 3,
            min(theme.SIZE_BODY + 2 if squeeze else theme.SIZE_HEADING, rect.height - 14),
            bold=True,
            floor=theme.SIZE_SMALL,
        )
        w = max(rect.height - 14 - (10 if squeeze else 0),
                theme.font(size, bold=True).size(words)[0] + (12 if squeeze else 18))
        box = pygame.Rect(0, 0, w, rect.height - 14)
        box.midright = (right, rect.centery)
        pygame.draw.rect(surface, theme.PARCHMENT_LIGHT, box, border_radius=10)
        pygame.draw.rect(surface, theme.INK, box, 2, border_radius=10)
        theme.text(surface, words, box.center, size, theme.INK, bold=True, anchor="center")
        right = box.left - gap

    if mark:
        r = min(15, rect.height * 0.22)
        need = theme.font(theme.SIZE_TINY, bold=True).size(name + tail)[0]
        # A narrow plate gives its shape's room to the name and "(bot)": the colour and
        # the name say whose plate it is.
        if right - left - round(2 * r) - gap >= need:
            draw_mark(surface, mark, (left + r, rect.centery), r, ink)
            left += round(2 * r) + gap
    room = max(10, right - left)

    def whole(size: int) -> str:
        """The name and its tail at `size`, the name shortened where both do not fit."""
        font = theme.font(size, bold=True)
        if font.size(name + tail)[0] <= room:
            return name + tail
        return theme.ellipsize(name, font, room - font.size(tail)[0]) + tail

    if extra and theme.font(theme.SIZE_TINY, bold=True).size(name + tail + extra)[0] <= room:
        tail += extra
    name_size = theme.fit_size(name + tail, room, theme.SIZE_BUTTON, bold=True,
                               floor=theme.SIZE_TINY)
    shown = whole(name_size)
    if two_lines:
        # two lines, stacked by their ink: Andika's line box is tall (room for accents)
        turn_size = theme.SIZE_SMALL if rect.height >= 60 else theme.SIZE_TINY
        # The status stays clear of the score box (a two-digit score is wide).
        turn_size = theme.fit_size(status, room, turn_size, bold=True, floor=16)
        turn_img = theme.render_text(status, turn_size, ink, bold=True)
        turn_box = theme.ink_rect(turn_img)
        if turn_box.width > room:
            # A plate too narrow for its status (areas two abreast): the marker, the glow
            # and the header say whose turn it is; the status never runs under the score.
            turn_img = pygame.Surface((1, 1), pygame.SRCALPHA)
            turn_box = pygame.Rect(0, 0, 0, 0)
        gap = 3 if rect.height < 60 else 7
        name_size = min(name_size, theme.SIZE_BODY + 2)
        while True:
            shown = whole(name_size)
            name_img = theme.render_text(shown, name_size, ink, bold=True)
            name_box = theme.ink_rect(name_img)
            fits = name_box.height + gap + turn_box.height <= rect.height - 14  # clear of the ring
            if fits or name_size <= theme.SIZE_TINY:
                break
            name_size -= 1
        top = rect.centery - (name_box.height + gap + turn_box.height) // 2
        surface.blit(name_img, (left - name_box.x, top - name_box.y))
        surface.blit(turn_img, (left - turn_box.x, top + name_box.height + gap - turn_box.y))
        return rect

    drawn = theme.text(
        surface, shown, (left, rect.centery), name_size, ink, bold=True, anchor="midleft"
    )
    if dim:
        y = drawn.centery + 2
        pygame.draw.line(surface, ink, (drawn.left - 4, y), (drawn.right + 4, y), 3)
    if active:
        tab_words = status
        tw, th = theme.font(theme.SIZE_SMALL, bold=True).size(tab_words)
        tab = pygame.Rect(0, 0, tw + 20, th + 2)
        tab.midbottom = (rect.x + 16 + tab.width // 2, rect.top + 4)
        corners = {"border_top_left_radius": 8, "border_top_right_radius": 8}
        pygame.draw.rect(surface, theme.GOLD, tab, **corners)
        pygame.draw.rect(surface, theme.INK, tab, 2, **corners)
        theme.text(
            surface, tab_words, tab.center, theme.SIZE_SMALL, theme.INK, bold=True, anchor="center"
        )
    return rect


def forget() -> None:
    _glow_cache.clear()


pygame.register_quit(forget)
