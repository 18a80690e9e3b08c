"""How far the bots think: the playouts figure per game and strength, its fixed positions,
and a dealt world that is the world the seat's view allows, cheaper than reading it back."""

from __future__ import annotations

import random
import time
from typing import Any

from dinotable import bench_bots
from dinotable.bots import search
from dinotable.bots.search import Strength
from dinotable.engine import Chance, GameState, apply, legal_actions, seen_state
from dinotable.ruleset import load_by_id

# A budget small enough for a test: a few weighings, the clock far off.
TINY = Strength("tiny", 20, 30.0, 2, 10, 1, heed=True, rounds=1)
CELL = {"moves", "playouts_median", "playouts_mean", "playouts_fewest", "seconds_mean",
        "seconds_max", "cpu_ms_per_playout"}


def test_the_playouts_figure_has_each_strength_of_each_game_it_was_asked_for() -> None:
    figures = bench_bots.measure_playouts(["dino_hunt_dice", "dino_hunt"],
                                          counts={"fair": 1, "sharp": 1},
                                          budgets={"fair": TINY, "sharp": TINY})
    assert set(figures) == {"dino_hunt_dice", "dino_hunt"}
    for row in figures.values():
        assert row["players"] == bench_bots.PLAYERS
        for name in ("fair", "sharp"):
            assert set(row[name]) == CELL
            assert row[name]["moves"] == 1
            assert row[name]["playouts_fewest"] >= 1  # the weighings were counted
            assert 0 < row[name]["seconds_max"] < TINY.seconds
            assert row[name]["cpu_ms_per_playout"] > 0
    lines = bench_bots.playouts_lines(figures)
    assert [line.split(" ")[0] for line in lines] == ["dino_hunt_dice", "dino_hunt"]


def test_counting_leaves_the_search_as_it_found_it() -> None:
    before = (search._iterate, search._judge)
    with bench_bots._Counter(search) as counter:
        assert search._judge is not before[1]
    assert (search._iterate, search._judge) == before
    assert counter.count == 0


def test_the_positions_are_the_same_each_time_and_each_is_a_real_choice() -> None:
    rules = load_by_id("danger_danger_dinosaur")
    first = bench_bots.positions(rules, 3)
    again = bench_bots.positions(rules, 3)
    assert len(first) == 3
    assert [s.to_dict() for s in first] == [s.to_dict() for s in again]
    assert all(len(legal_actions(s)) > 1 and not s.game_over for s in first)
    assert len({len(s.log) for s in first}) > 1  # from different points of the game


def _read_back(knowledge: Any, rng: random.Random) -> GameState:
    """A world dealt by reading the seat's snapshot back, as the search once did."""
    data = dict(knowledge.snapshot)
    items = list(data["items"])
    for places, unseen in knowledge.deals:
        shuffled = unseen.copy()
        rng.shuffle(shuffled)
        for index, (iid, kind) in zip(places, shuffled, strict=False):
            items[index] = [iid, kind, None]
    data["items"] = items
    data["player_vars"] = knowledge.vars
    state = GameState.from_dict(knowledge.rules, data)
    state.chance = Chance(rng.getrandbits(62))
    return state


def _knowledge(ruleset: str) -> Any:
    state = bench_bots.positions(load_by_id(ruleset), 1)[0]
    seat = legal_actions(state)[0].player
    return search._Knowledge(seen_state(state, seat), seat)


def test_a_dealt_world_is_the_world_its_snapshot_reads_back_as_and_plays_alike() -> None:
    for ruleset in ("danger_danger_dinosaur", "dino_dude_ranch", "dino_hunt", "dino_hunt_dice"):
        knowledge = _knowledge(ruleset)
        assert knowledge.deals or ruleset == "dino_hunt_dice"  # hidden cards to deal
        template = knowledge.template.to_dict()
        for seed in range(3):
            dealt, read = knowledge.deal(random.Random(seed)), _read_back(
                knowledge, random.Random(seed))
            assert dealt.to_dict() == read.to_dict()
            assert dealt.item_ids == read.item_ids
            dice = random.Random(seed)
            for _ in range(40):  # a die turned in one world turns in no other
                if dealt.game_over:
                    break
                legal = legal_actions(dealt)
                assert legal == legal_actions(read)
                action = legal[int(dice.random() * len(legal))]
                apply(dealt, action, False)
                apply(read, action, False)
            assert dealt.to_dict() == read.to_dict()
        assert knowledge.template.to_dict() == template  # no world played on the view


def _best(run: Any, rounds: int = 7, number: int = 40) -> list[float]:
    """Each callable's best time over `rounds`, the callables taken in turn each round."""
    best = [float("inf")] * len(run)
    for _ in range(rounds):
        for i, fn in enumerate(run):
            began = time.perf_counter()
            for _ in range(number):
                fn()
            best[i] = min(best[i], time.perf_counter() - began)
    return best


def test_dealing_a_world_is_cheaper_than_reading_the_snapshot_back() -> None:
    # Every playout of fair and sharp begins with a dealt world: in a dice game, where a
    # playout is a few dozen moves, the deal was a third of its cost. Measured side by side.
    for ruleset in ("dino_hunt_dice", "dinosaur_dice"):
        knowledge = _knowledge(ruleset)
        rng = random.Random(1)
        dealt, read = _best([lambda k=knowledge, r=rng: k.deal(r),
                             lambda k=knowledge, r=rng: _read_back(k, r)])
        assert dealt < 0.9 * read, (ruleset, dealt / read)


def test_a_copied_game_is_the_game_read_back_and_plays_on_apart_from_it() -> None:
    state = bench_bots.positions(load_by_id("dino_dude_ranch"), 1)[0]
    before = state.to_dict()
    copied = state.copy()
    assert copied.to_dict() == GameState.from_dict(state.rules, before).to_dict() == before
    rng = random.Random(4)
    for _ in range(30):  # the copy's dice and cards are its own
        if copied.game_over:
            break
        legal = legal_actions(copied)
        apply(copied, legal[int(rng.random() * len(legal))], False)
    assert state.to_dict() == before
    assert copied.to_dict() != before
