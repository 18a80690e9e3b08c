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
