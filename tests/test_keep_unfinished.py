"""Starting another game keeps the unfinished one in Saved games, and says so."""

from __future__ import annotations

import random

from dinotable import saves
from dinotable.app import App
from dinotable.engine import legal_actions
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat, SetupScene
from dinotable.scenes.table import TableScene


def test_a_new_game_keeps_the_unfinished_one_as_a_save_and_says_so(app: App) -> None:
    rules = load_by_id("dino_hunt_dice")
    seats = [Seat(n, "human", i) for i, n in enumerate(["Ann", "Ben"])]
    old = TableScene(app, rules, seats, {}, 11)
    app.push(old)
    rng = random.Random(11)
    for _ in range(6):
        legal = legal_actions(old.state)
        old.take(legal[rng.randrange(len(legal))])
    moves = [(a.player, a.id, a.args) for a in old.state.log]
    app.to_title()
    assert saves.list_saves() == []

    setup = SetupScene(app, load_by_id("dinosaur_dice"),
                       [Seat(n, "human", i) for i, n in enumerate(["Cy", "Di"])], {})
    app.push(setup)
    setup.start()
    table = app.top
    assert isinstance(table, TableScene) and table.rules.id == "dinosaur_dice"
    kept = saves.list_saves()
    assert len(kept) == 1 and kept[0].ruleset == "dino_hunt_dice"
    assert saves.read(kept[0].path).log == moves, "the kept game is not the one left"
    assert table.toast is not None and "kept in Saved games" in table.toast[0]
    assert any("kept in Saved games" in line for line in table.log)

    # A second new game does not keep the first one twice.
    app.to_title()
    setup = SetupScene(app, rules, seats, {})
    app.push(setup)
    setup.start()
    assert len(saves.list_saves()) == 1
