"""A round's named phases (`round: {phases: ...}`) and the `phase:` an action is played in."""

from __future__ import annotations

from typing import Any

from ..engine.compiler import EffectCompiler
from ..engine.effects import _unknown
from ..engine.model import PhaseDef
from .problems import Path, check_keys
from .reader import SectionReader

PHASE_KEYS = {"mode", "start", "end", "first", "again"}
MODES = ("each_once", "until_ended")


def read_phases(reader: SectionReader, raw: Any, compiler: EffectCompiler, round_mode: str
                ) -> tuple[PhaseDef, ...]:
    """The phases of `round.phases`, in the order written; each phase's `mode` defaults to
    the round's."""
    if raw is None:
        return ()
    base: Path = ("round", "phases")
    if not isinstance(raw, dict) or not raw:
        reader.report(base, "expected a mapping of phase names to their settings, e.g. "
                            "phases: {bid: {}, tricks: {again: \"size(hand) > 0\"}}")
        return ()
    out: list[PhaseDef] = []
    for name, spec in raw.items():
        path = (*base, name)
        if not reader.ident(name, path, "phase name"):
            continue
        if spec is None:
            spec = {}
        if not isinstance(spec, dict):
            reader.report(path, "expected the phase's settings: a mapping of "
                                + ", ".join(sorted(PHASE_KEYS)) + " (or {})")
            continue
        check_keys(reader.report, spec, PHASE_KEYS, path, "key of a phase")
        mode = reader.choice(spec.get("mode"), (*path, "mode"), MODES, round_mode)
        first = None
        if "first" in spec:
            first = compiler.expr(spec["first"], (*path, "first"))
            if first is not None and not compiler.typed(first, "player", (*path, "first"),
                                                        "a phase's `first`"):
                first = None
        again = None
        if "again" in spec:
            again = compiler.condition(spec["again"], (*path, "again"))
        out.append(PhaseDef(str(name), mode,
                            compiler.effects(spec.get("start"), (*path, "start")),
                            compiler.effects(spec.get("end"), (*path, "end")),
                            first, again))
    return tuple(out)


def phase_condition(reader: SectionReader, raw: Any, path: Path, phases: list[str]
                    ) -> str | None:
    """An action's `phase: NAME` (or a list of names) as a condition on the `phase`
    constant; None (reported) when it names no phase of the round."""
    names = [raw] if isinstance(raw, str) else raw
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        reader.report(path, "expected a phase name or a list of phase names")
        return None
    if not phases:
        reader.report(path, "the round has no phases: list them under round.phases, or "
                            "leave out the action's `phase`")
        return None
    ok = True
    for i, name in enumerate(names):
        if name not in phases:
            reader.report(path if isinstance(raw, str) else (*path, i),
                          _unknown("phase", name, list(phases)))
            ok = False
    if not ok:
        return None
    return "(" + " or ".join(f"phase == {n!r}" for n in names) + ")"


def end_phase_at(raw: Any, path: Path = ()) -> Path | None:
    """Where an `end_phase` effect is written in the ruleset, if anywhere."""
    if isinstance(raw, dict):
        if "end_phase" in raw:
            return (*path, "end_phase")
        items: Any = raw.items()
    elif isinstance(raw, list):
        items = enumerate(raw)
    else:
        return None
    for key, value in items:
        found = end_phase_at(value, (*path, key))
        if found is not None:
            return found
    return None
