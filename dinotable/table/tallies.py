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


def draw_count(part: Any, canvas: pygame.Surface, rect: pygame.Rect, look: Any) -> None:
    """A shared zone of tokens of several kinds: its label and how many in all, then how
    many of each kind on the line below (a player's own are told in their area)."""
    zone = part.spec.zone
    content = look.zone(zone)
    total = int(content["size"]) if isinstance(content, dict) else len(content)
    line = theme.ellipsize(f"{part.label}: {total}", theme.font(theme.SMALL, True),
                           rect.w - 12)
    theme.text(canvas, line, (rect.x + 6, rect.y + 18), theme.SMALL, theme.PARCHMENT,
               bold=True, anchor="midleft", tight=True)
    kinds = theme.ellipsize(tally(part.rules, zone, content), theme.font(theme.TINY, True),
                            rect.w - 12)
    theme.text(canvas, kinds, (rect.x + 6, rect.y + 44), theme.TINY, theme.GOLD_LIGHT,
               bold=True, anchor="midleft", tight=True)
