"""Player settings (volume, mute, bot speed, hand-off), kept in the user's data folder."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass, fields
from pathlib import Path


def user_data_dir() -> Path:
    """The platform's per-user data folder for dinotable (never the working directory)."""
    override = os.environ.get("DINOTABLE_HOME")
    if override:
        return Path(override)
    if sys.platform.startswith("win"):
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "dinotable"


BOT_SPEEDS = {"slow": 1.6, "normal": 0.9, "fast": 0.35}


@dataclass
class Settings:
    """What a player can change; unknown or broken values fall back to defaults."""

    volume: float = 0.7
    muted: bool = False
    bot_speed: str = "normal"
    always_handoff: bool = False
    show_odds: bool = False

    @classmethod
    def load(cls) -> Settings:
        """Read settings.json; a missing or broken file gives the defaults (and is kept)."""
        path = user_data_dir() / "settings.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        settings = cls()
        if isinstance(data, dict):
            for f in fields(cls):
                value = data.get(f.name)
                if isinstance(value, type(getattr(settings, f.name))):
                    setattr(settings, f.name, value)
        if settings.bot_speed not in BOT_SPEEDS:
            settings.bot_speed = "normal"
        settings.volume = min(1.0, max(0.0, float(settings.volume)))
        return settings

    def save(self) -> None:
        """Write settings.json; a read-only disk is not worth interrupting a game for."""
        folder = user_data_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "settings.json").write_text(json.dumps(asdict(self), indent=2),
                                                  encoding="utf-8")
        except OSError:
            pass
