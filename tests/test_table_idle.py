"""An idle table draws only when something changes: after the dice settle on a person's
turn, frames go by without drawing until the pointer moves over something that reacts, or a
key is pressed."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from dinotable.app import App
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene

FRAME = 1 / 30


def settled_table(app: App, ruleset: str, seed: int = 5) -> TableScene:
    seats = [Seat(n, "human", i) for i, n in enumerate(["Ann", "Ben"])]
    table = TableScene(app, load_by_id(ruleset), seats, {}, seed)
    app.push(table)
    for _ in range(600):
        app.step(dt=FRAME)
        if app.top is not table:  # a hand-off: Ann takes the laptop
            pos = app.top.menu.find("ready").rect.center
            app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                      pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], FRAME)
        if table.my_turn and not table.animating:
            break
    assert table.my_turn
    for _ in range(10):  # the last changes (a score ticking, a toast fading) are drawn
        app.step(dt=FRAME)
    return table


def move(app: App, pos: tuple[int, int]) -> None:
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(0, 0, 0))],
             FRAME)


def test_a_settled_table_on_a_persons_turn_stops_drawing(app: App) -> None:
    settled_table(app, "dino_hunt_dice")
    drawn = app.drawn
    for _ in range(30):
        app.step(dt=FRAME)
    assert app.drawn == drawn, "nothing moves, yet the table was drawn again"


def test_a_key_or_the_pointer_over_a_button_draws_again(app: App) -> None:
    table = settled_table(app, "dino_hunt_dice")
    button = next(c for c in table.menu.controls if c.enabled and c.tag != "pause")
    drawn = app.drawn
    move(app, button.rect.center)  # the button lights up under the pointer
    assert app.drawn == drawn + 1
    move(app, (button.rect.centerx + 1, button.rect.centery))  # same button: same picture
    assert app.drawn == drawn + 1
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=0, unicode="",
                                 scancode=0)], FRAME)
    assert app.drawn == drawn + 2


def test_the_pointer_over_a_card_draws_it_larger_and_empty_felt_draws_nothing(app: App
                                                                              ) -> None:
    table = settled_table(app, "dino_hunt")
    rect = next(r for w in table.widgets for r, _ in w.hits)
    empty = (640, 360)
    while any(p.rect.collidepoint(empty) for p in table.parts):
        empty = (empty[0] + 7, empty[1] + 3)
    move(app, empty)
    drawn = app.drawn
    move(app, (empty[0] + 2, empty[1] + 1))
    assert app.drawn == drawn, "the pointer moved over nothing that reacts"
    move(app, rect.center)
    assert app.drawn == drawn + 1


def test_a_frame_limited_run_still_ends_when_nothing_is_drawn(app: App) -> None:
    settled_table(app, "dino_hunt_dice")
    frames = app.frames
    for _ in range(5):
        app.step(dt=FRAME)
    assert app.frames == frames + 5  # `--frames N` counts frames shown, drawn or kept


@pytest.mark.parametrize("seed", [1, 5])
def test_after_a_throw_the_screen_moves_on_by_itself_with_the_mouse_still(app: App, seed: int
                                                                          ) -> None:
    """The frame in which the dice settle (Roll and Stop come alive, the header asks what
    to do) is drawn without any input: what the window shows is what a fresh drawing
    shows. Seed 1 keeps the throw with its thrower; seed 5 busts (a banner outlasts it)."""
    table = settled_table(app, "dino_hunt_dice", seed)
    thrower = table.state.current
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ",
                                 scancode=0)], FRAME)
    assert not table.idle, "Space did not throw the dice"
    for _ in range(600):
        app.step(dt=FRAME)
        if table.my_turn and not table.animating:
            break
    assert table.my_turn and not table.animating
    if table.state.current == thrower:
        assert "Watch" not in table.what_to_do()
    app.step(dt=FRAME)
    shown = pygame.image.tobytes(app.canvas, "RGB")
    assert any(c.enabled and c.tag.startswith("action:") for c in table.menu.controls)
    app.redraw = True  # what the screen should show now
    app.step(dt=FRAME)
    assert pygame.image.tobytes(app.canvas, "RGB") == shown, (
        "the window still shows a frame from before the dice settled")
