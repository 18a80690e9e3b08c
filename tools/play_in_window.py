"""Play a three-player Dino Hunt (Ann and Ben people, Cat a bot) in a real X window, from
the title screen to the results, driven by real X input (xdotool), taking screenshots of
the set-up, hand-offs, turn starts, response windows and the end. Run on an X display:

    Xvfb :77 -screen 0 1280x720x24 &
    DISPLAY=:77 SDL_VIDEODRIVER=x11 PYTHONPATH=$PWD python3 tools/play_in_window.py OUT_DIR

The driver plays as a person who knows what they want: it reads where things are from the
running app (the app's own loop runs the window; the driver only looks and then clicks or
presses keys through X, as a hand on the mouse would). `--full` plays the whole deck; by
default the short game (half the deck), which still plays every rule.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pygame

from dinotable.app import App
from dinotable.scenes.handoff import HandoffScene
from dinotable.scenes.results import ResultsScene
from dinotable.scenes.setup import SetupScene
from dinotable.scenes.table import TableScene
from dinotable.scenes.title import TitleScene
from dinotable.settings import Settings


def x(*args: str) -> None:
    """One xdotool command: real X input into the window."""
    subprocess.run(["xdotool", *args], check=False)


def click(rect: pygame.Rect, button: str = "1") -> None:
    x("mousemove", str(rect.centerx), str(rect.centery))
    time.sleep(0.05)
    x("click", button)


def shot(out: Path, name: str) -> None:
    subprocess.run(["import", "-window", "root", str(out / f"{name}.png")], check=False)


def wait_for(app: App, kind: type, seconds: float = 20.0) -> object:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if app.stack and isinstance(app.top, kind):
            return app.top
        time.sleep(0.1)
    print(f"waited {seconds} s for {kind.__name__}; on screen: {app.top!r}", flush=True)
    raise SystemExit(1)


def set_up(app: App, out: Path, full: bool) -> None:
    """From the title: choose Dino Hunt, name the seats Ann, Ben and Cat (a bot), pick the
    game's length, start."""
    title = wait_for(app, TitleScene)
    assert isinstance(title, TitleScene)
    while not title.loaded:
        time.sleep(0.1)
    time.sleep(0.5)  # the list drawn
    shot(out, "00_title")
    click(title.menu.find("game:dino_hunt").rect)
    setup = wait_for(app, SetupScene)
    assert isinstance(setup, SetupScene)
    for i, name in enumerate(["Ann", "Ben", "Cat"]):
        field = setup.menu.find(f"name:{i}")
        click(field.rect)
        x("key", "--repeat", "14", "BackSpace")
        x("type", name)
    x("key", "Tab")  # leave the last name field
    length = setup.menu.find("option:length")
    arrow = pygame.Rect(length.rect.right - 30, length.rect.y, 20, length.rect.h)  # ">"
    for _ in range(4):
        if setup.options["length"] == ("full" if full else "short"):
            break
        click(arrow)
        time.sleep(0.3)
    time.sleep(0.3)
    shot(out, "01_setup")
    click(setup.menu.find("start").rect)


def pick(table: TableScene, rng: random.Random) -> pygame.Rect | None:
    """What a person would click now: a glowing dinosaur to hunt or place (most often), a
    card to play or Pass in a response window, a period to travel to, or End turn."""
    targets = table.ring_targets()
    buttons = [c for c in table.menu.controls if c.enabled and c.tag not in (
        "pause", "odds", "undo", "page:prev")]
    items = [r for r, t in targets if t.kind == "item"]
    spaces = [r for r, t in targets if t.kind == "space"]
    decision = table.view.get("decision")
    if decision is not None and decision.get("kind") == "window":
        passing = [c.rect for c in buttons if c.tag == "action:pass"]
        if passing and rng.random() < 0.75:
            return passing[0]
    roll = rng.random()
    if items and roll < 0.75:
        return rng.choice(items)
    if spaces and roll < 0.9:
        return rng.choice(spaces)
    if buttons:
        return rng.choice(buttons).rect
    if items or spaces:
        return rng.choice(items + spaces)
    return None


def drive(app: App, out: Path, rng: random.Random, full: bool) -> None:
    """Set up, then click what the game asks for until the results show."""
    try:
        set_up(app, out, full)
        end = time.monotonic() + 20
        while not any(isinstance(sc, TableScene) for sc in app.stack):
            if time.monotonic() > end:
                print(f"no table after Start; on screen: {app.top!r}", flush=True)
                return
            time.sleep(0.1)
        table = next(sc for sc in app.stack if isinstance(sc, TableScene))
        shots: dict[str, int] = {}

        def once(kind: str, limit: int) -> None:
            if shots.get(kind, 0) < limit:
                shots[kind] = shots.get(kind, 0) + 1
                time.sleep(0.4)
                shot(out, f"{kind}_{shots[kind]}")

        last_turn = None
        clicks = 0
        started = time.monotonic()
        while time.monotonic() - started < 3600:
            time.sleep(0.15)
            top = app.top
            if isinstance(top, ResultsScene):
                time.sleep(1.0)
                shot(out, "99_results")
                break
            if isinstance(top, HandoffScene):
                once("handoff", 6)
                x("key", "Return")
                time.sleep(0.3)
                continue
            if top is not table:
                once("other", 3)
                x("key", "Escape")
                continue
            if not table.my_turn:
                continue
            decision = table.view.get("decision")
            if decision is not None and decision.get("kind") == "window":
                once("response", 4)
            elif table.state.current != last_turn:
                last_turn = table.state.current
                once("turn", 6)
            rect = pick(table, rng)
            if rect is not None:
                click(rect)
                clicks += 1
        print(f"clicks: {clicks}; moves: {len(table.state.log)}; rounds: {table.state.round}; "
              f"over: {table.state.game_over}; {time.monotonic() - started:.0f} s", flush=True)
    finally:
        app.running = False


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    full = "--full" in sys.argv
    out = Path(args[0] if args else "/tmp/play_in_window")
    out.mkdir(parents=True, exist_ok=True)
    app = App(settings=Settings(bot_speed="fast", muted=True))
    app.push(TitleScene(app, lazy=True))
    threading.Thread(target=drive, args=(app, out, random.Random(7), full),
                     daemon=True).start()
    app.run()


if __name__ == "__main__":
    main()
