"""Who may act, and what: the one answer the flow, the table, the terminal and the bots ask.

`legal_actions` lists the actions a seat may take now, `refusal` says why one is not
allowed (a `Refusal`: a kind and words), and `apply` (flow.py) refuses exactly what
`refusal` refuses. Both start from `open_by`, the one rule for which actions a seat may
take at all now (by who acts: the current player, the others, anyone still in the game).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from .decide import arg_values as values_of
from .decide import combos, decision_actions, frame_seat
from .domains import Subset
from .errors import EngineError
from .expr import Ctx, prologue, suggest
from .listers import action_lister, move_lines, window_listers
from .model import ActionDef, ArgDef
from .origins import PASSED_ON, Origin, RulesError, origin_of, register, rules_error, rules_file
from .state import Action, GameState

_NO_ARGS: dict[str, Any] = {}



@dataclass(frozen=True)
class Refusal:
    """Why a seat may not take an action now: a `kind` a program can test, and words."""

    kind: str  # one of REFUSALS
    text: str

    def __str__(self) -> str:
        return self.text


REFUSALS = {
    "game_over": "the game is over",
    "unknown_action": "the ruleset has no such action",
    "no_seat": "there is no such seat",
    "not_asked": "a decision waits on another seat",
    "not_an_answer": "the action does not answer the decision the game waits on",
    "answer_only": "the action answers a question, and none is asked",
    "window_only": "the action is played only when a response window asks",
    "not_your_turn": "the action is the current player's, on their turn",
    "others_only": "the action is played on another player's turn",
    "not_playing": "the seat takes no part in the game now (a tiebreak is the leaders')",
    "not_now": "the action's `when` does not hold",
    "bad_arguments": "an argument is missing, unknown or not an allowed value",
}

_ON_TURN = frozenset({"current", "any"})
_OFF_TURN = frozenset({"others", "any"})
_NOBODY: frozenset[str] = frozenset()


# The one rule for who may act outside a decision, as source over the state `st` and the
# `seat`: nobody once the game is over or while a question or a response window waits (only
# its answers are open then); a seat out of the game (left out of a tiebreak) takes nothing;
# the current player takes `current` and `any` actions, everyone else `others` and `any`
# ones. It is compiled into `open_by` below and written into every generated lister, so
# the two cannot disagree and listing costs no call for it.
OPEN_BY = ("_NOBODY if st.game_over or st.pending or not st.active[seat] "
           "else _ON_TURN if seat == st.current else _OFF_TURN")
_OPEN_NAMES = {"_NOBODY": _NOBODY, "_ON_TURN": _ON_TURN, "_OFF_TURN": _OFF_TURN}


def _compile_open_by() -> Callable[[GameState, int], frozenset[str]]:
    made: dict[str, Any] = {}
    exec(f"def open_by(st, seat):\n    return {OPEN_BY}\n", dict(_OPEN_NAMES), made)
    return cast(Callable[[GameState, int], frozenset[str]], made["open_by"])


open_by = _compile_open_by()
"""The actions a seat may take now by who it is: the `by:` values open to it (OPEN_BY)."""


def waiting_on(state: GameState) -> int | None:
    """The seat the game waits on for its next decision (None once the game is over).

    Usually the player whose turn it is; a question asked mid-effect or a response window
    waits on another seat. Front ends, bots and scenarios ask this, never `state.current`.
    """
    if state.game_over:
        return None
    if state.pending:
        return frame_seat(state.pending[-1])
    return state.current


def legal_actions(state: GameState, seat: int | None = None) -> list[Action]:
    """Every action `seat` (default: the player the game waits on) may take now, with arguments.

    The list is shared with the engine's cache until the next `apply`: read it, don't change it.
    """
    if state.game_over:
        return []
    if state.pending:  # a decision: only its answers, for the seat it waits on
        if seat is None:
            seat = frame_seat(state.pending[-1])
        cache = state.legal_cache
        if cache is not None and cache[0] == state.version and cache[1] == seat and (
                cache[3] is state.pending[-1]):
            return cache[2]
        try:
            answers = decision_actions(state, seat)
        except PASSED_ON:
            raise
        except Exception as exc:  # a domain or a `when` of a reaction failed
            raise rules_error(state.rules, exc, "listing the answers") from exc
        state.legal_cache = (state.version, seat, answers, state.pending[-1])
        return answers
    waited = seat is None
    if seat is None:
        seat = state.current
    cache = state.legal_cache
    if cache is not None and cache[0] == state.version and cache[1] == seat and (
            cache[3] is None):
        return cache[2]
    ctx = state.ctx
    ctx.seat, ctx.args, ctx.turn_over, ctx.events = seat, _NO_ARGS, False, None
    try:
        result: list[Action] = state.rules.legal(ctx, seat)
    except PASSED_ON:
        raise
    except Exception as exc:  # an action's `when` or an argument domain failed
        raise rules_error(state.rules, exc, "listing the legal actions") from exc
    if waited and not result:
        raise stalled(state, seat)
    state.legal_cache = (state.version, seat, result, None)
    return result


MADE_MAX = 20_000  # actions with arguments remembered per seat and action


def _with_args(c: Ctx, seat: int, adef: ActionDef) -> list[Action]:
    """Every combination of an action's argument values, as actions.

    An action is made once per ruleset, seat and arguments, then handed out again (actions
    are immutable): listing a grid's few hundred spaces every move costs a lookup each,
    not a new object each, however long the game goes on."""
    memo = c.state.rules.memo
    key = ("made", seat, adef.id)
    made: dict[Any, Action] | None = memo.get(key)
    if made is None:
        made = memo[key] = {}
    out: list[Action] = []
    if len(adef.args) == 1:
        # One argument (most actions): its values are the keys, no pairs made to look up.
        name = adef.args[0].name
        values: Sequence[Any] = values_of(c, adef.args[0])
        if type(values) is tuple:
            # A domain that keeps its listings (faces_of) hands the same tuple out again:
            # its actions are kept beside it (the tuple is held, so its id stays its own).
            lists: dict[int, Any] | None = memo.get(("made_lists", seat, adef.id))
            if lists is None:
                lists = memo[("made_lists", seat, adef.id)] = {}
            kept = lists.get(id(values))
            if kept is not None and kept[0] is values:
                return cast(list[Action], kept[1])
            if len(lists) >= MADE_MAX:
                lists.clear()
            lists[id(values)] = (values, out)
        for value in values:
            try:
                action = made.get(value)
            except TypeError:  # an argument value that cannot be a key: made afresh
                out.append(Action(seat, adef.id, ((name, value),)))
                continue
            if action is None:
                action = Action(seat, adef.id, ((name, value),))
                if len(made) < MADE_MAX:
                    made[value] = action
            out.append(action)
        return out
    for combo in combos(c, adef.args):
        try:
            action = made.get(combo)
        except TypeError:  # an argument value that cannot be a key: made afresh
            out.append(Action(seat, adef.id, combo))
            continue
        if action is None:
            action = Action(seat, adef.id, combo)
            if len(made) < MADE_MAX:
                made[combo] = action
        out.append(action)
    return out


Lister = Callable[[Ctx, int], list[Action]]


def _window_combos(c: Ctx, seat: int, adef: ActionDef) -> list[Action]:
    """A reaction's moves through the general path, as a window lists them."""
    return [Action(seat, adef.id, combo) for combo in combos(c, adef.args)]


def build_legal(actions: dict[str, ActionDef]) -> Lister:
    """Generate the function behind `legal_actions` for a ruleset's actions.

    It works out the `by:` values open to the seat by the one rule (OPEN_BY); each
    action's `when` is inlined as an `if`, so listing the legal actions costs one call,
    and the Action objects of actions without arguments are made once per game and reused.
    """
    ns: dict[str, Any] = {"_with_args": _with_args, **_OPEN_NAMES}
    # A question's answers are listed with the arguments it was asked with (decide.combos).
    listers = {aid: found for aid, adef in actions.items()
               if adef.by != "answer" and (found := action_lister(adef)) is not None}
    lines = [f"    by = {OPEN_BY}", "    A = st.plain_actions[seat]", "    r = []"]
    marks: list[tuple[int, Origin]] = []
    # Actions in the ruleset's order; a run of actions for the same players shares one test
    # of whether the seat may take them at all.
    last_by = ""
    for adef in actions.values():
        if adef.by in ("window", "answer"):
            continue  # played only when a decision asks for it
        if adef.by != last_by:
            lines.append(f"    if {adef.by!r} in by:")
            last_by = adef.by
        # (The marks are moved below, past the prologue.)
        lines += move_lines(adef, listers, "_with_args", ns, (len(lines), marks), "        ")
    lines.append("    return r")
    start = prologue(ns)
    first = 2 + start.count("\n")  # the line of lines[0], after the `def` and the prologue
    # Generated from compiled expressions only; its first lines bind what they read.
    exec(compile("def _legal(c, seat):\n" + start + "\n".join(lines), "<legal>", "exec"), ns)
    register(ns["_legal"], marks=[(line + first, origin) for line, origin in marks])
    # Each action's own lister, and each window's (decide.window_actions), which lists its
    # reactions with the same functions.
    ns["_legal"].listers = listers
    ns["_legal"].windows = window_listers(actions, listers, _window_combos)
    return cast(Lister, ns["_legal"])


def sample_action(state: GameState, rng: Any) -> Action:
    """One legal action for the seat the game waits on, at random, without listing every
    value of a large domain (a subset is sampled). Raises EngineError when none is legal."""
    seat = waiting_on(state)
    if seat is None:
        raise EngineError("the game is over")
    ctx = state.ctx
    ctx.sampler = rng
    try:
        if state.pending:
            found = decision_actions(state, seat, rng)
        else:
            ctx.seat, ctx.args, ctx.turn_over, ctx.events = seat, _NO_ARGS, False, None
            found = state.rules.legal(ctx, seat)
    finally:
        ctx.sampler = None
    if not found:
        if not state.pending:
            raise stalled(state, seat)
        raise EngineError(f"nothing is legal for {state.players[seat]}")
    return found[int(rng.random() * len(found))]


def stalled(state: GameState, seat: int) -> RulesError:
    """The error for a game nobody can go on with: which rule closed each action open to
    the seat (its `when` false, or no value for an argument), with the lines."""
    file = rules_file(state.rules)
    reasons: list[str] = []
    line = 0
    for adef in state.rules.actions.values():
        if adef.by not in open_by(state, seat):
            continue
        ctx = Ctx(state, seat)
        try:
            if adef.when is not None and not adef.when(ctx):
                where = origin_of(adef.when)
                line = line or (where.line if where is not None else 0)
                reasons.append(f"{adef.id}: its `when` is false" if where is None else
                               f"{adef.id}: its `when` {where.text!r} (line {where.line}) "
                               "is false")
                continue
            # A large domain (a subset) is sampled, never listed: only the others here.
            empty = next((a for a in adef.args
                          if a.contains is None and not a.values(ctx)), None)
        except Exception:  # a rule that fails is reported by listing, not here
            continue
        if empty is not None:
            line = line or empty.line
            reasons.append(f"{adef.id}: no choice for its argument {empty.name!r}"
                           + (f" (line {empty.line})" if empty.line else ""))
    who = state.players[seat]
    if not reasons:
        why = (f"no action is open to {who} (it is {state.players[state.current]}'s turn)"
               if state.rules.actions else "the ruleset has no actions")
    else:
        shown = reasons[:4] + ([f"and {len(reasons) - 4} more"] if len(reasons) > 4 else [])
        why = "; ".join(shown)
    return RulesError(f"{file}{f':{line}' if line else ''}: no action is legal for {who} "
                      f"and the game is not over: {why}", file, line)


def why_illegal(state: GameState, action: Action) -> str | None:
    """Why an action is not allowed now, in words; None when it is legal."""
    found = refusal(state, action)
    return None if found is None else found.text


def refusal(state: GameState, action: Action) -> Refusal | None:
    """Why an action is not allowed now (None: it is legal): what `apply` refuses, and
    exactly what `legal_actions` does not list."""
    rules = state.rules
    if state.game_over:
        return Refusal("game_over", "the game is over")
    adef = rules.actions.get(action.id)
    if adef is None:
        near = suggest(action.id, list(rules.actions))
        hint = f" (did you mean {near!r}?)" if near else ""
        return Refusal("unknown_action", f"{rules.name} has no action {action.id!r}{hint}")
    if not 0 <= action.player < len(state.players):
        return Refusal("no_seat", f"there is no seat {action.player}")
    if state.pending:
        return _not_an_answer(state, action, adef.label)
    found = _closed(state, adef, action.player)
    if found is not None:
        return found
    ctx = Ctx(state, action.player, dict(action.args))
    text = _bad_arguments(state, action, adef, ctx)
    return None if text is None else Refusal("bad_arguments", text)


def _closed(state: GameState, adef: ActionDef, seat: int) -> Refusal | None:
    """Why `seat` may not take `adef` now, its arguments aside (None: it may): `open_by`,
    then the action's `when`."""
    name = state.players[seat]
    if adef.by == "answer":
        return Refusal("answer_only", f"{adef.label} answers a question, and none is asked now")
    if adef.by == "window":
        return Refusal("window_only",
                       f"{adef.label} is played only when you are asked to respond")
    if adef.by not in open_by(state, seat):
        if not state.active[seat]:
            return Refusal("not_playing", f"{name} takes no part in the game now: "
                                          "the tiebreak is played by the leaders")
        if adef.by == "current":
            return Refusal("not_your_turn",
                           f"it is {state.players[state.current]}'s turn, not {name}'s")
        return Refusal("others_only", f"{adef.label} is played on another player's turn")
    ctx = Ctx(state, seat)
    try:
        if adef.when is not None and not adef.when(ctx):
            return Refusal("not_now", adef.why_not or f"{adef.label} is not possible now")
    except PASSED_ON:
        raise
    except Exception as exc:
        raise rules_error(state.rules, exc, f"checking whether {adef.id} is legal") from exc
    return None


def _bad_arguments(state: GameState, action: Action, adef: ActionDef, ctx: Ctx) -> str | None:
    """What is wrong with an action's arguments, in words (None: nothing)."""
    rules = state.rules
    given = dict(action.args)
    expected = [a.name for a in adef.args]
    for key in given:
        if key not in expected:
            return f"{action.id} takes no argument {key!r}" + (
                f"; it takes {', '.join(expected)}" if expected else "")
    for a in adef.args:
        if a.name not in given:
            return f"{action.id} needs the argument {a.name!r}"
        if a.contains is not None:
            value = given[a.name]
            if not a.contains(ctx, value):
                shown = list(value) if isinstance(value, tuple) else value
                return f"{shown!r} is not an allowed choice of {a.name} now"
            continue
        try:
            values = a.values(ctx)
        except PASSED_ON:
            raise
        except Exception as exc:
            raise rules_error(rules, exc, f"listing the choices for {a.name}") from exc
        if given[a.name] not in values:
            shown = [state.players[v] for v in values] if a.is_player else values
            value = given[a.name]
            if a.is_player and isinstance(value, int) and 0 <= value < len(state.players):
                value = state.players[value]
            return f"{value!r} is not a choice for {a.name} now; the choices are {shown}"
    return None


def _not_an_answer(state: GameState, action: Action, label: str) -> Refusal | None:
    """Why an action does not answer the decision the game waits on (None: it does)."""
    answers = decision_actions(state, action.player)
    if action in answers:
        return None
    frame = state.pending[-1]
    who = state.players[frame_seat(frame)]
    if action.player != frame_seat(frame):
        return Refusal("not_asked", f"the game waits on {who} to answer, "
                                    f"not {state.players[action.player]}")
    ids = sorted({a.id for a in answers})
    if action.id not in ids:
        return Refusal("not_an_answer", f"{label} is not an answer now; {who} may: "
                                        f"{', '.join(ids)}")
    choices = [dict(a.args) for a in answers if a.id == action.id]
    return Refusal("bad_arguments",
                   f"{dict(action.args)} is not a choice now; the choices are {choices}")


# --- for front ends: moves built a step at a time ------------------------------------

@dataclass(frozen=True)
class Moves:
    """What the seat the game waits on may do now, as a front end offers it.

    `listed`: every move with its arguments. `built`: the ids of actions with an argument
    that is a set of items (the dice that pay, the dice to roll again): there may be
    thousands, so they are never listed; the front end builds one with `arg_values` and
    `markable` and asks `refusal` about it.
    """

    seat: int | None
    listed: tuple[Action, ...] = ()
    built: tuple[str, ...] = ()

    @property
    def anything(self) -> bool:
        """Whether the seat has any move at all."""
        return bool(self.listed or self.built)


def is_subset(arg: ArgDef) -> bool:
    """Whether an argument is a set of items (built by marking them, never listed)."""
    return arg.domain == "subset_of"


def moves(state: GameState) -> Moves:
    """The moves of the seat the game waits on (none once the game is over)."""
    seat = waiting_on(state)
    if seat is None:
        return Moves(None)
    rules = state.rules
    large = [a for a in rules.actions.values() if any(is_subset(x) for x in a.args)]
    if state.pending or not large:
        return Moves(seat, tuple(legal_actions(state)))
    listed: list[Action] = []
    built: list[str] = []
    ctx = Ctx(state, seat)
    for adef in rules.actions.values():
        if adef.by in ("window", "answer") or _closed(state, adef, seat) is not None:
            continue
        if adef in large:
            built.append(adef.id)
        elif adef.args:
            listed += _with_args(ctx, seat, adef)
        else:
            listed.append(Action(seat, adef.id))
    return Moves(seat, tuple(listed), tuple(built))


def _next_arg(state: GameState, action_id: str, bound: dict[str, Any]) -> ArgDef | None:
    adef = state.rules.actions[action_id]
    return next((a for a in adef.args if a.name not in bound), None)


def arg_values(state: GameState, seat: int, action_id: str,
               bound: dict[str, Any] | None = None) -> list[Any]:
    """The values the next argument of an action (the first not in `bound`) may take now,
    with the arguments before it chosen as `bound`. Not for a set of items: see `markable`."""
    bound = dict(bound or {})
    arg = _next_arg(state, action_id, bound)
    if arg is None or is_subset(arg):
        return []
    try:
        return list(arg.values(Ctx(state, seat, bound)))
    except PASSED_ON:
        raise
    except Exception as exc:
        raise rules_error(state.rules, exc, f"listing the choices for {arg.name}") from exc


def markable(state: GameState, seat: int, action_id: str,
             bound: dict[str, Any] | None = None) -> list[str]:
    """The items that may be marked for the next argument of an action when it is a set
    of items: those of its zone (the seat's own copy) that pass its `where`, in zone order.
    Whether the marked ones together are allowed is `refusal`'s to say."""
    bound = dict(bound or {})
    arg = _next_arg(state, action_id, bound)
    subset = getattr(arg.contains, "__self__", None) if arg is not None else None
    if not isinstance(subset, Subset):
        return []
    try:
        return subset.eligible(Ctx(state, seat, bound))
    except PASSED_ON:
        raise
    except Exception as exc:
        raise rules_error(state.rules, exc, "listing what may be marked") from exc
