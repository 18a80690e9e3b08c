"""How the game ends (`end:`) and the heuristic bot's hints (`bots:`)."""

from __future__ import annotations

from typing import Any

from ..engine.compiler import EffectCompiler
from ..engine.effects import _unknown
from ..engine.expr import (
    Compiled,
    Scope,
)
from ..engine.model import (
    ActionDef,
    BotHint,
    EndDef,
)
from ..engine.shared_parts import once_each
from .actions import _with_args
from .problems import check_keys
from .reader import SectionReader

END_KEYS = {"trigger", "finish_round", "last_turns", "ties", "tiebreak"}


TIES = ("shared", "leaders_replay")


class EndingReader(SectionReader):
    """Reads `end:` and `bots:`."""

    def end(self, raw: Any, compiler: EffectCompiler) -> EndDef | None:
        if raw is None and "end" not in self.data:
            return None  # reported once as a missing section
        spec = self.block(raw, ("end",), "trigger and ties", END_KEYS, "key of end")
        if "trigger" not in spec:
            self.report(("end",), "end needs a `trigger` expression")
            return None
        trigger = compiler.condition(spec["trigger"], ("end", "trigger"))
        flags = {}
        for key in ("finish_round", "last_turns"):
            flags[key] = spec.get(key, False)
            if not isinstance(flags[key], bool):
                self.report(("end", key), "expected true or false")
                flags[key] = False
        if flags["finish_round"] and flags["last_turns"]:
            self.report(("end", "last_turns"), "choose one of finish_round and last_turns")
        ties = self.choice(spec.get("ties"), ("end", "ties"), TIES, "shared")
        tiebreaks: list[Compiled] = []
        raw_tb = spec.get("tiebreak")
        for i, item in enumerate(raw_tb if isinstance(raw_tb, list) else
                                 [] if raw_tb is None else [raw_tb]):
            where = ("end", "tiebreak", i) if isinstance(raw_tb, list) else ("end", "tiebreak")
            compiled = compiler.expr(item, where)
            if compiled is not None and not compiler.typed(compiled, "number", where,
                                                           "a tiebreak"):
                return None
            if compiled is not None:
                tiebreaks.append(compiled)
        if trigger is None:
            return None
        return EndDef(trigger, flags["finish_round"], ties,
                      tiebreaks[0] if tiebreaks else None, flags["last_turns"],
                      tuple(tiebreaks))

    def bots(self, raw: Any, actions: dict[str, ActionDef], compiler: EffectCompiler,
             scope: Scope) -> tuple[BotHint, ...]:
        hints: list[BotHint] = []
        spec = self.block(raw, ("bots",), "policy hints", {"heuristic"}, "bot policy")
        rules = spec.get("heuristic") or []
        if not isinstance(rules, list):
            self.report(("bots", "heuristic"), "expected a list of {action, when} preferences")
            return ()
        for i, rule in enumerate(rules):
            path = ("bots", "heuristic", i)
            if not isinstance(rule, dict) or "action" not in rule:
                self.report(path, "expected {action: ID, when: EXPR}")
                continue
            check_keys(self.report, rule, {"action", "when", "best"}, path,
                        "key of a preference")
            adef = actions.get(str(rule["action"]))
            if adef is None:
                self.report((*path, "action"), _unknown("action", str(rule["action"]),
                                                        list(actions)))
                continue
            when = (compiler.condition(rule["when"], (*path, "when")) if "when" in rule
                    else None)
            best = None
            if "best" in rule:
                # `best` scores each choice of the action's arguments: the bot takes the top.
                ascope = _with_args(scope, list(adef.args), None)
                best = compiler.expr(rule["best"], (*path, "best"), ascope)
            # Read for every option of every move a bot weighs: a call a preference
            # repeats is worked out once (shared_parts.py).
            hints.append(BotHint(adef.id, once_each(when), once_each(best)))
        return tuple(hints)
