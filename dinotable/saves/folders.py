"""Where saves live: the autosave, the games saved by name, and the finished games."""

from __future__ import annotations

from pathlib import Path

from ..paths import user_data_dir


def autosave_path() -> Path:
    """Where the game in progress is kept."""
    return user_data_dir() / "autosave.yaml"


SAVES_FOLDER = "saves"
FINISHED_FOLDER = "finished"


def finished_dir() -> Path:
    """Where finished games are archived (the last KEEP_FINISHED of them)."""
    return user_data_dir() / FINISHED_FOLDER


def saves_dir() -> Path:
    """Where games saved by name ("Save as...") are kept."""
    return user_data_dir() / SAVES_FOLDER
