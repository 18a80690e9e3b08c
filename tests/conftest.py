"""Shared fixtures: headless SDL, the shipped rulesets, and small rulesets written to tmp_path."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from dinotable.engine import Rules
from dinotable.ruleset import load_by_id, load_ruleset


@pytest.fixture(scope="session")
def dhd() -> Rules:
    """The shipped Dino Hunt Dice ruleset."""
    return load_by_id("dino_hunt_dice")


@pytest.fixture
def write_ruleset(tmp_path: Path) -> Callable[[str], Path]:
    """Write YAML text as `tmp_path/<its id>/rules.yaml` and return the folder."""

    def write(text: str) -> Path:
        text = textwrap.dedent(text).lstrip("\n")
        rid = next(line.split(":", 1)[1].strip() for line in text.splitlines()
                   if line.startswith("id:"))
        folder = tmp_path / rid
        folder.mkdir()
        (folder / "rules.yaml").write_text(text, encoding="utf-8")
        return folder

    return write


@pytest.fixture
def load_text_ruleset(write_ruleset: Callable[[str], Path]) -> Callable[[str], Rules]:
    """Write YAML text as a ruleset folder and load it."""
    return lambda text: load_ruleset(write_ruleset(text))

