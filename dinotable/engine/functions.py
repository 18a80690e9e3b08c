"""The expression function library: size, count, kinds, highest, lowest, total, of, min,
max, left_of, name, count_in, face_of, length, team_total, team_of.

Each is registered in `expr.FUNCTIONS` on import, with a called form (`build`) and, for
the common ones, an inline form whose source is spliced into generated code. Functions of
other mechanics live with them (items.py, boards.py, picks.py, patterns.py, odds.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from .expr import Compiled, Ctx, ZoneName, declare_types, for_seat, function
from .registry import INLINE_HELPERS
from .state import GameState


def _size_source(zone: ZoneName, player: str | None = None) -> str:
    return f"len({zone.source(player)})"


@function("size", ("zone", "player"), "Number of items in a zone (a player's own zone: "
          "the seat in scope, or the player given).", "size(cup)", optional=1,
          inline=_size_source)
def _size(zone: ZoneName, player: Compiled | None = None) -> Compiled:
    get = zone.items(player)
    return lambda c: len(get(c))


@function("count", ("zone", "face"), "Items in a zone showing a face.", "count(hand, leaves)",
          inline=lambda zone, face: f"sum(1 for _i in {zone.source()} "
                                    f"if st.items[_i].face == {face!r})")
def _count(zone: ZoneName, face: str) -> Compiled:
    get = zone.items()
    return lambda c: sum(1 for i in get(c) if c.state.items[i].face == face)


@function("kinds", ("zone", "kind"), "Items of one kind in a zone.", "kinds(cup, red)",
          inline=lambda zone, kind: f"sum(1 for _i in {zone.source()} "
                                    f"if st.items[_i].kind == {kind!r})")
def _kinds(zone: ZoneName, kind: str) -> Compiled:
    get = zone.items()
    return lambda c: sum(1 for i in get(c) if c.state.items[i].kind == kind)


_PLAYER_VAR = re.compile(r"^st\.player_vars\[c\.seat\]\[('[a-z0-9_]+')\]$")


def _over_players_source(reduce: str, inner: str) -> str:
    """Source for a reduction of an expression over every player."""
    plain = _PLAYER_VAR.match(inner)
    if plain:  # a bare player variable: read it straight from every player's table (a
        # getter mapped over the tables makes no function and no list, as a comprehension would)
        return f"{reduce}(map(_itemgetter({plain.group(1)}), st.player_vars))"
    return f"_over_players(c, lambda c: {inner}, {reduce})"


def over_players(c: Ctx, inner: Compiled, reduce: Callable[[list[Any]], Any]) -> Any:
    """`reduce` of `inner` read with each seat in scope in turn; the scope put back after."""
    saved = c.seat
    try:
        return reduce([inner(c) for c.seat in range(len(c.state.players))])
    finally:
        c.seat = saved


INLINE_HELPERS["_over_players"] = over_players
INLINE_HELPERS["_itemgetter"] = itemgetter


def _over_players(reduce: Callable[[list[Any]], Any], inner: Compiled) -> Compiled:
    return lambda c: reduce([for_seat(c, s, inner) for s in range(len(c.state.players))])


@function("highest", ("expr",), "The largest value of an expression over every player.",
          "highest(banked)", inline=lambda inner: _over_players_source("max", inner))
def _highest(inner: Compiled) -> Compiled:
    return _over_players(max, inner)


@function("lowest", ("expr",), "The smallest value of an expression over every player.",
          "lowest(banked)", inline=lambda inner: _over_players_source("min", inner))
def _lowest(inner: Compiled) -> Compiled:
    return _over_players(min, inner)


@function("total", ("expr",), "The sum of an expression over every player.", "total(stones)",
          inline=lambda inner: _over_players_source("sum", inner))
def _total(inner: Compiled) -> Compiled:
    return _over_players(sum, inner)


@function("of", ("expr", "player"), "An expression evaluated for another player.",
          "of(stones, $from)")
def _of(inner: Compiled, player: Compiled) -> Compiled:
    return lambda c: for_seat(c, player(c), inner)


@function("min", ("expr",), "The smallest of its arguments.", "min(3, size(cup))", varargs=True,
          inline=lambda *parts: f"min({', '.join(parts)})" if len(parts) > 1 else parts[0])
def _min(*parts: Compiled) -> Compiled:
    return lambda c: min(p(c) for p in parts)


@function("max", ("expr",), "The largest of its arguments.", "max(0, 3 - size(hand))",
          varargs=True,
          inline=lambda *parts: f"max({', '.join(parts)})" if len(parts) > 1 else parts[0])
def _max(*parts: Compiled) -> Compiled:
    return lambda c: max(p(c) for p in parts)


@function("left_of", ("player",), "The next seat clockwise from a player.", "left_of(current)",
          inline=lambda player: f"(({player}) + 1) % len(st.players)")
def _left_of(player: Compiled) -> Compiled:
    return lambda c: (player(c) + 1) % len(c.state.players)


@function("name", ("player",), "A player's name, for words on the table.", "name($from)",
          inline=lambda player: f"st.players[{player}]")
def _name(player: Compiled) -> Compiled:
    return lambda c: c.state.players[player(c)]


def count_showing(state: GameState, chosen: Any, face: Any) -> int:
    """How many of `chosen` (item ids, or faces themselves) show `face`, each id once."""
    # Each id is looked up, not every item of the game read: a reroll's choices are
    # scored this way by the dozen in every move a bot weighs.
    items, index = state.items, state.item_ids
    found = 0
    seen: set[Any] | None = None  # an item named twice counts once
    for value in chosen:
        n = index.get(value)
        if n is None:
            # No item's id: a face itself, as a faces_of choice names them (one per die,
            # so repeats count).
            found += value == face
        elif items[n].face == face:
            if seen is None:
                seen = {value}
            elif value in seen:
                continue
            else:
                seen.add(value)
            found += 1
    return found


INLINE_HELPERS["_count_showing"] = count_showing


@function("count_in", ("expr", "face"), "How many of a list of items (such as a subset "
          "argument) or of faces (a faces_of argument) show a face.", "count_in($dice, wood)",
          inline=lambda chosen, face: f"_count_showing(st, {chosen}, {face!r})")
def _count_in(chosen: Compiled, face: Any) -> Compiled:
    return lambda c: count_showing(c.state, chosen(c), face)


@function("face_of", ("expr",), "The face an item (given by its id) shows; '' if none.",
          "face_of($item)")
def _face_of(item: Compiled) -> Compiled:
    def run(c: Ctx) -> str:
        wanted = item(c)
        for it in c.state.items:
            if it.id == wanted:
                return it.face or ""
        return ""

    return run


@function("length", ("expr",), "How many values a list holds (such as a subset argument).",
          "length($dice)")
def _length(chosen: Compiled) -> Compiled:
    return lambda c: len(chosen(c))


def _team_seats(c: Ctx, seat: int) -> list[int]:
    teams = c.state.rules.teams
    if not teams:
        return [seat]
    return [s for s in range(len(c.state.players)) if s % teams == seat % teams]


@function("team_total", ("expr",), "The sum of an expression over the players of the seat "
          "in scope's team (just that seat without teams).", "team_total(points)")
def _team_total(inner: Compiled) -> Compiled:
    return lambda c: sum(for_seat(c, s, inner) for s in _team_seats(c, c.seat))


@function("team_of", ("player",), "The team a player plays for.", "team_of(current)")
def _team_of(player: Compiled) -> Compiled:
    def run(c: Ctx) -> int:
        seat = int(player(c))
        return seat % c.state.rules.teams if c.state.rules.teams else seat

    return run


for _fname, _returns, _args in (
        ("size", "number", ("any", "player")), ("count", "number", ()), ("kinds", "number", ()),
        ("highest", "same", ()), ("lowest", "same", ()), ("total", "number", ("number",)),
        ("of", "same", ("any", "player")), ("min", "same", ()), ("max", "same", ()),
        ("left_of", "player", ("player",)), ("name", "text", ("player",))):
    declare_types(_fname, _returns, _args)
