"""Watching a finished or saved game again: see ReplayScene (built next)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def start_replay(app: Any, path: Path, game: Any) -> None:
    """Open the replay viewer for a save (not yet available: says so)."""
    from .message import MessageScene

    app.push(MessageScene(app, "Replays are not ready yet", [f"{path.name} is kept."]))
