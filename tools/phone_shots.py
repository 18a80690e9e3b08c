#!/usr/bin/env python3
"""Screenshots of the phone page ("hands on phones"), as a 390x844 phone shows it: seeded
games of Dino Hunt and Dino Dude Ranch (and the dice-marking fixture) served on 127.0.0.1
with no window, played by tapping the pages' own buttons in headless Chromium.

    python3 tools/phone_shots.py                   into /tmp/phone_shots
    python3 tools/phone_shots.py --out DIR         into DIR

Each moment is saved twice: NAME.png (what the screen shows) and NAME-full.png (the whole
page, to check that nothing is cut off); the first is also taken at 360x640 and at a
tablet's 768x1024. Needs /usr/bin/chromium and /usr/bin/chromedriver (Debian's chromium
and chromium-driver) and selenium. Exit 0 when every shot was taken, 2 without Chromium.
"""

from __future__ import annotations

import argparse
import base64
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from phone_page import CHROMEDRIVER, CHROMIUM, HEIGHT, WAIT, WIDTH, PhonePage, browser  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

from dinotable import bots  # noqa: E402
from dinotable.companion.headless import HeadlessTable  # noqa: E402
from dinotable.engine import Action, Rules  # noqa: E402
from dinotable.ruleset import load_by_id, load_ruleset  # noqa: E402
from dinotable.table.session import Seat, TableSession  # noqa: E402

REROLL = ROOT / "tests" / "fixtures" / "good_rulesets" / "fixture_reroll"


class Phone(PhonePage):
    """One seat's page in one browser, photographed."""

    def shot(self, folder: Path, name: str, size: tuple[int, int] = (WIDTH, HEIGHT)) -> None:
        """NAME.png, the screen, and NAME-full.png, the whole page, on a screen of `size`
        (the phone's own size afterwards)."""
        width, height = size
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.driver.save_screenshot(str(folder / f"{name}.png"))
        tall = int(self.driver.execute_script("return document.documentElement.scrollHeight"))
        full = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": tall, "scale": 1}})
        (folder / f"{name}-full.png").write_bytes(base64.b64decode(full["data"]))
        if size != (WIDTH, HEIGHT):
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True})
        print(f"  {folder / name}.png")


class Game:
    """A seeded game served with no window; its phone seats play by tapping their pages."""

    def __init__(self, rules: Rules, seats: list[Seat], seed: int, profiles: Path) -> None:
        self.session = TableSession(rules, seats, {}, seed, saving=False)
        self.table = HeadlessTable(self.session).start()
        self.rng = random.Random(seed)
        self.profiles = profiles
        self.drivers: list[WebDriver] = []
        self.phones: dict[int, Phone] = {}
        try:
            for seat, who in enumerate(seats):
                if who.kind == "human":
                    self.phones[seat] = self.open(seat)
        except BaseException:
            self.close()  # a browser that would not start leaves nothing running
            raise

    def open(self, seat: int) -> Phone:
        """A new browser on this seat's page."""
        driver = browser(Path(tempfile.mkdtemp(dir=self.profiles)))
        self.drivers.append(driver)
        return Phone(driver, self.table.server.url(seat))

    def close(self) -> None:
        """The table, then every browser."""
        self.table.stop()
        for driver in self.drivers:
            driver.quit()

    def turn(self) -> tuple[int, Phone, Action] | None:
        """Wait until a page says it is its player's turn (the table then waits on that
        phone, so the game holds still to be read): its seat, the page and the move a
        sensible player makes there. None once the pages say the game is over."""
        session = self.session
        end = time.monotonic() + WAIT
        while True:
            for seat, phone in self.phones.items():
                body = phone.body()
                if body.get("gameOver") == "true":
                    return None
                if body["yours"] == "true" and body["busy"] == "false" and (
                        session.deciding == seat
                        and body["moves"] == str(len(session.state.log))):
                    return seat, phone, bots.choose("heuristic", session.state, self.rng)
            if time.monotonic() > end:
                raise TimeoutError("no page ever said it was its turn")
            time.sleep(0.005)

    def play(self, stop: Callable[[int, Phone, Action], bool] = lambda *a: False,
             limit: int = 3000) -> bool:
        """Tap moves until `stop(seat, phone, move)` says so before a move (True) or the
        game ends (False)."""
        for _ in range(limit):
            turn = self.turn()
            if turn is None:
                return False
            seat, phone, action = turn
            if stop(seat, phone, action):
                return True
            refused = phone.tap(action, self.session.rules)
            if refused:
                raise RuntimeError(f"{action} was refused: {refused}")
        raise RuntimeError("the game did not end")


def dino_hunt(out: Path, profiles: Path, seed: int) -> None:
    """Your turn, a group opened, a question, waiting, a refusal, the game over."""
    rules = load_by_id("dino_hunt")
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1), Seat("Cat", "heuristic", 2)]
    game = Game(rules, seats, seed, profiles)
    ann = game.phones[0]
    try:
        def folded(seat: int, phone: Phone, action: Action) -> bool:
            return seat == 0 and bool(phone.find('[data-testid="group"]'))

        game.play(folded)
        ann.shot(out, "dino_hunt-1-your-turn")
        ann.shot(out, "dino_hunt-1-your-turn-360x640", (360, 640))
        ann.shot(out, "dino_hunt-1-your-turn-tablet", (768, 1024))
        ann.click('[data-testid="group"]')
        ann.shot(out, "dino_hunt-2-group-open")

        game.play(lambda seat, phone, action: seat == 1 and len(game.session.state.log) > 40)
        ann.shot(out, "dino_hunt-3-waiting")

        game.play(lambda seat, phone, action: seat == 0)
        refusal(game, 0, out, "dino_hunt-4-refused")

        if game.play(lambda seat, phone, action: seat == 0 and bool(
                phone.find('[data-testid="prompt"]:not([hidden])'))):
            ann.shot(out, "dino_hunt-5-asked")
        game.play()
        ann.wait(lambda b: b["gameOver"] == "true", "the game over")
        ann.shot(out, "dino_hunt-6-game-over")
    finally:
        game.close()


def refusal(game: Game, seat: int, out: Path, name: str) -> None:
    """A second phone on the same seat moves while the first has lost its connection: the
    first, still showing the old moves, taps one and is told why not."""
    phone = game.phones[seat]
    other = game.open(seat)
    turn = game.turn()
    assert turn is not None and turn[0] == seat
    action = turn[2]
    drop(phone)
    refused = other.tap(action, game.session.rules)
    assert not refused, refused
    words = phone.tap(action, game.session.rules)
    assert words, "the stale move was taken"
    phone.shot(out, name)
    reconnect(phone)
    phone.wait(lambda b: b["moves"] == str(len(game.session.state.log)), "the newest view")
    phone.shot(out, f"{name}-caught-up")
    other.driver.quit()
    game.drivers.remove(other.driver)


def drop(phone: Phone) -> None:
    """The page loses the table: its stream is stopped and nothing new reaches it."""
    phone.driver.execute_cdp_cmd("Network.enable", {})
    phone.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/events", "*/state"]})
    phone.driver.execute_script("window.stop()")  # the stream ends, as on a dropped Wi-Fi
    end = time.monotonic() + WAIT
    while not phone.find('[data-testid="status"]:not([hidden])'):
        if time.monotonic() > end:
            raise TimeoutError("the page never said it lost the table")
        time.sleep(0.01)


def reconnect(phone: Phone) -> None:
    """The page may reach the table again (it reconnects by itself)."""
    phone.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    end = time.monotonic() + WAIT
    while phone.find('[data-testid="status"]:not([hidden])'):
        if time.monotonic() > end:
            raise TimeoutError("the page never found the table again")
        time.sleep(0.02)


def dino_dude_ranch(out: Path, profiles: Path, seed: int) -> None:
    """A long list of captures opened, waiting, the game over."""
    rules = load_by_id("dino_dude_ranch")
    game = Game(rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], seed, profiles)
    ann = game.phones[0]
    try:
        def captures(seat: int, phone: Phone, action: Action) -> bool:
            return seat == 0 and bool(phone.find('[data-testid="group"]')) and len(
                game.session.state.log) > 30

        game.play(captures)
        ann.shot(out, "ranch-1-your-turn")
        ann.click('[data-testid="group"]')
        ann.shot(out, "ranch-2-group-open")
        game.play(lambda seat, phone, action: seat == 1 and len(game.session.state.log) > 60)
        ann.shot(out, "ranch-3-waiting")
        game.play()
        ann.wait(lambda b: b["gameOver"] == "true", "the game over")
        ann.shot(out, "ranch-4-game-over")
        game.table.stop()
        ann.wait(lambda b: b["closed"] == "true", "the table closed")
        ann.shot(out, "ranch-5-table-closed")
    finally:
        game.close()


def reroll(out: Path, profiles: Path, seed: int) -> None:
    """Dice to tick and roll again; none ticked is refused."""
    rules = load_ruleset(REROLL)
    game = Game(rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], seed, profiles)
    ann = game.phones[0]
    try:
        game.play(lambda seat, phone, action: seat == 0)
        ann.click('[data-testid="move"].mark-move')
        for n in range(2):  # each tick draws the panel anew: find the next one afresh
            ann.click('[data-testid="mark-item"]', n)
        ann.shot(out, "reroll-1-mark")
        while ann.find('[data-testid="mark-item"][aria-pressed="true"]'):
            ann.click('[data-testid="mark-item"][aria-pressed="true"]')
        before = ann.body()["version"]
        ann.click('[data-testid="mark-confirm"]')
        ann.wait(lambda b: b["busy"] == "false" and (bool(b["refused"]) or b["version"] != before),
                 "the answer")
        ann.shot(out, "reroll-2-refused")
    finally:
        game.close()


def main(argv: list[str] | None = None) -> int:
    """Take every shot; 0 when all were taken."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/phone_shots"),
                        help="the folder for the PNGs (default /tmp/phone_shots)")
    parser.add_argument("--hunt-seed", type=int, default=21)
    parser.add_argument("--ranch-seed", type=int, default=21)
    args = parser.parse_args(argv)
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            print(f"{path} is missing: install Debian's chromium and chromium-driver")
            return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as home:
        os.environ["DINOTABLE_HOME"] = home
        profiles = Path(home) / "profiles"
        profiles.mkdir()
        started = time.monotonic()
        dino_hunt(args.out, profiles, args.hunt_seed)
        dino_dude_ranch(args.out, profiles, args.ranch_seed)
        reroll(args.out, profiles, 3)
        print(f"done in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
