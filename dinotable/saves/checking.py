"""Checking a parsed save field by field (format, ruleset, seats, options, moves, the bots'
random source) before anything is built from it."""

from __future__ import annotations

import random
import re
from typing import Any

from ..names import NAME_MAX, name_problem, shorten
from ..ruleset import LoadError, Problem, installed_rulesets, load_by_id
from ..ruleset.problems import Reporter
from .game import (
    FORMAT,
    OLDEST_FORMAT,
    SAVE_NAME_MAX,
    NewerFormat,
    SavedGame,
    SavedSeat,
    _is_int,
    replay_options,
)

SEAT_KINDS = ("human", "heuristic", "random", "search:gentle", "search", "search:sharp")
PALETTE_SIZE = 6  # len(theme.PLAYER_COLOURS); kept here so saves never import pygame
MAX_SEATS = 8
MAX_MOVES = 20_000
SEED_MAX = 2**63
RULESET_ID = re.compile(r"[a-z0-9_]{1,40}")


def _check(data: Any, report: Reporter) -> SavedGame:
    """Every field of a parsed save, checked for type and range."""
    if not isinstance(data, dict):
        report((), "expected a saved game: ruleset, version, seats, options, seed, log")
        report.raise_if_any()
    fmt = data.get("format")
    if _is_int(fmt) and fmt > FORMAT:
        # Checked first: a newer format may hold anything; none of it is judged here.
        raise NewerFormat([Problem(report.file, *report.where(("format",)), "format",
                                   f"written by a newer dinotable (save format {fmt}); this "
                                   f"version reads formats {OLDEST_FORMAT} to {FORMAT}. "
                                   f"Update dinotable to open it")])
    known = {"format", "ruleset", "version", "seats", "options", "seed", "log", "bots_random"}
    if fmt == FORMAT:
        known |= {"name", "saved_at", "summary"}
    for key in data:
        if key not in known:
            report((shorten(key),) if isinstance(key, str) else (), f"unknown entry "
                   f"{shorten(repr(key))}; a save has {', '.join(sorted(known))}")
    if not (_is_int(fmt) and OLDEST_FORMAT <= fmt <= FORMAT):
        report(("format",), f"expected format {OLDEST_FORMAT} to {FORMAT}, found "
                            f"{shorten(repr(fmt))}")
    for key, kind in (("ruleset", str), ("version", int), ("seed", int), ("seats", list),
                      ("options", dict), ("log", list)):
        value = data.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            report((key,), f"expected {kind.__name__} for {key!r}, found {shorten(repr(value))}")
    report.raise_if_any()
    _check_ruleset(data["ruleset"], report)
    rules_ok = not report.problems
    if not 0 <= data["seed"] < SEED_MAX:
        report(("seed",), f"expected a seed from 0 to 2**63, found {shorten(str(data['seed']))}")
    seats = _check_seats(data["seats"], report)
    options = _check_options(data["options"], data["ruleset"] if rules_ok else None, report,
                             data["version"])
    log = _check_log(data["log"], len(seats), report)
    bots_random = _check_random(data.get("bots_random"), report)
    report.raise_if_any()
    name, saved_at, summary = _check_extras(data, report)
    report.raise_if_any()
    return SavedGame(data["ruleset"], data["version"], seats, options, data["seed"], log,
                     bots_random, name=name, saved_at=saved_at, summary=summary, format=fmt)


def _check_extras(data: dict[Any, Any], report: Reporter
                  ) -> tuple[str, str, dict[str, Any] | None]:
    """Format 2's name, time and summary. The summary only saves a replay when listing, so
    one that does not add up is dropped rather than reported."""
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > SAVE_NAME_MAX or (name and name_problem(
            name[:NAME_MAX])):
        report(("name",), f"expected a save's name of at most {SAVE_NAME_MAX} characters")
        name = ""
    saved_at = data.get("saved_at", "")
    if not isinstance(saved_at, str) or len(saved_at) > 40:
        report(("saved_at",), "expected a time such as 2024-05-01 21:30:00")
        saved_at = ""
    raw = data.get("summary")
    summary: dict[str, Any] | None = None
    if (isinstance(raw, dict) and isinstance(raw.get("game"), str) and len(raw["game"]) <= 80
            and _is_int(raw.get("round")) and _is_int(raw.get("moves"))
            and isinstance(raw.get("over"), bool) and isinstance(raw.get("scores"), list)
            and len(raw["scores"]) == len(data["seats"])
            and all(v is None or (isinstance(v, int | float) and not isinstance(v, bool))
                    for v in raw["scores"])
            and isinstance(raw.get("winners"), list)
            and all(_is_int(w) and 0 <= w < len(data["seats"]) for w in raw["winners"])):
        summary = {k: raw[k] for k in ("game", "round", "moves", "scores", "over", "winners")}
    return name, saved_at, summary


def _check_ruleset(value: str, report: Reporter) -> None:
    # An id, never a path: a save must not make the app load rules from anywhere else.
    if not RULESET_ID.fullmatch(value):
        report(("ruleset",), f"expected a ruleset id (lower-case letters, digits, _), found "
                             f"{shorten(repr(value))}")
    elif value not in {p.name for p in installed_rulesets()}:
        report(("ruleset",), f"no installed ruleset {value!r}")


def _check_seats(raw_seats: list[Any], report: Reporter) -> list[SavedSeat]:
    seats: list[SavedSeat] = []
    if not 1 <= len(raw_seats) <= MAX_SEATS:
        report(("seats",), f"expected 1 to {MAX_SEATS} seats, found {len(raw_seats)}")
        return seats
    names: set[str] = set()
    colours: set[int] = set()
    for i, raw in enumerate(raw_seats):
        if not isinstance(raw, dict) or set(raw) != {"name", "kind", "colour"}:
            report(("seats", i), "expected {name: TEXT, kind: human|heuristic|random, "
                                 "colour: NUMBER}")
            continue
        name, kind, colour = raw["name"], raw["kind"], raw["colour"]
        problem = name_problem(name)
        if problem:
            report(("seats", i, "name"), problem)
        elif name.lower() in names:
            report(("seats", i, "name"), f"two seats are called {name!r}")
        if kind not in SEAT_KINDS:
            report(("seats", i, "kind"), f"expected one of {', '.join(SEAT_KINDS)}, found "
                                         f"{shorten(repr(kind))}")
        if not _is_int(colour) or not 0 <= colour < PALETTE_SIZE:
            report(("seats", i, "colour"), f"expected a colour from 0 to {PALETTE_SIZE - 1}, "
                                           f"found {shorten(repr(colour))}")
        elif colour in colours:
            report(("seats", i, "colour"), f"two seats have colour {colour}")
        if not problem and kind in SEAT_KINDS and _is_int(colour):
            names.add(name.lower())
            colours.add(colour)
            seats.append(SavedSeat(name, kind, colour))
    return seats


def _check_options(raw: dict[Any, Any], rules_id: str | None, report: Reporter,
                   version: int) -> dict[str, Any]:
    """The options a save recorded, checked; for a save of an older version whose rules
    name option values (`replays:`), those values in their place: the game replays and
    plays on under the rules it was played with."""
    try:
        rules = load_by_id(rules_id) if rules_id is not None else None
    except LoadError:
        report(("ruleset",), f"the installed ruleset {rules_id!r} does not load")
        return {}
    out: dict[str, Any] = {}
    # What the rules name for this version stands whatever the save recorded for it.
    forced = replay_options(rules, version) if rules is not None else {}
    for key, value in raw.items():
        if not isinstance(key, str):
            report(("options",), f"an option name is text, not {shorten(repr(key))}")
            continue
        if rules is None or key in forced:
            continue
        o = rules.options.get(key)
        if o is None:
            known = ", ".join(rules.options) or "none"
            report(("options", shorten(key)), f"{rules.id} has no option {shorten(repr(key))}; "
                                     f"it has: {known}")
            continue
        if o.choices:
            ok = value in o.choices and type(value) is type(o.default)
        elif isinstance(o.default, bool):
            ok = isinstance(value, bool)
        elif isinstance(o.default, int):
            ok = (_is_int(value) and (o.minimum is None or value >= o.minimum)
                  and (o.maximum is None or value <= o.maximum))
        else:
            ok = type(value) is type(o.default)
        if not ok:
            report(("options", key), f"{shorten(repr(value))} is not a legal value for "
                                     f"{key}")
            continue
        out[key] = value
    return {**out, **forced}


_ARG_TYPES = (str, int, bool, float, type(None))


def _check_log(raw_log: list[Any], seats: int, report: Reporter
               ) -> list[tuple[int, str, tuple[tuple[str, Any], ...]]]:
    log: list[tuple[int, str, tuple[tuple[str, Any], ...]]] = []
    if len(raw_log) > MAX_MOVES:
        report(("log",), f"{len(raw_log)} moves; a save holds at most {MAX_MOVES}")
        return log
    for i, raw in enumerate(raw_log):
        if (not isinstance(raw, list) or len(raw) != 3 or not _is_int(raw[0])
                or not isinstance(raw[1], str) or not isinstance(raw[2], list)
                or not all(isinstance(kv, list) and len(kv) == 2 and isinstance(kv[0], str)
                           and _arg_value_ok(kv[1]) for kv in raw[2])):
            report(("log", i), "expected [seat, action, [[argument, value], ...]]")
            continue
        if seats and not 0 <= raw[0] < seats:
            report(("log", i), f"seat {shorten(str(raw[0]))} is not at the table")
            continue
        log.append((raw[0], raw[1], tuple(
            (k, tuple(v) if isinstance(v, list) else v) for k, v in raw[2])))
    return log


def _arg_value_ok(value: Any) -> bool:
    """A plain value, or a short list of them (a subset of items chosen)."""
    if isinstance(value, list):
        return len(value) <= 100 and all(isinstance(v, _ARG_TYPES) for v in value)
    return isinstance(value, _ARG_TYPES)


def _check_random(raw: Any, report: Reporter) -> tuple[Any, ...] | None:
    if raw is None:
        return None  # saved before the bots' random source was kept
    where = ("bots_random",)
    if not isinstance(raw, dict) or set(raw) != {"version", "state", "gauss"}:
        report(where, "expected {version, state, gauss}")
        return None
    words, gauss = raw["state"], raw["gauss"]
    if (not isinstance(words, list) or len(words) != 625
            or not all(_is_int(w) and 0 <= w < 2**32 for w in words[:624])
            or not _is_int(words[-1]) or not 1 <= words[-1] <= 624
            or not (gauss is None or isinstance(gauss, float))):
        report(where, "not a random source this version can restore")
        return None
    state = (raw["version"], tuple(words), gauss)
    try:
        random.Random().setstate(state)
    except (ValueError, TypeError, OverflowError):
        report(where, "not a random source this version can restore")
        return None
    return state
