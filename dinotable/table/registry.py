"""The one registry of what stands on the table, living with it.

Every kind of part registers here, in drawing order (`register`): the frame (header,
players, log...), the dice table (tray, cup, areas...) and the card part, which shows each
zone or board through the widget kind its layout entry names (`register_widget`: hand,
pile, row, players, grid, track, count). `build_parts` asks each kind which parts the
ruleset's layout wants, so the table scene names none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from .host import PartHost
    from .part import Part
    from .widgets import Widget

PARTS: list[type[Part]] = []  # part kinds, in drawing order
WIDGETS: dict[str, type[Widget]] = {}  # how a card part shows a zone or board, by layout name

P = TypeVar("P", bound="type[Part]")
W = TypeVar("W", bound="type[Widget]")


def register(cls: P) -> P:
    """Add a part kind to the table, in drawing order."""
    PARTS.append(cls)
    return cls


def register_widget(cls: W) -> W:
    """Add a widget kind under its layout name (`show: hand`)."""
    WIDGETS[cls.kind] = cls
    return cls


def build_parts(host: PartHost) -> list[Part]:
    """Every part the table's layout asks for, in drawing order."""
    from . import chrome, dice_parts  # noqa: F401  (their parts register as they load)

    return [part for kind in PARTS for part in kind.build(host)]
