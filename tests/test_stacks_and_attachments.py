"""The tops of stacks (`top_of`, `top()`, `move_top`, `flip_top`, the path `zones.ZONE.top`)
and items attached to items (`attach` and its functions, the path `zones.ZONE.attached`,
what `view_for` shows), through the fixture ruleset fixture_stacks and rulesets of their
own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import only_problem, write_rules

from dinotable import check, scenarios
from dinotable.engine import (
    Action,
    GameState,
    apply,
    legal_actions,
    new_game,
    redact,
    scores,
    view_for,
)
from dinotable.engine.paths import state_value
from dinotable.engine.positions import arrange
from dinotable.engine.views import seen_state
from dinotable.narrate import describe
from dinotable.ruleset import load_ruleset

STACKS = Path(__file__).resolve().parent / "fixtures" / "good_rulesets" / "fixture_stacks"


def _stacks_game(stacks: dict[str, list[str]], built: list[str] | None = None) -> GameState:
    """A fixture_stacks game for Ann and Ben from a stated position (as a scenario's setup)."""
    rules = load_ruleset(STACKS)
    wanted = {(name, 0): cards for name, cards in stacks.items()}
    if built is not None:
        wanted[("built", 0)] = built
    return new_game(rules, ["Ann", "Ben"], None, 0, setup=lambda st: arrange(st, wanted))


def _claims(state: GameState) -> list[str]:
    return [dict(a.args)["card"] for a in legal_actions(state) if a.id == "claim"]


def test_fixture_scenarios_pass() -> None:
    files = sorted((STACKS / "scenarios").glob("*.yaml"))
    assert len(files) >= 3
    for path in files:
        outcome = check.run_scenario(scenarios.load_scenario(path))
        assert outcome.passed, f"{path.name}: {outcome.reason}"


def test_only_showing_tops_are_offered_each_kind_once() -> None:
    state = _stacks_game({"stack_1": ["clay_pot", "stone_axe"], "stack_2": ["clay_pot_2"],
                          "stack_3": ["reed_hut"]})
    assert _claims(state) == ["clay_pot", "reed_hut"]
    apply(state, Action(0, "claim", (("card", "clay_pot"),)))
    # The first stack gave its card; its next card lies face down and is not offered, nor
    # read by top_kind(), though the second stack still shows a clay pot.
    assert [state.items[i].id for i in state.zone("built", 0)] == ["clay_pot"]
    assert _claims(state) == ["clay_pot", "reed_hut"]
    assert state_value(state, "zones.stack_1.top") == ""
    assert state_value(state, "zones.stack_2.top") == "clay_pot"


def test_a_face_down_top_is_not_told_to_anyone() -> None:
    state = _stacks_game({"stack_1": ["reed_hut", "stone_axe"], "stack_2": [], "stack_3": []})
    apply(state, Action(0, "claim", (("card", "reed_hut"),)))
    assert "stone_axe" not in str(legal_actions(state))
    seen = seen_state(state, 1)
    assert [seen.items[i].kind for i in seen.zone("stack_1", 0)] == ["?"]


def test_flip_top_turns_up_the_next_card_of_each_stack_at_the_turn_start() -> None:
    state = _stacks_game({"stack_1": ["reed_hut", "stone_axe"], "stack_2": [],
                          "stack_3": ["clay_pot"]})
    apply(state, Action(0, "claim", (("card", "reed_hut"),)))
    events = apply(state, Action(0, "done"))
    flipped = [e.data for e in events if e.kind == "flipped"]
    assert {"zone": "stack_1", "owner": None, "face_up": ["stone_axe"], "face_down": 0} in flipped
    assert state_value(state, "zones.stack_1.top") == "stone_axe"
    assert state_value(state, "zones.stack_2.top") == ""  # an empty stack: a gap


DECK = """
id: deck_tops
name: Deck Tops
version: 1
players: {min: 2, max: 2}
items:
  fern: {type: card, copies: 3}
  rock: {type: card}
zones:
  deck: {holds: cards, order: deck, start: all}
  stack: {holds: cards, face: down}
  kept: {holds: cards, per_player: true}
define:
  shows: "top_kind(deck)"
score: 0
actions:
  go:
    effects:
      - move: {from: deck, to: stack, count: 2}
      - flip_top: {zones: [stack, deck], to: up}
  stop:
    effects: [{end_turn: {}}]
end:
  trigger: "round > 3"
"""


def _deck_tops(tmp_path: Path) -> Any:
    return load_ruleset(write_rules(tmp_path, DECK))


def test_a_shuffled_decks_top_does_not_show_until_turned_up(tmp_path: Path) -> None:
    state = new_game(_deck_tops(tmp_path), ["Ann", "Ben"], None, 0)
    assert state_value(state, "zones.deck.top") == ""  # its order is not known yet
    # Moved from a deck, cards keep their facing: face up. Turning up the deck's top
    # settles which card it is, a chance event forced like a draw.
    state.chance.force(["rock", "fern", "fern"])
    apply(state, Action(0, "go"))
    assert state_value(state, "zones.stack.top") == "rock"
    assert state_value(state, "zones.deck.top") == "fern"
    assert not state.chance.forced


ATTACH = """
id: attach_alone
name: Attach Alone
version: 1
players: {min: 2, max: 2}
properties: {points: 0}
items:
  spear: {type: card, copies: 2, points: 5}
  knife: {type: card, copies: 2}
zones:
  built: {holds: cards, per_player: true, start: {spear: 1, knife: 1}}
  hand: {holds: cards, per_player: true, visible: owner}
  discard: {holds: cards}
score: "sum_prop(built, points) + sum_prop_attached(built, points)"
actions:
  fit:
    effects:
      - attach: {from: built, item: "'knife'", to: built, onto: "'spear'"}
  fit_hidden:
    effects:
      - attach: {from: hand, item: "'knife'", to: hand, onto: "'spear'"}
  hide:
    effects:
      - move_all: {from: built, to: hand}
  toss:
    effects:
      - move_all: {from: hand, to: discard}
  stop:
    effects: [{end_turn: {}}]
end:
  trigger: "round > 3"
"""


def _attach_game(tmp_path: Path) -> GameState:
    return new_game(load_ruleset(write_rules(tmp_path, ATTACH)), ["Ann", "Ben"], None, 0)


def test_an_attached_item_leaves_its_zone_and_doubles_the_card(tmp_path: Path) -> None:
    state = _attach_game(tmp_path)
    assert scores(state) == [5, 5]
    events = apply(state, Action(0, "fit"))
    assert [state.items[i].id for i in state.zone("built", 0)] == ["spear"]
    assert state_value(state, "players.Ann.zones.built.attached") == 1
    assert state_value(state, "players.Ann.zones.built.size") == 1
    assert scores(state) == [10, 5]
    (told,) = [e.data for e in events if e.kind == "attached"]
    assert (told["item"], told["onto"], told["zone"], told["owner"]) == (
        "knife", "spear", "built", 0)
    (event,) = [e for e in events if e.kind == "attached"]
    assert describe(event, state, 1) == "Ann attaches the Knife to the Spear."


def test_an_attached_item_goes_wherever_its_card_goes(tmp_path: Path) -> None:
    state = _attach_game(tmp_path)
    apply(state, Action(0, "fit"))
    apply(state, Action(0, "hide"))
    apply(state, Action(0, "toss"))
    assert state_value(state, "zones.discard.items") == ["spear"]
    assert state_value(state, "zones.discard.attached") == 1
    assert view_for(state, 1)["attached"] == {"spear": [("knife", "knife", None)]}


def test_the_table_sees_attachments_only_on_cards_it_may_see(tmp_path: Path) -> None:
    state = _attach_game(tmp_path)
    apply(state, Action(0, "fit"))
    assert view_for(state, 1)["attached"] == {"spear": [("knife", "knife", None)]}
    apply(state, Action(0, "hide"))
    assert view_for(state, 0)["attached"] == {"spear": [("knife", "knife", None)]}
    assert view_for(state, 1)["attached"] == {}
    assert view_for(state, 1, everything=True)["attached"] == {
        "spear": [("knife", "knife", None)]}
    assert seen_state(state, 1).attached == {}


def test_attaching_where_nobody_else_looks_is_told_without_the_cards(tmp_path: Path) -> None:
    state = _attach_game(tmp_path)
    apply(state, Action(0, "hide"))
    events = [e for e in apply(state, Action(0, "fit_hidden")) if e.kind == "attached"]
    (mine,) = redact(events, 0, state)
    (theirs,) = redact(events, 1, state)
    assert (mine.data["item"], mine.data["onto"]) == ("knife", "spear")
    assert theirs.data["hidden"] and "item" not in theirs.data and "onto" not in theirs.data
    assert describe(events[0], state, 1) == "Ann attaches a card out of sight."


def test_attachments_are_saved_and_restored(tmp_path: Path) -> None:
    state = _attach_game(tmp_path)
    apply(state, Action(0, "fit"))
    saved = state.to_dict()
    again = GameState.from_dict(state.rules, saved)
    assert again.attached == state.attached
    assert again.to_dict() == saved


@pytest.mark.parametrize(("args", "message"), [
    ({"card": {"domain": "top_of"}}, "top_of needs `zones`"),
    ({"card": {"domain": "top_of", "zones": ["bulit"]}}, "unknown zone 'bulit' (did you mean"),
    ({"card": {"domain": "top_of", "zones": ["built"], "where": "$face == 'x'"}},
     "$face is not an argument"),
])
def test_a_top_of_mistake_names_its_line_and_what_was_expected(
        tmp_path: Path, args: dict[str, Any], message: str) -> None:
    data = yaml.safe_load(ATTACH)
    data["actions"]["fit"]["args"] = args
    problem = only_problem(write_rules(tmp_path, data))
    assert message in problem.message
    assert problem.line > 0 and problem.path.startswith("actions.fit.args.card")
