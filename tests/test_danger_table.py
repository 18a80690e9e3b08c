"""Danger! Danger! Dinosaur's table as a new player reads it: the tray counts the dinosaurs
among the red dice (a blank one is no danger)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from dinotable.app import App
from dinotable.engine import legal_actions, new_game, view_for
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene

RULES = "danger_danger_dinosaur"


def table_for(app: App, kinds: list[str], seed: int, options: dict[str, object] | None = None,
              names: list[str] | None = None) -> TableScene:
    """A Danger! Danger! Dinosaur table pushed on the app, seats of these kinds."""
    names = names or ["Ann", "Ben", "Cat", "Dan"]
    seats = [Seat(names[i], kind, i) for i, kind in enumerate(kinds)]
    table = TableScene(app, load_by_id(RULES), seats, dict(options or {}), seed)
    app.push(table)
    return table


def settle(app: App, table: TableScene, frames: int = 900) -> None:
    """Frames until the move's playback is over and the dice rest."""
    for _ in range(frames):
        app.step([], 1 / 30)
        if table.idle and not table.steps and (
                table.tray_part is None or table.tray_part.toss is None):
            break
    app.redraw = True
    app.step([], 1 / 30)


def take(app: App, table: TableScene, action_id: str) -> None:
    """The current player's first legal move of this kind, played out on the table."""
    action = next(a for a in legal_actions(table.state) if a.id == action_id)
    table.take(action)
    settle(app, table)


def test_the_tray_counts_only_the_red_dice_showing_a_dinosaur(app: App,
                                                            words: list[str]) -> None:
    for seed in range(1, 40):
        table = table_for(app, ["human", "heuristic"], seed)
        settle(app, table)
        take(app, table, "roll")
        take(app, table, "reroll")
        state = table.state
        faces = [state.items[i].face for i in state.zones["danger"][0]]
        if "blank" in faces and table.state.current == 0:
            break
        app.pop()
    else:
        raise AssertionError("no reroll brought a blank red die")
    words.clear()
    app.redraw = True
    app.step([], 1 / 30)
    caption = [w for w in words if w.startswith("Dinosaurs:")]
    assert caption == [f"Dinosaurs: {faces.count('dinosaur')}"], (faces, caption)


def test_a_page_arrow_the_pointer_passed_over_is_not_left_ringed(app: App) -> None:
    table = table_for(app, ["human", "heuristic"], 3)
    settle(app, table)
    arrow = table.menu.find("page:next")
    assert arrow.enabled, "the bar pages at 1280x720"
    for pos in (arrow.rect.center, (700, 300)):  # over the ">" and away again
        app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                     buttons=(0, 0, 0))], 1 / 30)
    take(app, table, "roll")
    menu = table.menu
    assert menu.show_focus
    assert menu.focused.tag == "start:reroll" or menu.focused.tag.startswith("action:"), (
        menu.focused.tag)


def test_a_party_game_is_an_open_race_and_the_standard_game_keeps_scores_secret() -> None:
    rules = load_by_id(RULES)
    party = new_game(rules, ["Ann", "Ben"], {"variant": "party"}, 3)
    standard = new_game(rules, ["Ann", "Ben"], {"variant": "standard"}, 3)
    assert view_for(party, 0)["scores"][1] is not None, "every score shows in a party game"
    assert view_for(standard, 0)["scores"][1] is None, "Secret cards keep scores secret"


def test_a_bot_with_a_long_name_is_still_marked_as_a_bot(app: App, words: list[str]) -> None:
    name = "Bartholomew the Magnificent"
    table = table_for(app, ["human", "heuristic"], 3, {"variant": "party"},
                      names=["Ann", name])
    settle(app, table)
    words.clear()
    app.redraw = True
    app.step([], 1 / 30)
    assert any(w.endswith("(bot)") for w in words if w.startswith(name[:3])), words
