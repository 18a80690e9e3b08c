"""Player settings (volume, mute, bot speed, hand-off), kept in the user's data folder."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields

from .paths import user_data_dir

__all__ = ["BOT_SPEEDS", "Settings", "user_data_dir"]


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
