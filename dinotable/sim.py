"""Whole games played by bots, for `dinotable simulate`, `bench` and balance checks."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .bots import POLICIES
from .bots.search import unclocked
from .engine import (
    Rules,
    apply,
    legal_actions,
    new_game,
    random_playout,
    sample_action,
    scores,
    waiting_on,
)

MOVE_CAP = 100_000


class RunawayGame(RuntimeError):
    """A game that did not end within MOVE_CAP actions (its ruleset may never end)."""


@dataclass
class Playout:
    """The outcome of one game."""

    scores: list[Any]
    winners: list[int]
    actions: int
    turns: int


def seat_names(n: int) -> list[str]:
    """Default player names for simulations."""
    return [f"P{i + 1}" for i in range(n)]


def play_game(rules: Rules, players: int, seed: int, bots: list[str],
              options: dict[str, Any] | None = None) -> Playout:
    """Play one game to the end with one policy per seat."""
    state = new_game(rules, seat_names(players), options, seed)
    rng = random.Random(seed ^ 0x5EED)
    policies = [POLICIES[b] for b in bots]
    actions = 0
    sampled = rules.large_domains  # a random bot samples a subset rather than list them
    if not sampled and all(b == "random" for b in bots):
        # Every seat plays at random from the legal list: the engine's own playout, the
        # same moves as the loop below would choose, at a fraction of the cost.
        actions = random_playout(state, rng, MOVE_CAP + 1)
    while not state.game_over:
        seat = waiting_on(state) if sampled else None
        if seat is not None and bots[seat] == "random":
            action = sample_action(state, rng)
        else:
            legal = legal_actions(state)
            if not legal:
                raise RuntimeError(f"no legal action in a game not over:\n{state}")
            action = policies[legal[0].player](state, legal, rng)
        apply(state, action, False)
        actions += 1
        if actions > MOVE_CAP:
            raise RunawayGame(f"{rules.id}: a game (seed {seed}) did not end within "
                              f"{MOVE_CAP:,} actions; do its rules ever end the game?")
    return Playout(scores(state), list(state.winners), actions, state.turns)


ProgressFn = Callable[[int, int], None]


def simulate(rules: Rules, players: int, games: int, seed: int, bots: list[str],
             options: dict[str, Any] | None = None, jobs: int = 1,
             progress: ProgressFn | None = None) -> dict[str, Any]:
    """Play many games and summarise them (the `simulate --json` object).

    Game g is seeded by `seed` and g alone, so `jobs` processes (each playing a run of
    games) reach the same summary as one: their results are merged in game order.
    `progress(done, games)` is called as games finish.
    """
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise ValueError(f"--bots names {len(bots)} policies for {players} players")
    seeds = [seed * 1_000_003 + g for g in range(games)]
    start = time.perf_counter()
    results: list[Playout] = []
    if jobs > 1 and games > 1 and rules.source:
        results = _in_processes(rules.source, players, seeds, bots, options, jobs, progress)
    else:
        with unclocked():  # a seed plays the same games however busy the machine is
            for g, game_seed in enumerate(seeds):
                results.append(play_game(rules, players, game_seed, bots, options))
                if progress is not None:
                    progress(g + 1, games)
    seconds = time.perf_counter() - start
    wins = [0] * players
    totals = [0.0] * players
    actions = turns = 0
    for result in results:
        for w in result.winners:
            wins[w] += 1
        for s, v in enumerate(result.scores):
            totals[s] += v
        actions += result.actions
        turns += result.turns
    return {
        "ruleset": rules.id,
        "players": players,
        "games": games,
        "bots": bots,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 2) if seconds else 0.0,
        "actions_per_second": round(actions / seconds, 1) if seconds else 0.0,
        "wins": wins,
        "mean_scores": [round(t / games, 4) for t in totals] if games else [],
        "mean_turns": round(turns / games, 4) if games else 0.0,
    }


def head_to_head(rules: Rules, players: int, games: int, seed: int, policy: str,
                 against: str, options: dict[str, Any] | None = None, jobs: int = 1
                 ) -> dict[str, Any]:
    """`policy` at one seat and `against` at every other, the seat taken in turn (games
    shared out evenly): how often `policy` won, beside its fair share of 1/players."""
    wins = played = 0
    for seat in range(players):
        count = games // players + (1 if seat < games % players else 0)
        if not count:
            continue
        bots = [against] * players
        bots[seat] = policy
        summary = simulate(rules, players, count, seed + seat, bots, options, jobs)
        wins += summary["wins"][seat]
        played += count
    return {"players": players, "games": played, "policy": policy, "against": against,
            "wins": wins, "share": round(wins / played, 3) if played else 0.0,
            "fair_share": round(1 / players, 3)}


_LOADED: dict[str, Rules] = {}


def _play_run(task: tuple[str, int, list[int], list[str], dict[str, Any] | None]
              ) -> list[Playout]:
    """A worker process: a run of games of the ruleset in `folder` (loaded once a process:
    compiled rules do not travel between processes, their folder does)."""
    folder, players, seeds, bots, options = task
    rules = _LOADED.get(folder)
    if rules is None:
        from .ruleset import load_ruleset

        rules = _LOADED[folder] = load_ruleset(folder)
    with unclocked():
        return [play_game(rules, players, s, bots, options) for s in seeds]


def _in_processes(folder: str, players: int, seeds: list[int], bots: list[str],
                  options: dict[str, Any] | None, jobs: int,
                  progress: ProgressFn | None) -> list[Playout]:
    """Every game's result, in game order, played by `jobs` processes."""
    import multiprocessing

    # Short runs keep every process busy to the end and the progress moving.
    size = max(1, min(50, len(seeds) // (jobs * 8)))
    tasks = [(folder, players, seeds[i:i + size], bots, options)
             for i in range(0, len(seeds), size)]
    results: list[Playout] = []
    with multiprocessing.get_context().Pool(min(jobs, len(tasks))) as pool:
        for run in pool.imap(_play_run, tasks):
            results.extend(run)
            if progress is not None:
                progress(len(results), len(seeds))
    return results
