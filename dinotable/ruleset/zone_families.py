"""Zone families: a zone declared with `keys` is one ordinary zone per key.

`game: {holds: dice, keys: {from: 1, to: 5}, label: "Game stack {key}"}` makes the zones
`game_1` .. `game_5`, in key order at the family's place among the zones, each with every
other setting of the family (`{key}` in the label filled in). They are expanded before the
zones are read, so everything downstream (scenarios, state paths, the layout, the table)
sees plain zones; expressions name one as `game[3]` or `game[$stack]` (see expr.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.expr import zone_id
from .families import expand_section
from .problems import Path, Reporter
from .reader import _ID, _shown

FAMILY_KEY = "keys"
_PLACEHOLDER = "{key}"


def expand_zone_families(raw: Any, read_keys: Callable[[Any, Path], tuple[Any, ...] | None],
                         report: Reporter) -> tuple[Any, dict[str, tuple[Any, ...]]]:
    """`zones:` with each family replaced, in place, by its zones; and each family's keys.

    `read_keys` reads a list of keys as an indexed variable's are read (a list or
    `{from: LO, to: HI}`). A family whose keys are wrong makes no zones; a zone it makes
    whose name is already a zone's is left out (the zone written out stands)."""
    families: dict[str, tuple[Any, ...]] = {}

    def expand(name: str, spec: dict[str, Any]) -> dict[str, Any]:
        expanded = _expand(name, spec, read_keys, report)
        if expanded is None:
            return {}
        # The family stands even after a problem with a zone it makes, so that what names
        # its zones is not reported too.
        families[name], zones = expanded
        return zones

    out, _ = expand_section(raw, FAMILY_KEY, "zones", "zone", expand, report)
    return out, families


def _expand(name: str, spec: dict[str, Any],
            read_keys: Callable[[Any, Path], tuple[Any, ...] | None],
            report: Reporter) -> tuple[tuple[Any, ...], dict[str, dict[str, Any]]] | None:
    """The keys of one family and the zones it makes, by name; None after a problem
    (reported)."""
    path: Path = ("zones", name)
    keys = read_keys(spec[FAMILY_KEY], (*path, FAMILY_KEY))
    if keys is None:
        return None
    for i, key in enumerate(keys):
        if not (type(key) is int and key >= 0) and not (type(key) is str and _ID.match(key)):
            report((*path, FAMILY_KEY, i), f"a key of a zone family is a whole number from 0 "
                                           f"or a lower_snake_case name (it is part of each "
                                           f"zone's name), not {_shown(key)}")
            return None
    common = {k: v for k, v in spec.items() if k != FAMILY_KEY}
    if spec.get("start") == "all":
        report((*path, "start"), "start: all puts every copy in one zone; each zone of a "
                                 "family starts the same, so name the kinds and counts "
                                 "(or start the family empty and deal)")
        del common["start"]
    label = spec.get("label")
    if isinstance(label, str) and "{" in label.replace(_PLACEHOLDER, ""):
        report((*path, "label"), f"the label of a zone family fills in {_PLACEHOLDER} only "
                                 f"(the zone's key), e.g. \"Stack {_PLACEHOLDER}\"")
        label = None
    out: dict[str, dict[str, Any]] = {}
    for key in keys:
        zone = {**common}
        if isinstance(label, str):
            zone["label"] = label.replace(_PLACEHOLDER, str(key))
        out[zone_id(name, key)] = zone
    return keys, out
