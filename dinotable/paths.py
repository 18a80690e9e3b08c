"""The one place that knows where shipped files live: checkout, pip install, or frozen app."""

from __future__ import annotations

import os
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _base() -> Path:
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen)
    checkout = _PACKAGE.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "rulesets").is_dir():
        return checkout
    return _PACKAGE / "_data"


def rulesets_dir() -> Path:
    """Folder holding one sub-folder per shipped ruleset (DINOTABLE_RULESETS overrides)."""
    override = os.environ.get("DINOTABLE_RULESETS")
    return Path(override) if override else _base() / "rulesets"


def assets_dir() -> Path:
    """Folder holding fonts, images and sounds."""
    return _base() / "assets"


def user_data_dir() -> Path:
    """The platform's per-user data folder for dinotable (DINOTABLE_HOME overrides).

    Never the working directory and never beside the executable: a frozen app may sit in a
    read-only folder, on a stick, or be unpacked afresh into a temporary folder each run.
    """
    override = os.environ.get("DINOTABLE_HOME")
    if override:
        return Path(override)
    if sys.platform.startswith("win"):
        base = _absolute("APPDATA", Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = _absolute("XDG_DATA_HOME", Path.home() / ".local" / "share")
    return base / "dinotable"


def _absolute(variable: str, default: Path) -> Path:
    """The folder an environment variable names, else `default`.

    Unset, empty or relative gives `default`: a relative one would mean the working directory.
    """
    value = os.environ.get(variable, "")
    return Path(value) if value and os.path.isabs(value) else default


def why_not_written(path: Path, exc: OSError) -> str:
    """Why a file in the user data folder could not be written, in words a player can act
    on: the OS's own for a folder that is really a file would be "File exists"."""
    for folder in (path.parent, *path.parent.parents):
        if folder.exists() or folder.is_symlink():
            if not folder.is_dir():
                return (f"{folder} is a file, not a folder, so nothing can be saved in it "
                        "(DINOTABLE_HOME must name a folder)")
            break
    if path.is_dir():
        return f"{path.name} is a folder, not a save; nothing is saved over it"
    return exc.strerror or str(exc)
