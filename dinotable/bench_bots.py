"""How far the search bots think: playouts made in a move's time budget, per shipped game.

For each shipped ruleset a fixed set of seeded positions is played up to by heuristic bots
(the same positions on any version of the engine whose seeded heuristic games are the
same), and the fair and sharp bots then choose a move from each with their real clocks (one
second, two and a half). A playout is one tree playout (`_iterate`) or one weighing of a
move by the hints (`_judge`), counted as the search makes them.

Only long-standing engine calls are used (new_game, apply, legal_actions, the bot policies
and the search module's `search`, `STRENGTHS` and `_clock`), so `tools/bench_playouts.py`
measures an older tree side by side with this one.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

PLAYERS = 4  # seats, within what each ruleset allows
POSITIONS = {"fair": 4, "sharp": 4}  # positions a game for each strength
FARTHEST = 60  # a position lies up to this many moves into a game


def positions(rules: Any, count: int, players: int = PLAYERS) -> list[Any]:
    """`count` seeded positions of a game where the seat to move has two moves or more:
    heuristic bots play a seeded number of moves (up to `FARTHEST`) into the game of each
    seed in turn, then on to the next real choice; a game over by then is passed by."""
    from dinotable.bots import POLICIES
    from dinotable.engine import apply, legal_actions, new_game

    seats = max(rules.min_players, min(players, rules.max_players))
    names = [f"P{i + 1}" for i in range(seats)]
    found: list[Any] = []
    seed = 0
    while len(found) < count and seed < 50 * count:
        seed += 1
        state = new_game(rules, names, None, seed)
        rng = random.Random(seed)
        target = rng.randrange(FARTHEST)
        while not state.game_over:
            legal = legal_actions(state)
            if len(state.log) >= target and len(legal) > 1:
                found.append(state)
                break
            apply(state, POLICIES["heuristic"](state, legal, rng), False)
    return found


class _Counter:
    """Counts the playouts the search module makes, by wrapping its playout functions."""

    NAMES = ("_iterate", "_judge")

    def __init__(self, module: Any) -> None:
        self.module = module
        self.count = 0
        self.saved: dict[str, Callable[..., Any]] = {}

    def __enter__(self) -> _Counter:
        for name in self.NAMES:
            original = getattr(self.module, name, None)
            if original is None:
                continue
            self.saved[name] = original
            setattr(self.module, name, self._counted(original))
        return self

    def _counted(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return original(*args, **kwargs)
        return counted

    def __exit__(self, *_: object) -> None:
        for name, original in self.saved.items():
            setattr(self.module, name, original)


def _timed_moves(module: Any, strength: Any, states: list[Any]
                 ) -> Iterator[tuple[int, float, float]]:
    """(playouts, seconds, processor seconds) of one clocked search move from each position:
    the processor's time is this process's alone, what a playout costs on a busy machine."""
    from dinotable.engine import legal_actions

    for index, state in enumerate(states):
        legal = legal_actions(state)
        rng = random.Random(1000 + index)
        with _Counter(module) as counter:
            began, worked = module._clock(), time.process_time()
            module.search(state, legal, rng, strength)
            used, worked = module._clock() - began, time.process_time() - worked
        yield counter.count, used, worked


def measure_playouts(rulesets: list[str] | None = None,
                     counts: dict[str, int] | None = None,
                     budgets: dict[str, Any] | None = None) -> dict[str, Any]:
    """Per ruleset and strength: moves searched, playouts a move (median, mean, fewest),
    seconds a move (mean, longest) and processor milliseconds a playout. `budgets` replaces
    a strength's budget (a tiny one for a quick look); `counts` the positions a game for
    each strength."""
    from dinotable.bots import search as module
    from dinotable.ruleset import installed_rulesets, load_by_id

    counts = counts or POSITIONS
    ids = rulesets if rulesets is not None else [p.name for p in installed_rulesets()]
    figures: dict[str, Any] = {}
    for rid in ids:
        rules = load_by_id(rid)
        states = positions(rules, max(counts.values()))
        row: dict[str, Any] = {"players": len(states[0].players) if states else 0}
        for name, count in counts.items():
            strength = (budgets or {}).get(name) or module.STRENGTHS[name]
            moves = list(_timed_moves(module, strength, states[:count]))
            made = [m for m, _, _ in moves] or [0]
            spent = [s for _, s, _ in moves] or [0.0]
            worked = sum(w for _, _, w in moves)
            row[name] = {
                "moves": len(moves),
                "playouts_median": statistics.median(made),
                "playouts_mean": round(statistics.fmean(made), 1),
                "playouts_fewest": min(made),
                "seconds_mean": round(statistics.fmean(spent), 3),
                "seconds_max": round(max(spent), 3),
                "cpu_ms_per_playout": round(1000 * worked / max(1, sum(made)), 3),
            }
        figures[rid] = row
    return figures


def playouts_lines(figures: dict[str, Any]) -> list[str]:
    """One readable line a ruleset."""
    lines = []
    for rid, row in figures.items():
        parts = [f"{name} {cell['playouts_median']:g} playouts a move (mean "
                 f"{cell['playouts_mean']:g}, {cell['seconds_mean']:.2f} s, longest "
                 f"{cell['seconds_max']:.2f} s, {cell['cpu_ms_per_playout']:.2f} ms a "
                 "playout)"
                 for name, cell in row.items() if isinstance(cell, dict)]
        lines.append(f"{rid} ({row['players']} seats): " + "; ".join(parts))
    return lines
