"""Actions and their arguments: who may take each, when, with what choices, to what effect."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..engine.boards import kind_on_domain, space_domain
from ..engine.codegen import Template
from ..engine.compiler import EffectCompiler
from ..engine.decide import PASS
from ..engine.domains import DOMAINS, SUBSET_OPTIONAL, Subset
from ..engine.effects import _unknown
from ..engine.expr import (
    Compiled,
    Scope,
)
from ..engine.exprtypes import type_of_value
from ..engine.model import (
    ActionDef,
    ArgDef,
    OptionDef,
)
from .arguments import argument_in_when
from .domain_args import PARSERS
from .phases import phase_condition
from .problems import Path, check_keys
from .reader import Section, SectionReader
from .variant_keys import check_when, options_condition, read_applies_when

ACTION_KEYS = {"label", "key", "when", "why_not", "args", "effects", "by", "help", "windows",
               "applies_when", "phase", "says"}


BY = ("current", "any", "window")
# Nobody is ever asked to act on another player's turn except by a response window: a
# ruleset that wants "any other player, during that turn" opens one (`respond`).
OFF_TURN = ("`by: others` is not a way to play: nobody is asked to act during another "
            "player's turn except in a response window; open one with a `respond` effect in "
            "the action that gives the others their chance, and give this action "
            "`by: window` and `windows: [WINDOW]`")


def _no_effects(c: Any) -> bool:
    return False


def _with_args(scope: Scope, args: list[ArgDef], raw: Any) -> Scope:
    """The scope of an action's expressions: its `$arguments`, typed by their domains."""
    types = dict(scope.types)
    for a in args:
        if a.is_player:
            types["$" + a.name] = "player"
        elif a.domain in ("item_in", "kind_in", "kind_on", "space_of", "top_of"):
            types["$" + a.name] = "text"
        elif a.domain in ("subset_of", "faces_of"):
            types["$" + a.name] = "list"
        elif a.domain == "choice" and isinstance(raw, dict):
            spec = raw.get(a.name)
            if isinstance(spec, dict) and "from" in spec:  # a range: whole numbers
                types["$" + a.name] = "number"
                continue
            values = spec.get("values") if isinstance(spec, dict) else None
            found = {type_of_value(v) for v in values or []}
            if len(found) == 1:
                types["$" + a.name] = found.pop()
    return Scope(**{**scope.__dict__, "args": frozenset(a.name for a in args), "types": types})

ACTIONS = Section("actions", "action: {effects: [...]}", "action id", frozenset(ACTION_KEYS),
                  "action settings", "key of an action")


class ActionsReader(SectionReader):
    """Reads `actions:` with their arguments and the questions asked mid-action."""

    def actions(self, raw: Any, scope: Scope, compiler: EffectCompiler,
                options: dict[str, OptionDef] | None = None,
                phases: list[str] | None = None) -> dict[str, ActionDef]:
        out: dict[str, ActionDef] = {}
        raw = self.mapping(raw, ("actions",), "action: {effects: [...]}")
        if not raw and "actions" in (self.data or {}):
            self.report(("actions",), "a ruleset needs at least one action")
        for aid, spec, path in self.entries(raw, ACTIONS):
            args = self.args(spec.get("args"), (*path, "args"), scope)
            ascope = _with_args(scope, args, spec.get("args"))
            acompiler = EffectCompiler(ascope, self.report, compiler.zone_defs,
                                       compiler.shared)
            acompiler.effect_props = compiler.effect_props
            when: Compiled | None = None
            reads_args = argument_in_when(spec.get("when"), args)
            if reads_args:
                self.report((*path, "when"), reads_args)
            applies = read_applies_when(self.report, spec.get("applies_when"),
                                        (*path, "applies_when"))
            check_when(self.report, (*path, "applies_when"), applies, options or {})
            in_phase = (None if "phase" not in spec else
                        phase_condition(self, spec["phase"], (*path, "phase"), phases or []))
            if not reads_args and ("when" in spec or applies or in_phase):
                # Never legal where it does not apply: its options join its condition.
                source = spec.get("when")
                if applies:
                    source = options_condition(applies) + (
                        f" and ({source})" if isinstance(source, str) else "")
                if in_phase:  # offered only in its phases
                    source = in_phase + (f" and ({source})" if isinstance(source, str) else "")
                when = compiler.condition(source, (*path, "when" if "when" in spec
                                                   else "applies_when" if applies
                                                   else "phase"))
            if "effects" not in spec:
                self.report(path, "an action needs `effects`")
            effects = acompiler.effects(spec.get("effects"), (*path, "effects"))
            label = self.text(spec.get("label"), (*path, "label"), aid.replace("_", " ").title())
            key = self.text(spec.get("key"), (*path, "key"), aid[:1])
            why = self.text(spec.get("why_not"), (*path, "why_not"))
            if spec.get("by") == "others":
                self.report((*path, "by"), OFF_TURN)
                by = "current"
            else:
                by = self.choice(spec.get("by"), (*path, "by"), BY, "current")
            windows = spec.get("windows", [])
            if isinstance(windows, str):
                windows = [windows]
            if not isinstance(windows, list) or not all(isinstance(w, str) for w in windows):
                self.report((*path, "windows"), "expected a list of response window ids")
                windows = []
            if by == "window" and not windows:
                self.report((*path, "by"), "an action played only in windows (by: window) "
                                           "needs `windows: [WINDOW, ...]`")
            out[aid] = ActionDef(aid, label, key, when, why, tuple(args), effects, by,
                                 self.text(spec.get("help"), (*path, "help")),
                                 tuple(windows), applies,
                                 self.says(spec, (*path, "says"), acompiler))
        return out

    def says(self, spec: dict[str, Any], path: Path, compiler: EffectCompiler) -> Any:
        """An action's phrase: text whose {placeholders} read the move's `$arguments`."""
        if "says" not in spec:
            return None
        raw = spec["says"]
        if not isinstance(raw, str) or not raw.strip():
            self.report(path, "expected the move in words, with {placeholders} for its "
                              "arguments, e.g. \"bid {words($count)} {$face}s\"")
            return None
        made = compiler.template(raw, path)
        return made if isinstance(made, Template) else None

    def decisions(self, actions: dict[str, ActionDef], compiler: EffectCompiler) -> None:
        """Check windows named by actions, and add the answers to questions and `pass`."""
        shared = compiler.shared
        for aid, adef in list(actions.items()):
            for i, wid in enumerate(adef.windows):
                if wid not in shared.windows:
                    self.report(("actions", aid, "windows", i), _unknown(
                        "response window (opened by a respond effect)", wid,
                        list(shared.windows)) if shared.windows else
                        f"no respond effect opens a window {wid!r}")
        for qid, (args, label, key) in shared.answers.items():
            if qid in actions:
                self.report(("actions", qid), f"{qid!r} is both an action and the id of a "
                                              "choose form's answer; give the question "
                                              "another id")
                continue
            actions[qid] = ActionDef(qid, label, key, None, "", args, _no_effects, "answer")
        if shared.windows:
            if PASS in actions:
                self.report(("actions", PASS), f"{PASS!r} is the answer that declines to "
                                               "respond in a window; it needs no action")
            # P, unless the ruleset's own action has it (Dino Hunt's Play): then the next
            # letter of "Pass" that no action uses, so one key never means two buttons.
            taken = {a.key.lower() for a in actions.values() if a.key}
            key = next((ch for ch in "pas" if ch not in taken), "")
            actions[PASS] = ActionDef(PASS, "Pass", key, None, "", (), _no_effects, "window",
                                      "Play nothing now.", tuple(shared.windows))

    def args(self, raw: Any, path: Path, scope: Scope) -> list[ArgDef]:
        """An action's (or question's) arguments, each with the line that declares it."""
        out = self._args(raw, path, scope)
        return [replace(a, line=self.report.where((*path, a.name))[0]) for a in out]

    def _args(self, raw: Any, path: Path, scope: Scope) -> list[ArgDef]:
        out: list[ArgDef] = []
        base = scope
        for name, spec in self.mapping(raw, path, "argument: domain").items():
            # A domain's expressions may read the arguments listed before it ($card, when
            # choosing the dice that pay for it).
            scope = Scope(**{**base.__dict__, "args": base.args | {a.name for a in out}})
            apath = (*path, name)
            if not isinstance(name, str) or not re.match(r"^[a-z_][a-z0-9_]*$", name):
                self.report(apath, f"argument {name!r} must be lower_snake_case")
                continue
            if isinstance(spec, str):
                spec = {"domain": spec}
            spec = self.mapping(spec, apath, "domain and its parameters")
            dname = spec.get("domain")
            dspec = DOMAINS.get(str(dname))
            if dspec is None:
                self.report((*apath, "domain"), _unknown("domain", str(dname), list(DOMAINS)))
                continue
            check_keys(self.report, spec, {"domain", *dspec.params}, apath,
                        f"parameter of {dname}")
            parser = PARSERS.get(str(dname))
            if parser is not None:  # domains read in domain_args.py
                arg = parser(self, str(name), spec, apath, scope)
                if arg is not None:
                    out.append(arg)
                continue
            if dname == "kind_on":
                values = self.kind_on(spec, apath, scope)
                if values is not None:
                    out.append(ArgDef(name, "kind_on", values))
                continue
            if dname == "kind_in":
                values = self.kind_in(spec, apath, scope)
                if values is not None:
                    out.append(ArgDef(name, "kind_in", values))
                continue
            if dname == "space_of":
                spaces = self.space_of(spec, apath, scope)
                if spaces is not None:
                    out.append(ArgDef(name, "space_of", spaces[0], board=spaces[1],
                                      owner=spaces[2]))
                continue
            if dname == "subset_of":
                subset = self.subset(str(name), spec, apath, scope)
                if subset is not None:
                    out.append(ArgDef(name, "subset_of", subset.values, False,
                                      subset.contains, subset.sample))
                continue
            params = []
            for p in dspec.params:
                if p not in spec:
                    self.report(apath, f"domain {dname} needs {p!r}: {dspec.example}")
                    break
                value = spec[p]
                if p == "zone" and value not in scope.zones | scope.player_zones:
                    self.report((*apath, p), _unknown(
                        "zone", str(value), sorted(scope.zones | scope.player_zones)))
                    break
                if p == "zone" and dspec.is_player and value not in scope.player_zones:
                    self.report((*apath, p), f"{dname} needs a zone each player has "
                                             f"(per_player: true); {value!r} is shared")
                    break
                if p == "values" and (not isinstance(value, list) or not value):
                    self.report((*apath, p), "expected a list of values, e.g. [red, blue]")
                    break
                params.append(value)
            else:
                out.append(ArgDef(name, str(dname), dspec.build(*params), dspec.is_player))
        return out

    def named(self, spec: dict[str, Any], path: Path, key: str, known: frozenset[str]
              ) -> str | None:
        """The board or zone an argument's `key` names (None, reported, when unknown)."""
        value = spec.get(key)
        if value not in known:
            self.report((*path, key) if key in spec else path,
                        _unknown(key, str(value), sorted(known)))
            return None
        return str(value)

    def where(self, spec: dict[str, Any], path: Path, scope: Scope, tested: str
              ) -> tuple[bool, Compiled | None]:
        """An argument's `where`, with `$tested` the value tested: (fine, the test or None)."""
        if "where" not in spec:
            return True, None
        wscope = Scope(**{**scope.__dict__, "args": scope.args | {tested}})
        where = EffectCompiler(wscope, self.report, {}).expr(spec["where"], (*path, "where"))
        return where is not None, where

    def kind_on(self, spec: dict[str, Any], path: Path, scope: Scope) -> Any:
        """A `kind_on` argument: the kinds lying on the space an expression gives."""
        board = self.named(spec, path, "board", scope.boards)
        if board is None:
            return None
        if "space" not in spec:
            self.report(path, "kind_on needs `space`: an expression giving the space")
            return None
        space = EffectCompiler(scope, self.report, {}).expr(spec["space"], (*path, "space"))
        fine, where = self.where(spec, path, scope, "kind")
        if not fine:
            return None
        return None if space is None else kind_on_domain(board, space, where)

    def kind_in(self, spec: dict[str, Any], path: Path, scope: Scope) -> Any:
        """A `kind_in` argument: the kinds in a zone, maybe only those passing `where`."""
        zone = self.named(spec, path, "zone", scope.zones | scope.player_zones)
        if zone is None:
            return None
        fine, where = self.where(spec, path, scope, "kind")
        return DOMAINS["kind_in"].build(zone, where) if fine else None

    def space_of(self, spec: dict[str, Any], path: Path, scope: Scope) -> Any:
        """A `space_of` argument: a board, maybe only its empty spaces, maybe a test."""
        board = self.named(spec, path, "board", scope.boards)
        if board is None:
            return None
        empty = spec.get("empty", False)
        if not isinstance(empty, bool):
            self.report((*path, "empty"), "expected true or false")
            return None
        fine, where = self.where(spec, path, scope, "space")
        owner = None
        if "owner" in spec:  # another player's board: an expression giving the seat
            owner = EffectCompiler(scope, self.report, {}).expr(spec["owner"], (*path, "owner"))
            fine = fine and owner is not None
        return (space_domain(board, empty, where, owner), board, owner) if fine else None

    def subset(self, name: str, spec: dict[str, Any], path: Path, scope: Scope
               ) -> Subset | None:
        """A `subset_of` argument: its zone, bounds, item test and whole-set test."""
        zone = spec.get("zone")
        if zone not in scope.zones | scope.player_zones:
            self.report((*path, "zone") if "zone" in spec else path, _unknown(
                "zone", str(zone), sorted(scope.zones | scope.player_zones)))
            return None
        compiled: dict[str, Compiled | None] = dict.fromkeys(SUBSET_OPTIONAL)
        ok = True
        for key in SUBSET_OPTIONAL:
            if key not in spec:
                continue
            extra = {"where": {"item"}, "test": {name}}.get(key, set())
            kscope = Scope(**{**scope.__dict__, "args": scope.args | extra})
            compiler = EffectCompiler(kscope, self.report, {})
            compiled[key] = compiler.expr(spec[key], (*path, key))
            ok = ok and compiled[key] is not None
        if not ok:
            return None
        return Subset(name, str(zone), compiled["min"], compiled["max"], compiled["where"],
                      compiled["test"])
