"""A table with no window, for phones: the session's own loop (bots move, phones' moves are
taken, views published) in a thread, with the phones' server beside it.

What the window's table does each frame (`TableScene.update`), without drawing: used by
the tests and by scripts that play whole games from phones or from JSON.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from ..engine import Action
from .hub import Phones
from .server import PhoneServer

if TYPE_CHECKING:
    from ..table.session import TableSession

COLOURS = ["#3e9b4f", "#c0392b", "#2e6fb7", "#d68a1a", "#8e44ad", "#16a085"]


class HeadlessTable:
    """Play `session` with its human seats on phones, until `stop` or the game ends."""

    def __init__(self, session: TableSession, host: str = "127.0.0.1", port: int = 0,
                 tick: float = 0.005) -> None:
        self.session = session
        humans = [s for s in range(len(session.seats)) if not session.is_bot(s)]
        self.phones = Phones(humans, COLOURS, session.rules.name)
        self.server = PhoneServer(self.phones, host, port)
        self.tick = tick
        self.taken: list[Action] = []
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="headless-table", daemon=True)

    def start(self) -> HeadlessTable:
        """Open the server and begin the loop (OSError, the game left as it was, when the
        port cannot be had)."""
        self.phones.attach(self.session)
        try:
            self.server.start()
        except OSError:
            self.phones.close()  # no phone will come: nobody narrates the game for one
            raise
        self._thread.start()
        return self

    def stop(self) -> None:
        """End the loop and the server (nothing to end for a table that never started)."""
        self._stop.set()
        if self._thread.ident is not None:
            self._thread.join(10)
        self.server.stop()

    def __enter__(self) -> HeadlessTable:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _take(self, action: Action) -> None:
        self.session.take(action)
        self.taken.append(action)
        self.session.autosave()

    def _undo(self) -> str:
        taken, reason = self.session.take_back(remote=True)
        if taken is not None:
            self.session.autosave()
        return reason

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self.phones.pump(self.session, self._take, self._undo)
                if self.session.bot_to_move:
                    self._take(self.session.bot_action())
                    continue
                time.sleep(self.tick)
        except BaseException as exc:  # kept for the test that drives it
            self.error = exc
