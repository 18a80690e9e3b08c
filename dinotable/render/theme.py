"""The one look of the app: palette, player colours, the shipped font, and text helpers.

Sizes are in pixels for a 1280x720 window. Everything here is plain constants and
functions; scenes import what they need (`from dinotable.render import theme`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, NamedTuple

import pygame

from dinotable.paths import assets_dir

Colour = tuple[int, int, int]
Anchor = Literal[
    "topleft", "midtop", "topright",
    "midleft", "center", "midright",
    "bottomleft", "midbottom", "bottomright",
]  # fmt: skip

# --- Palette: a kitchen table with jungle-green felt, parchment cards, wood and stone. ---
FELT: Colour = (38, 92, 58)
FELT_DARK: Colour = (24, 64, 40)
FELT_LIGHT: Colour = (58, 118, 76)
PARCHMENT: Colour = (245, 230, 194)
PARCHMENT_DARK: Colour = (222, 200, 152)
PARCHMENT_LIGHT: Colour = (252, 245, 224)
WOOD: Colour = (132, 82, 44)
WOOD_DARK: Colour = (84, 50, 24)
WOOD_LIGHT: Colour = (176, 118, 66)
STONE: Colour = (152, 148, 138)
STONE_DARK: Colour = (104, 100, 92)
STONE_LIGHT: Colour = (200, 196, 186)
PARCHMENT_DIM: Colour = (214, 200, 166)  # quieter text on felt or night (>= 4.5:1 on FELT)
INK: Colour = (40, 28, 20)  # dark brown, for text on light things
INK_SOFT: Colour = (92, 72, 56)  # secondary text on parchment (still >= 4.5:1)
INK_LIGHT: Colour = (252, 246, 230)  # cream, for text on dark things
FELT_TEXT: Colour = (204, 228, 200)  # chalky hints written on the felt
GOLD: Colour = (255, 196, 36)  # highlights, focus rings, "your turn" glow
GOLD_LIGHT: Colour = (255, 222, 128)  # good news written on the felt
GOOD: Colour = (52, 146, 76)  # frames of good places ("Caught"); always with words
DANGER: Colour = (178, 42, 32)  # busts and warnings (always with words or a symbol)
DANGER_LIGHT: Colour = (255, 186, 168)  # warnings written on the felt
FOCUS: Colour = (200, 88, 0)  # one-colour focus outline on parchment (3:1); on felt use
#                              widgets.focus_ring, whose gold-and-ink ring reads everywhere
SLOT: Colour = (176, 150, 104)  # outline of an empty place for a die on parchment
NIGHT: Colour = (20, 30, 26)  # the hand-off screen: lights down, look away
SHADOW: Colour = (0, 0, 0)

# --- Type sizes (px at 1280x720). Body text must read from across a table. ---
SIZE_TINY = 20  # fine print only (round numbers, counts beside a picture); never less
SIZE_SMALL = 22  # keycaps, log lines, secondary labels
SIZE_BODY = 26
SIZE_BUTTON = 30
SIZE_HEADING = 40
SIZE_TITLE_SMALL = 48
SIZE_BANNER = 64
SIZE_TITLE = 64
SIZE_HUGE = 96

# short names for the same sizes
TINY, SMALL, BODY = SIZE_TINY, SIZE_SMALL, SIZE_BODY
TITLE_SMALL, TITLE, HUGE = SIZE_TITLE_SMALL, SIZE_TITLE, SIZE_HUGE

FONT_REGULAR = "Andika-Regular.ttf"
FONT_BOLD = "Andika-Bold.ttf"


class PlayerColour(NamedTuple):
    """A seat colour: its spoken name, its RGB, and a shape mark so colour is never alone.
    (A named tuple: a frozen dataclass costs the first frame over a millisecond to build.)"""

    name: str
    rgb: Colour
    mark: str  # circle, square, triangle, diamond, star, hexagon

    @property
    def ink(self) -> Colour:
        """Text colour that reads on this colour."""
        return ink_on(self.rgb)


# Chosen by simulating protanopia, deuteranopia and tritanopia (Machado 2009): every pair
# stays at least 25 CIELAB units apart in all three (tests pin it), and each takes dark ink
# or cream at 4.5:1 or better. Names and marks go with them everywhere.
PLAYER_COLOURS: tuple[PlayerColour, ...] = (
    PlayerColour("Red", (200, 40, 40), "circle"),
    PlayerColour("Blue", (30, 80, 170), "square"),
    PlayerColour("Yellow", (255, 194, 10), "triangle"),
    PlayerColour("Green", (0, 158, 115), "diamond"),
    PlayerColour("White", (250, 246, 236), "star"),
    PlayerColour("Black", (40, 40, 45), "hexagon"),
)

# Dice kinds by the colour names rulesets use. They differ in lightness as well as hue,
# so green / yellow / red stay apart for colour-blind players too.
DIE_COLOURS: dict[str, Colour] = {
    "green": (92, 184, 92),
    "yellow": (250, 212, 60),
    "red": (196, 40, 40),
    "white": (246, 242, 232),
    "black": (44, 42, 46),
    "blue": (40, 100, 200),
    "orange": (240, 140, 30),
    "purple": (130, 70, 170),
    "brown": (140, 92, 52),
    "grey": (150, 150, 146),
}


def player_colour(seat: int) -> PlayerColour:
    """The colour of a seat (0-based), wrapping round after six."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def die_colour(kind: str) -> Colour:
    """RGB for a die kind named by colour ('green'); unknown names get a stable stone-ish tint."""
    known = DIE_COLOURS.get(kind.lower())
    if known is not None:
        return known
    palette = list(DIE_COLOURS.values())
    return palette[sum(map(ord, kind)) % len(palette)]


# --- Colour arithmetic ---


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: Sequence[int]) -> float:
    """WCAG relative luminance of an sRGB colour."""
    r, g, b = (_linear(int(c)) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Sequence[int], b: Sequence[int]) -> float:
    """WCAG contrast ratio between two colours (1 to 21; text needs 4.5)."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def ink_on(background: Sequence[int]) -> Colour:
    """Dark ink or cream, whichever reads better on `background`."""
    return INK if contrast(INK, background) >= contrast(INK_LIGHT, background) else INK_LIGHT


def mix(a: Sequence[int], b: Sequence[int], t: float) -> Colour:
    """Blend from a (t=0) to b (t=1)."""
    t = max(0.0, min(1.0, t))
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def lighter(colour: Sequence[int], t: float = 0.3) -> Colour:
    return mix(colour, (255, 255, 255), t)


def darker(colour: Sequence[int], t: float = 0.3) -> Colour:
    return mix(colour, (0, 0, 0), t)


# --- Surfaces ---


def finish(surface: pygame.Surface) -> pygame.Surface:
    """`convert_alpha()` a generated or loaded surface when a display exists, for fast blits."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha()
    return surface


def load_image(relative: str) -> pygame.Surface:
    """An image from assets/ (e.g. 'images/table.png'), converted for the display."""
    return finish(pygame.image.load(str(assets_dir() / relative)))


# --- Fonts and text ---

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}


def font_path(bold: bool = False) -> Path:
    """Path of the shipped font file."""
    return assets_dir() / "fonts" / (FONT_BOLD if bold else FONT_REGULAR)


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The shipped Andika font at `size` px, cached. Never the default or a system font."""
    if not pygame.font.get_init():
        pygame.font.init()
        _fonts.clear()
    key = (size, bold)
    cached = _fonts.get(key)
    if cached is not None:
        # pygame runs a quit callback only at the first quit: after a later one (a second
        # App in one process), a cached font is dead and must be loaded again.
        try:
            cached.get_ascent()
        except pygame.error:
            _fonts.clear()
            cached = None
    if cached is None:
        cached = pygame.font.Font(font_path(bold), size)
        _fonts[key] = cached
    return cached


def forget_fonts() -> None:
    # Font objects die with pygame.quit(); a later font() call must load fresh ones.
    _fonts.clear()
    _texts.clear()
    _wraps.clear()
    _fits.clear()
    _inks.clear()


# Text drawn frame after frame is the same words: rendered, wrapped and sized once. The
# caches are emptied when full (a log scrolls through many lines, all short-lived).
_texts: dict[tuple[Any, ...], pygame.Surface] = {}
_wraps: dict[tuple[str, int, bool, int], list[str]] = {}
_fits: dict[tuple[str, int, int, bool, int], int] = {}
_inks: dict[int, tuple[pygame.Surface, pygame.Rect]] = {}
CACHE_LIMIT = 4096


def ink_rect(image: pygame.Surface) -> pygame.Rect:
    """The box of the inked pixels of a (cached, never drawn on) text image."""
    known = _inks.get(id(image))
    if known is None or known[0] is not image:
        if len(_inks) >= CACHE_LIMIT:
            _inks.clear()
        known = _inks[id(image)] = (image, image.get_bounding_rect())
    return known[1].copy()


pygame.register_quit(forget_fonts)


def render_text(
    string: str,
    size: int,
    colour: Sequence[int],
    bold: bool = False,
    shadow: Sequence[int] | None = None,
) -> pygame.Surface:
    """Antialiased text on a transparent surface, with an optional soft drop shadow.

    The surface is cached and shared: callers blit it and never draw on it."""
    key = (string, size, tuple(colour), bold, None if shadow is None else tuple(shadow))
    cached = _texts.get(key)
    if cached is None:
        if len(_texts) >= CACHE_LIMIT:
            _texts.clear()
        cached = _texts[key] = _render_text(string, size, colour, bold, shadow)
    return cached


def _render_text(
    string: str,
    size: int,
    colour: Sequence[int],
    bold: bool = False,
    shadow: Sequence[int] | None = None,
) -> pygame.Surface:
    # SDL_ttf stops at a NUL (pygame refuses it outright); no text we draw needs one.
    string = string.replace("\0", "")
    f = font(size, bold)
    face = f.render(string, True, colour)
    if shadow is None:
        return face
    offset = max(1, size // 16)
    out = pygame.Surface((face.get_width() + offset, face.get_height() + offset), pygame.SRCALPHA)
    back = f.render(string, True, shadow)
    back.set_alpha(150)
    out.blit(back, (offset, offset))
    out.blit(face, (0, 0))
    return out


class TextSeen(NamedTuple):
    """Every line of text drawn and every string cut short while it records (for the
    layout test: nothing may be drawn past its widget or the screen). A named tuple: a
    dataclass costs the first frame about half a millisecond to build."""

    drawn: list[tuple[str, pygame.Rect, pygame.Surface]]
    cut: list[tuple[str, str]]  # (the whole string, what was shown)
    rooms: list[int]  # the width each string in `cut` had to fit in, px


_seen: TextSeen | None = None


@contextmanager
def seeing_text() -> Iterator[TextSeen]:
    """Record the text drawn inside the `with`."""
    global _seen
    before, _seen = _seen, TextSeen([], [], [])
    inner = _seen
    try:
        yield inner
    finally:
        _seen = before
        if before is not None:  # an outer record sees what was drawn inside too
            before.drawn.extend(inner.drawn)
            before.cut.extend(inner.cut)
            before.rooms.extend(inner.rooms)


def text(
    surface: pygame.Surface,
    string: str,
    pos: tuple[int, int],
    size: int = SIZE_BODY,
    colour: Sequence[int] = INK,
    bold: bool = False,
    anchor: Anchor = "topleft",
    shadow: Sequence[int] | None = None,
    tight: bool = False,
) -> pygame.Rect:
    """Draw one line of text with `anchor` of its box at `pos`; returns the box drawn.

    Andika's line box is about 1.6x the size tall (room for accents above capitals).
    With `tight`, the anchor and the returned box are those of the inked letters instead,
    which is what stacking lines closely or centring in a small box needs.
    """
    image = render_text(string, size, colour, bold, shadow)
    if not tight:
        rect = image.get_rect()
        setattr(rect, anchor, pos)
        surface.blit(image, rect)
    else:
        ink = ink_rect(image)
        rect = ink.copy()
        setattr(rect, anchor, pos)
        surface.blit(image, (rect.x - ink.x, rect.y - ink.y))
    if _seen is not None:
        # The letters' own box: a line box's blank margins may lie outside a small widget.
        letters = rect.copy() if tight else ink_rect(image).move(rect.x, rect.y)
        _seen.drawn.append((string, letters, surface))
    return rect


def wrap(string: str, font: pygame.font.Font, width: int) -> list[str]:
    """Break text into lines no wider than `width` px, at spaces; keeps explicit newlines.

    A single word too long for the width is split between letters.
    """
    # Keyed by the font's size and weight when it is one of ours (a Font is not hashable
    # by its look, and the same words are wrapped every frame).
    known = next((k for k, f in _fonts.items() if f is font), None)
    if known is None:
        return _wrap(string, font, width)
    key = (string, known[0], known[1], width)
    cached = _wraps.get(key)
    if cached is None:
        if len(_wraps) >= CACHE_LIMIT:
            _wraps.clear()
        cached = _wraps[key] = _wrap(string, font, width)
    return list(cached)


def _wrap(string: str, font: pygame.font.Font, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in string.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if font.size(candidate)[0] <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = word
            while len(line) > 1:
                # Only a window of the word is measured: a glyph is at least a pixel wide.
                cut = _longest_fit(line[:width + 1], font, width)
                if cut >= len(line):
                    break
                lines.append(line[:max(1, cut)])
                line = line[max(1, cut):]
        lines.append(line)
    return lines


def _longest_fit(string: str, font: pygame.font.Font, width: int, tail: str = "") -> int:
    """The longest prefix length whose text (plus `tail`) fits in `width` px, found by
    halving: a few measurements, however long the string (it may come from a file)."""
    lo, hi = 0, len(string)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.size(string[:mid].rstrip() + tail)[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def ellipsize(string: str, font: pygame.font.Font, width: int) -> str:
    """`string`, cut short with an ellipsis if it is wider than `width` px."""
    # No glyph is narrower than a pixel here, so nothing past `width` characters can show;
    # cutting first keeps every measurement small.
    whole = string
    if len(string) > width + 1:
        string = string[:width + 1]
    elif font.size(string)[0] <= width:
        return string
    cut = max(1, _longest_fit(string, font, width, "…"))
    if _seen is not None:
        _seen.cut.append((whole, string[:cut].rstrip() + "…"))
        _seen.rooms.append(width)
    return string[:cut].rstrip() + "…"


def squeezed(string: str, width: int, size: int, bold: bool = False,
             floor: int = SIZE_TINY) -> tuple[str, int]:
    """`string` whole at the largest size from `size` down to `floor` that fits `width`,
    and that size; cut with an ellipsis only where it does not fit even at `floor`."""
    size = fit_size(string, width, size, bold, min(size, floor))
    return ellipsize(string, font(size, bold), width), size


def fit_size(string: str, max_width: int, size: int, bold: bool = False, floor: int = 12) -> int:
    """The largest size <= `size` at which `string` fits in `max_width` (not below `floor`)."""
    key = (string, max_width, size, bold, floor)
    cached = _fits.get(key)
    if cached is None:
        if len(_fits) >= CACHE_LIMIT:
            _fits.clear()
        cached = _fits[key] = _fit_size(string, max_width, size, bold, floor)
    return cached


def _fit_size(string: str, max_width: int, size: int, bold: bool, floor: int) -> int:
    while size > floor and font(size, bold).size(string)[0] > max_width:
        size -= 1
    return size


def in_words(chance: float) -> str:
    """A chance in words a child can weigh: ' (about 1 in 4)', ' (certain)', ' (no chance)'."""
    if chance >= 0.995:
        return " (certain)"
    if chance <= 0.005:
        return " (no chance)"
    if chance < 0.095:
        return " (less than 1 in 10)"
    if chance > 0.905:
        return " (more than 9 in 10)"
    # close, but with small numbers: "1 in 4" beats "2 in 7"
    fractions = [(k, n) for n in range(2, 11) for k in range(1, n)]
    k, n = min(fractions, key=lambda kn: abs(kn[0] / kn[1] - chance) + 0.01 * kn[1])
    return f" (about {k} in {n})"


# --- Table furniture drawn straight onto the window ---

_backgrounds: dict[tuple[int, int], pygame.Surface] = {}
_felt_drawn: set[tuple[int, int]] = set()  # sizes drawn once without keeping the felt
LAMP = (32, 18)  # the lamp's shade is worked out this small, then smoothscaled up
WEAVE = 6  # px between the felt's threads, which run diagonally


def draw_table_background(surface: pygame.Surface) -> None:
    """Fill with the felt: a faint weave and darker edges, like a lamp over the table."""
    size = surface.get_size()
    cached = _backgrounds.get(size)
    if cached is None and size not in _felt_drawn and _plain(surface):
        # The first time, straight onto the surface: the title's first frame waits on no
        # window-sized copy. Drawn again, the felt is kept to be blitted.
        _felt_drawn.add(size)
        _felt(surface)
        return
    if cached is None:
        cached = _backgrounds[size] = _felt(_blank(size))
    surface.blit(cached, (0, 0))


def _plain(surface: pygame.Surface) -> bool:
    """Whether the felt can be smoothscaled straight into `surface`: 32 bits, no alpha,
    nothing clipped (smoothscale would write past a clip)."""
    return (surface.get_bitsize() == 32 and not surface.get_masks()[3]
            and surface.get_clip() == surface.get_rect() and surface.get_parent() is None)


def _blank(size: tuple[int, int]) -> pygame.Surface:
    """A surface for the felt: the display's own format if plain, so no converted copy."""
    display = pygame.display.get_surface() if pygame.display.get_init() else None
    if display is not None and _plain(display):
        return pygame.Surface(size, 0, display)
    return pygame.Surface(size, 0, 32)


def _felt(out: pygame.Surface) -> pygame.Surface:
    """The felt drawn over all of `out` (32 bits, no alpha), which is returned, converted
    for the display if it is not in its format. No window-sized see-through layers: the
    shaded felt is smoothscaled straight into place and the weave laid on in strips."""
    w, h = size = out.get_size()
    # The shade: felt darkened towards the edges, by up to 110/255 in the corners.
    lamp = pygame.Surface(LAMP, 0, out)
    cx, cy = (LAMP[0] - 1) / 2, (LAMP[1] - 1) / 2
    for x in range(LAMP[0]):
        for y in range(LAMP[1]):
            d = ((x - cx) / (LAMP[0] / 2)) ** 2 + ((y - cy) / (LAMP[1] / 2)) ** 2
            lamp.set_at((x, y), mix(FELT, (0, 0, 0), min(110, int(70 * d)) / 255))
    pygame.transform.smoothscale(lamp, size, out)
    # The weave: faint threads along x - y = k (mod WEAVE), the same in every band of
    # WEAVE rows, so one band is drawn and laid down the whole height.
    band = pygame.Surface((w, WEAVE), pygame.SRCALPHA)
    band.fill((0, 0, 0, 0))
    for k in range((-h) % WEAVE - WEAVE, w, WEAVE):
        pygame.draw.line(band, (*FELT_LIGHT, 18), (k, 0), (k + WEAVE - 1, WEAVE - 1))
    out.blits([(band, (0, y)) for y in range(0, h, WEAVE)], doreturn=False)
    display = pygame.display.get_surface() if pygame.display.get_init() else None
    if display is not None and out.get_masks() != display.get_masks():
        return _opaque(out)
    return out


def _opaque(surface: pygame.Surface) -> pygame.Surface:
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert()
    return surface


def draw_tray(surface: pygame.Surface, rect: pygame.Rect) -> pygame.Rect:
    """The dice tray: a wooden frame round darker felt. Returns the felt inside."""
    radius = 24
    pygame.draw.rect(surface, WOOD_DARK, rect.move(0, 5), border_radius=radius)
    pygame.draw.rect(surface, WOOD, rect, border_radius=radius)
    pygame.draw.rect(surface, WOOD_LIGHT, rect.inflate(-6, -6), 2, border_radius=radius - 3)
    felt = rect.inflate(-28, -28)
    pygame.draw.rect(surface, FELT_DARK, felt, border_radius=radius - 10)
    # inner shadow along the top and left edges: the felt sits below the frame
    for k in range(6):
        shade = mix(FELT_DARK, SHADOW, 0.35 - k * 0.055)
        edge = felt.inflate(-2 * k, -2 * k)
        pygame.draw.rect(surface, shade, edge, 1, border_radius=max(2, radius - 10 - k))
    pygame.draw.rect(surface, WOOD_DARK, felt, 2, border_radius=radius - 10)
    return felt


def draw_cup(surface: pygame.Surface, center: tuple[int, int], radius: int) -> pygame.Rect:
    """A leather dice cup standing on the table, `radius` half its height."""
    cx, cy = center
    top_w, bottom_w, h = radius * 1.7, radius * 1.35, radius * 2
    top, bottom = cy - h / 2, cy + h / 2
    body = [
        (cx - top_w / 2, top),
        (cx + top_w / 2, top),
        (cx + bottom_w / 2, bottom),
        (cx - bottom_w / 2, bottom),
    ]
    leather, dark = (150, 72, 40), (96, 42, 22)
    pygame.draw.ellipse(
        surface, darker(FELT, 0.4), (cx - bottom_w / 2 - 4, bottom - 8, bottom_w + 8, 16)
    )
    pygame.draw.polygon(surface, leather, body)
    # a band of stitching near the top and bottom
    for y in (top + h * 0.22, bottom - h * 0.18):
        t = (y - top) / h
        half = (top_w + (bottom_w - top_w) * t) / 2
        pygame.draw.line(surface, dark, (cx - half + 2, y), (cx + half - 2, y), 3)
        for x in range(int(cx - half + 8), int(cx + half - 6), 9):
            pygame.draw.line(surface, PARCHMENT_DARK, (x, y - 4), (x + 3, y - 4), 2)
    pygame.draw.polygon(surface, INK, body, 2)
    mouth = pygame.Rect(0, 0, round(top_w), round(radius * 0.5))
    mouth.center = (cx, round(top))
    pygame.draw.ellipse(surface, leather, mouth)
    pygame.draw.ellipse(surface, (40, 20, 12), mouth.inflate(-8, -6))
    pygame.draw.ellipse(surface, INK, mouth, 2)
    return pygame.Rect(round(cx - top_w / 2), round(top - radius * 0.25), round(top_w), round(h))


def forget_backgrounds() -> None:
    _backgrounds.clear()
    _felt_drawn.clear()


pygame.register_quit(forget_backgrounds)
