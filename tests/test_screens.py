"""The screens around the table, as a new player meets them: each laid out for the
window's shape with every control and word on it and none over another, Esc leading back
(or to the menu, the hand-off included), a new game that says which unfinished game it
kept, and a game played on from a save that shows what happened before."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random
from typing import Any

import pygame
import pytest

from dinotable import saves
from dinotable.app import App, logical_size
from dinotable.engine import apply, legal_actions, new_game, sample_action
from dinotable.render import theme
from dinotable.ruleset import installed_rulesets, load_by_id
from dinotable.scenes.base import Scene
from dinotable.scenes.setup import Seat

FRAME = 1 / 30
WINDOWS = [(800, 600), (1280, 720), (1440, 900)]
SHIPPED = tuple(p.name for p in installed_rulesets())
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def resize(app: App, window: tuple[int, int]) -> None:
    app.dispatch(pygame.event.Event(pygame.VIDEORESIZE, w=window[0], h=window[1],
                                    size=window))


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def played(rules_id: str, names: list[str], moves: int, seed: int = 5
           ) -> tuple[saves.SavedGame, Any]:
    """A game of `rules_id` some moves in, as a save holds it."""
    rules = load_by_id(rules_id)
    state = new_game(rules, names, None, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.game_over:
            break
        apply(state, sample_action(state, rng))
    seats = [saves.SavedSeat(name, "human", i) for i, name in enumerate(names)]
    return saves.SavedGame(rules.id, rules.version, seats, dict(state.options), seed,
                           [(a.player, a.id, a.args) for a in state.log]), state


def screen_faults(app: App, scene: Scene) -> list[str]:
    """What is wrong with `scene` drawn in the app's window: not laid out on the window's
    canvas, a control off it or over another, a word off it or cut short."""
    app.push(scene)
    faults = []
    # A card in the cards list is a thumbnail, zoomed to be read whole: its words may be
    # cut there (what is cut while the list's cards are drawn); nothing else may.
    thumbnails: list[tuple[str, str]] = []
    draw_grid = getattr(scene, "draw_grid", None)
    if draw_grid is not None:
        def drawing_grid(canvas: pygame.Surface) -> None:
            seen = theme._seen
            first = len(seen.cut) if seen is not None else 0
            draw_grid(canvas)
            thumbnails.extend(seen.cut[first:] if seen is not None else [])
        scene.draw_grid = drawing_grid  # type: ignore[attr-defined]
    if not app.flowing() or app.view_and_size()[1] != logical_size(app.window.get_size()):
        faults.append("letterboxed, not laid out for the window")
    with theme.seeing_text() as seen:
        app.step([], FRAME)
        app.step([], FRAME)  # the title lays its games out in full after its first frame
    canvas = app.canvas.get_rect()
    controls = scene.menu.controls  # type: ignore[attr-defined]
    for k, c in enumerate(controls):
        if not canvas.contains(c.rect):
            faults.append(f"{c.label!r} {c.rect} off the canvas {canvas}")
        faults += [f"{c.label!r} {c.rect} over {other.label!r} {other.rect}"
                   for other in controls[k + 1:] if c.rect.colliderect(other.rect)]
    faults += [f"{string!r} {letters} off the canvas {canvas}"
               for string, letters, surface in seen.drawn
               if surface is app.canvas and not canvas.contains(letters)]
    faults += [f"{whole!r} cut to {shown!r}" for whole, shown in seen.cut
               if (whole, shown) not in thumbnails]
    app.pop()
    return faults


def title(app: App) -> Scene:
    from dinotable.scenes.title import TitleScene

    return TitleScene(app)


def saved_games(app: App) -> Scene:
    from dinotable.scenes.saved import SavedGamesScene

    for n, names in enumerate((["Ann", "Ben"], ["Cat", "Dan", "Eve"], ["Fay", "Gus"])):
        game, state = played("dino_hunt_dice", names, 6 + n, seed=n)
        saves.save_as(game, f"Sunday afternoon at grandma's, game {n + 1}", state)
    return SavedGamesScene(app)


def handoff(app: App) -> Scene:
    from dinotable.scenes.handoff import HandoffScene

    return HandoffScene(app, "Bartholomew", (30, 80, 170), why="Bartholomew, you may respond",
                        on_pause=lambda: None)


def cards(app: App) -> Scene:
    from dinotable.scenes.cards import CardsScene

    return CardsScene(app, load_by_id("danger_danger_dinosaur"))  # six tabs


def rules_page(app: App) -> Scene:
    from dinotable.scenes.rules import RulesScene

    return RulesScene(app, load_by_id("dino_dude_ranch"))


def setup(app: App) -> Scene:
    from dinotable.scenes.setup import SetupScene

    rules = load_by_id("dino_dude_ranch")
    return SetupScene(app, rules, [Seat(NAMES[i], "human", i) for i in range(4)])


def joining(app: App) -> Scene:
    """Hands on phones: six seats with long names, the widest address a phone types."""
    from dinotable.companion.link import PhoneLink
    from dinotable.scenes.phones import JoinScene

    seats = [Seat(NAMES[i], "heuristic" if i == 2 else "human", i) for i in range(6)]
    link = PhoneLink([0, 1, 3, 4, 5], ["#888888"], "Danger! Danger! Dinosaur",
                     address="192.168.100.200")  # never started: nothing is served
    link.server.port = 65535
    link.phones.join(0)
    return JoinScene(app, link, seats, on_off=lambda: None)


SCREENS = {"title": title, "saved games": saved_games, "hand-off": handoff, "cards": cards,
           "rules": rules_page, "setup": setup, "joining from phones": joining}


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("screen", SCREENS)
def test_every_screen_re_flows_with_every_control_and_word_whole_on_it(
        app: App, screen: str, window: tuple[int, int]) -> None:
    """Title, Saved games, the hand-off, the cards, the rules and the set-up are laid out
    on a canvas of the window's shape, not a 16:9 picture with bars: every control and
    word on it, no control over another, no word cut short."""
    resize(app, window)
    assert screen_faults(app, SCREENS[screen](app)) == []


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("name", SHIPPED)
def test_set_up_never_draws_back_or_start_over_a_setting(app: App, name: str,
                                                          window: tuple[int, int]) -> None:
    """However many seats (2 to 6, as the game allows) and settings, no control of the
    set-up lies under another (Dino Dude Ranch's last settings ran under Back and
    Start! at 1280x720)."""
    from dinotable.scenes.setup import SetupScene

    resize(app, window)
    rules = load_by_id(name)
    for seats in range(max(2, rules.min_players), min(6, rules.max_players) + 1):
        scene = SetupScene(app, rules, [Seat(NAMES[i], "human", i) for i in range(seats)])
        app.push(scene)
        app.step([], FRAME)
        controls = scene.menu.controls
        canvas = app.canvas.get_rect()
        for k, c in enumerate(controls):
            assert canvas.contains(c.rect), (seats, c.tag, c.rect)
            assert not [o.tag for o in controls[k + 1:] if o.rect.colliderect(c.rect)], (
                seats, c.tag)
        app.pop()


@pytest.mark.parametrize("window", WINDOWS)
def test_the_titles_buttons_all_use_one_size_of_type(app: App, window: tuple[int, int],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Learn to play, Rules, Cards, Saved games, Watch a demo and Quit read alike: no
    label is shrunk to fit its button while the others are not."""
    from dinotable.scenes.title import TitleScene

    resize(app, window)
    sizes: dict[str, int] = {}
    text = theme.text

    def noting(surface: pygame.Surface, string: str, pos: tuple[int, int],
               size: int = theme.SIZE_BODY, *args: Any, **kwargs: Any) -> pygame.Rect:
        sizes[string] = size
        return text(surface, string, pos, size, *args, **kwargs)

    monkeypatch.setattr(theme, "text", noting)
    scene = TitleScene(app)
    app.push(scene)
    app.step([], FRAME)
    buttons = [c.label for c in scene.menu.controls
               if not c.tag.startswith("game:") and c.tag != "continue"]
    assert len(buttons) == 6
    assert len({sizes[label] for label in buttons}) == 1, {b: sizes[b] for b in buttons}
    assert sizes[buttons[0]] >= theme.SIZE_BODY


def hand_off_table(app: App) -> Any:
    """Dino Hunt (secret hands) for two people, at the hand-off before the first turn."""
    from dinotable.scenes.handoff import HandoffScene
    from dinotable.scenes.table import TableScene

    table = TableScene(app, load_by_id("dino_hunt"), [Seat("Ann", "human", 0),
                                                      Seat("Ben", "human", 1)], {}, 7)
    app.push(table)
    for _ in range(5):
        app.step([], FRAME)
        if isinstance(app.top, HandoffScene):
            return table
    raise AssertionError("no hand-off before a turn with secret cards")


def test_esc_on_the_hand_off_opens_the_menu_and_the_hand_off_stays_between_players(
        app: App, drawn: list[str]) -> None:
    """Esc on the hand-off brings up the table's pause menu over it; the table (and its
    secret hand) is not drawn while the menu is up, and closing the menu goes back to the
    hand-off, not to the table."""
    from dinotable.scenes.handoff import HandoffScene
    from dinotable.scenes.pause import PauseScene

    table = hand_off_table(app)
    hand_off = app.top
    drawn.clear()
    app.step([key(pygame.K_ESCAPE)], FRAME)
    app.step([], FRAME)
    assert isinstance(app.top, PauseScene) and app.stack[-2] is hand_off
    assert app.stack[-3] is table
    assert drawn == [], "the table's cards were drawn behind the menu"
    app.step([key(pygame.K_ESCAPE)], FRAME)  # Esc again: Resume
    assert app.top is hand_off and isinstance(hand_off, HandoffScene)
    app.step([], FRAME)
    assert drawn == []


def test_restart_from_the_menu_over_the_hand_off_leaves_one_table(app: App) -> None:
    """Restart chosen from the menu opened on the hand-off replaces the game: the old table
    and its hand-off are gone, not left under the new one."""
    from dinotable.scenes.table import TableScene

    table = hand_off_table(app)
    app.step([key(pygame.K_ESCAPE)], FRAME)
    pause = app.top
    pause.menu.activate(pause.menu.find("restart"))  # type: ignore[attr-defined]
    pause.menu.activate(pause.menu.find("restart_yes"))  # type: ignore[attr-defined]
    tables = [s for s in app.stack if isinstance(s, TableScene)]
    assert len(tables) == 1 and tables[0] is not table


@pytest.mark.parametrize("screen", ["title", "saved games", "cards", "rules", "setup",
                                    "joining from phones"])
def test_esc_goes_back_from_every_screen(app: App, screen: str) -> None:
    """Esc leaves each screen for the one it was opened from (the title quits)."""
    under = title(app)
    app.push(under)
    app.step([], FRAME)
    if screen == "title":
        app.step([key(pygame.K_ESCAPE)], FRAME)
        assert not app.running
        return
    scene = SCREENS[screen](app)
    app.push(scene)
    app.step([], FRAME)
    app.step([key(pygame.K_ESCAPE)], FRAME)
    assert app.top is under and scene not in app.stack


def test_opening_a_save_keeps_the_unfinished_game_and_names_it(app: App) -> None:
    """Opening a saved game keeps the game left unfinished in Saved games, and the table
    says so in words naming the game and its players."""
    from dinotable.scenes.saved import Opened
    from dinotable.scenes.table import TableScene
    from dinotable.scenes.title import TitleScene

    unfinished, _ = played("dinosaur_dice", ["Ann", "Ben"], 4)
    saves.write(unfinished)
    other, other_state = played("dino_hunt_dice", ["Cat", "Dan"], 6)
    path = saves.save_as(other, "Cat and Dan", other_state)
    scene = TitleScene(app)
    app.push(scene)
    scene._opened(Opened(path, saves.read(path), False))
    table = app.top
    assert isinstance(table, TableScene) and table.rules.id == "dino_hunt_dice"
    kept = [e for e in saves.list_saves() if e.ruleset == "dinosaur_dice"]
    assert len(kept) == 1 and saves.read(kept[0].path).log == unfinished.log
    words = "Your unfinished game of Dinosaur Dice with Ann and Ben is kept in Saved games."
    assert words in table.log
    assert table.toast is not None and "kept in Saved games" in table.toast[0]


def test_a_lessons_play_a_game_names_the_unfinished_game_it_kept(app: App) -> None:
    """"Play a game" at the end of a lesson keeps the game left unfinished, and says
    which."""
    from dinotable.scenes.lesson import open_lesson
    from dinotable.scenes.table import TableScene

    unfinished, _ = played("dino_hunt", ["Ann", "Ben"], 5)
    saves.write(unfinished)
    assert open_lesson(app, load_by_id("dino_hunt_dice"))
    app.top.play_for_real()  # type: ignore[attr-defined]
    table = app.top
    assert isinstance(table, TableScene) and not table.state.log
    assert "Your unfinished game of Dino Hunt with Ann and Ben is kept in Saved games." in (
        table.log)


@pytest.mark.parametrize("how", ["continue", "open"])
def test_a_game_played_on_from_a_save_shows_its_last_moves_in_the_log(app: App,
                                                                       how: str) -> None:
    """Continue and a save opened both show the last moves in the log, in the words the
    table used when they were played, and where the game goes on."""
    from dinotable.scenes.saved import Opened
    from dinotable.scenes.table import TableScene
    from dinotable.scenes.title import TitleScene

    rules = load_by_id("dino_hunt_dice")
    first = TableScene(app, rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], {}, 9)
    app.push(first)
    rng = random.Random(2)
    for _ in range(8):
        legal = legal_actions(first.state)
        first.take(legal[rng.randrange(len(legal))])
        while first.steps or first.toss is not None or first.wait > 0:
            first.update(0.5)
    said = [line for line in first.log if "goes first" not in line]
    game = first.saved_game()
    app.to_title()
    scene = app.top
    assert isinstance(scene, TitleScene)
    if how == "continue":
        saves.write(game)
        scene.show(scene.entries)
        scene.resume()
    else:
        path = saves.save_as(game, "Ann and Ben", first.state)
        scene._opened(Opened(path, saves.read(path), False))
    table = app.top
    assert isinstance(table, TableScene) and table is not first
    who = table.name(table.state.current)
    assert table.log[-1] == f"Welcome back: the game goes on with {who}."
    told = table.log[:-1]
    assert len(told) >= 8 and told == said[-len(told):], (told, said)
