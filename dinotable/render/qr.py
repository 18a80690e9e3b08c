"""A QR code drawn as a pygame surface (segno makes the code; this only draws it), for a
phone's camera to open a seat's address."""

from __future__ import annotations

import pygame
import segno

QUIET = 4  # the light border a reader needs round the code, in modules


def qr_surface(text: str, size: int) -> pygame.Surface:
    """`text` as a QR code of at most `size` pixels a side: dark modules on white, whole
    pixels per module (a blurred edge reads badly), with its quiet border."""
    code = segno.make(text, error="m", micro=False)
    rows = code.matrix
    modules = len(rows) + 2 * QUIET
    scale = max(1, size // modules)
    side = modules * scale
    surface = pygame.Surface((side, side))
    surface.fill((255, 255, 255))
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surface.fill((0, 0, 0), ((x + QUIET) * scale, (y + QUIET) * scale, scale, scale))
    return surface
