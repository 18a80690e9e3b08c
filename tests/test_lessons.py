"""Learn to play: every shipped game's lesson is checked like a scenario, and followed to its
end on the real table by someone using only the mouse, and by someone using only the
keyboard; a wrong click gets a hint and never a dead end; the script plays on while the
learner's hands are still; Back, Skip and a real game at the end work."""

from __future__ import annotations

import io
import re
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from dinotable.app import App
from dinotable.check import run_check
from dinotable.lessons import LessonRun, lessons_of
from dinotable.paths import rulesets_dir
from dinotable.render import theme
from dinotable.ruleset import LoadError, load_by_id
from dinotable.scenarios import Scenario, load_scenario
from dinotable.scenes.lesson import LessonScene
from dinotable.scenes.table import TableScene

FRAME = 1 / 20
TAUGHT = ("dino_hunt_dice", "dinosaur_dice", "dino_hunt", "danger_danger_dinosaur",
          "dino_dude_ranch")
LESSON_FILES = sorted(rulesets_dir().glob("*/lessons/*.yaml"))


def click(pos: tuple[int, int]) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)]


def key(code: int, mod: int = 0) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode="", scancode=0),
            pygame.event.Event(pygame.KEYUP, key=code, mod=mod, unicode="", scancode=0)]


def start(app: App, lesson: Scenario) -> LessonScene:
    scene = LessonScene(app, lesson)
    app.push(scene)
    return scene


def settle(app: App, frames: int = 600) -> LessonScene:
    """Frames with no input until the lesson waits on the learner (or is over)."""
    for _ in range(frames):
        app.step([], FRAME)
        top = app.top
        assert isinstance(top, LessonScene)
        if top.idle and top.run.kind() in ("read", "learner", "done"):
            return top
    raise AssertionError("the lesson never came to wait on the learner")


def follow(app: App, lesson: Scenario, press: Callable[[LessonScene], list[pygame.event.Event]],
           moves: int = 400) -> LessonScene:
    """Follow a lesson to its end, giving the input `press` chooses at each stop."""
    scene = start(app, lesson)
    for _ in range(moves):
        scene = settle(app)
        if scene.run.kind() == "done":
            return scene
        app.step(press(scene), FRAME)
    raise AssertionError(f"{lesson.name}: not over after {moves} moves")


def first_move(app: App, game: str) -> LessonScene:
    """A game's lesson, read with Enter up to the learner's first move."""
    start(app, lesson_of(game))
    scene = settle(app)
    while scene.run.kind() != "learner":
        app.step(key(pygame.K_RETURN), FRAME)
        scene = settle(app)
    return scene


def by_mouse(scene: LessonScene) -> list[pygame.event.Event]:
    """What someone following the arrow does: click where it points (Next when reading)."""
    if scene.run.kind() == "read":
        # Words that name a thing to look at find it on the table.
        assert scene.run.point() is None or scene.pointed(), (
            f"step {scene.run.cursor}: {scene.run.point()} is nowhere on the table")
        return click(scene.menu.find("lesson:next").rect.center)
    pointed = scene.pointed()
    assert pointed, f"step {scene.run.cursor}: nothing is pointed at"
    return click(pointed[0].center)


def by_keyboard(scene: LessonScene) -> list[pygame.event.Event]:
    """Keys only: Tab to what glows on the table, then Enter (Enter alone on a button)."""
    if scene.run.kind() == "learner" and scene.ring_targets() and scene.ring is None:
        return key(pygame.K_TAB)
    return key(pygame.K_RETURN)


def ending_of(lesson: Scenario) -> dict[str, object]:
    run = LessonRun(lesson)
    run.finish()
    assert not run.problems
    return run.state.to_dict()


def lesson_of(game: str) -> Scenario:
    found = lessons_of(load_by_id(game))
    assert found, f"{game} has no lesson"
    return found[0]


def test_every_finished_game_has_a_lesson_that_check_passes() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert {f.parent.parent.name for f in LESSON_FILES} >= set(TAUGHT)
    assert run_check([str(f) for f in LESSON_FILES], out, err) == 0, out.getvalue() + err.getvalue()
    assert f"{len(LESSON_FILES)} passed, 0 failed" in out.getvalue()
    # With no path, the shipped lessons are run along with the scenarios.
    out = io.StringIO()
    run_check([], out, io.StringIO())
    for f in LESSON_FILES:
        assert f"PASS {load_scenario(f).name}" in out.getvalue()


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.parent.parent.name)
def test_a_lesson_is_short_and_every_learner_step_says_what_to_do(path: Path) -> None:
    lesson = load_scenario(path)
    run = LessonRun(lesson)
    assert run.caption(), "the first thing on screen is words for the learner"
    stops = run.stops
    # About three minutes: a page read in ~10 s, a move made in ~8 s, the script's moves.
    assert 4 <= len(stops) <= 18
    assert sum(len(s.say) for s in lesson.steps) / 15 < 150, "read in about 2.5 minutes"
    learner_acts = 0
    while run.step is not None:
        if run.kind() == "learner":
            learner_acts += 1
            assert run.step.say
        run.play_silently()
    assert learner_acts >= 3 and not run.problems


@pytest.mark.parametrize("game", TAUGHT)
def test_the_mouse_alone_follows_each_lesson_to_its_end(app: App, game: str) -> None:
    lesson = lesson_of(game)
    scene = follow(app, lesson, by_mouse)
    assert scene.state.to_dict() == ending_of(lesson), "the table played the lesson's game"
    assert not scene.run.problems
    # The end offers a real game with the same seats: the learner, and bots for the rest.
    app.step(click(scene.menu.find("lesson:play").rect.center), FRAME)
    table = app.top
    assert isinstance(table, TableScene) and not isinstance(table, LessonScene)
    assert [s.name for s in table.seats] == lesson.players
    assert [s.kind == "human" for s in table.seats] == [
        n == lesson.learner for n in lesson.players]
    assert not table.state.log


@pytest.mark.parametrize("game", TAUGHT)
def test_the_keyboard_alone_follows_each_lesson_to_its_end(app: App, game: str) -> None:
    lesson = lesson_of(game)
    scene = follow(app, lesson, by_keyboard)
    assert scene.state.to_dict() == ending_of(lesson)
    app.step(key(pygame.K_RETURN), FRAME)  # Enter at the end: a real game
    assert type(app.top) is TableScene


def test_a_wrong_click_or_key_gets_a_hint_and_the_right_one_still_works(app: App) -> None:
    scene = first_move(app, "dino_hunt_dice")
    assert scene.taught() is not None and scene.taught().id == "roll"
    stop = scene.menu.find("action:stop")
    assert not stop.enabled and stop.why_disabled, "only the taught move may be pressed"
    assert scene.menu.find("action:roll").enabled
    log = len(scene.state.log)
    app.step(click(stop.rect.center), FRAME)
    assert scene.nudge is not None and "Roll" in scene.nudge[0]
    app.step(click(scene.area["players"].center), FRAME)  # the felt beside the players
    app.step(key(pygame.K_s), FRAME)  # Stop's own key
    assert len(scene.state.log) == log and scene.run.kind() == "learner"
    assert scene.nudge is not None
    app.step(click(scene.menu.find("action:roll").rect.center), FRAME)
    assert len(scene.state.log) == log + 1, "the taught move is taken after the wrong ones"


def test_on_a_rival_s_turn_the_lesson_moves_on_with_the_mouse_still(app: App) -> None:
    """Nobody touches anything while Ben plays: his moves are made, with the words that ask
    the learner to watch him, and the lesson comes to the next words on its own; at words
    or a move of the learner's, it waits."""
    start(app, lesson_of("dino_hunt_dice"))
    scene = settle(app)
    while "Press Stop and bank" not in scene.run.caption():
        app.step(by_mouse(scene), FRAME)
        scene = settle(app)
    log = len(scene.state.log)
    app.step(by_mouse(scene), FRAME)
    shown = set()
    for _ in range(2000):
        app.step([], FRAME)
        shown.add(scene.run.caption())
        if scene.idle and scene.run.kind() in ("read", "learner", "done"):
            break
    assert any("watch him" in words.lower() for words in shown), "Ben was watched"
    assert scene.run.kind() == "read" and "third stomp" in scene.run.caption()
    assert len(scene.state.log) == log + 3, "Ann banked, and Ben's two throws were played"
    assert scene.state.players[scene.state.current] == "Ann"
    at = scene.run.cursor
    for _ in range(40):
        app.step([], FRAME)
    assert scene.run.cursor == at, "words wait for Next"


WATCH = re.compile(r"\bwatch\b(?! out| for)", re.IGNORECASE)


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.parent.parent.name)
def test_words_that_say_watch_are_never_a_page_to_press_next_on(path: Path) -> None:
    """"Watch him" comes with the other player's move, which plays on by itself; on a page
    the learner must press Next for, there would be nothing to watch."""
    run = LessonRun(load_scenario(path))
    pages = [run.steps[at].say for at in range(run.first, len(run.steps))
             if run.kind(at) == "read" and WATCH.search(run.steps[at].say)]
    assert not pages, pages


def test_back_and_skip_rebuild_the_table_at_the_step_before_and_after(app: App) -> None:
    lesson = lesson_of("dinosaur_dice")
    start(app, lesson)
    scene = settle(app)
    while scene.run.kind() != "learner" or scene.state.log:
        app.step(by_mouse(scene), FRAME)
        scene = settle(app)
    at = scene.run.cursor
    app.step(click(scene.menu.find("lesson:skip").rect.center), FRAME)
    skipped = settle(app)
    assert skipped is not scene and skipped.run.cursor > at
    assert [a.id for a in skipped.state.log] == ["roll"], "Skip made the move for the learner"
    app.step(click(skipped.menu.find("lesson:back").rect.center), FRAME)
    back = settle(app)
    assert back.run.cursor == at and not back.state.log and back.run.kind() == "learner"
    assert back.run.caption() == scene.run.caption()


def test_the_lesson_draws_its_words_and_buttons_inside_a_small_window(app: App) -> None:
    app.step([pygame.event.Event(pygame.VIDEORESIZE, w=800, h=600, size=(800, 600))], FRAME)
    start(app, lesson_of("dino_hunt"))
    scene = settle(app)
    canvas = pygame.Rect((0, 0), app.canvas.get_size())
    app.draw()
    lesson_buttons = [c.rect for c in scene.menu.controls if c.tag.startswith("lesson:")]
    others = [c.rect for c in scene.menu.controls if not c.tag.startswith("lesson:")]
    for rect in [scene.caption_rect(), scene.panel_rect(), *lesson_buttons]:
        assert canvas.contains(rect)
    assert not any(r.colliderect(o) for r in lesson_buttons for o in others)
    assert all(scene.panel_rect().contains(r) for r in lesson_buttons)
    # Following the arrow works in the small window too: the click lands on the canvas
    # where the arrow points.
    while scene.run.kind() != "learner":
        app.step(click(app.to_window(scene.menu.find("lesson:next").rect.center)), FRAME)
        scene = settle(app)
    log = len(scene.state.log)
    for _ in range(3):  # the dinosaur, then the button that confirms the hunt
        app.step(click(app.to_window(scene.pointed()[0].center)), FRAME)
        scene = settle(app)
        if len(scene.state.log) > log:
            break
    assert scene.state.log[-1].id == "hunt"


def test_learn_to_play_opens_from_the_title_and_from_the_pause_menu(app: App) -> None:
    app.to_title()
    app.step([], FRAME)
    app.step([], FRAME)
    title = app.top
    title.menu.focus = next(i for i, c in enumerate(title.menu.controls)
                            if c.tag == "game:dino_hunt")
    app.step(key(pygame.K_l), FRAME)
    assert isinstance(app.top, LessonScene) and app.top.rules.id == "dino_hunt"
    # The button, pressed with the mouse, asks which game: those with a lesson.
    app.to_title()
    app.step([], FRAME)
    app.step(click(app.top.menu.find("learn").rect.center), FRAME)
    picker = app.top
    offered = {c.tag for c in picker.menu.controls if c.tag.startswith("learn:")}
    assert offered >= {f"learn:{game}" for game in TAUGHT}
    app.step(click(picker.menu.find("learn:dino_hunt_dice").rect.center), FRAME)
    assert isinstance(app.top, LessonScene) and app.top.rules.id == "dino_hunt_dice"
    # From a game in progress: the pause menu's Learn to play.
    from dinotable.table.session import Seat

    seats = [Seat("Ann", "human", 0), Seat("Ben", "heuristic", 1)]
    app.to_title()
    app.push(TableScene(app, load_by_id("dinosaur_dice"), seats, {}, 4))
    app.step(key(pygame.K_ESCAPE), FRAME)
    assert app.top.menu.find("learn").label == "Learn to play"
    app.step(click(app.top.menu.find("learn").rect.center), FRAME)
    app.step([], FRAME)
    assert isinstance(app.top, LessonScene) and app.top.rules.id == "dinosaur_dice"
    # In a lesson, the pause menu starts the lesson again instead.
    app.step(key(pygame.K_ESCAPE), FRAME)
    assert not any(c.tag == "learn" for c in app.top.menu.controls)


def write_lesson(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "lessons"
    folder.mkdir(exist_ok=True)
    path = folder / "bad.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def test_a_malformed_lesson_is_named_by_file_line_and_what_was_expected(
        tmp_path: Path) -> None:
    path = write_lesson(tmp_path, """
        name: a lesson with mistakes
        ruleset: dino_hunt_dice
        players: [Ann, Ben]
        learner: Anne
        steps:
          - say: "Hello."
            point: {dice: red}
          - say: "Roll."
            act: roll
            pont: {button: roll}
          - point: {button: rol}
        """)
    with pytest.raises(LoadError) as caught:
        load_scenario(path)
    found = [(p.line, p.message) for p in caught.value.problems]
    assert any(line == 4 and "no player 'Anne'" in m and "did you mean 'Ann'" in m
               for line, m in found)
    assert any(line == 7 and "unknown thing 'dice'" in m and "die" in m for line, m in found)
    assert any(line == 10 and "unknown step key 'pont'" in m and "point" in m
               for line, m in found)
    assert any(line == 11 and "step without one needs `say`" in m for line, m in found)
    out, err = io.StringIO(), io.StringIO()
    assert run_check([str(path)], out, err) == 2
    assert f"{path}:4:" in err.getvalue() and "0 passed, 0 failed" in out.getvalue()


def test_a_lesson_that_leaves_the_learner_without_words_fails_check(tmp_path: Path) -> None:
    path = write_lesson(tmp_path, """
        name: the learner is not told to roll
        ruleset: dino_hunt_dice
        players: [Ann, Ben]
        learner: Ann
        steps:
          - say: "Welcome."
          - force: [green, green, green]
          - force: [dino, dino, dino]
          - act: roll
        """)
    out = io.StringIO()
    assert run_check([str(path)], out, io.StringIO()) == 1
    assert "step 4 (line 9): the learner's act has no `say`" in out.getvalue()


def test_a_lesson_the_rules_disagree_with_fails_check(tmp_path: Path) -> None:
    path = write_lesson(tmp_path, """
        name: stop before any roll is not a move
        ruleset: dino_hunt_dice
        players: [Ann, Ben]
        learner: Ann
        steps:
          - act: stop
            say: "Press Stop and bank."
        """)
    out = io.StringIO()
    assert run_check([str(path)], out, io.StringIO()) == 1
    assert "FAIL stop before any roll is not a move: step 1 (line 6): Ann could not" in (
        out.getvalue())


def test_the_lesson_example_in_the_ruleset_reference_passes_check(tmp_path: Path) -> None:
    text = (rulesets_dir() / "README.md").read_text(encoding="utf-8")
    block = text.split("```text\n# Lesson: ", 1)[1].split("```", 1)[0]
    path = write_lesson(tmp_path, block.split("\n", 1)[1])
    out = io.StringIO()
    assert run_check([str(path)], out, io.StringIO()) == 0, out.getvalue()
    for key in ("learner", "say", "point", "hint", "title"):
        assert f"`{key}`" in text.split("## Lessons", 1)[1]


def test_a_drag_across_the_tray_throws_the_dice_when_rolling_is_taught(app: App) -> None:
    scene = first_move(app, "dino_hunt_dice")
    tray = scene.tr
    a, b = (tray.x + 60, tray.centery), (tray.right - 60, tray.centery - 40)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1),
              pygame.event.Event(pygame.MOUSEMOTION, pos=b, rel=(0, 0), buttons=(1, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1)], FRAME)
    assert [a.id for a in scene.state.log] == ["roll"] and scene.nudge is None


def test_a_card_read_large_lies_over_the_lesson_and_the_next_click_still_counts(
        app: App) -> None:
    """A card the learner opens to read is drawn over the caption, the panel and the arrow;
    a click on Next beside it puts the card back and goes on, both at once."""
    from dinotable.render import cards
    from dinotable.table.reading import pinned_rect

    start(app, lesson_of("dino_dude_ranch"))
    scene = settle(app)
    while scene.run.point() != {"card": "triceratops"}:
        app.step(click(scene.menu.find("lesson:next").rect.center), FRAME)
        scene = settle(app)
    rect, kind = next((r, t.value) for part in scene.parts for r, t in part.targets_at()
                      if t.kind == "item" and scene.kind_of(str(t.value)) == "stegosaurus")
    app.step(click(rect.center), FRAME)
    assert scene.zoom.pinned is not None, f"{kind} was opened to be read"
    app.step([], FRAME)
    scene.draw(app.canvas)
    where = pinned_rect(scene)
    alone = app.canvas.copy()
    cards.draw_card_large(alone, where, cards.card_info(scene.rules, scene.zoom.pinned))
    inside = where.inflate(-24, -24)
    assert (pygame.image.tobytes(app.canvas.subsurface(inside), "RGB")
            == pygame.image.tobytes(alone.subsurface(inside), "RGB")), "nothing lies over it"
    at = scene.run.cursor
    app.step(click(scene.menu.find("lesson:next").rect.center), FRAME)
    assert scene.zoom.pinned is None and scene.run.cursor > at, "the click was not lost"


COLOUR_WORDS = ("green", "black", "red", "yellow", "blue", "white")


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.parent.parent.name)
def test_a_die_named_by_its_colour_is_drawn_in_it(path: Path) -> None:
    """"The green die and the black die" only where the table draws them green and black:
    a die the layout gives no colour of its own is drawn grey."""
    lesson = load_scenario(path)
    rules = load_by_id(lesson.ruleset)
    coloured = set(rules.layout.dice_colours)
    for step in lesson.steps:
        for colour in COLOUR_WORDS:
            if re.search(rf"\b{colour} (die|dice)\b", step.say, re.IGNORECASE):
                assert colour in coloured or any(
                    colour in str(rules.dice[k].label).lower() for k in coloured
                    if k in rules.dice), f"step {step.index + 1}: {step.say}"


def stops(app: App, game: str) -> Iterator[LessonScene]:
    """Each stop of a game's lesson, followed by the arrow with the mouse to its end."""
    start(app, lesson_of(game))
    for _ in range(400):
        scene = settle(app)
        if scene.run.kind() == "done":
            return
        yield scene
        app.step(by_mouse(scene), FRAME)
    raise AssertionError(f"{game}: the lesson is not over after 400 stops")


@pytest.mark.parametrize("game", TAUGHT)
def test_an_arrow_never_covers_the_words_or_dice_around_what_it_points_at(
        app: App, game: str) -> None:
    """At every step the arrow comes from a side where it hides no word of the table (a
    label such as "Mammoth" or "Jungle") and no other die."""
    looked = 0
    for scene in stops(app, game):
        canvas = app.canvas
        with theme.seeing_text() as seen:
            scene.draw(canvas)
        rings = [r.inflate(24, 24) for r in scene.pointed()]
        words = [(s, r) for s, r, surface in seen.drawn if surface is canvas and s.strip()
                 and not any(ring.contains(r) for ring in rings)]
        for box in scene.arrows:
            looked += 1
            assert not [s for s, r in words if box.colliderect(r)], (scene.run.cursor, box)
    assert looked >= 3


@pytest.mark.parametrize("game", TAUGHT)
def test_a_wrong_press_never_shows_the_same_words_twice(app: App, game: str) -> None:
    """A button the lesson greys says why in words of its own: its tip and the hint a
    wrong press brings under the caption are never the same sentence on screen twice."""
    greyed = 0
    for scene in stops(app, game):
        if scene.run.kind() == "learner":
            hint = scene.wrong_words()
            for c in scene.menu.controls:
                if not c.enabled and c.why_disabled:
                    greyed += 1
                    assert c.why_disabled != hint, (scene.run.cursor, c.tag, hint)
    assert greyed >= 3
