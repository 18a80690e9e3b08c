"""Talking to the phones' server from the tests, as a phone or a script would: plain
requests and an event stream, to this machine's loopback address only."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

WAIT = 10.0  # seconds any one thing may take to show up

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def local(url: str) -> str:
    """A URL on this machine's loopback address (the only address the tests send to)."""
    assert url.startswith("http://127.0.0.1:"), url
    return url


def get(url: str) -> tuple[int, bytes]:
    """GET: the status and the body."""
    try:
        with OPENER.open(local(url), timeout=WAIT) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def post_bytes(url: str, body: Any, timeout: float = WAIT) -> tuple[int, bytes]:
    """POST a JSON body (bytes are sent as they are): the status and the body."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(local(url), data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with OPENER.open(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def until(check: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    """Wait (a bounded time) for `check` to hold."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.003)


class EventStream:
    """One phone's event stream (server-sent events), read in a thread of its own."""

    def __init__(self, port: int, path: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.connect()
        self.sock = self.conn.sock
        self.conn.request("GET", path)
        self.response = self.conn.getresponse()
        self.cond = threading.Condition()
        self.events: list[tuple[str, str]] = []
        self.ended = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        name, data = "message", []
        try:
            while True:
                line = self.response.readline()
                if not line:
                    break
                text = line.decode().rstrip("\r\n")
                if not text:
                    if data:
                        with self.cond:
                            self.events.append((name, "\n".join(data)))
                            self.cond.notify_all()
                    name, data = "message", []
                elif not text.startswith(":"):
                    field, _, value = text.partition(":")
                    if field == "event":
                        name = value.removeprefix(" ")
                    elif field == "data":
                        data.append(value.removeprefix(" "))
        except Exception:  # the connection went, whichever way: the stream has ended
            pass
        finally:
            with self.cond:
                self.ended = True
                self.cond.notify_all()

    def next(self, name: str, after: int = 0, timeout: float = WAIT) -> tuple[int, str]:
        """The first `name` event from index `after` on: its index and its data."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for index in range(after, len(self.events)):
                    if self.events[index][0] == name:
                        return index, self.events[index][1]
                left = deadline - time.monotonic()
                assert left > 0 and not self.ended, f"no {name!r} event came"
                self.cond.wait(left)

    def drain(self, timeout: float) -> list[tuple[str, str]]:
        """The events sent since the last drain (waiting up to `timeout` for one)."""
        with self.cond:
            if not self.events and not self.ended:
                self.cond.wait(timeout)
            out, self.events = self.events, []
            return out

    def close(self) -> None:
        """The phone goes away."""
        assert self.sock is not None
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()
        self.thread.join(WAIT)
