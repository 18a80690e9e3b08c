"""Dino Dude Ranch as a new player first meets it: the words of the log, the buttons of
the action bar and the dice at the start of a turn."""

from __future__ import annotations

import random

from dinotable.bots import choose
from dinotable.engine import apply, new_game
from dinotable.narrate import describe
from dinotable.ruleset import load_by_id


def test_a_new_dinosaur_is_said_to_come_from_the_dinosaur_bag() -> None:
    """The rulebook's "Parts Bag" means nothing at the table: the log names the bag by
    what is in it."""
    rules = load_by_id("dino_dude_ranch")
    state = new_game(rules, ["Ann", "Ben"], {}, 3)
    rng = random.Random(3)
    lines: list[str] = []
    while not state.game_over and not lines:
        events = apply(state, choose("heuristic", state, rng))
        lines = [str(describe(e, state, 0)) for e in events
                 if e.kind == "drew" and e.data["from"] == "bag"]
    assert lines, "no dinosaur came out of the bag"
    for line in lines:
        assert "from the dinosaur bag" in line and "parts" not in line.lower(), line
