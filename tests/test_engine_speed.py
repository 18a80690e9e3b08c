"""What keeps the engine quick, held as ratios taken in one run (never a clock limit) and as
the listings the speed-ups must leave exactly as they were.

- Dino Hunt Dice played by the engine, beside the plain hand-written version, in turns.
- A `faces_of` choice is listed once per tray: the multisets, fewest dice first and then in
  the order of their faces, are the ones every product of counts sorted would give.
- A response window's reactions are worked out once per decision: the list the window found
  for the seat it asks is the legal list, not worked out again.
"""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

from helpers import danger_at_a_reroll
from hypothesis import given, settings
from hypothesis import strategies as st

import dinotable.engine.decide as decide
from dinotable.engine import apply, legal_actions, new_game, waiting_on
from dinotable.engine.multisets import _multisets
from dinotable.reference import dino_hunt_dice as handwritten
from dinotable.ruleset import load_by_id
from dinotable.sim import simulate


def test_the_engine_plays_dino_hunt_dice_at_a_fair_share_of_the_hand_written_speed() -> None:
    rules = load_by_id("dino_hunt_dice")
    engine: list[float] = []
    hand: list[float] = []
    for seed in range(1, 4):  # in turns, so a busy machine slows both alike
        engine.append(simulate(rules, 3, 300, seed, ["random"])["games_per_second"])
        hand.append(handwritten.simulate(3, 300, seed)["games_per_second"])
    # About 0.4 on a quiet machine; well under half of that means the engine lost its way.
    assert max(engine) / max(hand) > 0.15, (engine, hand)


def _sorted_products(shown: list[tuple[str, int]], low: int, high: int,
                     rank: dict[str, int]) -> tuple[tuple[str, ...], ...]:
    found = [tuple(f for (f, _), k in zip(shown, takes, strict=True) for _ in range(k))
             for takes in itertools.product(*(range(n + 1) for _, n in shown))
             if low <= sum(takes) <= high]
    found.sort(key=lambda v: (len(v), [rank.get(f, len(rank)) for f in v]))
    return tuple(found)


FACES = ["labor", "tool", "bone", "meat", "fur", "idea", "dinosaur"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(FACES), st.integers(1, 5)), max_size=6,
                unique_by=lambda t: t[0]),
       st.integers(0, 12), st.integers(0, 12), st.booleans())
def test_faces_of_lists_every_multiset_in_the_order_sorting_would_give(
        shown: list[tuple[str, int]], low: int, high: int, unranked: bool) -> None:
    rank = {f: i for i, f in enumerate(FACES)}
    if unranked:  # faces no die declares share one rank: sorted stably as they fall
        rank = {f: i for i, f in enumerate(FACES[:3])}
    shown = sorted(shown, key=lambda t: (rank.get(t[0], len(rank)), t[0]))
    assert _multisets(shown, low, high, rank) == _sorted_products(shown, low, high, rank)


def test_a_tray_met_again_is_listed_from_what_was_kept() -> None:
    state = danger_at_a_reroll(3)
    domain = next(a for a in state.rules.actions["reroll"].args).values.__self__
    first = list(legal_actions(state))

    def listing(clear: bool) -> float:
        if clear:
            domain._listed.clear()
            state.rules.memo.pop(("made_lists", waiting_on(state), "reroll"), None)
        state.version += 1  # the legal list is worked out afresh, as after a move
        start = time.perf_counter()
        again = legal_actions(state)
        took = time.perf_counter() - start
        assert again == first  # the same moves, in the same order, either way
        return took

    cold = [listing(True) for _ in range(30)]
    warm = [listing(False) for _ in range(30)]
    assert min(warm) < 0.8 * min(cold), (min(warm), min(cold))


def test_a_window_asks_the_legal_list_it_found_and_does_not_work_it_out_again(
        monkeypatch: Any) -> None:
    rules = load_by_id("dino_hunt")
    calls: list[int] = []
    listed = decide.window_actions

    def counting(state: Any, seat: int, wid: str, sampler: Any = None,
                 common: Any = None) -> Any:
        calls.append(seat)
        return listed(state, seat, wid, sampler, common)

    monkeypatch.setattr(decide, "window_actions", counting)
    rng = random.Random(5)
    asked = 0
    for seed in range(1, 6):
        state = new_game(rules, ["Ann", "Ben", "Cat", "Dee"], None, seed)
        while not state.game_over:
            calls.clear()
            legal = legal_actions(state)
            if state.pending and state.pending[-1]["kind"] == "window":
                asked += 1
                assert calls == [], "the window's list was worked out a second time"
                assert legal == [*listed(state, legal[0].player, state.pending[-1]["window"]),
                                 legal[-1]]
            calls.clear()
            apply(state, legal[int(rng.random() * len(legal))], False)
            # A move that opens a window (or passes it on) asks each seat once: the seat
            # found able to answer is not asked again as the move settles.
            assert len(calls) == len(set(calls)), calls
    assert asked > 10  # windows did open and ask
