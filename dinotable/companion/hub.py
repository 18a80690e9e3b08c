"""The phones of one game: a token for each person's seat, who has joined, what each phone
is shown, and the moves phones have sent, waiting for the table.

Two threads meet here and nowhere else. The server's thread reads published views (text
already made) and leaves moves in the inbox; the table's thread, in `pump`, takes those
moves through the session's one way of taking an action and publishes what every joined
seat may now see. The game itself is only ever read or changed on the table's thread.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine import Action, EngineError, Event, GameState, refusal
from ..narrate import describe
from .seat_view import jsonable, seat_payload

if TYPE_CHECKING:
    from ..table.session import TableSession

INBOX_LIMIT = 32  # moves waiting for the table, all seats together
# A short code to type instead of scanning: no letters that read alike (0/O, 1/I/L).
JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_LENGTH = 5
LINES = 8  # what just happened, as each phone keeps it


@dataclass
class PhoneMove:
    """A move (or Undo) a phone sent, and the table's answer once it has one."""

    seat: int
    kind: str  # act | undo
    action_id: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    answer: dict[str, Any] | None = None
    done: threading.Event = field(default_factory=threading.Event)
    # Called on the table's thread once answered: the server wakes the waiting request.
    notify: Callable[[], None] | None = None

    def settle(self, answer: dict[str, Any]) -> None:
        """The table's answer: {"ok": True} or {"ok": False, "reason": words}."""
        self.answer = answer
        self.done.set()
        if self.notify is not None:
            self.notify()


class Phones:
    """Hands on phones for one game: made new for every game, so every token is too."""

    def __init__(self, humans: list[int], colours: list[str], title: str) -> None:
        # Long random tokens: an address is the only key to a seat's hand.
        self.tokens = {seat: secrets.token_urlsafe(24) for seat in humans}
        self.colours = colours
        self.title = title
        self.lock = threading.Lock()
        self.joined: set[int] = set()
        self.version = 0
        self._payloads: dict[int, str] = {}
        self._views: dict[int, str] = {}
        self._inbox: deque[PhoneMove] = deque()
        self._lines: dict[int, deque[str]] = {s: deque(maxlen=LINES) for s in humans}
        self._prompts: dict[int, str] = {}
        self._published: tuple[Any, ...] | None = None
        self._listeners: list[Callable[[], None]] = []
        self.session: TableSession | None = None
        self._offer: tuple[int, str] | None = None  # the seat being joined, and its code

    # --- the server's side (any thread) ----------------------------------------------

    def seat_of(self, token: str) -> int | None:
        """The seat an address's token opens, or None; every token is compared whole, in
        the same time, so a wrong one teaches nothing."""
        found = None
        for seat, mine in self.tokens.items():
            if hmac.compare_digest(mine.encode(), token.encode("utf-8", "replace")):
                found = seat
        return found

    def offer(self, seat: int | None) -> str:
        """Open a short code that leads to this seat's address, for as long as the seat is
        being joined (None: no seat is; every code is closed). Returns the code."""
        with self.lock:
            if seat is None:
                self._offer = None
                return ""
            if self._offer is None or self._offer[0] != seat:
                code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_LENGTH))
                self._offer = (seat, code)
            return self._offer[1]

    def redeem(self, code: str) -> str | None:
        """The token the short code open now leads to, or None (typed in any case)."""
        with self.lock:
            offer = self._offer
        if offer is None or len(code) != JOIN_LENGTH:
            return None
        if hmac.compare_digest(offer[1].encode(), code.upper().encode("utf-8", "replace")):
            return self.tokens[offer[0]]
        return None

    def join(self, seat: int) -> bool:
        """The seat's phone opened its page: its moves come from the phone from now on.
        True when it had not joined before (what the phones show changes then)."""
        with self.lock:
            new = seat not in self.joined
            if new:
                self.joined.add(seat)
                self._published = None  # every phone learns who has joined
        self._wake()
        return new

    def payload(self, seat: int) -> tuple[int, str]:
        """The version and the text of what this seat's phone shows ("" before the table
        has published anything)."""
        with self.lock:
            return self.version, self._payloads.get(seat, "")

    def view(self, seat: int) -> str:
        """This seat's view (`engine.view_for`), as JSON text."""
        with self.lock:
            return self._views.get(seat, "")

    def listen(self, wake: Callable[[], None]) -> None:
        """Call `wake` (from the table's thread) whenever something new is published."""
        self._listeners.append(wake)

    def submit(self, move: PhoneMove) -> str:
        """Leave a move for the table ("" when it waits there, else why it cannot)."""
        with self.lock:
            if len(self._inbox) >= INBOX_LIMIT:
                return "Too many moves are waiting; try again in a moment."
            if any(m.seat == move.seat for m in self._inbox):
                return "Your last move is still being played; wait for it."
            self._inbox.append(move)
        return ""

    def withdraw(self, move: PhoneMove) -> bool:
        """The phone stopped waiting for its move: True when it was still waiting for the
        table, and is now dropped unplayed; False when the table has it already (its answer
        is on the way)."""
        with self.lock:
            if move in self._inbox:
                self._inbox.remove(move)
                return True
            return False

    # --- the table's side (its own thread only) ---------------------------------------

    def attach(self, session: TableSession) -> None:
        """Follow this session: its moves are told to every phone."""
        self.session = session
        session.watchers.append(self._heard)
        self._sync(session)
        self.publish(session)

    def pump(self, session: TableSession, take: Callable[[Action], None],
             undo: Callable[[], str], ready: bool = True) -> None:
        """Once a frame: seats that joined play from their phones, the moves phones sent
        are taken (only when the table is `ready`, nothing still playing back), and what
        has changed is published."""
        self._sync(session)
        answered: list[tuple[PhoneMove, dict[str, Any]]] = []
        try:
            while ready:
                with self.lock:
                    # Out of the inbox, the move is the table's: the phone can no longer
                    # take it back (`withdraw`), and is told what became of it.
                    move = self._inbox.popleft() if self._inbox else None
                if move is None:
                    break
                answered.append((move, self._answer(session, move, take, undo)))
                self._published = None  # published below even when nothing changed
            if ready or self._published is None:
                # While the table still plays a move back, phones wait for it to be
                # shown; who has joined is told at once.
                self.publish(session)
        finally:
            # Answered once published: a phone told its move was taken reads the game
            # after it.
            for move, answer in answered:
                move.settle(answer)

    def _sync(self, session: TableSession) -> None:
        with self.lock:
            joined = set(self.joined)
        if joined != session.phones:
            session.hand_to_phones(joined)

    def _answer(self, session: TableSession, move: PhoneMove,
                take: Callable[[Action], None], undo: Callable[[], str]) -> dict[str, Any]:
        if move.kind == "undo":
            # After the game, Undo is refused in the table's own words, as at the laptop.
            if not session.state.game_over and session.deciding != move.seat:
                return {"ok": False, "reason": "It is not your move."}
            words = undo()
            return {"ok": not words, "reason": words}
        action = Action(move.seat, move.action_id, tuple(sorted(move.args.items())))
        reason = phone_words(session.state, action)
        if reason is None and session.is_bot(move.seat):
            reason = "A bot plays this seat."
        if reason is not None:
            return {"ok": False, "reason": reason}
        take(action)
        return {"ok": True, "reason": ""}

    def _heard(self, action: Action | None, events: list[Event]) -> None:
        """A move was taken (None: one was taken back): each joined seat's phone hears of
        it as that seat may."""
        session = self.session
        if session is None:
            return
        for seat, lines in self._lines.items():
            if action is None:
                lines.append("The last move was taken back.")
                continue
            told = []
            for event in events:
                if event.kind == "asked" and event.seat == seat:
                    self._prompts[seat] = str(event.data.get("prompt") or "")
                words = describe(event, session.state, seat)
                if words and event.kind != "asked":
                    told.append(words)
            # The move's own name only when its events say nothing ("Ben: Pass."): a phone
            # keeps few lines, and "Ben ends the turn." needs no "Ben: End turn." before it.
            lines.extend(told or [f"{session.name(action.player)}: "
                                  f"{session.rules.actions[action.id].label}."])

    def publish(self, session: TableSession) -> None:
        """Make each seat's phone text anew when the game (or who has joined) changed."""
        state = session.state
        key = (id(state), len(state.log), session.deciding, state.game_over)
        if key == self._published:
            return
        self._published = key
        with self.lock:
            phones = set(self.joined)
        payloads, views = {}, {}
        for seat in self.tokens:
            if not state.pending or session.deciding != seat:
                self._prompts.pop(seat, None)
            data = seat_payload(session, seat, colours=self.colours, phones=phones,
                                lines=list(self._lines[seat]),
                                prompt=self._prompts.get(seat, ""), title=self.title)
            views[seat] = json.dumps(data["view"])
            payloads[seat] = json.dumps(data)
        with self.lock:
            self.version += 1
            self._payloads, self._views = payloads, views
        self._wake()

    def _wake(self) -> None:
        for wake in list(self._listeners):
            wake()

    def close(self) -> None:
        """The game ended or the table closed: every waiting move is answered, unplayed."""
        with self.lock:
            waiting, self._inbox = list(self._inbox), deque()
        for move in waiting:
            move.settle({"ok": False, "reason": "The table has closed."})
        if self.session is not None and self._heard in self.session.watchers:
            self.session.watchers.remove(self._heard)


# Refusals a phone meets only when it sent a move the game has moved past (or one no page
# offers): said for a player, not as the engine's list of choices.
STALE = {
    "bad_arguments": "That choice is not open now: the game has moved on. Choose again.",
    "not_an_answer": "That does not answer what the game asks now. Choose again.",
    "unknown_action": "That is not a move of this game.",
}


def phone_words(state: GameState, action: Action) -> str | None:
    """Why a phone's move is refused, as a sentence (None: it is legal): the table's own
    reason (`engine.refusal`), but in plain words where only a stale page could meet it."""
    try:
        found = refusal(state, action)
    except (EngineError, TypeError, ValueError):
        return STALE["unknown_action"]
    if found is None:
        return None
    return STALE.get(found.kind) or found.text[:1].upper() + found.text[1:]


def json_args(raw: Any) -> dict[str, Any] | None:
    """A move's arguments as sent (a JSON object of names and plain values), or None when
    they are not that shape."""
    if not isinstance(raw, dict) or len(raw) > 16:
        return None
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if not isinstance(name, str) or len(name) > 64:
            return None
        if isinstance(value, list):
            if len(value) > 64 or not all(isinstance(v, str | int) and not isinstance(
                    v, bool) for v in value):
                return None
            out[name] = tuple(value)
        elif isinstance(value, str | int) and not isinstance(value, bool):
            out[name] = value
        else:
            return None
    return out


__all__ = ["PhoneMove", "Phones", "json_args", "jsonable"]
