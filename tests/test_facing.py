"""Cards lying face down: only their backs show, to everyone but the owner of the zone."""

from __future__ import annotations

from collections.abc import Callable

from dinotable.engine import Action, Rules, apply, new_game, redact, view_for
from dinotable.engine.positions import arrange
from dinotable.engine.state import GameState

Load = Callable[[str], Rules]  # the conftest fixture that writes and loads a ruleset

RULES = """
id: facing
name: Facing
version: 1
players: {min: 2, max: 2}
items:
  gem: {type: card, copies: 2}
  rock: {type: card}
zones:
  pile: {holds: cards, start: {gem: 2}, face: down}
  table: {holds: cards, start: {rock: 1}}
  mine: {holds: cards, per_player: true}
score: size(mine)
actions:
  reveal:
    effects:
      - flip: {zone: pile, to: up, item: "'gem'"}
      - end_turn: {}
  take:
    effects:
      - move: {from: pile, to: mine, count: 1}
      - end_turn: {}
  hide:
    effects:
      - flip: {zone: table}
      - end_turn: {}
end: {trigger: "size(pile) == 0"}
"""


def _game(load: Load) -> GameState:
    return new_game(load(RULES), ["Ann", "Ben"])


def _pile(state: GameState, seat: int | None) -> list[object]:
    return list(view_for(state, seat)["zones"]["pile"])


def test_cards_set_up_face_down_show_only_their_backs(load_text_ruleset: Load) -> None:
    state = _game(load_text_ruleset)
    for seat in (0, 1, None):
        assert _pile(state, seat) == [(None, None, None), (None, None, None)]
    assert view_for(state, 0)["zones"]["table"] == [("rock", "rock", None)]


def test_a_card_turned_face_up_shows_to_everyone(load_text_ruleset: Load) -> None:
    state = _game(load_text_ruleset)
    events = apply(state, Action(0, "reveal"))
    assert _pile(state, 1) == [("gem", "gem", None), (None, None, None)]
    flipped = [e for e in events if e.kind == "flipped"]
    assert flipped and flipped[0].data["face_up"] == ["gem"]


def test_a_face_down_card_keeps_lying_face_down_where_it_goes_and_its_owner_sees_it(
        load_text_ruleset: Load) -> None:
    state = _game(load_text_ruleset)
    events = apply(state, Action(0, "take"))
    mine = view_for(state, 0)["zones"]["mine"]
    assert mine[0] == [("gem", "gem", None)], "Ann sees the card in her own zone"
    assert view_for(state, 1)["zones"]["mine"][0] == [(None, None, None)], "Ben sees its back"
    moved_for_ben = [e for e in redact(events, 1, state) if e.kind == "moved"]
    assert moved_for_ben and moved_for_ben[0].data.get("hidden") is True
    assert "items" not in moved_for_ben[0].data
    moved_for_ann = [e for e in redact(events, 0, state) if e.kind == "moved"]
    assert moved_for_ann[0].data["items"] == ["gem"]


def test_flip_over_turns_a_face_up_card_face_down_and_a_save_keeps_it(
        load_text_ruleset: Load) -> None:
    state = _game(load_text_ruleset)
    apply(state, Action(0, "hide"))
    assert view_for(state, 1)["zones"]["table"] == [(None, None, None)]
    copy = GameState.from_dict(state.rules, state.to_dict())
    assert view_for(copy, 1)["zones"]["table"] == [(None, None, None)]


def test_a_stated_position_lays_each_zones_cards_as_the_zone_lies(
        load_text_ruleset: Load) -> None:
    """A scenario's setup puts three gems (one more than the game has) and the rock in the
    face-down pile, and a gem on the face-up table: the pile shows only backs, even the new
    copy and the rock that lay face up, and the gem from the pile lies face up."""
    rules = load_text_ruleset(RULES)
    wanted = {("pile", 0): ["gem", "gem", "rock"], ("table", 0): ["gem"]}
    state = new_game(rules, ["Ann", "Ben"], None, 0, setup=lambda st: arrange(st, wanted))
    assert len(state.zone("pile", 0)) == 3
    for seat in (0, 1, None):
        assert _pile(state, seat) == [(None, None, None)] * 3
        assert [kind for _, kind, _ in view_for(state, seat)["zones"]["table"]] == ["gem"]
