"""Saves written by earlier versions of the rules and of the app (tests/saves_corpus, made by
tools/save_corpus.py) open through the app's own code: each replays to where it was saved,
or is refused in words naming both versions and kept byte for byte.

This is also the guard for later changes to the rules or the engine. The corpus holds this
release's saves, finished and unfinished, of every ruleset's current version, and they must
replay as they were played. When one of them fails here, a change made since has changed
how a saved move replays without raising the ruleset's `version`. Then: raise `version` in
its rules.yaml; keep the old version in `replays:` if its saves still replay move for move
(the tests here say which do; a save that now reaches a refused move is listed in REFUSED
below); say what changed in the ruleset's DECISIONS.md; and make the new release's saves
with `python3 tools/save_corpus.py` (tests/saves_corpus/README.md says how).
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import re
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pygame
import pytest

from dinotable import saves
from dinotable.app import App
from dinotable.replays import replay_of
from dinotable.ruleset import installed_rulesets, load_by_id
from dinotable.scenes.message import MessageScene
from dinotable.scenes.replay import ReplayScene
from dinotable.scenes.saved import SavedGamesScene
from dinotable.scenes.title import TitleScene
from tests.helpers import run_cli

CORPUS = Path(__file__).resolve().parent / "saves_corpus"
FILES = sorted(CORPUS.glob("*/*.yaml"))
NAME = re.compile(r"(\d{4}-\d\d-\d\d)-([0-9a-f]{7})-v(\d+)-(finished|unfinished)-(\d)p\.yaml")

# The saves today's rules refuse: each was written under an earlier text of a version these
# rules still declare they replay (`replays:`), and reaches a move they no longer allow, or
# a finished game's end they no longer reach. The rulesets' DECISIONS.md say what changed.
REFUSED = {
    # Dino Hunt before 2026-12-01, when a card that could not change a hunt was still
    # offered (and, before 17:32 on 2026-11-30, a response window asked other players).
    # Later version 1 and 2 saves replay under edition 2 of the rules (`replays:`), which
    # keeps version 2's rules. These need the earlier offers, which would ask players that
    # the later version-1 saves never asked: one version maps to one set of option values,
    # so they stay refused (and the two from before 17:32 need the engine's old windows).
    "dino_hunt/2026-11-30-4b99540-v1-finished-2p.yaml",
    "dino_hunt/2026-11-30-4b99540-v1-unfinished-3p.yaml",
    "dino_hunt/2026-11-30-3220f09-v1-finished-3p.yaml",
    "dino_hunt/2026-11-30-3220f09-v1-unfinished-4p.yaml",
    "dino_hunt/2026-11-30-2c35ff8-v1-finished-3p.yaml",
    "dino_hunt/2026-11-30-2c35ff8-v1-unfinished-4p.yaml",
    "dino_hunt/2026-11-30-1084ba8-v1-finished-4p.yaml",
    "dino_hunt/2026-11-30-1084ba8-v1-unfinished-2p.yaml",
    # Danger! Danger! Dinosaur before its dinosaur die came to one dinosaur face in six
    # (00:36 on 2026-12-02).
    "danger_danger_dinosaur/2026-12-02-421c0bd-v1-finished-4p.yaml",
    "danger_danger_dinosaur/2026-12-02-421c0bd-v1-unfinished-2p.yaml",
    "danger_danger_dinosaur/2026-12-02-38823ac-v1-finished-2p.yaml",
    "danger_danger_dinosaur/2026-12-02-38823ac-v1-unfinished-3p.yaml",
}


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@dataclass(frozen=True)
class Facts:
    """What the tests expect of a corpus save, read once a run (each test still opens the
    file itself through the app's code)."""

    game: saves.SavedGame
    refused: bool  # listed in REFUSED, or from a version these rules no longer replay
    words: tuple[str, str]  # what a refusal must say: the save's version and this one


@cache
def facts(path: Path) -> Facts:
    """The save as read, whether today's rules refuse it, and the words they must use."""
    game = saves.read(path)
    rules = load_by_id(game.ruleset)
    old = game.version != rules.version and game.version not in saves.replayable_versions(rules)
    return Facts(game, _id(path) in REFUSED or old,
                 (f"saved with version {game.version} of {rules.name}'s rules",
                  f"version {rules.version}"))


def _says(text: str, words: tuple[str, str]) -> bool:
    return all(w in text for w in words)


FINISHED = [p for p in FILES if "-finished-" in p.name]
# The saves the app is asked to continue: those in play, and those refused.
CONTINUED = [p for p in FILES if "-unfinished-" in p.name or _id(p) in REFUSED]


# --- the corpus itself ---------------------------------------------------------------------


def test_the_corpus_holds_every_game_from_several_versions_and_this_release() -> None:
    assert len(FILES) >= 40
    assert sum(p.stat().st_size for p in FILES) < 3 * 1024 * 1024
    assert {_id(p) for p in FILES} >= REFUSED  # each one listed is there
    for folder in installed_rulesets():
        rules = load_by_id(folder.name)
        mine = [p for p in FILES if p.parent.name == rules.id]
        names = [NAME.fullmatch(p.name) for p in mine]
        assert all(names), [p.name for p, m in zip(mine, names, strict=True) if not m]
        found = {(int(m.group(3)), m.group(4)) for m in names if m}
        # This release's saves: the guard against a change that breaks their replay.
        assert {(rules.version, "finished"), (rules.version, "unfinished")} <= found, rules.id
        assert len({m.group(2) for m in names if m}) >= 4, rules.id  # several commits
        assert len({m.group(5) for m in names if m}) >= 3, rules.id  # several seat counts
    assert {facts(p).game.format for p in FILES} == {1, 2}


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_a_save_is_named_for_what_it_holds(path: Path) -> None:
    match = NAME.fullmatch(path.name)
    assert match is not None
    game = facts(path).game
    assert game.ruleset == path.parent.name and game.version == int(match.group(3))
    assert len(game.seats) == int(match.group(5))


# --- each save: replayed, or refused in words ------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_a_save_replays_to_where_it_was_saved_or_is_refused_naming_both_versions(
        path: Path) -> None:
    expected = facts(path)
    if expected.refused:
        with pytest.raises(saves.VersionChanged) as info:
            saves.load(path)
        assert _says(str(info.value), expected.words), str(info.value)
        return
    game, state = saves.load(path)
    assert game == expected.game
    if "-finished-" in path.name:
        assert state.game_over
        if game.summary is not None:
            now = saves.summarise(game, state)
            assert (now["winners"], now["scores"]) == (game.summary["winners"],
                                                       game.summary["scores"])
            assert game.summary["over"] and game.summary["moves"] == len(game.log)
    else:
        assert not state.game_over


def test_a_refused_move_is_named_with_its_number_and_both_versions() -> None:
    path = CORPUS / "dino_hunt" / "2026-11-30-1084ba8-v1-finished-4p.yaml"
    with pytest.raises(saves.VersionChanged) as info:
        saves.load(path)
    [problem] = info.value.problems
    number = int(problem.path.removeprefix("log[").removesuffix("]")) + 1
    assert problem.message == (f"saved with version 1 of Dino Hunt's rules; move {number} is "
                               f"not allowed in version 3, so it cannot be replayed")


# --- where the app keeps them --------------------------------------------------------


@pytest.mark.parametrize("path", CONTINUED, ids=_id)
def test_as_the_autosave_a_save_is_continued_or_kept_aside_byte_for_byte(path: Path) -> None:
    autosave = saves.autosave_path()
    autosave.parent.mkdir(parents=True)
    original = path.read_bytes()
    autosave.write_bytes(original)
    found, skipped = saves.newest_autosave()
    expected = facts(path)
    if expected.refused:
        assert found is None and len(skipped) == 1
        assert _says(" ".join(skipped[0].problems), expected.words), skipped[0].problems
        assert skipped[0].kept == autosave.with_name("autosave.unreadable.yaml")
        assert skipped[0].kept.read_bytes() == original
        assert not autosave.exists()  # nothing is left there to be written over
    else:
        assert found is not None and not skipped
        game, state, where = found
        assert where == autosave and len(game.log) > 0 and not state.game_over
        assert autosave.read_bytes() == original


@pytest.mark.parametrize("path", FINISHED, ids=_id)
def test_a_finished_save_is_listed_with_the_finished_games_and_watched_or_refused_in_words(
        path: Path) -> None:
    folder = saves.finished_dir()
    folder.mkdir(parents=True)
    kept = folder / path.name
    shutil.copyfile(path, kept)
    [entry] = saves.list_finished()
    expected = facts(path)
    assert entry.path == kept and entry.players == [s.name for s in expected.game.seats]
    if expected.refused:
        # Said in the list, or (a save whose summary the list reads) when it is watched.
        if entry.problem:
            said = entry.problem
            assert said.startswith("cannot be opened: ")
        else:
            with pytest.raises(saves.VersionChanged) as info:
                replay_of(saves.read(entry.path))
            said = str(info.value)
        assert _says(said, expected.words), said
    else:
        assert not entry.problem and entry.over and entry.winners
        replay = replay_of(saves.read(entry.path))
        assert len(replay.steps) == len(expected.game.log) + 1
        assert replay.state_at(len(replay.steps) - 1).game_over
    assert kept.read_bytes() == path.read_bytes()


# --- the app's own screens and command --------------------------------------------------


def _key(key: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)


def _title(app: App) -> TitleScene:
    title = TitleScene(app, lazy=True)
    app.push(title)
    for _ in range(4):  # the first frame, then the games and the autosave are read
        app.step()
    return title


def _finished_tab(app: App, title: TitleScene) -> SavedGamesScene:
    """Saved games, then its Finished games tab, holding the one game put there."""
    title.show_saved()
    listing = app.top
    assert isinstance(listing, SavedGamesScene)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                 pos=listing.menu.find("tab:finished").rect.center)])
    assert listing.finished and len(listing.entries) == 1
    return listing


@pytest.mark.parametrize("path", [
    CORPUS / "dino_hunt" / "2026-11-30-4b99540-v1-finished-2p.yaml",  # format 1: said in the list
    CORPUS / "dino_hunt" / "2026-11-30-1084ba8-v1-finished-4p.yaml",  # said when watched
    CORPUS / "dino_hunt" / "2026-12-03-9f9ee2b-v1-finished-2p.yaml",  # version 1, refused
    CORPUS / "dino_hunt" / "2026-12-03-9cc5d2b-v3-finished-3p.yaml",  # this version, replays
], ids=_id)
def test_saved_games_watches_a_finished_corpus_game_or_says_why_not(app: App,
                                                                    path: Path) -> None:
    folder = saves.finished_dir()
    folder.mkdir(parents=True)
    shutil.copyfile(path, folder / path.name)
    listing = _finished_tab(app, _title(app))
    entry = listing.entries[0]
    expected = facts(path)
    if entry.problem:
        # A save without a summary is replayed for its line: the list says why not.
        assert expected.refused and _says(entry.line(), expected.words), entry.line()
        assert not listing.menu.find("open").enabled
    else:
        app.step([_key(pygame.K_RETURN)])  # Watch
        shown = app.top
        if expected.refused:
            assert isinstance(shown, MessageScene)
            assert shown.title == "This game cannot be replayed"
            assert _says(" ".join(shown.lines), expected.words), shown.lines
        else:
            assert isinstance(shown, ReplayScene)
            assert len(shown.replay.steps) == len(expected.game.log) + 1
    assert (folder / path.name).read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", [
    CORPUS / "dino_hunt" / "2026-11-30-4b99540-v1-unfinished-3p.yaml",
    CORPUS / "danger_danger_dinosaur" / "2026-12-02-421c0bd-v1-unfinished-2p.yaml",
], ids=_id)
def test_the_title_says_why_a_refused_autosave_is_not_offered_and_keeps_it(
        app: App, path: Path) -> None:
    autosave = saves.autosave_path()
    autosave.parent.mkdir(parents=True)
    autosave.write_bytes(path.read_bytes())
    title = _title(app)
    message = app.top
    assert isinstance(message, MessageScene)
    shown = " ".join(message.lines)
    assert _says(shown, facts(path).words), shown
    assert "The file was kept as autosave.unreadable.yaml." in shown
    assert autosave.with_name("autosave.unreadable.yaml").read_bytes() == path.read_bytes()
    assert title.saved is None


def test_dinotable_replay_names_both_versions_of_a_refused_save_and_exits_2() -> None:
    path = CORPUS / "dino_hunt" / "2026-11-30-1084ba8-v1-finished-4p.yaml"
    done = run_cli("replay", str(path), "--text")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"dinotable: error: {path}:")
    assert _says(done.stderr, facts(path).words), done.stderr
    ok = CORPUS / "dino_hunt" / "2026-12-03-9cc5d2b-v3-finished-3p.yaml"
    done = run_cli("replay", str(ok), "--text")
    assert done.returncode == 0, done.stderr
    assert f"{len(facts(ok).game.log)} moves." in done.stdout
