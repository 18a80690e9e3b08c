"""Choices that read as what they mean: a move in the ruleset's own words ("bid three 4s")
on the bar, at the terminal, on the phone and in the log, or else with its arguments named;
a choice whose values are a range; long lists grouped; a hidden zone shown to everyone
until the turn ends; a terminal view that stays short however many tokens a zone holds;
and `by: others`, which nothing could ever offer, refused with a pointer to `respond`."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from dinotable import bots
from dinotable.engine import (
    Action,
    GameState,
    Rules,
    apply,
    legal_actions,
    new_game,
    view_for,
)
from dinotable.engine.undo import reveal_in
from dinotable.narrate import describe
from dinotable.ruleset import LoadError, installed_rulesets, load_ruleset
from dinotable.table.choice import Chooser
from dinotable.text_table import _ask, show_table

BIDS = Path(__file__).parent / "fixtures" / "good_rulesets" / "fixture_bids"


@pytest.fixture(scope="module")
def bids() -> Rules:
    return load_ruleset(BIDS)


def bid(seat: int, count: int, face: int) -> Action:
    return Action(seat, "bid", (("count", count), ("face", face)))


def cups(state: GameState, faces: list[list[int]]) -> None:
    """Set each player's cup to dice showing these faces (a position to test from)."""
    for seat, wanted in enumerate(faces):
        for index, face in zip(state.zones["cup"][seat], wanted, strict=True):
            state.items[index].face = face


# --- phrases ---------------------------------------------------------------------------

def test_a_phrased_move_reads_in_the_rulesets_words_everywhere(bids: Rules) -> None:
    state = new_game(bids, ["Ann", "Ben"], {}, 1)
    chooser = Chooser(state, ["Ann", "Ben"])
    assert chooser.move_words(bid(0, 3, 4)) == "Bid three 4s"
    assert chooser.move_words(bid(0, 1, 6)) == "Bid one 6"
    events = apply(state, bid(0, 3, 4))
    assert describe(events[0], state, None) == "Ann bids three 4s."
    # Ben's turn: the challenge names whose bid it doubts, on its button too.
    chooser = Chooser(state, ["Ann", "Ben"])
    assert [c.label for c in chooser.choices() if c.tag == "action:challenge"] == [
        "Challenge Ann"]


def test_a_phrase_never_tells_a_seat_what_it_may_not_see(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = load_text_ruleset("""
        id: peek
        name: Peek
        version: 1
        players: {min: 2, max: 2}
        dice:
          die: {faces: [1, 2, 3, 4, 5, 6]}
        zones:
          cup: {holds: dice, per_player: true, visible: owner, start: {die: 2}}
        vars:
          player: {points: 0}
        score: points
        turn:
          start: [{roll: cup}]
        actions:
          guess:
            says: "guess with {total(count(cup, 6))} sixes seen"
            effects: [{add: {points: 1}}, {end_turn: {}}]
        end:
          trigger: "highest(points) >= 3"
    """)
    state = new_game(rules, ["Ann", "Ben"], {}, 2)
    cups(state, [[6, 1], [6, 6]])
    # Ann knows her own cup, not Ben's: his sixes are not counted for her, nor in the log.
    assert Chooser(state, ["Ann", "Ben"]).move_words(Action(0, "guess")) == (
        "Guess with 1 sixes seen")
    events = apply(state, Action(0, "guess"))
    assert describe(events[0], state, 1) == "Ann guesses with 0 sixes seen."


def test_words_and_plural_read_numbers_as_people_say_them(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = load_text_ruleset("""
        id: wordy
        name: Wordy
        version: 1
        players: {min: 2, max: 2}
        vars:
          player: {points: 0}
        score: points
        actions:
          take:
            args:
              n: {domain: choice, values: [0, 1, 2, 21, 100]}
            says: "take {words($n)} {plural($n, 'die')} and {plural($n, 'try')}"
            effects: [{add: {points: $n}}, {end_turn: {}}]
        end:
          trigger: "highest(points) >= 100"
    """)
    state = new_game(rules, ["Ann", "Ben"], {}, 1)
    chooser = Chooser(state, ["Ann", "Ben"])
    assert [chooser.move_words(a) for a in legal_actions(state)] == [
        "Take zero dice and tries", "Take one die and try", "Take two dice and tries",
        "Take twenty-one dice and tries", "Take 100 dice and tries"]


UNPHRASED = """
    id: unphrased
    name: Unphrased
    version: 1
    players: {min: 2, max: 3}
    dice:
      die: {faces: [1, 2, 3, 4, 5, 6]}
    zones:
      tray: {holds: dice, start: {die: 3}}
    vars:
      player: {points: 0}
    score: points
    actions:
      bid:
        args:
          count: {domain: choice, from: 1, to: 2}
          face: {domain: choice, values: [4, 5]}
        effects: [{add: {points: 1}}, {end_turn: {}}]
      keep:
        args: {dice: {domain: faces_of, zone: tray, min: 2, max: 2}}
        effects: [{add: {points: 1}}, {end_turn: {}}]
      gift:
        args: {to: other_player}
        effects: [{add: {player: $to, points: 1}}, {end_turn: {}}]
    end:
      trigger: "highest(points) >= 5"
"""


def test_a_phrase_reads_a_list_argument_as_people_say_it(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    phrased = UNPHRASED.replace("      keep:\n",
                                "      keep:\n        says: \"keep {listed($dice)}\"\n")
    state = new_game(load_text_ruleset(phrased), ["Ann", "Ben", "Cat"], {}, 1)
    for die, face in zip(state.zones["tray"][0], (2, 2, 6), strict=True):
        state.items[die].face = face
    chooser = Chooser(state, ["Ann", "Ben", "Cat"])
    keeps = [chooser.move_words(a) for a in legal_actions(state) if a.id == "keep"]
    assert keeps == ["Keep 2 and 2", "Keep 2 and 6"]


def test_without_a_phrase_every_argument_is_named_and_lists_read_as_lists(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    state = new_game(load_text_ruleset(UNPHRASED), ["Ann", "Ben", "Cat"], {}, 1)
    for die, face in zip(state.zones["tray"][0], (2, 2, 6), strict=True):
        state.items[die].face = face
    chooser = Chooser(state, ["Ann", "Ben", "Cat"])
    words = [chooser.move_words(a) for a in legal_actions(state)]
    assert words[:2] == ["Bid \u2014 count 1, face 4", "Bid \u2014 count 1, face 5"]
    assert "Keep: 2 and 6" in words and "Keep: 2 and 2" in words
    assert words[-2:] == ["Gift: Ben", "Gift: Cat"]
    # The terminal lists them the same way, never "Bid 1 4".
    out = io.StringIO()
    _ask(state, legal_actions(state), io.StringIO("q\n"), out, 0)
    assert "[1] Bid \u2014 count 1, face 4" in out.getvalue()
    assert "Bid 1 4" not in out.getvalue()


@pytest.mark.parametrize(("says", "message"), [
    ("[bid]", "expected the move in words, with {placeholders} for its arguments"),
    ('"bid {words($cuont)}"', "$cuont is not an argument of this action (did you mean "
                              "'count'?)"),
])
def test_a_phrase_that_cannot_be_read_is_a_load_error_at_its_line(
        write_ruleset: Callable[[str], Path], says: str, message: str) -> None:
    folder = write_ruleset(f"""
        id: bad_says
        name: Bad Says
        version: 1
        players: {{min: 2, max: 2}}
        vars:
          player: {{points: 0}}
        score: points
        actions:
          bid:
            args: {{count: {{domain: choice, values: [1, 2]}}}}
            says: {says}
            effects: [{{end_turn: {{}}}}]
        end:
          trigger: "highest(points) >= 1"
    """)
    with pytest.raises(LoadError) as info:
        load_ruleset(folder)
    problem = str(info.value.problems[0])
    assert "rules.yaml:11:" in problem and "actions.bid.says" in problem
    assert message in problem


# --- ranges ----------------------------------------------------------------------------

def test_a_range_is_worked_out_when_the_action_is_listed(bids: Rules) -> None:
    state = new_game(bids, ["Ann", "Ben", "Cat"], {}, 1)
    counts = sorted({dict(a.args)["count"] for a in legal_actions(state)})
    assert counts == list(range(1, 10))  # one to the nine dice in play
    apply(state, bid(0, 9, 5))
    # Nine 5s: only nine 6s is higher, and no bid names more dice than are in play.
    assert legal_actions(state) == [bid(1, 9, 6), Action(1, "challenge")]


def test_a_range_whose_end_is_below_its_start_offers_nothing(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = load_text_ruleset("""
        id: empty_range
        name: Empty Range
        version: 1
        players: {min: 2, max: 2}
        vars:
          player: {points: 0}
        score: points
        actions:
          take:
            args: {n: {domain: choice, from: "points + 1", to: 2}}
            effects: [{add: {points: $n}}, {end_turn: {}}]
          wait:
            effects: [{end_turn: {}}]
        end:
          trigger: "highest(points) >= 9"
    """)
    state = new_game(rules, ["Ann", "Ben"], {}, 1)
    assert [dict(a.args).get("n") for a in legal_actions(state)] == [1, 2, None]
    apply(state, Action(0, "take", (("n", 2),)))
    apply(state, Action(1, "wait"))
    assert legal_actions(state) == [Action(0, "wait")]


@pytest.mark.parametrize(("spec", "message"), [
    ("{domain: choice, from: 1}", "a choice range needs `to` too"),
    ("{domain: choice, to: 6}", "a choice range needs `from` too"),
    ("{domain: choice, from: 1, to: 6, values: [1, 2]}",
     "a choice has either `values` (a list) or `from` and `to` (a range), not both"),
    ("{domain: choice, from: true, to: 6}", "`from` must be a whole number or an expression"),
    ("{domain: choice, from: 1, to: [6]}", "`to` must be a whole number or an expression"),
    ("{domain: choice, from: 1, to: \"name(current)\"}", "`to` must be a number"),
    ("{domain: choice, from: 1, to: \"dice_in_play\"}", "unknown name 'dice_in_play'"),
    ("{domain: choice, form: 1, to: 6}", "form"),
])
def test_a_misused_range_is_a_load_error_at_its_line(
        write_ruleset: Callable[[str], Path], spec: str, message: str) -> None:
    folder = write_ruleset(f"""
        id: bad_range
        name: Bad Range
        version: 1
        players: {{min: 2, max: 2}}
        vars:
          player: {{points: 0}}
        score: points
        actions:
          take:
            args:
              n: {spec}
            effects: [{{end_turn: {{}}}}]
        end:
          trigger: "highest(points) >= 1"
    """)
    with pytest.raises(LoadError) as info:
        load_ruleset(folder)
    problems = [str(p) for p in info.value.problems]
    assert any("rules.yaml:11:" in p and "actions.take.args.n" in p and message in p
               for p in problems), problems


# --- grouping --------------------------------------------------------------------------

def test_the_bar_asks_a_bid_a_step_at_a_time_and_every_bid_is_reachable(
        bids: Rules) -> None:
    state = new_game(bids, ["Ann", "Ben", "Cat", "Dan"], {}, 1)
    apply(state, bid(0, 2, 3))
    legal = [a for a in legal_actions(state) if a.id == "bid"]
    chooser = Chooser(state, ["Ann", "Ben", "Cat", "Dan"])
    start = next(c for c in chooser.choices() if c.tag == "start:bid")
    assert start.step is not None
    start.step()
    assert chooser.prompt() == "Bid: choose the count."
    # Eleven counts (2 to 12): a span first, as short buttons side by side, then its counts.
    spans = [c for c in chooser.choices() if c.tag != "cancel"]
    assert [c.label for c in spans] == ["2\u20136", "7\u201311", "12"]
    assert all(c.compact for c in spans)
    reached = set()
    for span in spans:
        chooser.start(bids.actions["bid"])
        assert span.step is not None
        span.step()
        counts = [c for c in chooser.choices() if c.tag != "cancel"]
        assert len(counts) <= 5 and all(c.compact for c in counts)
        for count in counts:
            chooser.start(bids.actions["bid"])
            span.step()
            assert count.step is not None
            count.step()
            assert chooser.prompt() == f"Bid, count {count.label}: choose the face."
            for face in [c for c in chooser.choices() if c.tag != "cancel"]:
                chooser.start(bids.actions["bid"], {"count": int(count.label)})
                assert face.step is not None
                reached.add(face.step())
    assert reached == set(legal)


def test_one_answer_among_many_numbers_is_asked_on_one_button_then_in_spans(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = load_text_ruleset("""
        id: pledge
        name: Pledge
        version: 1
        players: {min: 2, max: 2}
        vars:
          player: {points: 0}
        score: points
        actions:
          pledge:
            says: "pledge {words($n)}"
            args: {n: {domain: choice, from: 1, to: 30}}
            effects: [{add: {points: $n}}, {end_turn: {}}]
          few:
            args: {n: {domain: choice, from: 1, to: 3}}
            effects: [{end_turn: {}}]
        end:
          trigger: "highest(points) >= 100"
    """)
    chooser = Chooser(new_game(rules, ["Ann", "Ben"], {}, 1), ["Ann", "Ben"])
    # Three answers are three buttons; thirty are one button, asked in spans of five.
    assert [c.label for c in chooser.choices()] == ["Pledge", "Few: 1", "Few: 2", "Few: 3"]
    start = chooser.choices()[0].step
    assert start is not None and start() is None
    spans = [c.label for c in chooser.choices() if c.tag != "cancel"]
    assert spans == [f"{k}\u2013{k + 4}" for k in range(1, 31, 5)]
    step = chooser.choices()[5].step
    assert step is not None and step() is None
    last = chooser.choices()[-2]
    assert last.label == "30" and last.step is not None
    assert last.step() == Action(0, "pledge", (("n", 30),))


def test_the_terminal_offers_many_bids_on_one_line_and_takes_one_typed(
        bids: Rules) -> None:
    state = new_game(bids, ["Ann", "Ben", "Cat", "Dan"], {}, 1)
    apply(state, bid(0, 2, 3))
    out = io.StringIO()
    chosen = _ask(state, legal_actions(state), io.StringIO("b 5 6\n"), out, 1)
    assert chosen == bid(1, 5, 6)
    lines = out.getvalue().splitlines()
    assert lines[0] == ("   [b] Bid: count 2-12 x face 1-6 - type b COUNT FACE (e.g. b 2 4), "
                        "or b alone to choose step by step")
    assert lines[1] == "   [1] Challenge Ann (c)"
    # Step by step, told what each answer may be; a bid that is not allowed is refused.
    out = io.StringIO()
    chosen = _ask(state, legal_actions(state), io.StringIO("b 1 4\nb\n2\n5\n"), out, 1)
    assert chosen == bid(1, 2, 5)
    assert "No bid with count 1 now." in out.getvalue()
    assert "Bid - face: 4-6? " in out.getvalue()


def test_a_zone_of_hundreds_of_tokens_is_told_by_kind_and_the_view_fits_a_screen(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = load_text_ruleset("""
        id: quarry
        name: Quarry
        version: 1
        players: {min: 2, max: 4}
        items:
          stone: {type: token, copies: 300}
          gold: {type: token, copies: 60}
        zones:
          bank: {holds: tokens, start: {stone: 120, gold: 40}, label: Bank}
          heap: {holds: tokens, per_player: true, start: {stone: 40, gold: 5}, label: Heap}
        vars:
          player: {points: 0}
        score: points
        actions:
          dig:
            effects: [{move: {from: bank, to: heap, item: "'stone'"}}, {end_turn: {}}]
        end:
          trigger: "highest(points) >= 1"
    """)
    state = new_game(rules, ["Ann", "Ben", "Cat", "Dan"], {}, 1)
    out = io.StringIO()
    show_table(state, out, 0)
    lines = out.getvalue().splitlines()
    assert "   Bank: 120 stone, 40 gold" in lines
    assert "   Heap (Ann): 40 stone, 5 gold" in lines
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80


# --- showing a zone --------------------------------------------------------------------

SHOWING = """
    id: showing
    name: Showing
    version: 1
    players: {min: 2, max: 3}
    dice:
      die: {faces: [1, 2, 3, 4, 5, 6]}
    zones:
      cup: {holds: dice, per_player: true, visible: owner, start: {die: 2}, label: Cup}
    vars:
      player: {points: 0}
    score: points
    round:
      start: [{for_each_player: [{roll: cup}]}]
    actions:
      lift:
        when: "points == 0"
        effects: [{show: {zone: cup}}, {add: {points: 1}}]
      pass:
        effects: [{end_turn: {}}]
    end:
      trigger: "highest(points) >= 3"
"""


def test_a_shown_zone_is_seen_by_everyone_until_the_turn_ends(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    state = new_game(load_text_ruleset(SHOWING), ["Ann", "Ben", "Cat"], {}, 4)
    cups(state, [[1, 2], [3, 4], [5, 6]])
    assert view_for(state, 1)["zones"]["cup"][0] == {"size": 2}
    events = apply(state, Action(0, "lift"))
    shown = next(e for e in events if e.kind == "shown")
    assert [[face for _, _, face in cup] for cup in shown.data["items"]] == [
        [1, 2], [3, 4], [5, 6]]
    assert describe(shown, state, 2) == (
        "Everyone sees each player's cup: Ann 1, 2; Ben 3, 4; Cat 5, 6.")
    for seat in (None, 0, 1, 2):  # a spectator too
        cups_seen = view_for(state, seat)["zones"]["cup"]
        assert [[face for _, _, face in cup] for cup in cups_seen] == [[1, 2], [3, 4], [5, 6]]
    # What is shown survives a save, and the game replayed from its moves shows it again.
    saved = GameState.from_dict(state.rules, state.to_dict())
    assert view_for(saved, 1)["zones"]["cup"][0] == view_for(state, 1)["zones"]["cup"][0]
    replayed = new_game(state.rules, ["Ann", "Ben", "Cat"], {}, 4)
    cups(replayed, [[1, 2], [3, 4], [5, 6]])
    apply(replayed, Action(0, "lift"), record=False)
    assert view_for(replayed, 2) == view_for(state, 2)
    apply(state, Action(0, "pass"))
    assert view_for(state, 1)["zones"]["cup"][0] == {"size": 2}
    assert view_for(state, 1)["zones"]["cup"][1] != {"size": 2}


def test_taking_back_stops_at_a_zone_shown_to_everyone(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    state = new_game(load_text_ruleset(SHOWING), ["Ann", "Ben"], {}, 4)
    assert reveal_in(state, Action(0, "lift")) == "Hidden things have been shown to everyone"


def test_a_challenge_lifts_every_cup_for_the_log(bids: Rules) -> None:
    state = new_game(bids, ["Ann", "Ben"], {}, 1)
    cups(state, [[2, 4, 5], [3, 4, 6]])
    apply(state, bid(0, 3, 4))
    events = apply(state, Action(1, "challenge"))
    told = [describe(e, state, 1) for e in events]
    assert told[:4] == ["Ben challenges Ann.",
                        "Everyone sees each player's cup: Ann 2, 4, 5; Ben 3, 4, 6.",
                        "The bid fails: Ann loses a die.", None]


# --- by: others ------------------------------------------------------------------------

def test_an_action_for_the_other_players_points_to_response_windows(
        write_ruleset: Callable[[str], Path]) -> None:
    folder = write_ruleset("""
        id: cheering
        name: Cheering
        version: 1
        players: {min: 2, max: 3}
        vars:
          player: {points: 0}
        score: points
        actions:
          roll_on:
            effects: [{add: {points: 1}}, {end_turn: {}}]
          cheer:
            by: others
            effects: [{add: {points: 2}}]
        end:
          trigger: "highest(points) >= 5"
    """)
    with pytest.raises(LoadError) as info:
        load_ruleset(folder)
    (problem,) = info.value.problems
    assert "rules.yaml:12:" in str(problem) and "actions.cheer.by" in str(problem)
    assert "`by: others` is not a way to play" in str(problem)
    assert "`respond` effect" in str(problem) and "by: window" in str(problem)


def test_no_shipped_game_has_an_action_for_the_other_players() -> None:
    for folder in installed_rulesets():
        rules = load_ruleset(folder)
        assert all(a.by != "others" for a in rules.actions.values()), folder.name


# --- the fixture, played ---------------------------------------------------------------

@pytest.mark.parametrize("policy", ["random", "heuristic", "search"])
def test_bids_is_played_to_the_end_by_every_bot(bids: Rules, policy: str) -> None:
    seats = 2 if policy == "search" else 3
    state = new_game(bids, ["Ann", "Ben", "Cat"][:seats], {}, 7)
    rng = random.Random(7)
    for _ in range(400):
        if state.game_over:
            break
        apply(state, bots.choose(policy, state, rng))
    assert state.game_over
    assert any(len(state.zones["cup"][s]) == 0 for s in range(seats))
    assert state.winners and all(len(state.zones["cup"][w]) > 0 for w in state.winners)
