"""Play a three-player game (Ann and Ben people, Cat a bot) in a real X window, from the
title screen to the results, driven by real X input (xdotool), taking screenshots of the
set-up, hand-offs, turn starts, response windows and the end. Run on an X display whose
screen is the window's size:

    Xvfb :77 -screen 0 800x600x24 &
    DISPLAY=:77 SDL_VIDEODRIVER=x11 PYTHONPATH=$PWD python3 tools/play_in_window.py OUT_DIR \
        --size 800x600 --game dino_hunt_dice

The driver plays as a person who knows what they want: it reads where things are from the
running app, in the canvas coordinates of the scene on top, and takes them to window pixels
through the app's own mapping (`App.to_window`), so it points right at any window size (the
app's own loop runs the window; the driver only looks and then clicks, drags or presses keys
through X, as a hand on the mouse would). Now and then it leaves the mouse still for a while
and checks the screen moves on by itself (the playback of a move, the bot's turn).

`--game dino_hunt` (the default) plays cards: by default the short game (half the deck),
which still plays every rule; `--full` the whole deck. `--game dino_hunt_dice` throws the
dice by dragging across the felt some turns and by Space others, and stops to bank now and
then, with the mouse or the S key. `--size WxH` opens the window at that size (1280x720).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pygame

from dinotable.app import App
from dinotable.scenes.handoff import HandoffScene
from dinotable.scenes.results import ResultsScene
from dinotable.scenes.setup import SetupScene
from dinotable.scenes.table import TableScene
from dinotable.scenes.title import TitleScene
from dinotable.settings import Settings


class Hand:
    """The player's hand on the mouse and keys: real X input into the app's window, at the
    window pixels where the top scene's canvas points are shown."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.origin = (0, 0)  # the window's top left on the X screen
        self.moved = time.monotonic()

    def x(self, *args: str) -> None:
        """One xdotool command."""
        subprocess.run(["xdotool", *args], check=False)
        self.moved = time.monotonic()

    def find_window(self) -> None:
        """Where the window sits on the X screen (centred, with no window manager)."""
        with warnings.catch_warnings():  # only its position is read, nothing drawn with it
            warnings.simplefilter("ignore", DeprecationWarning)
            self.origin = pygame.Window.from_display_module().position

    def move(self, pos: tuple[int, int]) -> None:
        """The pointer to this canvas point of the scene on top."""
        wx, wy = self.app.to_window(pos)
        self.x("mousemove", str(self.origin[0] + wx), str(self.origin[1] + wy))

    def click(self, rect: pygame.Rect, button: str = "1") -> None:
        self.move(rect.center)
        time.sleep(0.05)
        self.x("click", button)

    def key(self, *keys: str) -> None:
        self.x("key", *keys)

    def drag(self, start: tuple[int, int], end: tuple[int, int], steps: int = 10) -> None:
        """Press at `start`, sweep to `end` in a quick stroke, let go (a throw)."""
        self.move(start)
        time.sleep(0.05)
        self.x("mousedown", "1")
        for n in range(1, steps + 1):
            t = n / steps
            self.move((round(start[0] + (end[0] - start[0]) * t),
                       round(start[1] + (end[1] - start[1]) * t)))
            time.sleep(0.015)
        self.x("mouseup", "1")


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


def set_up(app: App, hand: Hand, out: Path, game: str, full: bool) -> None:
    """From the title: choose the game, name the seats Ann, Ben and Cat (a bot), pick the
    length of a Dino Hunt, start."""
    title = wait_for(app, TitleScene)
    assert isinstance(title, TitleScene)
    while not title.loaded:
        time.sleep(0.1)
    time.sleep(0.5)  # the list drawn
    hand.find_window()
    shot(out, "00_title")
    hand.click(title.menu.find(f"game:{game}").rect)
    setup = wait_for(app, SetupScene)
    assert isinstance(setup, SetupScene)
    time.sleep(0.3)
    for i, name in enumerate(["Ann", "Ben", "Cat"]):
        field = setup.menu.find(f"name:{i}")
        hand.click(field.rect)
        hand.key("--repeat", "14", "BackSpace")
        hand.x("type", name)
    hand.key("Tab")  # leave the last name field
    if "length" in setup.options:
        length = setup.menu.find("option:length")
        arrow = pygame.Rect(length.rect.right - 30, length.rect.y, 20, length.rect.h)  # ">"
        for _ in range(4):
            if setup.options["length"] == ("full" if full else "short"):
                break
            hand.click(arrow)
            time.sleep(0.3)
    time.sleep(0.3)
    kinds = [seat.kind for seat in setup.seats]
    print(f"seats: {[seat.name for seat in setup.seats]} {kinds}; options: {setup.options}",
          flush=True)
    shot(out, "01_setup")
    hand.click(setup.menu.find("start").rect)


def pick(table: TableScene, rng: random.Random) -> pygame.Rect | None:
    """What a person would click now in Dino Hunt: a glowing dinosaur to hunt or place (most
    often), a card to play or Pass in a response window, a period to travel to, or End
    turn."""
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


def dice_move(table: TableScene, hand: Hand, rng: random.Random, out: Path,
              tally: dict[str, int]) -> bool:
    """One move in Dino Hunt Dice, as a person makes it: stop and bank once a few dinos are
    caught (the Stop button or S), else throw, by a drag across the felt or by Space. True
    when something was done."""
    stop = next((c for c in table.menu.controls if c.tag == "action:stop" and c.enabled), None)
    caught = len(table.state.zone("caught", table.state.current))
    if stop is not None and (caught >= 3 + rng.randrange(3) or rng.random() < 0.15):
        if rng.random() < 0.6:
            hand.click(stop.rect)
            tally["stop_clicks"] += 1
        else:
            hand.key("s")
            tally["stop_keys"] += 1
        return True
    tray = table.tray_part
    if tray is not None and rng.random() < 0.6:
        r = tray.rect
        y0 = r.y + int(r.h * (0.3 + 0.4 * rng.random()))
        y1 = r.y + int(r.h * (0.3 + 0.4 * rng.random()))
        leftwards = rng.random() < 0.5
        x0, x1 = (r.right - 40, r.x + r.w // 3) if leftwards else (r.x + 40, r.right - r.w // 3)
        hand.drag((x0, y0), (x1, y1))
        tally["drags"] += 1
        if tally["drags"] <= 2:
            time.sleep(0.25)
            shot(out, f"throw_{tally['drags']}")  # the dice in the air
        return True
    hand.key("space")
    tally["spaces"] += 1
    return True


def stay_still(app: App, table: TableScene, seconds: float) -> bool:
    """Leave the mouse alone a while, as a person who waits: True when the screen moved
    on by itself (frames were drawn and the game's playback or a bot's turn went on), or
    the table waits, still, on the person (a card picked, its Play button to press)."""
    time.sleep(0.3)  # the click just made has reached the app
    drawn, moves = app.drawn, len(table.state.log)
    was_idle = table.idle
    time.sleep(seconds)
    went_on = len(table.state.log) != moves or (table.idle and not was_idle) or (
        app.top is not table)
    waits = was_idle and table.my_turn and len(table.state.log) == moves
    return (app.drawn > drawn and went_on) or waits


def drive(app: App, out: Path, rng: random.Random, game: str, full: bool) -> None:
    """Set up, then click what the game asks for until the results show."""
    hand = Hand(app)
    try:
        set_up(app, hand, out, game, full)
        end = time.monotonic() + 20
        while not any(isinstance(sc, TableScene) for sc in app.stack):
            if time.monotonic() > end:
                print(f"no table after Start; on screen: {app.top!r}", flush=True)
                return
            time.sleep(0.1)
        table = next(sc for sc in app.stack if isinstance(sc, TableScene))
        shots: dict[str, int] = {}
        tally = {"drags": 0, "spaces": 0, "stop_clicks": 0, "stop_keys": 0, "stills": 0,
                 "still_failed": 0, "by_itself": 0}

        def once(kind: str, limit: int) -> None:
            if shots.get(kind, 0) < limit:
                shots[kind] = shots.get(kind, 0) + 1
                time.sleep(0.4)
                shot(out, f"{kind}_{shots[kind]}")

        last_turn = None
        clicks = 0
        moves_seen = 0
        changed = started = time.monotonic()
        mids = {15, 40, 70, 110}  # moves at which the mid-game table is shot
        while time.monotonic() - started < 3600:
            time.sleep(0.15)
            top = app.top
            if isinstance(top, ResultsScene):
                time.sleep(1.0)
                shot(out, "99_results")
                break
            moves = len(table.state.log)
            if moves != moves_seen:
                if time.monotonic() - hand.moved > 1.0:
                    tally["by_itself"] += 1  # a move shown while the hand was still
                moves_seen, changed = moves, time.monotonic()
                if moves in mids or (moves_seen > max(mids) and not shots.get("mid")):
                    once("mid", 6)
            elif time.monotonic() - changed > 60:
                shot(out, "stuck")
                print(f"nothing moved for 60 s; on screen: {top!r}", flush=True)
                break
            if isinstance(top, HandoffScene):
                once("handoff", 6)
                hand.key("Return")
                time.sleep(0.3)
                continue
            if top is not table:
                once("other", 3)
                hand.key("Escape")
                continue
            if not table.my_turn:
                continue
            decision = table.view.get("decision")
            if decision is not None and decision.get("kind") == "window":
                once("response", 4)
            elif table.state.current != last_turn:
                last_turn = table.state.current
                once("turn", 6)
            if game == "dino_hunt_dice":
                dice_move(table, hand, rng, out, tally)
                clicks += 1
            else:
                rect = pick(table, rng)
                if rect is not None:
                    hand.click(rect)
                    clicks += 1
            if rng.random() < 0.2:
                tally["stills"] += 1
                if not stay_still(app, table, 3.0):
                    tally["still_failed"] += 1
                    shot(out, f"still_failed_{tally['still_failed']}")
        winner = ""
        if table.state.game_over:
            state = table.state
            scores = {table.name(s): state.score(s) for s in range(len(table.seats))}
            winner = f"; scores: {scores}; won: {[table.name(s) for s in state.winners]}"
        print(f"clicks: {clicks}; moves: {len(table.state.log)}; rounds: {table.state.round}; "
              f"over: {table.state.game_over}; {time.monotonic() - started:.0f} s; "
              f"{tally}{winner}", flush=True)
    finally:
        app.running = False


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    full = "--full" in sys.argv
    size, game = (1280, 720), "dino_hunt"
    for n, arg in enumerate(sys.argv):
        if arg.startswith("--size"):
            value = arg.split("=", 1)[1] if "=" in arg else sys.argv[n + 1]
            try:
                w, h = value.lower().split("x")
                size = (int(w), int(h))
            except ValueError:
                print(f"--size: expected WIDTHxHEIGHT, like 800x600, got {value!r}",
                      file=sys.stderr)
                raise SystemExit(2) from None
            if value in args:
                args.remove(value)
        if arg.startswith("--game"):
            game = arg.split("=", 1)[1] if "=" in arg else sys.argv[n + 1]
            if game in args:
                args.remove(game)
    if game not in ("dino_hunt", "dino_hunt_dice"):
        print(f"--game: expected dino_hunt or dino_hunt_dice, got {game!r}", file=sys.stderr)
        raise SystemExit(2)
    out = Path(args[0] if args else "/tmp/play_in_window")
    out.mkdir(parents=True, exist_ok=True)
    # A new user: no saves or remembered names, and none shared with another run at once.
    os.environ.setdefault("DINOTABLE_HOME", str(out / "home"))
    app = App(size=size, settings=Settings(bot_speed="fast", muted=True))
    app.push(TitleScene(app, lazy=True))
    threading.Thread(target=drive, args=(app, out, random.Random(7), game, full),
                     daemon=True).start()
    app.run()


if __name__ == "__main__":
    main()
