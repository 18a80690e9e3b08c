"""Code generation for effect lists: pieces of Python source joined into one function.

An effect list compiles into one generated function: each effect gives a `Piece` (its
source lines and the names they use), a `when` becomes an `if`, `end_turn` a `return`, and
effects without inline code are called as closures (`call_piece`). `generate` joins the
pieces and runs the source once, at load.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from .expr import (
    Compiled,
    Ctx,
    bind,
    prologue,
    zone_local,
)
from .model import Effect
from .origins import PASSED_ON, Origin, register
from .quiet import quiet_source
from .state import Event

ZoneAccess = Callable[[Ctx], list[int]]


class Piece:
    """Python source lines over the context `c` plus the names they use.

    An effect list compiles into one generated function: a `when` becomes an `if`,
    `end_turn` a `return`, and effects without inline code are called as closures.
    """

    __slots__ = ("ends_turn", "faces", "lines", "marks", "ns", "rolled")

    def __init__(self, lines: list[str], ns: dict[str, Any],
                 marks: list[tuple[int, Origin]] | None = None, ends_turn: bool = False,
                 faces: tuple[ZoneRef, list[tuple[str, ZoneRef]]] | None = None,
                 rolled: ZoneRef | None = None) -> None:
        self.lines = lines
        self.ns = ns
        # Whether running it may end the turn (an end_turn, at any depth): for_each_player
        # refuses such a piece, since the turn cannot end once per player.
        self.ends_turn = ends_turn
        # A move_faces piece: its zone and its (face, destination) pairs, so that moves out
        # of one zone written one after another sort its dice in a single pass.
        self.faces = faces
        # A roll of every die in one zone: a sort of the same zone's dice right after it
        # can share its pass when nobody watches (roll_then_sort).
        self.rolled = rolled
        # (line within `lines`, where in the ruleset): names the effect when one fails at play
        self.marks: list[tuple[int, Origin]] = marks or []


NOTHING = Piece([], {})



def call_piece(effect: Effect) -> Piece:
    """A piece that calls a compiled effect and stops the list when it says so."""
    ns: dict[str, Any] = {}
    name = bind(ns, effect, "e")
    return Piece([f"if {name}(c):", "    return True"], ns, ends_turn=ends_turn(effect))


def ends_turn(effect: Effect) -> bool:
    """Whether a compiled effect (list) may end the turn: see `Piece.ends_turn`."""
    return bool(getattr(effect, "ends_turn", False))


def indent(pieces: list[Piece], ns: dict[str, Any],
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
    body = indent(pieces, ns, marks)
    if not body:
        return noop
    start = prologue(ns)
    # The body starts after the `def` line and the prologue: each mark's line moves so.
    first = 2 + start.count("\n")
    marks = [(line + first, origin) for line, origin in marks]
    source = "def _effects(c):\n" + start + "\n".join(body) + "\n    return False\n"
    # Only code assembled here from registered pieces is run: ruleset text never
    # reaches it except as compiled expressions (see expr.make_closure).
    # Named after the ruleset piece it runs, so that a profile tells effect lists apart.
    name = f"<{'.'.join(map(str, marks[0][1].path[:3]))}>" if marks else "<effects>"
    exec(compile(source, name, "exec"), ns)
    fn: Any = ns["_effects"]
    fn.source = source
    fn.ends_turn = any(p.ends_turn for p in pieces)
    register(fn, marks=marks)
    fn.quiet = fn
    if "c.events" in source or "forced" in source:
        # The same function for play nobody watches or forces (see quiet.py), made from
        # the same source so that both always do the same thing to the game.
        quiet_ns = dict(ns)
        exec(compile(quiet_source(source), name + " quiet", "exec"), quiet_ns)
        fn.quiet = quiet_ns["_effects"]
        fn.quiet.quiet = fn.quiet
        fn.quiet.ends_turn = fn.ends_turn
        register(fn.quiet, marks=marks)
    return cast(Effect, fn)


class ZoneRef:
    """A compiled zone reference: its name and how to find its item list."""

    __slots__ = ("blind", "deck", "get", "name", "owner", "shared")

    def __init__(self, name: str, get: ZoneAccess, shared: bool = False,
                 owner: Compiled | None = None) -> None:
        self.deck = False  # an ordered zone (`order: deck`), drawn from the top
        self.blind = False  # a cup or bag: what lands in it shows no face
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



def noop(c: Ctx) -> bool:
    """An effect list with nothing in it (the turn flow skips calling it)."""
    return False



def face_moves(src: ZoneRef, moves: list[tuple[str, ZoneRef]],
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


def roll_then_sort(roll: Piece, sort: Piece) -> Piece:
    """A roll of a zone's dice and the move of those showing given faces out of it, as one
    piece: played unwatched and unforced (see quiet.py), each die is sorted as it lands, in
    one pass; otherwise the two run as written, with their events and forced faces."""
    assert roll.rolled is not None and sort.faces is not None
    zone, moves = roll.rolled, sort.faces[1]
    ns: dict[str, Any] = {**roll.ns, **sort.ns}
    lines = ["if c.events is None and not st.chance.forced:",
             f"    _z = {zone.source(ns)}", "    _items = st.items", "    _dice = st.rules.dice",
             "    _r = st.chance.random", "    _keep = []"]
    # Table zones, each its own and none the rolled one, take each die as it is sorted; a
    # player's zone is found once, after the roll, and two faces going to one zone keep
    # their order (every die of the first face, then of the second): those collect first.
    names = [dst.name for _, dst in moves]
    direct = (all(dst.shared for _, dst in moves) and zone.name not in names
              and len(set(names)) == len(names))
    into = [dst.source(ns) if direct else f"_mv{k}" for k, (_, dst) in enumerate(moves)]
    if not direct:
        lines += [f"    {target} = []" for target in into]
    lines += ["    for _i in _z:", "        _it = _items[_i]", "        _f = _dice[_it.kind].faces",
              "        _f = _it.face = _f[int(_r() * len(_f))]"]
    for k, (face, _) in enumerate(moves):
        lines += [f"        {'elif' if k else 'if'} _f == {face!r}:",
                  f"            {into[k]}.append(_i)"]
    lines += ["        else:", "            _keep.append(_i)", "    if len(_keep) != len(_z):",
              "        _z[:] = _keep"]
    if not direct:
        for k, (_, dst) in enumerate(moves):
            lines += [f"    if _mv{k}:", f"        {dst.source(ns)}.extend(_mv{k})"]
    lines.append("else:")
    start = len(lines)
    marks = [(0, origin) for _, origin in roll.marks[:1]]
    marks += [(start + line, origin) for line, origin in roll.marks]
    lines += ["    " + line for line in roll.lines]
    marks += [(len(lines) + line, origin) for line, origin in sort.marks]
    lines += ["    " + line for line in sort.lines]
    return Piece(lines, ns, marks, roll.ends_turn or sort.ends_turn)
