"""Load a ruleset folder into a validated, compiled, frozen `Rules`.

Every problem is reported at once as `file:line:col: path: message`. This module reads
the sections in order; each kind of section has its reader: reader.py (the shared checks
and the section skeleton), components.py (options, dice, properties, items, zones,
boards), expressions.py (define), actions.py (actions and their arguments) and ending.py
(end and bots).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path as FsPath
from typing import Any

from ..engine.compiler import EffectCompiler
from ..engine.effects import _unknown
from ..engine.expr import (
    Scope,
)
from ..engine.exprtypes import type_of_value
from ..engine.indexed import MAX_KEYS
from ..engine.legality import build_legal
from ..engine.model import (
    OptionDef,
    Rules,
)
from .actions import ActionsReader
from .components import ComponentsReader
from .ending import EndingReader
from .expressions import DefinesReader
from .families import expand_families
from .layout import build_layout
from .phases import end_phase_at, read_phases
from .problems import LoadError, Problem, Reporter, check_keys
from .reader import MAX_NUMBER, MAX_SEATS, RESERVED, _shown, _too_large
from .variant_keys import (
    check_applies_when,
    check_shape_options,
    check_teams_option,
    check_when,
    read_applies_when,
)
from .yamlsafe import load_file
from .zone_families import expand_zone_families

RULES_FILE = "rules.yaml"

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
    "properties": (False, "the properties cards, tiles and tokens carry, with default values"),
    "items": (False, "kinds of card, tile and token, their copies and property values"),
    "zones": (False, "places items sit"),
    "boards": (False, "grids and tracks of spaces that hold items"),
    "vars": (False, "game, player and turn variables with starting values"),
    "define": (False, "named expressions, usable by name in any expression"),
    "score": (True, "an expression giving a player's score"),
    "round": (False, "round start/end effects"),
    "turn": (False, "turn start/end effects"),
    "actions": (True, "what players can do"),
    "end": (True, "when the game ends and how ties are broken"),
    "bots": (False, "hints for the heuristic bot"),
    "layout": (False, "where the table draws each zone (read by the table, not the engine)"),
    "state_paths": (False, "the scenario `state` paths this ruleset documents"),
    "reveal_scores": (False, "always (default) or at_end: other players' scores stay hidden "
                             "until the game is over"),
    "state_aliases": (False, "short state paths of the ruleset's own, each standing for a "
                             "generic one"),
    "replays": (False, "older versions of these rules whose saved games this version still "
                       "replays, e.g. [1, 2] or {1: {options: {edition: 1}}}"),
}


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


class _Builder(ComponentsReader, DefinesReader, ActionsReader, EndingReader):
    """Reads a whole ruleset: the sections in order, each by its reader."""

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
        teams = 0
        if "players" in data:  # a missing section is reported once, above
            players = self.block(data.get("players"), ("players",), "min and max",
                                 {"min", "max", "teams", "teams_option"}, "key of players")
            pmin = self.integer(players.get("min"), ("players", "min"), 1, MAX_SEATS) or 1
            pmax = self.integer(players.get("max"), ("players", "max"), 1, MAX_SEATS) or pmin
            if pmax < pmin:
                r(("players", "max"), f"max ({pmax}) is less than min ({pmin})")
            if "teams" in players:
                teams = self.integer(players["teams"], ("players", "teams"), 2) or 0
                if teams and "teams_option" not in players and (pmin % teams or pmax % teams):
                    r(("players", "teams"), f"{teams} teams of equal size need min and max "
                                            f"to be multiples of {teams}")
        self.text(data.get("time"), ("time",))
        self.text(data.get("pitch"), ("pitch",))

        options = self.options(data.get("options"))
        _check_replays(self, data.get("replays"), version, options)
        raw_players = data.get("players")
        teams_option = check_teams_option(self, raw_players.get("teams_option"), options) if (
            isinstance(raw_players, dict) and "teams_option" in raw_players) else ""
        dice = self.dice(data.get("dice"))
        properties = self.properties(data.get("properties"))
        # Generated families (`for_each`) become plain kinds first, their keys properties.
        raw_items, families = expand_families(data.get("items"), properties, dice, self.report)
        kind_specs = self.item_kinds(raw_items, properties, dice)
        # Zone families (`keys`) become plain zones `NAME_KEY` first, in the same way.
        raw_zones, zone_families = expand_zone_families(data.get("zones"), self.var_keys,
                                                        self.report)
        zones = self.zones(raw_zones, dice, kind_specs, pmax)
        variables = self.block(data.get("vars"), ("vars",), "game, player and turn variables",
                               {"game", "player", "turn"}, "variable scope")
        scoped: dict[str, dict[str, Any]] = {}
        seen: dict[str, str] = {n: "option" for n in options}
        seen.update(dict.fromkeys(zone_families, "zone family"))
        for scope_name in ("game", "player", "turn"):
            block = self.mapping(variables.get(scope_name), ("vars", scope_name), "name: value")
            block = self.var_visibility(block, scope_name)
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
        # Each variable's type is its starting value's (an indexed one's: its values').
        var_types = {n: type_of_value(v) for block in scoped.values() for n, v in block.items()}
        for block in scoped.values():  # an indexed variable starts with every key at its value
            for var, keys in self.indexed.items():
                if var in block:
                    block[var] = dict.fromkeys(keys, block[var])
        faces = frozenset(f for d in dice.values() for f in d.faces)
        scope = Scope(
            options=frozenset(options), game_vars=frozenset(scoped["game"]),
            player_vars=frozenset(scoped["player"]), turn_vars=frozenset(scoped["turn"]),
            zones=frozenset(z for z, d in zones.items() if not d.per_player),
            player_zones=frozenset(z for z, d in zones.items() if d.per_player),
            faces=faces,  # names, and the numbers of dice whose faces are numbers
            kinds=frozenset(dice) | frozenset(kind_specs), props=frozenset(properties),
            die_faces={name: d.faces for name, d in dice.items()},
            types={**{n: type_of_value(o.default) for n, o in options.items()},
                   **var_types},
            indexed=dict(self.indexed), zone_families=zone_families,
        )
        boards = self.boards(data.get("boards"), zones, seen)
        check_shape_options(self, boards, options)
        check_applies_when(self, options)
        scope = replace(scope, boards=frozenset(boards))
        scope = self.defines(data.get("define"), scope, seen)
        compiler = EffectCompiler(scope, r, zones)
        compiler.shared.parse_args = self.args
        compiler.effect_props = frozenset(
            n for n, p in properties.items() if p.type == "effects")
        items = self.item_props(kind_specs, properties, compiler, families)
        score = compiler.expr(data.get("score", 0), ("score",))
        if score is not None and not compiler.typed(score, "number", ("score",), "the score"):
            score = None

        turn = self.block(data.get("turn"), ("turn",), "start and end effects",
                          {"start", "end"}, "key of turn")
        rnd = self.block(data.get("round"), ("round",), "start and end effects",
                         {"start", "end", "mode", "phases"}, "key of round")
        round_mode = self.choice(rnd.get("mode"), ("round", "mode"), ("each_once", "until_ended"),
                                 "each_once")

        raw_phases = rnd.get("phases")
        phase_names = [str(n) for n in raw_phases] if isinstance(raw_phases, dict) else []
        actions = self.actions(data.get("actions"), scope, compiler, options, phase_names)
        end = self.end(data.get("end"), compiler)
        turn_start = compiler.effects(turn.get("start"), ("turn", "start"))
        turn_end = compiler.effects(turn.get("end"), ("turn", "end"))
        round_start = compiler.effects(rnd.get("start"), ("round", "start"))
        round_end = compiler.effects(rnd.get("end"), ("round", "end"))
        phases = read_phases(self, raw_phases, compiler, round_mode)
        stray = None if phases else end_phase_at(data)
        if stray is not None:
            r(stray, "end_phase ends a phase of the round, and the round has none: list "
                     "them under round.phases")
        self.decisions(actions, compiler)
        hints = self.bots(data.get("bots"), actions, compiler, scope)
        layout = build_layout(data.get("layout"), compiler, dice, zones, set(faces), actions,
                              boards, options)
        reveal_raw = data.get("reveal_scores")
        reveal_when: tuple[tuple[str, tuple[Any, ...]], ...] = ()
        if isinstance(reveal_raw, dict):
            # `{value: at_end, applies_when: {...}}`: secret only in the games named.
            check_keys(self.report, reveal_raw, {"value", "applies_when"}, ("reveal_scores",),
                       "reveal_scores setting")
            reveal_when = read_applies_when(self.report, reveal_raw.get("applies_when"),
                                            ("reveal_scores", "applies_when"))
            check_when(self.report, ("reveal_scores", "applies_when"), reveal_when, options)
            reveal_raw = reveal_raw.get("value")
        reveal = self.choice(reveal_raw, ("reveal_scores",), ("always", "at_end"), "always")
        hidden = (any(z.visible != "all" for z in zones.values()) or reveal == "at_end"
                  or bool(self.owner_vars))
        paths = data.get("state_paths") or []
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            r(("state_paths",), "expected a list of state paths")
            paths = []
        aliases = state_aliases(r, data.get("state_aliases"))
        if self.report.problems or score is None or end is None:
            return None
        return Rules(
            id=str(rid), name=name, version=version, min_players=pmin, max_players=pmax,
            options=options, dice=dice, zones=zones, game_vars=scoped["game"],
            player_vars=scoped["player"], turn_vars=scoped["turn"], actions=actions,
            turn_start=turn_start, turn_end=turn_end, round_start=round_start,
            round_end=round_end, bot_hints=hints, legal=build_legal(actions),
            score=score, end=end, round_mode=round_mode, hidden_information=hidden, teams=teams,
            teams_option=teams_option, phases=phases,
            state_paths=tuple(paths), data=data, source=str(self.folder), layout=layout,
            large_domains=any(a.sample is not None for adef in actions.values()
                              for a in adef.args),
            continuations=tuple(compiler.shared.continuations),
            questions=tuple(compiler.shared.questions), windows=dict(compiler.shared.windows),
            owner_vars=frozenset(self.owner_vars), reveal_scores=reveal,
            indexed=dict(self.indexed),
            reveal_when=reveal_when,
            items=items, properties=properties, boards=boards, state_aliases=aliases,
            file=self.report.file,
        )

    def var_visibility(self, block: dict[Any, Any], scope_name: str) -> dict[Any, Any]:
        """Unwrap `name: {value: V, visible: owner}` into `name: V`, noting who sees it."""
        out = {}
        for var, value in block.items():
            if isinstance(value, dict):
                path = ("vars", scope_name, var)
                check_keys(self.report, value, {"value", "visible", "keys"}, path,
                           "key of a variable")
                if "value" not in value:
                    self.report(path, "a variable written as a mapping needs `value`, e.g. "
                                      "{value: 0, visible: owner} or {keys: [2, 3, 4], value: 0}")
                if "keys" in value:
                    keys = self.var_keys(value["keys"], (*path, "keys"))
                    if keys is not None and isinstance(var, str):
                        self.indexed[var] = keys
                visible = self.choice(value.get("visible"), (*path, "visible"),
                                      ("all", "owner"), "all")
                if visible == "owner":
                    if scope_name != "player":
                        self.report((*path, "visible"), "only a player variable can be seen "
                                                        "by its owner alone")
                    else:
                        self.owner_vars.add(str(var))
                value = value.get("value", 0)
            out[var] = value
        return out


    def var_keys(self, raw: Any, path: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """The keys of an indexed variable: a list of whole numbers or of texts, each once,
        or `{from: LO, to: HI}` (whole numbers, both ends included)."""
        if isinstance(raw, dict):
            check_keys(self.report, raw, {"from", "to"}, path, "key of a range of keys")
            if "from" not in raw or "to" not in raw:
                self.report(path, "a range of keys needs `from` and `to`, e.g. {from: 2, to: 12}")
                return None
            lo = self.integer(raw["from"], (*path, "from"))
            hi = self.integer(raw["to"], (*path, "to"))
            if lo is None or hi is None:
                return None
            if hi < lo:
                self.report((*path, "to"), f"`to` ({hi}) is less than `from` ({lo})")
                return None
            if hi - lo >= MAX_KEYS:
                self.report(path, f"{hi - lo + 1} keys is too many (at most {MAX_KEYS})")
                return None
            return tuple(range(lo, hi + 1))
        if not isinstance(raw, list) or not raw:
            self.report(path, "expected a list of keys, e.g. [2, 3, 4] or [red, blue], or a "
                              "range {from: 2, to: 12}" if not isinstance(raw, list) else
                        "the list of keys is empty: give at least one key")
            return None
        if len(raw) > MAX_KEYS:
            self.report(path, f"{len(raw)} keys is too many (at most {MAX_KEYS})")
            return None
        seen: set[Any] = set()
        for i, key in enumerate(raw):
            if isinstance(key, bool):  # `yes`, `no`, `on`, `off` unquoted
                self.report((*path, i), f"a key is a whole number or a text, not "
                                        f"{str(key).lower()} (YAML reads yes, no, on and off as "
                                        "true/false: quote them)")
                return None
            if type(key) not in (int, str) or _too_large(key):
                self.report((*path, i), f"a key is a whole number or a text, not {_shown(key)}")
                return None
            if type(key) is not type(raw[0]):
                self.report((*path, i), f"keys are all whole numbers or all texts: "
                                        f"{_shown(raw[0])} and {_shown(key)} are mixed")
                return None
            if key in seen:
                self.report((*path, i), f"the key {_shown(key)} is listed twice")
                return None
            seen.add(key)
        return tuple(raw)


def problems_of(folder: FsPath | str) -> list[Problem]:
    """Every problem with a ruleset folder (empty when it loads)."""
    try:
        load_ruleset(folder)
    except LoadError as exc:
        return exc.problems
    return []


_ALIAS_PART = re.compile(r"^([a-z][a-z0-9_]*|[A-Z][A-Z_]*)$")
_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]*\b")


def state_aliases(r: Reporter, raw: Any) -> tuple[tuple[str, str], ...]:
    """`state_aliases: {PATTERN: TARGET}`: check that each pattern is dotted lower_snake_case
    parts or CAPITAL placeholders, and that the target uses only the pattern's placeholders."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        r(("state_aliases",), "expected a mapping PATTERN: TARGET, e.g. "
                              "{deck: zones.draw_pile.size}")
        return ()
    out = []
    for pattern, target in raw.items():
        path = ("state_aliases", pattern)
        if not isinstance(pattern, str) or not all(
                _ALIAS_PART.match(part) for part in pattern.split(".")):
            r(path, f"an alias {pattern!r} is dotted parts, each lower_snake_case or a "
                    "CAPITAL placeholder (players.NAME.coins)")
            continue
        if not isinstance(target, str) or not target:
            r(path, "expected the generic state path it stands for, as text")
            continue
        known = set(_PLACEHOLDER.findall(pattern))
        for word in _PLACEHOLDER.findall(target):
            if word not in known:
                near = _unknown("placeholder", word, sorted(known)) if known else (
                    f"unknown placeholder {word!r}: the alias {pattern!r} has none")
                r(path, near)
        out.append((pattern, target))
    return tuple(out)


def _check_replays(self: _Builder, raw: Any, version: int,
                   options: dict[str, OptionDef]) -> None:
    """`replays: [1, 2]`: older versions whose saves these rules still replay (each a whole
    number below `version`, listed once); or `{1: {options: {NAME: VALUE}}, 2: {}}`: the
    same, each version's saves replaying with those option values."""
    if raw is None:
        return
    if isinstance(raw, dict):
        for v, spec in raw.items():
            if _older_version(self, v, ("replays", v) if _is_version(v) else ("replays",),
                              version):
                _check_replay_spec(self, spec, ("replays", v), options)
        return
    if not isinstance(raw, list):
        self.report(("replays",), f"expected a list of older versions, e.g. [1, 2], or a "
                                  f"mapping of them to their options, e.g. {{1: {{options: "
                                  f"{{edition: 1}}}}}}, found {_shown(raw)}")
        return
    seen: set[int] = set()
    for i, v in enumerate(raw):
        if not _older_version(self, v, ("replays", i), version):
            continue
        if v in seen:
            self.report(("replays", i), f"version {v} is listed twice")
        else:
            seen.add(v)


def _is_version(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _older_version(self: _Builder, v: Any, path: tuple[Any, ...], version: int) -> bool:
    """Whether `v` is a whole number below `version` (reported where it is not)."""
    if not _is_version(v):
        self.report(path, f"expected a version number, found {_shown(v)}")
        return False
    if not 1 <= v < version:
        self.report(path, f"version {v} is not an older version: these rules are version "
                          f"{version}")
        return False
    return True


def _check_replay_spec(self: _Builder, spec: Any, path: tuple[Any, ...],
                       options: dict[str, OptionDef]) -> None:
    """`{options: {NAME: VALUE}}` (or nothing): the option values an older version's saves
    replay with; each option declared, each value one it allows."""
    if spec is None or spec == {}:
        return
    if not isinstance(spec, dict):
        self.report(path, f"expected {{options: {{NAME: VALUE, ...}}}} or nothing, found "
                          f"{_shown(spec)}")
        return
    for key in spec:
        if key != "options":
            self.report((*path, key) if isinstance(key, str) else path,
                        f"unknown key {_shown(key)}; a replayed version has only options")
    chosen = spec.get("options")
    if chosen is None:
        return
    if not isinstance(chosen, dict):
        self.report((*path, "options"), f"expected a mapping of option names to values, "
                                        f"found {_shown(chosen)}")
        return
    for name, value in chosen.items():
        where = (*path, "options", name)
        o = options.get(name) if isinstance(name, str) else None
        if o is None:
            known = ", ".join(options) or "none"
            self.report(where if isinstance(name, str) else (*path, "options"),
                        f"no option {_shown(name)} in these rules; they have: {known}")
            continue
        why = _option_value_problem(o, value)
        if why:
            self.report(where, why)


def _option_value_problem(o: OptionDef, value: Any) -> str | None:
    """Why `value` is not one option `o` allows (None when it is)."""
    if o.choices:
        if value in o.choices and type(value) is type(o.default):
            return None
        return f"{_shown(value)} is not one of {o.name}'s choices {list(o.choices)}"
    if isinstance(o.default, bool):
        return None if isinstance(value, bool) else (
            f"option {o.name} is true or false, not {_shown(value)}")
    if isinstance(o.default, int):
        if not _is_version(value):
            return f"option {o.name} is a whole number, not {_shown(value)}"
        if (o.minimum is not None and value < o.minimum) or (
                o.maximum is not None and value > o.maximum):
            return f"option {o.name} is from {o.minimum} to {o.maximum}, not {value}"
        return None
    if type(value) is not type(o.default):
        return f"option {o.name} is {type_of_value(o.default)}, not {_shown(value)}"
    return None
