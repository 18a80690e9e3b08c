"""The table's session without a window: whole games by bots, taking a move back, the
autosave, and the laptop handed over exactly when another person must see what is theirs."""

from __future__ import annotations

import itertools
import random

import pytest

from dinotable import saves
from dinotable.engine import Action, IllegalAction, legal_actions, view_for
from dinotable.ruleset import installed_rulesets, load_by_id, load_ruleset
from dinotable.table.session import Seat, TableSession

MOST_MOVES = 20_000  # far more than any shipped game takes with bots


def bots_at(n: int, kind: str = "heuristic") -> list[Seat]:
    return [Seat(f"Bot{i}", kind, i) for i in range(n)]


def play_out(session: TableSession) -> int:
    """Let the bots play to the end; how many moves it took."""
    moves = 0
    while not session.state.game_over:
        assert session.bot_to_move
        session.take(session.bot_action())
        moves += 1
        assert moves < MOST_MOVES, "the game never ends"
    return moves


@pytest.mark.parametrize("folder", installed_rulesets(), ids=lambda p: p.name)
def test_bots_play_every_shipped_game_to_its_end_the_same_way_from_the_same_seed(folder
                                                                               ) -> None:
    rules = load_ruleset(folder)
    seats = max(2, rules.min_players)
    games = []
    for _ in range(2):
        session = TableSession(rules, bots_at(seats), {}, 11, saving=False)
        moves = play_out(session)
        games.append((moves, list(session.state.log), list(session.state.winners)))
    moves, _, winners = games[0]
    assert moves > seats  # everyone had a turn at least
    assert winners and all(0 <= w < seats for w in winners)
    assert games[1] == games[0]  # the bots' source is the session's own, seeded


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    rules = load_by_id("dino_hunt_dice")
    session = TableSession(rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], {}, 3,
                           saving=False)
    before = session.state.to_dict()
    with pytest.raises(IllegalAction):
        session.take(Action(1, "roll"))  # Ben, on Ann's turn
    assert session.state.to_dict() == before


def test_a_move_that_revealed_nothing_is_taken_back_and_a_roll_is_not() -> None:
    rules = load_by_id("dino_hunt")
    session = TableSession(rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], {}, 1,
                           saving=False)
    session.handed(0)
    before = session.state.to_dict()
    assert session.undo_reason() == "Nothing to take back"
    session.take(Action(0, "travel", (("to", "triassic"),)))
    assert session.undo_reason() == ""
    assert session.undo_reason(idle=False) == "Wait for the dice to settle"
    taken, reason = session.take_back()
    assert (taken, reason) == (Action(0, "travel", (("to", "triassic"),)), "")
    assert session.state.to_dict() == before
    session.take(Action(0, "travel", (("to", "triassic"),)))
    session.take(Action(0, "hunt", (("target", "eudimorphodon"),)))
    taken, reason = session.take_back()
    assert taken is None and reason  # the dice have been rolled since: no undo
    assert len(session.state.log) == 2


def test_a_bots_turn_cannot_be_taken_back() -> None:
    rules = load_by_id("dino_hunt_dice")
    session = TableSession(rules, [Seat("Ann", "heuristic", 0), Seat("Ben", "human", 1)],
                           {}, 2, saving=False)
    assert session.undo_reason()
    assert session.take_back()[0] is None


def test_every_move_is_saved_and_the_save_rebuilds_the_game() -> None:
    rules = load_by_id("dino_hunt_dice")
    session = TableSession(rules, [Seat("Ann", "heuristic", 0), Seat("Ben", "random", 1)],
                           {"goal": 6}, 21)
    for _ in range(6):
        session.take(session.bot_action())
        assert session.autosave() == ""
        game, state = saves.load()
        assert game.log == [(a.player, a.id, a.args) for a in session.state.log]
        assert state.to_dict() == session.state.to_dict()
    # The bots' source is saved too: the continued game plays on exactly as this one.
    game, state = saves.load()
    assert game.bots_random is not None
    continued = TableSession(rules, session.seats, dict(game.options), game.seed, state,
                             game.bots_rng())
    assert [continued.bot_action() for _ in range(5)] == [
        session.bot_action() for _ in range(5)]


def test_a_finished_game_goes_to_the_finished_games() -> None:
    rules = load_by_id("dino_hunt_dice")
    session = TableSession(rules, bots_at(2), {"goal": 5}, 8)
    while not session.state.game_over:
        session.take(session.bot_action())
        session.autosave()
    assert not saves.autosave_path().exists()
    assert list(saves.finished_dir().glob("*.yaml"))


def test_a_game_that_cannot_be_saved_says_so_once_and_again_when_it_can(
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = TableSession(load_by_id("dino_hunt_dice"), bots_at(2), {}, 4)
    monkeypatch.setattr(saves, "try_write", lambda game: "the disk is full")
    assert session.autosave() == "This game cannot be saved (the disk is full); play goes on."
    assert session.autosave() == ""  # said once
    assert session.save_problem == "the disk is full"
    monkeypatch.setattr(saves, "try_write", lambda game: None)
    assert session.autosave() == "The game is saved again."
    assert session.save_problem == ""
    quiet = TableSession(load_by_id("dino_hunt_dice"), bots_at(2), {}, 4,
                         saving=False)
    monkeypatch.setattr(saves, "try_write", lambda game: pytest.fail("a demo never saves"))
    assert quiet.autosave() == ""


def walk(session: TableSession, moves: int, seed: int) -> list[int]:
    """Play `moves` moves (people's by a random policy) as the table does, checking after
    each that the hand-off is due exactly when a person other than the holder must act
    in a game that hides things; the seats the laptop was handed to."""
    rng = random.Random(seed)
    handed: list[int] = []
    humans = [s for s in range(len(session.seats)) if not session.is_bot(s)]
    private = session.rules.hidden_information or session.always_handoff
    for _ in range(moves):
        if session.state.game_over:
            break
        seat = session.deciding
        other_person = not session.is_bot(seat) and session.holder != seat
        due = session.handoff_due()
        assert due == (other_person and private and len(humans) > 1)
        if due:
            assert not session.handoff_due()  # asked once, until it is answered
            session.handed(seat)
            handed.append(seat)
        if not session.is_bot(seat):
            assert session.holder == seat  # nobody acts on a laptop someone else holds
        action = (session.bot_action() if session.is_bot(seat)
                  else rng.choice(legal_actions(session.state)))
        session.take(action)
    return handed


def test_hidden_cards_pass_the_laptop_between_people_and_not_to_or_from_bots() -> None:
    rules = load_by_id("dino_hunt")
    assert rules.hidden_information
    two = TableSession(rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], {}, 5,
                       saving=False)
    handed = walk(two, 120, 1)
    assert set(handed) == {0, 1}
    assert all(a != b for a, b in itertools.pairwise(handed))  # always to another
    with_bot = TableSession(rules, [Seat("Ann", "human", 0), Seat("Bot", "heuristic", 1),
                                    Seat("Cat", "human", 2)], {}, 6, saving=False)
    handed = walk(with_bot, 150, 2)
    assert handed and 1 not in handed
    alone = TableSession(rules, [Seat("Ann", "human", 0), Seat("Bot", "heuristic", 1)], {}, 7,
                         saving=False)
    assert walk(alone, 80, 3) == []  # one person: nobody to hide anything from


def test_dice_games_hide_nothing_so_the_laptop_just_moves_unless_asked_every_turn() -> None:
    rules = load_by_id("dino_hunt_dice")
    assert not rules.hidden_information
    people = [Seat("Ann", "human", 0), Seat("Ben", "human", 1)]
    assert walk(TableSession(rules, people, {}, 5, saving=False), 60, 4) == []
    asked = TableSession(rules, people, {}, 5, saving=False, always_handoff=True)
    assert set(walk(asked, 60, 4)) == {0, 1}


def test_the_hand_off_says_why_the_laptop_goes_round() -> None:
    rules = load_by_id("dino_hunt")
    session = TableSession(rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], {}, 5,
                           saving=False)
    assert session.handoff_words(0) == "Ann's turn"
    rng = random.Random(9)
    for _ in range(400):  # on until a rival may answer a move (a response window)
        decision = view_for(session.state, None)["decision"]
        if decision is not None and decision["kind"] == "window" and (
                session.deciding != session.state.current):
            break
        session.take(rng.choice(legal_actions(session.state)))
    else:
        pytest.fail("no response window in 400 moves")
    name = session.name(session.deciding)
    assert session.handoff_words(session.deciding) == f"{name}, you may respond"
