"""Load a ruleset folder into a validated, compiled, frozen `Rules`.

Every problem is reported at once as `file:line:col: path: message`.
"""

from __future__ import annotations

import re
from pathlib import Path as FsPath
from typing import Any

from ..engine.domains import DOMAINS
from ..engine.effects import EffectCompiler, _unknown
from ..engine.expr import CONSTANTS, FUNCTIONS, Compiled, Scope, type_of_value
from ..engine.game import build_legal
from ..engine.model import (
    ActionDef,
    ArgDef,
    BotHint,
    DieDef,
    EndDef,
    OptionDef,
    Rules,
    ZoneDef,
)
from .layout import build_layout
from .problems import LoadError, Path, Problem, Reporter, check_keys
from .yamlsafe import load_file

RULES_FILE = "rules.yaml"
# Names an option or variable may not take: expressions would read the other meaning.
RESERVED: dict[str, str] = {
    **{name: "an expression constant" for name in CONSTANTS},
    **{name: "an expression function" for name in FUNCTIONS},
    "player": "set/add use `player:` for whose variables change",
    "true": "a truth value", "false": "a truth value",
}
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
# Bounds that keep a typo from hanging a game: a 30-digit goal or dice count is a mistake.
MAX_SEATS = 8
MAX_START = 200  # items of one kind a zone starts with (per owner)
MAX_NUMBER = 10**9  # any whole number a ruleset writes: option values, variables, literals

# Top-level sections: name -> (required, what it holds)
SECTIONS: dict[str, tuple[bool, str]] = {
    "id": (True, "the ruleset id, the same as its folder name"),
    "name": (True, "the game's name as players know it"),
    "version": (True, "a whole number, raised when the rules change"),
    "players": (True, "{min: N, max: N} seats"),
    "time": (False, "playing time shown on the title screen, e.g. '10 minutes'"),
    "pitch": (False, "one line that sells the game"),
    "options": (False, "table options chosen at setup"),
    "dice": (False, "die kinds and their faces"),
    "zones": (False, "places items sit"),
    "vars": (False, "game, player and turn variables with starting values"),
    "score": (True, "an expression giving a player's score"),
    "round": (False, "round start/end effects"),
    "turn": (False, "turn start/end effects"),
    "actions": (True, "what players can do"),
    "end": (True, "when the game ends and how ties are broken"),
    "bots": (False, "hints for the heuristic bot"),
    "layout": (False, "where the table draws each zone (read by the table, not the engine)"),
    "state_paths": (False, "the scenario `state` paths this ruleset documents"),
}
OPTION_KEYS = {"default", "label", "min", "max", "choices"}
DIE_KEYS = {"faces", "label"}
ZONE_KEYS = {"holds", "per_player", "visible", "blind", "start", "label"}
ACTION_KEYS = {"label", "key", "when", "why_not", "args", "effects", "by", "help"}
END_KEYS = {"trigger", "finish_round", "ties", "tiebreak"}
VISIBILITY = ("all", "owner", "none")
HOLDS = ("dice", "cards", "tiles", "tokens")
TIES = ("shared", "leaders_replay")
BY = ("current", "others", "any")


def load_ruleset(folder: FsPath | str) -> Rules:
    """Load and validate `folder/rules.yaml`; raise LoadError listing every problem."""
    folder = FsPath(folder)
    file = folder / RULES_FILE
    display = _display(file)
    data, marks = load_file(file, display)
    report = Reporter(display, marks)
    rules = _Builder(data, report, folder).build()
    report.raise_if_any()
    assert rules is not None
    return rules


def _display(file: FsPath) -> str:
    try:
        return str(file.resolve().relative_to(FsPath.cwd()))
    except ValueError:
        return str(file)


class _Builder:
    def __init__(self, data: Any, report: Reporter, folder: FsPath) -> None:
        self.data = data
        self.report = report
        self.folder = folder

    def mapping(self, raw: Any, path: Path, what: str) -> dict[Any, Any]:
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            self.report(path, f"expected a mapping of {what}")
            return {}
        return raw

    def integer(self, raw: Any, path: Path, lo: int | None = None, hi: int = MAX_NUMBER
                ) -> int | None:
        if not isinstance(raw, int) or isinstance(raw, bool):
            self.report(path, f"expected a whole number, found {_shown(raw)}")
            return None
        if lo is not None and raw < lo:
            self.report(path, f"expected at least {lo}, found {_shown(raw)}")
            return None
        if not -MAX_NUMBER <= raw <= hi:
            self.report(path, f"expected at most {hi}, found {_shown(raw)}" if raw > 0 else
                        f"number too large: {_shown(raw)} (at most {MAX_NUMBER:,} either side "
                        "of zero)")
            return None
        return raw

    def text(self, raw: Any, path: Path, default: str = "") -> str:
        if raw is None:
            return default
        if not isinstance(raw, str):
            self.report(path, f"expected text, found {raw!r}")
            return default
        return raw

    def ident(self, raw: Any, path: Path, what: str) -> bool:
        if not isinstance(raw, str) or not _ID.match(raw):
            self.report(path, f"{what} {raw!r} must be lower_snake_case")
            return False
        return True

    def choice(self, raw: Any, path: Path, allowed: tuple[str, ...], default: str) -> str:
        if raw is None:
            return default
        if raw not in allowed:
            self.report(path, _unknown("value", str(raw), list(allowed)))
            return default
        return str(raw)

    def build(self) -> Rules | None:
        data = self.data
        if not isinstance(data, dict):
            self.report((), "expected a mapping of ruleset sections (id, name, players, ...)")
            return None
        r = self.report
        for key in data:
            if key not in SECTIONS:
                r((key,), _unknown("section", str(key), list(SECTIONS)))
        for key, (required, what) in SECTIONS.items():
            if required and key not in data:
                r((), f"missing section {key!r}: {what}")
        rid = data.get("id")
        if "id" in data and self.ident(rid, ("id",), "id") and rid != self.folder.name:
            r(("id",), f"id {rid!r} must match the folder name {self.folder.name!r}")
        name = self.text(data.get("name"), ("name",), str(rid))
        version = self.integer(data.get("version", 1), ("version",), 1) or 1
        pmin = pmax = 1
        if "players" in data:  # a missing section is reported once, above
            players = self.mapping(data.get("players"), ("players",), "min and max")
            check_keys(r, players, {"min", "max"}, ("players",), "key of players")
            pmin = self.integer(players.get("min"), ("players", "min"), 1, MAX_SEATS) or 1
            pmax = self.integer(players.get("max"), ("players", "max"), 1, MAX_SEATS) or pmin
            if pmax < pmin:
                r(("players", "max"), f"max ({pmax}) is less than min ({pmin})")
        self.text(data.get("time"), ("time",))
        self.text(data.get("pitch"), ("pitch",))

        options = self.options(data.get("options"))
        dice = self.dice(data.get("dice"))
        zones = self.zones(data.get("zones"), dice)
        variables = self.mapping(data.get("vars"), ("vars",), "game, player and turn variables")
        check_keys(r, variables, {"game", "player", "turn"}, ("vars",), "variable scope")
        scoped: dict[str, dict[str, Any]] = {}
        seen: dict[str, str] = {n: "option" for n in options}
        for scope_name in ("game", "player", "turn"):
            block = self.mapping(variables.get(scope_name), ("vars", scope_name), "name: value")
            for var, value in block.items():
                if not self.ident(var, ("vars", scope_name, var), "variable"):
                    continue
                if var in seen:
                    r(("vars", scope_name, var), f"{var!r} is already the name of an "
                                                  f"{seen[var]}" if seen[var] == "option" else
                      f"{var!r} is already the name of a {seen[var]}")
                    continue
                if var in RESERVED:
                    r(("vars", scope_name, var), f"{var!r} is a reserved name "
                                                  f"({RESERVED[var]}); choose another")
                    continue
                if not isinstance(value, int | float | str | bool):
                    r(("vars", scope_name, var), "a starting value is a number, text or "
                                                  "true/false")
                    continue
                if _too_large(value):
                    r(("vars", scope_name, var), f"number too large: {_shown(value)} (at most "
                                                  f"{MAX_NUMBER:,} either side of zero)")
                    continue
                seen[var] = f"{scope_name} variable"
            scoped[scope_name] = {k: v for k, v in block.items() if isinstance(k, str)}
        faces = frozenset(f for d in dice.values() for f in d.faces)
        scope = Scope(
            options=frozenset(options), game_vars=frozenset(scoped["game"]),
            player_vars=frozenset(scoped["player"]), turn_vars=frozenset(scoped["turn"]),
            zones=frozenset(z for z, d in zones.items() if not d.per_player),
            player_zones=frozenset(z for z, d in zones.items() if d.per_player),
            faces=faces, kinds=frozenset(dice),
            types={**{n: type_of_value(o.default) for n, o in options.items()},
                   **{n: type_of_value(v) for block in scoped.values() for n, v in block.items()}},
        )
        compiler = EffectCompiler(scope, r, zones)
        score = compiler.expr(data.get("score", 0), ("score",))
        if score is not None and not compiler.typed(score, "number", ("score",), "the score"):
            score = None

        turn = self.mapping(data.get("turn"), ("turn",), "start and end effects")
        check_keys(r, turn, {"start", "end"}, ("turn",), "key of turn")
        rnd = self.mapping(data.get("round"), ("round",), "start and end effects")
        check_keys(r, rnd, {"start", "end", "mode"}, ("round",), "key of round")
        round_mode = self.choice(rnd.get("mode"), ("round", "mode"), ("each_once", "until_ended"),
                                 "each_once")

        actions = self.actions(data.get("actions"), scope, compiler)
        end = self.end(data.get("end"), compiler)
        hints = self.bots(data.get("bots"), actions, compiler, scope)
        turn_start = compiler.effects(turn.get("start"), ("turn", "start"))
        turn_end = compiler.effects(turn.get("end"), ("turn", "end"))
        round_start = compiler.effects(rnd.get("start"), ("round", "start"))
        round_end = compiler.effects(rnd.get("end"), ("round", "end"))
        layout = build_layout(data.get("layout"), compiler, dice, zones, set(faces), actions)
        hidden = any(z.visible != "all" for z in zones.values())
        paths = data.get("state_paths") or []
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            r(("state_paths",), "expected a list of state paths")
            paths = []
        if self.report.problems or score is None or end is None:
            return None
        return Rules(
            id=str(rid), name=name, version=version, min_players=pmin, max_players=pmax,
            options=options, dice=dice, zones=zones, game_vars=scoped["game"],
            player_vars=scoped["player"], turn_vars=scoped["turn"], actions=actions,
            turn_start=turn_start, turn_end=turn_end, round_start=round_start,
            round_end=round_end, bot_hints=hints, legal=build_legal(actions),
            score=score, end=end, round_mode=round_mode, hidden_information=hidden,
            state_paths=tuple(paths), data=data, source=str(self.folder), layout=layout,
            file=self.report.file,
        )

    def options(self, raw: Any) -> dict[str, OptionDef]:
        out: dict[str, OptionDef] = {}
        for name, spec in self.mapping(raw, ("options",), "option: {default: ...}").items():
            path = ("options", name)
            if not self.ident(name, path, "option"):
                continue
            if name in RESERVED:
                self.report(path, f"{name!r} is a reserved name ({RESERVED[name]}); "
                                  "choose another")
                continue
            if not isinstance(spec, dict):
                spec = {"default": spec}
            check_keys(self.report, spec, OPTION_KEYS, path, "key of an option")
            if "default" not in spec:
                self.report(path, "an option needs a default")
                continue
            default = spec["default"]
            # A bad default is reported, and the option kept (as a number or unknown), so
            # expressions reading it do not add "unknown name" problems.
            if _too_large(default):
                self.report((*path, "default"), f"number too large: {_shown(default)} (at most "
                                                f"{MAX_NUMBER:,} either side of zero)")
                default = None
            elif not isinstance(default, int | float | str | bool):
                self.report((*path, "default"), "a default is a number, text or true/false")
                default = None
            lo, hi = spec.get("min"), spec.get("max")
            if lo is not None:
                lo = self.integer(lo, (*path, "min"))
            if hi is not None:
                hi = self.integer(hi, (*path, "max"))
            if isinstance(default, int) and not isinstance(default, bool) and (
                    (lo is not None and default < lo) or (hi is not None and default > hi)):
                self.report((*path, "default"), f"default {default} is outside {lo}..{hi}")
            choices = spec.get("choices") or []
            if not isinstance(choices, list):
                self.report((*path, "choices"), "expected a list of values")
                choices = []
            out[name] = OptionDef(name, default, self.text(spec.get("label"), (*path, "label"),
                                                           name), lo, hi, tuple(choices))
        return out

    def dice(self, raw: Any) -> dict[str, DieDef]:
        out: dict[str, DieDef] = {}
        for name, spec in self.mapping(raw, ("dice",), "kind: {faces: [...]}").items():
            path = ("dice", name)
            if not self.ident(name, path, "die kind"):
                continue
            spec = self.mapping(spec, path, "faces and label")
            check_keys(self.report, spec, DIE_KEYS, path, "key of a die")
            faces = spec.get("faces")
            if not isinstance(faces, list) or not faces:
                self.report((*path, "faces"), "expected a list of face ids")
                continue
            if not all(isinstance(f, str) and _ID.match(f) for f in faces):
                self.report((*path, "faces"), "every face id must be lower_snake_case")
                continue
            out[name] = DieDef(name, tuple(faces), self.text(spec.get("label"),
                                                             (*path, "label"), name))
        return out

    def zones(self, raw: Any, dice: dict[str, DieDef]) -> dict[str, ZoneDef]:
        out: dict[str, ZoneDef] = {}
        for name, spec in self.mapping(raw, ("zones",), "zone: {holds: ...}").items():
            path = ("zones", name)
            if not self.ident(name, path, "zone"):
                continue
            spec = self.mapping(spec, path, "zone settings")
            check_keys(self.report, spec, ZONE_KEYS, path, "key of a zone")
            holds = self.choice(spec.get("holds"), (*path, "holds"), HOLDS, "dice")
            per_player = spec.get("per_player", False)
            if not isinstance(per_player, bool):
                self.report((*path, "per_player"), "expected true or false")
                per_player = False
            visible = self.choice(spec.get("visible"), (*path, "visible"), VISIBILITY, "all")
            blind = spec.get("blind", False)
            if not isinstance(blind, bool):
                self.report((*path, "blind"), "expected true or false")
                blind = False
            start: list[tuple[str, int]] = []
            for kind, count in self.mapping(spec.get("start"), (*path, "start"),
                                            "kind: count").items():
                if kind not in dice:
                    self.report((*path, "start", kind), _unknown("die kind", str(kind),
                                                                 list(dice)))
                    continue
                n = self.integer(count, (*path, "start", kind), 0, MAX_START)
                if n is not None:
                    start.append((kind, n))
            out[name] = ZoneDef(name, holds, per_player, visible, tuple(start),
                                self.text(spec.get("label"), (*path, "label"), name), blind)
        return out

    def actions(self, raw: Any, scope: Scope, compiler: EffectCompiler) -> dict[str, ActionDef]:
        out: dict[str, ActionDef] = {}
        raw = self.mapping(raw, ("actions",), "action: {effects: [...]}")
        if not raw and "actions" in (self.data or {}):
            self.report(("actions",), "a ruleset needs at least one action")
        for aid, spec in raw.items():
            path = ("actions", aid)
            if not self.ident(aid, path, "action id"):
                continue
            spec = self.mapping(spec, path, "action settings")
            check_keys(self.report, spec, ACTION_KEYS, path, "key of an action")
            args = self.args(spec.get("args"), (*path, "args"), scope)
            ascope = _with_args(scope, args, spec.get("args"))
            acompiler = EffectCompiler(ascope, self.report, compiler.zone_defs)
            when: Compiled | None = None
            if "when" in spec:
                when = compiler.condition(spec["when"], (*path, "when"))
            if "effects" not in spec:
                self.report(path, "an action needs `effects`")
            effects = acompiler.effects(spec.get("effects"), (*path, "effects"))
            label = self.text(spec.get("label"), (*path, "label"), aid.replace("_", " ").title())
            key = self.text(spec.get("key"), (*path, "key"), aid[:1])
            why = self.text(spec.get("why_not"), (*path, "why_not"))
            by = self.choice(spec.get("by"), (*path, "by"), BY, "current")
            out[aid] = ActionDef(aid, label, key, when, why, tuple(args), effects, by,
                                 self.text(spec.get("help"), (*path, "help")))
        return out

    def args(self, raw: Any, path: Path, scope: Scope) -> list[ArgDef]:
        out: list[ArgDef] = []
        for name, spec in self.mapping(raw, path, "argument: domain").items():
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

    def end(self, raw: Any, compiler: EffectCompiler) -> EndDef | None:
        if raw is None and "end" not in self.data:
            return None  # reported once as a missing section
        spec = self.mapping(raw, ("end",), "trigger and ties")
        check_keys(self.report, spec, END_KEYS, ("end",), "key of end")
        if "trigger" not in spec:
            self.report(("end",), "end needs a `trigger` expression")
            return None
        trigger = compiler.condition(spec["trigger"], ("end", "trigger"))
        finish = spec.get("finish_round", False)
        if not isinstance(finish, bool):
            self.report(("end", "finish_round"), "expected true or false")
            finish = False
        ties = self.choice(spec.get("ties"), ("end", "ties"), TIES, "shared")
        tiebreak = None
        if "tiebreak" in spec:
            tiebreak = compiler.expr(spec["tiebreak"], ("end", "tiebreak"))
            if tiebreak is not None and not compiler.typed(tiebreak, "number",
                                                           ("end", "tiebreak"), "a tiebreak"):
                return None
        if trigger is None:
            return None
        return EndDef(trigger, finish, ties, tiebreak)

    def bots(self, raw: Any, actions: dict[str, ActionDef], compiler: EffectCompiler,
             scope: Scope) -> tuple[BotHint, ...]:
        hints: list[BotHint] = []
        spec = self.mapping(raw, ("bots",), "policy hints")
        check_keys(self.report, spec, {"heuristic"}, ("bots",), "bot policy")
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
            hints.append(BotHint(adef.id, when, best))
        return tuple(hints)


def problems_of(folder: FsPath | str) -> list[Problem]:
    """Every problem with a ruleset folder (empty when it loads)."""
    try:
        load_ruleset(folder)
    except LoadError as exc:
        return exc.problems
    return []


def _too_large(value: Any) -> bool:
    """A number beyond what any ruleset needs (or not finite)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return not -MAX_NUMBER <= value <= MAX_NUMBER


def _shown(value: Any) -> str:
    """A value for a message, a very long number cut short."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:12]}...{text[-4:]} ({len(text)} characters)"


def _with_args(scope: Scope, args: list[ArgDef], raw: Any) -> Scope:
    """The scope of an action's expressions: its `$arguments`, typed by their domains."""
    types = dict(scope.types)
    for a in args:
        if a.is_player:
            types["$" + a.name] = "player"
        elif a.domain == "item_in":
            types["$" + a.name] = "text"
        elif a.domain == "choice" and isinstance(raw, dict):
            spec = raw.get(a.name)
            values = spec.get("values") if isinstance(spec, dict) else None
            found = {type_of_value(v) for v in values or []}
            if len(found) == 1:
                types["$" + a.name] = found.pop()
    return Scope(**{**scope.__dict__, "args": frozenset(a.name for a in args), "types": types})
