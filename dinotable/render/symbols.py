"""Bold face symbols drawn in code: dinosaurs, footprints, leaves, bones, eggs and more.

Each symbol is one solid silhouette in one colour, designed on a 100x100 grid, drawn
four times too big and smoothscaled down so the edges are antialiased. Holes (eyes,
speckles, veins) are cut out, so the symbol reads on any die colour. The shape carries
the meaning; the colour is only the ink.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import pygame

from dinotable.render import theme

Point = tuple[float, float]
Colour = tuple[int, int, int]

_SUPERSAMPLE = 4


class Pen:
    """Draws on a supersampled surface in 100x100 design units; `cut` erases instead."""

    def __init__(self, surface: pygame.Surface, colour: Colour) -> None:
        self.surface = surface
        self.scale = surface.get_width() / 100
        self.ink = (*colour, 255)
        self.clear = (*colour, 0)
        self.cut = False

    @property
    def paint(self) -> tuple[int, int, int, int]:
        return self.clear if self.cut else self.ink

    def _px(self, p: Point) -> tuple[float, float]:
        return (p[0] * self.scale, p[1] * self.scale)

    def poly(self, points: Sequence[Point]) -> None:
        if len(points) >= 3:
            pygame.draw.polygon(self.surface, self.paint, [self._px(p) for p in points])

    def circle(self, centre: Point, radius: float) -> None:
        pygame.draw.circle(self.surface, self.paint, self._px(centre), radius * self.scale)

    def ring(self, centre: Point, radius: float, width: float) -> None:
        pygame.draw.circle(
            self.surface,
            self.paint,
            self._px(centre),
            radius * self.scale,
            max(1, round(width * self.scale)),
        )

    def ellipse(self, centre: Point, rx: float, ry: float, angle: float = 0.0) -> None:
        self.poly(ellipse_points(centre, rx, ry, angle))

    def capsule(self, a: Point, b: Point, width: float) -> None:
        """A thick line with round ends."""
        self.stroke([a, b], width, width)

    def stroke(self, path: Sequence[Point], w0: float, w1: float, round_start: bool = True) -> None:
        """A band along `path` whose width goes from w0 to w1 (0 makes a point)."""
        self.poly(band(path, w0, w1))
        if round_start and w0 > 0:
            self.circle(path[0], w0 / 2)
        if w1 > 0:
            self.circle(path[-1], w1 / 2)

    def polyline(self, path: Sequence[Point], width: float) -> None:
        for a, b in itertools.pairwise(path):
            self.capsule(a, b, width)


# --- Geometry in design units ---


def ellipse_points(
    centre: Point, rx: float, ry: float, angle: float = 0.0, n: int = 48
) -> list[Point]:
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x, y = rx * math.cos(t), ry * math.sin(t)
        out.append((centre[0] + x * ca - y * sa, centre[1] + x * sa + y * ca))
    return out


def bezier(p0: Point, p1: Point, p2: Point, p3: Point, n: int = 24) -> list[Point]:
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append(
            (
                u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
            )
        )
    return out


def band(path: Sequence[Point], w0: float, w1: float) -> list[Point]:
    """Outline of a stroke along `path` tapering from width w0 to w1."""
    n = len(path)
    left: list[Point] = []
    right: list[Point] = []
    for i, (x, y) in enumerate(path):
        a = path[max(i - 1, 0)]
        b = path[min(i + 1, n - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        half = (w0 + (w1 - w0) * i / max(n - 1, 1)) / 2
        left.append((x + nx * half, y + ny * half))
        right.append((x - nx * half, y - ny * half))
    return left + right[::-1]


def rotate(points: Sequence[Point], angle: float, about: Point = (50, 50)) -> list[Point]:
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    cx, cy = about
    return [
        (cx + (x - cx) * ca - (y - cy) * sa, cy + (x - cx) * sa + (y - cy) * ca) for x, y in points
    ]


def rounded_rect_points(
    centre: Point, w: float, h: float, r: float, angle: float = 0.0
) -> list[Point]:
    cx, cy = centre
    pts: list[Point] = []
    corners = [
        (cx + w / 2 - r, cy - h / 2 + r, -90),
        (cx + w / 2 - r, cy + h / 2 - r, 0),
        (cx - w / 2 + r, cy + h / 2 - r, 90),
        (cx - w / 2 + r, cy - h / 2 + r, 180),
    ]
    for x, y, start in corners:
        for k in range(7):
            t = math.radians(start + 15 * k)
            pts.append((x + r * math.cos(t), y + r * math.sin(t)))
    return rotate(pts, angle, centre)


def leaf_points(base: Point, tip: Point, width: float, n: int = 20) -> list[Point]:
    """A pointed leaf from base to tip, fullest a little below the middle."""
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    left, right = [], []
    for i in range(n + 1):
        s = i / n
        half = width / 2 * math.sin(math.pi * s**0.8) ** 0.9
        x, y = base[0] + dx * s, base[1] + dy * s
        left.append((x + nx * half, y + ny * half))
        right.append((x - nx * half, y - ny * half))
    return left + right[::-1]


def polar(centre: Point, radius: float, degrees: float) -> Point:
    t = math.radians(degrees)
    return (centre[0] + radius * math.cos(t), centre[1] + radius * math.sin(t))


# --- The symbols (facing right, ground at the bottom) ---


def _dino(p: Pen) -> None:
    """A long-necked sauropod (Apatosaurus) side view."""
    p.stroke(bezier((28, 52), (14, 52), (8, 58), (1, 68)), 20, 2)  # tail
    p.ellipse((44, 56), 25, 17)  # body
    p.stroke(bezier((56, 54), (70, 46), (70, 26), (78, 16)), 18, 10)  # neck
    p.ellipse((84, 15), 10, 6.5, 12)  # head
    for x, top in ((26, 60), (36, 62), (52, 62), (62, 60)):
        p.poly(rounded_rect_points((x, (top + 92) / 2), 9, 92 - top, 3))
    p.cut = True
    p.circle((86, 12.5), 2.4)  # eye
    # separate the near legs from the far ones
    p.capsule((31, 76), (31, 96), 2.4)
    p.capsule((57, 76), (57, 96), 2.4)


def _dinosaur(p: Pen) -> None:
    """A Tyrannosaurus side view: big head, tiny arms, tail held out."""
    p.stroke(bezier((38, 48), (22, 48), (10, 52), (0, 60)), 22, 2)  # tail
    p.ellipse((45, 48), 20, 15, -22)  # body
    p.capsule((56, 42), (66, 30), 16)  # neck
    p.ellipse((78, 22), 18, 10, 6)  # skull
    p.ellipse((76, 32), 15, 5.5, 4)  # lower jaw
    p.capsule((60, 50), (67, 58), 5)  # arm
    p.capsule((67, 58), (72, 56), 4)
    # far leg then near leg: thigh, shin, foot
    p.capsule((36, 56), (33, 84), 8)
    p.capsule((31, 87), (42, 87), 6)
    p.ellipse((46, 58), 11, 14, 18)
    p.capsule((47, 64), (45, 86), 10)
    p.capsule((43, 88), (58, 88), 7)
    p.cut = True
    p.circle((80, 17), 2.6)  # eye
    p.poly([(100, 25), (100, 29.5), (66, 28.5)])  # mouth
    p.capsule((40, 61), (38, 84), 2.2)  # gap between the legs


def _footprint(p: Pen) -> None:
    """A three-toed dinosaur track: a round heel and three fat toes with claws."""
    heel = (50.0, 70.0)
    for angle, length in ((-90.0, 66.0), (-138.0, 60.0), (-42.0, 60.0)):
        knuckle = polar(heel, length - 13, angle)
        p.stroke([polar(heel, 4, angle), knuckle], 28, 16)
        p.poly(
            [
                polar(knuckle, 8, angle + 90),
                polar(heel, length + 4, angle),
                polar(knuckle, 8, angle - 90),
            ]
        )
    p.ellipse((50, 74), 22, 20)


def _leaves(p: Pen) -> None:
    """A bush of three leaves on one stem: something hides in there."""
    root = (50.0, 92.0)
    fan = ((-50.0, 62.0, 30.0), (50.0, 62.0, 30.0), (0.0, 78.0, 34.0))
    for angle, length, width in fan:
        tip = polar(root, length, -90 + angle)
        p.cut = True
        p.poly(leaf_points(polar(root, 12, -90 + angle), tip, width + 8))
        p.cut = False
        p.capsule(root, polar(root, 16, -90 + angle), 6)
        p.poly(leaf_points(polar(root, 14, -90 + angle), tip, width))
    p.cut = True
    for angle, length, _ in fan:
        p.capsule(polar(root, 22, -90 + angle), polar(root, length * 0.8, -90 + angle), 3)


def _leaf(p: Pen) -> None:
    """One big leaf with its veins, on a short stalk."""
    base, tip = (22, 82), (84, 14)
    p.capsule((10, 94), base, 6)
    p.poly(leaf_points(base, tip, 52))
    p.cut = True
    p.capsule((27, 77), (76, 23), 3.2)
    for s in (0.25, 0.45, 0.65):
        x, y = 22 + 62 * s, 82 - 68 * s
        p.capsule((x, y), (x + 15, y + 5), 2.6)
        p.capsule((x, y), (x - 5, y - 15), 2.6)


def _bone(p: Pen) -> None:
    """A cartoon bone, knobs at both ends."""
    pts = rounded_rect_points((50, 50), 60, 18, 4)
    p.poly(rotate(pts, -35))
    for x in (20, 80):
        for y in (40, 60):
            c = rotate([(x, y)], -35)[0]
            p.circle(c, 11)


def _half_bone(p: Pen) -> None:
    """Half a bone: knobs at one end, a jagged break at the other."""
    shaft = [
        (24, 41),
        (62, 41),
        (68, 35),
        (72, 46),
        (80, 42),
        (76, 53),
        (84, 58),
        (70, 59),
        (24, 59),
    ]
    p.poly(rotate(shaft, 30))
    for y in (40, 60):
        p.circle(rotate([(22, y)], 30)[0], 12)


def _egg(p: Pen) -> None:
    """A speckled egg."""
    pts = []
    for i in range(64):
        t = 2 * math.pi * i / 64
        y = math.sin(t)
        # narrower at the top (y < 0) than at the bottom
        x = math.cos(t) * (1 + 0.16 * y)
        pts.append((50 + 31 * x, 54 + 40 * y))
    p.poly(pts)
    p.cut = True
    for c, r in (
        ((40, 38), 5.5),
        ((59, 30), 4),
        ((63, 56), 6),
        ((41, 66), 4.5),
        ((56, 77), 3.5),
        ((33, 52), 3),
        ((52, 48), 3),
    ):
        p.circle(c, r)


def _blank(p: Pen) -> None:
    """An empty ring: nothing on this face."""
    p.ring((50, 50), 24, 7)


def _food(p: Pen) -> None:
    """A bowl heaped with round fruit."""
    for c, r in (((31, 46), 14), ((69, 46), 14), ((50, 36), 16)):
        p.cut = True
        p.circle(c, r + 3.5)
        p.cut = False
        p.circle(c, r)
    p.poly(leaf_points((52, 21), (68, 8), 10))
    p.cut = True
    p.poly([(4, 52), (96, 52), (96, 60), (4, 60)])
    p.cut = False
    bowl: list[Point] = [(8, 58), (92, 58)]
    bowl += [
        (50 + 42 * math.cos(math.radians(a)), 60 + 28 * math.sin(math.radians(a)))
        for a in range(0, 181, 10)
    ]
    p.poly(bowl)
    p.poly(rounded_rect_points((50, 90), 30, 8, 3))
    p.cut = True
    p.circle((45, 30), 4)  # a shine on the top fruit


def _water(p: Pen) -> None:
    """A water drop."""
    centre, r, tip = (50.0, 64.0), 28.0, (50.0, 4.0)
    phi = math.degrees(math.acos(r / (centre[1] - tip[1])))  # tangent points seen from C
    pts: list[Point] = [tip]
    pts += [polar(centre, r, -90 + phi + k * (360 - 2 * phi) / 32) for k in range(33)]
    p.poly(pts)
    p.cut = True
    p.stroke(bezier((34, 58), (31, 68), (34, 76), (42, 82)), 5, 4)


def _fire(p: Pen) -> None:
    """A flame with a second flame inside."""
    p.circle((50, 70), 25)
    p.stroke(bezier((30, 72), (24, 56), (32, 44), (24, 28)), 18, 0)
    p.stroke(bezier((70, 72), (78, 58), (70, 44), (80, 30)), 18, 0)
    p.stroke(bezier((50, 70), (30, 50), (66, 30), (50, 2)), 32, 0)
    p.cut = True
    p.circle((50, 78), 11)
    p.stroke(bezier((50, 76), (40, 64), (58, 56), (48, 40)), 17, 0)


def _idea(p: Pen) -> None:
    """A light bulb with rays: a bright idea."""
    p.circle((50, 44), 22)
    p.poly([(36, 56), (64, 56), (60, 70), (40, 70)])
    p.poly(rounded_rect_points((50, 78), 22, 14, 3))
    p.capsule((46, 88), (54, 88), 6)
    for ang in (-160, -125, -90, -55, -20):
        p.capsule(polar((50, 44), 29, ang), polar((50, 44), 40, ang), 5.5)
    p.cut = True
    # a shine on the glass (a filament drawn this small reads as a letter)
    p.stroke(bezier((36, 48), (34, 38), (38, 32), (46, 28)), 5, 4)
    p.capsule((38, 75), (62, 75), 2.6)
    p.capsule((38, 81), (62, 81), 2.6)


def _labor(p: Pen) -> None:
    """A stone hammer: work to be done."""
    p.capsule((24, 92), (60, 26), 11)
    head = rounded_rect_points((62, 26), 52, 24, 9, 28.6)
    p.poly(head)
    p.cut = True
    p.capsule(polar((54, 40), 8, 28.6), polar((54, 40), -8, 28.6), 2.6)
    p.capsule(polar((51, 46), 8, 28.6), polar((51, 46), -8, 28.6), 2.6)


def _fish(p: Pen) -> None:
    """A fish swimming right."""
    p.ellipse((56, 50), 32, 20)
    p.poly([(30, 50), (4, 28), (12, 50), (4, 72)])  # tail
    p.poly([(42, 34), (56, 18), (68, 33)])  # back fin
    p.cut = True
    p.circle((74, 45), 3.8)  # eye
    p.stroke(bezier((62, 36), (56, 44), (56, 56), (62, 64)), 3.2, 3.2)  # gill
    p.poly([(100, 52), (88, 54), (100, 58)])  # mouth


def _meat(p: Pen) -> None:
    """Meat on the bone."""
    p.capsule((42, 58), (18, 82), 12)
    p.circle((10, 80), 8)
    p.circle((20, 90), 8)
    p.cut = True
    p.ellipse((60, 40), 36, 28, -35)
    p.cut = False
    p.ellipse((60, 40), 31, 23, -35)
    p.cut = True
    p.stroke(bezier((48, 24), (66, 22), (78, 34), (78, 46)), 4, 3)


def _tar_pit(p: Pen) -> None:
    """A bubbling tar pit."""
    p.ellipse((50, 80), 46, 14)
    p.circle((64, 70), 11)  # a bubble breaking the surface
    p.ring((38, 48), 10, 5)
    p.ring((58, 30), 7.5, 4.5)
    p.ring((44, 12), 5.5, 4)
    p.cut = True
    p.capsule((14, 80), (34, 80), 3.2)
    p.circle((60, 66), 3)


def _card(p: Pen) -> None:
    """Two playing cards, one over the other."""
    p.poly(rounded_rect_points((38, 54), 44, 62, 6, -14))
    p.cut = True
    p.poly(rounded_rect_points((60, 48), 52, 70, 9, 10))
    p.cut = False
    p.poly(rounded_rect_points((60, 48), 44, 62, 6, 10))
    p.cut = True
    p.poly(rounded_rect_points((60, 48), 32, 50, 3, 10))
    p.cut = False
    p.poly(rotate([(60, 36), (69, 48), (60, 60), (51, 48)], 10, (60, 48)))


SYMBOLS: dict[str, Callable[[Pen], None]] = {
    "dino": _dino,
    "dinosaur": _dinosaur,
    "footprint": _footprint,
    "leaves": _leaves,
    "leaf": _leaf,
    "bone": _bone,
    "half_bone": _half_bone,
    "egg": _egg,
    "blank": _blank,
    "food": _food,
    "water": _water,
    "fire": _fire,
    "idea": _idea,
    "labor": _labor,
    "fish": _fish,
    "meat": _meat,
    "tar_pit": _tar_pit,
    "card": _card,
}


def initials(face: str | int) -> str:
    """Fallback text for an unknown face: a number face's number, else the initials of a
    multi-word id, else its first letters."""
    if not isinstance(face, str):
        return str(face)
    words = [w for w in face.replace("-", "_").split("_") if w]
    if not words:
        return "?"
    if len(words) > 1:
        return "".join(w[0] for w in words[:2]).upper()
    return words[0][:2].upper()


def face_label(face: str | None) -> str:
    """The face id as words for a legend: 'tar_pit' -> 'Tar pit'."""
    if face is None:
        return "In the cup"
    return str(face).replace("_", " ").strip().capitalize() or "?"


_cache: dict[tuple[str, int, Colour], pygame.Surface] = {}


def symbol_surface(face: str, size: int, colour: Sequence[int]) -> pygame.Surface:
    """A square transparent surface with `face` drawn in `colour`, cached."""
    rgb: Colour = (int(colour[0]), int(colour[1]), int(colour[2]))
    size = max(1, int(size))
    key = (face, size, rgb)
    cached = _cache.get(key)
    if cached is not None:
        return cached
    draw = SYMBOLS.get(face)
    if draw is None:
        out = _letters(face, size, rgb)
    else:
        big = pygame.Surface((size * _SUPERSAMPLE, size * _SUPERSAMPLE), pygame.SRCALPHA)
        # transparent pixels carry the ink colour too, so smoothscale leaves no dark fringe
        big.fill((*rgb, 0))
        draw(Pen(big, rgb))
        out = pygame.transform.smoothscale(big, (size, size))
    out = theme.finish(out)
    _cache[key] = out
    return out


FACE_WORDS: dict[str, str] = {}  # a ruleset's own names for its faces (layout labels)


def face_words(face: str) -> list[str]:
    """What a face with no picture says: its layout label, else its id in words, on one
    line or two ('tar_pit' -> ['Tar', 'pit']); a number face its number."""
    text = FACE_WORDS.get(face) or str(face).replace("_", " ").replace("-", " ").strip()
    if not text:
        return ["?"]
    if text.lstrip("+-").isdigit():
        return [text]
    words = text.split()
    words[0] = words[0][:1].upper() + words[0][1:]
    if len(words) == 1:
        return words
    # two lines, split where they come out most even
    best = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k]))
                                                        - len(" ".join(words[k:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]


def _letters(face: str, size: int, colour: Colour) -> pygame.Surface:
    out = pygame.Surface((size, size), pygame.SRCALPHA)
    lines = face_words(face)
    widest = max(lines, key=lambda line: theme.font(20, bold=True).size(line)[0])
    # a number fills the face; words shrink until the widest line fits
    start = int(size * 0.72) if len(lines[0]) <= 2 else int(size * 0.9 / len(lines))
    px = theme.fit_size(widest, int(size * 0.96), max(8, start), bold=True, floor=6)
    font = theme.font(px, bold=True)
    step = font.get_linesize()
    top = size // 2 - step * (len(lines) - 1) // 2
    for n, line in enumerate(lines):
        image = font.render(line, True, colour)
        if image.get_width() > size:  # too long even at the smallest size: squeeze it
            image = pygame.transform.smoothscale(image, (size, image.get_height()))
        out.blit(image, image.get_rect(center=(size // 2, top + n * step)))
    return out


def draw_symbol(
    surface: pygame.Surface, face: str, rect: pygame.Rect, colour: Sequence[int]
) -> pygame.Rect:
    """Draw `face` as large as fits, centred in `rect`; returns the square it used."""
    side = min(rect.width, rect.height)
    square = pygame.Rect(0, 0, side, side)
    square.center = rect.center
    if side > 0:
        surface.blit(symbol_surface(face, side, colour), square)
    return square


def forget() -> None:
    _cache.clear()


pygame.register_quit(forget)
