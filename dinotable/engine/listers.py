"""An action's moves listed by one generated function, its arguments' values in nested loops.

Listing an action with arguments is the inner loop of every random game and of every bot's
playout: each card of a hand, each space of a board, tested against the argument's `where`,
at every decision. Done through the general path (`decide.combos`), each argument costs a
walk of calls (the domain, its values, the test's filter) for every value listed.

A domain whose values are a list worked out first and then tested one by one (the kinds in
a zone, the spaces of a board, the players, a fixed choice) says so with
`domains.listed_by`: its candidates (`raw`), the test and the name the test reads its value
by. `action_lister` writes one function per such action: each argument's candidates, its
test written into the loop as `domains.passing` runs it, and the actions made once per seat
and arguments. It lists exactly what `combos` lists, in the same order: the arguments in
their order, each seeing those chosen before it as `$NAME`, and each action's pairs sorted
by name. A response window's reactions and a question's answers are listed the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from .domains import SETS_ARGUMENT, filter_for, filter_lines
from .expr import Ctx, bind, prologue, source_of
from .model import ActionDef, ArgDef
from .origins import Origin, origin_of, register
from .state import Action

Pairs = tuple[tuple[str, Any], ...]
MADE_MAX = 20_000  # actions remembered per seat and action, as legality._with_args keeps


def _listable(args: tuple[ArgDef, ...]) -> bool:
    """Whether every argument is marked by `listed_by` and none is sampled rather than
    listed."""
    return bool(args) and all(
        getattr(a.values, "raw", None) is not None and a.sample is None and a.contains is None
        for a in args)


def action_lister(adef: ActionDef) -> Callable[[Ctx, int], list[Action]] | None:
    """One function listing the action's moves for a seat (its `when` already holds), or
    None when an argument's domain is not marked (`combos` lists those)."""
    if not _listable(adef.args):
        return None
    return cast(Callable[[Ctx, int], list[Action]], _lister(adef.args, adef.id))


def answers_lister(args: tuple[ArgDef, ...]) -> Callable[[Ctx, int], list[Pairs]] | None:
    """One function listing a question's answers as `combos` does (sorted name/value pairs),
    seeing the arguments it was asked with; None when an argument's domain is not marked."""
    if not _listable(args):
        return None
    return cast(Callable[[Ctx, int], list[Pairs]], _lister(args, None))


def _lister(args: tuple[ArgDef, ...], aid: str | None) -> Any:
    """`def _list(c, seat)`: every combination of the arguments' values, each argument's
    domain seeing the context's arguments and those chosen before it, as `combos` walks
    them; as actions of `aid` for the seat (made once per seat and value), or as pairs."""
    names = [a.name for a in args]
    order = sorted(range(len(args)), key=names.__getitem__)  # a move's pairs, by name
    ns: dict[str, Any] = {"_Action": Action, "_MADE": {}, "_MAX": MADE_MAX, "_aid": aid}
    # `_b`: the arguments as each later argument's candidates see them. With one argument
    # nothing is set in it, so it is the caller's own, uncopied.
    lines = ["_made = []", "_saved = c.args",
             *(["_b = {**_saved}", "c.args = _b"] if len(args) > 1 else ["_b = _saved"]),
             "try:"]
    if aid is not None:
        lines[:0] = ["_m = _MADE.get(seat)", "if _m is None:", "    _m = _MADE[seat] = {}"]
    marks: list[tuple[int, Origin]] = []
    indent = "    "
    for i, arg in enumerate(args):
        fn: Any = arg.values
        ns[f"_R{i}"] = fn.raw
        # A later argument's candidates are worked out afresh for each earlier value, the
        # names from this one on as they were given (or absent), as `combos` does.
        for n in names[i:] if i else ():
            lines += [f"{indent}if {n!r} in _saved:", f"{indent}    _b[{n!r}] = _saved[{n!r}]",
                      f"{indent}else:", f"{indent}    _b.pop({n!r}, None)"]
        raw = getattr(fn, "raw_source", None)
        lines.append(f"{indent}_v{i}s = {raw if raw is not None else f'_R{i}(c)'}")
        ns.update(getattr(fn, "raw_namespace", {}))  # what the raw source names
        if fn.where is not None:
            lines.append(f"{indent}if _v{i}s:")
            test = filter_lines(fn.where, fn.tested, f"_v{i}s", f"_p{i}")
            if test is None:  # a test that is no generated code: its own filter, called
                ns[f"_F{i}"] = filter_for(fn.where, fn.tested)
                test = [f"_v{i}s = _F{i}(c, _v{i}s, _args, {fn.tested!r})"]
                reads = True
            else:
                # A generated test that reads no argument is not handed them.
                reads = any(SETS_ARGUMENT in line for line in test)
                test.append(f"_v{i}s = _p{i}")
                ns.update(fn.where.namespace)
                origin = origin_of(fn.where)
                if origin is not None:  # a failure names the `where`'s line
                    marks.append((len(lines) + reads, origin))
            if reads:
                lines.append(f"{indent}    _args = c.args = {{**_b}}")
            lines += [f"{indent}    {line}" for line in test] + [f"{indent}    c.args = _b"]
        lines.append(f"{indent}for _v{i} in _v{i}s:")
        indent += "    "
        if i + 1 < len(args):
            lines.append(f"{indent}_b[{arg.name!r}] = _v{i}")
    pairs = "(" + ", ".join(f"({names[k]!r}, _v{k})" for k in order) + ",)"
    if aid is None:
        lines.append(f"{indent}_made.append({pairs})")
    else:
        key = "_v0" if len(args) == 1 else pairs
        made = pairs if len(args) == 1 else "_k"
        lines += [f"{indent}_k = {key}",
                  f"{indent}try:",
                  f"{indent}    _a = _m.get(_k)",
                  f"{indent}except TypeError:  # a value that cannot be a key: made afresh",
                  f"{indent}    _made.append(_Action(seat, _aid, {made}))",
                  f"{indent}    continue",
                  f"{indent}if _a is None:",
                  f"{indent}    _a = _Action(seat, _aid, {made})",
                  f"{indent}    if len(_m) < _MAX:",
                  f"{indent}        _m[_k] = _a",
                  f"{indent}_made.append(_a)"]
    lines += ["finally:", "    c.args = _saved", "return _made"]
    return _made_function("_list", ns, lines, marks, f"list {aid or 'answers'}")


def _made_function(name: str, ns: dict[str, Any], lines: list[str],
                   marks: list[tuple[int, Origin]], label: str) -> Any:
    """`def NAME(c, seat):` with the prologue and `lines` as its body, registered with the
    origins of its lines (`marks`: by index in `lines`)."""
    start = prologue(ns)
    first = 2 + start.count("\n")  # the line of lines[0], after the `def` and the prologue
    made: dict[str, Any] = {}
    # Generated from compiled expressions and the argument definitions: names bound above.
    source = f"def {name}(c, seat):\n" + start + "".join(f"    {line}\n" for line in lines)
    # The label names the code in a profile: `<list hunt>` rather than one of many `<string>`.
    exec(compile(source, f"<{label}>", "exec"), ns, made)
    register(made[name], marks=[(line + first, origin) for line, origin in marks])
    return made[name]


Lister = Callable[[Ctx, int], list[Action]]


def move_lines(adef: ActionDef, listers: dict[str, Lister], general: str,
               ns: dict[str, Any], at: tuple[int, list[tuple[int, Origin]]],
               indent: str) -> list[str]:
    """Generated lines adding an action's moves to the list `r` when its `when` holds: by
    its own lister, else by the function named `general` (`general(c, seat, adef)`), else
    its one plain action from `A`. `at`: the index the lines start at, and the marks a
    failing `when` is named by (its line added there)."""
    if adef.id in listers:
        body = f"r.extend({bind(ns, listers[adef.id], 'l')}(c, seat))"
    elif adef.args:
        body = f"r.extend({general}(c, seat, {bind(ns, adef, 'a')}))"
    else:
        body = f"r.append(A[{adef.id!r}])"
    if adef.when is None:
        return [indent + body]
    origin = origin_of(adef.when)
    if origin is not None:  # a `when` that fails at play names its line
        at[1].append((at[0], origin))
    return [f"{indent}if {source_of(adef.when, ns)}:", f"{indent}    {body}"]


def window_listers(actions: dict[str, ActionDef], listers: dict[str, Lister],
                   combos: Callable[[Ctx, int, ActionDef], list[Action]]
                   ) -> dict[str, Lister]:
    """For each response window, one function listing what a seat may play in it (`pass`
    aside), in the ruleset's order: each action's `when` written in as an `if`, its moves
    from `listers`, else from `combos`. It is called with a context of its own for the
    seat (no arguments)."""
    by_window: dict[str, list[ActionDef]] = {}
    for adef in actions.values():
        if adef.id == "pass":
            continue
        for wid in adef.windows:
            by_window.setdefault(wid, []).append(adef)
    made: dict[str, Lister] = {}
    for wid, defs in by_window.items():
        ns: dict[str, Any] = {"_combos": combos}
        lines = ["A = st.plain_actions[seat]", "r = []"]
        marks: list[tuple[int, Origin]] = []
        for adef in defs:
            lines += move_lines(adef, listers, "_combos", ns, (len(lines), marks), "")
        lines.append("return r")
        made[wid] = cast(Lister, _made_function("_window", ns, lines, marks, f"window {wid}"))
    return made
