"""Tokens told kind by kind ("12 Leaf, 9 Fish, 6 Meat"): a bank of food, a player's food."""

from __future__ import annotations

from typing import Any

import pygame

from ..render import theme
from .choice import item_label


def several(rules: Any, zone: str) -> bool:
    """Whether a zone holds tokens that come in more than one kind."""
    return rules.zones[zone].holds == "tokens" and len(kinds_of(rules, zone)) > 1


def kinds_of(rules: Any, zone: str) -> list[str]:
    """The kinds a zone of tokens holds: those it starts with, else every token of the game,
    in the ruleset's order."""
    start = [kind for kind, _ in rules.zones[zone].start_items]
    return start or [k for k, idef in rules.items.items() if getattr(idef, "type", "") == "token"]


def tally(rules: Any, zone: str, content: list[Any] | dict[str, int]) -> str:
    """How many of each kind a zone holds, every kind it may hold named ("0 Meat" too)."""
    if isinstance(content, dict):
        return str(content.get("size", 0))
    kinds = kinds_of(rules, zone) or sorted({str(e[1]) for e in content if e[1]})
    held = [str(e[1]) for e in content]
    return ", ".join(f"{held.count(k)} {item_label(rules, k)}" for k in kinds)


LINE = 24  # a second line of a count's words


def fitted(words: str, width: int, size: int) -> tuple[int, list[str]]:
    """`words` in `width` px: on one line at `size`, or a little smaller (not below the
    smallest type); else on two lines, broken after a comma ("16 Leaf, 10 Fish," over
    "3 Meat") or else where a word ends."""
    fit = theme.fit_size(words, width, size, bold=True, floor=theme.TINY)
    if theme.font(fit, True).size(words)[0] <= width:
        return fit, [words]
    for each in (size, theme.TINY):
        font = theme.font(each, True)
        lines = [""]
        for part in words.split(", "):
            joined = f"{lines[-1]}, {part}" if lines[-1] else part
            if lines[-1] and font.size(joined + ",")[0] > width:
                lines[-1] += ","
                lines.append(part)
            else:
                lines[-1] = joined
        if len(lines) <= 2 and all(font.size(line)[0] <= width for line in lines):
            return each, lines
    return theme.TINY, theme.wrap(words, theme.font(theme.TINY, True), width)


def count_height(part: Any, look: Any, width: int) -> int:
    """How tall a count of tokens of several kinds stands: its two lines, or more where
    its words are set on two lines each."""
    title, kinds = count_words(part, look)
    return 62 + LINE * (len(fitted(title, width, theme.SMALL)[1]) - 1 +
                        len(fitted(kinds, width, theme.TINY)[1]) - 1)


def count_words(part: Any, look: Any) -> tuple[str, str]:
    """A count of tokens of several kinds: its label and how many in all, and how many of
    each kind."""
    zone = part.spec.zone
    content = look.zone(zone)
    total = int(content["size"]) if isinstance(content, dict) else len(content)
    return f"{part.label}: {total}", tally(part.rules, zone, content)


def draw_count(part: Any, canvas: pygame.Surface, rect: pygame.Rect, look: Any) -> None:
    """A shared zone of tokens of several kinds: its label and how many in all, then how
    many of each kind on the line below (a player's own are told in their area)."""
    title, kinds = count_words(part, look)
    y = rect.y + 18
    for words, size, colour in ((title, theme.SMALL, theme.PARCHMENT),
                                (kinds, theme.TINY, theme.GOLD_LIGHT)):
        size, lines = fitted(words, rect.w - 12, size)
        for line in lines:
            line = theme.ellipsize(line, theme.font(size, True), rect.w - 12)
            theme.text(canvas, line, (rect.x + 6, y), size, colour, bold=True,
                       anchor="midleft", tight=True)
            y += LINE
        y += 26 - LINE  # the kinds a little apart from the title
