"""One game's phones switched on: the hub and the server together, for the window's table
(and `dinotable play --phones`), started once and stopped with the table."""

from __future__ import annotations

from .hub import Phones
from .server import PhoneServer


class PhoneLink:
    """Hands on phones for one game: new tokens, a server on the local network."""

    def __init__(self, humans: list[int], colours: list[str], title: str, port: int = 0,
                 host: str = "0.0.0.0", address: str | None = None) -> None:
        self.phones = Phones(humans, colours, title)
        self.server = PhoneServer(self.phones, host, port, address)
        self.running = False

    def start(self) -> PhoneLink:
        """Open the port (OSError, in words, when it cannot be had)."""
        self.server.start()
        self.running = True
        return self

    def stop(self) -> None:
        """Close the port; pages still open are told the table has closed."""
        if self.running:
            self.running = False
            self.server.stop()

    def url(self, seat: int) -> str:
        """The address a seat's phone opens."""
        return self.server.url(seat)

    def short(self, seat: int | None) -> str:
        """Open a short address for the seat being joined (None: close it) and return it
        ("" for None)."""
        code = self.phones.offer(seat)
        return self.server.short(code) if code else ""

    @property
    def where(self) -> str:
        """Where the phones reach the table, in words: "192.168.1.5, port 8765"."""
        return f"{self.server.address}, port {self.server.port}"

    @property
    def joined(self) -> set[int]:
        """The seats whose phones have joined."""
        with self.phones.lock:
            return set(self.phones.joined)

    @property
    def seats(self) -> list[int]:
        """The seats that may join from a phone (the people's, not the bots')."""
        return sorted(self.phones.tokens)
