"""What the table tells, and when, as a new player reads it: the end of the game only once
the last dice have landed."""

from __future__ import annotations

import random

from dinotable.app import App
from dinotable.bots import choose
from dinotable.engine import Action, GameState, apply, new_game
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
