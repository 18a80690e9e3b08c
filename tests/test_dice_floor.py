"""tools/dino_hunt_dice_floor.py times Dino Hunt Dice with the turn flow written out for it
alone and a plain roll, as a ceiling for tuning the engine's own. The figure means something
only while that shortcut plays the very games the engine plays."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

from helpers import load_module

from dinotable.engine import new_game, random_playout
from dinotable.ruleset import load_by_id

TOOL = Path(__file__).resolve().parent.parent / "tools" / "dino_hunt_dice_floor.py"


def _tool() -> ModuleType:
    return load_module(TOOL, "dino_hunt_dice_floor")


def test_the_shortcut_plays_every_move_and_die_the_engine_plays() -> None:
    rules = load_by_id("dino_hunt_dice")
    playout = _tool().shortcut(rules)
    tiebreaks = 0
    for seed in range(40):
        players = [f"P{i}" for i in range(2 + seed % 5)]
        engine = new_game(rules, players, None, seed)
        shortcut = new_game(rules, players, None, seed)
        made = random_playout(engine, random.Random(seed), 100_000)
        assert playout(shortcut, random.Random(seed), 100_000) == made
        assert shortcut.game_over and shortcut.to_dict() == engine.to_dict()
        tiebreaks += engine.tiebreak
    assert tiebreaks  # the rounds only the tied leaders play are among the games compared
