"""Reading the argument domains of dice named by faces (`faces_of`) and of the tops of
several stacks (`top_of`): their zones and their compiled tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.compiler import EffectCompiler
from ..engine.domains import DOMAINS, listed_by, passing
from ..engine.effects import _unknown
from ..engine.expr import Compiled, Ctx, Scope, family_members
from ..engine.model import ArgDef
from ..engine.multisets import FACES_OPTIONAL, FacesOf
from ..engine.stacks import TopOf
from .problems import Path

if TYPE_CHECKING:
    from .actions import ActionsReader


def _zone(reader: ActionsReader, value: Any, path: Path, scope: Scope) -> str | None:
    known = scope.zones | scope.player_zones
    if not isinstance(value, str) or value not in known:
        reader.report(path, _unknown("zone", str(value), sorted(known)))
        return None
    return value


def _expr(reader: ActionsReader, raw: Any, path: Path, scope: Scope, extra: set[str]
          ) -> Compiled | None:
    """An expression of the argument, with `extra` ($face, the argument itself) readable."""
    kscope = Scope(**{**scope.__dict__, "args": scope.args | extra})
    return EffectCompiler(kscope, reader.report, {}).expr(raw, path)


def faces_of(reader: ActionsReader, name: str, spec: dict[str, Any], path: Path,
             scope: Scope) -> ArgDef | None:
    """A `faces_of` argument: a zone of dice, count bounds, a test per face and a whole one."""
    if "zone" not in spec:
        reader.report(path, "faces_of needs `zone`: the dice whose faces are chosen, e.g. "
                            "{domain: faces_of, zone: tray}")
        return None
    zone = _zone(reader, spec["zone"], (*path, "zone"), scope)
    compiled: dict[str, Compiled | None] = dict.fromkeys(FACES_OPTIONAL)
    ok = zone is not None
    for key in FACES_OPTIONAL:
        if key in spec:
            extra = {"where": {"face"}, "test": {name}}.get(key, set())
            compiled[key] = _expr(reader, spec[key], (*path, key), scope, extra)
            ok = ok and compiled[key] is not None
    if not ok or zone is None:
        return None
    domain = FacesOf(name, zone, compiled["min"], compiled["max"], compiled["where"],
                     compiled["test"])
    return ArgDef(name, "faces_of", domain.values)


def _listed(reader: ActionsReader, spec: dict[str, Any], key: str, path: Path,
            words: str) -> list[Any] | None:
    """An argument's list that must not be empty (reported at its line, or the argument's
    when it is missing); None when it is not there."""
    raw = spec.get(key)
    if not isinstance(raw, list) or not raw:
        reader.report((*path, key) if key in spec else path, words)
        return None
    return raw


def top_of(reader: ActionsReader, name: str, spec: dict[str, Any], path: Path,
           scope: Scope) -> ArgDef | None:
    """A `top_of` argument: the zones (stacks) whose top items are offered, and `where`."""
    raw = _listed(reader, spec, "zones", path,
                  "top_of needs `zones`: a list of the stacks, e.g. [stack_1, stack_2]")
    if raw is None:
        return None
    zones = [_zone(reader, z, (*path, "zones", i), scope) for i, named in enumerate(raw)
             for z in family_members(named, scope.zone_families)]
    where = None
    if "where" in spec:
        where = _expr(reader, spec["where"], (*path, "where"), scope, {"kind"})
        if where is None:
            return None
    if any(z is None for z in zones):
        return None
    return ArgDef(name, "top_of", TopOf(tuple(z for z in zones if z is not None), where).values)


def _bound(reader: ActionsReader, spec: dict[str, Any], key: str, path: Path, scope: Scope
           ) -> Compiled | None:
    """One end of a `choice` range: a whole number or an expression giving one."""
    raw = spec[key]
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        reader.report((*path, key), f"`{key}` must be a whole number or an expression "
                                    "giving one, e.g. 1 or \"total(size(cup))\"")
        return None
    compiler = EffectCompiler(scope, reader.report, {})
    made = compiler.expr(raw, (*path, key))
    if made is None or not compiler.typed(made, "number", (*path, key), f"`{key}`"):
        return None
    return made


def _range(reader: ActionsReader, spec: dict[str, Any], path: Path, scope: Scope
           ) -> Callable[[Ctx], list[Any]] | None:
    """The values of a `choice` range: every whole number from `from` to `to`, both worked
    out when the action is listed (none when `to` is below `from`)."""
    if "values" in spec:
        reader.report((*path, "values"), "a choice has either `values` (a list) or `from` "
                                         "and `to` (a range), not both")
        return None
    missing = [k for k in ("from", "to") if k not in spec]
    if missing:
        reader.report(path, f"a choice range needs `{missing[0]}` too: "
                            "{domain: choice, from: 1, to: \"total(size(cup))\"}")
        return None
    low = _bound(reader, spec, "from", path, scope)
    high = _bound(reader, spec, "to", path, scope)
    if low is None or high is None:
        return None
    lo, hi = low, high
    return lambda c: list(range(int(lo(c)), int(hi(c)) + 1))


def choice(reader: ActionsReader, name: str, spec: dict[str, Any], path: Path,
           scope: Scope) -> ArgDef | None:
    """A `choice` argument: its fixed values or a range of whole numbers, maybe only those
    passing `where` ($value)."""
    values: Callable[[Ctx], list[Any]] | None
    if "from" in spec or "to" in spec:
        values = _range(reader, spec, path, scope)
        if values is None:
            return None
    else:
        listed = _listed(reader, spec, "values", path,
                         "expected a list of values, e.g. [red, blue], or a range, "
                         "e.g. from: 1, to: 6")
        if listed is None:
            return None
        fixed = list(listed)
        values = lambda c: fixed  # noqa: E731
    if "where" not in spec:
        return ArgDef(name, "choice", listed_by(values, values, None, "value"))
    where = _expr(reader, spec["where"], (*path, "where"), scope, {"value"})
    if where is None:
        return None
    found = values
    return ArgDef(name, "choice", listed_by(lambda c: passing(c, found(c), "value", where),
                                            found, where, "value"))


def _players(dname: str) -> Any:
    """The parser of a player domain that takes a `where` ($player is the seat tested)."""
    def parse(reader: ActionsReader, name: str, spec: dict[str, Any], path: Path,
              scope: Scope) -> ArgDef | None:
        seats = DOMAINS[dname].build()
        if "where" not in spec:
            return ArgDef(name, dname, listed_by(seats, seats, None, "player"), True)
        typed = Scope(**{**scope.__dict__, "types": {**scope.types, "$player": "player"}})
        where = _expr(reader, spec["where"], (*path, "where"), typed, {"player"})
        if where is None:
            return None
        return ArgDef(name, dname, listed_by(lambda c: passing(c, seats(c), "player", where),
                                             seats, where, "player"), True)

    return parse


PARSERS = {"faces_of": faces_of, "top_of": top_of, "choice": choice,
           "player": _players("player"), "other_player": _players("other_player")}
