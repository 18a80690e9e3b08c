"""Dino Hunt Dice, written by hand straight from the rulebook, with a uniform random policy.

This module is independent of the rules engine (standard library only). It is the speed
baseline for ``dinotable bench`` and the statistical yardstick the engine is checked against.

Readings of the rulebook's unclear points (shared with the YAML ruleset):

* The cup holds 10 dice: 5 green, 3 yellow, 2 red (faces in ``DIE_FACES``); all 10 are in
  the cup at the start of every turn and go back when the turn ends.
* Actions are ``roll`` and ``stop``. The first action of a turn must be ``roll``; after it
  (if the turn did not end) both are legal.
* ``roll``: the dice in hand are the leaves from the previous roll. Draw
  ``min(3 - leaves, dice in cup)`` dice at random from the cup and roll every die in hand:
  dinos are caught, footprints are stomps, leaves stay in hand. 3 stomps end the turn with
  nothing banked. Otherwise, if the cup is now empty and fewer than 3 leaves are in hand,
  the player has "found all the dinosaurs": they bank caught dinos + leaves and the turn
  ends, with no choice to make.
* ``stop``: bank the caught dinos; the turn ends.
* Seats play in order from seat 0. Once a player's total reaches the goal the round is
  finished; then, while the lead is shared, only the leaders play one more turn each (in
  seat order) and the leaders among them are found again.
* The random policy picks uniformly among the legal actions with its own ``random.Random``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = [
    "COLOURS",
    "CUP",
    "DIE_FACES",
    "DINO",
    "FOOTPRINT",
    "LEAVES",
    "RULESET",
    "GameResult",
    "bust_chance",
    "bust_chance_exact",
    "game_seeds",
    "play_random_game",
    "play_random_turn",
    "simulate",
]

RULESET = "dino_hunt_dice"

DINO = "dino"
LEAVES = "leaves"
FOOTPRINT = "footprint"

DIE_FACES: dict[str, tuple[str, ...]] = {
    "green": (DINO, DINO, DINO, LEAVES, LEAVES, FOOTPRINT),
    "yellow": (DINO, DINO, LEAVES, LEAVES, FOOTPRINT, FOOTPRINT),
    "red": (DINO, LEAVES, LEAVES, FOOTPRINT, FOOTPRINT, FOOTPRINT),
}
"""The six faces of each colour of die."""

CUP: dict[str, int] = {"green": 5, "yellow": 3, "red": 2}
"""How many dice of each colour are in the cup at the start of a turn."""

COLOURS: tuple[str, ...] = tuple(CUP)

_FULL_CUP: tuple[str, ...] = tuple(colour for colour, count in CUP.items() for _ in range(count))
"""The cup at the start of a turn, one colour name per die."""

_BOT_SEED_OFFSET = 1 << 64
"""Added to a game's dice seed to seed its bot, so the two streams never share a seed."""


@dataclass
class GameResult:
    """Outcome of one game."""

    scores: list[int]
    """Banked total by seat."""
    winners: list[int]
    """Winning seats (one seat: tiebreak rounds are played until the lead is not shared)."""
    actions: int
    """Number of roll/stop decisions taken (forced first rolls included)."""
    turns: int
    """Player turns played, tiebreak turns included."""


def _random_turn(rnd: Callable[[], float], bot: Callable[[], float]) -> tuple[int, int]:
    """Play one turn with the uniform random policy; return ``(dinos banked, actions)``.

    ``rnd`` is the dice generator's ``random`` method and ``bot`` the bot generator's: the
    bot picks uniformly from the list of legal actions, as the engine's random bot does.
    Written plainly (strings for faces and actions, a list for the cup): it is the yardstick
    an interpreted ruleset is measured against, not a contest in micro-optimisation.
    """
    cup = list(_FULL_CUP)
    hand: list[str] = []  # colours of the dice showing leaves
    caught = 0
    stomped = 0
    actions = 0
    legal = ["roll"]  # the first action of a turn must be a roll
    while True:
        actions += 1
        if legal[int(bot() * len(legal))] == "stop":
            return caught, actions
        for _ in range(min(3 - len(hand), len(cup))):
            hand.append(cup.pop(int(rnd() * len(cup))))
        leaves = []
        for colour in hand:
            face = DIE_FACES[colour][int(rnd() * 6)]
            if face == DINO:
                caught += 1
            elif face == FOOTPRINT:
                stomped += 1
            else:
                leaves.append(colour)
        if stomped >= 3:
            return 0, actions
        hand = leaves
        if not cup and len(hand) < 3:
            return caught + len(hand), actions  # found all the dinosaurs: no roll is left
        legal = ["roll", "stop"]


def play_random_turn(dice_rng: random.Random, bot_rng: random.Random) -> tuple[int, int]:
    """Play one turn with the uniform random policy; return ``(dinos banked, actions)``."""
    return _random_turn(dice_rng.random, bot_rng.random)


def play_random_game(
    players: int, goal: int, dice_rng: random.Random, bot_rng: random.Random
) -> GameResult:
    """Play one game in which every seat uses the uniform random policy."""
    if players < 1:
        raise ValueError(f"players must be at least 1, got {players}")
    rnd = dice_rng.random
    bot = bot_rng.random
    turn = _random_turn
    scores = [0] * players
    seats = range(players)
    actions = 0
    turns = 0
    while True:
        for seat in seats:
            banked, n = turn(rnd, bot)
            scores[seat] += banked
            actions += n
        turns += players
        if max(scores) >= goal:
            break
    best = max(scores)
    leaders = [seat for seat in seats if scores[seat] == best]
    while len(leaders) > 1:  # tiebreak round: only the leaders play
        for seat in leaders:
            banked, n = turn(rnd, bot)
            scores[seat] += banked
            actions += n
        turns += len(leaders)
        best = max(scores[seat] for seat in leaders)
        leaders = [seat for seat in leaders if scores[seat] == best]
    return GameResult(scores=scores, winners=leaders, actions=actions, turns=turns)


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """Seeds ``(dice, bot)`` of game ``index`` of a ``simulate`` run with ``seed``."""
    dice_seed = seed * 1_000_003 + index
    return dice_seed, dice_seed + _BOT_SEED_OFFSET


def simulate(players: int, games: int, seed: int, goal: int = 20) -> dict[str, Any]:
    """Play ``games`` random games and summarise them.

    Keys: ``ruleset``, ``players``, ``games``, ``seconds``, ``games_per_second``,
    ``actions_per_second``, ``wins`` (by seat; a shared win counts for each winner),
    ``mean_scores`` (by seat) and ``mean_turns`` (player turns per game).
    """
    if games < 0:
        raise ValueError(f"games must not be negative, got {games}")
    wins = [0] * players
    score_sums = [0] * players
    total_actions = 0
    total_turns = 0
    rng_cls = random.Random
    start = time.perf_counter()
    for i in range(games):
        dice_seed, bot_seed = game_seeds(seed, i)
        result = play_random_game(players, goal, rng_cls(dice_seed), rng_cls(bot_seed))
        for seat in result.winners:
            wins[seat] += 1
        for seat, score in enumerate(result.scores):
            score_sums[seat] += score
        total_actions += result.actions
        total_turns += result.turns
    seconds = time.perf_counter() - start
    per_game = 1 / games if games else 0.0
    return {
        "ruleset": RULESET,
        "players": players,
        "games": games,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
        "actions_per_second": total_actions / seconds if seconds > 0 else 0.0,
        "wins": wins,
        "mean_scores": [s * per_game for s in score_sums],
        "mean_turns": total_turns * per_game,
    }


# --- exact odds ---------------------------------------------------------------------------

_FOOTPRINT_CHANCE: dict[str, Fraction] = {
    colour: Fraction(faces.count(FOOTPRINT), len(faces)) for colour, faces in DIE_FACES.items()
}


def _draws(cup: dict[str, int], left: int) -> Iterator[tuple[list[str], Fraction]]:
    """Every ordered draw of ``left`` dice from ``cup``, with its probability."""
    if left == 0:
        yield [], Fraction(1)
        return
    total = sum(cup.values())
    for colour, count in cup.items():
        if not count:
            continue
        cup[colour] = count - 1
        for rest, p in _draws(cup, left - 1):
            yield [colour, *rest], Fraction(count, total) * p
        cup[colour] = count


def _chance_at_least(dice: Sequence[str], stomps_needed: int) -> Fraction:
    """Chance that rolling ``dice`` shows at least ``stomps_needed`` footprints."""
    dist = [Fraction(1)]  # dist[k]: chance of exactly k footprints so far
    for colour in dice:
        p = _FOOTPRINT_CHANCE[colour]
        nxt = [Fraction(0)] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return sum(dist[stomps_needed:], Fraction(0))


def bust_chance_exact(hand: Sequence[str], cup: Mapping[str, int], stomps: int) -> Fraction:
    """Exact form of ``bust_chance``, as a ``Fraction``."""
    if not 0 <= stomps < 3:
        raise ValueError(f"stomps must be 0, 1 or 2 while the turn goes on, got {stomps}")
    if len(hand) > 3:
        raise ValueError(f"at most 3 leaves can be in hand, got {len(hand)}")
    for colour in [*hand, *cup]:
        if colour not in DIE_FACES:
            raise ValueError(f"unknown die colour {colour!r}")
    if any(count < 0 for count in cup.values()):
        raise ValueError(f"cup counts must not be negative: {dict(cup)}")
    need = 3 - len(hand)
    in_cup = sum(cup.values())
    if need and not in_cup:
        return Fraction(0)  # found all the dinosaurs: no roll, no stomp
    chance = Fraction(0)
    for drawn, p_draw in _draws(dict(cup), min(need, in_cup)):
        chance += p_draw * _chance_at_least([*hand, *drawn], 3 - stomps)
    return chance


def bust_chance(hand: list[str], cup: dict[str, int], stomps: int) -> float:
    """Probability that choosing ``roll`` now ends the turn with 3 stomps.

    ``hand`` lists the colours of the leaves dice in hand, ``cup`` the colour counts left in
    the cup, ``stomps`` the stomps so far (0-2). Computed exactly by enumerating the draws
    and the faces; 0 when the roll would be "found all the dinosaurs".
    """
    return float(bust_chance_exact(hand, cup, stomps))
