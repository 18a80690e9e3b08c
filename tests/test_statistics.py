"""The engine playing Dino Hunt Dice agrees in distribution with an independent hand-written game.

`dinotable.reference.dino_hunt_dice` is written straight from the rulebook with no engine code.
Both play ~3000 three-player games with uniform random bots, from different seeds; every
per-seat mean score, win share, and the mean turns and actions per game must agree within four
standard errors of their difference, the errors computed from the per-game samples. (Tried
by hand: one yellow face changed from leaves to dino moves the mean turns and actions by about
20 standard errors; ties left shared instead of replayed show as games with two winners.)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from dinotable.engine import Rules
from dinotable.reference import dino_hunt_dice as reference
from dinotable.sim import play_game, simulate

PLAYERS = 3
GAMES = 3000
GOAL = 20
Z = 4.0


def _mean_and_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def _samples(results: list[tuple[list[int], list[int], int, int]]) -> dict[str, list[float]]:
    """Per-game values by measure name, from (scores, winners, actions, turns) of each game."""
    out: dict[str, list[float]] = {"turns": [], "actions": []}
    for seat in range(PLAYERS):
        out[f"score[{seat}]"] = []
        out[f"win[{seat}]"] = []
    for scores, winners, actions, turns in results:
        out["turns"].append(turns)
        out["actions"].append(actions)
        for seat in range(PLAYERS):
            out[f"score[{seat}]"].append(scores[seat])
            out[f"win[{seat}]"].append(1.0 if seat in winners else 0.0)
    return out


@pytest.fixture(scope="module")
def engine_samples(dhd: Rules) -> dict[str, list[float]]:
    results = []
    for g in range(GAMES):
        p = play_game(dhd, PLAYERS, 101 * 1_000_003 + g, ["random"] * PLAYERS)
        results.append((list(p.scores), list(p.winners), p.actions, p.turns))
    return _samples(results)


@pytest.fixture(scope="module")
def reference_samples() -> dict[str, list[float]]:
    results = []
    for g in range(GAMES):
        dice_seed, bot_seed = reference.game_seeds(202, g)
        r = reference.play_random_game(PLAYERS, GOAL, random.Random(dice_seed),
                                       random.Random(bot_seed))
        results.append((r.scores, r.winners, r.actions, r.turns))
    return _samples(results)


MEASURES = ["turns", "actions"] + [f"{m}[{s}]" for m in ("score", "win") for s in range(PLAYERS)]


@pytest.mark.parametrize("measure", MEASURES)
def test_engine_and_handwritten_dino_hunt_dice_agree_within_four_standard_errors(
        measure: str, engine_samples: dict[str, list[float]],
        reference_samples: dict[str, list[float]]) -> None:
    e_mean, e_se = _mean_and_se(engine_samples[measure])
    r_mean, r_se = _mean_and_se(reference_samples[measure])
    bound = Z * math.hypot(e_se, r_se)
    assert bound > 0
    assert abs(e_mean - r_mean) <= bound, (
        f"{measure}: engine {e_mean:.4f} ± {e_se:.4f}, hand-written {r_mean:.4f} ± {r_se:.4f}")


def test_every_game_has_exactly_one_winner_in_both(
        engine_samples: dict[str, list[float]],
        reference_samples: dict[str, list[float]]) -> None:
    for samples in (engine_samples, reference_samples):
        wins = [sum(samples[f"win[{s}]"][g] for s in range(PLAYERS)) for g in range(GAMES)]
        assert set(wins) == {1.0}


def test_engine_simulate_returns_the_reference_keys_plus_the_bots_by_seat(dhd: Rules) -> None:
    engine = simulate(dhd, PLAYERS, 10, 1, ["random"])
    hand = reference.simulate(PLAYERS, 10, 1)
    assert set(engine) - {"bots"} == set(hand)
    assert engine["bots"] == ["random"] * PLAYERS


def test_simulate_summarises_exactly_the_games_play_game_plays(dhd: Rules) -> None:
    seed, games = 7, 40
    summary = simulate(dhd, PLAYERS, games, seed, ["random"])
    played = [play_game(dhd, PLAYERS, seed * 1_000_003 + g, ["random"] * PLAYERS)
              for g in range(games)]
    assert summary["games"] == games
    assert summary["wins"] == [sum(seat in p.winners for p in played) for seat in range(PLAYERS)]
    assert summary["mean_scores"] == [
        round(sum(p.scores[s] for p in played) / games, 4) for s in range(PLAYERS)]
    assert summary["mean_turns"] == round(sum(p.turns for p in played) / games, 4)


@pytest.mark.parametrize("bots, heuristic_seat", [(["heuristic", "random"], 0),
                                                  (["random", "heuristic"], 1)])
def test_the_heuristic_bot_clearly_beats_the_random_bot_from_either_seat(
        dhd: Rules, bots: list[str], heuristic_seat: int) -> None:
    games = 400
    summary = simulate(dhd, 2, games, 3, bots)
    share = summary["wins"][heuristic_seat] / games
    # Even odds would put the share within 0.5 ± 0.1 (four standard errors) of a half.
    assert share >= 0.7, summary["wins"]
    assert summary["mean_scores"][heuristic_seat] > summary["mean_scores"][1 - heuristic_seat]
