"""Dice seen from above: a rounded, bevelled square with a soft shadow and a bold symbol.

Surfaces are built once per (colour, face, size) and cached; drawing a tumbling die
only rotates the cached body and its shadow. The light comes from the top left, so the
shadow always falls down-right whatever the die's angle.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from dinotable.render import symbols, theme

Colour = tuple[int, int, int]

_SUPERSAMPLE = 3


def _rgb(colour: Sequence[int]) -> Colour:
    return (int(colour[0]), int(colour[1]), int(colour[2]))


def face_ink(kind_colour: Sequence[int]) -> Colour:
    """Symbol colour for a die: dark ink on light dice, cream on dark; always >= 4.5:1."""
    ink = theme.ink_on(kind_colour)
    if theme.contrast(ink, kind_colour) >= 4.5:
        return ink
    # mid-tones where neither house ink reaches 4.5: pure black or white always does
    black, white = (0, 0, 0), (255, 255, 255)
    return (
        black if theme.contrast(black, kind_colour) >= theme.contrast(white, kind_colour) else white
    )


def padding(size: int) -> int:
    """Room around a die in `die_surface` for its shadow."""
    return max(4, round(size * 0.16))


def _shadow_offset(size: int) -> tuple[int, int]:
    return (max(1, round(size * 0.05)), max(2, round(size * 0.08)))


_bodies: dict[tuple[Colour, str | None, int], pygame.Surface] = {}
_shadows: dict[int, pygame.Surface] = {}
_composites: dict[tuple[Colour, str | None, int], pygame.Surface] = {}
_glows: dict[tuple[int, Colour], pygame.Surface] = {}


def die_body(kind_colour: Sequence[int], face: str | None, size: int) -> pygame.Surface:
    """The die alone (no shadow), `size` x `size` px, cached."""
    colour = _rgb(kind_colour)
    key = (colour, face, size)
    cached = _bodies.get(key)
    if cached is not None:
        return cached

    ss = _SUPERSAMPLE
    big = pygame.Surface((size * ss, size * ss), pygame.SRCALPHA)
    edge = theme.darker(colour, 0.45)
    big.fill((*edge, 0))
    full = big.get_rect()
    radius = round(size * ss * 0.2)
    bevel = max(2, round(size * ss * 0.075))
    # the sides: dark all round, light where the light hits (top and left)
    pygame.draw.rect(big, (*edge, 255), full, border_radius=radius)
    light = full.inflate(-bevel // 2, -bevel // 2)
    light.topleft = full.topleft
    pygame.draw.rect(big, (*theme.lighter(colour, 0.45), 255), light, border_radius=radius)
    mid = full.inflate(-bevel, -bevel)
    pygame.draw.rect(
        big, (*theme.darker(colour, 0.12), 255), mid, border_radius=radius - bevel // 2
    )
    top = full.inflate(-2 * bevel, -2 * bevel).move(-bevel // 4, -bevel // 4)
    pygame.draw.rect(big, (*colour, 255), top, border_radius=radius - bevel)
    body = pygame.transform.smoothscale(big, (size, size))

    ink = face_ink(colour)
    inner = pygame.Rect(0, 0, round(size * 0.72), round(size * 0.72))
    inner.center = (round(top.centerx / ss), round(top.centery / ss))
    if face is None:
        # still in the cup: no face to show, only a faint engraved question mark
        mark = theme.mix(colour, ink, 0.28)
        glyph = theme.font(max(8, round(size * 0.5)), bold=True).render("?", True, mark)
        body.blit(glyph, glyph.get_rect(center=inner.center))
    else:
        symbols.draw_symbol(body, face, inner, ink)
    body = theme.finish(body)
    _bodies[key] = body
    return body


def die_shadow(size: int) -> pygame.Surface:
    """A soft shadow the shape of a die, on a surface `padding` larger each side."""
    cached = _shadows.get(size)
    if cached is not None:
        return cached
    pad = padding(size)
    side = size + 2 * pad
    shadow = pygame.Surface((side, side), pygame.SRCALPHA)
    shadow.fill((0, 0, 0, 0))
    pygame.draw.rect(
        shadow, (0, 0, 0, 120), (pad, pad, size, size), border_radius=round(size * 0.2)
    )
    shadow = pygame.transform.gaussian_blur(shadow, max(1, round(size * 0.06)))
    shadow = theme.finish(shadow)
    _shadows[size] = shadow
    return shadow


def die_surface(kind_colour: Sequence[int], face: str | None, size: int) -> pygame.Surface:
    """A die with its shadow, unrotated; the die is centred on a square of side size + 2*padding.

    `face=None` is a die still in the cup or bag: the die with only a faint mark.
    """
    colour = _rgb(kind_colour)
    key = (colour, face, size)
    cached = _composites.get(key)
    if cached is not None:
        return cached
    pad = padding(size)
    out = pygame.Surface((size + 2 * pad, size + 2 * pad), pygame.SRCALPHA)
    out.fill((0, 0, 0, 0))
    out.blit(die_shadow(size), _shadow_offset(size))
    out.blit(die_body(colour, face, size), (pad, pad))
    out = theme.finish(out)
    _composites[key] = out
    return out


def glow_ring(size: int, colour: Sequence[int] = theme.GOLD) -> pygame.Surface:
    """A glowing ring that fits round a die of `size` at any angle ("pick me")."""
    rgb = _rgb(colour)
    key = (size, rgb)
    cached = _glows.get(key)
    if cached is not None:
        return cached
    radius = round(size * 0.78)
    width = max(3, round(size * 0.07))
    side = 2 * (radius + width * 3)
    ss = _SUPERSAMPLE
    big = pygame.Surface((side * ss, side * ss), pygame.SRCALPHA)
    big.fill((*rgb, 0))
    c = (side * ss // 2, side * ss // 2)
    halo = pygame.Surface(big.get_size(), pygame.SRCALPHA)
    halo.fill((*rgb, 0))
    pygame.draw.circle(halo, (*rgb, 150), c, (radius + width * 2) * ss, width * 3 * ss)
    halo = pygame.transform.gaussian_blur(halo, width * ss)
    big.blit(halo, (0, 0))
    # a dark edge keeps the ring visible on yellow dice and light felt alike
    pygame.draw.circle(big, (*theme.INK, 255), c, (radius + width // 2 + 1) * ss, (width + 2) * ss)
    pygame.draw.circle(big, (*rgb, 255), c, (radius + width // 2) * ss, width * ss)
    ring = theme.finish(pygame.transform.smoothscale(big, (side, side)))
    _glows[key] = ring
    return ring


def draw_die(
    surface: pygame.Surface,
    center: tuple[float, float],
    size: int,
    angle_degrees: float,
    kind_colour: Sequence[int],
    face: str | None,
    highlight: bool = False,
    smooth: bool = True,
) -> pygame.Rect:
    """Draw a die centred at `center`, turned by `angle_degrees` (counter-clockwise).

    `highlight` adds a glowing ring: this die can be clicked. The cached die is rotated
    each call; `smooth` uses rotozoom (antialiased, ~0.1 ms at 96 px) instead of plain
    rotate, whose stair-stepped edges show on a tumbling die. Returns the die's bounding box.
    """
    cx, cy = round(center[0]), round(center[1])
    angle = angle_degrees % 360
    body = die_body(kind_colour, face, size)
    shadow = die_shadow(size)
    if angle:
        if smooth:
            body = pygame.transform.rotozoom(body, angle, 1.0)
        else:
            body = pygame.transform.rotate(body, angle)
        shadow = pygame.transform.rotate(shadow, angle)  # blurred anyway
    dx, dy = _shadow_offset(size)
    surface.blit(shadow, shadow.get_rect(center=(cx + dx, cy + dy)))
    if highlight:
        ring = glow_ring(size)
        surface.blit(ring, ring.get_rect(center=(cx, cy)))
    rect = body.get_rect(center=(cx, cy))
    surface.blit(body, rect)
    return rect


def draw_die_with_label(
    surface: pygame.Surface,
    center: tuple[float, float],
    size: int,
    kind_colour: Sequence[int],
    face: str | None,
    label: str | None = None,
    colour: Sequence[int] = theme.INK_LIGHT,
    text_size: int = theme.SIZE_BODY,
) -> pygame.Rect:
    """A die with its face's name underneath, for legends ("Dino", "Footprint")."""
    die_rect = draw_die(surface, center, size, 0, kind_colour, face)
    words = label if label is not None else symbols.face_label(face)
    shadow = theme.SHADOW if theme.luminance(colour) > 0.5 else None
    text_rect = theme.text(
        surface,
        words,
        (round(center[0]), die_rect.bottom + max(4, size // 10)),
        text_size,
        colour,
        bold=True,
        anchor="midtop",
        shadow=shadow,
    )
    return die_rect.union(text_rect)


def name_faces(labels: dict[str, str]) -> None:
    """Faces drawn in words use these names (a ruleset's layout labels) from now on."""
    if labels != symbols.FACE_WORDS:
        symbols.FACE_WORDS.clear()
        symbols.FACE_WORDS.update(labels)
        symbols.forget()
        forget()


def forget() -> None:
    for cache in (_bodies, _shadows, _composites, _glows):
        cache.clear()


pygame.register_quit(forget)
