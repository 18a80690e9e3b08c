"""The title's cheap listing of the games agrees with the rules as loaded in full."""

from __future__ import annotations

from pathlib import Path

import pytest

from dinotable.catalog import listings, read_listing
from dinotable.ruleset import installed_rulesets, load_ruleset


def test_every_listing_says_what_the_loaded_rules_say() -> None:
    found = listings()
    assert [item.id for item in found] == [folder.name for folder in installed_rulesets()]
    for item, folder in zip(found, installed_rulesets(), strict=True):
        rules = load_ruleset(folder)
        assert item.problem == ""
        assert (item.name, item.min_players, item.max_players) == (
            rules.name, rules.min_players, rules.max_players)
        assert item.pitch == rules.data.get("pitch", "")
        assert item.time == rules.data.get("time", "")


def test_a_header_lower_in_the_file_is_still_found(tmp_path: Path) -> None:
    (tmp_path / "rules.yaml").write_text(
        "id: late\nactions:\n  roll: {label: Roll}\n# a comment\n"
        "name: Late Header\nplayers: {min: 1, max: 3}\npitch: >-\n  two\n  lines\n",
        encoding="utf-8")
    item = read_listing(tmp_path)
    assert (item.name, item.min_players, item.max_players, item.pitch, item.problem) == (
        "Late Header", 1, 3, "two lines", "")


@pytest.mark.parametrize("text, expected", [
    ("name: Broken\nplayers: [2, 4\n", "rules.yaml"),
    ("name: No seats\n", "expected players"),
    ("- just\n- a list\n", "expected name"),
])
def test_a_header_that_cannot_be_read_names_the_file(tmp_path: Path, text: str,
                                                     expected: str) -> None:
    (tmp_path / "rules.yaml").write_text(text, encoding="utf-8")
    item = read_listing(tmp_path)
    assert str(tmp_path / "rules.yaml") in item.problem and expected in item.problem


def test_the_first_frame_lists_the_games_and_a_broken_one_turns_unavailable_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import shutil

    import pygame

    from dinotable.app import App
    from dinotable.paths import rulesets_dir
    from dinotable.scenes.title import TitleScene
    from dinotable.settings import Settings

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    shutil.copytree(rulesets_dir() / "dino_hunt_dice", tmp_path / "dino_hunt_dice")
    broken = tmp_path / "broken_game"
    broken.mkdir()
    (broken / "rules.yaml").write_text("id: broken_game\nname: Broken\nplayers: {min: 2}\n")
    monkeypatch.setenv("DINOTABLE_RULESETS", str(tmp_path))
    monkeypatch.setenv("DINOTABLE_HOME", str(tmp_path / "home"))
    app = App(settings=Settings())
    try:
        title = TitleScene(app, lazy=True)
        app.push(title)
        # Before the first frame: both games listed by name, nothing loaded yet.
        assert [(e.id, e.rules, e.listing.name if e.listing else None)
                for e in title.entries] == [("broken_game", None, "Broken"),
                                            ("dino_hunt_dice", None, "Dino Hunt Dice")]
        app.step(dt=1 / 60)
        app.step(dt=1 / 60)  # the frame after the first loads the rules in full
        entries = {e.id: e for e in title.entries}
        assert entries["dino_hunt_dice"].rules is not None
        assert entries["broken_game"].rules is None
        assert "rules.yaml:" in entries["broken_game"].problem
        assert not title.menu.find("game:broken_game").enabled
    finally:
        pygame.quit()
