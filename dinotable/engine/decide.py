"""Decisions: questions asked in the middle of an effect list, and response windows.

The game waits on a decision, not on "the current player". A decision is a frame on
`state.pending` (plain data, so a state waiting on one saves, copies and replays):

- a question (`choose` form): `{"kind": "choose", "q": INDEX, "seat": WHO_ANSWERS,
  "scope": SEAT_IN_SCOPE, "args": ARGS_SO_FAR, "after": FLOW}`; the answer is an action
  whose id is the question's and whose arguments are the chosen values; the effect list
  resumes with them (`rules.questions[q].then`).
- a response window (`respond` effect): `{"kind": "window", "window": ID, "order": SEATS,
  "queue": SEATS_STILL_TO_ASK, ...}`; the seat at the head of the queue may play an action
  listed for the window or `pass`. A play asks everyone else again, in the same order; the
  window closes when everyone asked since the last play has passed, and the list resumes
  (`rest`). A seat with nothing playable is never asked.

Generated effect code calls `ask` and `open_window`; `flow.py` resumes suspended lists.
"""

from __future__ import annotations

from typing import Any

from .expr import Ctx
from .listers import answers_lister
from .state import Action, Event, GameState

PASS = "pass"
_NO_ARGS: dict[str, Any] = {}
_UNMADE = object()


def frame_seat(frame: dict[str, Any]) -> int:
    """The seat a decision frame waits on."""
    if frame["kind"] == "choose":
        return int(frame["seat"])
    return int(frame["queue"][0])


def arg_values(c: Ctx, arg: Any) -> list[Any]:
    """An argument's values now; while sampling, one random value of a large domain."""
    if c.sampler is not None and arg.sample is not None:
        value = arg.sample(c, c.sampler)
        return [] if value is None else [value]
    values: list[Any] = arg.values(c)
    return values


def combos(c: Ctx, adef_args: Any) -> list[tuple[tuple[str, Any], ...]]:
    """Every combination of argument values, as sorted name/value pairs.

    Arguments are worked out in order, each seeing the ones before it as `$NAME` (the dice
    that pay for the card chosen first), so a later domain may depend on an earlier value.
    """
    if len(adef_args) == 1:
        arg = adef_args[0]
        return [((arg.name, v),) for v in arg_values(c, arg)]
    out: list[tuple[tuple[str, Any], ...]] = []
    saved = c.args
    count = len(adef_args)
    names = [arg.name for arg in adef_args]
    order = sorted(range(count), key=names.__getitem__)  # a combination's pairs, by name
    chosen: list[Any] = [None] * count
    # One copy of the arguments serves the whole walk: an argument's domain sees those
    # before it as chosen, and the later ones as they stood (not as an earlier branch left
    # them).
    bound = {**saved}

    def walk(i: int) -> None:
        if i == count:
            out.append(tuple([(names[k], chosen[k]) for k in order]))
            return
        for j in range(i, count):
            if names[j] in saved:
                bound[names[j]] = saved[names[j]]
            else:
                bound.pop(names[j], None)
        c.args = bound
        try:
            values = arg_values(c, adef_args[i])
        finally:
            c.args = saved
        name = names[i]
        for v in values:
            chosen[i] = v
            bound[name] = v
            walk(i + 1)

    walk(0)
    return out


def question_answers(state: GameState, qi: int, seat: int, args: dict[str, Any],
                     sampler: Any = None) -> list[tuple[tuple[str, Any], ...]]:
    """Every answer to question `qi` for the answering `seat`, as sorted argument pairs."""
    rules = state.rules
    q = rules.questions[qi]
    c = Ctx(state, seat, args)
    c.sampler = sampler
    listers = rules.memo.get("answers")
    if listers is None:  # made once per ruleset, as questions are first asked
        listers = rules.memo["answers"] = {}
    lister = listers.get(qi, _UNMADE)
    if lister is _UNMADE:
        lister = listers[qi] = answers_lister(q.args)
    return combos(c, q.args) if lister is None else lister(c, seat)


def window_actions(state: GameState, seat: int, wid: str, sampler: Any = None,
                   common: dict[int, Any] | None = None) -> list[Action]:
    """What `seat` may play in window `wid` now, `pass` not included. `common`: what the
    listings of other seats asked while the game stood still worked out (hoist.COMMON)."""
    c = Ctx(state, seat)
    c.sampler = sampler
    c.common = common
    windows = getattr(state.rules.legal, "windows", None)
    if windows is not None:  # the ruleset's own generated lister (legality.build_legal)
        lister = windows.get(wid)
        return lister(c, seat) if lister is not None else []
    out: list[Action] = []
    for adef in _window_defs(state.rules, wid):
        if adef.when is not None and not adef.when(c):
            continue
        if adef.args:
            out += [Action(seat, adef.id, combo) for combo in combos(c, adef.args)]
        else:
            out.append(Action(seat, adef.id))
    return out


def _window_defs(rules: Any, wid: str) -> list[Any]:
    """The actions a window offers (`pass` aside), in the ruleset's order: found once."""
    key = ("window_defs", wid)
    found: list[Any] | None = rules.memo.get(key)
    if found is None:
        found = rules.memo[key] = [adef for adef in rules.actions.values()
                                   if wid in adef.windows and adef.id != PASS]
    return found


def decision_actions(state: GameState, seat: int, sampler: Any = None) -> list[Action]:
    """The answers `seat` may give to the decision on top of the stack (none if not theirs)."""
    frame = state.pending[-1]
    if frame_seat(frame) != seat:
        return []
    if frame["kind"] == "choose":
        qid = state.rules.questions[frame["q"]].id
        made = _answer_actions(state.rules, seat, qid)
        out = []
        for combo in question_answers(state, frame["q"], seat, frame["args"], sampler):
            try:
                found = made.get(combo)
            except TypeError:  # a value that cannot be a key: made afresh
                found = None
            if found is None:
                found = Action(seat, qid, combo)
                if len(made) < _MADE_MAX:
                    made[combo] = found
            out.append(found)
        return out
    return [*window_actions(state, seat, frame["window"], sampler), _pass(state, seat)]


_MADE_MAX = 4096  # answers kept a seat and question: a bound, never a working limit


def _answer_actions(rules: Any, seat: int, qid: str) -> dict[Any, Action]:
    """The answers to a question made so far for a seat, by their arguments: an answer
    is handed out again each time the question is asked, as listed moves are."""
    key = ("answer_actions", seat, qid)
    made: dict[Any, Action] | None = rules.memo.get(key)
    if made is None:
        made = rules.memo[key] = {}
    return made


def _pass(state: GameState, seat: int) -> Action:
    """`pass` for a seat: the one made for the game's seats (see GameState.plain_actions)."""
    plain = state.plain_actions
    found = plain[seat].get(PASS) if seat < len(plain) else None
    return found if found is not None else Action(seat, PASS)


def skip_unplayable(state: GameState, frame: dict[str, Any]) -> None:
    """Drop the seats at the head of a window's queue that have nothing to play (or have
    been knocked out of the game since the window opened).

    The list found for the seat left at the head is the game's legal list until the next
    action (the list stops here, so nothing changes meanwhile): asking it again would
    work out every reaction a second time."""
    queue = frame["queue"]
    cache = state.legal_cache
    if queue and cache is not None and cache[0] == state.version and cache[3] is frame \
            and cache[1] == queue[0] and len(cache[2]) > 1:
        # Asked already in this version (the window was opened, and is now settled, by
        # the same move): the seat at the head can play more than `pass`, and nothing has
        # changed since.
        return
    active = state.active
    common: dict[int, Any] = {}  # nothing changes while the seats are asked in turn
    while queue:
        head = queue[0]
        if active[head]:
            found = window_actions(state, head, frame["window"], None, common)
            if found:
                state.legal_cache = (state.version, head, [*found, _pass(state, head)], frame)
                return
        queue.pop(0)


def _emit(c: Ctx, kind: str, seat: int, data: dict[str, Any]) -> None:
    if c.events is not None:
        c.events.append(Event(kind, seat, data))


def ask(c: Ctx, qi: int) -> bool:
    """Run by a `choose` form: answer at once when nobody or only one answer is possible,
    else suspend the list with a question frame. True: the running list must stop."""
    st = c.state
    q = st.rules.questions[qi]
    conts = st.rules.continuations
    who = c.seat if q.who is None else int(q.who(c)) % len(st.players)
    answers = question_answers(st, qi, who, dict(c.args))
    if not answers:
        return conts[q.rest](c)
    if len(answers) == 1 and q.auto_single:
        c.args = {**c.args, **dict(answers[0])}
        return conts[q.then](c)
    st.pending.append({"kind": "choose", "q": qi, "seat": who, "scope": c.seat,
                       "args": dict(c.args), "after": c.after})
    _emit(c, "asked", who, {"question": q.id, "prompt": q.prompt.render(c)
                            if q.prompt is not None else ""})
    return True


def window_order(state: GameState, seat: int, ask_mode: str) -> list[int]:
    """Who a window asks, in order: the others from `seat`'s left, then (maybe) `seat`."""
    n = len(state.players)
    others = [(seat + k) % n for k in range(1, n) if state.active[(seat + k) % n]]
    if ask_mode == "others":
        return others
    if ask_mode == "everyone":
        return [seat, *others]
    return [*others, seat]


def open_window(c: Ctx, wid: str, rest: int) -> bool:
    """Run by a `respond` effect: ask round the table, or go straight on when nobody can
    play anything. True: the running list must stop until the window closes."""
    st = c.state
    order = window_order(st, c.seat, st.rules.windows[wid].ask)
    frame: dict[str, Any] = {"kind": "window", "window": wid, "order": order,
                             "queue": list(order), "scope": c.seat, "args": dict(c.args),
                             "rest": rest, "after": c.after}
    # The frame is on the stack while its queue is checked, so a `when` or domain that
    # reads the `window` constant sees this window.
    st.pending.append(frame)
    skip_unplayable(st, frame)
    if not frame["queue"]:
        st.pending.pop()
        return st.rules.continuations[rest](c)
    _emit(c, "window_opened", c.seat, {"window": wid, "asking": frame["queue"][0]})
    return True
