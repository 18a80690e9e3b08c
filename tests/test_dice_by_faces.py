"""Dice named by the faces they show, costs paid in faces or kinds, dice turned to a face:
the `faces_of` domain, `matching()`, `can_pay()`, `pay` and `set_face`, through the
fixture ruleset fixture_faces and small rulesets of their own."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import only_problem, write_rules

from dinotable import check, scenarios
from dinotable.engine import (
    Action,
    EngineError,
    apply,
    legal_actions,
    new_game,
    redact,
    refusal,
)
from dinotable.engine.multisets import in_face_order
from dinotable.narrate import describe
from dinotable.ruleset import load_ruleset

FACES = Path(__file__).resolve().parent / "fixtures" / "good_rulesets" / "fixture_faces"


def _faces_game(faces: list[str], seed: int = 0) -> Any:
    """A fixture_faces game for Ann and Ben, Ann's five dice showing `faces`."""
    state = new_game(load_ruleset(FACES), ["Ann", "Ben"], None, seed, force=faces)
    assert [state.items[i].face for i in state.zone("tray", 0)] == faces
    return state


def _rerolls(state: Any) -> list[tuple[str, ...]]:
    return [dict(a.args)["dice"] for a in legal_actions(state) if a.id == "reroll"]


def test_fixture_scenarios_pass() -> None:
    files = sorted((FACES / "scenarios").glob("*.yaml"))
    assert len(files) >= 3
    for path in files:
        outcome = check.run_scenario(scenarios.load_scenario(path))
        assert outcome.passed, f"{path.name}: {outcome.reason}"


def test_alike_dice_are_one_choice_each_distinct_multiset_offered_once() -> None:
    state = _faces_game(["wood", "food", "wood", "food", "food"])
    choices = _rerolls(state)
    # Two woods and three foods: (2 + 1) * (3 + 1) - 1 choices of at least one die, not the
    # 31 sets of dice positions.
    assert len(choices) == 11
    assert len(set(choices)) == 11
    assert {Counter(c)["wood"] for c in choices} == {0, 1, 2}
    assert ("wood", "wood", "food", "food", "food") in choices
    # Fewest dice first, each spelt with its faces in the order the die declares them.
    assert choices[0] == ("wood",) and choices[1] == ("food",)
    assert all(c == in_face_order(state.rules, c) for c in choices)


def test_a_blank_die_is_never_offered_and_a_face_not_shown_is_refused() -> None:
    state = _faces_game(["blank", "blank", "fire", "skull", "blank"])
    assert sorted(_rerolls(state)) == [("fire",), ("fire", "skull"), ("skull",)]
    for wrong in (("blank",), ("food",), ("fire", "fire"), ()):
        reason = refusal(state, Action(0, "reroll", (("dice", wrong),)))
        assert reason is not None and reason.kind == "bad_arguments", wrong


def test_rolling_again_the_dice_a_choice_names_leaves_the_others_as_they_were() -> None:
    state = _faces_game(["skull", "wood", "skull", "fire", "blank"])
    before = {state.items[i].id: state.items[i].face for i in state.zone("tray", 0)}
    state.chance.force(["food", "food"])
    apply(state, Action(0, "reroll", (("dice", ("skull", "skull")),)))
    after = {state.items[i].id: state.items[i].face for i in state.zone("tray", 0)}
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {k for k, v in before.items() if v == "skull"}
    assert sorted(after.values()) == ["blank", "fire", "food", "food", "wood"]


def test_a_scenario_may_write_the_faces_in_any_order() -> None:
    state = _faces_game(["fire", "wood", "food", "food", "skull"])
    step = scenarios.Step(0, 1, "act", {"id": "reroll", "dice": ["skull", "food", "wood"]})
    action = check.step_action(state, step)
    assert action in legal_actions(state)


def test_paying_a_cost_spends_exactly_the_dice_that_show_it() -> None:
    state = _faces_game(["food", "wood", "fire", "wood", "wood"])
    apply(state, Action(0, "buy", (("card", "hut"),)))
    spent = [state.items[i] for i in state.zone("spent", 0)]
    assert sorted(it.face for it in spent) == ["fire", "wood", "wood"]
    # The first two woods in the tray pay, in tray order; the third stays.
    assert [it.id for it in spent] == ["stone2", "stone3", "stone4"]
    assert [state.items[i].face for i in state.zone("tray", 0)] == ["food", "wood"]


def test_a_card_is_offered_only_while_its_cost_can_be_paid() -> None:
    state = _faces_game(["food", "wood", "skull", "skull", "blank"])
    assert [a for a in legal_actions(state) if a.id == "buy"] == []
    state = _faces_game(["food", "food", "skull", "skull", "blank"])
    assert [dict(a.args)["card"] for a in legal_actions(state) if a.id == "buy"] == ["feast"]


def test_set_face_turns_a_die_without_chance() -> None:
    state = _faces_game(["skull", "wood", "skull", "fire", "blank"])
    chance = state.chance.to_dict()
    events = apply(state, Action(0, "calm"))
    assert [state.items[i].face for i in state.zone("tray", 0)] == [
        "blank", "wood", "skull", "fire", "blank"]
    assert state.chance.to_dict() == chance, "turning a die draws nothing from chance"
    (turned,) = [e for e in events if e.kind == "faces_set"]
    assert turned.data["dice"] == [("stone1", "stone", "blank")]
    assert describe(turned, state, 1) == "Ann turns stone to blank."


RULES = """
id: faces_alone
name: Faces Alone
version: 1
players: {min: 2, max: 2}
dice:
  bone: {faces: [skull, paw, egg]}
  stick: {faces: [paw, twig]}
properties: {cost: []}
items:
  nest: {type: card, cost: [paw, bone]}
  coin: {type: token, copies: 4}
zones:
  tray: {holds: dice, start: {bone: 2, stick: 1}}
  hidden_tray: {holds: dice, per_player: true, visible: owner}
  out: {holds: dice}
  purse: {holds: tokens, per_player: true, start: {coin: 2}}
  bank: {holds: tokens}
score: 0
actions:
  go:
    effects: []
  stop:
    effects: [{end_turn: {}}]
end:
  trigger: "round > 5"
"""


def _alone(tmp_path: Path, go: list[Any]) -> Any:
    data = yaml.safe_load(RULES)
    data["actions"]["go"]["effects"] = go
    return load_ruleset(write_rules(tmp_path, data))


def _set_faces(state: Any, faces: list[str]) -> None:
    for i, face in zip(state.zone("tray", 0), faces, strict=True):
        state.items[i].face = face


def test_a_face_entry_is_paid_before_a_kind_entry(tmp_path: Path) -> None:
    rules = _alone(tmp_path, [{"pay": {"from": "tray", "cost": "prop('nest', cost)",
                                       "to": "out"}}])
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    # bone1 shows a paw, stick1 shows a paw: the paw is paid by the first die showing one
    # (bone1), and the kind `bone` by the other bone; the stick stays.
    _set_faces(state, ["paw", "egg", "paw"])
    apply(state, Action(0, "go"))
    assert [state.items[i].id for i in state.zone("out", 0)] == ["bone1", "bone2"]


def test_paying_tokens_by_kind_a_count_of_times(tmp_path: Path) -> None:
    rules = _alone(tmp_path, [{"pay": {"from": "purse", "cost": "'coin'", "count": 2,
                                       "to": "bank"}}])
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    apply(state, Action(0, "go"))
    assert state.zone("purse", 0) == [] and len(state.zone("bank", 0)) == 2


def test_a_cost_the_zone_cannot_pay_is_an_error_naming_the_line(tmp_path: Path) -> None:
    rules = _alone(tmp_path, [{"pay": {"from": "purse", "cost": "'coin'", "count": 3,
                                       "to": "bank"}}])
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    with pytest.raises(EngineError, match=r"rules.yaml:\d+: .*purse cannot pay"):
        apply(state, Action(0, "go"))


def test_matching_and_can_pay_read_the_zone(tmp_path: Path) -> None:
    rules = _alone(tmp_path, [
        {"when": "can_pay(tray, prop('nest', cost)) and length(matching(tray, 'twig')) == 0",
         "then": [{"set_face": {"zone": "tray", "to": "twig", "item": "'stick1'"}}]}])
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    _set_faces(state, ["paw", "egg", "paw"])
    apply(state, Action(0, "go"))
    assert state.items[state.item_ids["stick1"]].face == "twig"


def test_turning_a_die_to_a_face_it_lacks_is_an_error(tmp_path: Path) -> None:
    rules = _alone(tmp_path, [{"set_face": {"zone": "tray", "to": "twig"}}])
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    with pytest.raises(EngineError, match="bone1 has no face 'twig'"):
        apply(state, Action(0, "go"))


def test_a_die_turned_where_others_may_not_look_is_told_without_its_face(
        tmp_path: Path) -> None:
    rules = _alone(tmp_path, [{"move_all": {"from": "tray", "to": "hidden_tray"}},
                              {"set_face": {"zone": "hidden_tray", "to": "paw"}}])
    state = new_game(rules, ["Ann", "Ben"], None, 0)
    events = apply(state, Action(0, "go"))
    (mine,) = [e for e in redact(events, 0, state) if e.kind == "faces_set"]
    (theirs,) = [e for e in redact(events, 1, state) if e.kind == "faces_set"]
    assert len(mine.data["dice"]) == 3
    assert "dice" not in theirs.data and theirs.data["hidden"] and theirs.data["count"] == 3
    (told,) = [e for e in events if e.kind == "faces_set"]
    assert describe(told, state, 1) == "Ann turns 3 dice out of sight."


@pytest.mark.parametrize(("args", "message"), [
    ({"dice": {"domain": "faces_of"}}, "faces_of needs `zone`"),
    ({"dice": {"domain": "faces_of", "zone": "tary"}}, "unknown zone 'tary' (did you mean"),
    ({"dice": {"domain": "faces_of", "zone": "tray", "where": "$item == 'x'"}},
     "$item is not an argument"),
])
def test_a_faces_of_mistake_names_its_line_and_what_was_expected(
        tmp_path: Path, args: dict[str, Any], message: str) -> None:
    data = yaml.safe_load(RULES)
    data["actions"]["go"]["args"] = args
    problem = only_problem(write_rules(tmp_path, data))
    assert message in problem.message
    assert problem.line > 0 and problem.path.startswith("actions.go.args.dice")
