"""The `search` bot: it reads only what its seat may see, picks legal moves, finds the move
that plainly wins, keeps to its time budget; and `simulate --jobs` changes nothing but speed."""

from __future__ import annotations

import json
import random
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, last_json_line, run_cli

from dinotable.bots import POLICIES, search
from dinotable.bots.search import STRENGTHS, Strength
from dinotable.engine import (
    Action,
    GameState,
    Rules,
    apply,
    legal_actions,
    new_game,
    seen_state,
)
from dinotable.ruleset import find_ruleset, installed_rulesets, load_by_id, load_ruleset
from dinotable.sim import simulate

# Small budgets keep the tests quick; the time limit is far off so the playouts decide. It
# heeds the hints, so their advice too is read from the seat's view only.
QUICK = Strength("quick", 25, 5.0, 4, 30, 1, heed=True)


class Poisoned:
    """Stands for the game itself: any look at it fails the test."""

    def __getattribute__(self, name: str) -> Any:
        raise AssertionError(f"the bot read the game itself (.{name}), not its seat's view")


def _played(rules: Rules, players: int, seed: int, moves: int) -> GameState:
    """A game some random moves in."""
    state = new_game(rules, [f"P{i + 1}" for i in range(players)], None, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.game_over:
            break
        legal = legal_actions(state)
        apply(state, legal[int(rng.random() * len(legal))], False)
    return state


def test_search_reads_the_game_once_as_its_seat_sees_it_and_changes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = _played(load_by_id("dino_hunt"), 3, 4, 30)
    legal = legal_actions(real)
    seat = legal[0].player
    view = seen_state(real, seat)
    assert view is not real  # Dino Hunt hides hands and decks: the view is a blanked copy
    before_view, before_real = view.to_dict(), real.to_dict()
    poisoned = Poisoned()
    asked: list[int | None] = []

    def seen(state: Any, who: int | None) -> GameState:
        assert state is poisoned
        asked.append(who)
        return view

    monkeypatch.setattr(search, "seen_state", seen)
    action = search.search(poisoned, legal, random.Random(1), QUICK)  # type: ignore[arg-type]
    assert asked == [seat]
    assert action in legal
    assert view.to_dict() == before_view  # every playout ran on a copy
    assert real.to_dict() == before_real


def test_imagined_worlds_keep_what_the_seat_sees_and_deal_only_unseen_cards_elsewhere() -> None:
    rules = load_by_id("dino_hunt")
    real = _played(rules, 3, 7, 80)
    knowledge = search._Knowledge(seen_state(real, 0), 0)
    specials = {kind for kind, _ in rules.zones["special_deck"].start_items}

    def ids(state: GameState, zone: str, seat: int) -> list[str]:
        return [state.items[i].id for i in state.zone(zone, seat)]

    rivals = sorted(ids(real, "hand", 1) + ids(real, "hand", 2))
    assert rivals  # the rivals hold cards the seat cannot see
    imagined_otherwise = False
    for k in range(20):
        world = knowledge.deal(random.Random(k))
        assert ids(world, "hand", 0) == ids(real, "hand", 0)
        assert ids(world, "bonuses", 0) == ids(real, "bonuses", 0)
        assert sorted(it.id for it in world.items) == sorted(it.id for it in real.items)
        assert all(world.item_ids[it.id] == i for i, it in enumerate(world.items))
        for seat in (1, 2):  # a special card's back shows it is a special
            assert all(world.items[i].kind in specials for i in world.zone("hand", seat))
        imagined_otherwise |= sorted(ids(world, "hand", 1) + ids(world, "hand", 2)) != rivals
    assert imagined_otherwise


def _rulesets() -> list[Rules]:
    fixtures = [load_ruleset(FIXTURES / "good_rulesets" / name)
                for name in ("fixture_hand", "fixture_respond", "fixture_yacht")]
    return [load_ruleset(folder) for folder in installed_rulesets()] + fixtures


@pytest.mark.parametrize("rules", _rulesets(), ids=lambda r: r.id)
def test_search_only_ever_picks_a_legal_action(rules: Rules) -> None:
    players = max(rules.min_players, min(3, rules.max_players))
    state = new_game(rules, [f"P{i + 1}" for i in range(players)], None, 3)
    rng = random.Random(3)
    for _ in range(12):
        if state.game_over:
            break
        legal = legal_actions(state)
        action = search.search(state, legal, rng, QUICK)
        assert action in legal
        apply(state, action)


def _force(state: GameState, *outcomes: str) -> None:
    state.chance.force(list(outcomes))


def _last_turn_lead(rules: Rules) -> GameState:
    """Dino Hunt Dice, the last turn: Ben leads 6 to 5 with two stomps, so a stop wins and a
    roll risks the third stomp for nothing."""
    state = new_game(rules, ["Ann", "Ben"], {"goal": 5}, 1)
    roll, stop = Action(0, "roll"), Action(0, "stop")
    _force(state, "green", "green", "green", "dino", "dino", "dino")
    apply(state, roll)
    _force(state, "green", "green", "yellow", "dino", "dino", "leaves")
    apply(state, roll)
    apply(state, stop)  # Ann banks 5: the goal; Ben plays the last turn of the last round
    roll, stop = Action(1, "roll"), Action(1, "stop")
    _force(state, "green", "green", "green", "dino", "dino", "footprint")
    apply(state, roll)
    _force(state, "green", "yellow", "red", "dino", "dino", "footprint")
    apply(state, roll)
    _force(state, "green", "yellow", "yellow", "dino", "dino", "leaves")
    apply(state, roll)
    assert state.last_round and state.current == 1
    assert state.player_vars[0]["banked"] == 5
    assert len(state.zone("caught", 1)) == 6 and len(state.zone("stomped", 1)) == 2
    return state


def test_search_stops_when_stopping_wins_at_once_and_rolling_risks_the_third_stomp(
        dhd: Rules) -> None:
    state = _last_turn_lead(dhd)
    for seed in range(3):
        assert search.search(state, legal_actions(state), random.Random(seed),
                             STRENGTHS["gentle"]) == Action(1, "stop")


def test_search_overrules_hints_that_are_plainly_wrong_and_keeps_sound_ones(
        tmp_path: Path) -> None:
    # The same last turn, with hints that always roll: playing on by them, a roll loses a
    # third of the time and a stop never does, so the search stops; with the shipped hints
    # (which stop here) it keeps to their advice.
    folder = tmp_path / "dino_hunt_dice"
    shutil.copytree(find_ruleset("dino_hunt_dice"), folder)
    text = (folder / "rules.yaml").read_text(encoding="utf-8")
    start = text.index("bots:\n")
    end = text.index("\n\n", start)
    (folder / "rules.yaml").write_text(
        text[:start] + "bots:\n  heuristic:\n    - {action: roll}" + text[end:],
        encoding="utf-8")
    rash = load_ruleset(folder)
    state = _last_turn_lead(rash)
    legal = legal_actions(state)
    assert POLICIES["heuristic"](state, legal, random.Random(0)) == Action(1, "roll")
    for seed in range(3):
        assert search.search(state, legal, random.Random(seed), STRENGTHS["fair"]) \
            == Action(1, "stop")
    sound = _last_turn_lead(load_by_id("dino_hunt_dice"))
    assert search.search(sound, legal_actions(sound), random.Random(0),
                         STRENGTHS["fair"]) == Action(1, "stop")


def test_search_rolls_on_past_the_goal_rather_than_hand_the_last_turn_an_easy_target(
        dhd: Rules) -> None:
    # Ann, first to play, reaches the goal of 5 with three dinos and no stomp; Ben has 4 and
    # the last turn. The hints bank at once, and Ben then needs two dinos to win, which he
    # nearly always finds; another roll almost never brings three stomps and makes Ben's
    # task harder. Played on by the hints, rolling wins about one game in seven more: a
    # search with playouts enough to be sure of that rolls on.
    state = new_game(dhd, ["Ann", "Ben"], {"goal": 5}, 1)
    _force(state, "green", "green", "green", "dino", "dino", "leaves")
    apply(state, Action(0, "roll"))
    apply(state, Action(0, "stop"))
    _force(state, "green", "green", "green", "dino", "dino", "dino")
    apply(state, Action(1, "roll"))
    _force(state, "green", "green", "yellow", "dino", "leaves", "leaves")
    apply(state, Action(1, "roll"))
    apply(state, Action(1, "stop"))
    _force(state, "green", "green", "green", "dino", "dino", "dino")
    apply(state, Action(0, "roll"))
    assert [v["banked"] for v in state.player_vars] == [2, 4] and not state.last_round
    legal = legal_actions(state)
    assert POLICIES["heuristic"](state, legal, random.Random(0)) == Action(0, "stop")
    keen = Strength("keen", 2000, 60.0, 0, 60, heed=True)
    for seed in range(3):
        assert search.search(state, legal, random.Random(seed), keen) == Action(0, "roll")


def test_search_banks_rather_than_roll_an_empty_cup_for_ever() -> None:
    # Fixture Dice: every die caught and the cup empty, a roll changes nothing and a stop
    # banks four; a search that weighed them alike could roll for ever.
    rules = load_ruleset(FIXTURES / "good_rulesets" / "fixture_dice")
    state = new_game(rules, ["Ann", "Ben"], None, 1)
    _force(state, "green", "green", "green", "dino", "dino", "dino")
    apply(state, Action(0, "roll"))
    _force(state, "green", "dino")
    apply(state, Action(0, "roll"))
    assert len(state.zone("caught", 0)) == 4 and not state.zone("cup", 0)
    for strength in (QUICK, STRENGTHS["gentle"], STRENGTHS["fair"]):
        assert search.search(state, legal_actions(state), random.Random(2),
                             strength) == Action(0, "stop")


def test_a_move_never_takes_longer_than_its_time_budget(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # Dino Hunt's playouts are long: a budget of countless playouts is cut by the clock.
    # The clock is the test's own, a playout taking 10 ms to 40 ms of it, so the budget is
    # checked whatever else this machine is doing (its speed is the bench's business).
    budget = Strength("tight", 10**9, 0.5, 40, 300, 0, heed=True)
    state = _played(load_by_id("dino_hunt"), 4, 2, 20)
    now = [100.0]
    steps = random.Random(1)

    def clock() -> float:
        now[0] += steps.choice((0.005, 0.01, 0.02))
        return now[0]

    monkeypatch.setattr(search, "_clock", clock)
    for seed in range(3):
        legal = legal_actions(state)
        assert len(legal) > 1  # a choice to think about
        start = now[0]
        action = search.search(state, legal, random.Random(seed), budget)
        assert now[0] - start <= budget.seconds + 0.02  # the last reading, as it returns
        assert now[0] - start >= budget.seconds - 0.1, "it used its time, not one playout"
        apply(state, action)


def test_every_strength_is_a_bot_policy_and_strengths_grow() -> None:
    assert {"search", "search:gentle", "search:sharp"} <= set(POLICIES)
    gentle, fair, sharp = STRENGTHS["gentle"], STRENGTHS["fair"], STRENGTHS["sharp"]
    assert gentle.playouts < fair.playouts < sharp.playouts
    assert gentle.seconds < fair.seconds < sharp.seconds


def test_simulate_on_two_processes_gives_the_summary_of_one(dhd: Rules) -> None:
    bots = ["search:gentle", "heuristic", "random"]
    one = simulate(dhd, 3, 8, 11, bots)
    two = simulate(dhd, 3, 8, 11, bots, jobs=2)
    timing = ("seconds", "games_per_second", "actions_per_second")
    assert {k: v for k, v in one.items() if k not in timing} == {
        k: v for k, v in two.items() if k not in timing}


def test_simulate_jobs_from_the_command_line() -> None:
    args = ("simulate", "dino_hunt_dice", "--games", "60", "--seed", "4", "--bots",
            "heuristic,random", "--json")
    one = run_cli(*args)
    two = run_cli(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0
    keep = ("wins", "mean_scores", "mean_turns")
    a, b = json.loads(last_json_line(one.stdout)), json.loads(last_json_line(two.stdout))
    assert {k: a[k] for k in keep} == {k: b[k] for k in keep}
    assert "[" not in two.stderr  # no progress bar when stderr is not a terminal
    for bad in ("0", "two", "-3"):
        done = run_cli("simulate", "dino_hunt_dice", "--jobs", bad)
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "--jobs" in lines[0]


def test_every_bot_policy_can_be_chosen_at_set_up_and_kept_in_a_save() -> None:
    from dinotable.saves import SEAT_KINDS
    from dinotable.scenes.setup import KIND_LABELS
    from dinotable.scenes.setup import SEAT_KINDS as SETUP_KINDS

    assert set(POLICIES) | {"human"} == set(SEAT_KINDS) == set(SETUP_KINDS)
    assert [KIND_LABELS[k] for k in ("search:gentle", "search", "search:sharp")] == [
        "Bot (gentle)", "Bot (fair)", "Bot (sharp)"]


def test_a_searching_bot_thinks_aside_while_the_table_keeps_drawing(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from test_table_layout import FRAME, table_for

    # A search that thinks until the test lets it answer: however fast this machine is,
    # the frames drawn meanwhile are counted.
    release = threading.Event()

    def thinking(state: GameState, legal: list[Action], rng: random.Random) -> Action:
        release.wait(30)
        return legal[0]

    monkeypatch.setitem(POLICIES, "search:sharp", thinking)
    table = table_for(app, load_by_id("dino_hunt_dice"), ["search:sharp", "human"])
    frames = 0
    words = set()
    for _ in range(600):
        app.step([], FRAME)  # returns at once, the search going on in its thread
        thought = table.session.thinking
        if thought is not None and thought.is_alive():
            frames += 1
            words.add(table.what_to_do())
            if frames == 5:
                release.set()
        if table.state.log:
            break
        time.sleep(0.005)
    assert frames >= 5, "the window went on while the bot thought"
    assert any("is thinking" in w for w in words), words
    assert [a.player for a in table.state.log] == [0], "the bot's move was taken"


def test_a_thought_about_a_position_the_game_has_left_is_dropped() -> None:
    from dinotable.table.session import Seat, TableSession

    rules = load_by_id("dino_hunt_dice")
    session = TableSession(rules, [Seat("Ann", "search", 0), Seat("Ben", "search", 1)],
                           {}, 3, saving=False)
    session.take(session.bot_action())  # the first roll: now roll on or stop
    assert len(legal_actions(session.state)) > 1
    assert session.bot_move() is None  # thinking
    first = session.thinking
    session.take(session.bot_action())  # the game moves on meanwhile (a hurried move)
    moved = len(session.state.log)
    action = None
    while action is None:
        action = session.bot_move()
        time.sleep(0.01)
    assert first is not None and first.key[0] == 1 and moved == 2
    assert action in legal_actions(session.state) and len(session.state.log) == moved


def test_a_weighing_looks_no_further_than_its_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    # A card game runs hundreds of moves: fair and sharp weigh a move by the lead a round or
    # two on, where the moves still differ, not by a long guess at the far end. Every
    # position the hints are asked about lies within that many rounds of the move.
    from dinotable import bots

    rules = load_by_id("dino_hunt")
    state = _played(rules, 2, 3, 12)
    legal = legal_actions(state)
    asked: list[int] = []
    hints = bots.heuristic_policy

    def noting(world: GameState, moves: list[Action], rng: random.Random) -> Action:
        asked.append(world.round)
        return hints(world, moves, rng)

    monkeypatch.setattr(bots, "heuristic_policy", noting)
    far = Strength("far", 4, 60.0, 0, 400, 1, heed=True)
    near = Strength("near", 4, 60.0, 0, 400, 1, heed=True, rounds=2)
    search._judge(search._Knowledge(seen_state(state, legal[0].player), legal[0].player),
                  legal[0], 7, far, search._Scale(), [0])
    assert max(asked) > state.round + 2  # unbounded, the weighing plays on well past
    asked.clear()
    search._judge(search._Knowledge(seen_state(state, legal[0].player), legal[0].player),
                  legal[0], 7, near, search._Scale(), [0])
    assert asked and max(asked) <= state.round + 1  # this round, then one more
    assert STRENGTHS["fair"].rounds and STRENGTHS["sharp"].rounds


def test_a_choice_among_dozens_weighs_every_kind_of_move_and_a_sample_of_the_rest() -> None:
    # Thirty sets of dice to throw again, a stop and a claim: fair cannot weigh them all
    # often enough to tell, so it weighs the stop, the claim and a sample of the sets.
    others = [Action(0, "reroll", (("dice", ("food",) * n),)) for n in range(30)]
    others += [Action(0, "stop"), Action(0, "claim", (("card", "spear"),))]
    fair = STRENGTHS["fair"]
    chosen = search._rivals(others, fair, random.Random(1))
    assert Action(0, "stop") in chosen and Action(0, "claim", (("card", "spear"),)) in chosen
    assert 3 <= len(chosen) < len(others)
    assert fair.playouts // (len(chosen) + 1) >= 2 * search.FEWEST  # each weighed enough
    assert chosen == [a for a in others if a in chosen]
    assert search._rivals(others[-4:], fair, random.Random(1)) == others[-4:]


def _weighings(monkeypatch: pytest.MonkeyPatch, ruleset: str, decisions: int) -> list[int]:
    """The playouts fair spent on each of its first decisions in a game of the ruleset."""
    counted = [0]
    judge = search._judge

    def counting(*args: Any) -> Any:
        counted[0] += 1
        return judge(*args)

    monkeypatch.setattr(search, "_judge", counting)
    state = new_game(load_by_id(ruleset), ["Ann", "Ben"], None, 5)
    rng = random.Random(3)
    spent: list[int] = []
    with search.unclocked():
        while not state.game_over and len(spent) < decisions:
            legal = legal_actions(state)
            counted[0] = 0
            action = POLICIES["search"](state, legal, rng)
            if len(legal) > 1:
                spent.append(counted[0])
            apply(state, action, False)
    return spent


def test_a_dice_game_is_weighed_past_the_playouts_a_card_game_stops_at(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A dice game's weighings list a choice or two a move, so the work budget lets fair
    # weigh its close calls with several times the playouts; Dino Hunt's list thousands of
    # choices and stop where they always did.
    fair = STRENGTHS["fair"]
    dice = _weighings(monkeypatch, "dino_hunt_dice", 30)
    assert max(dice) > 2 * fair.playouts
    assert max(dice) <= fair.most
    cards = _weighings(monkeypatch, "dino_hunt", 3)
    assert cards and max(cards) <= fair.playouts


def test_the_work_budget_adds_playouts_only_while_it_lasts() -> None:
    fair = STRENGTHS["fair"]
    assert search._affords(fair, fair.playouts, 10 ** 9)  # the playouts are always there
    assert not search._affords(fair, fair.playouts + 1, fair.work)
    assert search._affords(fair, fair.most, fair.work - 1)
    assert not search._affords(fair, fair.most + 1, 0)
    assert not search._affords(STRENGTHS["gentle"], STRENGTHS["gentle"].playouts + 1, 0)
