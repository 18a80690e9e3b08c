"""Turn flow: taking an action, the turn and round it sets going, decisions resumed, the end.

One Ctx is threaded through an action and the turn flow it sets off, so a turn that ends
and a turn that begins cost no new objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .codegen import noop
from .decide import PASS, skip_unplayable
from .errors import ChanceError, IllegalAction
from .expr import Ctx
from .indexed import copy_vars
from .legality import legal_actions, refusal
from .model import Rules
from .origins import PASSED_ON, RulesError, rules_error, rules_file
from .phrases import phrase_for
from .state import Action, Event, GameState

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


def start_round(ctx: Ctx, first: int, begin: bool = True) -> None:
    """A round's start effects, then its first turn (unless `begin` is False: a scenario's
    position is placed between them)."""
    state = ctx.state
    rules = state.rules
    n = len(state.players)
    state.round += 1
    state.out = [False] * n
    order = _seat_orders(rules, n)[first][:]  # a copy: an effect may reorder the round
    active = state.active
    state.round_order = order if all(active) else [s for s in order if active[s]]
    state.round_pos = 0
    if not state.round_order:  # every seat knocked out: nobody is left to play a round
        _finish(ctx)
        return
    state.phase = ""
    if ctx.events is not None:  # checked here, not in _emit: this runs every round
        ctx.events.append(Event("round_started", None, {
            "round": state.round, "tiebreak": state.tiebreak,
            "seats": list(state.round_order)}))
    # The player in scope, no arguments, and where the flow goes on (set inline, one
    # field at a time, which costs least: this runs every round).
    ctx.seat = state.round_order[0]
    ctx.args = _NO_ARGS
    ctx.turn_over = False
    ctx.after = "round_start"
    if rules.round_start is not noop:
        _watched(ctx, rules.round_start)(ctx)
    if state.pending or not begin:
        return  # a question asked at the round's start; the first turn begins once answered
    if rules.phases:
        begin_round(ctx)
    else:
        _first_turn(ctx)  # what begin_round does without phases, one call fewer a round


def _seat_orders(rules: Rules, n: int) -> list[list[int]]:
    """Each seat's round order at `n` seats (that seat first, then round the table), made
    once per ruleset and number of seats rather than every round."""
    key = ("seat_orders", n)
    found: list[list[int]] | None = rules.memo.get(key)
    if found is None:
        found = rules.memo[key] = [[*range(first, n), *range(first)] for first in range(n)]
    return found


def begin_round(ctx: Ctx) -> None:
    """What follows `round.start`: the round's first phase, or its first turn."""
    state = ctx.state
    if state.rules.phases:
        state.round_first = state.round_order[0] if state.round_order else state.current
        _start_phase(ctx, 0, None)
        return
    _first_turn(ctx)


def _first_turn(ctx: Ctx) -> None:
    """The first turn of a round or of a phase pass: the first seat of its order still in
    the round (one dropped out in `round.start` is passed by), or its end if nobody is."""
    state = ctx.state
    order = state.round_order
    pos = state.round_pos
    active, out = state.active, state.out
    # not state.in_round(order[pos]), inline: this runs every round
    while pos < len(order) and not (active[order[pos]] and not out[order[pos]]):
        pos += 1
    if pos == len(order):
        if state.rules.phases:
            state.empty_passes += 1
            if state.empty_passes > MAX_EMPTY_PASSES:
                raise RulesError(f"{rules_file(state.rules)}: the phase {state.phase!r} was "
                                 f"played {MAX_EMPTY_PASSES} times over with no player left "
                                 "in the round: its `again` never stops holding",
                                 rules_file(state.rules))
        _end_pass(ctx)
        return
    state.empty_passes = 0
    state.round_pos = pos
    start_turn(ctx, order[pos])


def _end_pass(ctx: Ctx) -> None:
    """The end of a run of turns: of the phase pass with phases, else of the round."""
    if ctx.state.rules.phases:
        _end_phase(ctx)
    else:
        _end_round(ctx)


def _phase_index(state: GameState) -> int:
    for i, phase in enumerate(state.rules.phases):
        if phase.name == state.phase:
            return i
    return 0


def _start_phase(ctx: Ctx, index: int, starter: int | None) -> None:
    """A pass of a phase: its order from `starter` (else its `first`, else the round's first
    player), its start effects, then its first turn."""
    state = ctx.state
    phase = state.rules.phases[index]
    n = len(state.players)
    state.phase = phase.name
    state.phase_ended = False
    if starter is None:
        starter = state.round_first
        if phase.first is not None:
            starter = int(phase.first(_focus(ctx, state.round_first))) % n
    active = state.active
    state.round_order = [s for s in ((starter + k) % n for k in range(n)) if active[s]]
    state.round_pos = 0
    if not state.round_order:
        _finish(ctx)
        return
    _emit(ctx.events, "phase_started", None, lambda: {
        "phase": phase.name, "seats": list(state.round_order)})
    if phase.start is not noop:
        _focus(ctx, state.round_order[0]).after = "phase_start"
        _watched(ctx, phase.start)(ctx)
        if state.pending:
            return  # a question asked at the phase's start; its turns begin once answered
    _first_turn(ctx)


def _end_phase(ctx: Ctx) -> None:
    state = ctx.state
    phase = state.rules.phases[_phase_index(state)]
    _focus(ctx, state.current).after = "phase_end"
    if phase.end is not noop:
        phase.end(ctx)
        if state.pending:
            return
    _after_phase_end(ctx)


def _after_phase_end(ctx: Ctx) -> None:
    """After a phase pass: the phase again while its `again` holds, else the next phase,
    else (or after `end_round`) the round's end."""
    state = ctx.state
    index = _phase_index(state)
    phase = state.rules.phases[index]
    starter = state.phase_starter
    state.phase_starter = None
    state.phase_ended = False
    _emit(ctx.events, "phase_ended", None, lambda: {"phase": phase.name})
    if state.next_starter is None:
        if phase.again is not None and phase.again(_focus(ctx, state.current)):
            _start_phase(ctx, index, starter)
            return
        if index + 1 < len(state.rules.phases):
            _start_phase(ctx, index + 1, starter)
            return
    _end_round(ctx)


def _watched(ctx: Ctx, effects: Any) -> Any:
    """Generated effects as this moment needs them: their quiet form (see quiet.py) when
    nobody watches and nothing is forced, else as written."""
    if ctx.events is None and not ctx.state.chance.forced:
        return getattr(effects, "quiet", effects)
    return effects


def start_turn(ctx: Ctx, seat: int) -> None:
    state = ctx.state
    state.current = seat
    state.turns += 1
    idle = state.idle_turns = state.idle_turns + 1
    if idle > MAX_TURNS_WITHOUT_ACTION:
        raise RulesError(f"{rules_file(state.rules)}: {MAX_TURNS_WITHOUT_ACTION} turns ended "
                         "by themselves with no action taken: the ruleset's turn start always "
                         "ends the turn", rules_file(state.rules))
    rules = state.rules
    # An indexed turn value is a dict of its own, so it is copied too (not in the common case).
    state.turn_vars = copy_vars(rules.turn_vars) if rules.indexed else rules.turn_vars.copy()
    if ctx.events is not None:
        ctx.events.append(Event("turn_started", seat, {}))
    ctx.seat = seat
    ctx.args = _NO_ARGS
    ctx.turn_over = False
    ctx.after = "turn_start"
    begin = rules.turn_start
    if begin is not noop:  # most rulesets begin a turn with nothing: no call for it
        _watched(ctx, begin)(ctx)
        if ctx.turn_over and not state.pending:
            _end_turn(ctx)


def _end_turn(ctx: Ctx, resumed: bool = False) -> None:
    """The turn's end effects, then the end trigger and the next turn (`resumed`: the end
    effects asked a question that is now answered, so they are not run again)."""
    state = ctx.state
    rules = state.rules
    seat = state.current
    events = ctx.events
    if not resumed:
        ctx.seat = seat
        ctx.args = _NO_ARGS
        ctx.turn_over = False
        ctx.after = "turn_end"
        end = rules.turn_end
        if end is not noop:  # a ruleset without turn end effects: no call for them
            if events is None and not state.chance.forced:  # _watched, inline: every turn
                end = getattr(end, "quiet", end)
            end(ctx)
            if state.pending:
                return  # the turn's end asked a question; the flow goes on once answered
    if events is not None:
        events.append(Event("turn_ended", seat, {}))
    if state.shown:
        state.shown.clear()  # what a `show` opened closes with the turn
    if state.final_turns is not None:
        state.final_turns -= 1
        if state.final_turns <= 0:
            _finish(ctx)
            return
    end_def = rules.end
    if not state.last_round and not state.tiebreak and end_def.trigger(ctx):
        state.last_round = True
        _emit(ctx.events, "last_round", seat, lambda: {
            "then": "last_turns" if end_def.last_turns else
                    "finish_round" if end_def.finish_round else "ends"})
        if end_def.last_turns:
            # Everyone else still in the game plays once more; then the game ends, before
            # the player who triggered it would play again.
            others = sum(1 for s in range(len(state.players)) if state.active[s] and s != seat)
            if others == 0:
                _finish(ctx)
                return
            state.final_turns = others
        elif not end_def.finish_round:
            _finish(ctx)
            return
    if state.next_starter is not None or state.phase_ended:
        _end_pass(ctx)
        return
    phases = rules.phases
    if (phases[_phase_index(state)].mode if phases else rules.round_mode) == "until_ended":
        # Play passes round the table to the next player still in the round, until an
        # effect ends the round; with one player left nobody else can be passed to.
        n = len(state.players)
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if state.in_round(nxt) and nxt != seat:
                start_turn(ctx, nxt)
                return
        _end_pass(ctx)
        return
    pos = state.round_pos + 1
    order = state.round_order
    active, out = state.active, state.out
    while pos < len(order):
        nxt = order[pos]
        if active[nxt] and not out[nxt]:  # state.in_round(nxt): this runs every turn
            state.round_pos = pos
            start_turn(ctx, nxt)
            return
        pos += 1
    state.round_pos = pos
    if phases:
        _end_phase(ctx)
    else:
        _end_round(ctx)  # what _end_pass does without phases, one call fewer a round


def _end_round(ctx: Ctx) -> None:
    state = ctx.state
    ctx.seat = state.current
    ctx.args = _NO_ARGS
    ctx.turn_over = False
    ctx.after = "round_end"
    state.phase = ""
    end = state.rules.round_end
    if end is not noop:
        _watched(ctx, end)(ctx)
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
        if starter is None:
            starter = state.round_first if state.rules.phases else state.round_order[0]
        start_round(ctx, starter)


def leaders(state: GameState) -> list[int]:
    """The seats still in contention with the best score (then tiebreak values, in order).

    With teams, a team's values are its players' added up, and every player of the best
    team (or of the teams tied for best) leads.
    """
    rules = state.rules
    score = rules.score
    tiebreaks = rules.end.tiebreaks
    ctx = Ctx(state, 0)  # one for every seat: this runs at the end of every game

    def key(seat: int) -> tuple[Any, ...]:
        ctx.seat = seat
        if not tiebreaks:
            return (score(ctx),)
        return (score(ctx), *[tb(ctx) for tb in tiebreaks])

    # A seat knocked out of the game still has its score compared (outside tiebreaks).
    if state.tiebreak:
        seats = [s for s, playing in enumerate(state.active) if playing]
    else:
        knocked = state.knocked
        seats = [s for s, playing in enumerate(state.active) if playing or knocked[s]]
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
        keys = {s: key(s) for s in seats}  # each worked out once: a score may be costly
        best = max(keys.values())
        return [s for s in seats if keys[s] == best]
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
MAX_EMPTY_PASSES = 50  # phase passes in a row with nobody to play (each runs inside the last)


def _finish(ctx: Ctx) -> None:
    state = ctx.state
    top = leaders(state)
    playing = [s for s in top if not state.knocked[s]]  # a tiebreak is for those still in
    if (len(playing) > 1 and state.rules.end.ties == "leaders_replay"
            and state.tiebreak_rounds < MAX_TIEBREAK_ROUNDS):
        state.tiebreak_rounds += 1
        state.active = [s in playing for s in range(len(state.players))]
        state.tiebreak = True
        state.final_turns = None
        _emit(ctx.events, "tiebreak", None, lambda: {"seats": playing})
        start_round(ctx, playing[0])
        return
    state.game_over = True
    state.winners = top
    _emit(ctx.events, "game_over", None, lambda: {"winners": top})


# --- actions -------------------------------------------------------------------

def apply(state: GameState, action: Action, record: bool = True) -> list[Event]:
    """Take an action: refuse it with the reason if illegal (state untouched), else play it
    and return what happened as events (none are built when `record` is false, as in bot
    simulations where nobody watches)."""
    cache = state.legal_cache
    # An action handed back from the current legal list needs no second check.
    if not (cache is not None and cache[0] == state.version and action in cache[2]):
        reason = refusal(state, action)
        if reason is not None:
            raise IllegalAction(reason.text, reason.kind)
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


def random_playout(state: GameState, rng: Any, limit: int) -> int:
    """Play on with uniformly random legal moves, each move with its arguments counted once
    (as the random bot chooses), until the game ends or `limit` moves are made; return how
    many were made. Nothing is recorded. This is the inner loop of simulations and of
    bots that play games out to weigh a move, so it skips what is there for people: the
    legality check of a move taken from the legal list, and the events."""
    rand = rng.random
    rules = state.rules
    # Each action's quiet form (see quiet.py): outside decisions nothing here is forced.
    effects: dict[str, Callable[[Ctx], bool]] | None = rules.memo.get("quiet_effects")
    if effects is None:  # made once per ruleset, not once per game played out
        effects = rules.memo["quiet_effects"] = {
            aid: getattr(adef.effects, "quiet", adef.effects)
            for aid, adef in rules.actions.items()}
    listing = rules.legal
    ctx = state.ctx
    ctx.events = None  # nobody watches: no effect builds an event
    forced = state.chance.forced
    log = state.log
    made = 0
    while made < limit and not state.game_over:
        if state.pending or forced:
            legal = legal_actions(state)
            apply(state, legal[int(rand() * len(legal))], False)
            ctx.events = None
            made += 1
            continue
        seat = state.current
        ctx.seat = seat
        ctx.args = _NO_ARGS
        try:
            legal = listing(ctx, seat)
            if not legal:
                legal_actions(state)  # says which rule left nobody able to act
            action = legal[int(rand() * len(legal))]
            # What _play does for a move outside any decision, nobody watching.
            state.idle_turns = 0
            state.version += 1
            ctx.args = dict(action.args) if action.args else _NO_ARGS
            ctx.turn_over = False
            ctx.after = "action"
            log.append(action)
            effects[action.id](ctx)
            if state.pending:
                _settle(ctx)
            elif ctx.turn_over:
                _end_turn(ctx)
        except PASSED_ON:
            raise
        except Exception as exc:  # the ruleset's own code failed: name its line
            raise rules_error(rules, exc, "playing a game out") from exc
        made += 1
    return made


def _play(state: GameState, action: Action, record: bool) -> list[Event]:
    state.idle_turns = 0
    state.version += 1  # what was worked out for the last version (legal moves) is stale
    adef = state.rules.actions[action.id]
    events: list[Event] | None = None
    if record:
        data: dict[str, Any] = {"action": action.id, "args": dict(action.args)}
        if adef.says is not None:
            # The move in the ruleset's words, as everyone may know the game before it.
            data["says"] = phrase_for(state, None, action)
        events = [Event("action", action.player, data)]
    ctx = state.ctx
    ctx.seat = action.player
    ctx.args = dict(action.args) if action.args else _NO_ARGS
    ctx.turn_over = False
    ctx.events = events
    state.log.append(action)
    if not state.pending:
        ctx.after = "action"
        _watched(ctx, adef.effects)(ctx)
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
    ctx.seat = seat
    ctx.args = args
    ctx.turn_over = False
    ctx.after = after


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
        begin_round(ctx)
    elif after == "phase_start":
        _first_turn(ctx)
    elif after == "phase_end":
        _after_phase_end(ctx)
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
    score = state.rules.score
    ctx = Ctx(state, 0)  # one for every seat, as state.score would make one each
    found: list[Any] = []
    try:
        for seat in range(len(state.players)):
            ctx.seat = seat
            found.append(score(ctx))
    except PASSED_ON:
        raise
    except Exception as exc:  # the ruleset's score expression failed: name its line
        raise rules_error(state.rules, exc, "working out a score") from exc
    return found

