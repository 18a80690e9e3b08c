"""Table sounds synthesised at startup: dice clatter, a bust stomp, a bank chime, a turn cue.

No sound files: each sound is a few hundred milliseconds of samples built with `array`
in the mixer's own format. Without an audio device (or with SDL_AUDIODRIVER=dummy and no
mixer) everything still works and simply makes no sound.
"""

from __future__ import annotations

import contextlib
import math
import operator
import os
import random
import time
from array import array
from itertools import repeat
from typing import TypeVar

import pygame

Samples = list[float]
_T = TypeVar("_T", int, float)

NAMES = ("clatter", "bust", "bank", "turn")
CLATTER_VARIANTS = 4
_CLATTER_GAP = 0.03  # s; physics reports many contacts at once, the ear wants a few

# array typecode, full scale and zero offset of a sample, by pygame.mixer format
_FORMATS: dict[int, tuple[str, float, int]] = {
    -16: ("h", 32767.0, 0),
    16: ("H", 32767.0, 32768),
    -8: ("b", 127.0, 0),
    8: ("B", 127.0, 128),
    -32: ("i", 2147483647.0, 0),
    32: ("f", 1.0, 0),
}


def _tone(
    rate: int,
    seconds: float,
    start_hz: float,
    end_hz: float | None = None,
    decay: float = 8.0,
    attack: float = 0.004,
    amp: float = 1.0,
) -> Samples:
    """A sine glide from start_hz to end_hz with a short attack and exponential decay."""
    n = int(rate * seconds)
    end = start_hz if end_hz is None else end_hz
    # phase of a linear glide, in closed form: one comprehension, no per-sample branches
    a = 2 * math.pi * start_hz / rate
    b = math.pi * (end - start_hz) / (rate * n)
    d = -decay / rate
    sin, exp = math.sin, math.exp
    out = [amp * sin(a * i + b * i * i) * exp(d * i) for i in range(n)]
    attack_n = min(n, max(1, int(rate * attack)))
    for i in range(attack_n):
        out[i] *= i / attack_n
    # fade the tail to silence: a note cut off mid-swing clicks
    release_n = min(n, int(rate * 0.008))
    for k in range(release_n):
        out[n - 1 - k] *= k / release_n
    return out


def _mix(*parts: tuple[int, Samples]) -> Samples:
    """Add sample lists, each starting at its own offset."""
    length = max(offset + len(s) for offset, s in parts)
    out = [0.0] * length
    for offset, s in parts:
        end = offset + len(s)
        out[offset:end] = map(operator.add, out[offset:end], s)
    return out


def _normalise(samples: Samples, peak: float = 0.9) -> Samples:
    """Scale down to `peak` if louder, so no sample leaves [-1, 1]."""
    loudest = max(map(abs, samples), default=0.0)
    if loudest <= peak:
        return samples
    k = peak / loudest
    return [v * k for v in samples]


def _clatter(rate: int, variant: int) -> Samples:
    """A die knocking the table: a bright click plus a little noise, sometimes a bounce."""
    rng = random.Random(variant)
    click_hz = 1700 + 450 * variant
    n = int(rate * 0.045)
    white = [rng.random() - 0.5 for _ in range(n + 1)]
    d, exp = -160 / rate, math.exp
    # a first difference of white noise: crisp, not hissy
    noise = [(white[i + 1] - white[i]) * exp(d * i) for i in range(n)]
    click = _tone(rate, 0.04, click_hz, click_hz * 0.92, decay=120, attack=0.0005, amp=0.6)
    parts = [(0, noise), (0, click)]
    if variant % 2:
        bounce = int(rate * (0.018 + 0.004 * variant))
        parts.append((bounce, _tone(rate, 0.025, click_hz * 1.1, None, 180, 0.0005, 0.3)))
    return _normalise(_mix(*parts))


def _bust(rate: int) -> Samples:
    """A heavy dinosaur stomp and a sad falling note."""
    thud = _tone(rate, 0.18, 95, 42, decay=18, attack=0.002, amp=1.0)
    groan = _tone(rate, 0.32, 220, 110, decay=7, attack=0.02, amp=0.35)
    return _normalise(_mix((0, thud), (int(rate * 0.06), groan)))


def _bank(rate: int) -> Samples:
    """A bright rising three-note chime (C, E, G)."""
    parts = []
    for k, hz in enumerate((1046.5, 1318.5, 1568.0)):
        start = int(rate * 0.07 * k)
        parts.append((start, _tone(rate, 0.22, hz, None, decay=14, attack=0.003, amp=0.32)))
        parts.append((start, _tone(rate, 0.12, hz * 2, None, decay=30, attack=0.003, amp=0.1)))
    return _normalise(_mix(*parts))


def _turn(rate: int) -> Samples:
    """A soft two-note knock: someone else's turn."""
    first = _tone(rate, 0.09, 587.3, None, decay=20, attack=0.01, amp=0.3)
    second = _tone(rate, 0.12, 784.0, None, decay=18, attack=0.01, amp=0.3)
    return _normalise(_mix((0, first), (int(rate * 0.08), second)))


def synthesise(rate: int) -> dict[str, list[Samples]]:
    """Every sound as mono float samples at `rate` Hz; clatter comes in a few variants."""
    return {
        "clatter": [_clatter(rate, v) for v in range(CLATTER_VARIANTS)],
        "bust": [_bust(rate)],
        "bank": [_bank(rate)],
        "turn": [_turn(rate)],
    }


def _interleave(mono: array[_T], channels: int) -> bytes:
    """The same samples on every channel, as frames."""
    if channels == 1:
        return mono.tobytes()
    frames = mono * channels  # the right type and length; interleaved below
    for c in range(channels):
        frames[c::channels] = mono
    return frames.tobytes()


def encode(samples: Samples, fmt: int, channels: int) -> bytes:
    """Mono floats as raw bytes in pygame.mixer's format (see pygame.mixer.get_init())."""
    typecode, scale, zero = _FORMATS[fmt]
    samples = _normalise(samples, 1.0)
    if typecode == "f":
        return _interleave(array("f", samples), channels)
    # C-level maps: a Python loop per sample would cost more than the synthesis
    ints = map(int, map(operator.mul, samples, repeat(scale)))
    if zero:
        ints = map(operator.add, ints, repeat(zero))
    return _interleave(array(typecode, ints), channels)


class Sounds:
    """The app's sounds. Safe to create anywhere: with no audio it stays silent."""

    def __init__(self, volume: float = 0.7, enabled: bool = True,
                 silent_device: bool = False) -> None:
        self.volume = max(0.0, min(1.0, volume))
        self.muted = False
        self._sounds: dict[str, list[pygame.mixer.Sound]] = {}
        self._last_played: dict[str, float] = {}
        self._rng = random.Random()
        self._wanted = enabled
        self._started = False
        # SDL's "dummy" audio driver plays to nowhere. Opening it costs an audio thread
        # whose join at pygame.quit() now and then never returns on virtual machines
        # (pygame-ce issue 344), so with it the table stays quiet unless asked to open it.
        self._open_silent = silent_device

    def prepare(self) -> None:
        """Open the mixer and build the sounds (once). The app calls this just after its
        first frame, so a window appears before any audio work; play() also calls it."""
        if self._wanted and not self._started:
            self._started = True
            self._start()

    @property
    def available(self) -> bool:
        """True when a mixer is running and the sounds were built."""
        return bool(self._sounds)

    def _start(self) -> None:
        if os.environ.get("SDL_AUDIODRIVER") == "dummy" and not self._open_silent:
            return
        try:
            if pygame.mixer.get_init() is None:
                pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=512)
            init = pygame.mixer.get_init()
            if init is None:
                return
            rate, fmt, channels = init
            if fmt not in _FORMATS:
                return
            pygame.mixer.set_num_channels(max(16, pygame.mixer.get_num_channels()))
            self._sounds = {
                name: [pygame.mixer.Sound(buffer=encode(s, fmt, channels)) for s in variants]
                for name, variants in synthesise(rate).items()
            }
        except (pygame.error, OSError, ValueError, KeyError, NotImplementedError):
            # No device, no driver, or a format we cannot write: be a quiet table. So too
            # when pygame could not load its mixer (it then stands in a MissingModule that
            # raises NotImplementedError): the standalone app for Linux takes the C++
            # runtime SDL_mixer's FluidSynth links from the system.
            self._sounds = {}

    def play(self, name: str, strength: float = 1.0) -> bool:
        """Play a sound at `strength` (0..1) of the volume; False if nothing was played."""
        self.prepare()
        if self.muted or not self._sounds:
            return False
        variants = self._sounds.get(name)
        if not variants:
            return False
        loudness = self.volume * max(0.0, min(1.0, strength))
        if loudness < 0.01:
            return False
        now = time.monotonic()
        if name == "clatter" and now - self._last_played.get(name, -1.0) < _CLATTER_GAP:
            return False
        try:
            channel = pygame.mixer.find_channel()
            if channel is None:
                return False
            channel.set_volume(loudness)
            channel.play(self._rng.choice(variants))
        except pygame.error:
            return False
        self._last_played[name] = now
        return True

    def clatter(self, strength: float = 1.0) -> bool:
        """A die hitting the table or another die; `strength` from the impact."""
        return self.play("clatter", strength)

    def bust(self) -> bool:
        return self.play("bust")

    def bank(self) -> bool:
        return self.play("bank")

    def turn(self) -> bool:
        return self.play("turn")

    def toggle_mute(self) -> bool:
        """Mute or unmute; returns True when now muted."""
        self.muted = not self.muted
        if self.muted and self._sounds:
            with contextlib.suppress(pygame.error):
                pygame.mixer.stop()
        return self.muted

    def set_volume(self, volume: float) -> None:
        self.volume = max(0.0, min(1.0, volume))
