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


# Headers the title reads without YAML must read exactly as YAML reads them; anything not
# plainly written is left to YAML (None).
TRICKY_HEADERS = [
    "name: Dino Hunt\nplayers: {min: 2, max: 4}\ntime: 30-60 minutes\npitch: Hunt, dig!",
    "name: yes", "name: No", "name: y", "name: ~", "name: null", "name: NULL", "name: on",
    "name: 'quoted: yes'", 'name: "double # quoted"', "name: 'it''s'", 'name: "a \\" b"',
    "time: 010", "time: 20", "time: 1.5", "time: .inf", "time: 2001-12-14 21:59:43",
    "time: 2001-12-14", "time: 1_000", "time: 1:30", "time: 10 min", "time: 1e3 min",
    "pitch: a # comment", "pitch: a: b", "pitch: C#", "pitch: ends:", "pitch: &a x",
    "pitch: !!str 5", "pitch: *a", "pitch: [a, b]", "pitch: -a", "pitch: |\n  block",
    "pitch: one\n  two", "pitch: one\n\n  two", "pitch: one\n  # note", "pitch: one\n# note",
    "pitch: \"open", "pitch: 'open", "pitch: \u00e9t\u00e9", "pitch: tab\there",
    "players: {min: 2, max: 4}", "players: {max: 4, min: 2}", "players: {min: 02, max: 4}",
    "players: {min: 2}", "players: {min: 0x2, max: 4}", "players:\n  min: 2\n  max: 4",
    "players: {min: 2, max: 4} # seats", "players: [2, 4]", "name: a\nname: b", "name : a",
    "name:a", "name:", "",
]


@pytest.mark.parametrize("head", TRICKY_HEADERS)
def test_a_header_read_without_yaml_reads_as_yaml_reads_it(head: str) -> None:
    import yaml

    from dinotable.catalog import plain_header

    fast = plain_header(head)
    if fast is None:
        return  # left to YAML
    assert fast == yaml.safe_load(head)


def test_random_header_lines_read_as_yaml_reads_them_or_are_left_to_yaml() -> None:
    import random

    import yaml

    from dinotable.catalog import KEYS, plain_header

    pieces = ["a", "Z", "yes", "No", "null", "~", "1", "0", "20", "-", ":", ": ", " ", " #",
              "#", "'", '"', "\\", "!", "&", "*", "{", "}", "[", "]", ",", "|", ">", "%",
              "@", "`", "?", ".", "inf", "e3", "_", "x", "\u00e9", "2001-12-14", "21:59",
              "min: 2", "max: 4", "\t", "=", "<<"]
    rng = random.Random(7)
    fast_reads = 0
    for _ in range(4000):
        key = rng.choice(KEYS)
        value = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))
        head = f"{key}: {value}"
        fast = plain_header(head)
        if fast is None:
            continue
        fast_reads += 1
        assert fast == yaml.safe_load(head), head
    assert fast_reads > 200  # the plain forms are common enough to be tested here
    seat_reads = 0
    for _ in range(2000):
        gaps = [" " * rng.randint(0, 2) for _ in range(6)]
        low, high = (rng.choice(["2", "04", "0", "12345", "4", "x", "+3", "1 # c"])
                     for _ in range(2))
        more = rng.choice(["", f",{gaps[3]}max:{gaps[4]}{high}", f", min: {high}"])
        head = f"players: {{{gaps[0]}min:{gaps[1]}{low}{gaps[2]}{more}{gaps[5]}}}"
        fast = plain_header(head)
        if fast is not None:
            seat_reads += 1
            assert fast == yaml.safe_load(head), head
    assert seat_reads > 100


def test_every_shipped_header_is_read_without_yaml() -> None:
    from dinotable.catalog import RULES_FILE, _head, plain_header

    for folder in installed_rulesets():
        head = _head((folder / RULES_FILE).read_text(encoding="utf-8"))
        assert plain_header(head) is not None, folder.name
