"""Arguments that name a card by its kind: one answer for every copy, in a zone or on a space."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dinotable.engine import Action, IllegalAction, Rules, apply, legal_actions, new_game
from dinotable.engine.state import GameState

Load = Callable[[str], Rules]  # the conftest fixture that writes and loads a ruleset

RULES = """
id: kinds
name: Kinds
version: 1
players: {min: 2, max: 2}
items:
  raptor: {type: card, copies: 2}
  fern: {type: card}
zones:
  hand: {holds: cards, start: {raptor: 2, fern: 1}}
  out: {holds: cards}
boards:
  ages: {spaces: [triassic, jurassic], holds: cards}
vars:
  player: {age: "jurassic"}
score: size(out)
actions:
  play:
    args:
      card: {domain: kind_in, zone: hand}
    effects:
      - place: {from: hand, board: ages, space: age, item: $card}
      - end_turn: {}
  hunt:
    args:
      target: {domain: kind_on, board: ages, space: age}
    effects:
      - take: {board: ages, space: age, to: out, item: $target}
      - end_turn: {}
end: {trigger: "size(out) == 3"}
"""


def _game(load: Load) -> GameState:
    return new_game(load(RULES), ["Ann", "Ben"])


def test_two_copies_of_a_card_are_one_answer_and_either_copy_is_taken(
        load_text_ruleset: Load) -> None:
    state = _game(load_text_ruleset)
    plays = [dict(a.args)["card"] for a in legal_actions(state) if a.id == "play"]
    assert plays == ["raptor", "fern"]
    apply(state, Action(0, "play", (("card", "raptor"),)))
    apply(state, Action(1, "play", (("card", "raptor"),)))
    assert [dict(a.args)["card"] for a in legal_actions(state) if a.id == "play"] == ["fern"]


def test_kinds_on_the_players_own_space_are_the_targets(load_text_ruleset: Load) -> None:
    state = _game(load_text_ruleset)
    apply(state, Action(0, "play", (("card", "fern"),)))
    targets = [dict(a.args)["target"] for a in legal_actions(state) if a.id == "hunt"]
    assert targets == ["fern"]
    with pytest.raises(IllegalAction):
        apply(state, Action(1, "hunt", (("target", "raptor"),)))
    apply(state, Action(1, "hunt", (("target", "fern"),)))
    assert state.score(1) == 1


def test_kind_on_where_offers_only_kinds_passing_its_test(load_text_ruleset: Load) -> None:
    text = RULES.replace("target: {domain: kind_on, board: ages, space: age}",
                         "target: {domain: kind_on, board: ages, space: age, "
                         "where: \"$kind != 'raptor'\"}")
    state = new_game(load_text_ruleset(text), ["Ann", "Ben"])
    apply(state, Action(0, "play", (("card", "raptor"),)))
    apply(state, Action(1, "play", (("card", "fern"),)))
    targets = [dict(a.args)["target"] for a in legal_actions(state) if a.id == "hunt"]
    assert targets == ["fern"]
    with pytest.raises(IllegalAction):
        apply(state, Action(0, "hunt", (("target", "raptor"),)))


def test_kind_in_where_offers_only_kinds_passing_its_test(load_text_ruleset: Load) -> None:
    text = RULES.replace("card: {domain: kind_in, zone: hand}",
                         "card: {domain: kind_in, zone: hand, where: \"$kind == 'fern'\"}")
    state = new_game(load_text_ruleset(text), ["Ann", "Ben"])
    assert [dict(a.args)["card"] for a in legal_actions(state) if a.id == "play"] == ["fern"]
    with pytest.raises(IllegalAction):
        apply(state, Action(0, "play", (("card", "raptor"),)))
