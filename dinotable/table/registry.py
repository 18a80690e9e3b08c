"""The one registry of what stands on the table, living with it.

Every kind of part registers here the same way (`register`): the frame (header, players,
log...), the dice table (tray, cup, areas...), and the kinds that show a zone or board of
the ruleset, each under the layout's `show:` it answers to (hand, pile, row, players, grid,
track, count). They are drawn layer by layer (`Part.layer`), in the order they registered.
`build_parts` asks each kind which parts the ruleset's layout wants, and `kind_for` finds
the kind a layout's `show:` names, so the table scene names none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from .host import PartHost
    from .part import Part
    from .widgets import ZonePart

PARTS: list[type[Part]] = []  # every part kind, in the order it registered

P = TypeVar("P", bound="type[Part]")


def register(cls: P) -> P:
    """Add a part kind to the table (drawn after those of its layer before it)."""
    PARTS.append(cls)
    return cls


def kind_for(show: str) -> type[ZonePart]:
    """The part kind that shows a zone or board as the layout's `show:` names it."""
    load()
    from .widgets import ZonePart

    for kind in PARTS:
        if kind.kind == show and issubclass(kind, ZonePart):
            return kind
    raise KeyError(f"no part kind shows {show!r}")


def load() -> None:
    """Load every module whose part kinds register as they load."""
    from . import boards, chrome, counts, dice_parts, side_parts  # noqa: F401


def build_parts(host: PartHost) -> list[Part]:
    """Every part the table's layout asks for, in drawing order. The kinds that show zones
    and boards build together, when the first of them is asked: their parts stand in the
    layout's order, which is the order they are stacked in."""
    load()
    kinds = sorted(PARTS, key=lambda kind: kind.layer)  # stable: registration order within
    out: list[Part] = []
    for n, kind in enumerate(kinds):
        if kind.kind and any(earlier.kind for earlier in kinds[:n]):
            continue  # built with the first kind that shows a zone or board
        out += kind.build(host)
    return out
