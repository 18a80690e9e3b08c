"""Argument domains: where an action's arguments come from, so every choice is enumerable."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .expr import Ctx

Values = Callable[[Ctx], list[Any]]


@dataclass(frozen=True)
class DomainSpec:
    """A registered argument domain."""

    name: str
    doc: str
    example: str
    params: tuple[str, ...]  # parameter names; `zone` params take a zone name
    is_player: bool
    build: Callable[..., Values] = field(repr=False)


DOMAINS: dict[str, DomainSpec] = {}


def domain(name: str, doc: str, example: str, params: tuple[str, ...] = (),
           is_player: bool = False) -> Callable[[Callable[..., Values]], Callable[..., Values]]:
    """Register an argument domain."""

    def register(build: Callable[..., Values]) -> Callable[..., Values]:
        DOMAINS[name] = DomainSpec(name, doc, example, params, is_player, build)
        return build

    return register


@domain("player", "Any player still in the game.", "target: player", is_player=True)
def _player() -> Values:
    return lambda c: [s for s in range(len(c.state.players)) if c.state.active[s]]


@domain("other_player", "Any player still in the game other than the one acting.",
        "from: other_player", is_player=True)
def _other_player() -> Values:
    return lambda c: [s for s in range(len(c.state.players)) if s != c.seat and c.state.active[s]]


@domain("other_player_with", "Another player whose own copy of a zone is not empty.",
        "from: {domain: other_player_with, zone: kept}", ("zone",), is_player=True)
def _other_player_with(zone: str) -> Values:
    return lambda c: [s for s in range(len(c.state.players))
                      if s != c.seat and c.state.active[s] and c.state.zones[zone][s]]


@domain("item_in", "The id of any item in a zone (the acting player's own, for a per-player "
        "zone).", "card: {domain: item_in, zone: hand}", ("zone",))
def _item_in(zone: str) -> Values:
    return lambda c: [c.state.items[i].id for i in c.state.zone(zone, c.seat)]


@domain("choice", "One of a fixed list of values.", "colour: {domain: choice, values: [red, blue]}",
        ("values",))
def _choice(values: list[Any]) -> Values:
    fixed = list(values)
    return lambda c: fixed
