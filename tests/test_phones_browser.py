"""Hands on phones in a real browser: headless Chromium opens each phone seat's page, served
by a table with no window on 127.0.0.1, and whole games are played by tapping the pages'
buttons only, as people at a game night would.

Each phone seat plays a sensible player's moves (the heuristic bot's choice for that seat),
found on its page and tapped there: a folded group is opened first, items are ticked then
confirmed. After every tap the test waits for the page to show the table's answer (the
body's data attributes), never for a fixed time.

Needs Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver);
the test is skipped without them. Selenium is given the driver's path, so it never
downloads one.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from dinotable import bots
from dinotable.companion.headless import HeadlessTable
from dinotable.companion.seat_view import turn_words
from dinotable.engine import Action, Rules, view_for
from dinotable.ruleset import load_by_id, load_ruleset
from dinotable.table.choice import item_label
from dinotable.table.session import Seat, TableSession

# The page's driver is shared with tools/phone_shots.py.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from phone_page import CHROMEDRIVER, CHROMIUM, WAIT, PhonePage, browser

REROLL = Path(__file__).parent / "fixtures" / "good_rulesets" / "fixture_reroll"
HUNT_SEED = 52  # a Dino Hunt of about 115 phone moves
RANCH_SEED = 37  # a Dino Dude Ranch of about 110


Browsers = Callable[[], WebDriver]


@pytest.fixture
def browsers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Browsers]:
    """Start headless Chromiums, each with a fresh profile; all are closed after."""
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip("needs Debian's chromium and chromium-driver "
                    f"({CHROMIUM} and {CHROMEDRIVER}): apt-get install chromium chromium-driver")
    monkeypatch.setenv("DINOTABLE_HOME", str(tmp_path / "home"))
    started: list[WebDriver] = []

    def start() -> WebDriver:
        driver = browser(tmp_path / f"profile{len(started)}", mobile=False)
        started.append(driver)
        return driver

    yield start
    for driver in started:
        driver.quit()


Phone = PhonePage


class Game:
    """A seeded game on a table with no window; its human seats play from their pages."""

    def __init__(self, game: str | Rules, seats: list[Seat], seed: int,
                 browsers: Browsers) -> None:
        rules = load_by_id(game) if isinstance(game, str) else game
        self.session = TableSession(rules, seats, options={}, seed=seed, saving=False)
        self.rules = self.session.rules
        self.table = HeadlessTable(self.session).start()
        self.rng = random.Random(seed)
        self.browsers = browsers
        self.checked: set[str] = set()
        try:
            self.phones = {seat: self.open(seat) for seat, who in enumerate(seats)
                           if who.kind == "human"}
        except BaseException:
            self.table.stop()  # a browser that would not start leaves no server behind
            raise

    def open(self, seat: int) -> Phone:
        """A new browser on this seat's page."""
        return Phone(self.browsers(), self.table.server.url(seat), seat)

    def stop(self) -> None:
        """Close the table; a failure in its loop fails the test."""
        self.table.stop()
        if self.table.error is not None:
            raise self.table.error

    def moves(self) -> int:
        """How many moves the game has taken."""
        return len(self.session.state.log)

    def next_turn(self) -> tuple[Phone, Action] | None:
        """Wait until a page says it is its player's turn (the table then waits on that
        phone, so the game holds still to be read); that phone and the move its player
        makes. None once the pages say the game is over."""
        session = self.session
        end = time.monotonic() + WAIT
        while True:
            assert self.table.error is None, self.table.error
            for phone in self.phones.values():
                body = phone.body()
                if body.get("gameOver") == "true":
                    return None
                if body["yours"] == "true" and body["busy"] == "false" and (
                        session.deciding == phone.seat and body["moves"] == str(self.moves())):
                    return phone, bots.choose("heuristic", session.state, self.rng)
            assert time.monotonic() < end, "no page ever said it was its turn"
            time.sleep(0.005)

    def play(self, until: Callable[[Phone, Action], bool] = lambda p, a: False) -> bool:
        """Tap each phone's moves until `until(phone, move)` holds before a move (True) or
        the game is over (False), checking every page at each new turn."""
        last: int | None = None
        for _ in range(2000):
            turn = self.next_turn()
            if turn is None:
                return False
            phone, action = turn
            if phone.seat != last:
                self.check_pages(phone.seat)
                last = phone.seat
            if until(phone, action):
                return True
            refused = phone.tap(action, self.rules)
            assert not refused, f"{action} was refused: {refused}"
        raise AssertionError("the game never ended")

    def check_pages(self, deciding: int) -> None:
        """What each player sees: whose turn it is in the table's words, their own cards and
        none of a rival's hidden ones."""
        session = self.session
        held = {seat: self.hand(seat) for seat in self.phones}
        for seat, phone in self.phones.items():
            phone.caught_up(self.moves)
            words = phone.text("turn")
            assert words == turn_words(session, seat), (seat, words)
            if seat == deciding:
                assert words.startswith(("Your turn", "You ")), words
                assert phone.text("waiting") == ""
                self.checked.add("your turn")
            else:
                name = session.name(deciding)
                assert words.startswith(name), (words, name)
                assert phone.text("waiting").startswith(f"Waiting for {name}")
                assert not phone.driver.find_elements("css selector", '[data-testid="move"]')
                self.checked.add("waiting")
            labels = phone.card_labels()
            mine = self.labels(seat)
            for label in held[seat]:
                assert label in labels, (seat, label, labels)
                self.checked.add("own hand")
            # Every card on the page is one of the seat's own, never a rival's.
            assert set(labels) <= mine | {""}, (seat, set(labels) - mine)
            for rival, cards in held.items():
                for label in cards - mine if rival != seat else set():
                    assert label not in labels, (seat, "sees", rival, label)
                    self.checked.add("rival hand hidden")

    def hand(self, seat: int) -> set[str]:
        """The labels of the cards this seat alone may see (its hand)."""
        view = view_for(self.session.state, seat)
        out: set[str] = set()
        for zname, zdef in self.rules.zones.items():
            if zdef.per_player and zdef.visible == "owner":
                out |= {item_label(self.rules, kind)
                        for _, kind, _ in view["zones"][zname][seat] if kind}
        return out

    def labels(self, seat: int) -> set[str]:
        """The labels of everything in this seat's own zones."""
        view = view_for(self.session.state, seat)
        out: set[str] = set()
        for zname, zdef in self.rules.zones.items():
            if zdef.per_player:
                content = view["zones"][zname][seat]
                if isinstance(content, list):
                    out |= {item_label(self.rules, kind) for _, kind, _ in content if kind}
        return out

    def finish(self) -> None:
        """Play to the end; every page then names the winners."""
        assert not self.play()
        session = self.session
        winners = [session.name(w) for w in session.state.winners]
        assert winners
        for seat, phone in self.phones.items():
            phone.wait(lambda b: b.get("gameOver") == "true", "the game over")
            shown = phone.text("game-over")
            if session.name(seat) in winners and len(winners) == 1:
                assert "You win!" in shown, shown
            else:
                for name in winners:
                    assert name in shown, (shown, winners)
            assert not phone.driver.find_elements("css selector", '[data-testid="move"]')


def refused_on_a_stale_page(game: Game) -> None:
    """A player's second phone (a tablet) moves while the first has lost the table; the
    first, still showing the old moves, taps the same one and is told why not in words;
    once it reaches the table again it catches up."""
    turn = game.next_turn()
    assert turn is not None
    phone, action = turn
    tablet = game.open(phone.seat)
    tablet.caught_up(game.moves)
    driver = phone.driver
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/events", "*/state"]})
    driver.execute_script("window.stop()")  # the page's stream ends, as on a dropped Wi-Fi
    end = time.monotonic() + WAIT
    while "Reconnecting" not in phone.text("status"):
        assert time.monotonic() < end, "the page never said it lost the table"
        time.sleep(0.01)
    assert tablet.tap(action, game.rules) == ""
    words = phone.tap(action, game.rules)
    assert any(c.isalpha() for c in words) and len(words.split()) >= 3, words
    assert words in phone.text("refusal")
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    phone.caught_up(game.moves)
    assert "moved on" in phone.text("refusal")
    phone.click("#refusal-ok")
    assert phone.text("refusal") == ""
    tablet.driver.quit()


def taken_back(game: Game) -> bool:
    """At the next turn whose page offers Undo, tap it: whether the page then shows the
    game with fewer moves (the player's last one taken back)."""
    assert game.play(lambda phone, action: phone.driver.find_element(
        "css selector", '[data-testid="undo"]').is_enabled())
    turn = game.next_turn()
    assert turn is not None
    phone, before = turn[0], game.moves()
    phone.click('[data-testid="undo"]')
    body = phone.wait(lambda b: b["busy"] == "false" and (
        b["moves"] != str(before) or bool(b["refused"])), "the move taken back")
    assert not body["refused"], body["refused"]
    return game.moves() < before


def test_dino_hunt_two_phones_and_a_bot(browsers: Browsers) -> None:
    """Dino Hunt with Ann and Ben on phones and Cat a bot, played to the end by taps."""
    seats = [Seat("Ann", "human", 0), Seat("Ben", "human", 1), Seat("Cat", "heuristic", 2)]
    game = Game("dino_hunt", seats, HUNT_SEED, browsers)
    try:
        # Well into the game, Ann's page refuses a move it shows from an old view.
        assert game.play(lambda phone, action: phone.seat == 0 and len(
            game.session.state.log) > 60)
        refused_on_a_stale_page(game)
        game.finish()
    finally:
        game.stop()
    assert {"your turn", "waiting", "own hand", "rival hand hidden"} <= game.checked


def test_dino_dude_ranch_two_phones(browsers: Browsers) -> None:
    """Dino Dude Ranch with both seats on phones, played to the end by taps; a move taken
    back with the page's Undo button."""
    game = Game("dino_dude_ranch", [Seat("Ann", "human", 0), Seat("Ben", "human", 1)],
                RANCH_SEED, browsers)
    try:
        assert taken_back(game)
        game.finish()
    finally:
        game.stop()
    assert {"your turn", "waiting", "own hand"} <= game.checked


def test_dice_ticked_then_rolled_again(browsers: Browsers) -> None:
    """A game whose move is a set of dice to roll again (ticked, then confirmed): rolling
    none is refused in words; then a turn each of ticking and rolling."""
    game = Game(load_ruleset(REROLL), [Seat("Ann", "human", 0), Seat("Ben", "human", 1)],
                3, browsers)
    try:
        turn = game.next_turn()
        assert turn is not None
        phone, before = turn[0], game.moves()
        phone.click('[data-testid="move"].mark-move')
        items = phone.driver.find_elements("css selector", '[data-testid="mark-item"]')
        assert len(items) == 5 and all(i.text.strip() for i in items)
        phone.click('[data-testid="mark-confirm"]')
        body = phone.wait(lambda b: b["busy"] == "false" and bool(b["refused"]),
                          "the refusal")
        assert any(c.isalpha() for c in body["refused"]), body["refused"]
        assert body["moves"] == str(before) == str(game.moves())
        assert game.play(lambda phone, action: game.moves() >= 6)
    finally:
        game.stop()
    assert {"your turn", "waiting"} <= game.checked
