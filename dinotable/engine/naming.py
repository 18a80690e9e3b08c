"""What generated code names: fresh names for values it holds (`bind`), the local through
which it reads a table zone (`zone_local`), and the zones, boards, zone families and indexed
variables an expression names bare where a function takes one (`ZoneName` and its kin).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from .indexed import keys_text

if TYPE_CHECKING:
    from .expr import Compiled, Ctx

_counter = itertools.count()


def bind(namespace: dict[str, Any], value: Any, hint: str = "b") -> str:
    """Put a value into a generated code namespace under a fresh name; return the name."""
    name = f"_{hint}{next(_counter)}"
    namespace[name] = value
    return name


class TableZone:
    """A table zone (one list for everyone) that generated code reads through a local
    name: code that uses it puts `zone_local(ns, name)` in its source, and the function
    it ends up in binds the local once at its start (`prologue`). A zone's list is never
    replaced while a function runs, only changed in place."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


def zone_local(namespace: dict[str, Any], zone: str) -> str:
    """The local name of a table zone's item list in generated code (see `TableZone`)."""
    if not zone.isidentifier():
        return f"st.zones[{zone!r}][0]"
    local = f"_zone_{zone}"
    namespace[local] = TableZone(zone)
    return local


@dataclass(frozen=True)
class IndexedName:
    """An indexed variable named whole in a call (`keys(height)`), with its keys."""

    name: str
    keys: tuple[Any, ...]


# --- zones named in expressions -------------------------------------------

@dataclass(frozen=True)
class ZoneName:
    """A zone named in an expression, and whether each player has their own."""

    name: str
    per_player: bool
    # The compiled expression's namespace: a table zone is read through a local there.
    namespace: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def source(self, player: str | None = None) -> str:
        """Python source for the zone's item list (the seat in scope's, or `player`'s)."""
        if not self.per_player:
            if self.namespace is not None:
                return zone_local(self.namespace, self.name)
            return f"st.zones[{self.name!r}][0]"
        return f"st.zones[{self.name!r}][{player or 'c.seat'}]"

    def items(self, player: Compiled | None = None) -> Callable[[Ctx], list[int]]:
        """A closure giving the zone's item list."""
        name = self.name
        if not self.per_player:
            return lambda c: c.state.zones[name][0]
        if player is None:
            return lambda c: c.state.zones[name][c.seat]
        who = player
        return lambda c: c.state.zones[name][who(c)]


class BoardItems(ZoneName):
    """A board named where a zone is expected: the items on all its spaces, space by space
    (on a board each player has, the seat in scope's or `player`'s)."""

    def source(self, player: str | None = None) -> str:
        board = f"st.rules.boards[{self.name!r}]"
        seat = f"(({player or 'c.seat'}) if {board}.per_player else 0)"
        return (f"[_bi for _bs in {board}.spaces "
                f"for _bi in st.zones[{self.name + '@'!r} + _bs][{seat}]]")

    def items(self, player: Compiled | None = None) -> Callable[[Ctx], list[int]]:
        name = self.name

        def get(c: Ctx) -> list[int]:
            board = c.state.rules.boards[name]
            seat = (c.seat if player is None else player(c)) if board.per_player else 0
            zones = c.state.zones
            return [i for space in board.spaces for i in zones[f"{name}@{space}"][seat]]

        return get


def zone_id(family: str, key: Any) -> str:
    """The zone a family makes for a key: its name and the key joined by `_` (`game_3`),
    as a generated family of item kinds names its kinds."""
    return f"{family}_{key}"


def family_members(name: Any, families: Mapping[str, tuple[Any, ...]]) -> list[Any]:
    """A name in a list of zones: a zone family's name stands for all its zones, in key
    order; any other name for itself."""
    if isinstance(name, str) and name in families:
        return [zone_id(name, k) for k in families[name]]
    return [name]


class FamilyZones(dict[Any, Any]):
    """A zone family's zones by key (each a zone's name, or what stands for it), read as
    `lookup[KEY]` for a key worked out as the game runs: one outside the family is an
    error naming the family, the key and the keys it has."""

    def __init__(self, family: str, members: dict[Any, Any], per_player: bool) -> None:
        super().__init__(members)
        self.family = family
        self.per_player = per_player

    def __missing__(self, key: Any) -> Any:
        raise ValueError(f"the zone family {self.family} has no key {key!r} (its keys: "
                         f"{keys_text(list(self))})")

    def zone_names(self) -> FamilyZones:
        """The same lookup giving each zone as a `ZoneName`, for a function built with it."""
        return FamilyZones(self.family, {k: ZoneName(z, self.per_player)
                                         for k, z in self.items()}, self.per_player)


@dataclass(frozen=True)
class KeyedZone(ZoneName):
    """`NAME[KEY]` with a computed key where a function takes a zone: the family's zone
    for the key in hand. `name` is the family's (for messages). An inlined function reads
    it through `source`; any other is built for each zone met (see `_Compiler.call`)."""

    zones: FamilyZones = field(default=cast(FamilyZones, None), compare=False, repr=False)
    key_source: str = ""  # Python source for the key

    def source(self, player: str | None = None) -> str:
        name = f"{bind(cast(dict[str, Any], self.namespace), self.zones, 'fz')}[{self.key_source}]"
        return f"st.zones[{name}][{(player or 'c.seat') if self.per_player else 0}]"

    def items(self, player: Compiled | None = None) -> Callable[[Ctx], list[int]]:
        # `name` is the family's, not a zone: a function is built with the zone in hand.
        raise TypeError(f"{self.name}[{self.key_source}] is a zone found as the game runs")
