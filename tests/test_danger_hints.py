"""Danger! Danger! Dinosaur's heuristic bot throws again exactly the dice the cards on offer
do not need: two of each face a face-up Game card's cost shows, ideas, half bones while it
holds fewer than two Mammoth Bones, and food, water and fire while it may still gain a
Family Member. A player watching the bot should see it keep what it can spend and throw
the rest."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dinotable.bots import heuristic_policy
from dinotable.engine import GameState, apply, legal_actions, new_game
from dinotable.engine.stacks import top_kind
from dinotable.ruleset import load_by_id

FACES = ("food", "water", "fire", "idea", "labor", "half_bone")
STACKS = ("game_1", "game_2", "game_3", "game_4", "game_5")


def wanted(state: GameState, seat: int, face: str) -> int:
    """How many dice showing `face` are worth keeping, read from the rulebook's table: the
    cards on offer, the bones held and the family still to gain."""
    items = state.rules.items
    tops = [top_kind(state, state.zones[z][0]) for z in STACKS]
    costs = [items[k].props["cost"] for k in tops if k]
    mine = state.player_vars[seat]
    useful = (any(face in cost for cost in costs)
              or face == "idea"
              or (face == "half_bone" and mine["bones"] < 2)
              or (face in ("food", "water", "fire") and mine["family"] + mine["retired"] < 3))
    return 2 if useful else 0


@pytest.mark.parametrize("players", [2, 4])
def test_the_heuristic_rerolls_the_spare_dice_and_keeps_the_wanted_ones(players: int) -> None:
    rules = load_by_id("danger_danger_dinosaur")
    checked = 0
    for seed in range(6):
        state = new_game(rules, [f"P{i}" for i in range(players)], {}, seed)
        rng = random.Random(seed)
        while not state.game_over:
            legal = legal_actions(state)
            action = heuristic_policy(state, legal, rng)
            seat = legal[0].player
            if action.id == "reroll":
                showing = Counter(state.items[i].face for i in state.zones["jungle"][0])
                spare = {f: max(0, showing[f] - wanted(state, seat, f)) for f in FACES}
                if sum(spare.values()):
                    thrown = Counter(dict(action.args)["dice"])
                    assert thrown == +Counter(spare), (seed, dict(showing), thrown)
                    checked += 1
            apply(state, action, False)
    assert checked >= 20  # the rule was put to the test many times, not once
