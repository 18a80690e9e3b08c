"""Scenarios: leading forces feed the game's own setup, `setup` states a position, a ruleset
folder is checked through its scenarios, and steps act for the seat the game waits on."""

from __future__ import annotations

import io
import shutil
import textwrap
from pathlib import Path

import pytest
from helpers import FIXTURES, ROOT

from dinotable.check import run_check, run_scenario
from dinotable.ruleset import LoadError
from dinotable.scenarios import load_scenario

SETUP_FIXTURE = FIXTURES / "good_rulesets" / "fixture_setup"


def scenario(folder: Path, text: str, name: str = "s.yaml") -> Path:
    """Write a scenario file and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


@pytest.fixture
def setup_ruleset(tmp_path: Path) -> Path:
    """A copy of fixture_setup without its scenarios, for scenarios written by a test."""
    folder = tmp_path / "fixture_setup"
    shutil.copytree(SETUP_FIXTURE, folder, ignore=shutil.ignore_patterns("scenarios"))
    return folder


def check(*paths: Path | str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run_check([str(p) for p in paths], out, err)
    return status, out.getvalue(), err.getvalue()


def run(path: Path) -> tuple[bool, str]:
    result = run_scenario(load_scenario(path))
    return result.passed, result.reason


# --- leading forces --------------------------------------------------------------------

PRIZE = """
name: the opening prize
ruleset: fixture_setup
players: [Ann, Ben]
steps:
  - force: [{first}]
  - expect: {{state: {{zones.prize.{want}: 1}}}}
"""


@pytest.mark.parametrize("kind", ["gold", "lead"])
def test_a_leading_force_pins_the_draw_of_the_first_rounds_start(setup_ruleset: Path,
                                                                  kind: str) -> None:
    path = scenario(setup_ruleset / "scenarios", PRIZE.format(first=kind, want=kind))
    assert run(path) == (True, "")


def test_the_opening_draw_takes_the_leading_force_not_a_seeded_one(setup_ruleset: Path) -> None:
    other = {"gold": "lead", "lead": "gold"}
    for kind in ("gold", "lead"):
        path = scenario(setup_ruleset / "scenarios", PRIZE.format(first=kind, want=other[kind]))
        passed, reason = run(path)
        assert not passed
        assert f"zones.prize.{other[kind]} = 1, got 0" in reason


def test_a_leading_force_the_setup_has_no_use_for_is_left_for_the_first_action() -> None:
    # Dino Hunt Dice's setup has no chance: its scenarios open with the first roll's forces.
    path = ROOT / "rulesets/dino_hunt_dice/scenarios" / (
        "a_later_player_in_the_last_round_can_overtake.yaml")
    assert load_scenario(path).steps[0].kind == "force"
    assert run(path) == (True, "")


def test_an_impossible_leading_force_fails_while_setting_up(setup_ruleset: Path) -> None:
    path = scenario(setup_ruleset / "scenarios", PRIZE.format(first="silver", want="gold"))
    passed, reason = run(path)
    assert not passed
    assert "setting up the game" in reason and "'silver'" in reason


# --- setup ---------------------------------------------------------------------------

def test_setup_places_zones_players_and_game_after_the_games_own_set_up(
        setup_ruleset: Path) -> None:
    path = scenario(setup_ruleset / "scenarios", """
        name: a position by hand
        ruleset: fixture_setup
        players: [Ann, Ben]
        setup:
          zones: {bag: [gold]}
          players:
            Ben: {points: 1, lucky: true, zones: {won: [lead, lead]}}
          game: {prizes_left: 1}
        steps:
          - force: [lead]
          - expect:
              scores: {Ann: 0, Ben: 1}
              state: {zones.bag.size: 1, zones.bag.gold: 1, zones.prize.lead: 1,
                      zones.won.Ben.lead: 2, zones.won.Ann.size: 0, players.Ben.lucky: true,
                      game.prizes_left: 1}
    """)
    # The first round's draw is the game's own set-up, so it came first (the forced lead);
    # the position then gave the bag exactly the listed gold.
    assert run(path) == (True, "")


def test_setup_of_the_cup_decides_which_dice_dino_hunt_dice_draws(tmp_path: Path) -> None:
    path = scenario(tmp_path, """
        name: a cup of two red dice and a yellow
        ruleset: dino_hunt_dice
        players: [Ann, Ben]
        setup: {zones: {cup: [red, yellow, red]}}
        steps:
          - force: [red, red, yellow, leaves, leaves, leaves]
          - act: roll
          - expect: {state: {zones.cup.size: 0, turn.rolled: true}}
          - expect: {state: {zones.hand.red: 2, zones.hand.yellow: 1, zones.hand.green: 0}}
    """)
    assert run(path) == (True, "")


def test_setup_items_named_by_id_go_in_the_listed_order_top_first(tmp_path: Path) -> None:
    path = scenario(tmp_path, """
        name: ids in order
        ruleset: dino_hunt_dice
        players: [Ann, Ben]
        setup: {zones: {caught: [red2, green5, yellow1]}}
        steps:
          - expect: {state: {zones.caught.items: [red2, green5, yellow1], zones.cup.size: 7}}
    """)
    assert run(path) == (True, "")


def setup_problems(tmp_path: Path, setup: str, ruleset: str = "dino_hunt_dice") -> list[str]:
    """The problems of a scenario whose `setup:` (line 4) holds the given lines."""
    body = textwrap.indent(textwrap.dedent(setup).strip(), "  ")
    path = tmp_path / "s.yaml"
    tmp_path.mkdir(parents=True, exist_ok=True)
    path.write_text(f"name: bad setup\nruleset: {ruleset}\nplayers: [Ann, Ben]\nsetup:\n"
                    f"{body}\nsteps:\n  - expect: {{game_over: false}}\n", encoding="utf-8")
    with pytest.raises(LoadError) as caught:
        load_scenario(path)
    return [str(p) for p in caught.value.problems]


def test_setup_unknown_zone_is_reported_at_its_line_with_did_you_mean(tmp_path: Path) -> None:
    problems = setup_problems(tmp_path, "zones: {cupp: [red]}")
    assert len(problems) == 1
    assert problems[0].startswith(f"{tmp_path / 's.yaml'}:5:")
    assert "unknown zone 'cupp'" in problems[0] and "did you mean 'cup'" in problems[0]


def test_setup_unknown_kind_is_reported_at_its_line_and_never_invented(tmp_path: Path) -> None:
    problems = setup_problems(tmp_path, "zones:\n  cup: [red, blue]")
    assert len(problems) == 1
    assert ":6:" in problems[0] and "setup.zones.cup[1]" in problems[0]
    assert "unknown item or item kind 'blue'" in problems[0]


def test_setup_more_cards_of_a_kind_than_the_deck_has_are_made(tmp_path: Path) -> None:
    # The scenario format's own example: the deck has one Tyrannosaurus Rex, the position two.
    path = scenario(tmp_path, """
        name: two of a card the deck has once
        ruleset: dino_hunt
        players: [Ann, Ben]
        setup:
          zones: {dino_deck: [tyrannosaurus_rex, tyrannosaurus_rex]}
          players:
            Ann: {zones: {hand: [misfire]}}
        steps:
          - force: [lucky_shot, jet_pack, 4, 2, steady_aim]
          - expect:
              state: {track.late_cretaceous: 2, deck: 0,
                      players.Ann.zones.hand.items: [misfire, steady_aim]}
    """)
    assert run(path) == (True, "")


def test_setup_more_dice_of_a_kind_than_the_game_has_is_reported(tmp_path: Path) -> None:
    problems = setup_problems(tmp_path, "zones:\n  cup: [red, red]\n  hand: [red]")
    assert len(problems) == 1
    assert ":7:" in problems[0] and "setup.zones.hand[0]" in problems[0]
    assert "no 'red' is left" in problems[0] and "has 2" in problems[0]


def test_setup_unknown_variables_and_players_are_reported_with_did_you_mean(
        tmp_path: Path) -> None:
    problems = setup_problems(tmp_path, """
        players:
          Ann: {bankd: 3}
          Bne: {banked: 1}
        game: {goal: 3}
    """)
    assert len(problems) == 3
    assert ":6:" in problems[0] and "unknown player variable 'bankd'" in problems[0]
    assert "did you mean 'banked'" in problems[0]
    assert ":7:" in problems[1] and "no player 'Bne'" in problems[1]
    assert "did you mean 'Ben'" in problems[1]
    assert ":8:" in problems[2] and "unknown game variable 'goal'" in problems[2]


def test_setup_a_shared_zone_under_a_player_and_a_wrong_value_type_are_reported(
        tmp_path: Path) -> None:
    problems = setup_problems(tmp_path, """
        players:
          Ann: {banked: many, zones: {cup: [red]}}
    """)
    assert len(problems) == 2
    assert "starting value 0" in problems[0]
    assert "cup is shared" in problems[1]


def test_setup_a_players_own_zone_listed_as_shared_is_reported(setup_ruleset: Path) -> None:
    problems = setup_problems(setup_ruleset / "scenarios", "zones: {won: [gold]}",
                              ruleset="fixture_setup")
    assert len(problems) == 1 and "won is each player's own zone" in problems[0]


# --- check on a folder -----------------------------------------------------------------

def test_check_of_a_shipped_ruleset_folder_runs_its_scenarios_and_lessons() -> None:
    folder = ROOT / "rulesets" / "dinosaur_dice"
    status, out, err = check(folder)
    count = len([*(folder / "scenarios").rglob("*.yaml"), *(folder / "lessons").rglob("*.yaml")])
    assert (folder / "lessons").is_dir()
    assert (status, err) == (0, "")
    assert out.splitlines()[-1] == f"{count} passed, 0 failed"


def test_check_of_a_fixture_ruleset_folder_resolves_its_scenarios_to_that_folder() -> None:
    status, out, err = check(SETUP_FIXTURE)
    assert (status, err) == (0, "")
    assert out.splitlines()[-1] == "2 passed, 0 failed"


def test_check_of_a_folder_of_rulesets_reads_no_rules_file_as_a_scenario() -> None:
    status, out, err = check(ROOT / "rulesets")
    shipped = len([*(ROOT / "rulesets").glob("*/scenarios/**/*.yaml"),
                   *(ROOT / "rulesets").glob("*/lessons/**/*.yaml")])
    assert (status, err) == (0, "")
    assert out.splitlines()[-1] == f"{shipped} passed, 0 failed"


# --- who acts --------------------------------------------------------------------------

def test_an_act_with_player_acts_as_that_player(tmp_path: Path) -> None:
    path = scenario(tmp_path, """
        name: acting as another seat
        ruleset: dino_hunt_dice
        players: [Ann, Ben]
        steps:
          - act: {id: roll, player: Ben, illegal: true}
          - force: [green, green, green, dino, dino, dino]
          - act: {id: roll, player: Ann}
          - expect: {current_player: Ann, legal: [roll, stop]}
    """)
    assert run(path) == (True, "")
