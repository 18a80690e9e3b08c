"""The lesson's arrow: a thick arrow drawn pointing at a thing, and the side it may come
from without hiding a word or another die."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

LONG, SHORT = 58, 38  # an arrow's lengths: full, and short where the full one hides words

Way = tuple[int, int]


def clear_way(tips: dict[Way, tuple[int, int]], ways: Sequence[Way],
              others: Sequence[pygame.Rect], screen: pygame.Rect,
              keep_off: pygame.Rect) -> tuple[Way, int] | None:
    """The first of `ways` (a full arrow, then a short one) whose arrow, pointing at
    `tips[way]` as it bobs, stays on `screen`, off `keep_off` and clear of every one of
    `others`; None where every arrow would hide one."""
    for length in (LONG, SHORT):
        for way in ways:
            reach = arrow_box(tips[way], way, 8, length).union(
                arrow_box(tips[way], way, -8, length))
            if (screen.contains(reach) and not reach.colliderect(keep_off)
                    and not any(reach.colliderect(o) for o in others)):
                return way, length
    return None


def arrow_box(tip: tuple[int, int], way: tuple[int, int], bob: int = 8,
              length: int = 58) -> pygame.Rect:
    """The box round an arrow drawn with its point at `tip`."""
    points = arrow(tip, way, bob, length)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def arrow(tip: tuple[int, int], way: tuple[int, int], bob: int,
          length: int = 58) -> list[tuple[int, int]]:
    """A thick arrow `length` px long whose point is at `tip` (moved back by `bob`),
    pointing along `way`."""
    dx, dy = way
    x, y = tip[0] - dx * bob, tip[1] - dy * bob

    def at(along: int, across: int) -> tuple[int, int]:
        return (x - dx * along - dy * across, y - dy * along + dx * across)

    return [at(0, 0), at(28, -22), at(28, -9), at(length, -9), at(length, 9), at(28, 9),
            at(28, 22)]
