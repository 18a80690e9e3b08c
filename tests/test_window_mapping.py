"""Pointing at what is seen: a canvas point, taken to the window, is a pixel that the
app's pointer mapping takes back onto that point, for the re-flowing table and for a
fixed-size scene scaled into the window, at any window size."""

from __future__ import annotations

import pygame
import pytest

from dinotable.app import App
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat, SetupScene
from dinotable.scenes.table import TableScene


@pytest.mark.parametrize("size", [(1280, 720), (800, 600), (1000, 800), (1600, 720), (1920, 1080)])
def test_a_control_centre_taken_to_the_window_is_clicked_back_on_it(
        app: App, size: tuple[int, int]) -> None:
    rules = load_by_id("dino_hunt_dice")
    app.step([pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size)],
             1 / 30)
    app.push(TableScene(app, rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)],
                        {}, 3))
    app.push(SetupScene(app, rules))  # a fixed-size scene over the table: letterboxed
    for scene in (app.top, app.stack[-2]):
        while app.top is not scene:
            app.pop()
        rects = [c.rect for c in scene.menu.controls]  # type: ignore[attr-defined]
        assert rects
        for rect in rects:
            pos = app.to_window(rect.center)
            assert app.window.get_rect().collidepoint(pos)
            assert rect.collidepoint(app.to_canvas(pos)), (scene, rect, pos)
        # A whole pixel grid goes there and back within one window pixel's worth.
        view, canvas = app.view_and_size()
        step = max(1, -(-canvas[0] // view.w))
        for point in [(0, 0), (canvas[0] - 1, canvas[1] - 1), (canvas[0] // 3, 7)]:
            back = app.to_canvas(app.to_window(point))
            assert abs(back[0] - point[0]) <= step and abs(back[1] - point[1]) <= step
