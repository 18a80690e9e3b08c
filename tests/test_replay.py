"""The replay viewer: a saved game watched move by move, as a player would step through it."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random
from pathlib import Path
from typing import Any

import pygame

from dinotable import saves
from dinotable.app import App
from dinotable.cli import main
from dinotable.engine import GameState, apply, new_game, sample_action, view_for
from dinotable.replays import replay_of
from dinotable.ruleset import load_by_id
from dinotable.scenes.replay import ReplayScene
from dinotable.scenes.results import ResultsScene
from dinotable.scenes.saved import Opened
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.scenes.title import TitleScene


def played(ruleset: str, seed: int, moves: int | None = None,
           options: dict[str, Any] | None = None) -> tuple[saves.SavedGame, GameState]:
    """A game between Ann and Ben (both people), played by random choices."""
    rules = load_by_id(ruleset)
    state = new_game(rules, ["Ann", "Ben"], options, seed)
    rng = random.Random(seed)
    while not state.game_over and (moves is None or len(state.log) < moves):
        apply(state, sample_action(state, rng))
    game = saves.SavedGame(rules.id, rules.version, [saves.SavedSeat("Ann", "human", 0),
                                                     saves.SavedSeat("Ben", "human", 1)],
                           dict(state.options), seed,
                           [(a.player, a.id, a.args) for a in state.log])
    return game, state


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def faces(viewer: ReplayScene) -> dict[str, Any]:
    """What the table shows: every die's face where it lies, and every zone."""
    table = viewer.table
    return {"sprites": {i: (s.zone, s.face) for i, s in table.sprites.items()},
            "zones": table.view["zones"]}


def test_stepping_forward_through_a_whole_game_reaches_its_final_state(app: App) -> None:
    game, final = played("dino_hunt_dice", 4, options={"goal": 6})
    assert final.game_over
    viewer = ReplayScene(app, replay_of(game), game)
    app.push(viewer)
    app.step()
    assert viewer.status().startswith(f"Move 0 of {len(game.log)} · Round 1 · Ann")
    rolls = 0
    while viewer.index < viewer.last:
        app.step([key(pygame.K_RIGHT)])
        thrown = False
        for _ in range(2000):  # the move plays out; a roll throws the dice across the tray
            thrown = thrown or viewer.table.toss is not None
            if viewer.table.idle:
                break
            viewer.table.update(0.05)
        rolls += thrown
    assert rolls > 0
    assert viewer.table.state.to_dict() == final.to_dict() == game.replay().to_dict()
    assert viewer.table.view == view_for(final, None, everything=True)
    assert viewer.table.what_to_do() == "The game is over."
    assert not viewer.menu.find("forward").enabled


def test_back_then_forward_shows_the_same_faces(app: App) -> None:
    game, _ = played("dino_hunt_dice", 7, moves=30)
    replay = replay_of(game)
    viewer = ReplayScene(app, replay, game)
    app.push(viewer)
    roll = next(i for i, s in enumerate(replay.steps)
                if s.action is not None and s.action.id == "roll" and i > 3)
    viewer.go_to(roll - 1)
    viewer.forward()
    viewer.run_to_rest()
    before = faces(viewer)
    app.step([key(pygame.K_LEFT)])
    assert viewer.index == roll - 1 and faces(viewer) != before
    app.step([key(pygame.K_RIGHT)])
    viewer.run_to_rest()
    assert viewer.index == roll and faces(viewer) == before


def test_keys_jump_to_the_ends_and_between_turns_and_change_the_speed(app: App) -> None:
    game, _ = played("dino_hunt_dice", 2, moves=40)
    viewer = ReplayScene(app, replay_of(game), game)
    app.push(viewer)
    app.step([key(pygame.K_END)])
    assert viewer.index == viewer.last
    app.step([key(pygame.K_HOME)])
    assert viewer.index == 0
    app.step([key(pygame.K_PAGEDOWN), key(pygame.K_PAGEDOWN)])
    step = viewer.replay.steps[viewer.index]
    assert step.turn == 3 and viewer.replay.steps[viewer.index - 1].turn == 2
    app.step([key(pygame.K_PLUS)])
    assert viewer.speed == "fast" and viewer.menu.find("speed").value == "Fast"
    app.step([key(pygame.K_MINUS), key(pygame.K_MINUS)])
    assert viewer.speed == "slow"


def test_play_moves_on_by_itself_and_space_pauses_it(app: App) -> None:
    game, _ = played("dino_hunt_dice", 3, moves=20)
    viewer = ReplayScene(app, replay_of(game), game, speed="fast")
    app.push(viewer)
    app.step([key(pygame.K_SPACE)])
    assert viewer.playing and viewer.menu.find("play").label == "Pause"
    for _ in range(600):
        app.step(dt=0.1)
        if viewer.index >= 3:
            break
    assert viewer.index >= 3
    app.step([key(pygame.K_SPACE)])
    at = viewer.index
    for _ in range(100):
        app.step(dt=0.1)
    assert not viewer.playing and viewer.index == at


def test_esc_closes_the_replay(app: App) -> None:
    game, _ = played("dino_hunt_dice", 3, moves=5)
    closed: list[Any] = []
    viewer = ReplayScene(app, replay_of(game), game)
    app.push(TitleScene(app))
    app.push(viewer, closed.append)
    app.step([key(pygame.K_ESCAPE)])
    assert closed == [None] and viewer not in app.stack


def kinds_in_sight(state: GameState, seat: int) -> set[str]:
    """Every kind of item a seat can see face up anywhere on the table."""
    out: set[str] = set()
    for name, zone in view_for(state, seat)["zones"].items():
        for content in zone if state.rules.zones[name].per_player else [zone]:
            if isinstance(content, list):
                out.update(kind for _, kind, _ in content if kind is not None)
    return out


def secrets(state: GameState, seat: int) -> set[str]:
    """The kinds in a seat's hand that the other seat sees nowhere on the table."""
    hand = {state.items[k].kind for k in state.zones["hand"][seat]}
    return hand - kinds_in_sight(state, 1 - seat)


def hidden_position(game: saves.SavedGame) -> tuple[int, GameState]:
    """A position where each of Ann and Ben holds a card the other cannot see."""
    replay = replay_of(game)
    for i in range(len(replay.steps)):
        state = replay.state_at(i)
        if secrets(state, 0) and secrets(state, 1):
            return i, state
    raise AssertionError("no hidden hand in this game")


def test_a_hidden_hand_is_face_up_in_a_replay_and_never_at_the_table(app: App,
                                                                     drawn: list[str]) -> None:
    game, _ = played("dino_hunt", 11, moves=300)
    index, state = hidden_position(game)
    bens = secrets(state, 1)

    # At the table, with Ann holding the laptop: Ben's cards are never drawn.
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1)]
    table = TableScene(app, state.rules, seats, dict(game.options), game.seed,
                       state=replay_of(game).state_at(index), saving=False)
    table.handed(0)
    table.draw(app.canvas)
    assert drawn and not set(drawn) & bens

    # In the replay: every hand is face up.
    viewer = ReplayScene(app, replay_of(game), game)
    app.push(viewer)
    viewer.go_to(index)
    drawn.clear()
    app.step()
    assert bens <= set(drawn) and secrets(state, 0) <= set(drawn)


def test_a_finished_game_is_watched_from_the_results_and_from_the_finished_list(
        app: App) -> None:
    game, final = played("dino_hunt_dice", 5, options={"goal": 6})
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1)]
    table = TableScene(app, final.rules, seats, dict(game.options), game.seed,
                       state=game.replay(), saving=False)
    app.push(table)
    results = ResultsScene(app, table)
    app.push(results)
    app.step()
    assert results.menu.find("replay").label == "Watch the replay"
    app.step([key(pygame.K_r)])
    assert isinstance(app.top, ReplayScene) and app.top.last == len(game.log)
    app.step([key(pygame.K_ESCAPE)])
    assert app.top is results

    title = TitleScene(app)
    app.reset(title)
    title._opened(Opened(Path("finished/game.yaml"), game, True))
    assert isinstance(app.top, ReplayScene)


def test_dinotable_replay_opens_a_window_on_the_file_and_exits_0(tmp_path: Path) -> None:
    game, _ = played("dino_hunt_dice", 6, moves=12)
    path = saves.save_as(game, "Friday")
    assert main(["replay", str(path), "--frames", "5"]) == 0
