"""Dino Hunt, version 3: rivals' identical cards all take effect on one hunt (each player
plays one of a kind), a turn ends by itself once no Energy and nothing to play are left,
and the deck holds the cards its DECISIONS.md counts."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from dinotable.bots import POLICIES, search
from dinotable.bots.search import Strength
from dinotable.check import run_scenario
from dinotable.engine import GameState, apply, legal_actions, new_game, sample_action
from dinotable.ruleset import load_by_id
from dinotable.scenarios import load_scenario

FOLDER = Path(__file__).resolve().parent.parent / "rulesets" / "dino_hunt"
# Small search budgets keep the game quick; the playouts decide, not the clock.
QUICK = Strength("quick", 25, 5.0, 4, 30, 1, heed=True)
VERSION_3 = (
    "two_rivals_snapped_twigs_both_take_2_off_one_hunt_roll",  # 6 -> 4 -> 2
    "two_rivals_stun_rays_both_take_1_off_one_hunt_roll",  # 5 -> 4 -> 3
    "one_player_plays_one_snapped_twig_on_a_hunt_however_many_they_hold",
    "a_trip_that_spends_the_last_energy_ends_the_turn",
    "a_special_played_with_no_energy_left_ends_the_turn_once_it_is_done",
)


def _rules_file() -> dict[str, Any]:
    with open(FOLDER / "rules.yaml", encoding="utf-8") as f:
        data: dict[str, Any] = yaml.safe_load(f)
    return data


def _hunts(state: GameState) -> list[list[tuple[int, str]]]:
    """For each hunt in the log, the cards and Gadgets played on it: (seat, card kind)."""
    hunts: list[list[tuple[int, str]]] = []
    for action in state.log:
        args = dict(action.args)
        if action.id == "hunt":
            hunts.append([])
        elif action.id in ("play", "use") and hunts and args["card"] in ("snapped_twig",
                                                                           "stun_ray"):
            hunts[-1].append((action.player, str(args["card"])))
    return hunts


def _check_energy(state: GameState) -> None:
    """A player whose turn it is and who may end it is never left with no Energy and
    nothing to play: the turn would have ended by itself."""
    legal = {a.id for a in legal_actions(state)}
    seat = state.current
    if "end_turn" in legal and state.player_vars[seat]["energy"] <= 0:
        assert "play" in legal, (f"{state.players[seat]} has no Energy and nothing to play "
                                 f"but still has to press End turn")


def test_the_deck_holds_the_cards_its_decisions_count() -> None:
    data = _rules_file()
    items = data["items"]
    dinos = data["zones"]["dino_deck"]["start"]
    specials = data["zones"]["special_deck"]["start"]
    assert (len(dinos), sum(dinos.values())) == (66, 81)
    assert (len(specials), sum(specials.values())) == (20, 39)
    doubled = [kind for kind, n in dinos.items() if n == 2]
    assert len(doubled) == 15 and all(items[k]["diet"] == "herbivore" for k in doubled)
    assert set(dinos.values()) == {1, 2}
    by_sort: Counter[str] = Counter()
    for kind, n in specials.items():
        by_sort[items[kind]["sort"]] += n
    assert by_sort == {"one_use": 19, "gadget": 8, "expert": 6, "bonus": 6}
    assert all(items[k].get("copies", 1) == n for k, n in (dinos | specials).items())
    text = (FOLDER / "DECISIONS.md").read_text(encoding="utf-8")
    assert "## The deck: 120 cards" in text and "| Dinosaurs | 66 | 81 |" in text


@pytest.mark.parametrize("name", VERSION_3)
def test_each_rule_of_version_3_is_pinned_by_a_scenario_that_passes(name: str) -> None:
    outcome = run_scenario(load_scenario(FOLDER / "scenarios" / f"{name}.yaml"))
    assert outcome.passed, outcome.reason


def test_random_games_stack_rivals_twigs_never_one_players_and_never_strand_a_player(
) -> None:
    rules = load_by_id("dino_hunt")
    assert rules.version == 3
    stacked = 0
    for seed in range(12):
        state = new_game(rules, ["Ann", "Ben", "Cat"], {"length": "short"}, seed)
        rng = random.Random(seed)
        while not state.game_over:
            _check_energy(state)
            apply(state, sample_action(state, rng), False)
        for played in _hunts(state):
            assert len(played) == len(set(played)), played  # one of a kind per player
            kinds = Counter(kind for _, kind in played)
            stacked += any(n >= 2 for n in kinds.values())
    assert stacked > 0  # two rivals' identical cards did land on one hunt


def test_heuristic_and_search_bots_play_a_game_to_its_end() -> None:
    rules = load_by_id("dino_hunt")
    state = new_game(rules, ["Ann", "Ben", "Cat"], {"length": "short"}, 3)
    rng = random.Random(3)
    while not state.game_over:
        _check_energy(state)
        legal = legal_actions(state)
        seat = legal[0].player
        if seat == 0:
            action = search.search(state, legal, rng, QUICK)
        else:
            action = POLICIES["heuristic"](state, legal, rng)
        assert action in legal
        apply(state, action, False)
        assert len(state.log) < 1500
    assert state.winners and not state.pending
