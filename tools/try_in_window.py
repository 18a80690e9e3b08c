#!/usr/bin/env python3
"""Try a game as a new user would, in a real X window, with real X input (xdotool):
people's moves made by mouse or by the keyboard alone, the mouse now and then left still
while bots play, screenshots along the way. Run on an X display the window's size:

    Xvfb :77 -screen 0 800x600x24 &
    DISPLAY=:77 SDL_VIDEODRIVER=x11 python3 tools/try_in_window.py OUT_DIR \\
        --game danger_danger_dinosaur --size 800x600 --seats human,human,heuristic \\
        --option variant=party --moves 40 --keyboard

Each person's move is chosen by the hint bot; which buttons and glowing things make it is
worked out as the table's audit does (`dinotable.audit.drive`), then they are pressed
through X: Tab until the focus is on each, then Enter (`--keyboard`), or a click on it.
The app runs its own loop; input arrives between frames as it would from a hand.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from dinotable import bots  # noqa: E402
from dinotable.app import App  # noqa: E402
from dinotable.audit.drive import Driver  # noqa: E402
from dinotable.ruleset import load_by_id  # noqa: E402
from dinotable.scenes.handoff import HandoffScene  # noqa: E402
from dinotable.scenes.results import ResultsScene  # noqa: E402
from dinotable.scenes.table import TableScene  # noqa: E402
from dinotable.settings import Settings  # noqa: E402
from dinotable.table.session import Seat  # noqa: E402

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
FRAME = 1 / 30


class Window:
    """The app's real window, its loop run a frame at a time, and a hand on X."""

    def __init__(self, app: App, out: Path) -> None:
        self.app, self.out = app, out
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.origin = pygame.Window.from_display_module().position
        self.shots = 0

    def frames(self, seconds: float) -> None:
        """The app's own loop for a while: real X events, update, draw."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.app.step(pygame.event.get(), FRAME)
            time.sleep(FRAME / 2)

    def x(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], check=False)
        self.frames(0.12)

    def click(self, pos: tuple[int, int]) -> None:
        wx, wy = self.app.to_window(pos)
        self.x("mousemove", str(self.origin[0] + wx), str(self.origin[1] + wy))
        self.x("click", "1")

    def shot(self, name: str) -> None:
        self.shots += 1
        subprocess.run(["import", "-window", "root",
                        str(self.out / f"{self.shots:03d}-{name}.png")], check=False)


def make(window: Window, driver: Driver, table: TableScene, wanted: object,
         keyboard: bool) -> str:
    """Make a person's move through X; what went wrong ("" when it was made)."""
    path, faults = driver.find(wanted)  # type: ignore[arg-type]
    driver.reset()
    if path is None:
        return f"no presses make {wanted}: {faults}"
    before = len(table.state.log)
    for press in path:
        if keyboard:
            for _ in range(40):
                driver.draw()
                if driver.focused(press):
                    break
                window.x("key", "Tab")
            else:
                return f"Tab never reached {press}"
            window.x("key", "Return")
        else:
            driver.draw()
            rect = driver.rect_of(press)
            if rect is None:
                return f"{press} is not on the table"
            window.click(rect.center)
    window.frames(0.3)
    return "" if len(table.state.log) > before else f"the presses did not make {wanted}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--game", default="danger_danger_dinosaur")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--seats", default="human,human,heuristic")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--moves", type=int, default=30, help="people's moves at most")
    parser.add_argument("--keyboard", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.split("x"))
    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = {"true": True, "false": False}.get(value, value)
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("DINOTABLE_HOME", str(args.out / "home"))
    app = App(size=(w, h), settings=Settings(bot_speed="normal"))
    kinds = args.seats.split(",")
    table = TableScene(app, load_by_id(args.game), [Seat(NAMES[k], kind, k)
                                                   for k, kind in enumerate(kinds)],
                       options, args.seed)
    app.push(table)
    window = Window(app, args.out)
    driver = Driver(table, args.keyboard, lambda: table.draw(app.canvas))
    rng = random.Random(args.seed)
    window.frames(1.0)
    window.shot("start")
    made = 0
    still = 0
    for _ in range(4000):
        top = app.top
        if isinstance(top, ResultsScene):
            window.shot("results")
            break
        if isinstance(top, HandoffScene):
            window.frames(0.4)
            window.shot("handoff")
            window.x("key", "Return")
            window.frames(0.6)
            window.shot(f"after-handoff-{made}")
            continue
        if top is table and table.my_turn and table.idle:
            if made >= args.moves:
                break
            wanted = bots.choose("heuristic", table.state, rng)
            what = make(window, driver, table, wanted, args.keyboard)
            if what:
                print(f"move {made}: {what}", flush=True)
                table.take(wanted)
            made += 1
            if made % 4 == 0:
                window.shot(f"move-{made}")
            continue
        # Nobody here must act: the mouse stays still and the table moves on by itself.
        before = len(table.state.log)
        window.frames(2.0)
        if top is table and not table.state.game_over and len(table.state.log) == before \
                and not table.my_turn and table.idle:
            still += 1
            if still > 5:
                print("the table stood still with nobody to act", flush=True)
                window.shot("stuck")
                return 1
        else:
            still = 0
    window.shot("last")
    print(f"{made} moves made by {'keyboard' if args.keyboard else 'mouse'}; "
          f"{window.shots} screenshots in {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
