"""tools/dino_hunt_dice_ceiling.py restates Dino Hunt Dice's rules and hints to work out
how much a bot can win against the hints. Its figures mean something only while it plays
the game the ruleset plays: the chances it works out must match games the engine plays."""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType

from helpers import load_module

from dinotable.ruleset import load_by_id
from dinotable.sim import simulate

TOOL = Path(__file__).resolve().parent.parent / "tools" / "dino_hunt_dice_ceiling.py"


def _tool() -> ModuleType:
    return load_module(TOOL, "dino_hunt_dice_ceiling")


def test_the_worked_out_first_seat_share_matches_games_the_engine_plays() -> None:
    goal = 6  # a short race: the same rules, worked out in seconds
    worked_out = _tool().Game(goal).first_seat_wins(None)
    games = 6000
    result = simulate(load_by_id("dino_hunt_dice"), 2, games, 3, ["heuristic", "heuristic"],
                      {"goal": goal}, 1)
    played = result["wins"][0] / games
    error = math.sqrt(worked_out * (1 - worked_out) / games)
    # The second seat answers the first's total in the last round: a real edge to find.
    assert worked_out < 0.47
    assert abs(played - worked_out) < 3.5 * error, (played, worked_out)


def test_a_turn_by_the_hints_banks_what_the_engine_banks() -> None:
    """The first turn of a game: how often the hints bank nothing, and the mean banked."""
    from random import Random

    from dinotable.bots import heuristic_policy
    from dinotable.engine import apply, legal_actions, new_game

    rules = load_by_id("dino_hunt_dice")
    dist = _tool().Game(20).hints(0, 0, False)
    mean = sum(total * p for total, p in dist.items())
    n, banked, nothing = 4000, 0, 0
    for seed in range(n):
        state = new_game(rules, ["A", "B"], {}, seed)
        rng = Random(seed)
        while state.turns == 1 and not state.game_over:
            apply(state, heuristic_policy(state, legal_actions(state), rng), False)
        total = state.player_vars[0]["banked"]
        banked += total
        nothing += total == 0
    assert abs(nothing / n - dist[0]) < 3.5 * math.sqrt(dist[0] * (1 - dist[0]) / n)
    spread = math.sqrt(sum((t - mean) ** 2 * p for t, p in dist.items()) / n)
    assert abs(banked / n - mean) < 3.5 * spread


def test_the_hints_choices_give_up_what_the_best_player_wins_more() -> None:
    """Added up over the first seat's games, the chance of winning each of the hints' choices
    gives up against the best choice is the whole gap between the hints and the best player
    (all the first seat's choices come in ordinary rounds, bar rare tiebreaks): the measure
    `--regret` weighs a bot by is sound."""
    tool = _tool()
    game = tool.Game(6)
    gap = game.first_seat_wins(0) - game.first_seat_wins(None)
    found = tool.regret(game, "heuristic", 600, 1, seats=(0,))[0]
    assert found["unlike"] == 0 and found["bot"] == found["hints"]
    assert gap > 0.03
    assert abs(found["hints"] - gap) < 0.25 * gap, (found, gap)
