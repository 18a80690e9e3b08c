"""Player settings (volume, mute, bot speed, hand-off, the names typed last), kept in the
user's data folder."""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, field, fields

from . import bounded
from .paths import user_data_dir

__all__ = ["BOT_SPEEDS", "Settings", "user_data_dir"]


BOT_SPEEDS = {"slow": 1.6, "normal": 0.9, "fast": 0.35}
MAX_BYTES = 64 * 1024  # the real file is a few hundred bytes


@dataclass
class Settings:
    """What a player can change; unknown or broken values fall back to defaults."""

    volume: float = 0.7
    muted: bool = False
    bot_speed: str = "normal"
    always_handoff: bool = False
    show_odds: bool = False
    names: list[str] = field(default_factory=list)  # the seats' names typed last time
    phones: bool = False  # hands on phones: people join from their phones at set-up
    phones_port: int = 0  # the port phones reach the table on (0: one the system gives)

    @classmethod
    def load(cls) -> Settings:
        """Read settings.json; a missing or broken file gives the defaults (and is kept)."""
        path = user_data_dir() / "settings.json"
        try:
            data = json.loads(bounded.read_text(path, MAX_BYTES, "settings"))
        except (bounded.Refused, ValueError, RecursionError):
            # Missing, unreadable, too big, not JSON, a folder, a pipe or a device, nested
            # past Python's stack, a number past its digit limit: all just mean the defaults.
            return cls()
        settings = cls()
        if isinstance(data, dict):
            for f in fields(cls):
                value = data.get(f.name)
                if isinstance(value, type(getattr(settings, f.name))):
                    setattr(settings, f.name, value)
        # Only short strings: a hand-edited file must not put anything else in a seat.
        settings.names = [n for n in settings.names if isinstance(n, str) and len(n) <= 40][:8]
        if not 0 <= settings.phones_port <= 65535 or isinstance(settings.phones_port, bool):
            settings.phones_port = 0
        if settings.bot_speed not in BOT_SPEEDS:
            settings.bot_speed = "normal"
        volume = float(settings.volume)
        settings.volume = min(1.0, max(0.0, volume)) if volume == volume else 0.7  # not NaN
        return settings

    def save(self) -> None:
        """Write settings.json; a read-only disk is not worth interrupting a game for."""
        folder = user_data_dir()
        tmp = folder / "settings.json.tmp"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            # Written aside and renamed: a kill mid-write leaves the old settings whole.
            tmp.write_text(json.dumps(asdict(self), indent=2), encoding="utf-8")
            os.replace(tmp, folder / "settings.json")
        except OSError:
            # A full disk can leave the half-written copy: never leave it lying about.
            with contextlib.suppress(OSError):
                if tmp.is_file() and not tmp.is_symlink():
                    tmp.unlink()
