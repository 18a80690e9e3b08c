"""Play a three-player Dino Hunt (Ann and Ben people, Cat a bot) in a real X window, driven
by real X input (xdotool), taking screenshots of the hand-offs, turn starts, response
windows and the end. Run on an X display, e.g.:

    Xvfb :77 -screen 0 1280x720x24 &
    DISPLAY=:77 SDL_VIDEODRIVER=x11 PYTHONPATH=$PWD python3 tools/play_in_window.py OUT_DIR
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from pathlib import Path

from dinotable.app import App
from dinotable.ruleset import load_by_id
from dinotable.scenes.handoff import HandoffScene
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.settings import Settings


def x(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=False)


def shot(out: Path, name: str) -> None:
    subprocess.run(["import", "-window", "root", str(out / f"{name}.png")], check=False)


def drive(app: App, table: TableScene, out: Path, rng: random.Random) -> None:
    """Click what the game asks for, as a person would, until the game is over."""
    shots: dict[str, int] = {}

    def once(kind: str, limit: int) -> None:
        if shots.get(kind, 0) < limit:
            shots[kind] = shots.get(kind, 0) + 1
            time.sleep(0.3)
            shot(out, f"{kind}_{shots[kind]}")

    last_turn = None
    for _ in range(4000):
        time.sleep(0.25)
        top = app.top
        if isinstance(top, HandoffScene):
            once("handoff", 4)
            x("key", "Return")
            continue
        if top is not table:
            once("other", 3)
            x("key", "Return")
            continue
        if table.state.game_over and table.idle:
            shot(out, "end")
            break
        if not table.idle or not table.my_turn:
            continue
        decision = table.view.get("decision")
        if decision is not None and decision.get("kind") == "window":
            once("response", 4)
        elif table.state.current != last_turn:
            last_turn = table.state.current
            once("turn", 4)
        targets = table.ring_targets()
        buttons = [c for c in table.menu.controls
                   if c.enabled and c.label not in ("Menu", "Odds", "<", ">")]
        if targets and (not buttons or rng.random() < 0.7):
            rect = rng.choice(targets)[0]
        elif buttons:
            rect = rng.choice(buttons).rect
        else:
            continue
        x("mousemove", str(rect.centerx), str(rect.centery), "click", "1")
    app.running = False


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/play_in_window")
    out.mkdir(parents=True, exist_ok=True)
    app = App(settings=Settings(bot_speed="fast"))
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1), Seat("Cat", "heuristic", 2)]
    table = TableScene(app, load_by_id("dino_hunt"), seats, {}, 7)
    app.push(table)
    threading.Thread(target=drive, args=(app, table, out, random.Random(7)),
                     daemon=True).start()
    app.run()


if __name__ == "__main__":
    main()
