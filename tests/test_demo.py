"""Demo mode: bots play the shipped games in turn, each named and captioned, results shown
between games, nothing saved, and any key or click brings back the title."""

from __future__ import annotations

import os
import random
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from dinotable import bots, saves
from dinotable.app import App
from dinotable.cli import build_parser
from dinotable.engine import apply, new_game, redact
from dinotable.narrate import caption
from dinotable.paths import user_data_dir
from dinotable.render import theme
from dinotable.ruleset import installed_rulesets, load_by_id
from dinotable.scenes.demo import DemoScene, demo_seats
from dinotable.scenes.results import ResultsScene
from dinotable.scenes.setup import DEFAULT_NAMES
from dinotable.scenes.title import TitleScene

DICE_GAMES = ["dinosaur_dice", "dino_hunt_dice"]  # the two shortest shipped games


def key(app: App, k: int = pygame.K_SPACE) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=" ", scancode=0)])


def on_title(app: App) -> DemoScene:
    app.push(TitleScene(app))
    app.step()
    demo = DemoScene(app, ids=DICE_GAMES, speed="fast", seed=3)
    app.push(demo)
    return demo


def test_the_demo_plays_game_after_game_to_the_end_and_saves_nothing(app: App) -> None:
    speed = app.settings.bot_speed
    demo = on_title(app)
    played: list[tuple[str, int]] = []  # each finished game's name and moves
    captions: set[str] = set()
    for _ in range(6000):
        table = demo.table
        assert table is not None
        app.step(dt=0.5)
        captions.add(demo.caption)
        if demo.results_left is not None and (not played or played[-1][0] != demo.name):
            assert table.state.game_over
            assert isinstance(demo.stage.top, ResultsScene)  # the table's own results
            played.append((demo.name, len(table.state.log)))
        if demo.games == 3:  # the loop came back round to the first game
            break
    assert [name for name, _ in played] == ["Dinosaur Dice", "Dino Hunt Dice"]
    assert all(moves > 0 for _, moves in played)
    assert demo.name == "Dinosaur Dice" and demo.results_left is None
    assert app.top is demo  # the results never reached the real stack
    # What the bots did was told in sentences naming who did it.
    assert any(line.startswith(("Ann ", "Ben ")) for line in captions)
    assert not saves.autosave_path().exists()
    assert not saves.finished_dir().exists() or not any(saves.finished_dir().iterdir())
    assert not (user_data_dir() / "settings.json").exists()
    assert app.settings.bot_speed == speed  # the demo's pace is its own


def test_a_key_or_a_click_returns_to_the_title_even_at_once(app: App) -> None:
    demo = on_title(app)
    key(app)
    assert isinstance(app.top, TitleScene) and demo not in app.stack
    demo = DemoScene(app, ids=DICE_GAMES, speed="fast", seed=4)
    app.push(demo)
    for _ in range(40):
        app.step(dt=0.5)
    assert demo.table is not None and demo.table.state.log  # the bots have played
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(600, 300), button=1)])
    assert isinstance(app.top, TitleScene)
    assert not saves.autosave_path().exists()


def test_m_ends_the_demo_like_any_key_and_the_settings_stay_unwritten(app: App) -> None:
    muted = app.settings.muted
    on_title(app)
    key(app, pygame.K_m)
    assert isinstance(app.top, TitleScene)
    assert app.settings.muted == muted
    assert not (user_data_dir() / "settings.json").exists()


def test_the_mouse_moving_does_not_stop_the_demo(app: App) -> None:
    demo = on_title(app)
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=(10, 10), rel=(3, 3),
                                 buttons=(0, 0, 0))])
    assert app.top is demo


def test_the_title_button_and_d_start_the_demo(app: App) -> None:
    app.push(TitleScene(app))
    app.step()
    key(app, pygame.K_d)
    assert isinstance(app.top, DemoScene)
    key(app, pygame.K_ESCAPE)  # ends the demo, not the app
    assert isinstance(app.top, TitleScene) and app.running
    button = app.top.menu.find("demo")
    assert button.label == "Watch a demo"
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1)])
    demo = app.top
    assert isinstance(demo, DemoScene)
    assert demo.ids == [p.name for p in installed_rulesets()]  # every shipped game


def test_the_command_line_has_a_demo_flag() -> None:
    assert build_parser().parse_args(["--demo"]).demo
    assert not build_parser().parse_args([]).demo


@pytest.mark.parametrize("ruleset", [p.name for p in installed_rulesets()])
def test_demo_seats_are_two_to_four_bots_with_the_default_names(ruleset: str) -> None:
    rules = load_by_id(ruleset)
    counts = set()
    for seed in range(30):
        seats = demo_seats(rules, random.Random(seed))
        counts.add(len(seats))
        assert [s.name for s in seats] == DEFAULT_NAMES[:len(seats)]
        assert {s.kind for s in seats} == {"heuristic" if rules.bot_hints else "random"}
        assert rules.min_players <= len(seats) <= rules.max_players
    assert counts <= {2, 3, 4} and min(counts) == max(2, rules.min_players)


def test_a_ruleset_that_cannot_load_is_passed_over(app: App) -> None:
    demo = DemoScene(app, ids=["no_such_game", "dino_hunt_dice"], speed="fast", seed=1)
    assert demo.name == "Dino Hunt Dice"
    nothing = DemoScene(app, ids=["no_such_game"], seed=1)
    assert nothing.table is None and "no_such_game" in nothing.caption
    app.push(nothing)
    app.step()  # still drawn and stoppable
    key(app)
    assert isinstance(app.top, TitleScene)


# --- captions -----------------------------------------------------------------------------


def test_a_caption_tells_one_move_in_the_games_own_words() -> None:
    rules = load_by_id("dino_hunt_dice")
    state = new_game(rules, ["Ann", "Ben"], {"goal": 13}, 11)
    rng = random.Random(2)
    seen = []
    while not state.game_over and len(seen) < 60:
        action = bots.choose("heuristic", state, rng)
        events = redact(apply(state, action), None, state)
        line = caption(events, state)
        seen.append((action, events, line))
        assert line and "\n" not in line and "---" not in line
        name = state.players[action.player]
        assert name in line  # who did it, never the next player's turn marker alone
        said = [e.data["text"] for e in events if e.kind == "said"]
        if said:  # the ruleset's own sentence is the caption when there is one
            assert said[0].replace("_", " ") in line
    rolls = [line for _, events, line in seen if not any(e.kind == "said" for e in events)
             and any(e.kind == "rolled" for e in events)]
    assert rolls and all(" rolls" in line for line in rolls)


def test_a_caption_counts_many_dice_by_face() -> None:
    rules = load_by_id("dinosaur_dice")
    state = new_game(rules, ["Ann", "Ben"], {}, 3)
    action = bots.choose("heuristic", state, random.Random(1))
    events = redact(apply(state, action), None, state)
    [rolled] = [e for e in events if e.kind == "rolled"]
    dice = rolled.data["dice"]
    line = caption(events, state)
    assert not any(e.kind == "said" for e in events)  # a plain roll, with this seed
    assert line.startswith(f"Ann rolls {len(dice)} dice: ")
    counted = line.split(": ", 1)[1].rstrip(".").split(", ")
    assert sum(int(part.split(" ", 1)[0]) for part in counted) == len(dice)


def test_a_game_that_breaks_mid_demo_is_logged_and_the_next_one_begins(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.scenes.table import TableScene

    demo = on_title(app)
    first = demo.table

    def broken(self: TableScene, dt: float) -> None:
        raise RuntimeError("a bot lost its way")

    with monkeypatch.context() as patch:
        patch.setattr(TableScene, "update", broken)
        app.step()
    assert app.top is demo and demo.table is not first and demo.name == "Dino Hunt Dice"
    [log] = user_data_dir().glob("crash-*.log")
    assert "a bot lost its way" in log.read_text(encoding="utf-8")


def test_dinotable_demo_opens_the_window_on_the_demo_and_saves_no_game() -> None:
    from helpers import run_cli

    done = run_cli("--demo", "--frames", "30")
    assert done.returncode == 0, done.stderr
    assert not saves.autosave_path().exists()  # DINOTABLE_HOME is this test's own folder
    assert not list(user_data_dir().glob("crash-*.log"))


def test_a_long_game_gives_way_to_the_next_within_a_few_minutes(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.scenes import demo as demo_module

    assert demo_module.GAME_S <= 180, "each game gets a few minutes at most"
    monkeypatch.setattr(demo_module, "GAME_S", 4.0)
    app.push(TitleScene(app))
    app.step()
    demo = DemoScene(app, ids=["dino_hunt", "dino_hunt_dice"], speed="fast", seed=3)
    app.push(demo)
    said: set[str] = set()
    seconds = 0.0
    while demo.name == "Dino Hunt" and seconds < 30:
        app.step(dt=0.1)
        seconds += 0.1
        said.add(demo.caption)
    assert demo.name == "Dino Hunt Dice", "Dino Hunt held the show"
    assert seconds <= 4.0 + demo_module.TIME_UP_S + 10  # the move under way may finish
    told = [line for line in said if line.startswith("Time's up for Dino Hunt")]
    assert told and ("lead" in told[0] or "level" in told[0]) and "Next: Dino Hunt Dice" in (
        told[0])


def test_the_demo_shows_every_score_and_says_any_key_leaves(app: App) -> None:
    app.push(TitleScene(app))
    app.step()
    demo = DemoScene(app, ids=["dino_hunt"], speed="fast", seed=5)
    app.push(demo)
    table = demo.table
    assert table is not None and table.rules.reveal_scores == "at_end"
    for _ in range(200):
        app.step(dt=0.1)
    assert table.state.log, "no bot moved"
    assert None not in table.view["scores"], "a score shows as ?"
    assert "H to hurry" not in table.what_to_do()
    said: list[str] = []
    text = theme.text

    def spy(surface: Any, string: str, *args: Any, **kwargs: Any) -> Any:
        said.append(string)
        return text(surface, string, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(theme, "text", spy)
        demo.draw(app.canvas)
    assert any("any key" in w.lower() and "leave" in w.lower() for w in said)
    assert not any("H to hurry" in w for w in said)
