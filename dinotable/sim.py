"""Whole games played by bots, for `dinotable simulate`, `bench` and balance checks."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from .bots import POLICIES
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


def simulate(rules: Rules, players: int, games: int, seed: int, bots: list[str],
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play many games and summarise them (the `simulate --json` object)."""
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise ValueError(f"--bots names {len(bots)} policies for {players} players")
    wins = [0] * players
    totals = [0.0] * players
    actions = turns = 0
    start = time.perf_counter()
    for g in range(games):
        result = play_game(rules, players, seed * 1_000_003 + g, bots, options)
        for w in result.winners:
            wins[w] += 1
        for s, v in enumerate(result.scores):
            totals[s] += v
        actions += result.actions
        turns += result.turns
    seconds = time.perf_counter() - start
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
