"""Games in progress are kept on disk after every move and can be continued; a broken save
is reported in words and kept, never a crash."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path

import pygame
import pytest

from dinotable import saves
from dinotable.app import App
from dinotable.engine import apply, legal_actions
from dinotable.ruleset import LoadError, load_by_id
from dinotable.scenes.message import MessageScene
from dinotable.scenes.results import ResultsScene
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.scenes.title import TitleScene


def _play(table: TableScene, moves: int) -> None:
    for _ in range(moves):
        table.take(legal_actions(table.state)[0])


def test_every_move_is_saved_and_the_save_rebuilds_the_same_game(app: App) -> None:
    rules = load_by_id("dinosaur_dice")
    seats = [Seat("Ann", "human", 0), Seat("Ben", "heuristic", 1), Seat("Cat", "random", 2)]
    table = TableScene(app, rules, seats, {"goal": 10}, 77)
    _play(table, 9)
    saved = saves.read()
    assert [(s.name, s.kind, s.colour) for s in saved.seats] == [
        ("Ann", "human", 0), ("Ben", "heuristic", 1), ("Cat", "random", 2)]
    assert saved.options["goal"] == 10 and len(saved.log) == 9
    assert saved.replay().to_dict() == table.state.to_dict()


def test_the_title_offers_to_continue_and_continuing_sits_everyone_back_down(app: App) -> None:
    rules = load_by_id("dino_hunt_dice")
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1)]
    table = TableScene(app, rules, seats, {}, 5)
    _play(table, 3)
    title = TitleScene(app)
    app.push(title)
    app.step()
    state = table.state
    assert title.saved is not None and title.saved.describe() == (
        f"Round {state.round} — Ann {state.score(0)}, Ben {state.score(1)}, with Ann and Ben")
    continue_button = title.menu.find("continue")
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=continue_button.rect.center,
                                 button=1)])
    resumed = app.top
    assert isinstance(resumed, TableScene)
    assert resumed.state.to_dict() == table.state.to_dict()
    assert [s.name for s in resumed.seats] == ["Ann", "Ben"]


def test_a_finished_game_is_no_longer_offered(app: App) -> None:
    rules = load_by_id("dino_hunt_dice")
    table = TableScene(app, rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)],
                       {"goal": 5}, 8)
    while not table.state.game_over:
        table.take(legal_actions(table.state)[-1])
    assert not saves.autosave_path().exists()
    title = TitleScene(app)
    assert title.saved is None
    with pytest.raises(KeyError):
        title.menu.find("continue")
    assert not isinstance(app.top if app.stack else None, ResultsScene)


def test_a_broken_save_is_reported_in_words_and_kept_aside(app: App) -> None:
    path = saves.autosave_path()
    path.parent.mkdir(parents=True)
    path.write_text("format: 1\nruleset: dino_hunt_dice\nversion: 1\nseats: nobody\n"
                    "options: {}\nseed: 3\nlog: []\n")
    title = TitleScene(app)
    app.push(title)
    app.step()
    message = app.top
    assert isinstance(message, MessageScene)
    text = " ".join(message.lines)
    assert "autosave.yaml:4:1: seats: expected list" in text
    assert "autosave.unreadable.yaml" in text
    assert (path.parent / "autosave.unreadable.yaml").read_text().startswith("format: 1")
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="",
                                 scancode=0)])
    assert app.top is title and title.saved is None


def test_a_save_whose_moves_the_rules_refuse_names_the_move() -> None:
    rules = load_by_id("dino_hunt_dice")
    game = saves.SavedGame("dino_hunt_dice", rules.version,
                           [saves.SavedSeat("Ann", "human", 0), saves.SavedSeat("Ben", "human", 1)],
                           {}, 4, [(0, "stop", ())])
    with pytest.raises(LoadError) as info:
        game.replay()
    assert "move 1 cannot be replayed" in str(info.value)
    assert "Roll at least once before you stop." in str(info.value)


def test_saving_never_interrupts_a_game_on_a_read_only_disk(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    game = saves.SavedGame("dino_hunt_dice", 1, [], {}, 1, [])
    assert saves.write(game, blocked / "autosave.yaml") is False


def test_a_save_round_trips_through_its_file(tmp_path: Path) -> None:
    rules = load_by_id("dinosaur_dice")
    from dinotable.engine import new_game

    state = new_game(rules, ["Ann", "Ben"], {"goal": 8}, 12)
    for _ in range(6):
        apply(state, legal_actions(state)[0])
    game = saves.SavedGame(rules.id, rules.version, [saves.SavedSeat("Ann", "human", 0),
                                                     saves.SavedSeat("Ben", "random", 3)],
                           dict(state.options), 12,
                           [(a.player, a.id, a.args) for a in state.log])
    path = tmp_path / "game.yaml"
    assert saves.write(game, path)
    back = saves.read(path)
    assert back == game
    assert back.replay().to_dict() == state.to_dict()


def test_a_chosen_subset_of_dice_is_saved_as_a_list_and_read_back_as_the_same_move(
        tmp_path: Path) -> None:
    log = [(0, "reroll", (("dice", ("die2", "die5")),)), (1, "score", ())]
    game = saves.SavedGame("dino_hunt_dice", 1, [saves.SavedSeat("Ann", "human", 0),
                                                 saves.SavedSeat("Ben", "random", 3)],
                           {}, 4, log)
    path = tmp_path / "game.yaml"
    assert saves.write(game, path)
    assert "- die2" in path.read_text() or "[die2, die5]" in path.read_text()
    back = saves.read(path)
    assert back.log == log


def test_the_continue_line_says_the_round_and_the_scores_not_the_moves(app: App) -> None:
    rules = load_by_id("dino_hunt_dice")
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1), Seat("Cat", "human", 2)]
    table = TableScene(app, rules, seats, {"goal": 13}, 11)
    # Play on (stopping whenever possible) until a later round, with somebody scoring.
    while table.state.round < 3 or not any(table.state.score(s) for s in range(3)):
        table.take(legal_actions(table.state)[-1])
        assert not table.state.game_over
    saved = saves.read()
    state = table.state
    line = saved.describe()
    assert line == saved.describe(saved.replay())  # replayed here, or given the state
    assert line.startswith(f"Round {state.round} — Ann {state.score(0)}, ")
    assert line.endswith(f"Cat {state.score(2)}, with Ann, Ben and Cat")
    assert "moves" not in line and ".0" not in line
