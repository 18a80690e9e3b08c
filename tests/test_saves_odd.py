"""Nothing the user made is lost in the rare setups of a data folder: a broken autosave with
a thousand broken ones already kept, a finished game one autosave back, a folder where a save
would go, a full disk under the settings, and a DINOTABLE_HOME that names a file. Each case
is built in the test's own DINOTABLE_HOME (see conftest)."""

from __future__ import annotations

import errno
import json
import random
from pathlib import Path
from typing import Any

import pytest

from dinotable import saves
from dinotable.engine import apply, new_game, sample_action
from dinotable.ruleset import load_by_id
from dinotable.settings import Settings

BROKEN = "format: 2\nruleset: dino_hunt_dice\nseats: [\n"  # cut off mid-file


def _game(moves: int, seed: int = 4) -> tuple[saves.SavedGame, Any]:
    rules = load_by_id("dino_hunt_dice")
    state = new_game(rules, ["Ann", "Ben"], None, seed)
    rng = random.Random(seed)
    while len(state.log) < moves and not state.game_over:
        apply(state, sample_action(state, rng))
    game = saves.SavedGame(rules.id, rules.version, [saves.SavedSeat("Ann", "human", 0),
                                                     saves.SavedSeat("Ben", "heuristic", 1)],
                           dict(state.options), seed,
                           [(a.player, a.id, a.args) for a in state.log])
    return game, state


def test_a_broken_autosave_is_kept_even_with_999_broken_ones_already_kept() -> None:
    path = saves.autosave_path()
    path.parent.mkdir(parents=True)
    for n in range(1, 1000):
        tail = "" if n == 1 else f"-{n}"
        path.with_name(f"autosave.unreadable{tail}.yaml").write_text("old")
    path.write_text(BROKEN)
    found, skipped = saves.newest_autosave()
    assert found is None and len(skipped) == 1
    kept = skipped[0].kept
    assert kept is not None and kept.read_text() == BROKEN  # byte for byte, by a new name
    assert kept.name.startswith("autosave.unreadable-") and not path.exists()
    # A new game's autosaves can no longer take it with the rotation.
    game, _ = _game(3)
    for _ in range(4):
        assert saves.try_write(game) is None
    assert kept.read_text() == BROKEN


def test_a_finished_game_one_autosave_back_is_archived_not_deleted() -> None:
    game, state = _game(100_000)
    assert state.game_over
    path = saves.autosave_path()
    assert saves.try_write(game) is None
    saves.try_write(game, compact=True)  # written whole again: autosave.1.yaml holds it too
    second = saves.rotation_paths()[1]
    assert second.exists()
    path.write_text(BROKEN)  # the newest one does not open
    found, skipped = saves.newest_autosave(keep_aside=False)
    assert found is None and [s.path for s in skipped] == [path]
    [entry] = saves.list_finished()
    assert entry.over and entry.moves == len(game.log)
    assert path.read_text() == BROKEN  # not taken with it: not set aside, left as it was
    assert not second.exists()


def test_a_folder_named_like_the_autosave_is_never_rotated_away() -> None:
    path = saves.autosave_path()
    path.mkdir(parents=True)
    (path / "mine.txt").write_text("the user's")
    game, _ = _game(2)
    problem = saves.try_write(game)
    assert problem is not None and "is a folder, not a save" in problem
    assert saves.try_write(game) is not None  # every time, and the folder stays
    assert (path / "mine.txt").read_text() == "the user's"
    assert not any(p.exists() for p in saves.rotation_paths()[1:])


def test_a_folder_at_a_kept_autosave_is_left_and_the_game_still_saves() -> None:
    path = saves.autosave_path()
    older = saves.rotation_paths()[2]
    older.mkdir(parents=True)
    (older / "mine.txt").write_text("the user's")
    for moves in (2, 4, 6, 8):
        game, _ = _game(moves)
        assert saves.try_write(game) is None
    assert (older / "mine.txt").read_text() == "the user's"
    found, _ = saves.newest_autosave()
    assert found is not None and len(found[0].log) == 8 and found[2] == path


def test_a_full_disk_leaves_no_half_written_settings_behind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    home = saves.user_data_dir()
    Settings(volume=0.3).save()
    before = (home / "settings.json").read_text()

    def full(self: Path, text: str, encoding: str | None = None) -> int:
        self.write_bytes(b"")  # the file is made, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    Settings(volume=0.9).save()
    monkeypatch.undo()
    assert not (home / "settings.json.tmp").exists()
    assert (home / "settings.json").read_text() == before
    assert json.loads(before)["volume"] == 0.3


def test_a_data_folder_that_is_a_file_is_said_so_not_file_exists(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "not_a_folder"
    home.write_text("the user's")
    monkeypatch.setenv("DINOTABLE_HOME", str(home))
    game, _ = _game(2)
    problem = saves.try_write(game)
    assert problem is not None and "File exists" not in problem
    assert f"{home} is a file, not a folder" in problem and "DINOTABLE_HOME" in problem
    with pytest.raises(ValueError, match="is a file, not a folder"):
        saves.save_as(game, "Friday")
    Settings().save()  # quietly nothing
    assert home.read_text() == "the user's"


def test_a_crash_log_in_a_data_folder_that_is_a_file_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from dinotable.scenes.crash import write_log

    home = tmp_path / "not_a_folder"
    home.write_text("x")
    app: Any = SimpleNamespace(stack=[])
    path, why = write_log(app, RuntimeError("boom"), "update", object(), folder=home)
    assert path is None and "is a file, not a folder" in why
