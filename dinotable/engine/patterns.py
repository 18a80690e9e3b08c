"""Patterns in the faces dice show: how many show a value, the largest group of alike
faces, the longest run of consecutive values (the shapes score sheets ask for)."""

from __future__ import annotations

from collections import Counter

from .expr import Compiled, Ctx, ZoneName, function
from .items import face_value


def _values(c: Ctx, zone: ZoneName) -> list[int]:
    return [face_value(c.state, i) for i in zone.items()(c) if c.state.items[i].face is not None]


@function("with_value", ("zone", "expr"), "How many dice in a zone show a face of a value.",
          "with_value(tray, 6)")
def _with_value(zone: ZoneName, value: Compiled) -> Compiled:
    return lambda c: sum(1 for v in _values(c, zone) if v == value(c))


@function("most_alike", ("zone",), "The largest number of dice in a zone showing the same "
          "face (0 with none).", "most_alike(tray)")
def _most_alike(zone: ZoneName) -> Compiled:
    def run(c: Ctx) -> int:
        items = c.state.items
        faces = Counter(items[i].face for i in zone.items()(c) if items[i].face is not None)
        return max(faces.values(), default=0)

    return run


@function("longest_run", ("zone",), "The longest run of consecutive face values the dice in "
          "a zone show (3, 4, 5 is a run of 3).", "longest_run(tray)")
def _longest_run(zone: ZoneName) -> Compiled:
    def run(c: Ctx) -> int:
        have = set(_values(c, zone))
        best = 0
        for v in have:
            if v - 1 not in have:
                n = 1
                while v + n in have:
                    n += 1
                best = max(best, n)
        return best

    return run


@function("different_faces", ("zone",), "How many different faces the dice in a zone show.",
          "different_faces(tray)")
def _different_faces(zone: ZoneName) -> Compiled:
    def run(c: Ctx) -> int:
        items = c.state.items
        return len({items[i].face for i in zone.items()(c) if items[i].face is not None})

    return run
