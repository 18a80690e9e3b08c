"""Hands on phones: players join the table from their phones over the local network.

`hub.py` keeps each seat's token, who has joined, the views published for each phone and
the moves phones send; it never touches pygame or the network. `seat_view.py` builds what
one seat's phone shows. `server.py` serves the phone page and its JSON beside the table
(aiohttp, in a thread of its own). The table's own loop is the only one that reads or
changes the game: it publishes views and takes the phones' moves (`Phones.pump`).
"""

from .hub import PhoneMove, Phones

__all__ = ["PhoneMove", "Phones"]
