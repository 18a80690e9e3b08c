"""The effect library: one-key mappings in YAML, compiled once into closures.

Each effect is registered with its parameters (by kind), a one-line doc and a
YAML example; `rulesets/README.md` is kept in step with this registry by a
test. Effects never ask questions: every choice is an action argument.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from .decide import ask, open_window
from .decks import find_item, owner_of, settle_all, take_top
from .errors import ExpressionError
from .expr import (
    TYPE_WORDS,
    Compiled,
    Ctx,
    Scope,
    bind,
    clash,
    compile_expr,
    expr_type,
    inlining,
    prologue,
    source_of,
    suggest,
    zone_local,
)
from .model import Effect, QuestionDef, WindowDef
from .origins import PASSED_ON, Origin, origin_of, register
from .rollorder import roll_order
from .state import Event

Report = Callable[[tuple[Any, ...], str], None]
"""Called with (path, message) for every problem found while compiling."""

ZoneAccess = Callable[[Ctx], list[int]]


@dataclass(frozen=True)
class Param:
    """One parameter of an effect: its kind (zone, zones, expr, face, text, ...) and default."""

    kind: str
    doc: str
    required: bool = True
    default: Any = None
    vtype: str = "any"  # for an expr parameter: the value type it needs (number, player, ...)


@dataclass(frozen=True)
class EffectSpec:
    """A registered effect."""

    name: str
    doc: str
    example: str
    params: dict[str, Param]
    build: Callable[[dict[str, Any]], Effect] = field(repr=False)
    shorthand: str | None = None  # the parameter a plain scalar value fills
    emit: Callable[[dict[str, Any]], Piece | None] | None = field(default=None, repr=False)


EFFECTS: dict[str, EffectSpec] = {}
CONTROL_FORMS = {
    "when": "when: EXPR, then: [EFFECTS], else: [EFFECTS] - run `then` if EXPR holds, "
            "else `else` (optional).",
    "for_each_player": "for_each_player: [EFFECTS] - run the effects once for every player, "
                       "in seat order, with that player in scope (their variables and zones); "
                       "ending the turn inside is not allowed.",
    "choose": "choose: ID, args: {NAME: DOMAIN}, then: [EFFECTS] - ask a question in the "
              "middle of the list: the game waits until the player answers with action ID and "
              "the chosen arguments, then runs `then` with them ($NAME) and goes on with the "
              "list. `who: EXPR` names who answers (default: the player in scope); "
              "`single: auto` takes an only possible answer without asking; `prompt: TEXT`. "
              "With no possible answer, `then` is skipped.",
    "respond": "respond: WINDOW (or {window: WINDOW, ask: others_then_me}) - open a response "
               "window: players are asked in turn (`others`: the rest from the acting player's "
               "left; `others_then_me` (default): then the acting player; `everyone`: the "
               "acting player first) and may play an action listing the window under "
               "`windows:`, or pass. Every play asks everyone else again; when all asked have "
               "passed, the list goes on. Nobody with nothing playable is asked.",
}
SUSPENDING = ("choose", "respond")
# Control forms added by other modules (see loops.py): form name -> builder taking the
# compiler, the form's mapping and its path, giving the form's code piece.
EXTRA_FORMS: dict[str, Callable[[EffectCompiler, dict[str, Any], tuple[Any, ...]], Piece]] = {}
ASK_MODES = ("others", "others_then_me", "everyone")
CHOOSE_KEYS = {"choose", "args", "who", "single", "prompt", "then", "label", "key"}


class Shared:
    """What every compiler of one ruleset adds to: continuations, questions, windows.

    `parse_args` is the loader's argument parser (domains live with the loader).
    """

    def __init__(self) -> None:
        self.continuations: list[Effect] = []
        self.questions: list[Any] = []
        self.windows: dict[str, Any] = {}
        self.answers: dict[str, tuple[Any, ...]] = {}  # question id -> its ArgDefs, label, key
        self.parse_args: Callable[[Any, tuple[Any, ...], Scope], list[Any]] = (
            lambda raw, path, scope: [])

    def add(self, fn: Effect) -> int:
        """Register a continuation; its index names it in a decision frame."""
        self.continuations.append(fn)
        return len(self.continuations) - 1


def suspends(raw: Any) -> bool:
    """Whether an effect (list) may wait on a decision: it holds a choose or respond form."""
    if isinstance(raw, list):
        return any(suspends(x) for x in raw)
    if isinstance(raw, dict):
        return any(k in SUSPENDING or suspends(v) for k, v in raw.items())
    return False


def effect(name: str, doc: str, example: str, params: dict[str, Param],
           shorthand: str | None = None, emit: Callable[[dict[str, Any]], Piece | None] | None
           = None) -> Callable[[Callable[[dict[str, Any]], Effect]],
                               Callable[[dict[str, Any]], Effect]]:
    """Register an effect builder under `name` (with `emit`, inline code for hot cases)."""

    def register(build: Callable[[dict[str, Any]], Effect]) -> Callable[[dict[str, Any]], Effect]:
        EFFECTS[name] = EffectSpec(name, doc, example, params, build, shorthand, emit)
        return build

    return register


# --- compiling -------------------------------------------------------------

class EffectCompiler:
    """Turns a YAML effect list into one closure, reporting every problem it finds."""

    def __init__(self, scope: Scope, report: Report, zone_defs: dict[str, Any],
                 shared: Shared | None = None) -> None:
        self.scope = scope
        self.report = report
        self.zone_defs = zone_defs
        self.shared = shared if shared is not None else Shared()
        self.effect_props: frozenset[str] = frozenset()  # item properties holding effects

    def origin(self, path: tuple[Any, ...], raw: Any) -> Origin:
        """Where a piece of the ruleset is (its line when the reporter knows the marks)."""
        where = getattr(self.report, "where", None)
        line = where(path)[0] if where is not None else 0
        return Origin(path, line, _short(raw))

    def effects(self, raw: Any, path: tuple[Any, ...]) -> Effect:
        """Compile a list of effects (or one effect) found at `path` into one function."""
        if suspends(raw):
            if isinstance(raw, dict):
                raw = [raw]
            if not isinstance(raw, list):
                self.report(path, "expected a list of effects")
                return _noop
            return self.resumable(raw, path, 0, None)
        return generate(self.pieces(raw, path))

    # --- lists that wait on decisions --------------------------------------
    # A list holding a choose or respond form compiles in continuation-passing style: the
    # effects after the form become a continuation (a function registered by index), so a
    # list can stop where it asks and resume with the answer in a later `apply`. Lists
    # without such forms compile as before, with no cost.

    def resumable(self, items: list[Any], path: tuple[Any, ...], start: int,
                  then: Effect | None) -> Effect:
        """Compile items[start:] followed by the continuation `then` (None: the list ends)."""
        pieces: list[Piece] = []
        for i in range(start, len(items)):
            item, ipath = items[i], (*path, i)
            if not suspends(item):
                pieces.append(self.one(item, ipath))
                continue
            rest = self.resumable(items, path, i + 1, then)
            pieces.append(self.suspending(item, ipath, rest))
            return generate(pieces)
        if then is not None:
            ns: dict[str, Any] = {}
            pieces.append(Piece([f"return {bind(ns, then, 'k')}(c)"], ns))
        return generate(pieces)

    def suspending(self, raw: Any, path: tuple[Any, ...], rest: Effect) -> Piece:
        """A form that may wait on a decision, followed by `rest`."""
        if not isinstance(raw, dict):
            return _NOTHING
        ns: dict[str, Any] = {}
        if "when" in raw:
            for key in sorted(set(raw) - {"when", "then", "else"}):
                self.report((*path, key), _unknown("key of a when form", key, ["then", "else"]))
            test = self.expr(raw["when"], (*path, "when"))
            branch = self.resumable(_as_list(raw.get("then")), (*path, "then"), 0, rest)
            other = (self.resumable(_as_list(raw.get("else")), (*path, "else"), 0, rest)
                     if raw.get("else") else rest)
            if test is None:
                return _NOTHING
            return Piece([f"if {source_of(test, ns)}:",
                          f"    return {bind(ns, branch, 'k')}(c)",
                          f"return {bind(ns, other, 'k')}(c)"], ns,
                         ends_turn=ends_turn(branch) or ends_turn(other))
        if "choose" in raw:
            return self.choose(raw, path, rest)
        if "respond" in raw and len(raw) == 1:
            return self.respond(raw["respond"], (*path, "respond"), rest)
        name = next(iter(raw))
        self.report((*path, name), f"a choose or respond form cannot stand inside {name}; "
                                   "put it in the action's own list (or a when form)")
        return _NOTHING

    def choose(self, raw: dict[str, Any], path: tuple[Any, ...], rest: Effect) -> Piece:
        """A question: the list waits for the answer, then runs `then` and goes on."""
        for key in sorted(set(raw) - CHOOSE_KEYS):
            self.report((*path, key), _unknown("key of a choose form", key, sorted(CHOOSE_KEYS)))
        qid = raw["choose"]
        if not isinstance(qid, str) or not re.match(r"^[a-z][a-z0-9_]*$", qid):
            self.report((*path, "choose"), f"a question's id {qid!r} must be lower_snake_case "
                                           "(it names the answer, e.g. choose: discard)")
            return _NOTHING
        if "then" not in raw:
            self.report(path, "a choose form needs `then: [effects]` run with the answer")
        args = self.shared.parse_args(raw.get("args"), (*path, "args"), self.scope)
        if not args and "args" in raw:
            return _NOTHING
        if not args:
            self.report(path, "a choose form needs `args: {NAME: DOMAIN}`: what is chosen")
            return _NOTHING
        single = raw.get("single", "ask")
        if single not in ("ask", "auto"):
            self.report((*path, "single"), _unknown("value", str(single), ["ask", "auto"]))
        who = self.expr(raw["who"], (*path, "who")) if "who" in raw else None
        prompt = None
        if "prompt" in raw:
            prompt = self.convert("text", raw["prompt"], (*path, "prompt"))
            if prompt is _BAD:
                prompt = None
        label = raw.get("label", qid.replace("_", " ").capitalize())
        key = raw.get("key", qid[:1])
        if not isinstance(label, str) or not isinstance(key, str):
            self.report(path, "label and key are text")
            label, key = qid, qid[:1]
        known = self.shared.answers.get(qid)
        names = tuple(sorted(a.name for a in args))
        if known is not None and tuple(sorted(a.name for a in known[0])) != names:
            self.report((*path, "args"), f"every choose {qid!r} must ask for the same "
                                         f"arguments, {[a.name for a in known[0]]}")
        if known is None:
            self.shared.answers[qid] = (tuple(args), label, key)
        inner = EffectCompiler(
            Scope(**{**self.scope.__dict__, "args": self.scope.args | set(names)}),
            self.report, self.zone_defs, self.shared)
        then = inner.resumable(_as_list(raw.get("then")), (*path, "then"), 0, rest)
        qi = len(self.shared.questions)
        self.shared.questions.append(QuestionDef(
            qid, tuple(args), who, single == "auto", self.shared.add(then),
            self.shared.add(rest), prompt))
        ns: dict[str, Any] = {"_ask": ask}
        return Piece([f"return _ask(c, {qi})"], ns)

    def respond(self, raw: Any, path: tuple[Any, ...], rest: Effect) -> Piece:
        """A response window; the list goes on when it closes."""
        if isinstance(raw, str):
            raw = {"window": raw}
        if not isinstance(raw, dict) or "window" not in raw:
            self.report(path, "expected respond: WINDOW or {window: WINDOW, ask: ...}")
            return _NOTHING
        for key in sorted(set(raw) - {"window", "ask"}):
            self.report((*path, key), _unknown("parameter of respond", key, ["ask", "window"]))
        wid, ask_mode = raw["window"], raw.get("ask", "others_then_me")
        if not isinstance(wid, str) or not re.match(r"^[a-z][a-z0-9_]*$", wid):
            self.report((*path, "window"), f"a window id {wid!r} must be lower_snake_case")
            return _NOTHING
        if ask_mode not in ASK_MODES:
            self.report((*path, "ask"), _unknown("value", str(ask_mode), list(ASK_MODES)))
            return _NOTHING
        known = self.shared.windows.get(wid)
        if known is not None and known.ask != ask_mode:
            self.report((*path, "ask"), f"window {wid!r} is opened elsewhere with "
                                        f"ask: {known.ask}")
        self.shared.windows.setdefault(wid, WindowDef(wid, ask_mode))
        ns: dict[str, Any] = {"_open": open_window}
        return Piece([f"return _open(c, {wid!r}, {self.shared.add(rest)})"], ns)

    def pieces(self, raw: Any, path: tuple[Any, ...]) -> list[Piece]:
        """The code pieces of an effect list, in order."""
        if raw is None:
            return []
        if isinstance(raw, dict):
            raw = [raw]
        if not isinstance(raw, list):
            self.report(path, "expected a list of effects")
            return []
        out: list[Piece] = []
        for i, item in enumerate(raw):
            piece = self.marked(item, (*path, i))
            last = out[-1].faces if out else None
            if piece.faces is not None and last is not None and last[0].same_zone(
                    piece.faces[0]):
                # move_faces after move_faces from the same zone: one pass sorts the dice.
                out[-1] = _face_moves(last[0], [*last[1], *piece.faces[1]], out[-1].marks)
            else:
                out.append(piece)
        return out

    def marked(self, raw: Any, path: tuple[Any, ...]) -> Piece:
        """One effect's piece, its first line marked with where the effect is written."""
        piece = self.one(raw, path)
        if not piece.lines:
            return piece
        # A when form's first line is its test: name the condition.
        first = (self.origin((*path, "when"), raw["when"]) if isinstance(raw, dict)
                 and "when" in raw else self.origin(path, raw))
        return Piece(piece.lines, piece.ns, [(0, first), *piece.marks], piece.ends_turn,
                     piece.faces)

    def one(self, raw: Any, path: tuple[Any, ...]) -> Piece:
        """Compile one effect mapping into a piece of code."""
        if not isinstance(raw, dict) or not raw:
            self.report(path, "expected an effect: a mapping such as {roll: {zone: hand}}")
            return _NOTHING
        if "when" in raw:
            return self.when(raw, path)
        if "for_each_player" in raw:
            return self.for_each_player(raw, path)
        for form, build_form in EXTRA_FORMS.items():
            if form in raw:
                return build_form(self, raw, path)
        if len(raw) != 1:
            self.report(path, f"an effect has exactly one key, found {sorted(raw)}")
            return _NOTHING
        ((name, value),) = raw.items()
        spec = EFFECTS.get(name)
        if spec is None:
            self.report((*path, name), _unknown("effect", name, [*EFFECTS, *CONTROL_FORMS]))
            return _NOTHING
        if not isinstance(value, dict):
            if value is None:
                value = {}
            elif spec.shorthand is not None:
                value = {spec.shorthand: value}
            else:
                self.report((*path, name), f"expected a mapping of parameters: {spec.example}")
                return _NOTHING
        params: dict[str, Any] = {}
        ok = True
        if "assignments" in {p.kind for p in spec.params.values()}:
            value = {"player": value.get("player"), "assign": {
                k: v for k, v in value.items() if k != "player"}}
            if value["player"] is None:
                del value["player"]
        for key in value:
            if key not in spec.params:
                self.report((*path, name, key), _unknown(f"parameter of {name}", key,
                                                          list(spec.params)))
                ok = False
        for pname, param in spec.params.items():
            ppath = (*path, name, pname) if param.kind != "assignments" else (*path, name)
            if pname not in value:
                if param.required:
                    self.report((*path, name), f"missing parameter {pname!r}: {spec.example}")
                    ok = False
                    continue
                params[pname] = None if param.default is None else self.convert(
                    param.kind, param.default, ppath)
                continue
            converted = self.convert(param.kind, value[pname], ppath)
            if converted is _BAD or (param.kind == "expr" and not self.typed(
                    converted, param.vtype, ppath, f"{name}'s {pname}")):
                ok = False
            params[pname] = converted
        if ok and isinstance(params.get("assign"), list):
            ok = self.assignable(params["assign"], name == "add", path)
        if not ok:
            return _NOTHING
        if spec.emit is not None and inlining():
            inline = spec.emit(params)
            if inline is not None:
                return inline
        return call_piece(spec.build(params))

    def for_each_player(self, raw: dict[str, Any], path: tuple[Any, ...]) -> Piece:
        """The effects once per player, that player in scope (variables, own zones, `me`)."""
        for key in sorted(set(raw) - {"for_each_player"}):
            self.report((*path, key), "for_each_player takes only its list of effects")
        pieces = self.pieces(raw["for_each_player"], (*path, "for_each_player"))
        if any(p.ends_turn for p in pieces):
            self.report((*path, "for_each_player"), "end_turn cannot stand inside "
                                                    "for_each_player; end the turn after it")
            return _NOTHING
        body = generate(pieces)
        ns: dict[str, Any] = {}
        name = bind(ns, body, "each")
        return Piece([
            "_saved = c.seat",
            "try:",
            "    for _s in range(len(st.players)):",
            "        c.seat = _s",
            f"        {name}(c)",
            "finally:",
            "    c.seat = _saved",
        ], ns)

    def when(self, raw: dict[str, Any], path: tuple[Any, ...]) -> Piece:
        extra = set(raw) - {"when", "then", "else"}
        for key in sorted(extra):
            self.report((*path, key), _unknown("key of a when form", key, ["then", "else"]))
        if "then" not in raw:
            self.report(path, "a when form needs `then: [effects]`")
        test = self.condition(raw["when"], (*path, "when"))
        then = self.pieces(raw.get("then"), (*path, "then"))
        other = self.pieces(raw.get("else"), (*path, "else"))
        if test is None:
            return _NOTHING
        ns: dict[str, Any] = {}
        marks: list[tuple[int, Origin]] = []
        lines = [f"if {source_of(test, ns)}:"]
        lines += _indent(then, ns, marks, len(lines)) or ["    pass"]
        if other:
            body = _indent(other, ns, marks, len(lines) + 1)
            if body:  # effects that did not compile leave nothing to run
                lines += ["else:", *body]
        return Piece(lines, ns, marks, any(p.ends_turn for p in (*then, *other)))

    def expr(self, raw: Any, path: tuple[Any, ...], scope: Scope | None = None
             ) -> Compiled | None:
        """Compile an expression, reporting a problem at `path` instead of raising."""
        try:
            compiled = compile_expr(raw, scope or self.scope)
        except ExpressionError as exc:
            self.report(path, str(exc))
            return None
        register(compiled, self.origin(path, raw))
        return compiled

    def typed(self, compiled: Any, want: str, path: tuple[Any, ...], what: str) -> bool:
        """Report an expression whose type can never be `want`; True when it may be."""
        have = expr_type(compiled)
        if not clash(have, want):
            return True
        self.report(path, f"{what} must be {TYPE_WORDS.get(want, want)}, but "
                          f"{_short(getattr(compiled, 'text', '')) or 'the expression'} is "
                          f"{TYPE_WORDS.get(have, have)}")
        return False

    def condition(self, raw: Any, path: tuple[Any, ...], scope: Scope | None = None
                  ) -> Compiled | None:
        """An expression used as a condition: true/false or a number, never a text."""
        compiled = self.expr(raw, path, scope)
        if compiled is not None and expr_type(compiled) in ("text", "list"):
            self.report(path, f"a condition must be true/false (or a number), but {raw!r} is "
                              f"{TYPE_WORDS[expr_type(compiled)]}")
            return None
        return compiled

    def assignable(self, assigns: list[tuple[str, str, Compiled]], adding: bool,
                   path: tuple[Any, ...]) -> bool:
        """set/add: a value fits its variable (a number into a number, ...); add adds numbers."""
        ok = True
        for _, var, value in assigns:
            have, var_type = expr_type(value), self.scope.types.get(var, "any")
            vpath = (*path, "add" if adding else "set", var)
            if adding and var_type in ("bool", "text", "list"):
                self.report(vpath, f"cannot add to {var!r}: it holds {TYPE_WORDS[var_type]}, "
                                   "not a number")
                ok = False
            elif adding and have in ("text", "list", "bool"):
                self.report(vpath, f"cannot add {TYPE_WORDS[have]} to {var!r}")
                ok = False
            elif not adding and "any" not in (have, var_type) and (
                    (have in ("text", "list")) != (var_type in ("text", "list"))
                    or (have in ("text", "list") and have != var_type)):
                self.report(vpath, f"{var!r} holds {TYPE_WORDS[var_type]}; it cannot be set "
                                   f"to {TYPE_WORDS[have]} ({_short(getattr(value, 'text', ''))})")
                ok = False
        return ok

    def zone(self, raw: Any, path: tuple[Any, ...]) -> Any:
        """A zone reference: a name, or {name: ZONE, owner: EXPR} for another player's zone."""
        owner: Compiled | None = None
        if isinstance(raw, dict):
            unknown = set(raw) - {"name", "owner"}
            if unknown or "name" not in raw:
                self.report(path, "expected a zone name or {name: ZONE, owner: EXPR}")
                return _BAD
            if "owner" in raw:
                owner = self.expr(raw["owner"], (*path, "owner"))
                if owner is not None and not self.typed(owner, "player", (*path, "owner"),
                                                        "a zone's owner"):
                    return _BAD
            raw = raw["name"]
        if not isinstance(raw, str) or raw not in self.zone_defs:
            self.report(path, _unknown("zone", str(raw), list(self.zone_defs)))
            return _BAD
        name = raw
        ref = self._zone_ref(name, owner)
        ref.deck = getattr(self.zone_defs[name], "order", "pile") == "deck"
        return ref

    def _zone_ref(self, name: str, owner: Compiled | None) -> ZoneRef:
        if not self.zone_defs[name].per_player:
            return ZoneRef(name, lambda c: c.state.zones[name][0], shared=True)
        if owner is None:
            return ZoneRef(name, lambda c: c.state.zones[name][c.seat])
        own: Compiled = owner
        return ZoneRef(name, lambda c: c.state.zones[name][own(c)], owner=own)

    def convert(self, kind: str, raw: Any, path: tuple[Any, ...]) -> Any:
        """Check and convert one parameter value by kind."""
        s = self.scope
        if kind == "zone":
            return self.zone(raw, path)
        if kind == "zones":
            items = raw if isinstance(raw, list) else [raw]
            zones = [self.zone(z, (*path, i)) for i, z in enumerate(items)]
            return _BAD if any(z is _BAD for z in zones) else zones
        if kind == "expr":
            compiled = self.expr(raw, path)
            return _BAD if compiled is None else compiled
        if kind == "facing":
            if raw not in ("up", "down", "over"):
                self.report(path, _unknown("facing", str(raw), ["up", "down", "over"]))
                return _BAD
            return raw
        if kind in ("face", "kind", "board"):
            known = {"face": s.faces, "kind": s.kinds, "board": s.boards}[kind]
            if raw not in known:
                self.report(path, _unknown(kind, str(raw), list(known)))
                return _BAD
            return raw
        if kind == "tone":
            if raw not in TONES:
                self.report(path, _unknown("tone", str(raw), list(TONES)))
                return _BAD
            return raw
        if kind == "text":
            if not isinstance(raw, str):
                self.report(path, "expected text")
                return _BAD
            return self.template(raw, path)
        if kind == "effects":
            return self.effects(raw, path)
        if kind == "assignments":
            return self.assignments(raw, path)
        if kind == "player_zone":
            ref = self.zone(raw, path)
            if ref is not _BAD and ref.shared:
                self.report(path, f"expected a zone each player has (per_player: true); "
                                  f"{ref.name!r} is shared")
                return _BAD
            return ref
        if kind == "deck":
            ref = self.zone(raw, path)
            if ref is not _BAD and not ref.deck:
                self.report(path, f"expected a deck (a zone with order: deck); {ref.name!r} "
                                  "is not one")
                return _BAD
            return ref
        if kind == "effects_prop":
            if raw not in self.effect_props:
                self.report(path, _unknown("effects property", str(raw),
                                           sorted(self.effect_props)))
                return _BAD
            return raw
        raise AssertionError(kind)

    def template(self, text: str, path: tuple[Any, ...]) -> Any:
        """Text with {expression} placeholders; {player} is the acting player's name."""
        parts: list[Any] = []
        pos = 0
        for m in re.finditer(r"\{([^{}]+)\}", text):
            parts.append(text[pos:m.start()])
            inner = m.group(1).strip()
            if inner == "player":
                parts.append(lambda c: c.state.players[c.seat])
            else:
                compiled = self.expr(inner, path)
                if compiled is None:
                    return _BAD
                parts.append(compiled)
            pos = m.end()
        parts.append(text[pos:])
        return Template(parts)

    def assignments(self, raw: Any, path: tuple[Any, ...]) -> Any:
        if not isinstance(raw, dict) or not raw:
            self.report(path, "expected a mapping of variable: expression")
            return _BAD
        s = self.scope
        out = []
        for var, value in raw.items():
            if var in s.turn_vars:
                scope = "turn"
            elif var in s.player_vars:
                scope = "player"
            elif var in s.game_vars:
                scope = "game"
            else:
                self.report((*path, var), _unknown(
                    "variable", str(var), sorted(s.turn_vars | s.player_vars | s.game_vars)))
                return _BAD
            compiled = self.expr(value, (*path, var))
            if compiled is None:
                return _BAD
            out.append((scope, var, compiled))
        return out


class Piece:
    """Python source lines over the context `c` plus the names they use.

    An effect list compiles into one generated function: a `when` becomes an `if`,
    `end_turn` a `return`, and effects without inline code are called as closures.
    """

    __slots__ = ("ends_turn", "faces", "lines", "marks", "ns")

    def __init__(self, lines: list[str], ns: dict[str, Any],
                 marks: list[tuple[int, Origin]] | None = None, ends_turn: bool = False,
                 faces: tuple[ZoneRef, list[tuple[str, ZoneRef]]] | None = None) -> None:
        self.lines = lines
        self.ns = ns
        # Whether running it may end the turn (an end_turn, at any depth): for_each_player
        # refuses such a piece, since the turn cannot end once per player.
        self.ends_turn = ends_turn
        # A move_faces piece: its zone and its (face, destination) pairs, so that moves out
        # of one zone written one after another sort its dice in a single pass.
        self.faces = faces
        # (line within `lines`, where in the ruleset): names the effect when one fails at play
        self.marks: list[tuple[int, Origin]] = marks or []


_NOTHING = Piece([], {})


def _as_list(raw: Any) -> list[Any]:
    if raw is None:
        return []
    return raw if isinstance(raw, list) else [raw]


def call_piece(effect: Effect) -> Piece:
    """A piece that calls a compiled effect and stops the list when it says so."""
    ns: dict[str, Any] = {}
    name = bind(ns, effect, "e")
    return Piece([f"if {name}(c):", "    return True"], ns, ends_turn=ends_turn(effect))


def ends_turn(effect: Effect) -> bool:
    """Whether a compiled effect (list) may end the turn: see `Piece.ends_turn`."""
    return bool(getattr(effect, "ends_turn", False))


def _indent(pieces: list[Piece], ns: dict[str, Any],
            marks: list[tuple[int, Origin]] | None = None, base: int = 0) -> list[str]:
    """The pieces' lines indented one level; their marks shifted to `base` + their place."""
    out: list[str] = []
    for piece in pieces:
        ns.update(piece.ns)
        if marks is not None:
            marks += [(base + len(out) + line, origin) for line, origin in piece.marks]
        out += ["    " + line for line in piece.lines]
    return out


def generate(pieces: list[Piece]) -> Effect:
    """One function running the pieces in order; True when the turn ended."""
    ns: dict[str, Any] = {}
    marks: list[tuple[int, Origin]] = []
    body = _indent(pieces, ns, marks)
    if not body:
        return _noop
    start = prologue(ns)
    # The body starts after the `def` line and the prologue: each mark's line moves so.
    first = 2 + start.count("\n")
    marks = [(line + first, origin) for line, origin in marks]
    source = "def _effects(c):\n" + start + "\n".join(body) + "\n    return False\n"
    # Only code assembled here from registered pieces is run: ruleset text never
    # reaches it except as compiled expressions (see expr.make_closure).
    exec(source, ns)
    fn: Any = ns["_effects"]
    fn.source = source
    fn.ends_turn = any(p.ends_turn for p in pieces)
    register(fn, marks=marks)
    return cast(Effect, fn)


class ZoneRef:
    """A compiled zone reference: its name and how to find its item list."""

    __slots__ = ("deck", "get", "name", "owner", "shared")

    def __init__(self, name: str, get: ZoneAccess, shared: bool = False,
                 owner: Compiled | None = None) -> None:
        self.deck = False  # an ordered zone (`order: deck`), drawn from the top
        self.name = name
        self.get = get
        self.shared = shared  # one list for the table: effects read it without a call
        self.owner = owner  # whose zone, for a per-player zone named with `owner:`

    def same_zone(self, other: ZoneRef) -> bool:
        """Whether two references name the same list wherever they are read: the table's
        zone, or the player in scope's own zone."""
        return (self.name == other.name and self.owner is None and other.owner is None
                and self.shared == other.shared)

    def owner_source(self, ns: dict[str, Any]) -> str:
        """Source for the seat owning this zone (None for a shared zone), for events."""
        if self.shared:
            return "None"
        if self.owner is None:
            return "c.seat"
        return f"{bind(ns, self.owner, 'o')}(c)"

    def source(self, ns: dict[str, Any]) -> str:
        """Python source for this zone's item list in generated code."""
        if self.shared:
            return zone_local(ns, self.name)
        return f"{bind(ns, self.get, 'z')}(c)"


class Template:
    """Compiled text with placeholders."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[Any]) -> None:
        self.parts = parts

    def render(self, c: Ctx) -> str:
        """The text with every placeholder filled in (a failing one: an EngineError)."""
        try:
            return "".join(p if isinstance(p, str) else str(p(c)) for p in self.parts)
        except PASSED_ON:
            raise
        except Exception as exc:  # the table renders texts outside any action, too
            from .origins import rules_error

            raise rules_error(c.state.rules, exc, "filling in a text") from exc


_BAD = object()
TONES = ("good", "bad", "news")


def _unknown(what: str, name: str, known: list[str] | list[str | int]) -> str:
    name = str(name)  # a YAML key may be null or a number
    near = suggest(name, known)
    hint = f" (did you mean {near!r}?)" if near else ""
    return f"unknown {what} {name!r}{hint}; expected one of: {', '.join(sorted(map(str, known)))}"


def _noop(c: Ctx) -> bool:
    """An effect list with nothing in it (the turn flow skips calling it)."""
    return False


def _short(raw: Any) -> str:
    """A piece of ruleset as written, shortened for a message (flow-style YAML)."""
    if isinstance(raw, dict):
        text = "{" + ", ".join(f"{k}: {_short(v)}" for k, v in raw.items()) + "}"
    elif isinstance(raw, list):
        text = "[" + ", ".join(_short(v) for v in raw) + "]"
    else:
        text = str(raw)
    return text if len(text) <= 100 else text[:97] + "..."


# --- dice --------------------------------------------------------------------

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
    ], ns)


@effect("roll", "Roll every die in a zone; each shows a face chosen by chance. With "
        "`items`, only those dice (a list of ids, such as a subset argument) are rolled.",
        "roll: {zone: hand}", {"zone": Param("zone", "the dice to roll"),
                               "items": Param("expr", "only these dice (a list of ids)",
                                              required=False)},
        shorthand="zone", emit=_emit_roll)
def _roll(p: dict[str, Any]) -> Effect:
    return generate([_emit_roll(p)])


def _emit_move_faces(p: dict[str, Any]) -> Piece:
    return _face_moves(p["from"], [(p["face"], p["to"])])


def _face_moves(src: ZoneRef, moves: list[tuple[str, ZoneRef]],
                marks: list[tuple[int, Origin]] | None = None) -> Piece:
    """Move the dice of a zone showing each face to that face's zone, in one pass: the
    same as one move_faces after another (a die goes with the first face it shows)."""
    ns: dict[str, Any] = {"_Event": Event}
    lines = [f"_z = {src.source(ns)}", "_items = st.items", "_keep = []"]
    lines += [f"_mv{k} = []" for k in range(len(moves))]
    lines += ["for _i in _z:", "    _f = _items[_i].face"]
    for k, (face, _) in enumerate(moves):
        lines += [f"    {'elif' if k else 'if'} _f == {face!r}:", f"        _mv{k}.append(_i)"]
    lines += ["    else:", "        _keep.append(_i)", "if len(_keep) != len(_z):",
              "    _z[:] = _keep"]
    for k, (_, dst) in enumerate(moves):
        lines += [
            f"if _mv{k}:",
            f"    {dst.source(ns)}.extend(_mv{k})",
            "    if c.events is not None:",
            f"        c.events.append(_Event('moved', c.seat, {{'from': {src.name!r}, "
            f"'to': {dst.name!r}, 'from_owner': {src.owner_source(ns)}, "
            f"'to_owner': {dst.owner_source(ns)}, "
            f"'items': [_items[_i].id for _i in _mv{k}]}}))"]
    return Piece(lines, ns, marks, faces=(src, moves))


@effect("move_faces", "Move the dice in a zone that show a face to another zone, in order.",
        "move_faces: {from: hand, face: dino, to: caught}",
        {"from": Param("zone", "where the dice are"), "face": Param("face", "the face to pick"),
         "to": Param("zone", "where they go")}, emit=_emit_move_faces)
def _move_faces(p: dict[str, Any]) -> Effect:
    return generate([_emit_move_faces(p)])


# --- zones -------------------------------------------------------------------

def _emit_draw(p: dict[str, Any]) -> Piece:
    src, dst = p["from"], p["to"]
    if src.deck:  # from the top, lazily shuffled: see decks.py
        return call_piece(_deck_draw(p))
    ns: dict[str, Any] = {"_Event": Event}
    event = (f"'from': {src.name!r}, 'to': {dst.name!r}, 'from_owner': "
             f"{src.owner_source(ns)}, 'to_owner': {dst.owner_source(ns)}, 'items': "
             "[_items[_i].id for _i in _drawn], 'kinds': [_items[_i].kind for _i in _drawn]")
    return Piece([
        f"_z = {src.source(ns)}",
        f"_n = min(int({source_of(p['count'], ns)}), len(_z))",
        "if _n > 0:",
        "    _ch = st.chance",
        "    _items = st.items",
        "    _drawn = []",
        "    if _ch.forced:",
        "        for _k in range(_n):",
        f"            _drawn.append(_z.pop(_ch.pick_index('drawing from {src.name}', "
        "[(_items[_i].id, _items[_i].kind) for _i in _z])))",
        "    else:",
        "        _r = _ch.random",
        "        for _k in range(_n):",
        "            _drawn.append(_z.pop(int(_r() * len(_z))))",
        f"    {dst.source(ns)}.extend(_drawn)",
        "    if c.events is not None:",
        f"        c.events.append(_Event('drew', c.seat, {{{event}}}))",
    ], ns)


@effect("draw", "Draw items at random from a zone into another (as many as there are, "
        "up to `count`). Each draw is a chance event whose outcome is the item's id or kind.",
        "draw: {from: cup, to: hand, count: \"3 - size(hand)\"}",
        {"from": Param("zone", "the zone drawn from"), "to": Param("zone", "where items go"),
         "count": Param("expr", "how many to draw", required=False, default=1,
                        vtype="number")}, emit=_emit_draw)
def _draw(p: dict[str, Any]) -> Effect:
    return generate([_emit_draw(p)])


def _emit_move_all(p: dict[str, Any]) -> Piece:
    sources: list[ZoneRef] = p["from"]
    dst: ZoneRef = p["to"]
    if any(z.deck for z in sources) and not dst.deck:  # cards settled as they leave
        return call_piece(_deck_move_all(p))
    ns: dict[str, Any] = {"_Event": Event}
    lines = [f"_t = {dst.source(ns)}", "_items = st.items",
             f"_blind = st.rules.zones[{dst.name!r}].blind"]
    for z in sources:  # written out zone by zone: this runs at the end of every turn
        lines += [
            f"_z = {z.source(ns)}",
            "if _z and _z is not _t:",
            "    _t.extend(_z)",
            "    if _blind:",
            "        for _i in _z:",
            "            _items[_i].face = None",
            "    if c.events is not None:",
            f"        c.events.append(_Event('moved', c.seat, {{'from': {z.name!r}, "
            f"'to': {dst.name!r}, 'from_owner': {z.owner_source(ns)}, "
            f"'to_owner': {dst.owner_source(ns)}, 'items': [_items[_i].id for _i in _z]}}))",
            "    _z.clear()",
        ]
    return Piece(lines, ns)


@effect("move_all", "Move every item from one or more zones into a zone, in order.",
        "move_all: {from: [hand, caught, stomped], to: cup}",
        {"from": Param("zones", "a zone or a list of zones"), "to": Param("zone", "the target")},
        emit=_emit_move_all)
def _move_all(p: dict[str, Any]) -> Effect:
    return generate([_emit_move_all(p)])


def _emit_move(p: dict[str, Any]) -> Piece | None:
    src, dst = p["from"], p["to"]
    if p.get("item") is not None or src.deck:
        return None  # one named item, or a deck's top: see _move_picked
    ns: dict[str, Any] = {"_Event": Event}
    return Piece([
        f"_z = {src.source(ns)}",
        f"_t = {dst.source(ns)}",
        "_items = st.items",
        f"_n = max(0, min(int({source_of(p['count'], ns)}), len(_z)))",
        "if _n and _z is not _t:",
        "    _mv = _z[:_n]",
        "    del _z[:_n]",
        "    _t.extend(_mv)",
        f"    if st.rules.zones[{dst.name!r}].blind:",
        "        for _i in _mv:",
        "            _items[_i].face = None",
        "    if c.events is not None:",
        f"        c.events.append(_Event('moved', c.seat, {{'from': {src.name!r}, "
        f"'to': {dst.name!r}, 'from_owner': {src.owner_source(ns)}, "
        f"'to_owner': {dst.owner_source(ns)}, 'items': [_items[_i].id for _i in _mv]}}))",
    ], ns)


@effect("move", "Move up to `count` items from the front of one zone to the end of another, "
        "e.g. one dinosaur die taken from another player's row.",
        "move: {from: {name: kept, owner: \"$from\"}, to: kept, count: 1}",
        {"from": Param("zone", "where the items are"), "to": Param("zone", "where they go"),
         "count": Param("expr", "how many (as many as there are, at most)", required=False,
                        default=1, vtype="number"),
         "item": Param("expr", "one particular item to move: its id, or a kind (any one item "
                               "of that kind), or a list of them (such as a subset argument)",
                       required=False)}, emit=_emit_move)
def _move(p: dict[str, Any]) -> Effect:
    piece = _emit_move(p)
    return _move_picked(p) if piece is None else generate([piece])


# --- variables and scores ----------------------------------------------------

def _assign(p: dict[str, Any], combine: Callable[[Any, Any], Any]) -> Effect:
    assigns: list[tuple[str, str, Compiled]] = p["assign"]
    who: Compiled | None = p.get("player")
    if len(assigns) == 1 and assigns[0][0] == "turn" and combine is _replace:
        # The commonest form, `set: {flag: value}` on a turn variable, needs no loop.
        _, tvar, tvalue = assigns[0]

        def set_turn(c: Ctx) -> bool:
            c.state.turn_vars[tvar] = tvalue(c)
            return False

        return set_turn

    def run(c: Ctx) -> bool:
        st = c.state
        seat = c.seat if who is None else who(c)
        for scope, var, value in assigns:
            new = value(c)
            if scope == "turn":
                st.turn_vars[var] = combine(st.turn_vars[var], new)
            elif scope == "player":
                pv = st.player_vars[seat]
                old = pv[var]
                pv[var] = combine(old, new)
                if pv[var] != old and c.events is not None:
                    c.events.append(Event("changed", seat, {"var": var, "old": old,
                                                            "new": pv[var],
                                                            "score": st.score(seat)}))
            else:
                st.game_vars[var] = combine(st.game_vars[var], new)
        return False

    return run


def _replace(old: Any, new: Any) -> Any:
    return new


_ASSIGN_PARAMS = {
    "assign": Param("assignments", "variable: expression pairs"),
    "player": Param("expr", "whose player variables (default: the acting player)",
                    required=False, vtype="player"),
}


def _emit_assign(p: dict[str, Any], adding: bool) -> Piece | None:
    """Inline code for `set` and `add` on the acting player's, the turn's and the game's
    variables (a player variable that changes is told as a score change)."""
    if p.get("player") is not None:
        return None
    ns: dict[str, Any] = {"_Event": Event}
    lines: list[str] = []
    marks: list[tuple[int, Origin]] = []
    for scope, var, value in p["assign"]:
        table = "st.player_vars[c.seat]" if scope == "player" else f"st.{scope}_vars"
        new = source_of(value, ns)
        origin = origin_of(value)
        if origin is not None:  # a value that fails at play names its own expression
            marks.append((len(lines) + (2 if scope == "player" else 0), origin))
        if scope != "player":
            lines.append(f"{table}[{var!r}] = " + (f"{table}[{var!r}] + ({new})" if adding
                                                     else new))
            continue
        lines += [
            f"_pv = {table}",
            f"_old = _pv[{var!r}]",
            f"_pv[{var!r}] = " + (f"_old + ({new})" if adding else new),
            f"if c.events is not None and _pv[{var!r}] != _old:",
            f"    c.events.append(_Event('changed', c.seat, {{'var': {var!r}, 'old': _old, "
            f"'new': _pv[{var!r}], 'score': st.score(c.seat)}}))",
        ]
    return Piece(lines, ns, marks)


def _emit_set(p: dict[str, Any]) -> Piece | None:
    return _emit_assign(p, adding=False)


@effect("set", "Set variables (turn, player or game) to the values of expressions.",
        "set: {rolled: true}", _ASSIGN_PARAMS, emit=_emit_set)
def _set(p: dict[str, Any]) -> Effect:
    return _assign(p, _replace)


def _emit_add(p: dict[str, Any]) -> Piece | None:
    return _emit_assign(p, adding=True)


@effect("add", "Add the values of expressions to variables; a player variable added to "
        "shows as a score change.", "add: {banked: \"size(caught)\"}", _ASSIGN_PARAMS,
        emit=_emit_add)
def _add(p: dict[str, Any]) -> Effect:
    return _assign(p, lambda old, new: old + new)


# --- flow and words ----------------------------------------------------------

@effect("end_turn", "End the current turn now; the rest of the action's effects do not run.",
        "end_turn: {}", {},
        emit=lambda p: Piece(["c.turn_over = True", "return True"], {}, ends_turn=True))
def _end_turn(p: dict[str, Any]) -> Effect:
    def run(c: Ctx) -> bool:
        c.turn_over = True
        return True

    cast(Any, run).ends_turn = True
    return run


@effect("drop_out", "The acting player drops out of this round: later turns of the round "
        "pass them by. Their turn goes on until it ends.", "drop_out: {}", {})
def _drop_out(p: dict[str, Any]) -> Effect:
    def run(c: Ctx) -> bool:
        st = c.state
        if not st.out[c.seat]:
            st.out[c.seat] = True
            if c.events is not None:
                c.events.append(Event("dropped_out", c.seat, {}))
        return False

    return run


@effect("end_round", "End the round when this turn ends (for rounds with `mode: until_ended`); "
        "`starter` is the seat that starts the next round.",
        "end_round: {starter: \"left_of(current)\"}",
        {"starter": Param("expr", "who starts the next round", required=False,
                          default="left_of(current)", vtype="player")})
def _end_round(p: dict[str, Any]) -> Effect:
    starter: Compiled = p["starter"]

    def run(c: Ctx) -> bool:
        c.state.next_starter = int(starter(c)) % len(c.state.players)
        return False

    return run


def _emit_say(p: dict[str, Any]) -> Piece:
    ns: dict[str, Any] = {"_Event": Event}
    text = bind(ns, p["text"], "t")
    return Piece([
        "if c.events is not None:  # words are only for someone watching",
        f"    c.events.append(_Event('said', c.seat, {{'text': {text}.render(c), "
        f"'tone': {p['tone']!r}}}))",
    ], ns)


@effect("say", "Tell the table what just happened; {player} and {expression} fill in. "
        "`tone` (good, bad or news) lets the table colour the message and pick a sound.",
        "say: {text: \"Three stomps! {player} banks nothing.\", tone: bad}",
        {"text": Param("text", "the words, with placeholders"),
         "tone": Param("tone", "good, bad or news (default)", required=False,
                       default="news")}, shorthand="text", emit=_emit_say)
def _say(p: dict[str, Any]) -> Effect:
    return generate([_emit_say(p)])


# --- decks and single items (see decks.py) ------------------------------------------


def _moved_event(c: Ctx, src: ZoneRef, dst: ZoneRef, moved: list[int], kind: str = "moved"
                 ) -> None:
    if c.events is not None and moved:
        items = c.state.items
        c.events.append(Event(kind, c.seat, {
            "from": src.name, "to": dst.name, "from_owner": owner_of(c, src),
            "to_owner": owner_of(c, dst), "items": [items[i].id for i in moved],
            "kinds": [items[i].kind for i in moved]}))


def _deck_draw(p: dict[str, Any]) -> Effect:
    """`draw` from a deck: the top card each time, a chance event while its place is unknown."""
    src: ZoneRef = p["from"]
    dst: ZoneRef = p["to"]
    count: Compiled = p["count"]

    def run(c: Ctx) -> bool:
        st = c.state
        z, t = src.get(c), dst.get(c)
        drawn: list[int] = []
        for _ in range(int(count(c))):
            i = take_top(st, z, src.name)
            if i is None:
                break
            drawn.append(i)
        t.extend(drawn)
        _moved_event(c, src, dst, drawn, "drew")
        return False

    return run


def _deck_move_all(p: dict[str, Any]) -> Effect:
    """`move_all` out of a deck: each card's place is settled, top first, as it leaves."""
    sources: list[ZoneRef] = p["from"]
    dst: ZoneRef = p["to"]

    def run(c: Ctx) -> bool:
        st = c.state
        t = dst.get(c)
        for src in sources:
            z = src.get(c)
            if not z or z is t:
                continue
            if src.deck:
                settle_all(st, z, src.name)
            moved = list(z)
            z.clear()
            t.extend(moved)
            if st.rules.zones[dst.name].blind:
                for i in moved:
                    st.items[i].face = None
            _moved_event(c, src, dst, moved)
        return False

    return run


def _move_picked(p: dict[str, Any]) -> Effect:
    """`move` of one named item, or of the top of a deck."""
    src: ZoneRef = p["from"]
    dst: ZoneRef = p["to"]
    count: Compiled = p["count"]
    item: Compiled | None = p.get("item")

    def run(c: Ctx) -> bool:
        st = c.state
        z, t = src.get(c), dst.get(c)
        if z is t:
            return False
        moved: list[int] = []
        if item is not None:
            wanted = item(c)
            # A list (a subset argument) moves every item named in it, in its order.
            for one in wanted if isinstance(wanted, tuple | list) else (wanted,):
                moved.append(z.pop(find_item(st, z, one, src.name)))
                st.shuffled.discard(moved[-1])
        else:
            for _ in range(max(0, int(count(c)))):
                i = take_top(st, z, src.name)
                if i is None:
                    break
                moved.append(i)
        t.extend(moved)
        if st.rules.zones[dst.name].blind:
            for i in moved:
                st.items[i].face = None
        _moved_event(c, src, dst, moved)
        return False

    return run
