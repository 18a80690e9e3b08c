"""Options that change the rules themselves: defaults and choices by number of players, a
board shaped by an option, teams switched on by an option; and a mistake in any of them is
one clear problem at its line. Their scenarios are in the fixture fixture_shapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dinotable.app import App
from dinotable.engine import GameState, legal_actions, new_game
from dinotable.ruleset import load_by_id, load_ruleset
from dinotable.scenes.setup import Seat, SetupScene
from dinotable.scenes.table import TableScene
from dinotable.table.chrome import PlayersPart
from tests.helpers import only_problem, write_rules

SHAPES = Path(__file__).resolve().parent / "fixtures" / "good_rulesets" / "fixture_shapes"
RANCH = Path(__file__).resolve().parent.parent / "rulesets" / "dino_dude_ranch"


def _spaces(state: GameState) -> list[str]:
    return [str(a.args[0][1]) for a in legal_actions(state) if a.id == "sow"]


def test_the_option_picks_the_board_and_a_saved_game_keeps_it() -> None:
    rules = load_ruleset(SHAPES)
    long = new_game(rules, ["Ann", "Ben"])
    short = new_game(rules, ["Ann", "Ben"], {"plot": "short"})
    assert _spaces(long) == ["a", "b", "c", "d", "e"]
    assert _spaces(short) == ["a", "b", "c"]
    restored = GameState.from_dict(rules, json.loads(json.dumps(short.to_dict())))
    assert _spaces(restored) == ["a", "b", "c"]
    assert rules.boards["field"].spaces == ("a", "b", "c", "d", "e"), "the rules stay as read"


def test_a_value_not_allowed_at_that_number_of_players_is_refused() -> None:
    rules = load_ruleset(SHAPES)
    with pytest.raises(ValueError, match=r"option pairs must be one of \[False\] with 2 "
                                         r"players, not True"):
        new_game(rules, ["Ann", "Ben"], {"pairs": True})
    # The usual default, filled in before the players were counted (as the command line
    # does), gives way to the default at that number of players.
    assert new_game(rules, ["Ann", "Ben", "Cat"], {"plot": "long"}).options["plot"] == "short"


def test_teams_are_on_only_with_their_option() -> None:
    rules = load_ruleset(SHAPES)
    assert new_game(rules, list("ABCD")).rules.teams == 0
    assert new_game(rules, list("ABCD"), {"pairs": True}).rules.teams == 2


def test_five_ranchers_play_by_night_on_eleven_spaces() -> None:
    rules = load_ruleset(RANCH)
    night = new_game(rules, list("ABCDE"), seed=3)
    assert night.options["board"] == "night"
    assert night.rules.boards["ranch"].spaces[-1] == "s11"
    assert night.rules.boards["ranch"].rows == 3, "eleven spaces in rows of five"
    assert new_game(rules, list("ABCD"), seed=3).rules.boards["ranch"].spaces[-1] == "s15"


BASE = """id: {rid}
name: Broken
version: 1
players: {players}
options:
  size_choice: {{default: big, choices: [big, small]{extra}}}
  pairs: {pairs}
properties: {{points: 0}}
items:
  seed: {{type: tile, copies: 10}}
zones:
  sack: {{holds: tiles, start: {{seed: 10}}}}
boards:
  field: {{per_player: true, spaces: [a, b], shape_option: {option}, shapes: {shapes}}}
score: 0
actions:
  go: {{effects: [{{end_turn: {{}}}}]{go}}}
end: {{trigger: "true"}}
"""


def _broken(tmp_path: Path, **change: str) -> tuple[str, str]:
    fill = {"rid": "broken", "players": "{min: 2, max: 4}", "extra": "", "pairs": "false",
            "option": "size_choice", "shapes": "{big: [a, b], small: [a]}", "go": "",
            **change}
    problem = only_problem(write_rules(tmp_path, BASE.format(**fill)))
    return problem.path, problem.message


@pytest.mark.parametrize(("change", "path", "words"), [
    ({"option": "sizes"}, "boards.field.shape_option", "no option 'sizes'"),
    ({"shapes": "{big: [a, b], tiny: [a]}"}, "boards.field.shapes.tiny",
     "'tiny' is not a choice of option size_choice"),
    ({"shapes": "{big: [a, a]}"}, "boards.field.shapes.big", "different lower_snake_case"),
    ({"extra": ", by_players: {9: {default: small}}"}, "options.size_choice.by_players[9]",
     "a number of players"),
    ({"extra": ", by_players: {3: {default: huge}}"}, "options.size_choice.by_players[3].default",
     "'huge' is not one of"),
    ({"extra": ", applies_when: {sizes: big}"}, "options.size_choice.applies_when.sizes",
     "no other option 'sizes'"),
    ({"extra": ", applies_when: {pairs: maybe}"}, "options.size_choice.applies_when.pairs",
     "'maybe' is not a value of option pairs"),
    ({"extra": ", applies_when: [pairs]"}, "options.size_choice.applies_when",
     "expected {OPTION: VALUE"),
    ({"go": ", applies_when: {size_choice: huge}"}, "actions.go.applies_when.size_choice",
     "'huge' is not a value of option size_choice"),
    ({"players": "{min: 2, max: 4, teams: 2, teams_option: size_choice}"},
     "players.teams_option", "a true/false option"),
])
def test_a_mistake_is_one_problem_at_its_place(tmp_path: Path, change: dict[str, str],
                                               path: str, words: str) -> None:
    where, message = _broken(tmp_path, **change)
    assert where == path and words in message, (where, message)


def test_named_spaces_in_rows_have_grid_neighbours_even_on_a_short_last_row() -> None:
    from dinotable.engine.boards import distance, neighbours

    rules = load_ruleset(RANCH)
    night = new_game(rules, list("ABCDE"), seed=3).rules.boards["ranch"]
    assert neighbours(night, "s11") == ["s6"]  # s12 is not in play by night
    assert neighbours(night, "s7") == ["s2", "s6", "s8"]  # no s12 below it either
    assert distance(night, "s1", "s11") == 2
    day = rules.boards["ranch"]
    assert neighbours(day, "s7") == ["s2", "s6", "s8", "s12"]


def test_what_a_party_game_does_not_use_is_neither_offered_nor_shown(app: App) -> None:
    """Danger! Danger! Dinosaur's standard game ends when stacks run out: set-up does not
    ask for a goal then, and the table does not show one; the party game shows both, and
    none of the standard game's stacks, counts or buttons."""
    rules = load_by_id("danger_danger_dinosaur")
    setup = SetupScene(app, rules)
    tags = [c.tag for c in setup.menu.controls]
    assert "option:variant" in tags and "option:goal" not in tags
    setup.step_option("variant", 1)
    assert setup.options["variant"] == "party"
    assert "option:goal" in [c.tag for c in setup.menu.controls]
    for variant, shown in (("standard", False), ("party", True)):
        # A bot's turn first: the bar then shows every move greyed, for all to see.
        table = TableScene(app, rules, [Seat("Ann", "random", 0), Seat("Ben", "human", 1)],
                           {"variant": variant}, 3, saving=False)
        app.push(table)
        app.step([], 1 / 30)
        players = next(p for p in table.parts if isinstance(p, PlayersPart))
        assert shown == ("Goal: 15" in players.footer()), (variant, players.footer())
        # The party game deals no stacks and has no crafting: no empty Game piles, no
        # Family count, no greyed Craft button. The standard game has them all.
        labels = {getattr(p, "label", "") for p in table.parts}
        counters = [getattr(getattr(p, "counter", None), "label", "") for p in table.parts]
        buttons = {c.label for c in table.menu.controls}
        standard = not shown
        assert ("Game 1" in labels) == standard and ("Family" in labels) == standard, labels
        assert ("Family left" in counters) == standard, counters
        assert ("Craft" in buttons) == standard and ("Retire" in buttons) == standard, buttons
        app.pop()


def test_an_action_that_does_not_apply_is_never_legal(tmp_path: Path) -> None:
    """`applies_when` on an action joins its `when`: under other options it is not a move."""
    text = BASE.format(rid="applies", players="{min: 2, max: 4}", extra="", pairs="false",
                       option="size_choice", shapes="{big: [a, b], small: [a]}",
                       go=", applies_when: {size_choice: big}")
    text = text.replace("actions:\n", "actions:\n  wait: {effects: [{end_turn: {}}]}\n")
    rules = load_ruleset(write_rules(tmp_path, text))
    big = {a.id for a in legal_actions(new_game(rules, ["Ann", "Ben"]))}
    small = {a.id for a in legal_actions(new_game(rules, ["Ann", "Ben"],
                                                  {"size_choice": "small"}))}
    assert big == {"go", "wait"} and small == {"wait"}
