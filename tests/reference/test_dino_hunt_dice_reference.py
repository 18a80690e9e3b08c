"""Checks of the hand-written Dino Hunt Dice reference against the rulebook.

The engine-vs-reference statistics test lives elsewhere; this module only checks that the
reference itself plays the game the rulebook describes and that its odds are right.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from dinotable.reference import dino_hunt_dice as ref

GOAL = 20
GAMES = 2_000

# The cup, restated from the rulebook reading (green / yellow / red).
FACES = {
    "green": ("dino",) * 3 + ("leaves",) * 2 + ("footprint",),
    "yellow": ("dino",) * 2 + ("leaves",) * 2 + ("footprint",) * 2,
    "red": ("dino",) + ("leaves",) * 2 + ("footprint",) * 3,
}
FULL_CUP = {"green": 5, "yellow": 3, "red": 2}


class ScriptedRandom(random.Random):
    """A generator whose ``random()`` always returns one fixed value."""

    def __init__(self, value: float = 0.0) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


ROLL, STOP = ScriptedRandom(0.0), ScriptedRandom(0.999)  # the bot's pick from [roll, stop]


def test_dice_and_cup_match_the_rulebook_reading() -> None:
    assert ref.CUP == FULL_CUP
    assert {colour: sorted(faces) for colour, faces in ref.DIE_FACES.items()} == {
        colour: sorted(faces) for colour, faces in FACES.items()
    }


# --- single turns -------------------------------------------------------------------------


def test_bust_on_the_first_roll_banks_nothing() -> None:
    # Every die shows its last face, a footprint on every colour: 3 stomps at once.
    assert ref.play_random_turn(ScriptedRandom(0.999), ROLL) == (0, 1)


def test_stop_banks_the_caught_dinos() -> None:
    # Every die shows a dino; the policy stops as soon as it may: 3 dinos, 2 actions.
    assert ref.play_random_turn(ScriptedRandom(0.0), STOP) == (3, 2)


def test_found_all_the_dinosaurs_ends_the_turn() -> None:
    # Always dinos, always roll: 3 + 3 + 3 + 1 dice drawn; after the 4th roll the cup is
    # empty and no leaves are left, so all the dinosaurs are found: 10 banked, no 5th action.
    assert ref.play_random_turn(ScriptedRandom(0.0), ROLL) == (10, 4)


def test_random_turns_bank_between_0_and_10() -> None:
    dice, bot = random.Random(7), random.Random(8)
    banked = []
    for _ in range(5_000):
        gained, actions = ref.play_random_turn(dice, bot)
        assert 0 <= gained <= 10
        assert actions >= 1
        banked.append(gained)
    assert 0 in banked and max(banked) >= 6


# --- whole games --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_seeded_games_follow_the_winning_rules(players: int) -> None:
    turns_total = 0
    wins = [0] * players
    for i in range(GAMES):
        dice_seed, bot_seed = ref.game_seeds(1, i)
        result = ref.play_random_game(
            players, GOAL, random.Random(dice_seed), random.Random(bot_seed)
        )
        assert len(result.scores) == players
        assert max(result.scores) >= GOAL  # someone reached the goal
        assert len(result.winners) == 1  # tiebreaks go on until one leader is left
        (winner,) = result.winners
        others = [s for seat, s in enumerate(result.scores) if seat != winner]
        assert all(result.scores[winner] > s for s in others)  # strictly highest
        # At most 10 dinos a turn, so at least 2 full rounds; every turn takes >= 1 action.
        assert result.turns >= 2 * players
        assert result.actions >= result.turns
        turns_total += result.turns
        wins[winner] += 1
    # About 1.5 dinos a turn for a random player: the leader reaches 20 in roughly 10-12
    # rounds (observed: 11.9 rounds at 2 players, 10.3 at 4).
    mean_rounds = turns_total / GAMES / players
    assert 8 <= mean_rounds <= 15
    # Seats win about equally often (4 standard errors of slack).
    share = 1 / players
    slack = 4 * math.sqrt(share * (1 - share) / GAMES)
    assert all(abs(w / GAMES - share) <= slack for w in wins), wins


def test_simulate_summary_is_deterministic_and_consistent() -> None:
    a = ref.simulate(3, 300, seed=5)
    b = ref.simulate(3, 300, seed=5)
    timing = {"seconds", "games_per_second", "actions_per_second"}
    assert {k: v for k, v in a.items() if k not in timing} == {
        k: v for k, v in b.items() if k not in timing
    }
    assert set(a) == timing | {"ruleset", "players", "games", "wins", "mean_scores", "mean_turns"}
    assert a["ruleset"] == "dino_hunt_dice"
    assert a["players"] == 3 and a["games"] == 300
    assert sum(a["wins"]) == 300
    assert len(a["mean_scores"]) == 3
    assert max(a["mean_scores"]) < 30 and min(a["mean_scores"]) > 5
    assert a["games_per_second"] > 0 and a["actions_per_second"] > a["games_per_second"]

    # Game i is seeded with seed * 1_000_003 + i for the dice.
    expected = [
        ref.play_random_game(3, GOAL, *(random.Random(s) for s in ref.game_seeds(5, i)))
        for i in range(300)
    ]
    assert ref.game_seeds(5, 7)[0] == 5 * 1_000_003 + 7
    assert a["mean_turns"] == pytest.approx(sum(r.turns for r in expected) / 300)
    assert a["mean_scores"] == pytest.approx(
        [sum(r.scores[seat] for r in expected) / 300 for seat in range(3)]
    )


# --- bust chance --------------------------------------------------------------------------


def test_bust_chance_with_three_leaves_in_hand_by_hand() -> None:
    # Three leaves in hand: nothing is drawn, the red, red, yellow dice are rolled again.
    # P(footprint): red 1/2, yellow 1/3.
    hand = ["red", "red", "yellow"]
    cup = {"green": 5, "yellow": 2, "red": 0}
    # 2 stomps: any footprint busts: 1 - 1/2 * 1/2 * 2/3 = 5/6.
    assert ref.bust_chance(hand, cup, 2) == pytest.approx(5 / 6)
    # 1 stomp: two or three footprints: (1/4 * 2/3 + 2 * 1/2 * 1/2 * 1/3) + 1/12 = 5/12.
    assert ref.bust_chance(hand, cup, 1) == pytest.approx(5 / 12)
    # 0 stomps: all three: 1/2 * 1/2 * 1/3 = 1/12.
    assert ref.bust_chance(hand, cup, 0) == pytest.approx(1 / 12)
    assert ref.bust_chance_exact(hand, cup, 2) == Fraction(5, 6)


def test_bust_chance_at_the_start_of_a_turn_by_hand() -> None:
    # Sum over the C(10, 3) = 120 draws of P(3 footprints), by colour mix, in 216ths:
    # GGG 10*1, GGY 30*2, GGR 20*3, GYY 15*4, GYR 30*6, GRR 5*9, YYY 1*8, YYR 6*12, YRR 3*18
    # = 549 / 216 / 120 = 61 / 2880.
    assert ref.bust_chance_exact([], dict(FULL_CUP), 0) == Fraction(61, 2880)
    # The same by brute force over the 120 unordered draws.
    p = {"green": Fraction(1, 6), "yellow": Fraction(1, 3), "red": Fraction(1, 2)}
    dice = [c for c, n in FULL_CUP.items() for _ in range(n)]
    combos = list(itertools.combinations(dice, 3))
    brute = sum((p[a] * p[b] * p[c] for a, b, c in combos), Fraction(0)) / len(combos)
    assert brute == Fraction(61, 2880)


def test_bust_chance_is_zero_when_three_stomps_cannot_happen() -> None:
    # Only 2 dice can be rolled with 0 stomps so far: never 3 stomps.
    assert ref.bust_chance([], {"green": 0, "yellow": 0, "red": 2}, 0) == 0.0
    assert ref.bust_chance(["red"], {"red": 1}, 0) == 0.0
    # Found all the dinosaurs: the cup is empty and fewer than 3 leaves are in hand.
    assert ref.bust_chance(["red", "red"], {"green": 0, "yellow": 0, "red": 0}, 2) == 0.0
    assert ref.bust_chance([], {}, 2) == 0.0


def test_bust_chance_with_a_short_cup_by_hand() -> None:
    # One yellow leaf in hand, only one red die left: roll yellow + red with 1 stomp.
    assert ref.bust_chance(["yellow"], {"red": 1}, 1) == pytest.approx(1 / 3 * 1 / 2)


def test_bust_chance_rejects_impossible_states() -> None:
    with pytest.raises(ValueError):
        ref.bust_chance([], dict(FULL_CUP), 3)
    with pytest.raises(ValueError):
        ref.bust_chance(["red"] * 4, dict(FULL_CUP), 0)
    with pytest.raises(ValueError):
        ref.bust_chance(["blue"], dict(FULL_CUP), 0)


def monte_carlo_bust(
    hand: list[str], cup: dict[str, int], stomps: int, samples: int, rng: random.Random
) -> float:
    """Estimate the bust chance by drawing and rolling the dice ``samples`` times."""
    pool = [c for c, n in cup.items() for _ in range(n)]
    draw = min(3 - len(hand), len(pool))
    busts = 0
    for _ in range(samples):
        dice = hand + rng.sample(pool, draw)
        footprints = sum(rng.choice(FACES[c]) == "footprint" for c in dice)
        busts += stomps + footprints >= 3
    return busts / samples


@pytest.mark.parametrize(
    ("hand", "cup", "stomps"),
    [
        ([], FULL_CUP, 0),
        (["green"], {"green": 2, "yellow": 3, "red": 1}, 1),
        (["red", "yellow"], {"green": 3, "yellow": 1, "red": 1}, 2),
        ([], {"green": 1, "yellow": 1, "red": 2}, 1),
        (["yellow", "red"], {"red": 0, "green": 1}, 1),
    ],
)
def test_exact_bust_chance_agrees_with_monte_carlo(
    hand: list[str], cup: dict[str, int], stomps: int
) -> None:
    samples = 20_000
    exact = ref.bust_chance(hand, dict(cup), stomps)
    estimate = monte_carlo_bust(hand, cup, stomps, samples, random.Random(2024))
    se = math.sqrt(max(exact * (1 - exact), 1e-12) / samples)
    assert abs(estimate - exact) <= 3 * se, (exact, estimate)
