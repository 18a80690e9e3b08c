"""What the table tells, and when, as a new player reads it: the end of the game only once
the last dice have landed."""

from __future__ import annotations

import random

from dinotable.app import App
from dinotable.bots import choose
from dinotable.engine import Action, GameState, apply, legal_actions, new_game
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene

FRAME = 1 / 30


def before_the_last_move(seed: int) -> tuple[GameState, Action]:
    """A two-bot Dino Hunt Dice game one move from its end, and that last move."""
    rules = load_by_id("dino_hunt_dice")
    state = new_game(rules, ["Ann", "Ben"], {}, seed)
    rng = random.Random(seed)
    while not state.game_over:
        apply(state, choose("heuristic", state, rng))
    log = state.log
    state = new_game(rules, ["Ann", "Ben"], {}, seed)
    for action in log[:-1]:
        apply(state, action)
    return state, log[-1]


def test_the_end_is_told_only_once_the_last_throw_has_landed(app: App) -> None:
    state, last = before_the_last_move(4)  # seed 4: the game ends on a roll
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1)]
    table = TableScene(app, load_by_id("dino_hunt_dice"), seats, {}, 4, state=state,
                       saving=False)
    app.push(table)
    table.take(last)
    assert table.state.game_over
    thrown = 0
    for _ in range(900):
        if table.idle:
            break
        thrown += table.toss is not None
        assert "over" not in table.what_to_do(), "the end is told while the dice fly"
        app.step(dt=FRAME)
    assert thrown, "the last move threw no dice"
    assert table.idle and table.what_to_do() == "The game is over."


def test_a_roll_s_summary_names_every_face_the_move_rolled(app: App) -> None:
    """A Danger! Danger! Dinosaur reroll throws exploration dice and then the dinosaur
    dice: the words under the header name both ("Ann rolled Water and Blank."), not just
    the dinosaur die's Blank."""
    rules = load_by_id("danger_danger_dinosaur")

    def rolled_once() -> GameState:
        state = new_game(rules, ["Ann", "Ben"], {}, 7)
        apply(state, next(a for a in legal_actions(state) if a.id == "roll"))
        return state

    ahead = rolled_once()
    reroll = next(a for a in legal_actions(ahead) if a.id == "reroll")
    thrown = [e for e in apply(ahead, reroll) if e.kind == "rolled"]
    assert len(thrown) == 2, "the exploration dice, then the dinosaur dice"
    seats = [Seat("Ann", "human", 0), Seat("Ben", "heuristic", 1)]
    table = TableScene(app, rules, seats, {}, 7, state=rolled_once(), saving=False)
    app.push(table)
    table.take(reroll)
    for _ in range(900):
        if table.idle:
            break
        app.step(dt=FRAME)
    words = table.last_words
    assert words.startswith("Ann rolled "), words
    for event in thrown:
        for _, _, face in event.data["dice"]:
            assert table.face_label(face) in words, words
