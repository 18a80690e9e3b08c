"""Load a ruleset folder into a validated, compiled, frozen `Rules`.

Every problem is reported at once as `file:line:col: path: message`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path as FsPath
from typing import Any

from ..engine.boards import kind_on_domain, space_domain, space_zone
from ..engine.compiler import EffectCompiler
from ..engine.decide import PASS
from ..engine.domains import DOMAINS, SUBSET_OPTIONAL, Subset
from ..engine.effects import _unknown
from ..engine.expr import (
    CONSTANTS,
    FUNCTIONS,
    Compiled,
    Scope,
    body_type,
)
from ..engine.exprtypes import expr_type, type_of_value
from ..engine.formulas import Formula, make_formula, parse_signature, stand_in
from ..engine.legality import build_legal
from ..engine.model import (
    ActionDef,
    ArgDef,
    BoardDef,
    BotHint,
    DieDef,
    EndDef,
    ItemKindDef,
    OptionDef,
    PropertyDef,
    Rules,
    ZoneDef,
)
from .arguments import argument_in_when
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
                       "replays, e.g. [1, 2]"),
}
OPTION_KEYS = {"default", "label", "min", "max", "choices"}
DIE_KEYS = {"faces", "label", "values"}
ZONE_KEYS = {"holds", "per_player", "visible", "blind", "start", "label", "order", "face"}
ITEM_KEYS = {"type", "copies", "label", "text"}
ITEM_TYPES = ("card", "tile", "token")
PROPERTY_TYPES = ("number", "text", "list", "table", "effects")
ORDERS = ("pile", "deck")
BOARD_KEYS = {"rows", "cols", "spaces", "per_player", "visible", "holds", "label"}
MAX_SPACES = 400
FACES = ("up", "down")
ACTION_KEYS = {"label", "key", "when", "why_not", "args", "effects", "by", "help", "windows"}
END_KEYS = {"trigger", "finish_round", "last_turns", "ties", "tiebreak"}
VISIBILITY = ("all", "owner", "none")
HOLDS = ("dice", "cards", "tiles", "tokens")
TIES = ("shared", "leaders_replay")
BY = ("current", "others", "any", "window")


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
        self.owner_vars: set[str] = set()  # player variables only their owner sees

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
        _check_replays(self, data.get("replays"), version)
        pmin = pmax = 1
        teams = 0
        if "players" in data:  # a missing section is reported once, above
            players = self.mapping(data.get("players"), ("players",), "min and max")
            check_keys(r, players, {"min", "max", "teams"}, ("players",), "key of players")
            pmin = self.integer(players.get("min"), ("players", "min"), 1, MAX_SEATS) or 1
            pmax = self.integer(players.get("max"), ("players", "max"), 1, MAX_SEATS) or pmin
            if pmax < pmin:
                r(("players", "max"), f"max ({pmax}) is less than min ({pmin})")
            if "teams" in players:
                teams = self.integer(players["teams"], ("players", "teams"), 2) or 0
                if teams and (pmin % teams or pmax % teams):
                    r(("players", "teams"), f"{teams} teams of equal size need min and max "
                                            f"to be multiples of {teams}")
        self.text(data.get("time"), ("time",))
        self.text(data.get("pitch"), ("pitch",))

        options = self.options(data.get("options"))
        dice = self.dice(data.get("dice"))
        properties = self.properties(data.get("properties"))
        kind_specs = self.item_kinds(data.get("items"), properties, dice)
        zones = self.zones(data.get("zones"), dice, kind_specs, pmax)
        variables = self.mapping(data.get("vars"), ("vars",), "game, player and turn variables")
        check_keys(r, variables, {"game", "player", "turn"}, ("vars",), "variable scope")
        scoped: dict[str, dict[str, Any]] = {}
        seen: dict[str, str] = {n: "option" for n in options}
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
        faces = frozenset(f for d in dice.values() for f in d.faces)
        scope = Scope(
            options=frozenset(options), game_vars=frozenset(scoped["game"]),
            player_vars=frozenset(scoped["player"]), turn_vars=frozenset(scoped["turn"]),
            zones=frozenset(z for z, d in zones.items() if not d.per_player),
            player_zones=frozenset(z for z, d in zones.items() if d.per_player),
            faces=faces,  # names, and the numbers of dice whose faces are numbers
            kinds=frozenset(dice) | frozenset(kind_specs), props=frozenset(properties),
            types={**{n: type_of_value(o.default) for n, o in options.items()},
                   **{n: type_of_value(v) for block in scoped.values() for n, v in block.items()}},
        )
        boards = self.boards(data.get("boards"), zones, seen)
        scope = replace(scope, boards=frozenset(boards))
        scope = self.defines(data.get("define"), scope, seen)
        compiler = EffectCompiler(scope, r, zones)
        compiler.shared.parse_args = self.args
        compiler.effect_props = frozenset(
            n for n, p in properties.items() if p.type == "effects")
        items = self.item_props(kind_specs, properties, compiler)
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
        turn_start = compiler.effects(turn.get("start"), ("turn", "start"))
        turn_end = compiler.effects(turn.get("end"), ("turn", "end"))
        round_start = compiler.effects(rnd.get("start"), ("round", "start"))
        round_end = compiler.effects(rnd.get("end"), ("round", "end"))
        self.decisions(actions, compiler)
        hints = self.bots(data.get("bots"), actions, compiler, scope)
        layout = build_layout(data.get("layout"), compiler, dice, zones, set(faces), actions,
                              boards)
        reveal = self.choice(data.get("reveal_scores"), ("reveal_scores",),
                             ("always", "at_end"), "always")
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
            state_paths=tuple(paths), data=data, source=str(self.folder), layout=layout,
            large_domains=any(a.sample is not None for adef in actions.values()
                              for a in adef.args),
            continuations=tuple(compiler.shared.continuations),
            questions=tuple(compiler.shared.questions), windows=dict(compiler.shared.windows),
            owner_vars=frozenset(self.owner_vars), reveal_scores=reveal,
            items=items, properties=properties, boards=boards, state_aliases=aliases,
            file=self.report.file,
        )

    def var_visibility(self, block: dict[Any, Any], scope_name: str) -> dict[Any, Any]:
        """Unwrap `name: {value: V, visible: owner}` into `name: V`, noting who sees it."""
        out = {}
        for var, value in block.items():
            if isinstance(value, dict):
                path = ("vars", scope_name, var)
                check_keys(self.report, value, {"value", "visible"}, path, "key of a variable")
                if "value" not in value:
                    self.report(path, "a variable written as a mapping needs `value`, e.g. "
                                      "{value: 0, visible: owner}")
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

    def options(self, raw: Any) -> dict[str, OptionDef]:
        out: dict[str, OptionDef] = {}
        for name, spec in self.mapping(raw, ("options",), "option: {default: ...}").items():
            path = ("options", name)
            if not self.ident(name, path, "option"):
                continue
            # A function is only ever called, so an option may share its name (a fixed
            # option id such as `length`): the bare name reads the option.
            if name in RESERVED and name not in FUNCTIONS:
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
            numbers = all(isinstance(f, int) and not isinstance(f, bool) for f in faces)
            if not numbers and not all(isinstance(f, str) and _ID.match(f) for f in faces):
                self.report((*path, "faces"), "every face id must be lower_snake_case "
                                              "(or every face a whole number)")
                continue
            values = self.face_values(spec, faces, numbers, path)
            out[name] = DieDef(name, tuple(faces), self.text(spec.get("label"),
                                                             (*path, "label"), name), values)
        return out

    def zones(self, raw: Any, dice: dict[str, DieDef], kinds: dict[str, dict[str, Any]],
              seats: int = 1) -> dict[str, ZoneDef]:
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
            start_items: list[tuple[str, int]] = []
            raw_start = spec.get("start")
            if raw_start == "all":  # every copy of every card kind: the whole deck
                start_items = [(k, int(v.get("copies", 1))) for k, v in kinds.items()
                               if v.get("type", "card") == "card"]
                raw_start = None
            for kind, count in self.mapping(raw_start, (*path, "start"),
                                            "kind: count (or all)").items():
                if kind not in dice and kind not in kinds:
                    self.report((*path, "start", kind), _unknown(
                        "die or item kind" if kinds else "die kind", str(kind),
                        [*dice, *kinds]))
                    continue
                n = self.integer(count, (*path, "start", kind), 0, MAX_START)
                if n is not None:
                    (start if kind in dice else start_items).append((kind, n))
            order = self.choice(spec.get("order"), (*path, "order"), ORDERS, "pile")
            face = self.choice(spec.get("face"), (*path, "face"), FACES, "up")
            out[name] = ZoneDef(name, holds, per_player, visible, tuple(start),
                                self.text(spec.get("label"), (*path, "label"), name), blind,
                                order, face, tuple(start_items))
        self.check_copies(out, kinds, seats)
        return out

    def check_copies(self, zones: dict[str, ZoneDef], kinds: dict[str, dict[str, Any]],
                     seats: int) -> None:
        """No zone set-up places more of an item kind than the box holds (`copies`), with
        the most players the game takes: a per-player zone's start is placed once per seat."""
        placed: dict[str, int] = {}
        mine: dict[str, str] = {}  # a kind a per-player zone starts with: that zone
        for zdef in zones.values():
            for kind, count in zdef.start_items:
                placed[kind] = placed.get(kind, 0) + count * (seats if zdef.per_player else 1)
                if zdef.per_player:
                    mine.setdefault(kind, zdef.name)
        for kind, count in placed.items():
            copies = int(kinds[kind]["copies"])
            if count > copies:
                why = (f" ({mine[kind]!r} is each player's own, placed for each of up to "
                       f"{seats} players)" if kind in mine else "")
                where = ("zones", mine[kind], "start", kind) if kind in mine else ("items", kind)
                self.report(where, f"the zones start with {count} of {kind!r}{why} but it "
                                   f"has {copies} (copies: {copies})")

    # --- dice values, items with data, named expressions --------------------------------

    def face_values(self, spec: dict[str, Any], faces: list[Any], numbers: bool, path: Path
                    ) -> tuple[int, ...]:
        """Each face's value: the number on a number face, else `values:` in parallel."""
        raw = spec.get("values")
        if raw is None:
            return tuple(faces) if numbers else ()
        vpath = (*path, "values")
        if not isinstance(raw, list) or len(raw) != len(faces) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in raw):
            self.report(vpath, f"expected a list of {len(faces)} whole numbers, one per face")
            return ()
        seen: dict[Any, int] = {}
        for f, v in zip(faces, raw, strict=True):
            if seen.setdefault(f, v) != v:
                self.report(vpath, f"face {f!r} is given two values ({seen[f]} and {v})")
                return ()
        return tuple(raw)

    def properties(self, raw: Any) -> dict[str, PropertyDef]:
        """`properties:` name -> default value (its type follows), or {type, default}."""
        out: dict[str, PropertyDef] = {}
        for name, spec in self.mapping(raw, ("properties",), "property: default").items():
            path = ("properties", name)
            if not self.ident(name, path, "property"):
                continue
            if name in ITEM_KEYS:
                self.report(path, f"{name!r} is a key every item kind has; choose another name")
                continue
            if isinstance(spec, dict) and "type" in spec:
                check_keys(self.report, spec, {"type", "default"}, path, "key of a property")
                ptype = self.choice(spec.get("type"), (*path, "type"), PROPERTY_TYPES, "")
                if not ptype:
                    continue
                default = spec.get("default", _EMPTY[ptype])
            else:
                default = spec
                inferred = _type_of(spec)
                if inferred is None:
                    self.report(path, "a default is a number, text, a list or a table "
                                      "(or {type: effects})")
                    continue
                ptype = inferred
            value = self.prop_value(ptype, default, (*path, "default"))
            if value is not _MISSING:
                out[name] = PropertyDef(name, ptype, value)
        return out

    def prop_value(self, ptype: str, raw: Any, path: Path) -> Any:
        """A property value checked against its type (effects are compiled later)."""
        if ptype != "effects" and _type_of(raw) != ptype:
            self.report(path, f"expected {_A[ptype]}, found {raw!r}")
            return _MISSING
        if ptype == "list":
            return tuple(raw)
        if ptype == "effects" and not isinstance(raw, list | dict):
            self.report(path, "expected a list of effects")
            return _MISSING
        return raw

    def item_kinds(self, raw: Any, properties: dict[str, PropertyDef],
                   dice: dict[str, DieDef]) -> dict[str, dict[str, Any]]:
        """`items:` checked; effects are compiled once the scope is known (item_props)."""
        out: dict[str, dict[str, Any]] = {}
        for name, spec in self.mapping(raw, ("items",), "kind: {type: card, ...}").items():
            path = ("items", name)
            if not self.ident(name, path, "item kind"):
                continue
            if name in dice:
                self.report(path, f"{name!r} is already a die kind")
                continue
            spec = self.mapping(spec, path, "type, copies and properties")
            check_keys(self.report, spec, ITEM_KEYS | set(properties), path,
                       "property of an item kind")
            if "type" not in spec:
                self.report(path, f"an item kind needs a type: one of {', '.join(ITEM_TYPES)}")
            self.choice(spec.get("type", "card"), (*path, "type"), ITEM_TYPES, "card")
            copies = self.integer(spec.get("copies", 1), (*path, "copies"), 1)
            self.text(spec.get("label"), (*path, "label"))
            self.text(spec.get("text"), (*path, "text"))
            out[name] = {**spec, "copies": copies or 1}
        return out

    def item_props(self, kinds: dict[str, dict[str, Any]], properties: dict[str, PropertyDef],
                   compiler: EffectCompiler) -> dict[str, ItemKindDef]:
        """Every item kind with all its property values; card effects compiled with `$card`."""
        card_scope = replace(compiler.scope, args=frozenset({"card"}))
        cards = EffectCompiler(card_scope, self.report, compiler.zone_defs)
        cards.effect_props = compiler.effect_props
        out: dict[str, ItemKindDef] = {}
        for name, spec in kinds.items():
            props: dict[str, Any] = {}
            for pname, pdef in properties.items():
                ppath = ("items", name, pname)
                raw = spec.get(pname, pdef.default)
                if pdef.type == "effects":
                    value = self.prop_value("effects", raw, ppath)
                    if value is not _MISSING:
                        props[pname] = cards.effects(raw, ppath)
                    continue
                value = self.prop_value(pdef.type, raw, ppath) if pname in spec else raw
                if value is not _MISSING:
                    props[pname] = value
            out[name] = ItemKindDef(
                name, str(spec.get("type", "card")), int(spec["copies"]),
                str(spec.get("label") or name.replace("_", " ").title()),
                str(spec.get("text") or ""), props)
        return out

    def defines(self, raw: Any, scope: Scope, taken: dict[str, str]) -> Scope:
        """`define:` NAME or NAME(PARAMS) -> expression; compiled in dependency order, cycles
        reported. The scope given back knows them all."""
        specs = self.mapping(raw, ("define",), "name: expression")
        names: dict[str, Any] = {}
        keys: dict[str, Any] = {}  # each name's key as written, where its problems are told
        signatures: dict[str, list[str]] = {}
        for key, text in specs.items():
            path = ("define", key)
            sig = parse_signature(key) if isinstance(key, str) else None
            if isinstance(sig, str):
                self.report(path, sig)
                continue
            name = key if sig is None else sig[0]
            if not self.ident(name, path, "name"):
                continue
            if name in taken or name in RESERVED or name in names:
                what = taken.get(name) or RESERVED.get(name) or "named expression"
                self.report(path, f"{name!r} is already the name of {_article(what)}; "
                                  "choose another")
                continue
            names[name], keys[name] = text, key
            if sig is not None:
                signatures[name] = sig[1]
        failed: set[str] = set()
        for name, params in signatures.items():
            for param in params:
                holder = taken.get(param) or RESERVED.get(param) or (
                    "named expression" if param in names else None)
                if holder:
                    self.report(("define", keys[name]), f"the parameter {param!r} is already "
                                f"the name of {_article(holder)}; choose another")
                    failed.add(name)
        deps = {n: _names_in(t) & set(names) - set(signatures.get(n, []))
                for n, t in names.items()}
        done: dict[str, tuple[str, dict[str, Any]]] = {}
        formulas: dict[str, Formula] = {}

        def visit(name: str, trail: list[str]) -> None:
            if name in done or name in formulas or name in failed:
                return
            if name in trail:
                cycle = [*trail[trail.index(name):], name]
                self.report(("define", keys[cycle[0]]), "named expressions refer to each other "
                                                        "in a circle: " + " -> ".join(cycle))
                failed.update(cycle)
                return
            for dep in sorted(deps[name]):
                visit(dep, [*trail, name])
            if name in failed or any(d in failed for d in deps[name]):
                failed.add(name)
                return
            sub = replace(scope, defines=dict(done), formulas=dict(formulas))
            params = signatures.get(name)
            if params is not None:  # its parameters are names in its body, of any type
                sub = replace(sub, params=tuple(params),
                              types={**scope.types, **{p: "any" for p in params}})
            compiled = EffectCompiler(sub, self.report, {}).expr(names[name], ("define",
                                                                              keys[name]))
            if compiled is None:
                failed.add(name)
            elif params is not None:
                formulas[name] = make_formula(name, params, compiled,
                                              _checker(compiled, sub, params))
            else:
                done[name] = (str(getattr(compiled, "source", "")),
                              dict(getattr(compiled, "namespace", {})))

        for name in names:
            visit(name, [])
        # A broken definition is reported once: its uses compile against a stand-in.
        done.update((name, ("None", {})) for name in failed if name not in signatures)
        formulas.update((name, stand_in(name, signatures[name])) for name in failed
                        if name in signatures)
        return replace(scope, defines=done, formulas=formulas)

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
            acompiler = EffectCompiler(ascope, self.report, compiler.zone_defs,
                                       compiler.shared)
            acompiler.effect_props = compiler.effect_props
            when: Compiled | None = None
            reads_args = argument_in_when(spec.get("when"), args)
            if reads_args:
                self.report((*path, "when"), reads_args)
            elif "when" in spec:
                when = compiler.condition(spec["when"], (*path, "when"))
            if "effects" not in spec:
                self.report(path, "an action needs `effects`")
            effects = acompiler.effects(spec.get("effects"), (*path, "effects"))
            label = self.text(spec.get("label"), (*path, "label"), aid.replace("_", " ").title())
            key = self.text(spec.get("key"), (*path, "key"), aid[:1])
            why = self.text(spec.get("why_not"), (*path, "why_not"))
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
                                 tuple(windows))
        return out

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
            actions[PASS] = ActionDef(PASS, "Pass", "p", None, "", (), _no_effects, "window",
                                      "Play nothing now.", tuple(shared.windows))

    def args(self, raw: Any, path: Path, scope: Scope) -> list[ArgDef]:
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
                values = self.space_of(spec, apath, scope)
                if values is not None:
                    out.append(ArgDef(name, "space_of", values))
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

    def boards(self, raw: Any, zones: dict[str, ZoneDef], seen: dict[str, str]
               ) -> dict[str, BoardDef]:
        """Grids and tracks; each space becomes a zone `BOARD@SPACE` holding its items."""
        out: dict[str, BoardDef] = {}
        for name, spec in self.mapping(raw, ("boards",), "board: {rows, cols} or "
                                                         "{spaces: [...]}").items():
            path = ("boards", name)
            if not self.ident(name, path, "board"):
                continue
            if name in zones:
                self.report(path, f"{name!r} is already the name of a zone")
                continue
            spec = self.mapping(spec, path, "board settings")
            check_keys(self.report, spec, BOARD_KEYS, path, "key of a board")
            spaces: list[str] = []
            rows, cols = 1, 0
            if "spaces" in spec:
                if "rows" in spec or "cols" in spec:
                    self.report(path, "a board is either a grid (rows and cols) or a track "
                                      "(spaces), not both")
                    continue
                raw_spaces = spec["spaces"]
                if (not isinstance(raw_spaces, list) or not raw_spaces
                        or not all(isinstance(x, str) and _ID.match(x) for x in raw_spaces)
                        or len(set(raw_spaces)) != len(raw_spaces)):
                    self.report((*path, "spaces"), "expected a list of different "
                                                   "lower_snake_case space names")
                    continue
                spaces = list(raw_spaces)
            else:
                rows = self.integer(spec.get("rows"), (*path, "rows"), 1) or 0
                cols = self.integer(spec.get("cols"), (*path, "cols"), 1) or 0
                if not rows or not cols:
                    continue
                if rows * cols > MAX_SPACES:
                    self.report(path, f"{rows} x {cols} spaces is more than {MAX_SPACES}")
                    continue
                spaces = [f"r{r + 1}c{c + 1}" for r in range(rows) for c in range(cols)]
            per_player = spec.get("per_player", False)
            if not isinstance(per_player, bool):
                self.report((*path, "per_player"), "expected true or false")
                per_player = False
            visible = self.choice(spec.get("visible"), (*path, "visible"), VISIBILITY, "all")
            holds = self.choice(spec.get("holds"), (*path, "holds"), HOLDS, "tiles")
            label = self.text(spec.get("label"), (*path, "label"), name.replace("_", " "))
            out[name] = BoardDef(name, tuple(spaces), rows, cols, per_player, label,
                                 {s: i for i, s in enumerate(spaces)})
            seen[name] = "board"
            for space in spaces:
                zname = space_zone(name, space)
                zones[zname] = ZoneDef(zname, holds, per_player, visible,
                                       label=f"{label}: {space.replace('_', ' ')}")
        return out

    def kind_on(self, spec: dict[str, Any], path: Path, scope: Scope) -> Any:
        """A `kind_on` argument: the kinds lying on the space an expression gives."""
        board = spec.get("board")
        if board not in scope.boards:
            self.report((*path, "board") if "board" in spec else path,
                        _unknown("board", str(board), sorted(scope.boards)))
            return None
        if "space" not in spec:
            self.report(path, "kind_on needs `space`: an expression giving the space")
            return None
        space = EffectCompiler(scope, self.report, {}).expr(spec["space"], (*path, "space"))
        where = None
        if "where" in spec:
            kscope = Scope(**{**scope.__dict__, "args": scope.args | {"kind"}})
            where = EffectCompiler(kscope, self.report, {}).expr(spec["where"], (*path, "where"))
            if where is None:
                return None
        return None if space is None else kind_on_domain(str(board), space, where)

    def kind_in(self, spec: dict[str, Any], path: Path, scope: Scope) -> Any:
        """A `kind_in` argument: the kinds in a zone, maybe only those passing `where`."""
        zone = spec.get("zone")
        if zone not in scope.zones | scope.player_zones:
            self.report((*path, "zone") if "zone" in spec else path, _unknown(
                "zone", str(zone), sorted(scope.zones | scope.player_zones)))
            return None
        where = None
        if "where" in spec:
            kscope = Scope(**{**scope.__dict__, "args": scope.args | {"kind"}})
            where = EffectCompiler(kscope, self.report, {}).expr(spec["where"], (*path, "where"))
            if where is None:
                return None
        return DOMAINS["kind_in"].build(str(zone), where)

    def space_of(self, spec: dict[str, Any], path: Path, scope: Scope) -> Any:
        """A `space_of` argument: a board, maybe only its empty spaces, maybe a test."""
        board = spec.get("board")
        if board not in scope.boards:
            self.report((*path, "board") if "board" in spec else path,
                        _unknown("board", str(board), sorted(scope.boards)))
            return None
        empty = spec.get("empty", False)
        if not isinstance(empty, bool):
            self.report((*path, "empty"), "expected true or false")
            return None
        where = None
        if "where" in spec:
            kscope = Scope(**{**scope.__dict__, "args": scope.args | {"space"}})
            where = EffectCompiler(kscope, self.report, {}).expr(spec["where"], (*path, "where"))
            if where is None:
                return None
        return space_domain(str(board), empty, where)

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

    def end(self, raw: Any, compiler: EffectCompiler) -> EndDef | None:
        if raw is None and "end" not in self.data:
            return None  # reported once as a missing section
        spec = self.mapping(raw, ("end",), "trigger and ties")
        check_keys(self.report, spec, END_KEYS, ("end",), "key of end")
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


def _no_effects(c: Any) -> bool:
    return False
_MISSING = object()
_EMPTY: dict[str, Any] = {"number": 0, "text": "", "list": [], "table": {}, "effects": []}
_A = {"number": "a number", "text": "text", "list": "a list", "table": "a table (key: value)",
      "effects": "a list of effects"}


def _type_of(value: Any) -> str | None:
    """The property type a default value gives: the expression checker's, or a table."""
    if isinstance(value, dict):
        return "table"
    found = type_of_value(value)
    return found if found in ("number", "text", "list") else None
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "table"
    return None


def _article(what: str) -> str:
    return f"an {what}" if what[:1] in "aeiou" else f"a {what}"


def _checker(body: Compiled, scope: Scope, params: list[str]
             ) -> Callable[[tuple[str, ...]], str]:
    """A formula's type check: its body's type with its parameters typed as one call's
    arguments are (a plain number or true/false body has its own type)."""
    text = str(getattr(body, "text", ""))
    if not set(params) & _names_in(text):  # the body's type does not depend on the call
        fixed = expr_type(body)
        return lambda types: fixed
    return lambda types: body_type(text, scope, dict(zip(params, types, strict=True)))


def _names_in(text: Any) -> set[str]:
    """The plain names an expression mentions (none when it does not parse)."""
    if not isinstance(text, str):
        return set()
    try:
        tree = ast.parse(re.sub(r"\$", "__arg_", text.strip()), mode="eval")
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
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
        elif a.domain in ("item_in", "kind_in", "kind_on", "space_of"):
            types["$" + a.name] = "text"
        elif a.domain == "subset_of":
            types["$" + a.name] = "list"
        elif a.domain == "choice" and isinstance(raw, dict):
            spec = raw.get(a.name)
            values = spec.get("values") if isinstance(spec, dict) else None
            found = {type_of_value(v) for v in values or []}
            if len(found) == 1:
                types["$" + a.name] = found.pop()
    return Scope(**{**scope.__dict__, "args": frozenset(a.name for a in args), "types": types})


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


def _check_replays(self: _Builder, raw: Any, version: int) -> None:
    """`replays: [1, 2]`: older versions whose saves these rules still replay (each a whole
    number below `version`, listed once)."""
    if raw is None:
        return
    if not isinstance(raw, list):
        self.report(("replays",), f"expected a list of older versions, e.g. [1, 2], found "
                                  f"{_shown(raw)}")
        return
    seen: set[int] = set()
    for i, v in enumerate(raw):
        if not isinstance(v, int) or isinstance(v, bool):
            self.report(("replays", i), f"expected a version number, found {_shown(v)}")
        elif not 1 <= v < version:
            self.report(("replays", i), f"version {v} is not an older version: these rules "
                                        f"are version {version}")
        elif v in seen:
            self.report(("replays", i), f"version {v} is listed twice")
        else:
            seen.add(v)

