"""Boards and tracks: spaces that hold items, with adjacency and distance.

A board is a grid (`rows` x `cols`, spaces named `r1c1` ... by row and column) or a line of
named spaces (a track such as a time track, `spaces: [triassic, ...]`). Every space is a
zone of its own, named `BOARD@SPACE` inside the engine, so items on a space move, show and
save like any zone's. Expressions name spaces by text (`'r2c3'`, `$space`, a variable).

Adjacency: on a grid, the spaces sharing a side; on a track, the spaces before and after.
Distance: on a grid, rows plus columns apart; on a track, the spaces entered or passed.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any, cast

from .codegen import ZoneRef
from .decks import find_item, fix_position
from .domains import DOMAINS, DomainSpec, kinds_of, kinds_passing, listed_by, passing
from .effects import Param, effect
from .effects_zones import moved_event
from .errors import EngineError
from .expr import Compiled, Ctx, function
from .formulas import FRAMES
from .hoist import mark_arg_free
from .model import BoardDef, Effect
from .registry import INLINE_HELPERS
from .state import GameState

SEP = "@"


def space_zone(board: str, space: str) -> str:
    """The engine's zone name of one space of a board."""
    return f"{board}{SEP}{space}"


def board_of(state: GameState, name: str) -> BoardDef:
    """A board by name (the name is checked at load)."""
    return state.rules.boards[name]


class _Row(dict[Any, int]):
    """The steps from one space to each space of a board; another value is no space."""

    __slots__ = ("board",)

    def __init__(self, board: BoardDef, steps: dict[Any, int]) -> None:
        super().__init__(steps)
        self.board = board

    def __missing__(self, space: Any) -> int:
        raise _not_a_space(self.board, space)


class _Steps(dict[Any, _Row]):
    """Steps between two spaces of a board, `steps[a][b]`: a space's row is worked out the
    first time it is asked for, so a large board costs only the rows its game reads."""

    __slots__ = ("board",)

    def __init__(self, board: BoardDef) -> None:
        super().__init__()
        self.board = board

    def __missing__(self, space: Any) -> _Row:
        board = self.board
        i = board.index.get(space)
        if i is None:
            raise _not_a_space(board, space)
        row = self[space] = _Row(board, {s: _steps(board, i, j)
                                         for s, j in board.index.items()})
        return row


class _Plan:
    """A board's spaces worked out once: each space's zone name and its neighbours, so
    reading a space costs one lookup however large the board."""

    __slots__ = ("board", "lists", "near", "near_zones", "steps", "zone_of", "zones")

    def __init__(self, board: BoardDef) -> None:
        self.board = board
        self.zones = tuple(space_zone(board.name, s) for s in board.spaces)
        self.zone_of = dict(zip(board.spaces, self.zones, strict=True))
        self.near = {s: tuple(_neighbours(board, s)) for s in board.spaces}
        self.near_zones = {s: tuple(self.zone_of[n] for n in near)
                           for s, near in self.near.items()}
        self.steps = _Steps(board)
        # every space's zone (its lists of items, one a seat) out of a game's zones at once
        zones = self.zones
        self.lists: Callable[[dict[str, Any]], tuple[Any, ...]] = (
            itemgetter(*zones) if len(zones) > 1 else lambda z: tuple(z[n] for n in zones))


# Each board keeps its own plan (an attribute beside its fields, made the first time it is
# read): a board whose shape an option chooses is another BoardDef, with a plan of its own.
def _plan(board: BoardDef) -> _Plan:
    try:
        return board.plan_  # type: ignore[attr-defined, no-any-return]
    except AttributeError:
        plan = _Plan(board)
        object.__setattr__(board, "plan_", plan)  # frozen: its fields, not this, are the board
        return plan


def _planned(c: Ctx, name: str, space: Compiled, table: str) -> tuple[BoardDef, Any]:
    """The board named and its plan's entry (`zone_of`, `near_zones`) for the space an
    expression gives; an EngineError for a value that is no space of it."""
    board = c.state.rules.boards[name]
    where = space(c)
    found = getattr(_plan(board), table).get(where)
    if found is None:
        raise _not_a_space(board, where)
    return board, found


def _not_a_space(board: BoardDef, space: Any) -> EngineError:
    shown = ", ".join(board.spaces[:12]) + ("..." if len(board.spaces) > 12 else "")
    return EngineError(f"{space!r} is not a space of {board.name}; its spaces are {shown}")


def _space(board: BoardDef, space: Any) -> str:
    if space not in board.index:
        raise _not_a_space(board, space)
    return str(space)


def space_items(c: Ctx, board: BoardDef, space: Any, owner: int | None = None) -> list[int]:
    """The item list on one space (the seat in scope's board, for a per-player board)."""
    zone = _plan(board).zone_of.get(space)
    if zone is None:
        raise _not_a_space(board, space)
    if not board.per_player:
        return c.state.zones[zone][0]
    return c.state.zones[zone][c.seat if owner is None else owner]


def neighbours(board: BoardDef, space: str) -> list[str]:
    """The spaces next to `space`, in board order."""
    return list(_plan(board).near[space])


def _neighbours(board: BoardDef, space: str) -> list[str]:
    i = board.index[space]
    if board.cols:
        r, col = divmod(i, board.cols)
        out = []
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            rr, cc = r + dr, col + dc
            k = rr * board.cols + cc  # a last row of named spaces may be short
            if 0 <= rr < board.rows and 0 <= cc < board.cols and k < len(board.spaces):
                out.append(board.spaces[k])
        return out
    return [board.spaces[j] for j in (i - 1, i + 1) if 0 <= j < len(board.spaces)]


def distance(board: BoardDef, a: str, b: str) -> int:
    """Steps between two spaces: rows plus columns on a grid, places on a track."""
    return _steps(board, board.index[a], board.index[b])


def _steps(board: BoardDef, i: int, j: int) -> int:
    cols = board.cols
    if cols:
        return abs(i // cols - j // cols) + abs(i % cols - j % cols)
    return abs(i - j)


# --- expressions -----------------------------------------------------------------------
# A board argument is written as a bare board name; the compiler hands it over as a name.


def _board(c: Ctx, name: str) -> BoardDef:
    return c.state.rules.boards[name]


def space_list(c: Ctx, name: str, where: Any) -> list[int]:
    """The item list on the space `where` of the board named, read in one call, as inline
    code does for every space a listing tests (the seat in scope's own, for a per-player
    board); an EngineError for a value that is no space of it."""
    board = c.state.rules.boards[name]
    zone = _plan(board).zone_of.get(where)
    if zone is None:
        raise _not_a_space(board, where)
    return c.state.zones[zone][c.seat if board.per_player else 0]


def kinds_on_space(c: Ctx, name: str, where: Any, kind: str) -> int:
    """How many items of `kind` lie on a space (`space_list`)."""
    items = c.state.items
    n = 0
    for i in space_list(c, name, where):
        if items[i].kind == kind:
            n += 1
    return n


class _Lists(dict[Any, list[int]]):
    """Each space's item list, by space; another value is no space."""

    __slots__ = ("board",)

    def __init__(self, board: BoardDef, lists: Any) -> None:
        super().__init__(lists)
        self.board = board

    def __missing__(self, space: Any) -> list[int]:
        raise _not_a_space(self.board, space)


def space_lists(c: Ctx, name: str) -> _Lists:
    """Every space's item list of the board named, by space (the seat in scope's own, for
    a per-player board): a `where` tested on every space reads it once a listing, and each
    space is then one lookup (hoist.py)."""
    board = c.state.rules.boards[name]
    own = c.seat if board.per_player else 0
    lists = _plan(board).lists(c.state.zones)
    return _Lists(board, zip(board.spaces, [on[own] for on in lists], strict=True))


def steps_from(c: Ctx, name: str) -> _Steps:
    """The board's steps table, `[a][b]` (see `_Steps`), as inline `distance` reads it: a
    listing testing every space reads the table, and the row of a space it does not
    change, once."""
    return _plan(c.state.rules.boards[name]).steps


INLINE_HELPERS.update(_space_list=space_list, _kinds_on_space=kinds_on_space,
                      _steps_from=steps_from,
                      _space_lists=space_lists)
for _helper in (space_list, kinds_on_space, steps_from, space_lists):
    mark_arg_free(_helper)  # handed `c`, they read its state and seat, never an argument


@function("at", ("board", "expr"), "How many items lie on a space of a board (the seat in "
          "scope's own board, for a per-player board).", "at(ranch, 'r2c2')",
          inline=lambda name, space: f"len(_space_list(c, {name!r}, {space}))")
def _at(name: str, space: Compiled) -> Compiled:
    return lambda c: len(space_list(c, name, space(c)))


@function("kinds_at", ("board", "expr", "kind"), "How many items of a kind lie on a space.",
          "kinds_at(ranch, $space, fence)",
          inline=lambda name, space, kind: f"_kinds_on_space(c, {name!r}, {space}, {kind!r})")
def _kinds_at(name: str, space: Compiled, kind: str) -> Compiled:
    return lambda c: kinds_on_space(c, name, space(c), kind)


@function("empty_spaces", ("board",), "How many spaces of a board hold nothing.",
          "empty_spaces(ranch)")
def _empty_spaces(name: str) -> Compiled:
    def count(c: Ctx) -> int:
        board = _board(c, name)
        own = c.seat if board.per_player else 0
        # Every space's items straight from the game's zones: no name made, none checked.
        n = 0
        for lists in _plan(board).lists(c.state.zones):
            if not lists[own]:
                n += 1
        return n

    def run(c: Ctx) -> int:
        memo = FRAMES.memo
        if memo is None:
            return count(c)
        # A game read without changing (a bot scoring each of its options): counted once,
        # not once an option, which on a large board would cost spaces times options.
        key = ("empty_spaces", name, id(c.state), c.state.version, c.seat)
        found = memo.get(key)
        if found is None:
            found = memo[key] = count(c)
        return int(found)

    return run


def board_full(c: Ctx, name: str) -> bool:
    """Whether every space of the board named holds an item (the seat in scope's own, for a
    per-player board): the first empty space answers, however large the board."""
    board = c.state.rules.boards[name]
    own = c.seat if board.per_player else 0
    zones = c.state.zones
    # One space at a time, most answers coming early; a plain loop makes no generator.
    for zone in _plan(board).zones:  # noqa: SIM110
        if not zones[zone][own]:
            return False
    return True


INLINE_HELPERS.update(_board_full=board_full)
mark_arg_free(board_full)


@function("full", ("board",), "Whether every space of a board holds at least one item (the "
          "seat in scope's own board, for a per-player board).", "full(ranch)",
          inline=lambda name: f"_board_full(c, {name!r})", returns="bool")
def _full(name: str) -> Compiled:
    return lambda c: board_full(c, name)


@function("adjacent", ("board", "expr", "expr"), "Whether two spaces of a board are next to "
          "each other.", "adjacent(ranch, $space, 'r1c1')")
def _adjacent(name: str, a: Compiled, b: Compiled) -> Compiled:
    def run(c: Ctx) -> bool:
        board = _board(c, name)
        return _space(board, b(c)) in _plan(board).near[_space(board, a(c))]

    return run


@function("distance", ("board", "expr", "expr"), "Steps between two spaces: on a track, the "
          "spaces entered or passed; on a grid, rows plus columns.",
          "distance(time_track, period, $to)",
          inline=lambda name, a, b: f"_steps_from(c, {name!r})[{a}][{b}]")
def _distance(name: str, a: Compiled, b: Compiled) -> Compiled:
    def run(c: Ctx) -> int:
        first, second = a(c), b(c)  # both worked out before either is looked up
        return steps_from(c, name)[first][second]

    return run


@function("filled_neighbours", ("board", "expr"), "How many spaces next to a space hold at "
          "least one item.", "filled_neighbours(ranch, $space)")
def _filled_neighbours(name: str, space: Compiled) -> Compiled:
    def run(c: Ctx) -> int:
        board, near = _planned(c, name, space, "near_zones")
        zones = c.state.zones
        own = c.seat if board.per_player else 0
        n = 0
        for zone in near:
            if zones[zone][own]:
                n += 1
        return n

    return run


# --- argument domain -------------------------------------------------------------------

def _space_values(board_name: str, empty: bool, where: Compiled | None,
                  owner: Compiled | None = None) -> Any:
    def candidates(c: Ctx) -> list[Any]:
        board = c.state.rules.boards[board_name]
        spaces = board.spaces
        if not empty:
            return list(spaces)
        own = (c.seat if owner is None else int(owner(c))) if board.per_player else 0
        # Every space's items straight from the game's zones (the board's plan names them):
        # a listing of a full board costs a lookup a space, as an empty one does.
        lists = _plan(board).lists(c.state.zones)
        return [s for s, on in zip(spaces, lists, strict=True) if not on[own]]

    def values(c: Ctx) -> list[Any]:
        # Each space tested in board order, what the test reads of the game alone once.
        tested = candidates(c)
        return passing(c, tested, "space", where) if tested else tested

    return listed_by(values, candidates, where, "space")


SPACE_DOC = ("A space of a board (the acting player's own, for a per-player board; with "
             "`owner`, that player's): with "
             "`empty: true`, only spaces holding nothing; with `where`, only spaces for which "
             "it holds (`$space` is the space tested). The value is the space's name.")
DOMAINS["space_of"] = DomainSpec("space_of", SPACE_DOC,
                                 "space: {domain: space_of, board: ranch, empty: true}",
                                 ("board", "empty", "where", "owner"), False,
                                 lambda *a: (lambda c: []))


KIND_ON_DOC = ("The kind of any item lying on one space of a board (the space an expression "
               "gives, such as the player's own position), each kind once; with `where`, only "
               "kinds for which it holds (`$kind` is the kind tested).")
DOMAINS["kind_on"] = DomainSpec("kind_on", KIND_ON_DOC,
                                "target: {domain: kind_on, board: time_track, space: period}",
                                ("board", "space", "where"), False, lambda *a: (lambda c: []))


def kind_on_domain(board_name: str, space: Compiled, where: Compiled | None = None) -> Any:
    """The values function of a `kind_on` argument."""
    def items_on(c: Ctx) -> list[int]:
        return space_list(c, board_name, space(c))

    values = listed_by(lambda c: kinds_passing(c, items_on(c), where),
                       lambda c: kinds_of(c, items_on(c)), where, "kind")
    source = getattr(space, "source", None)
    if source is not None:  # for a lister to write in line, as `kind_in`'s (domains.py)
        fn = cast(Any, values)
        fn.raw_source = (f"{{st.items[_i].kind: None for _i in "
                         f"_space_list(c, {board_name!r}, ({source}))}}")
        fn.raw_namespace = {**getattr(space, "namespace", {}), "_space_list": space_list}
    return values


def space_domain(board: str, empty: bool, where: Compiled | None,
                 owner: Compiled | None = None) -> Any:
    """The values function of a `space_of` argument (`owner`: whose board, when not the
    acting player's)."""
    return _space_values(board, empty, where, owner)


# --- effects ---------------------------------------------------------------------------

def _space_ref(board: BoardDef, space: str, owner: int | None = None) -> ZoneRef:
    """A space as a zone reference, so its moves are told like any zone's."""
    return ZoneRef(space_zone(board.name, space),
                   lambda c: space_items(c, board, space, owner),
                   shared=not board.per_player, owner=None if owner is None else
                   (lambda c: owner))


OWNER = Param("expr", "whose board, for a per-player board (default: the player in scope)",
              required=False)


def _owner(c: Ctx, owner: Compiled | None) -> int | None:
    return None if owner is None else int(owner(c))


@effect("place", "Put an item from a zone onto a space of a board: `item` (an id or a kind) "
        "or else the zone's first item.",
        "place: {from: hand, board: ranch, space: $space}",
        {"from": Param("zone", "where the item is"),
         "board": Param("board", "the board"),
         "space": Param("expr", "the space's name"),
         "item": Param("expr", "the item: its id or a kind", required=False),
         "owner": OWNER})
def _place(p: dict[str, Any]) -> Effect:
    src: ZoneRef = p["from"]
    name: str = p["board"]
    space: Compiled = p["space"]
    item: Compiled | None = p.get("item")
    owner: Compiled | None = p.get("owner")

    def run(c: Ctx) -> bool:
        zone = src.get(c)
        if not zone:
            return False
        if item is not None:
            pos = find_item(c.state, zone, item(c), src.name)
        else:  # the top card: of a shuffled deck, the one chance (or a force) puts there
            pos = 0
            if src.deck:
                fix_position(c.state, zone, 0, f"drawing from {src.name}")
        board = _board(c, name)
        where = _space(board, space(c))  # worked out once: it may read the item about to move
        index = zone.pop(pos)
        c.state.shuffled.discard(index)
        seat = _owner(c, owner)
        space_items(c, board, where, seat).append(index)
        moved_event(c, src, _space_ref(board, where, seat), [index])
        return False

    return run


@effect("take", "Move the items on a space of a board (or one: `item`, an id or a kind) to "
        "a zone.", "take: {board: ranch, space: $space, to: hand}",
        {"board": Param("board", "the board"),
         "space": Param("expr", "the space's name"),
         "to": Param("zone", "where the items go"),
         "item": Param("expr", "only this item: its id or a kind", required=False),
         "owner": OWNER})
def _take(p: dict[str, Any]) -> Effect:
    dst: ZoneRef = p["to"]
    name: str = p["board"]
    space: Compiled = p["space"]
    item: Compiled | None = p.get("item")
    owner: Compiled | None = p.get("owner")

    def run(c: Ctx) -> bool:
        board = _board(c, name)
        where = _space(board, space(c))
        seat = _owner(c, owner)
        on = space_items(c, board, where, seat)
        if not on:
            return False
        if item is None:
            moving = list(on)
            on.clear()
        else:
            moving = [on.pop(find_item(c.state, on, item(c), where))]
        dst.get(c).extend(moving)
        moved_event(c, _space_ref(board, where, seat), dst, moving)
        return False

    return run


def space_owners(state: GameState, action: Any) -> dict[str, int]:
    """Whose board each space an action names lies on, for boards each player has: the
    seat its argument's `owner` gives (with the action's arguments in scope), or the
    acting player's own. `action` is an engine `Action`."""
    adef = state.rules.actions.get(action.id)
    if adef is None:
        return {}
    out: dict[str, int] = {}
    args = dict(action.args)
    for arg in adef.args:
        if arg.domain != "space_of" or arg.name not in args:
            continue
        board = state.rules.boards.get(arg.board)
        if board is None or not board.per_player:
            continue
        if arg.owner is None:
            out[arg.name] = action.player
            continue
        c = Ctx(state, action.player, args)
        out[arg.name] = int(arg.owner(c))
    return out
