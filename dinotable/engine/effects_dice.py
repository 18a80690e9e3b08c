"""Dice effects: roll, move_faces."""

from __future__ import annotations

from typing import Any

from .codegen import Piece, ZoneRef, face_moves, generate
from .effects import Param, effect
from .expr import (
    source_of,
)
from .model import Effect
from .rollorder import roll_order
from .state import Event


def _emit_roll(p: dict[str, Any]) -> Piece:
    zone: ZoneRef = p["zone"]
    ns: dict[str, Any] = {"_Event": Event, "_roll_order": roll_order}
    only = p.get("items")
    pick = [] if only is None else [
        # Only the chosen dice (a subset argument: their ids) are rolled again.
        f"_sel = set({source_of(only, ns)})",
        "_z = [_i for _i in _z if st.items[_i].id in _sel]"]
    return Piece([
        f"_z = {zone.source(ns)}",
        *pick,
        "_ch = st.chance",
        "_items = st.items",
        "_dice = st.rules.dice",
        "if _ch.forced:",
        # Forced outcomes go to dice re-rolled first, in the order last rolled, then to
        # newly drawn ones (the scenario spec); seeded rolls keep zone order, so a saved
        # game replays as it was played.
        f"    for _i in _roll_order(st, {zone.source(ns)}, _z):",
        "        _it = _items[_i]",
        "        _f = _dice[_it.kind].faces",
        "        _it.face = _f[_ch.pick_index('rolling ' + _it.id, [(x,) for x in _f])]",
        "else:",
        "    _r = _ch.random",
        "    for _i in _z:",
        "        _it = _items[_i]",
        "        _f = _dice[_it.kind].faces",
        "        _it.face = _f[int(_r() * len(_f))]",
        "if c.events is not None:",
        f"    c.events.append(_Event('rolled', c.seat, {{'zone': {zone.name!r}, 'owner': "
        f"{zone.owner_source(ns)}, 'dice': "
        "[(_items[_i].id, _items[_i].kind, _items[_i].face) for _i in _z]}))",
    ], ns, rolled=zone if only is None else None)


@effect("roll", "Roll every die in a zone; each shows a face chosen by chance. With "
        "`items`, only those dice (a list of ids, such as a subset argument) are rolled.",
        "roll: {zone: hand}", {"zone": Param("zone", "the dice to roll"),
                               "items": Param("expr", "only these dice (a list of ids)",
                                              required=False)},
        shorthand="zone", emit=_emit_roll)
def _roll(p: dict[str, Any]) -> Effect:
    return generate([_emit_roll(p)])


def _emit_move_faces(p: dict[str, Any]) -> Piece:
    return face_moves(p["from"], [(p["face"], p["to"])])



@effect("move_faces", "Move the dice in a zone that show a face to another zone, in order.",
        "move_faces: {from: hand, face: dino, to: caught}",
        {"from": Param("zone", "where the dice are"), "face": Param("face", "the face to pick"),
         "to": Param("zone", "where they go")}, emit=_emit_move_faces)
def _move_faces(p: dict[str, Any]) -> Effect:
    return generate([_emit_move_faces(p)])
