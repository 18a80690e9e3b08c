"""Words a new player reads at the table, as a rulebook would have them: "1 die", no stone
asked of a player holding one, rules without markdown marks, a game's pitch in full on the
title, a log that scrolls back with the wheel and stays there, and no dice waited for in a
game without dice."""

from __future__ import annotations

import random

import pygame
import pytest

from dinotable.app import App
from dinotable.engine import GameState, apply, legal_actions, new_game
from dinotable.ruleset import load_by_id
from dinotable.scenes.rules import rules_lines
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.scenes.title import TitleScene

SHIPPED = ["dino_hunt", "dino_hunt_dice", "dinosaur_dice"]




def seated(app: App, ruleset: str, state: GameState | None = None,
           kinds: tuple[str, ...] = ("human", "human")) -> TableScene:
    names = ["Ann", "Ben", "Cat"][:len(kinds)]
    seats = [Seat(n, k, i) for i, (n, k) in enumerate(zip(names, kinds, strict=True))]
    table = TableScene(app, load_by_id(ruleset), seats, {}, 3, state=state, saving=False)
    app.push(table)
    table.handed(table.deciding)
    return table


def test_one_die_left_to_throw_is_one_die(app: App, words: list[str]) -> None:
    rules = load_by_id("dinosaur_dice")
    rng = random.Random(2)
    for _ in range(200):
        state = new_game(rules, ["Ann", "Ben"], {}, rng.randrange(1 << 20))
        while not state.game_over and len(state.zone("pool", 0)) != 1:
            legal = legal_actions(state)
            apply(state, legal[rng.randrange(len(legal))])
        if not state.game_over and not state.pending:
            break
    else:
        pytest.fail("no game came down to one die to throw")
    table = seated(app, "dinosaur_dice", state)
    table.draw(app.canvas)
    assert "1 die to throw" in words
    assert not any("1 dice" in w for w in words)


def test_a_player_holding_a_stone_is_not_told_they_need_one(app: App) -> None:
    table = seated(app, "dinosaur_dice")
    assert table.holder is not None and table.state.player_vars[table.holder]["stones"] > 0
    stone = table.menu.find("action:stone")
    assert not stone.enabled, "the round's first throw may be skipped"
    assert "need a stone" not in stone.why_disabled.lower()
    assert "first throw" in stone.why_disabled


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_the_rules_show_no_markdown_marks(ruleset: str) -> None:
    rows = rules_lines(load_by_id(ruleset), 1000)
    marked = [row.text for row in rows if "*" in row.text or "`" in row.text]
    assert not marked, marked


def test_each_games_pitch_is_told_in_full_on_the_title(app: App, words: list[str]) -> None:
    title = TitleScene(app)
    app.push(title)
    app.step()
    words.clear()
    app.redraw = True
    app.step()
    shown = " ".join(words)
    for ruleset in SHIPPED:
        pitch = str(load_by_id(ruleset).data.get("pitch", ""))
        assert pitch and pitch.split()[-1] in shown, f"{ruleset}'s pitch is cut"
        assert all(word in shown for word in pitch.split())


def wheel(app: App, notches: int) -> None:
    app.step([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False,
                                 precise_x=0.0, precise_y=float(notches), which=0)])


def test_the_wheel_scrolls_the_log_back_and_it_stays_back_while_bots_play(app: App
                                                                         ) -> None:
    table = seated(app, "dino_hunt_dice", kinds=("human", "heuristic"))
    rng = random.Random(4)
    while len(table.log) < 12:  # some history to read
        legal = legal_actions(table.state)
        table.take(legal[rng.randrange(len(legal))])
    while not table.idle:
        table.update(1 / 30)
    wheel(app, 2)
    back = table.log_scroll
    assert back > 0, "the wheel did not scroll the log back"
    reading = table.log[-1 - back]
    table.log_line("Ben: Roll.")  # the game goes on while Ann reads
    table.log_line("Ben rolls: Dino.")
    assert table.log[-1 - table.log_scroll] == reading, "the log jumped back to the end"
    wheel(app, -5)
    assert table.log_scroll == 0


def test_no_dice_are_waited_for_in_a_game_without_dice(app: App) -> None:
    table = seated(app, "dino_hunt")
    legal = legal_actions(table.state)
    table.take(legal[0])
    assert not table.idle and table.tray_part is None
    table.refresh_buttons()
    tips = [c.why_disabled for c in table.menu.controls if not c.enabled]
    assert tips and not any("dice" in tip.lower() for tip in tips)
