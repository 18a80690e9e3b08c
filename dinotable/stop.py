"""Ctrl+C and SIGTERM while the app starts: remembered at once, acted on by the frame loop.

Python turns Ctrl+C into KeyboardInterrupt wherever the program happens to be, and during
start-up that is often inside an import or a call from pygame's C code, which may swallow
it: the window then opened and played on as if nothing had been asked. So from the first
line of `python -m dinotable` a signal only sets a flag. The window's loop reads the flag
before its first frame (`App.run`) and closes as if asked then, saving what there is; every
other command gets Python's own handling back before it starts (`resume`).
"""

from __future__ import annotations

import contextlib
import signal
import sys
from types import FrameType
from typing import Any

_asked: list[int] = []
_previous: dict[int, Any] = {}


def stop_signals() -> list[int]:
    """The signals that ask the app to close after this frame, saving as it goes.

    SIGTERM (`kill`, a session ending) and SIGINT (Ctrl+C in a terminal) everywhere. Windows
    sends no SIGTERM from outside (ending a task there cannot be caught); what a console
    sends is Ctrl+C and Ctrl+Break, and Ctrl+Break (SIGBREAK, which only Windows has) is how
    a script stops a process politely there: without a handler it would end the game
    unsaved.
    """
    signums: list[int] = [signal.SIGTERM, signal.SIGINT]
    if sys.platform == "win32" and hasattr(signal, "SIGBREAK"):
        signums.append(signal.SIGBREAK)
    return signums


def _remember(signum: int, frame: FrameType | None) -> None:
    _asked.append(signum)


def listen() -> None:
    """From now on a stop signal is remembered, not raised (main thread only)."""
    for signum in stop_signals():
        with contextlib.suppress(ValueError, OSError):
            previous = signal.signal(signum, _remember)
            _previous.setdefault(signum, previous)


def asked() -> int | None:
    """The first stop signal that came while listening, or None."""
    return _asked[0] if _asked else None


def resume() -> None:
    """Give the signals back their earlier handling (for commands with no window loop);
    a Ctrl+C that came meanwhile is raised now, as it would have been."""
    for signum, handler in _previous.items():
        with contextlib.suppress(ValueError, OSError, TypeError):
            signal.signal(signum, handler)
    _previous.clear()
    if _asked:
        signum = _asked.pop(0)
        _asked.clear()
        if signum == getattr(signal, "SIGINT", None):
            raise KeyboardInterrupt
        raise SystemExit(128 + signum)  # as the system's default for SIGTERM reports it
