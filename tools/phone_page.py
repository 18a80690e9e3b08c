"""Driving the phone page ("hands on phones") in Debian's headless Chromium, for the
browser test (tests/test_phones_browser.py) and the screenshots (tools/phone_shots.py):
start a browser, read a seat's page, and tap the buttons that make a move.

Selenium is given Debian's chromedriver by its path, so it never downloads one.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from dinotable.engine import Action, Rules, is_subset

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# Headless, and quiet on a closed network: no background connections, no updates.
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")
WIDTH, HEIGHT = 390, 844  # a phone's screen
WAIT = 20.0  # seconds a page may take to show what the table did


def browser(profile: Path, mobile: bool = True) -> WebDriver:
    """Headless Chromium with a phone's screen (`mobile`: as a phone presents itself, else
    a desktop window of the same size), its profile in `profile`."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={WIDTH},{HEIGHT}")
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    if mobile:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True})
    return driver


class PhonePage:
    """One seat's page in one browser, read and tapped as a person would."""

    def __init__(self, driver: WebDriver, url: str, seat: int = 0) -> None:
        self.driver = driver
        self.url = url
        self.seat = seat
        driver.get(url)
        self.wait(lambda b: b["version"] != "0", "the page's first view")

    def body(self) -> dict[str, str]:
        """The page's state as its body's data attributes, and whether a refusal shows."""
        found: dict[str, str] = self.driver.execute_script(
            "const d = Object.assign({}, document.body.dataset);"
            "d.refused = document.querySelector('[data-testid=refusal]').hidden ? '' : "
            "document.getElementById('refusal-text').textContent; return d;")
        return found

    def wait(self, ready: Callable[[dict[str, str]], bool], what: str,
             timeout: float = WAIT) -> dict[str, str]:
        """Poll the page until `ready` holds for its body's attributes."""
        end = time.monotonic() + timeout
        while True:
            body = self.body()
            if ready(body):
                return body
            if time.monotonic() > end:
                raise AssertionError(f"seat {self.seat}'s page never showed {what}: {body}")
            time.sleep(0.01)

    def caught_up(self, moves: Callable[[], int]) -> dict[str, str]:
        """Wait until the page shows the game after `moves()` moves, nothing in flight."""
        return self.wait(lambda b: b["busy"] == "false" and b["moves"] == str(moves()),
                         "the newest view")

    def text(self, testid: str) -> str:
        """The words of the first visible element with this test id ("" when none)."""
        found: str = self.driver.execute_script(
            "for (const e of document.querySelectorAll(`[data-testid='${arguments[0]}']`))"
            "  if (e.offsetParent !== null) return e.textContent.trim();"
            "return '';", testid)
        return found

    def card_labels(self) -> list[str]:
        """The labels of every card on the page (a folded zone's too)."""
        labels: list[str] = self.driver.execute_script(
            "return Array.from(document.querySelectorAll('[data-testid=card]'))"
            ".map(c => c.dataset.label || '');")
        return labels

    def find(self, css: str) -> list[WebElement]:
        """The page's elements matching `css`."""
        return list(self.driver.find_elements("css selector", css))

    def click(self, css: str, n: int = 0) -> None:
        """Tap the `n`th element matching `css`."""
        self.press(lambda: self.find(css)[n])

    def press(self, find: Callable[[], WebElement]) -> None:
        """Tap what `find` finds; when the page was drawn anew in between (a view came, the
        screen turned), find it again."""
        for attempt in range(3):
            try:
                find().click()
                return
            except StaleElementReferenceException:
                if attempt == 2:
                    raise

    def tap(self, action: Action, rules: Rules, ticked: tuple[str, ...] | None = None) -> str:
        """Tap the buttons that make `action` (opening its group, ticking its items) and
        wait for the table's answer: "" when taken, else the refusal's words."""
        before = self.body()["moves"]
        if self.find('[data-testid="mark-cancel"]'):
            self.click('[data-testid="mark-cancel"]')  # back from items left ticking
        self._press(action, rules, ticked)
        body = self.wait(lambda b: b["busy"] == "false" and (
            b["moves"] != before or bool(b["refused"])), "the move's answer")
        return body["refused"]

    def _press(self, action: Action, rules: Rules, ticked: tuple[str, ...] | None) -> None:
        args = dict(action.args)
        adef = rules.actions[action.id]
        subset = next((a.name for a in adef.args if is_subset(a)), None)
        if subset is not None:
            bound = {k: v for k, v in args.items() if k != subset}
            self.press(lambda: self._button(
                lambda b: b["mark"] == {"action": action.id, "args": bound}, adef.label))
            for item in args[subset] if ticked is None else ticked:
                self.click(f'[data-testid="mark-item"][data-id="{item}"]')
            self.click('[data-testid="mark-confirm"]')
            return
        want = {"action": action.id, "args": json.loads(json.dumps(args))}
        self.press(lambda: self._button(lambda b: b["act"] == want, adef.label))

    def _button(self, test: Callable[[dict[str, Any]], bool], group: str) -> WebElement:
        # Until the page shows it: a view arriving meanwhile draws the buttons anew (and its
        # groups folded), so a busy machine may need a few rounds.
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            # Every enabled move button with what it does, in one round trip.
            buttons = self.driver.execute_script(
                "return Array.from(document.querySelectorAll("
                "'[data-testid=move][data-enabled=true]')).map("
                "b => [b, b.dataset.act || 'null', b.dataset.mark || 'null']);")
            for button, act, mark in buttons:
                if test({"act": json.loads(act), "mark": json.loads(mark)}):
                    return button  # type: ignore[no-any-return]
            # Folded under its group's button: open the group.
            heads = self.find(f'[data-testid="group"][aria-expanded="false"]'
                              f'[data-group="{_css(group)}"]')
            if heads:
                with contextlib.suppress(StaleElementReferenceException):
                    heads[0].click()
            else:
                time.sleep(0.05)
        raise AssertionError(f"seat {self.seat}'s page has no button for this {group} move")


def _css(text: str) -> str:
    """Text inside a CSS attribute selector's double quotes."""
    return text.replace("\\", "\\\\").replace('"', '\\"')
