"""Hidden information end to end: each seat's view, events as each seat hears of them, the
words on the terminal, and the ruleset forms that declare secrets."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable

import pytest
from helpers import FIXTURES

from dinotable.engine import Event, GameState, Rules, apply, new_game, redact, view_for
from dinotable.narrate import describe
from dinotable.ruleset import LoadError, load_ruleset
from dinotable.text_table import play, show_table


@pytest.fixture(scope="module")
def hand_rules() -> Rules:
    """fixture_hand: a secret hand per player, a draw into it at every turn's start."""
    return load_ruleset(FIXTURES / "good_rulesets" / "fixture_hand")


def opening(rules: Rules) -> tuple[GameState, list[Event]]:
    """Ann drew ruby at her turn's start, kept it; Ben drew pearl at his."""
    state = new_game(rules, ["Ann", "Ben"], force=["ruby"])
    state.chance.force(["pearl"])
    events = apply(state, state.plain_actions[0]["keep"])
    return state, events


def hand_ids(view: dict[str, object], seat: int) -> object:
    hands = view["zones"]["hand"]  # type: ignore[index]
    content = hands[seat]  # type: ignore[index]
    return [i for i, _, _ in content] if isinstance(content, list) else content


# --- views ---------------------------------------------------------------------------

def test_each_seat_sees_its_own_hand_and_only_the_size_of_the_others(hand_rules: Rules
                                                                      ) -> None:
    state, _ = opening(hand_rules)
    ann, ben, nobody = view_for(state, 0), view_for(state, 1), view_for(state, None)
    assert hand_ids(ann, 0) == ["ruby1"] and hand_ids(ann, 1) == {"size": 1}
    assert hand_ids(ben, 1) == ["pearl1"] and hand_ids(ben, 0) == {"size": 1}
    assert hand_ids(nobody, 0) == hand_ids(nobody, 1) == {"size": 1}
    assert "pearl" not in json.dumps(ann) and "ruby" not in json.dumps(ben)
    assert "ruby" not in json.dumps(nobody) and "pearl" not in json.dumps(nobody)


def test_owner_only_variables_and_unrevealed_scores_are_hidden_from_the_others(
        hand_rules: Rules) -> None:
    state, _ = opening(hand_rules)
    ann, ben = view_for(state, 0), view_for(state, 1)
    assert ann["player_vars"][0] == {"points": 0, "secret": 1}
    assert ben["player_vars"][0] == {"points": 0, "secret": None}
    assert ann["scores"] == [1, None] and ben["scores"] == [None, 0]
    assert view_for(state, None)["scores"] == [None, None]
    assert hand_rules.hidden_information


def test_everything_is_revealed_once_the_game_is_over(hand_rules: Rules) -> None:
    state = new_game(hand_rules, ["Ann", "Ben"], seed=1)
    while not state.game_over:
        apply(state, state.plain_actions[state.current]["keep"])
    view = view_for(state, None)
    assert view["scores"] == [3, 3]
    assert view["player_vars"] == [{"points": 0, "secret": 3}, {"points": 0, "secret": 3}]


def test_a_die_lying_in_a_cup_shows_no_face_even_where_everyone_sees_the_cup(dhd: Rules
                                                                            ) -> None:
    state = new_game(dhd, ["Ann", "Ben"])
    first = state.zones["cup"][0][0]
    state.items[first].face = "dino"  # as if a rolled die had been dropped back in
    assert all(face is None for _, _, face in view_for(state, 0)["zones"]["cup"])


def test_a_dice_game_without_secrets_shows_every_score_and_variable(dhd: Rules) -> None:
    state = new_game(dhd, ["Ann", "Ben"])
    assert view_for(state, 1)["scores"] == [0, 0]
    assert view_for(state, 1)["player_vars"] == [{"banked": 0}, {"banked": 0}]
    assert not dhd.hidden_information


# --- events --------------------------------------------------------------------------

def test_a_draw_into_a_hidden_hand_loses_its_ids_for_everyone_but_the_drawer(
        hand_rules: Rules) -> None:
    _, events = opening(hand_rules)
    [drawn] = [e for e in events if e.kind == "drew"]
    assert drawn.seat == 1 and drawn.data["items"] == ["pearl1"]
    for viewer in (0, None):
        [seen] = [e for e in redact(events, viewer, hand_rules) if e.kind == "drew"]
        assert seen.data["hidden"] is True and seen.data["count"] == 1
        assert (seen.data["from"], seen.data["to"], seen.data["to_owner"]) == ("pile", "hand", 1)
        assert "pearl" not in repr(seen.data)
    [own] = [e for e in redact(events, 1, hand_rules) if e.kind == "drew"]
    assert own.data["items"] == ["pearl1"] and own.data["kinds"] == ["pearl"]
    assert drawn.data["items"] == ["pearl1"]  # the engine's own events are left untouched


def test_a_secret_variable_change_reaches_the_others_without_its_values(hand_rules: Rules
                                                                         ) -> None:
    _, events = opening(hand_rules)
    [change] = [e for e in redact(events, 1, hand_rules) if e.kind == "changed"]
    assert change.data == {"var": "secret", "hidden": True}
    [own] = [e for e in redact(events, 0, hand_rules) if e.kind == "changed"]
    assert (own.data["old"], own.data["new"], own.data["score"]) == (0, 1, 1)


def test_a_gem_shown_from_a_hand_is_seen_by_everyone(hand_rules: Rules) -> None:
    state, _ = opening(hand_rules)
    events = apply(state, state.plain_actions[1]["show"])
    for viewer in (0, 1, None):
        [moved] = [e for e in redact(events, viewer, state) if e.kind == "moved"]
        assert moved.data["items"] == ["pearl1"]


def test_dice_rolled_in_the_open_are_not_redacted(dhd: Rules) -> None:
    state = new_game(dhd, ["Ann", "Ben"], seed=2)
    events = apply(state, state.plain_actions[0]["roll"])
    assert redact(events, 1, dhd) == events


# --- words ---------------------------------------------------------------------------

def test_the_others_hear_that_a_gem_was_drawn_the_drawer_hears_which(hand_rules: Rules
                                                                     ) -> None:
    state, events = opening(hand_rules)
    [drawn] = [e for e in events if e.kind == "drew"]
    assert describe(drawn, state, 0) == "Ben draws a card from the pile."
    assert describe(drawn, state, None) == "Ben draws a card from the pile."
    assert describe(drawn, state, 1) == "Ben draws pearl from the pile."
    # A front end holding only a view gets events redacted by the engine.
    seen = redact([drawn], 0, state)[0]
    assert describe(seen, view_for(state, 0), 0) == "Ben draws a card from the pile."


def test_the_terminal_shows_one_seats_table_with_its_variables_and_status_line(
        hand_rules: Rules) -> None:
    state, _ = opening(hand_rules)
    out = io.StringIO()
    show_table(state, out, 1)
    text = out.getvalue()
    assert "pearl" in text and "ruby" not in text
    assert "Hand (Ann): 1 hidden" in text
    assert " > Ben: 0  (points 0, secret 0)" in text
    assert "   Ann: ?  (points 0, secret ?)" in text
    assert "1 in your hand, 4 left in the pile" in text


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text))


def test_a_terminal_game_never_prints_a_gem_hidden_in_the_bots_hand(hand_rules: Rules
                                                                    ) -> None:
    played = 0
    for seed in range(20):
        state = new_game(hand_rules, ["Ann", "Ben"], seed=seed)
        out = io.StringIO()
        assert play(state, ["human", "random"], io.StringIO("k\n" * 10), out, seed) == 0
        hidden = {state.items[i].kind for i in state.zones["hand"][1]}
        assert state.game_over
        if not hidden:
            continue
        played += 1
        printed = words(out.getvalue())
        assert not hidden & printed, out.getvalue()
        assert {state.items[i].kind for i in state.zones["hand"][0]} <= printed
    assert played  # some seed left the bot holding gems


def test_people_sharing_the_screen_are_asked_to_hand_it_over(hand_rules: Rules) -> None:
    state = new_game(hand_rules, ["Ann", "Ben"], seed=3, force=["ruby"])
    out = io.StringIO()
    play(state, ["human", "human"], io.StringIO("\nk\n"), out, 3)
    text = out.getvalue()
    before, _, after = text.partition("Pass the screen to Ben")
    assert "Pass the screen to Ann" in before and "ruby" in before
    assert "ruby" not in after  # Ann's gem, drawn where Ben cannot see it
    assert after.rstrip().endswith("Goodbye!")


# --- the ruleset forms -----------------------------------------------------------------

BASE = """
id: ID
name: Secrets
version: 1
players: {min: 2, max: 2}
vars:
  game: {pot: GAME}
  player: {points: PLAYER}
score: points
TOP
actions:
  pass: {effects: [{end_turn: {}}]}
end: {trigger: "true"}
"""


_made = iter(range(1000))


def ruleset(game: str = "0", player: str = "0", top: str = "") -> str:
    """The small ruleset above with its blanks filled (a new id each time)."""
    return (BASE.replace("ID", f"secrets{next(_made)}").replace("GAME", game)
            .replace("PLAYER", player).replace("TOP", top))


def problems(load: Callable[[str], Rules], game: str = "0", player: str = "0",
             top: str = "") -> list[str]:
    text = ruleset(game, player, top)
    with pytest.raises(LoadError) as caught:
        load(text)
    return [str(p) for p in caught.value.problems]


def test_owner_only_variable_forms_are_checked(load_text_ruleset: Callable[[str], Rules]
                                               ) -> None:
    [bad] = problems(load_text_ruleset, player="{value: 0, visible: owners}")
    assert ":7:" in bad and "vars.player.points.visible" in bad and "did you mean 'owner'" in bad
    [game] = problems(load_text_ruleset, game="{value: 0, visible: owner}")
    assert "vars.game.pot.visible" in game and "only a player variable" in game
    [key] = problems(load_text_ruleset, player="{value: 0, seen: owner}")
    assert "vars.player.points.seen" in key
    [missing] = problems(load_text_ruleset, player="{visible: owner}")
    assert "needs `value`" in missing


def test_reveal_scores_takes_always_or_at_end(load_text_ruleset: Callable[[str], Rules]
                                              ) -> None:
    [bad] = problems(load_text_ruleset, top="reveal_scores: at_the_end")
    assert "reveal_scores" in bad and "did you mean 'at_end'" in bad
    assert not load_text_ruleset(ruleset()).hidden_information


def test_reveal_scores_at_end_alone_makes_a_game_one_with_secrets(
        write_ruleset: Callable[[str], object]) -> None:
    folder = write_ruleset(ruleset(player="{value: 2, visible: all}",
                                   top="reveal_scores: at_end"))
    rules = load_ruleset(folder)  # type: ignore[arg-type]
    assert rules.hidden_information and rules.reveal_scores == "at_end"
    assert rules.player_vars == {"points": 2} and not rules.owner_vars


# --- an all-seeing viewer (a replay, after the game) -------------------------------------

def test_a_viewer_who_sees_everything_sees_every_hand_score_and_secret(hand_rules: Rules
                                                                       ) -> None:
    state, _ = opening(hand_rules)
    everything = view_for(state, None, everything=True)
    assert hand_ids(everything, 0) == ["ruby1"] and hand_ids(everything, 1) == ["pearl1"]
    assert everything["scores"] == [1, 0]
    assert everything["player_vars"][0] == {"points": 0, "secret": 1}


def test_a_seats_own_view_is_the_same_whether_or_not_all_seeing_views_exist(hand_rules: Rules
                                                                            ) -> None:
    state, _ = opening(hand_rules)
    for seat in (0, 1, None):
        view = view_for(state, seat)
        assert view == view_for(state, seat, everything=False)
        assert view != view_for(state, seat, everything=True)
    assert hand_ids(view_for(state, 0), 1) == {"size": 1}
