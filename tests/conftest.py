"""Shared fixtures: headless SDL, the shipped rulesets, and small rulesets written to tmp_path."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from dinotable.engine import Rules
from dinotable.ruleset import load_by_id, load_ruleset

if TYPE_CHECKING:
    from dinotable.app import App


@pytest.fixture(autouse=True)
def _user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings, saves and finished games go to a folder of the test's own, never the
    user's data folder."""
    monkeypatch.setenv("DINOTABLE_HOME", str(tmp_path / "home"))


@pytest.fixture
def app() -> Iterator[App]:
    """The real app, headless, with bots at their fastest; the window closes after."""
    import pygame

    from dinotable.app import App
    from dinotable.settings import Settings

    application = App(settings=Settings(bot_speed="fast"))
    yield application
    pygame.quit()


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



@pytest.fixture
def drawn() -> Iterator[list[str]]:
    """The kinds of every card face drawn while a test runs (`render.cards.seen`): what a
    hidden-information test checks against what a seat may see."""
    from dinotable.render import cards

    kinds: list[str] = []
    cards.seen.append(kinds.append)
    yield kinds
    cards.seen.remove(kinds.append)


@pytest.fixture
def words(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every line written through `theme.text` while a test runs (card faces are drawn
    afresh, so their words are heard too)."""
    from dinotable.render import cards, theme

    said: list[str] = []
    text = theme.text

    def spy(surface: object, string: str, *args: object, **kwargs: object) -> object:
        said.append(string)
        return text(surface, string, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(theme, "text", spy)
    cards.forget()
    return said
