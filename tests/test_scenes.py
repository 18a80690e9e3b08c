"""The real scenes, driven headless with synthetic mouse and keyboard events.

A player's-eye check: pick a game, seat people and a bot, throw dice by dragging or with the
keyboard, decide, reach the results and play again; every scene draws at two window sizes.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from dinotable.app import App
from dinotable.paths import rulesets_dir
from dinotable.ruleset import load_by_id
from dinotable.scenes.base import Scene
from dinotable.scenes.handoff import HandoffScene
from dinotable.scenes.pause import PauseScene
from dinotable.scenes.results import ResultsScene
from dinotable.scenes.rules import RulesScene
from dinotable.scenes.setup import Seat, SetupScene, start_table
from dinotable.scenes.table import TableScene
from dinotable.scenes.title import TitleScene
from dinotable.settings import Settings
from dinotable.table.dice_parts import TRAY

FRAME = 1 / 30  # tests step at 30 frames a second: the same animations, half the frames
MAX_FRAMES = 60_000


class Player:
    """Synthetic input for the app, in canvas coordinates (the window is 1280x720)."""

    def __init__(self, app: App) -> None:
        self.app = app

    def frames(self, n: int = 1) -> None:
        for _ in range(n):
            self.app.step(dt=FRAME)

    def key(self, key: int, mod: int = 0) -> None:
        self.app.step([pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="",
                                          scancode=0)], FRAME)

    def type(self, text: str) -> None:
        for ch in text:
            self.app.step([pygame.event.Event(pygame.TEXTINPUT, text=ch)], FRAME)

    def click(self, pos: tuple[int, int]) -> None:
        self.app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0,
                                          0, 0)),
                       pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                       pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], FRAME)

    def drag(self, start: tuple[int, int], end: tuple[int, int], steps: int = 6) -> None:
        events = [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1)]
        for k in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * k // steps
            y = start[1] + (end[1] - start[1]) * k // steps
            events.append(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0),
                                             buttons=(1, 0, 0)))
        events.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
        self.app.step(events, FRAME)

    def people_turns(self, table: TableScene) -> Iterator[None]:
        """Step frames until the results; yield each time a person may act at the table."""
        for _ in range(MAX_FRAMES):
            if isinstance(self.app.top, ResultsScene):
                return
            self.frames()
            if self.app.top is table and table.idle and not table.is_bot(table.state.current):
                yield
        raise AssertionError("the game never reached its results")

    def until(self, done: object, limit: int = MAX_FRAMES) -> None:
        for _ in range(limit):
            if callable(done) and done():
                return
            self.frames()
        raise AssertionError("the app never got there")


def control_centre(scene: Scene, tag: str) -> tuple[int, int]:
    menu = scene.menu  # type: ignore[attr-defined]
    rect = menu.find(tag).rect
    return rect.center


def test_a_three_seat_game_with_one_bot_is_played_to_the_end_with_the_mouse(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    # The table's dice come from the seed Start picks: pinned, so the game is the same game
    # every run (one where a person gets to press Stop before the goal is reached).
    import dinotable.scenes.setup as setup_module

    monkeypatch.setattr(setup_module.random, "randrange", lambda n: 12345)
    you = Player(app)
    app.push(TitleScene(app))
    you.frames()
    you.click(control_centre(app.top, "game:dino_hunt_dice"))
    setup = app.top
    assert isinstance(setup, SetupScene)
    assert [s.kind for s in setup.seats] == ["human", "human", "heuristic"]
    goal = setup.menu.find("option:goal").rect
    for _ in range(15):  # the left half of a stepper steps down: 20 -> 5
        you.click((goal.centerx - 40, goal.centery))
    assert setup.options["goal"] == 5
    you.click(control_centre(setup, "start"))
    table = app.top
    assert isinstance(table, TableScene)
    assert [s.name for s in table.seats] == ["Ann", "Ben", "Cat"]
    rng = random.Random(3)
    flings = stops = 0
    for _ in you.people_turns(table):
        stop = table.menu.find("action:stop")
        if stop.enabled and rng.random() < 0.5:
            you.click(stop.rect.center)
            stops += 1
        else:
            start = (TRAY.right - 60, TRAY.centery + rng.randrange(-120, 120))
            you.drag(start, (TRAY.x + 80, TRAY.centery + rng.randrange(-100, 100)))
            flings += 1
    results = app.top
    assert isinstance(results, ResultsScene)
    state = table.state
    assert state.game_over and len(state.winners) == 1
    assert max(state.score(s) for s in range(3)) >= 5
    assert flings > 0 and stops > 0
    # The bot took its turns through the same table: it has played as often as the others.
    assert state.turns >= 3
    you.click(control_centre(results, "again"))
    again = app.top
    assert isinstance(again, TableScene) and again is not table
    # The same people round the table, but the one after the last starter starts.
    assert [s.name for s in again.seats] == ["Ben", "Cat", "Ann"]
    assert [s.kind for s in again.seats] == ["human", "heuristic", "human"]
    assert again.state.current == 0 and again.name(again.state.current) == "Ben"
    assert not again.state.game_over and again.state.turns == 1


def test_a_game_is_played_to_the_end_with_the_keyboard_alone(app: App) -> None:
    you = Player(app)
    app.push(TitleScene(app))
    you.frames()
    # Dino Hunt Dice has the focus once tabbed to (games are listed by id).
    while app.top.menu.focused.tag != "game:dino_hunt_dice":  # type: ignore[attr-defined]
        you.key(pygame.K_TAB)
    you.key(pygame.K_RETURN)
    setup = app.top
    assert isinstance(setup, SetupScene)
    # The first seat's name has the focus: rename Ann to Zoe.
    for _ in range(3):
        you.key(pygame.K_BACKSPACE)
    you.type("Zoe")
    assert setup.seats[0].name == "Zoe"
    while setup.menu.focused.tag != "kind:2":
        you.key(pygame.K_TAB)
    you.key(pygame.K_LEFT)  # Cat: clever bot -> person
    assert setup.seats[2].kind == "human"
    you.key(pygame.K_RIGHT)
    assert setup.seats[2].kind == "heuristic"
    while setup.menu.focused.tag != "option:goal":
        you.key(pygame.K_TAB)
    for _ in range(15):
        you.key(pygame.K_LEFT)
    assert setup.options["goal"] == 5
    while setup.menu.focused.tag != "start":
        you.key(pygame.K_TAB)
    you.key(pygame.K_RETURN)
    table = app.top
    assert isinstance(table, TableScene)
    assert table.seats[0].name == "Zoe"
    rolled_this_turn = False
    last_turn = -1
    for _ in you.people_turns(table):
        if table.state.turns != last_turn:
            last_turn, rolled_this_turn = table.state.turns, False
        if rolled_this_turn and table.menu.find("action:stop").enabled:
            you.key(pygame.K_s)
        else:
            you.key(pygame.K_SPACE)
            rolled_this_turn = True
    assert isinstance(app.top, ResultsScene)
    you.key(pygame.K_ESCAPE)
    assert isinstance(app.top, TitleScene)


def test_the_dice_come_to_rest_showing_the_faces_the_engine_rolled(app: App) -> None:
    you = Player(app)
    start_table(app, "dino_hunt_dice", ["Ann", "Ben"], ["human", "human"], seed=11)
    table = app.top
    assert isinstance(table, TableScene)
    for throw in range(8):
        you.until(lambda: table.idle)
        if table.state.game_over:
            break
        you.key(pygame.K_SPACE)
        you.until(lambda: table.idle)
        shown = {sid: s.face for sid, s in table.sprites.items()}
        engine = {table.state.items[i].id: table.state.items[i].face
                  for zone, lists in table.state.zones.items() if zone != "cup"
                  for content in lists for i in content}
        assert shown == engine, f"throw {throw}"
        for sprite in table.sprites.values():
            if sprite.zone == "hand":
                assert TRAY.collidepoint(sprite.x, sprite.y)


def test_the_hand_off_screen_asks_for_the_next_player_when_it_is_always_on(app: App) -> None:
    you = Player(app)
    app.settings.always_handoff = True
    start_table(app, "dino_hunt_dice", ["Ann", "Ben"], ["human", "human"], seed=2)
    you.frames()
    handoff = app.top
    assert isinstance(handoff, HandoffScene) and handoff.name == "Ann"
    you.key(pygame.K_RETURN)
    table = app.top
    assert isinstance(table, TableScene)
    you.key(pygame.K_SPACE)
    you.until(lambda: isinstance(app.top, HandoffScene) or (
        table.idle and table.menu.find("action:stop").enabled))
    if not isinstance(app.top, HandoffScene):
        you.key(pygame.K_s)
        you.until(lambda: isinstance(app.top, HandoffScene))
    assert isinstance(app.top, HandoffScene) and app.top.name == "Ben"


def test_pause_offers_rules_and_quitting_to_the_title(app: App) -> None:
    you = Player(app)
    app.push(TitleScene(app))
    start_table(app, "dino_hunt_dice", ["Ann", "Ben"], ["human", "heuristic"], seed=4)
    you.key(pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseScene)
    you.key(pygame.K_F1)
    assert isinstance(app.top, RulesScene)
    rules = app.top
    you.key(pygame.K_PAGEDOWN)
    assert rules.scroll > 0
    you.key(pygame.K_ESCAPE)
    assert app.top is pause
    you.click(control_centre(pause, "quit"))
    assert isinstance(app.top, TitleScene) and len(app.stack) == 1


def test_a_disabled_action_says_why(app: App) -> None:
    start_table(app, "dino_hunt_dice", ["Ann", "Ben"], ["human", "human"], seed=4)
    table = app.top
    assert isinstance(table, TableScene)
    Player(app).frames()
    stop = table.menu.find("action:stop")
    assert not stop.enabled
    assert stop.why_disabled == "Roll at least once before you stop."


def _every_scene(app: App) -> list[Scene]:
    rules = load_by_id("dino_hunt_dice")
    seats = [Seat("Ann", "human", 0), Seat("Ben", "heuristic", 1)]
    table = TableScene(app, rules, seats, {"goal": 5}, 9)
    from dinotable.engine import apply, legal_actions

    while not table.state.game_over:
        apply(table.state, legal_actions(table.state)[-1])
    return [TitleScene(app), SetupScene(app, rules), TableScene(app, rules, seats, {}, 1),
            HandoffScene(app, "Ben", (30, 80, 170)), PauseScene(app, table),
            RulesScene(app, rules), ResultsScene(app, table)]


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_every_scene_draws_at_two_window_sizes(size: tuple[int, int]) -> None:
    app = App(size=size, settings=Settings())
    try:
        scenes = _every_scene(app)
        for scene in scenes:
            if isinstance(scene, PauseScene):
                # a modal is drawn over the table it pauses
                app.reset(next(s for s in scenes if isinstance(s, TableScene)))
                app.push(scene)
            else:
                app.reset(scene)
            for _ in range(3):
                app.step(dt=FRAME)
            window = pygame.display.get_surface()
            assert window.get_size() == size
            # Something was drawn: the window is not one flat colour.
            colours = {window.get_at((x, y))[:3] for x in range(0, size[0], 97)
                       for y in range(0, size[1], 89)}
            assert len(colours) > 3, type(scene).__name__
    finally:
        pygame.quit()


def test_a_click_in_a_letterboxed_window_lands_on_the_same_button() -> None:
    app = App(size=(800, 600), settings=Settings())
    try:
        app.push(TitleScene(app))
        view = app.viewport()
        rect = app.top.menu.find("game:dino_hunt_dice").rect  # type: ignore[attr-defined]
        x = view.x + rect.centerx * view.w // 1280
        y = view.y + rect.centery * view.h // 720
        app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1)], FRAME)
        assert isinstance(app.top, SetupScene)
    finally:
        pygame.quit()


def test_a_broken_ruleset_is_listed_as_unavailable_with_its_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(rulesets_dir() / "dino_hunt_dice", tmp_path / "dino_hunt_dice")
    broken = tmp_path / "broken_game"
    broken.mkdir()
    (broken / "rules.yaml").write_text("id: broken_game\nname: Broken\nplayers: {min: 2}\n")
    monkeypatch.setenv("DINOTABLE_RULESETS", str(tmp_path))
    app = App(settings=Settings())
    try:
        title = TitleScene(app)
        app.push(title)
        app.step(dt=FRAME)
        entries = {e.id: e for e in title.entries}
        assert entries["dino_hunt_dice"].rules is not None
        assert entries["broken_game"].rules is None
        assert "rules.yaml:" in entries["broken_game"].problem
        assert "missing section" in entries["broken_game"].problem
        assert not title.menu.find("game:broken_game").enabled
    finally:
        pygame.quit()


def test_the_command_line_draws_frames_and_exits_0() -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-m", "dinotable", "--frames", "3"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-m", "dinotable", "play", "dino_hunt_dice",
                           "--players", "Ann,Ben", "--bots", "human,heuristic", "--frames",
                           "5"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_dinosaur_dice_four_seats_two_bots_reach_the_cave_through_the_real_scenes(
        app: App) -> None:
    """Two people and two bots race to the cave; people throw by dragging, hand in stones
    with S and steal by clicking the victim's row."""
    you = Player(app)
    start_table(app, "dinosaur_dice", ["Ann", "Ben", "Cat", "Dev"],
                ["human", "heuristic", "human", "heuristic"], seed=21, options={"goal": 8})
    table = app.top
    assert isinstance(table, TableScene)
    rng = random.Random(5)
    steals = stones = throws = 0
    for _ in you.people_turns(table):
        targets = table.steal_targets()
        if targets:
            victim = rng.choice(sorted(targets))
            before = len(table.state.zones["kept"][victim])
            you.click(table.row_rect(victim).center)
            assert len(table.state.zones["kept"][victim]) == before - 1
            steals += 1
        elif table.menu.find("action:stone").enabled and len(table.state.zones["pool"][0]) <= 2:
            you.key(pygame.K_s)
            stones += 1
        else:
            tr = table.tr
            you.drag((tr.right - 50, tr.centery), (tr.x + 60, tr.centery + rng.randrange(-60, 60)))
            throws += 1
    assert isinstance(app.top, ResultsScene)
    state = table.state
    assert state.game_over
    assert max(state.player_vars[s]["position"] for s in range(4)) >= 8
    assert throws > 0
    # Every winner stands in the cave; the track shows them there.
    for s in state.winners:
        assert state.score(s) == 8
        assert round(table.shown.scores[s]) == 8


def test_stealing_is_done_by_clicking_the_victims_row(app: App) -> None:
    you = Player(app)
    start_table(app, "dinosaur_dice", ["Ann", "Ben", "Cat"], ["human", "human", "human"],
                seed=3)
    table = app.top
    assert isinstance(table, TableScene)
    you.frames()
    table.state.chance.force(["dinosaur"] * 4 + ["bone"] * 6 + ["egg"] * 2)
    you.key(pygame.K_SPACE)  # Ann keeps four dinosaurs
    you.until(lambda: table.idle and table.state.current == 1)
    table.state.chance.force(["dinosaur"] + ["egg"] * 3 + ["bone"] * 4)
    you.key(pygame.K_SPACE)  # Ben throws three eggs
    you.until(lambda: table.idle)
    assert set(table.steal_targets()) == {0}
    assert "click a glowing player" in table.what_to_do()
    you.click(table.row_rect(2).center)  # Cat has no dinosaur die: nothing happens
    assert table.state.current == 1
    you.click(table.row_rect(0).center)
    you.until(lambda: table.idle)
    assert [len(z) for z in table.state.zones["kept"]] == [3, 2, 0]
    assert table.state.current == 2
    assert any("Ben steals a dinosaur die from Ann!" in line for line in table.log)


def test_space_pressed_while_the_dice_play_out_does_nothing(app: App) -> None:
    you = Player(app)
    start_table(app, "dino_hunt_dice", ["Ann", "Ben"], ["human", "human"], seed=4)
    table = app.top
    assert isinstance(table, TableScene)
    you.key(pygame.K_SPACE)
    assert not table.idle
    for _ in range(5):  # hammering Space and Enter during the roll
        you.key(pygame.K_SPACE)
        you.key(pygame.K_RETURN)
    assert app.top is table
    assert len(table.state.log) == 1
    you.until(lambda: table.idle)
    you.key(pygame.K_SPACE)  # now it rolls, for whoever's turn it is
    assert len(table.state.log) == 2
