"""Turn flow and the public engine API: new_game, legal_actions, apply, view_for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from .decide import PASS, combos, decision_actions, frame_seat, skip_unplayable
from .errors import ChanceError, EngineError, IllegalAction
from .expr import Ctx, bind, source_of, suggest
from .facing import lay_start_items, sees_face
from .model import ActionDef, Rules
from .origins import (
    PASSED_ON,
    Origin,
    RulesError,
    origin_of,
    register,
    rules_error,
    rules_file,
)
from .state import Action, Event, GameState, Item
from .views import seen_player_vars, seen_scores


def new_game(rules: Rules, players: list[str], options: dict[str, Any] | None = None,
             seed: int = 0, force: list[Any] | None = None,
             setup: Callable[[GameState], None] | None = None) -> GameState:
    """Set up a game: seats, options, items in their starting zones, first turn begun.

    `force` queues chance outcomes before anything is set up, so the ruleset's own setup
    (a draw at the first round's start, a shuffle) takes them. `setup` is called with the
    state once the items are in their starting zones, before the first round starts: a
    scenario places a position there (see `engine.place_items`).
    """
    n = len(players)
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(f"{rules.name} seats {rules.min_players} to {rules.max_players} "
                         f"players, not {n}")
    if len(set(players)) != n:
        raise ValueError("every player needs a different name")
    if rules.teams and n % rules.teams:
        raise ValueError(f"{rules.name} is played in {rules.teams} teams of equal size: "
                         f"{n} players cannot be split so")
    state = GameState(rules, players, resolve_options(rules, options or {}), seed)
    if force:
        state.chance.force(force)
    try:
        _set_up(state)
    except PASSED_ON:
        raise
    except Exception as exc:  # a ruleset's own code failed: name its line
        raise rules_error(rules, exc, "setting up the game") from exc
    try:
        # The first round's start is the ruleset's own set-up (a deal, a roll-off for who
        # goes first): a scenario's position is placed after it and before the first turn,
        # so that turn's own start (a draw) still comes after the position.
        _start_round(state.ctx, 0, begin=setup is None)
    except PASSED_ON:
        raise
    except Exception as exc:
        raise rules_error(rules, exc, "setting up the game") from exc
    if setup is not None:
        setup(state)  # a scenario's position: its own errors are its own
        try:
            if not state.pending:
                _start_turn(state.ctx, state.round_order[0])
        except PASSED_ON:
            raise
        except Exception as exc:
            raise rules_error(rules, exc, "setting up the game") from exc
    return state


def _set_up(state: GameState) -> None:
    """Items into their starting zones, as they lie before the first round."""
    rules = state.rules
    n = len(state.players)
    made: dict[str, int] = {}  # items of each kind so far: green1, green2, ...
    for zdef in rules.zones.values():
        owners = n if zdef.per_player else 1
        state.zones[zdef.name] = [[] for _ in range(owners)]
        for owner in range(owners):
            for kind, count in zdef.start:
                for _ in range(count):
                    numbered = made[kind] = made.get(kind, 0) + 1
                    state.zones[zdef.name][owner].append(len(state.items))
                    state.items.append(Item(f"{kind}{numbered}", kind))
            _place_start_items(state, zdef.name, owner)
    state.item_ids = {it.id: n for n, it in enumerate(state.items)}
    lay_start_items(state)


def _place_start_items(state: GameState, zone: str, owner: int) -> None:
    """Put a zone's starting cards, tiles and tokens in it: ids are the kind for the first
    copy, then kind_2, kind_3, ...; a deck's cards start shuffled."""
    zdef = state.rules.zones[zone]
    for kind, count in zdef.start_items:
        for _ in range(count):
            made = sum(1 for it in state.items if it.kind == kind)
            index = len(state.items)
            state.items.append(Item(kind if made == 0 else f"{kind}_{made + 1}", kind))
            state.zones[zone][owner].append(index)
            if zdef.order == "deck":
                state.shuffled.add(index)


def resolve_options(rules: Rules, chosen: dict[str, Any]) -> dict[str, Any]:
    """The full option set: defaults, overridden by valid choices; bad ones raise ValueError."""
    values = {name: o.default for name, o in rules.options.items()}
    for name, value in chosen.items():
        o = rules.options.get(name)
        if o is None:
            near = suggest(name, list(rules.options))
            hint = f" (did you mean {near!r}?)" if near else ""
            raise ValueError(f"{rules.id} has no option {name!r}{hint}")
        if o.choices and value not in o.choices:
            raise ValueError(f"option {name} must be one of {list(o.choices)}, not {value!r}")
        if isinstance(o.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"option {name} must be true or false, not {value!r}")
        elif isinstance(o.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"option {name} must be a whole number, not {value!r}")
            if (o.minimum is not None and value < o.minimum) or (
                    o.maximum is not None and value > o.maximum):
                raise ValueError(f"option {name} must be from {o.minimum} to {o.maximum}, "
                                 f"not {value}")
        values[name] = value
    return values


# --- flow ----------------------------------------------------------------------
# One Ctx is threaded through an action and the turn flow it sets off, so a turn that
# ends and a turn that begins cost no new objects.

_NO_ARGS: dict[str, Any] = {}


def _emit(events: list[Event] | None, kind: str, seat: int | None,
          data: Callable[[], dict[str, Any]] | None = None) -> None:
    # Events are built only for someone watching: a simulation pays for none of them.
    if events is not None:
        events.append(Event(kind, seat, data() if data is not None else {}))


def _focus(ctx: Ctx, seat: int) -> Ctx:
    ctx.seat = seat
    ctx.args = _NO_ARGS
    ctx.turn_over = False
    return ctx


def _start_round(ctx: Ctx, first: int, begin: bool = True) -> None:
    """A round's start effects, then its first turn (unless `begin` is False: a scenario's
    position is placed between them)."""
    state = ctx.state
    n = len(state.players)
    state.round += 1
    state.out = [False] * n
    state.round_order = [s for s in ((first + k) % n for k in range(n)) if state.active[s]]
    state.round_pos = 0
    if ctx.events is not None:  # checked here, not in _emit: this runs every round
        ctx.events.append(Event("round_started", None, {
            "round": state.round, "tiebreak": state.tiebreak,
            "seats": list(state.round_order)}))
    # The player in scope, no arguments, and where the flow goes on (set inline: per turn).
    ctx.seat, ctx.args, ctx.turn_over, ctx.after = (state.round_order[0], _NO_ARGS, False,
                                                    "round_start")
    state.rules.round_start(ctx)
    if state.pending or not begin:
        return  # a question asked at the round's start; the first turn begins once answered
    _start_turn(ctx, state.round_order[0])


def _start_turn(ctx: Ctx, seat: int) -> None:
    state = ctx.state
    state.current = seat
    state.turns += 1
    state.idle_turns += 1
    if state.idle_turns > MAX_TURNS_WITHOUT_ACTION:
        raise RulesError(f"{rules_file(state.rules)}: {MAX_TURNS_WITHOUT_ACTION} turns ended "
                         "by themselves with no action taken: the ruleset's turn start always "
                         "ends the turn", rules_file(state.rules))
    state.turn_vars = dict(state.rules.turn_vars)
    if ctx.events is not None:
        ctx.events.append(Event("turn_started", seat, {}))
    ctx.seat, ctx.args, ctx.turn_over, ctx.after = seat, _NO_ARGS, False, "turn_start"
    state.rules.turn_start(ctx)
    if ctx.turn_over and not state.pending:
        _end_turn(ctx)


def _end_turn(ctx: Ctx, resumed: bool = False) -> None:
    """The turn's end effects, then the end trigger and the next turn (`resumed`: the end
    effects asked a question that is now answered, so they are not run again)."""
    state = ctx.state
    rules = state.rules
    seat = state.current
    if not resumed:
        ctx.seat, ctx.args, ctx.turn_over, ctx.after = seat, _NO_ARGS, False, "turn_end"
        rules.turn_end(ctx)
        if state.pending:
            return  # the turn's end asked a question; the flow goes on once it is answered
    if ctx.events is not None:
        ctx.events.append(Event("turn_ended", seat, {}))
    if state.final_turns is not None:
        state.final_turns -= 1
        if state.final_turns <= 0:
            _finish(ctx)
            return
    if not state.last_round and not state.tiebreak and rules.end.trigger(ctx):
        state.last_round = True
        _emit(ctx.events, "last_round", seat, lambda: {
            "then": "last_turns" if rules.end.last_turns else
                    "finish_round" if rules.end.finish_round else "ends"})
        if rules.end.last_turns:
            # Everyone else still in the game plays once more; then the game ends, before
            # the player who triggered it would play again.
            others = sum(1 for s in range(len(state.players)) if state.active[s] and s != seat)
            if others == 0:
                _finish(ctx)
                return
            state.final_turns = others
        elif not rules.end.finish_round:
            _finish(ctx)
            return
    if state.next_starter is not None:
        _end_round(ctx)
        return
    if rules.round_mode == "until_ended":
        # Play passes round the table to the next player still in the round, until an
        # effect ends the round; with one player left nobody else can be passed to.
        n = len(state.players)
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if state.in_round(nxt) and nxt != seat:
                _start_turn(ctx, nxt)
                return
        _end_round(ctx)
        return
    state.round_pos += 1
    order = state.round_order
    while state.round_pos < len(order):
        nxt = order[state.round_pos]
        if state.in_round(nxt):
            _start_turn(ctx, nxt)
            return
        state.round_pos += 1
    _end_round(ctx)


def _end_round(ctx: Ctx) -> None:
    state = ctx.state
    _focus(ctx, state.current).after = "round_end"
    state.rules.round_end(ctx)
    if not state.pending:
        _after_round_end(ctx)


def _after_round_end(ctx: Ctx) -> None:
    state = ctx.state
    starter = state.next_starter
    state.next_starter = None
    if ctx.events is not None:
        ctx.events.append(Event("round_ended", None, {"round": state.round}))
    if (state.last_round and state.final_turns is None) or state.tiebreak:
        _finish(ctx)
    else:
        _start_round(ctx, state.round_order[0] if starter is None else starter)


def leaders(state: GameState) -> list[int]:
    """The seats still in contention with the best score (then tiebreak values, in order).

    With teams, a team's values are its players' added up, and every player of the best
    team (or of the teams tied for best) leads.
    """
    rules = state.rules

    def key(seat: int) -> tuple[Any, ...]:
        ctx = Ctx(state, seat)
        return (rules.score(ctx), *(tb(ctx) for tb in rules.end.tiebreaks))

    seats = [s for s in range(len(state.players)) if state.active[s]]
    if rules.teams:
        keys = {s: key(s) for s in seats}
        totals: dict[int, tuple[Any, ...]] = {}
        for s in seats:
            team = s % rules.teams
            old = totals.get(team)
            totals[team] = keys[s] if old is None else tuple(
                a + b for a, b in zip(old, keys[s], strict=True))
        top = max(totals.values())
        return [s for s in seats if totals[s % rules.teams] == top]
    try:
        best = max(key(s) for s in seats)
        return [s for s in seats if key(s) == best]
    except PASSED_ON:
        raise
    except Exception as exc:  # scores that cannot be compared, say a number and a text
        raise rules_error(rules, exc, "finding the leaders") from exc


def team_scores(state: GameState) -> list[Any]:
    """Every team's score (its players' scores added up), by team; empty without teams."""
    teams = state.rules.teams
    totals: list[Any] = [0] * teams
    for seat in range(len(state.players)):
        if teams:
            totals[seat % teams] += state.score(seat)
    return totals


MAX_TIEBREAK_ROUNDS = 20  # a tie no round can break is shared rather than played forever
MAX_TURNS_WITHOUT_ACTION = 1000


def _finish(ctx: Ctx) -> None:
    state = ctx.state
    top = leaders(state)
    if (len(top) > 1 and state.rules.end.ties == "leaders_replay"
            and state.tiebreak_rounds < MAX_TIEBREAK_ROUNDS):
        state.tiebreak_rounds += 1
        state.active = [s in top for s in range(len(state.players))]
        state.tiebreak = True
        state.final_turns = None
        _emit(ctx.events, "tiebreak", None, lambda: {"seats": top})
        _start_round(ctx, top[0])
        return
    state.game_over = True
    state.winners = top
    _emit(ctx.events, "game_over", None, lambda: {"winners": top})


# --- actions -------------------------------------------------------------------

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
        if cache is not None and cache[0] == state.version and cache[1] == seat:
            return cache[2]
        try:
            answers = decision_actions(state, seat)
        except PASSED_ON:
            raise
        except Exception as exc:  # a domain or a `when` of a reaction failed
            raise rules_error(state.rules, exc, "listing the answers") from exc
        state.legal_cache = (state.version, seat, answers)
        return answers
    waited = seat is None
    if seat is None:
        seat = state.current
    cache = state.legal_cache
    if cache is not None and cache[0] == state.version and cache[1] == seat:
        return cache[2]
    ctx = state.ctx
    ctx.seat, ctx.args, ctx.turn_over, ctx.events = seat, _NO_ARGS, False, None
    try:
        result: list[Action] = state.rules.legal(ctx, seat, seat == state.current)
    except PASSED_ON:
        raise
    except Exception as exc:  # an action's `when` or an argument domain failed
        raise rules_error(state.rules, exc, "listing the legal actions") from exc
    if waited and not result:
        raise RulesError(f"{rules_file(state.rules)}: no action is legal for "
                         f"{state.players[seat]} and the game is not over: check the "
                         "actions' `when`", rules_file(state.rules))
    state.legal_cache = (state.version, seat, result)
    return result


def _with_args(c: Ctx, seat: int, adef: ActionDef) -> list[Action]:
    """Every combination of an action's argument values, as actions."""
    return [Action(seat, adef.id, combo) for combo in combos(c, adef.args)]


def build_legal(actions: dict[str, ActionDef]) -> Callable[[Ctx, int, bool], list[Action]]:
    """Generate the function behind `legal_actions` for a ruleset's actions.

    Each action's `when` is inlined as an `if`, so listing the legal actions costs one call;
    the Action objects of actions without arguments are made once per game and reused.
    """
    ns: dict[str, Any] = {"_with_args": _with_args}
    lines = ["def _legal(c, seat, current):", "    A = c.state.plain_actions[seat]",
             "    r = []"]
    marks: list[tuple[int, Origin]] = []
    for adef in actions.values():
        if adef.by in ("window", "answer"):
            continue  # played only when a decision asks for it
        # Players left out of a tiebreak round take no part in it, on any turn.
        tests = {"current": ["current"], "others": ["not current", "c.state.active[seat]"],
                 "any": ["c.state.active[seat]"]}[adef.by]
        if adef.when is not None:
            tests.append(source_of(adef.when, ns))
            origin = origin_of(adef.when)
            if origin is not None:  # a `when` that fails at play names its line
                marks.append((len(lines) + 1, origin))
        if adef.args:
            body = f"r.extend(_with_args(c, seat, {bind(ns, adef, 'a')}))"
        else:
            body = f"r.append(A[{adef.id!r}])"
        lines += [f"    if {' and '.join(tests) or 'True'}:", f"        {body}"]
    lines.append("    return r")
    exec("\n".join(lines), ns)  # generated from compiled expressions only
    register(ns["_legal"], marks=marks)
    return cast(Callable[[Ctx, int, bool], list[Action]], ns["_legal"])


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
            found = state.rules.legal(ctx, seat, True)
    finally:
        ctx.sampler = None
    if not found:
        raise EngineError(f"nothing is legal for {state.players[seat]}")
    return found[int(rng.random() * len(found))]


def why_illegal(state: GameState, action: Action) -> str | None:
    """Why an action is not allowed now, in words; None when it is legal."""
    rules = state.rules
    if state.game_over:
        return "the game is over"
    adef = rules.actions.get(action.id)
    if adef is None:
        near = suggest(action.id, list(rules.actions))
        hint = f" (did you mean {near!r}?)" if near else ""
        return f"{rules.name} has no action {action.id!r}{hint}"
    if not 0 <= action.player < len(state.players):
        return f"there is no seat {action.player}"
    name = state.players[action.player]
    if state.pending:
        return _why_not_answer(state, action, adef.label)
    if adef.by == "answer":
        return f"{adef.label} answers a question, and none is asked now"
    if adef.by == "window":
        return f"{adef.label} is played only when you are asked to respond"
    if adef.by == "current" and action.player != state.current:
        return f"it is {state.players[state.current]}'s turn, not {name}'s"
    if adef.by == "others" and action.player == state.current:
        return f"{adef.label} is played on another player's turn"
    ctx = Ctx(state, action.player, dict(action.args))
    try:
        if adef.when is not None and not adef.when(ctx):
            return adef.why_not or f"{adef.label} is not possible now"
    except PASSED_ON:
        raise
    except Exception as exc:
        raise rules_error(rules, exc, f"checking whether {action} is legal") from exc
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


def _why_not_answer(state: GameState, action: Action, label: str) -> str | None:
    """Why an action does not answer the decision the game waits on (None: it does)."""
    answers = decision_actions(state, action.player)
    if action in answers:
        return None
    frame = state.pending[-1]
    who = state.players[frame_seat(frame)]
    if action.player != frame_seat(frame):
        return f"the game waits on {who} to answer, not {state.players[action.player]}"
    ids = sorted({a.id for a in answers})
    if action.id not in ids:
        return f"{label} is not an answer now; {who} may: {', '.join(ids)}"
    choices = [dict(a.args) for a in answers if a.id == action.id]
    return f"{dict(action.args)} is not a choice now; the choices are {choices}"


def apply(state: GameState, action: Action, record: bool = True) -> list[Event]:
    """Take an action: refuse it with the reason if illegal (state untouched), else play it
    and return what happened as events (none are built when `record` is false, as in bot
    simulations where nobody watches)."""
    cache = state.legal_cache
    # An action handed back from the current legal list needs no second check.
    if not (cache is not None and cache[0] == state.version and action in cache[2]):
        reason = why_illegal(state, action)
        if reason is not None:
            raise IllegalAction(reason)
    # Forced outcomes come from scenarios and tests; if one proves impossible mid-action,
    # the state goes back to how it was, as for an illegal action.
    snapshot = state.to_dict() if state.chance.forced else None
    try:
        return _play(state, action, record)
    except ChanceError:
        if snapshot is not None:
            state.restore(snapshot)
        raise
    except PASSED_ON:
        raise
    except Exception as exc:  # the ruleset's own code failed mid-action: name its line
        raise rules_error(state.rules, exc, f"playing {action}") from exc


def _play(state: GameState, action: Action, record: bool) -> list[Event]:
    state.idle_turns = 0
    state.version += 1
    state.legal_cache = None
    adef = state.rules.actions[action.id]
    events: list[Event] | None = None
    if record:
        events = [Event("action", action.player, {"action": action.id,
                                                  "args": dict(action.args)})]
    ctx = state.ctx
    ctx.seat = action.player
    ctx.args = dict(action.args) if action.args else _NO_ARGS
    ctx.turn_over = False
    ctx.events = events
    state.log.append(action)
    if not state.pending:
        ctx.after = "action"
        adef.effects(ctx)
        if not state.pending:
            if ctx.turn_over:
                _end_turn(ctx)
            return events if events is not None else []
    else:
        _answer(ctx, action)
    if state.pending:
        _settle(ctx)
    return events if events is not None else []


def _answer(ctx: Ctx, action: Action) -> None:
    """Take an answer to the decision on top of the stack and let the game go on."""
    state = ctx.state
    frame = state.pending[-1]
    if frame["kind"] == "choose":
        state.pending.pop()
        q = state.rules.questions[frame["q"]]
        _enter(ctx, frame["scope"], {**frame["args"], **dict(action.args)}, frame["after"])
        _resume(ctx, state.rules.continuations[q.then], frame["after"])
        return
    if action.id == PASS:
        frame["queue"].pop(0)
        return
    # A play asks everyone else again, in the window's own order.
    frame["queue"] = [s for s in frame["order"] if s != action.player]
    _enter(ctx, action.player, dict(action.args), "none")
    _resume(ctx, state.rules.actions[action.id].effects, "none")


def _enter(ctx: Ctx, seat: int, args: dict[str, Any], after: str) -> None:
    ctx.seat, ctx.args, ctx.turn_over, ctx.after = seat, args, False, after


def _resume(ctx: Ctx, fn: Callable[[Ctx], bool], after: str) -> None:
    """Run a list (or what was left of one) and then the turn flow it was part of."""
    state = ctx.state
    depth = len(state.pending)
    fn(ctx)
    if len(state.pending) > depth:
        return  # it asked again
    if ctx.turn_over and after in ("action", "turn_start", "none"):
        # Ending the turn ends whatever it was waiting on, responses included.
        state.pending.clear()
        _end_turn(ctx)
    elif after == "round_start":
        _start_turn(ctx, state.round_order[0])
    elif after == "turn_end":
        _end_turn(ctx, resumed=True)
    elif after == "round_end":
        _after_round_end(ctx)


def _settle(ctx: Ctx) -> None:
    """Close every window on top of the stack that has nobody left to ask."""
    state = ctx.state
    while state.pending and not state.game_over:
        frame = state.pending[-1]
        if frame["kind"] != "window":
            return
        skip_unplayable(state, frame)
        if frame["queue"]:
            return
        state.pending.pop()
        _enter(ctx, frame["scope"], dict(frame["args"]), frame["after"])
        _resume(ctx, state.rules.continuations[frame["rest"]], frame["after"])


def scores(state: GameState) -> list[Any]:
    """Every seat's score, by seat."""
    return [state.score(s) for s in range(len(state.players))]


def view_for(state: GameState, seat: int | None, *, everything: bool = False
             ) -> dict[str, Any]:
    """What one seat may see (None: a spectator who sees only what is public).

    Zones it cannot see show only their size; other seats' owner-only variables and, with
    `reveal_scores: at_end`, their scores are None until the game is over. `everything`:
    a viewer who sees every zone, face and score (a replay, after the game).
    """
    rules = state.rules
    zones: dict[str, Any] = {}
    for zname, lists in state.zones.items():
        zdef = rules.zones[zname]
        shown: list[Any] = []
        for owner, content in enumerate(lists):
            visible = everything or zdef.visible == "all" or (
                zdef.visible == "owner" and zdef.per_player and owner == seat)
            if visible:
                # A cup or bag shows what is in it, never a face: nothing in it is rolled.
                # A card lying face down shows only its back: (None, None, None).
                shown.append([(state.items[i].id, state.items[i].kind,
                               None if zdef.blind else state.items[i].face)
                              if everything or sees_face(state, i, zname, owner, seat)
                              else (None, None, None)
                              for i in content])
            else:
                shown.append({"size": len(content)})
        zones[zname] = shown if zdef.per_player else shown[0]
    return {
        "ruleset": rules.id,
        "players": list(state.players),
        "current": None if state.game_over else state.current,
        "waiting_on": waiting_on(state),
        "decision": _decision_view(state),
        "round": state.round,
        "scores": scores(state) if everything else seen_scores(state, seat, scores(state)),
        "teams": ([s % state.rules.teams for s in range(len(state.players))]
                  if state.rules.teams else None),
        "team_scores": (team_scores(state) if state.rules.teams and (
            state.rules.reveal_scores == "always" or state.game_over) else None),
        "player_vars": ([dict(v) for v in state.player_vars] if everything
                        else seen_player_vars(state, seat)),
        "game_vars": dict(state.game_vars),
        "turn_vars": dict(state.turn_vars),
        "zones": zones,
        "last_round": state.last_round,
        "tiebreak": state.tiebreak,
        "game_over": state.game_over,
        "winners": list(state.winners),
    }


def _decision_view(state: GameState) -> dict[str, Any] | None:
    """What everyone may know of the decision the game waits on."""
    if not state.pending or state.game_over:
        return None
    frame = state.pending[-1]
    if frame["kind"] == "choose":
        return {"kind": "choose", "seat": frame["seat"],
                "question": state.rules.questions[frame["q"]].id}
    return {"kind": "window", "seat": frame_seat(frame), "window": frame["window"]}
