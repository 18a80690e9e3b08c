"""A card's name set whole in the room a card has: on one line or more, a size or more
smaller where it must, a long word broken with a hyphen after a syllable ("Mam-moth",
"Thecodon-tosaurus"). Every card, chip, stack top and tile names itself through here."""

from __future__ import annotations

import pygame

from . import theme

SMALLEST = theme.TINY - 5  # a name on a small card is set no smaller


def name_lines(title: str, width: int, most: int = 2, height: int | None = None,
               floor: int = theme.TINY - 3) -> tuple[int, list[str]]:
    """A card's name in `width` px (and `height`, set line under line, when given), whole:
    the type size and its lines. On one line at the small type; else on two (a long word
    broken after a syllable, with a hyphen); else on two a size or more smaller, down to
    `floor`; else on up to `most` lines. Only a name longer still is cut short."""
    whole = whole_name(title, width, most, height, floor)
    if whole is not None:
        return whole
    size = floor
    found = _name_lines(title, size, width)
    font = theme.font(size, True)
    shown, rest = found[:most - 1], " ".join(found[most - 1:]).replace("- ", "")
    # A name cut to a letter or two tells nothing (the zoom reads the card): none is shown.
    if any(font.size(line)[0] > width for line in shown) or (
            font.size(rest[:3] + "…")[0] > width):
        return size, []
    return size, [*shown, theme.ellipsize(rest, font, width)]


def small_room(w: int, h: int) -> tuple[int, int, int]:
    """The room for a name on a small card `w` by `h`: its width (three pixels a side, so
    "mothers" of "Wise Grand-mothers" fits a 66 px card), its most lines, its height."""
    room = h - 6
    return w - 6, max(1, (room + 3) // (SMALLEST + 3)), room


def width_for(title: str, w: int, h: int, most: int) -> int:
    """How wide a small card `h` px tall stands, from `w` up to `most`, so that its name
    (set as on a small card) reads whole."""
    least = w
    while title and w < most and whole_name(title, *small_room(w, h), SMALLEST) is None:
        w += 4
    return max(least, min(w, most))


def whole_name(title: str, width: int, most: int = 2, height: int | None = None,
               floor: int = theme.TINY - 3) -> tuple[int, list[str]] | None:
    """A card's name set whole as `name_lines` sets it, or None where it cannot be."""
    drops = range(1, theme.TINY - floor + 1)
    tries = [(1, theme.TINY), (2, theme.TINY)] + [(2, theme.TINY - k) for k in drops]
    tries += [(most, theme.TINY - k) for k in (0, *drops)]
    for lines, size in tries:
        found = _name_lines(title, size, width)
        font = theme.font(size, True)
        if len(found) <= min(lines, most) and all(font.size(line)[0] <= width
                                                  for line in found) and (
                height is None or len(found) * (size + 3) - 3 <= height):
            return size, found
    return None


def _name_lines(title: str, size: int, width: int) -> list[str]:
    """`title` broken into lines of `width` px at `size`: at spaces, and a word too long
    for a line after a syllable ("Pachycepha-losaurus"), else where it must."""
    key = (title, size, width)
    found = _NAMES.get(key)
    if found is None:
        font = theme.font(size, True)
        found = []
        for word in title.split():
            if found and font.size(f"{found[-1]} {word}")[0] <= width:
                found[-1] += f" {word}"
                continue
            while font.size(word)[0] > width and len(word) > 4:
                cut = _hyphen_at(word, font, width)
                found.append(word[:cut] + "-")
                word = word[cut:]
            found.append(word)
        if len(_NAMES) >= NAMES_MAX:
            _NAMES.clear()
        _NAMES[key] = found
    return list(found)


NAMES_MAX = 400  # names set for so many (name, size, width) at most, then set afresh
_NAMES: dict[tuple[str, int, int], list[str]] = {}
_VOWELS = frozenset("aeiouyAEIOUY")
_PAIRS = frozenset(("ch", "ph", "th", "sh", "rh", "gh", "ck", "qu"))  # never split


def _hyphen_at(word: str, font: pygame.font.Font, width: int) -> int:
    """Where to break `word` so its first part and a hyphen fit in `width`: the last
    syllable's end that fits (a vowel before one consonant, or between two consonants
    that are not a pair like "ph" and come before a vowel), else the most letters that
    fit; two letters at least on either side."""
    fits = max(2, min(len(word) - 2, theme._longest_fit(word, font, width, "-")))
    for cut in range(fits, 1, -1):
        before, after = word[cut - 1], word[cut]
        nxt = word[cut + 1] if cut + 1 < len(word) else ""
        if before in _VOWELS and after not in _VOWELS and nxt in _VOWELS:
            return cut
        if (before not in _VOWELS and after not in _VOWELS and nxt in _VOWELS
                and any(c in _VOWELS for c in word[:cut])
                and (before + after).lower() not in _PAIRS):
            return cut  # "Mam-moth", and after a cluster too: "Grand-mothers"
    # No such end fits: a pair split before a vowel still reads ("Long-house").
    for cut in range(fits, 1, -1):
        if (word[cut - 1] not in _VOWELS and word[cut] not in _VOWELS and cut + 1 < len(word)
                and word[cut + 1] in _VOWELS and any(c in _VOWELS for c in word[:cut])):
            return cut
    return fits
