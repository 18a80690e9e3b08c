"""The pause menu's "Save as..." and "Cards", driven with keys as a player would."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from dinotable import saves
from dinotable.app import App
from dinotable.engine import Action
from dinotable.ruleset import load_by_id
from dinotable.scenes.cards import CardsScene
from dinotable.scenes.pause import PauseScene
from dinotable.scenes.save_as import SaveAsScene, default_name
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def table(app: App, ruleset: str) -> TableScene:
    scene = TableScene(app, load_by_id(ruleset),
                       [Seat("Ann", "human", 0), Seat("Ben", "heuristic", 1)], {}, 1)
    app.push(scene)
    app.step()
    return scene


def test_save_as_keeps_the_game_under_its_name_and_the_menu_says_so(app: App) -> None:
    at = table(app, "dino_hunt_dice")
    at.take(Action(0, "roll", ()))
    app.step([key(pygame.K_ESCAPE)])
    pause = app.top
    assert isinstance(pause, PauseScene) and not pause.saved_as
    pause.menu.activate(pause.menu.find("save_as"))
    asking = app.top
    assert isinstance(asking, SaveAsScene)
    for _ in range(len(asking.name)):
        app.step([key(pygame.K_BACKSPACE)])
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="Friday")])
    app.step([key(pygame.K_RETURN)])
    assert app.top is pause and pause.saved_as == "Friday"
    [entry] = saves.list_saves()
    assert entry.name == "Friday" and entry.players == ["Ann", "Ben"]
    assert saves.read(entry.path).log == [(0, "roll", ())]


def test_a_cancelled_save_as_saves_nothing_and_says_nothing(app: App) -> None:
    table(app, "dino_hunt_dice")
    app.step([key(pygame.K_ESCAPE)])
    pause = app.top
    app.step([key(pygame.K_s)])
    app.step([key(pygame.K_ESCAPE)])
    assert app.top is pause and pause.saved_as == "" and saves.list_saves() == []


def test_cards_opens_the_games_cards_and_esc_comes_back_to_the_menu(app: App) -> None:
    at = table(app, "dino_hunt")
    app.step([key(pygame.K_ESCAPE)])
    pause = app.top
    assert pause.menu.find("cards").label == "Cards"
    app.step([key(pygame.K_k)])
    cards = app.top
    assert isinstance(cards, CardsScene) and cards.rules is at.rules and cards.groups
    app.step([key(pygame.K_ESCAPE)])
    assert app.top is pause


def test_a_game_without_cards_has_no_cards_button(app: App) -> None:
    table(app, "dino_hunt_dice")
    app.step([key(pygame.K_ESCAPE)])
    tags = [c.tag for c in app.top.menu.controls]
    assert "cards" not in tags and "save_as" in tags


def test_restart_asks_first_and_keeps_the_game_in_saved_games(app: App) -> None:
    at = table(app, "dino_hunt_dice")
    at.take(Action(0, "roll", ()))
    app.step([key(pygame.K_ESCAPE)])
    pause = app.top
    assert isinstance(pause, PauseScene)
    pause.menu.activate(pause.menu.find("restart"))
    assert app.top is pause and pause.asking, "Restart dealt a new game without asking"
    assert "kept in Saved games" in " ".join(pause.restart_question())
    app.step([key(pygame.K_ESCAPE)])  # Esc answers no: back to the menu, the game stands
    assert app.top is pause and not pause.asking and app.stack[-2] is at
    pause.menu.activate(pause.menu.find("restart"))
    pause.menu.activate(pause.menu.find("restart_yes"))
    fresh = app.top
    assert isinstance(fresh, TableScene) and fresh is not at and not fresh.state.log
    [kept] = saves.list_saves()
    assert saves.read(kept.path).log == [(0, "roll", ())]


def test_the_s_that_opens_save_as_is_not_typed_into_the_name(app: App) -> None:
    table(app, "dino_hunt_dice")
    app.step([key(pygame.K_ESCAPE)])
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=0, unicode="s",
                                 scancode=0),
              pygame.event.Event(pygame.TEXTINPUT, text="s")])
    asking = app.top
    assert isinstance(asking, SaveAsScene)
    assert asking.name == default_name(asking.game, asking.state)
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x, mod=0, unicode="x",
                                 scancode=0),
              pygame.event.Event(pygame.TEXTINPUT, text="x")])
    assert asking.name.endswith("x"), "a letter typed in the box is lost"
