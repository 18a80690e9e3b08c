"""`dinotable bench`'s saves: the autosave after each move of the longest game, near its start
and at its end, written as a table writes it, and the title opening it (every JSON key in
docs/bench.md)."""

from __future__ import annotations

import dataclasses
import os
import random
import statistics
import tempfile
import time
from typing import Any

EARLY = 30  # the move near the start whose autosaves are set beside the last ones
AROUND = 10  # moves timed either side of it, and at the end of the game


def _longest(quick: bool) -> tuple[Any, Any, int]:
    """The longest game random bots play of any shipped ruleset (over a few seeds): its
    rules, its final state and its seed."""
    from . import saves
    from .engine import apply, new_game, sample_action
    from .ruleset import installed_rulesets, load_by_id

    longest: tuple[int, Any, Any, int] | None = None
    for folder in installed_rulesets():
        rules = load_by_id(folder.name)
        players = [f"P{i + 1}" for i in range(max(rules.min_players, min(4, rules.max_players)))]
        for seed in range(1, (4 if quick else 21)):
            state = new_game(rules, players, None, seed)
            rng = random.Random(seed)
            while not state.game_over and len(state.log) < saves.MAX_MOVES:
                apply(state, sample_action(state, rng))
            if longest is None or len(state.log) > longest[0]:
                longest = (len(state.log), rules, state, seed)
    assert longest is not None
    return longest[1], longest[2], longest[3]


def _inode(path: Any) -> int | None:
    try:
        return int(os.stat(path).st_ino)
    except OSError:
        return None


def _ms(seconds: list[float], digits: int = 2) -> float:
    return round(1000 * statistics.median(seconds), digits)


def measure_saves(quick: bool = False) -> dict[str, Any]:
    """The longest game's autosave after every move, as the table writes it (the bots'
    random source moving as a table's does), from its first move to its last but one: the
    median and slowest near move EARLY and over the last moves, their ratio, how often and
    how slowly the whole save was written, the same whole write at the end for comparison
    (what every move cost before the journal), and the title's opening of it (the newest
    readable autosave found, read, checked and replayed)."""
    from . import saves
    from .saves import journal

    rules, state, seed = _longest(quick)
    bots = random.Random(seed)
    game = saves.SavedGame(rules.id, rules.version,
                           [saves.SavedSeat(name, "heuristic", i)
                            for i, name in enumerate(state.players)],
                           dict(state.options), seed, [], bots.getstate())
    log = [(a.player, a.id, a.args) for a in state.log[:-1]]  # the last move ends the game
    writes: list[float] = []
    whole: list[float] = []  # the moves whose autosave was written whole (a new file)
    full: list[float] = []
    opens: list[float] = []
    old_home = os.environ.get("DINOTABLE_HOME")
    with tempfile.TemporaryDirectory() as home:
        os.environ["DINOTABLE_HOME"] = home
        try:
            journal.forget()
            for n in range(1, len(log) + 1):
                bots.random()  # a bot's choice draws from the source saved with the game
                moved = dataclasses.replace(game, log=log[:n], bots_random=bots.getstate())
                before = _inode(saves.autosave_path())
                start = time.perf_counter()
                problem = saves.try_write(moved)
                writes.append(time.perf_counter() - start)
                if problem is not None:
                    raise RuntimeError(problem)
                if _inode(saves.autosave_path()) != before:
                    whole.append(writes[-1])
            journal.synced()
            home_files = [saves.autosave_path(), journal.journal_path(saves.autosave_path())]
            size = sum(p.stat().st_size for p in home_files if p.is_file())
            for _ in range(3 if quick else 10):
                start = time.perf_counter()
                found, _ = saves.newest_autosave(keep_aside=False)
                opens.append(time.perf_counter() - start)
                if found is None or len(found[0].log) != len(log):
                    raise RuntimeError("the autosave written did not open to its last move")
            for _ in range(5 if quick else 20):
                start = time.perf_counter()
                problem = saves.try_write(moved, compact=True)
                full.append(time.perf_counter() - start)
                if problem is not None:
                    raise RuntimeError(problem)
        finally:
            journal.forget()
            if old_home is None:
                os.environ.pop("DINOTABLE_HOME", None)
            else:
                os.environ["DINOTABLE_HOME"] = old_home
    early = writes[max(0, EARLY - AROUND):EARLY + AROUND]
    late = writes[-2 * AROUND:]
    return {"ruleset": rules.id, "moves": len(log), "bytes": size,
            "autosave_ms_median": _ms(late), "autosave_ms_max": round(1000 * max(late), 2),
            "early_move": EARLY,
            "early_autosave_ms_median": _ms(early),
            "early_autosave_ms_max": round(1000 * max(early), 2),
            "end_vs_early": round(statistics.median(late) / statistics.median(early), 2),
            "autosave_ms_mean": round(1000 * statistics.fmean(writes), 3),
            "whole_writes": len(whole),
            "whole_write_ms_max": round(1000 * max(whole), 2) if whole else None,
            "full_write_ms_median": _ms(full), "full_write_ms_max": round(1000 * max(full), 2),
            "open_from_title_ms": _ms(opens, 1)}


def saves_line(figures: dict[str, Any]) -> str:
    """The saves' figures in one line."""
    return (f"saves: autosave at the end of the longest game ({figures['ruleset']}, "
            f"{figures['moves']} moves, {figures['bytes']} bytes) {figures['autosave_ms_median']}"
            f" ms (slowest {figures['autosave_ms_max']} ms; aim 3), at move "
            f"{figures['early_move']} {figures['early_autosave_ms_median']} ms (slowest "
            f"{figures['early_autosave_ms_max']} ms), end/early {figures['end_vs_early']}; "
            f"mean over the game {figures['autosave_ms_mean']} ms with "
            f"{figures['whole_writes']} whole writes (slowest {figures['whole_write_ms_max']} "
            f"ms); the whole save written at the end {figures['full_write_ms_median']} ms; "
            f"opening it from the title {figures['open_from_title_ms']} ms")
