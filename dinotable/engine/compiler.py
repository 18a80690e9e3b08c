"""The effect compiler: a YAML effect list, checked and turned into one closure.

It checks each effect's parameters against the registry (effects.py), compiles the
control forms (when, for_each_player, choose, respond; others from loops.py) and hands
the pieces to code generation (codegen.py). Every problem is reported with its path.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .assigning import _BAD, _KEYED, Assigning, _short
from .codegen import (
    NOTHING,
    Piece,
    Template,
    ZoneRef,
    call_piece,
    ends_turn,
    face_moves,
    generate,
    indent,
    noop,
    roll_then_sort,
)
from .decide import ask, open_window
from .effects import CONTROL_FORMS, EFFECTS, EXTRA_FORMS, SUSPENDING, _unknown
from .errors import ExpressionError
from .expr import (
    Compiled,
    Scope,
    bind,
    compile_expr,
    family_members,
    inlining,
    source_of,
    zone_id,
)
from .exprtypes import TYPE_WORDS, clash, expr_type
from .indexed import keys_text
from .model import Effect, QuestionDef, WindowDef
from .origins import Origin, register

Report = Callable[[tuple[Any, ...], str], None]
"""Called with (path, message) for every problem found while compiling."""

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



# --- compiling -------------------------------------------------------------

class EffectCompiler(Assigning):
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
                return noop
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
                # Marked as `pieces` marks them: a failure after a window names its line.
                pieces.append(self.marked(item, ipath))
                continue
            rest = self.resumable(items, path, i + 1, then)
            pieces.append(self.marked(item, ipath, self.suspending(item, ipath, rest)))
            return generate(pieces)
        if then is not None:
            ns: dict[str, Any] = {}
            pieces.append(Piece([f"return {bind(ns, then, 'k')}(c)"], ns))
        return generate(pieces)

    def suspending(self, raw: Any, path: tuple[Any, ...], rest: Effect) -> Piece:
        """A form that may wait on a decision, followed by `rest`."""
        if not isinstance(raw, dict):
            return NOTHING
        ns: dict[str, Any] = {}
        if "when" in raw:
            for key in sorted(set(raw) - {"when", "then", "else"}):
                self.report((*path, key), _unknown("key of a when form", key, ["then", "else"]))
            test = self.expr(raw["when"], (*path, "when"))
            branch = self.resumable(_as_list(raw.get("then")), (*path, "then"), 0, rest)
            other = (self.resumable(_as_list(raw.get("else")), (*path, "else"), 0, rest)
                     if raw.get("else") else rest)
            if test is None:
                return NOTHING
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
        return NOTHING

    def choose(self, raw: dict[str, Any], path: tuple[Any, ...], rest: Effect) -> Piece:
        """A question: the list waits for the answer, then runs `then` and goes on."""
        for key in sorted(set(raw) - CHOOSE_KEYS):
            self.report((*path, key), _unknown("key of a choose form", key, sorted(CHOOSE_KEYS)))
        qid = raw["choose"]
        if not isinstance(qid, str) or not re.match(r"^[a-z][a-z0-9_]*$", qid):
            self.report((*path, "choose"), f"a question's id {qid!r} must be lower_snake_case "
                                           "(it names the answer, e.g. choose: discard)")
            return NOTHING
        if "then" not in raw:
            self.report(path, "a choose form needs `then: [effects]` run with the answer")
        args = self.shared.parse_args(raw.get("args"), (*path, "args"), self.scope)
        if not args and "args" in raw:
            return NOTHING
        if not args:
            self.report(path, "a choose form needs `args: {NAME: DOMAIN}`: what is chosen")
            return NOTHING
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
            return NOTHING
        for key in sorted(set(raw) - {"window", "ask"}):
            self.report((*path, key), _unknown("parameter of respond", key, ["ask", "window"]))
        wid, ask_mode = raw["window"], raw.get("ask", "others_then_me")
        if not isinstance(wid, str) or not re.match(r"^[a-z][a-z0-9_]*$", wid):
            self.report((*path, "window"), f"a window id {wid!r} must be lower_snake_case")
            return NOTHING
        if ask_mode not in ASK_MODES:
            self.report((*path, "ask"), _unknown("value", str(ask_mode), list(ASK_MODES)))
            return NOTHING
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
                out[-1] = face_moves(last[0], [*last[1], *piece.faces[1]], out[-1].marks)
            else:
                out.append(piece)
        # A roll of a zone, then a sort of its dice by face: one pass when nobody watches.
        for i in range(len(out) - 1, 0, -1):
            roll, sort = out[i - 1], out[i]
            if (roll.rolled is not None and sort.faces is not None
                    and roll.rolled.same_zone(sort.faces[0])):
                out[i - 1:i + 1] = [roll_then_sort(roll, sort)]
        return out

    def marked(self, raw: Any, path: tuple[Any, ...], piece: Piece | None = None) -> Piece:
        """One effect's piece (compiled here unless given), its first line marked with
        where the effect is written."""
        piece = self.one(raw, path) if piece is None else piece
        if not piece.lines:
            return piece
        # A when form's first line is its test: name the condition.
        first = (self.origin((*path, "when"), raw["when"]) if isinstance(raw, dict)
                 and "when" in raw else self.origin(path, raw))
        return Piece(piece.lines, piece.ns, [(0, first), *piece.marks], piece.ends_turn,
                     piece.faces, piece.rolled)

    def one(self, raw: Any, path: tuple[Any, ...]) -> Piece:
        """Compile one effect mapping into a piece of code."""
        if not isinstance(raw, dict) or not raw:
            self.report(path, "expected an effect: a mapping such as {roll: {zone: hand}}")
            return NOTHING
        if "when" in raw:
            return self.when(raw, path)
        if "for_each_player" in raw:
            return self.for_each_player(raw, path)
        for form, build_form in EXTRA_FORMS.items():
            if form in raw:
                return build_form(self, raw, path)
        if len(raw) != 1:
            self.report(path, f"an effect has exactly one key, found {sorted(raw)}")
            return NOTHING
        ((name, value),) = raw.items()
        spec = EFFECTS.get(name)
        if spec is None:
            self.report((*path, name), _unknown("effect", name, [*EFFECTS, *CONTROL_FORMS]))
            return NOTHING
        if not isinstance(value, dict):
            if value is None:
                value = {}
            elif spec.shorthand is not None:
                value = {spec.shorthand: value}
            else:
                self.report((*path, name), f"expected a mapping of parameters: {spec.example}")
                return NOTHING
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
            return NOTHING
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
            return NOTHING
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
            return NOTHING
        ns: dict[str, Any] = {}
        marks: list[tuple[int, Origin]] = []
        lines = [f"if {source_of(test, ns)}:"]
        lines += indent(then, ns, marks, len(lines)) or ["    pass"]
        if other:
            body = indent(other, ns, marks, len(lines) + 1)
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
        if isinstance(raw, str) and raw not in self.zone_defs and "[" in raw:
            member = self.family_member(raw, path)
            if member is None:
                return _BAD
            raw = member
        if isinstance(raw, str) and raw in self.scope.zone_families:
            self.report(path, f"{raw} is a family of zones: name one as \"{raw}[KEY]\", e.g. "
                              f"\"{raw}[{self.scope.zone_families[raw][0]!r}]\" (a list of "
                              "zones may name the whole family)")
            return _BAD
        if not isinstance(raw, str) or raw not in self.zone_defs:
            self.report(path, _unknown("zone", str(raw), list(self.zone_defs)))
            return _BAD
        name = raw
        ref = self._zone_ref(name, owner)
        ref.deck = getattr(self.zone_defs[name], "order", "pile") == "deck"
        ref.blind = bool(getattr(self.zone_defs[name], "blind", False))
        return ref

    def family_member(self, raw: str, path: tuple[Any, ...]) -> str | None:
        """`NAME[KEY]` with a key written out: the zone of the family for that key. A key
        worked out as the game runs is refused: an effect's zone is known at load (its
        events, what it shows and to whom follow from the zone)."""
        m = _KEYED.match(raw.strip())
        families = self.scope.zone_families
        if m is None or m.group(1) not in families:
            self.report(path, _unknown("zone", raw, list(self.zone_defs)) if m is None else
                        _unknown("zone family", m.group(1), list(families)) if families else
                        f"{m.group(1)!r} is not a zone family (a zone declared with `keys`)")
            return None
        family, key_text = m.group(1), m.group(2).strip()
        keys = families[family]
        key: Any = int(key_text) if key_text.isdigit() else key_text.strip("'\"")
        if key_text.isdigit() or (key_text[:1] in "'\"" and key_text[-1:] == key_text[:1]):
            if key in keys:
                return zone_id(family, key)
            self.report(path, f"the zone family {family} has no key {key!r} (its keys: "
                              f"{keys_text(list(keys))})")
            return None
        if key_text in keys:  # a text key written bare, as the expression language reads it
            self.report(path, f"a text key is quoted, as in an expression: "
                              f"\"{family}[{key_text!r}]\"")
            return None
        self.report(path, f"an effect names its zone when the ruleset loads: write the key "
                          f"out ({family}[{keys[0]!r}]), or give each key its own effect "
                          f"under a `when` ({key_text} is worked out as the game runs)")
        return None

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
            zones = [self.zone(z, (*path, i)) for i, named in enumerate(items)
                     for z in family_members(named, s.zone_families)]
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

def _as_list(raw: Any) -> list[Any]:
    if raw is None:
        return []
    return raw if isinstance(raw, list) else [raw]



TONES = ("good", "bad", "news")
