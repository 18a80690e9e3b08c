"""The "Saved games" list and "Save as...", driven as a player would: keys and clicks."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random
from typing import Any

import pygame

from dinotable import saves
from dinotable.app import App
from dinotable.engine import apply, new_game, sample_action
from dinotable.ruleset import load_by_id
from dinotable.scenes.save_as import SaveAsScene
from dinotable.scenes.saved import Opened, SavedGamesScene


def _game(seed: int = 3, moves: int = 15) -> tuple[saves.SavedGame, Any]:
    rules = load_by_id("dino_hunt_dice")
    state = new_game(rules, ["Ann", "Ben"], None, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.game_over:
            break
        apply(state, sample_action(state, rng))
    return saves.SavedGame(rules.id, rules.version, [saves.SavedSeat("Ann", "human", 0),
                                                     saves.SavedSeat("Ben", "human", 1)],
                           dict(state.options), seed,
                           [(a.player, a.id, a.args) for a in state.log]), state


def _key(key: int, text: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=text, scancode=0)


def _click(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)


def test_save_as_takes_a_typed_name_and_the_list_opens_it(app: App) -> None:
    game, state = _game()
    results: list[Any] = []
    scene = SaveAsScene(app, game, state)
    app.push(scene, results.append)
    app.step()
    assert scene.typing
    for _ in range(len(scene.name)):
        app.step([_key(pygame.K_BACKSPACE)])
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="Friday")])
    app.step([_key(pygame.K_RETURN)])
    assert len(results) == 1 and results[0].parent == saves.saves_dir()
    assert scene not in app.stack

    listing = SavedGamesScene(app)
    app.push(listing, results.append)
    app.step()
    assert [e.name for e in listing.entries] == ["Friday"]
    app.step([_key(pygame.K_RETURN)])  # the focus starts on Open
    opened = results[-1]
    assert isinstance(opened, Opened) and not opened.finished
    assert opened.game == game and opened.game.replay().to_dict() == state.to_dict()


def test_cancel_saves_nothing(app: App) -> None:
    game, state = _game()
    results: list[Any] = []
    app.push(SaveAsScene(app, game, state), results.append)
    app.step([_key(pygame.K_ESCAPE)])
    assert results == [None] and saves.list_saves() == []


def test_delete_asks_once_more_then_deletes_the_selected_save(app: App) -> None:
    for n in range(3):
        saves.save_as(_game(seed=n)[0], f"Game {n}")
    listing = SavedGamesScene(app)
    app.push(listing)
    app.step()
    second = listing._row_rect(1).center
    app.step([_click(second)])
    doomed = listing.chosen
    assert doomed is not None and listing.selected == 1
    app.step([_key(pygame.K_DELETE)])
    assert doomed.path.exists() and listing.menu.find("delete").label == "Really delete?"
    app.step([_key(pygame.K_DELETE)])
    assert not doomed.path.exists() and len(listing.entries) == 2


def test_the_finished_games_tab_lists_games_played_to_the_end(app: App) -> None:
    game, state = _game(moves=10_000)
    assert state.game_over
    assert saves.try_write(game) is None and saves.archive() is not None
    results: list[Any] = []
    listing = SavedGamesScene(app)
    app.push(listing, results.append)
    app.step()
    assert listing.entries == []
    app.step([_click(listing.menu.find("tab:finished").rect.center)])
    assert listing.finished and len(listing.entries) == 1
    entry = listing.entries[0]
    winner = state.players[state.winners[0]]
    assert entry.line().startswith(f"{winner} won in round {state.round}")
    listing.open()
    assert isinstance(results[-1], Opened) and results[-1].finished
