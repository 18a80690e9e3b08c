"""The look: fonts, palette, face symbols, dice, widgets and sounds, all headless."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import itertools
import math
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from dinotable import audio
from dinotable.paths import assets_dir
from dinotable.render import dice, game_log, plates, symbols, theme, widgets

FACES = (
    "dino", "footprint", "leaves", "dinosaur", "bone", "egg", "blank",
    "food", "water", "fire", "idea", "labor", "half_bone", "leaf", "fish", "meat",
    "tar_pit", "card",
)  # fmt: skip
RULESET_DICE = ("green", "yellow", "red", "white", "black")


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield


def _mask(face: str, size: int = 64) -> pygame.mask.Mask:
    return pygame.mask.from_surface(symbols.symbol_surface(face, size, (0, 0, 0)), 127)


def _count(surface: pygame.Surface, colour: tuple[int, int, int], rect: pygame.Rect) -> int:
    return sum(
        1
        for x in range(rect.left, rect.right)
        for y in range(rect.top, rect.bottom)
        if surface.get_at((x, y))[:3] == colour
    )


# --- font ---


def test_font_is_andika_loaded_from_assets_not_the_default_font() -> None:
    path = theme.font_path()
    assert path.parent == assets_dir() / "fonts"
    assert path.is_file() and theme.font_path(bold=True).is_file()
    from_file = pygame.font.Font(path, 40)
    assert theme.font(40).get_height() == from_file.get_height()
    assert theme.font(40).size("Dino Hunt") == from_file.size("Dino Hunt")
    default = pygame.font.Font(None, 40)
    assert theme.font(40).get_height() != default.get_height()


def test_the_font_ships_with_its_licence_and_a_readme() -> None:
    fonts = assets_dir() / "fonts"
    licence = (fonts / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Copyright (c) 2004-2022 SIL International" in licence
    assert "Andika" in (fonts / "README.md").read_text(encoding="utf-8")


def test_no_code_asks_for_a_default_or_system_font() -> None:
    package = Path(__file__).resolve().parent.parent / "dinotable"
    for source in package.rglob("*.py"):
        code = source.read_text(encoding="utf-8")
        assert "Font(None" not in code, source
        assert "SysFont" not in code, source


def test_fonts_are_cached_per_size_and_weight() -> None:
    assert theme.font(30) is theme.font(30)
    assert theme.font(30) is not theme.font(30, bold=True)


def test_body_text_is_large_enough_to_read_across_a_table() -> None:
    assert theme.SIZE_BODY >= 22
    assert theme.SIZE_SMALL >= 22
    assert theme.SIZE_TITLE >= 2 * theme.SIZE_BODY
    assert theme.SIZE_HEADING > theme.SIZE_BODY


def test_wrap_keeps_every_word_and_fits_the_width() -> None:
    f = theme.font(theme.SIZE_BODY)
    words = "Three stomps and your turn is over, but the dinos you banked are safe."
    lines = theme.wrap(words, f, 240)
    assert len(lines) > 1
    assert all(f.size(line)[0] <= 240 for line in lines)
    assert " ".join(lines).split() == words.split()
    assert theme.wrap("a\n\nb", f, 240) == ["a", "", "b"]
    long = theme.wrap("Pachycephalosaurus" * 3, f, 120)
    assert all(f.size(line)[0] <= 120 for line in long)
    assert "".join(long) == "Pachycephalosaurus" * 3


def test_text_is_placed_by_its_anchor() -> None:
    surface = pygame.Surface((400, 200))
    rect = theme.text(surface, "Roll", (200, 100), 30, theme.INK, anchor="center")
    assert rect.center == (200, 100)
    rect = theme.text(surface, "Roll", (390, 190), 30, theme.INK, anchor="bottomright")
    assert rect.bottomright == (390, 190)
    loose = theme.text(surface, "Roll", (10, 10), 30, theme.INK)
    tight = theme.text(surface, "Roll", (10, 10), 30, theme.INK, tight=True)
    assert tight.topleft == (10, 10) and tight.height < loose.height


# --- palette ---


def _simulated_lab(rgb: tuple[int, int, int], matrix: list[list[float]]) -> tuple[float, ...]:
    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (
        min(1.0, max(0.0, sum(m * lin(c) for m, c in zip(row, rgb, strict=True)))) for row in matrix
    )
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


# Machado, Oliveira & Fernandes (2009), full severity, in linear RGB
_VISION: dict[str, list[list[float]]] = {
    "typical": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
    "tritanopia": [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ],
}


def test_six_player_colours_with_names_marks_and_readable_ink() -> None:
    colours = theme.PLAYER_COLOURS
    assert len(colours) == 6
    assert len({c.name for c in colours}) == 6
    assert len({c.mark for c in colours}) == 6
    for c in colours:
        assert theme.contrast(c.ink, c.rgb) >= 4.5, c.name
    assert theme.player_colour(6) == colours[0]


@pytest.mark.parametrize("vision", list(_VISION))
def test_player_colours_stay_apart_for_colour_blind_players(vision: str) -> None:
    labs = [_simulated_lab(c.rgb, _VISION[vision]) for c in theme.PLAYER_COLOURS]
    closest = min(math.dist(a, b) for a, b in itertools.combinations(labs, 2))
    assert closest >= 25


def test_house_text_colours_reach_four_and_a_half_to_one() -> None:
    pairs = [
        (theme.INK, theme.PARCHMENT),
        (theme.INK_SOFT, theme.PARCHMENT),
        (theme.INK_SOFT, theme.STONE_LIGHT),  # disabled button labels
        (theme.INK_LIGHT, theme.WOOD),
        (theme.INK_LIGHT, theme.mix(theme.WOOD, theme.WOOD_LIGHT, 0.3)),  # hovered button
        (theme.INK_LIGHT, theme.FELT),
        (theme.INK_LIGHT, theme.INK),  # tooltips
        (theme.INK, theme.GOLD),
        (theme.INK_LIGHT, theme.DANGER),
    ]
    for fg, bg in pairs:
        assert theme.contrast(fg, bg) >= 4.5, (fg, bg)


# --- symbols ---


@pytest.mark.parametrize("face", FACES)
def test_every_face_symbol_draws_a_real_shape(face: str) -> None:
    assert face in symbols.SYMBOLS
    count = _mask(face).count()
    assert 0.05 * 64 * 64 < count < 0.8 * 64 * 64


def test_face_symbols_are_told_apart_by_shape() -> None:
    masks = {face: _mask(face) for face in FACES}
    for a, b in itertools.combinations(FACES, 2):
        differ = masks[a].count() + masks[b].count() - 2 * masks[a].overlap_area(masks[b], (0, 0))
        assert differ >= 0.10 * 64 * 64, (a, b, differ)


def test_an_unknown_face_shows_its_first_letters() -> None:
    assert symbols.initials("moon_rock") == "MR"
    assert symbols.initials("star") == "ST"
    assert _mask("moon_rock").count() > 0.05 * 64 * 64
    surface = pygame.Surface((80, 80), pygame.SRCALPHA)
    drawn = symbols.draw_symbol(surface, "gem", pygame.Rect(0, 10, 80, 60), (0, 0, 0))
    assert drawn.size == (60, 60) and drawn.center == (40, 40)


def test_symbols_are_cached_and_labelled() -> None:
    ink = (1, 2, 3)
    assert symbols.symbol_surface("egg", 40, ink) is symbols.symbol_surface("egg", 40, ink)
    assert symbols.face_label("tar_pit") == "Tar pit"
    assert symbols.face_label(None) == "In the cup"


# --- dice ---


@pytest.mark.parametrize("name", sorted(set(RULESET_DICE) | set(theme.DIE_COLOURS)))
def test_die_symbols_contrast_with_the_die(name: str) -> None:
    colour = theme.die_colour(name)
    ink = dice.face_ink(colour)
    assert theme.contrast(ink, colour) >= 4.5
    # and on the rendered die: the top face really is the die colour, the egg really is ink
    size = 96
    body = dice.die_body(colour, "egg", size)
    top = body.get_at((size // 2, round(size * 0.1)))[:3]
    egg = body.get_at((size // 2 - 1, size // 2 + 5))[:3]
    assert theme.contrast(top, egg) >= 4.5, (top, egg)


def test_any_die_colour_gets_ink_at_four_and_a_half_to_one() -> None:
    rng = random.Random(7)
    for _ in range(500):
        colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        assert theme.contrast(dice.face_ink(colour), colour) >= 4.5, colour


def test_light_dice_get_dark_ink_and_dark_dice_light_ink() -> None:
    assert dice.face_ink(theme.DIE_COLOURS["yellow"]) == theme.INK
    assert dice.face_ink(theme.DIE_COLOURS["white"]) == theme.INK
    assert dice.face_ink(theme.DIE_COLOURS["black"]) == theme.INK_LIGHT
    assert dice.face_ink(theme.DIE_COLOURS["red"]) == theme.INK_LIGHT


def test_die_surfaces_are_cached_and_have_room_for_the_shadow() -> None:
    green = theme.DIE_COLOURS["green"]
    a = dice.die_surface(green, "dino", 64)
    assert a is dice.die_surface(green, "dino", 64)
    assert a.get_size() == (64 + 2 * dice.padding(64),) * 2
    # a die in the cup shows no face, and looks different from a blank face
    cup = pygame.mask.from_surface(dice.die_body(green, None, 64)).count()
    assert cup > 0
    assert pygame.image.tobytes(dice.die_body(green, None, 64), "RGBA") != pygame.image.tobytes(
        dice.die_body(green, "blank", 64), "RGBA"
    )


def test_draw_die_rotates_and_highlights_around_its_centre() -> None:
    surface = pygame.Surface((300, 300))
    red = theme.DIE_COLOURS["red"]
    flat = dice.draw_die(surface, (150, 150), 80, 0, red, "footprint")
    turned = dice.draw_die(surface, (150, 150), 80, 45, red, "footprint", highlight=True)
    assert flat.center == turned.center == (150, 150)
    assert turned.width > flat.width
    plain = pygame.Surface((300, 300))
    glowing = pygame.Surface((300, 300))
    dice.draw_die(plain, (150, 150), 80, 10, red, "dino")
    dice.draw_die(glowing, (150, 150), 80, 10, red, "dino", highlight=True)
    # the ring lies outside the die
    assert plain.get_at((150, 150 - 62)) != glowing.get_at((150, 150 - 62))
    legend = dice.draw_die_with_label(surface, (150, 100), 64, red, "tar_pit")
    assert legend.height > 64


# --- widgets ---


def test_buttons_draw_in_every_state_and_show_their_key() -> None:
    rect = pygame.Rect(40, 120, 280, 72)
    states: list[dict[str, Any]] = [
        {},
        {"focused": True},
        {"hovered": True},
        {"pressed": True},
        {"enabled": False},
        {"enabled": False, "focused": True, "tooltip": "Roll first"},
        {"style": "parchment"},
    ]
    for state in states:
        with_key = pygame.Surface((400, 260))
        without = pygame.Surface((400, 260))
        widgets.Button(rect, "Roll", "R", **state).draw(with_key)
        widgets.Button(rect, "Roll", None, **state).draw(without)
        keycap_area = pygame.Rect(rect.x + 14, rect.y + 10, 44, rect.height - 20)
        assert _pixels(with_key, keycap_area) != _pixels(without, keycap_area), state
        keycap_face = theme.PARCHMENT_LIGHT if state.get("enabled", True) else theme.STONE_LIGHT
        assert _count(with_key, keycap_face, keycap_area) > 100, state


def _pixels(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect), "RGB")


def test_focus_ring_and_disabled_tooltip_are_drawn() -> None:
    rect = pygame.Rect(60, 140, 260, 68)
    plain = pygame.Surface((400, 260))
    focused = pygame.Surface((400, 260))
    widgets.Button(rect, "Stop", "S").draw(plain)
    widgets.Button(rect, "Stop", "S", focused=True).draw(focused)
    ring_band = pygame.Rect(rect.x, rect.y - 9, rect.width, 3)
    assert _count(focused, theme.GOLD, ring_band) > 0
    assert _count(plain, theme.GOLD, ring_band) == 0

    quiet = pygame.Surface((400, 260))
    helped = pygame.Surface((400, 260))
    button = widgets.Button(rect, "Stop", "S", enabled=False, tooltip="Roll at least once first")
    button.draw(quiet)
    button.draw(helped, mouse=rect.center)
    above = pygame.Rect(0, 0, 400, rect.top - 12)
    assert _count(helped, theme.INK, above) > 100
    assert _count(quiet, theme.INK, above) == 0


def test_a_disabled_button_is_hit_but_not_clicked() -> None:
    button = widgets.Button(pygame.Rect(0, 0, 100, 50), "Stop", "S", enabled=False)
    assert button.hit((10, 10)) and not button.clicked((10, 10))
    assert not button.hit((200, 10))
    button.enabled = True
    assert button.clicked((10, 10))


def test_the_active_name_plate_is_marked_by_more_than_colour() -> None:
    rect = pygame.Rect(40, 40, 320, 72)
    red = theme.PLAYER_COLOURS[0].rgb
    active = pygame.Surface((420, 160))
    idle = pygame.Surface((420, 160))
    plates.name_plate(active, rect, "Grandma Rose", red, True, 12, "circle")
    plates.name_plate(idle, rect, "Grandma Rose", red, False, 12, "circle")
    inside = rect.inflate(-12, -12)
    assert _count(active, theme.GOLD, inside) > 100  # the ▶ marker
    assert _count(idle, theme.GOLD, inside) == 0
    # a plate too short for two lines puts YOUR TURN on a tab above it
    short = pygame.Surface((420, 160))
    plates.name_plate(short, pygame.Rect(40, 60, 320, 40), "Sam", red, True, 3)
    assert _count(short, theme.GOLD, pygame.Rect(40, 20, 200, 36)) > 100
    # a 50 px plate keeps it inside, so stacked plates do not cover each other
    stacked = pygame.Surface((420, 160))
    plates.name_plate(stacked, pygame.Rect(40, 60, 320, 50), "Sam", red, True, 3)
    assert _count(stacked, theme.GOLD, pygame.Rect(40, 20, 200, 30)) == 0


def test_a_player_who_is_out_has_a_faded_plate() -> None:
    rect = pygame.Rect(20, 20, 300, 56)
    blue = theme.PLAYER_COLOURS[1].rgb
    out = pygame.Surface((340, 100))
    plates.name_plate(out, rect, "Sam", blue, False, 4, dim=True)
    assert _count(out, blue, rect) == 0
    inside = pygame.Rect(rect.x + 6, rect.y + 6, 60, 10)
    faded = out.get_at(inside.center)[:3]
    assert theme.contrast(theme.ink_on(faded), faded) >= 4.5


def test_banner_panel_log_and_tooltip_draw() -> None:
    surface = pygame.Surface((1280, 720))
    band = widgets.Banner("Three stomps!", theme.DANGER, "Sam banks nothing").draw(surface)
    assert band.center == (640, 360)
    panel = widgets.Panel(pygame.Rect(100, 100, 500, 300), "How to play")
    content = panel.draw(surface)
    assert panel.rect.contains(content) and content.top > panel.rect.top + 40
    lines = [f"Line {i}: Sam rolled a dino, a leaf and a footprint." for i in range(30)]
    most = game_log.draw_log(surface, pygame.Rect(700, 100, 400, 200), lines, 0)
    assert most > 0
    assert game_log.draw_log(surface, pygame.Rect(700, 100, 400, 200), lines, 10_000) == most
    assert game_log.draw_log(surface, pygame.Rect(700, 100, 400, 400), ["One line"], 0) == 0
    tip = widgets.draw_tooltip(surface, (1270, 710), "Near the corner, still on screen")
    assert surface.get_rect().contains(tip)


def test_banner_fills_a_rect_and_fades() -> None:
    header = pygame.Rect(16, 12, 560, 84)
    solid = pygame.Surface((1280, 720))
    faded = pygame.Surface((1280, 720))
    gone = pygame.Surface((1280, 720))
    banner = widgets.Banner("Grandma Rose's turn", theme.PLAYER_COLOURS[0].rgb)
    assert banner.draw(solid, header) == header
    banner.draw(faded, header, alpha=0.3)
    banner.draw(gone, header, alpha=0.0)
    colour = theme.PLAYER_COLOURS[0].rgb
    assert _count(solid, colour, header) > _count(faded, colour, header) == 0
    assert _pixels(gone, header) == _pixels(pygame.Surface((1280, 720)), header)


def test_panels_take_a_tone_focus_and_dim() -> None:
    surface = pygame.Surface((600, 400))
    rect = pygame.Rect(60, 60, 400, 200)
    widgets.Panel(rect, "Caught: 2", accent=theme.GOOD).draw(surface)
    assert _count(surface, theme.GOOD, rect) > 100
    widgets.Panel(rect, "", focused=True).draw(surface)
    assert _count(surface, theme.GOLD, rect.inflate(20, 20)) > 100
    widgets.Panel(rect, "Unavailable", dim=True).draw(surface)
    assert _count(surface, theme.PARCHMENT, rect) == 0


def test_the_table_background_tray_and_cup_draw() -> None:
    surface = pygame.Surface((1280, 720))
    theme.draw_table_background(surface)
    assert surface.get_at((640, 360))[:3] != (0, 0, 0)
    felt = theme.draw_tray(surface, pygame.Rect(20, 110, 860, 420))
    assert pygame.Rect(20, 110, 860, 420).contains(felt)
    cup = theme.draw_cup(surface, (1000, 200), 40)
    assert cup.collidepoint(1000, 200)


def test_chances_are_also_said_in_words() -> None:
    assert theme.in_words(0.25) == " (about 1 in 4)"
    assert theme.in_words(0.5) == " (about 1 in 2)"
    assert theme.in_words(1 / 3) == " (about 1 in 3)"
    assert theme.in_words(0.0) == " (no chance)"
    assert theme.in_words(1.0) == " (certain)"


def test_long_names_are_cut_short_with_an_ellipsis() -> None:
    f = theme.font(theme.SIZE_BODY, bold=True)
    short = theme.ellipsize("Great-grandma Wilhelmina", f, 150)
    assert short.endswith("…") and f.size(short)[0] <= 150
    assert theme.ellipsize("Sam", f, 150) == "Sam"


def test_finish_converts_only_when_a_display_exists() -> None:
    raw = pygame.Surface((4, 4), pygame.SRCALPHA)
    if pygame.display.get_surface() is None:
        assert theme.finish(raw) is raw
    pygame.display.set_mode((16, 16))
    try:
        assert theme.finish(raw) is not raw
    finally:
        pygame.display.quit()
    assert theme.finish(raw) is raw


# --- sounds ---


# Run in a process of its own that never closes the device: SDL's audio thread can hang
# its join at quit on virtual machines, and a test must not hang the suite.
_PLAY_ON_THE_DUMMY_DEVICE = """
import os, sys
from dinotable import audio
sounds = audio.Sounds(volume=0.5, silent_device=True)
played = [sounds.play(name, 0.8) for name in audio.NAMES]
print(sounds.available, played[2], sounds.play("no_such_sound"), sounds.play("bank"))
sys.stdout.flush()
os._exit(0)
"""


def test_sounds_play_through_the_dummy_audio_driver() -> None:
    import subprocess
    import sys

    env = dict(os.environ, SDL_AUDIODRIVER="dummy", SDL_VIDEODRIVER="dummy",
               PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    out = subprocess.run([sys.executable, "-c", _PLAY_ON_THE_DUMMY_DEVICE], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["True", "True", "False", "True"], out.stderr


def test_the_table_stays_quiet_on_the_dummy_driver_unless_asked() -> None:
    sounds = audio.Sounds(volume=0.5)
    assert sounds.play("bank") is False and not sounds.available


def test_mute_and_volume_answer_without_a_device() -> None:
    sounds = audio.Sounds(volume=0.5)
    assert sounds.play("no_such_sound") is False
    assert sounds.toggle_mute() is True
    assert all(sounds.play(name) is False for name in audio.NAMES)
    assert sounds.clatter(1.0) is False and sounds.bust() is False
    assert sounds.toggle_mute() is False
    sounds.set_volume(3)
    assert sounds.volume == 1.0
    sounds.set_volume(-1)
    assert sounds.volume == 0.0
    assert sounds.play("bank") is False  # silent at volume 0


def test_sounds_stay_silent_without_a_mixer(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_device(*args: object, **kwargs: object) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    sounds = audio.Sounds()
    assert not sounds.available
    assert all(sounds.play(name) is False for name in audio.NAMES)
    assert audio.Sounds(enabled=False).play("bank") is False


@pytest.mark.parametrize(("fmt", "width"), [(-16, 2), (16, 2), (-8, 1), (8, 1), (32, 4), (-32, 4)])
def test_sounds_are_encoded_in_the_mixers_own_format(fmt: int, width: int) -> None:
    samples = [math.sin(i / 5) * 1.5 for i in range(100)]  # too loud: must be scaled, not crash
    assert len(audio.encode(samples, fmt, 2)) == 100 * 2 * width
    assert len(audio.encode(samples, fmt, 1)) == 100 * width


def test_sounds_are_cheap_to_synthesise() -> None:
    start = time.perf_counter()
    sounds = audio.synthesise(44100)
    elapsed = time.perf_counter() - start
    assert set(sounds) == set(audio.NAMES)
    assert len(sounds["clatter"]) >= 3
    assert all(max(map(abs, s)) <= 1.0 for variants in sounds.values() for s in variants)
    assert elapsed < 0.5  # ~25 ms here; the bound only catches an accidental slow path


def test_a_face_without_a_picture_is_named_in_words_not_initials() -> None:
    from dinotable.render import dice

    dice.name_faces({})
    assert symbols.face_words("miss") == ["Miss"]
    assert symbols.face_words("tar_pit") == ["Tar", "pit"]
    assert symbols.face_words("3") == ["3"]
    dice.name_faces({"wound": "Ouch!"})  # the layout's label wins over the id
    try:
        assert symbols.face_words("wound") == ["Ouch!"]
        assert symbols.face_words("stomp") == ["Stomp"]
    finally:
        dice.name_faces({})


def test_a_long_face_name_is_shrunk_to_stay_on_its_die() -> None:
    pygame.init()
    one = symbols.symbol_surface("tyrannosaurus_footprint", 40, (0, 0, 0))
    other = symbols.symbol_surface("tyrannosaurus_footprinx", 40, (0, 0, 0))
    # the last letter is still on the die: the two differ
    assert pygame.image.tobytes(one, "RGBA") != pygame.image.tobytes(other, "RGBA")
