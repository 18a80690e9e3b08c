"""The phones' server: the phone page and each seat's JSON over the local network, in a
thread of its own beside the table's loop (aiohttp).

Routes, each seat's behind its token (a wrong or old token gets 404 and learns nothing):
- `GET /j/CODE`: a short code to type, open only while the table shows it for one seat,
  leads to that seat's address;
- `GET /seat/TOKEN`: the phone page (opening it joins the seat: its moves come from there);
- `GET /seat/TOKEN/view`: that seat's view as JSON, what `engine.view_for` gives it;
- `GET /seat/TOKEN/state`: everything the page shows (the view, cards, moves, words);
- `GET /seat/TOKEN/events`: the same, sent again whenever the game moves (server-sent
  events: a phone that slept reconnects by itself and is sent the newest at once);
- `POST /seat/TOKEN/act`: `{"action": ID, "args": {...}}`, a move for that seat;
- `POST /seat/TOKEN/undo`: take back that seat's last move.
A move is answered `{"ok": true}` once the table has taken it, or `{"ok": false,
"reason": ...}` in the table's own words; nothing changes when it is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections import deque
from importlib import resources
from typing import Any

from aiohttp import web

from .hub import PhoneMove, Phones, json_args

MAX_BODY = 8 * 1024  # a move is a few dozen bytes: anything larger is refused
FLOOD = (10, 1.0)  # at most this many moves a seat in this many seconds
ANSWER_WAIT = 20.0  # seconds a phone waits for the table to take its move
PING = 15.0  # seconds between keep-alive comments on an idle event stream
JOIN_WAIT = 1.0  # seconds a joining phone's stream waits for the table to show it joined
NOT_FOUND = "Not found."  # every address that opens nothing: a wrong token, no such page
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the token never leaves in a Referer
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self'; "
                                "img-src 'self' data:; connect-src 'self'"),
}


def lan_address() -> str:
    """This machine's address on the local network, as a phone there would reach it (the
    loopback address when there is none). Connecting a UDP socket sends nothing: it only
    asks the system which of its addresses faces the network."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # a documentation address: never a real host
        address = str(s.getsockname()[0])
        if not address.startswith("0."):
            return address
    return "127.0.0.1"


def _page_file(name: str) -> bytes:
    return resources.files("dinotable.companion").joinpath("page", name).read_bytes()


class PhoneServer:
    """Serves one game's phones until `stop`; `start` raises OSError when the port cannot
    be had (another program holds it)."""

    def __init__(self, phones: Phones, host: str = "0.0.0.0", port: int = 0,
                 address: str | None = None) -> None:
        self.phones = phones
        self.host = host
        self.port = port
        self.address = address or (lan_address() if host == "0.0.0.0" else host)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._stopping: asyncio.Event | None = None
        self._tick: asyncio.Event | None = None
        self._recent: dict[int, deque[float]] = {}

    # --- addresses -----------------------------------------------------------------------

    def url(self, seat: int) -> str:
        """The address a seat's phone opens."""
        return f"http://{self.address}:{self.port}/seat/{self.phones.tokens[seat]}"

    def short(self, code: str) -> str:
        """A short address to type, leading to the seat being joined: "192.168.1.5:8765/j/K7QX4"."""
        return f"{self.address}:{self.port}/j/{code}"

    @property
    def base(self) -> str:
        """The server's own address, without a seat."""
        return f"http://{self.address}:{self.port}"

    # --- running --------------------------------------------------------------------------

    def start(self) -> None:
        """Serve from a thread of its own; returns once the port is open."""
        self._thread = threading.Thread(target=self._run, name="phones", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._failed is not None:
            raise OSError(f"cannot serve the phones on port {self.port}: {self._failed}")
        self.phones.listen(self._wake)

    def stop(self) -> None:
        """Stop serving: every open page is told the table has closed."""
        self.phones.close()
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:  # told to `start`, which raises it on its thread
            self._failed = exc
        finally:
            self._ready.set()
            loop.close()

    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
        self._tick = asyncio.Event()
        app = web.Application(client_max_size=MAX_BODY, middlewares=[_headers])
        app.router.add_get("/", self._home)
        app.router.add_get("/page.js", self._static)
        app.router.add_get("/page.css", self._static)
        app.router.add_get("/j/{code}", self._short)
        app.router.add_get("/seat/{token}", self._page)
        app.router.add_get("/seat/{token}/view", self._view)
        app.router.add_get("/seat/{token}/state", self._state)
        app.router.add_get("/seat/{token}/events", self._events)
        app.router.add_post("/seat/{token}/act", self._act)
        app.router.add_post("/seat/{token}/undo", self._undo)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        # The system's own default for a server's port: where asking to reuse an address
        # would let two programs hold one port (Windows), a port in use is refused.
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = int(server.sockets[0].getsockname()[1])
        self._ready.set()
        await self._stopping.wait()
        self._wake_now()
        await runner.cleanup()

    def _wake(self) -> None:
        """Something new was published (called on the table's thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake_now)

    def _wake_now(self) -> None:
        tick, self._tick = self._tick, asyncio.Event()
        if tick is not None:
            tick.set()

    # --- handlers -------------------------------------------------------------------------

    def _seat(self, request: web.Request) -> int:
        seat = self.phones.seat_of(request.match_info.get("token", ""))
        if seat is None:
            raise web.HTTPNotFound(text=NOT_FOUND)
        return seat

    async def _home(self, request: web.Request) -> web.Response:
        return web.Response(text="dinotable: open the address your seat shows on the table.")

    async def _short(self, request: web.Request) -> web.Response:
        # Guessing is slowed as a flood is: the code is open only while its seat joins.
        if not self._allowed(-1):
            return _refused(429, "Too many tries at once; wait a moment.")
        token = self.phones.redeem(request.match_info.get("code", ""))
        if token is None:
            raise web.HTTPNotFound(text="Not found.")
        raise web.HTTPSeeOther(f"/seat/{token}")

    async def _static(self, request: web.Request) -> web.Response:
        name = request.path.lstrip("/")
        kind = "application/javascript" if name.endswith(".js") else "text/css"
        return web.Response(body=_page_file(name), content_type=kind)

    async def _page(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        self.phones.join(seat)
        return web.Response(body=_page_file("index.html"), content_type="text/html")

    async def _view(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        return _json_text(self.phones.view(seat) or "null")

    async def _state(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        return _json_text(self.phones.payload(seat)[1] or "null")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request)
        before = self.phones.payload(seat)[0]
        joined = self.phones.join(seat)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        seen = -1
        assert self._stopping is not None
        try:
            # A phone that wakes from sleep reconnects by itself (EventSource), and is sent
            # the newest view at once.
            await response.write(b"retry: 1500\n\n")
            if joined:
                # Joining changes what the phones show (this one's Undo, who plays from a
                # phone): the first view sent is the one made after it.
                await self._published_after(seat, before)
            while not self._stopping.is_set():
                version, text = self.phones.payload(seat)
                if version != seen and text:
                    seen = version
                    await response.write(f"event: view\ndata: {text}\n\n".encode())
                tick = self._tick
                assert tick is not None
                try:
                    await asyncio.wait_for(tick.wait(), PING)
                except TimeoutError:
                    await response.write(b": still here\n\n")
            await response.write(b"event: closed\ndata: {}\n\n")
        except ConnectionError:
            pass  # the phone went away (asleep, out of reach): nothing to report
        return response

    async def _published_after(self, seat: int, version: int) -> None:
        """Wait (a little, at most) for the table to publish anew after `version`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + JOIN_WAIT
        assert self._stopping is not None
        while self.phones.payload(seat)[0] == version and not self._stopping.is_set():
            left = deadline - loop.time()
            tick = self._tick
            if left <= 0 or tick is None:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(tick.wait(), left)

    async def _act(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        body = await _body(request)
        action_id = body.get("action") if isinstance(body, dict) else None
        args = json_args(body.get("args", {})) if isinstance(body, dict) else None
        if not isinstance(action_id, str) or not action_id or len(action_id) > 64 or (
                args is None):
            return _refused(400, 'Expected {"action": ID, "args": {NAME: VALUE, ...}}.')
        self.phones.join(seat)
        return await self._submit(PhoneMove(seat, "act", action_id, args))

    async def _undo(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        await _body(request)
        return await self._submit(PhoneMove(seat, "undo"))

    def _allowed(self, key: int) -> bool:
        """Whether one more request of this seat's (-1: short codes) fits in the flood
        limit, which it then counts."""
        now = time.monotonic()
        recent = self._recent.setdefault(key, deque())
        while recent and now - recent[0] > FLOOD[1]:
            recent.popleft()
        if len(recent) >= FLOOD[0]:
            return False
        recent.append(now)
        return True

    async def _submit(self, move: PhoneMove) -> web.Response:
        if not self._allowed(move.seat):
            return _refused(429, "Too many moves at once; wait a moment.")
        loop = asyncio.get_running_loop()
        answered = loop.create_future()

        def settle() -> None:
            if not answered.done():
                answered.set_result(None)

        def notify() -> None:
            loop.call_soon_threadsafe(settle)

        move.notify = notify
        problem = self.phones.submit(move)
        if problem:
            return _refused(429, problem)
        done, _ = await asyncio.wait({answered}, timeout=ANSWER_WAIT)
        if not done:
            if self.phones.withdraw(move):
                return _refused(503, "The table did not answer in time; your move was not "
                                     "played. Try again.")
            # The table took the move just now: its answer comes as soon as it is played.
            done, _ = await asyncio.wait({answered}, timeout=ANSWER_WAIT)
            if not done:
                return _refused(503, "The table is still playing your move; look at the "
                                     "table before you send it again.")
        answer = move.answer or {"ok": False, "reason": "The table has closed."}
        return web.json_response(answer, status=200 if answer["ok"] else 409)


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    try:
        response: web.StreamResponse = await handler(request)
    except web.HTTPNotFound:
        # The same answer whether the token or the page is wrong: nothing is learnt by
        # trying addresses.
        response = web.HTTPNotFound(text=NOT_FOUND)
    except web.HTTPException as exc:
        response = exc
    for name, value in SECURITY_HEADERS.items():
        if name not in response.headers and not response.prepared:
            response.headers[name] = value
    if isinstance(response, web.HTTPException):
        raise response
    return response


async def _body(request: web.Request) -> Any:
    """A request's JSON body (None when it has none or it is not JSON); too large a body
    is refused before it is read, in words as every refused move is."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise _too_large(request.content_length)
    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge:  # sent without its length, and longer than a move
        raise _too_large(MAX_BODY + 1) from None
    if not raw:
        return None
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: brackets nested thousands deep are not a move either.
        return None


def _too_large(size: int) -> web.HTTPRequestEntityTooLarge:
    reason = f"A move is a few dozen bytes; this one is over {MAX_BODY // 1024} KB."
    return web.HTTPRequestEntityTooLarge(
        max_size=MAX_BODY, actual_size=size, content_type="application/json",
        text=json.dumps({"ok": False, "reason": reason}))


def _json_text(text: str) -> web.Response:
    return web.Response(text=text, content_type="application/json")


def _refused(status: int, reason: str) -> web.Response:
    return web.json_response({"ok": False, "reason": reason}, status=status)
