"""Saves that survive new versions, named saves, the lists of saved and finished games, the
autosaves kept in rotation, and replays move by move."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinotable import replays, saves
from dinotable.engine import apply, new_game, sample_action
from dinotable.replays import narration, replay_of
from dinotable.ruleset import LoadError, Rules, load_by_id
from dinotable.scenarios import load_scenario, scenario_files
from tests.helpers import run_cli

FORMAT_1 = """format: 1
ruleset: dino_hunt_dice
version: 1
seats:
- {name: Ann, kind: human, colour: 0}
- {name: Ben, kind: heuristic, colour: 1}
options: {goal: 13}
seed: 4
log:
- [0, roll, []]
"""


def _game(ruleset: str = "dino_hunt_dice", seed: int = 4, moves: int = 12
          ) -> tuple[saves.SavedGame, Any]:
    rules = load_by_id(ruleset)
    state = new_game(rules, ["Ann", "Ben"], None, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.game_over:
            break
        apply(state, sample_action(state, rng))
    game = saves.SavedGame(rules.id, rules.version, [saves.SavedSeat("Ann", "human", 0),
                                                     saves.SavedSeat("Ben", "heuristic", 1)],
                           dict(state.options), seed,
                           [(a.player, a.id, a.args) for a in state.log])
    return game, state


def _finished(ruleset: str = "dino_hunt_dice", seed: int = 4) -> tuple[saves.SavedGame, Any]:
    return _game(ruleset, seed, moves=100_000)


# --- formats ------------------------------------------------------------------------


def test_a_format_1_save_still_opens_and_is_written_back_as_format_2(tmp_path: Path) -> None:
    path = tmp_path / "old.yaml"
    path.write_text(FORMAT_1)
    game, state = saves.load(path)
    assert game.format == 1 and game.options == {"goal": 13} and len(state.log) == 1
    assert saves.write(game, path)
    text = path.read_text()
    assert text.startswith("format: 2\n") and "saved_at:" in text
    again = saves.read(path)
    assert again == game and again.format == 2


def test_a_save_from_a_newer_dinotable_is_refused_in_its_own_words_and_left_untouched(
        tmp_path: Path) -> None:
    path = tmp_path / "newer.yaml"
    text = FORMAT_1.replace("format: 1", "format: 3") + "hologram: {mode: 4d}\n"
    path.write_text(text)
    with pytest.raises(saves.NewerFormat) as info:
        saves.load(path)
    message = str(info.value)
    assert f"{path}:1:" in message and "newer dinotable (save format 3)" in message
    assert "reads formats 1 to 2" in message
    assert path.read_text() == text


def test_a_save_whose_ruleset_has_a_new_version_names_both_versions(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    game, _ = _game()
    newer = dataclasses.replace(load_by_id("dino_hunt_dice"), version=2)
    monkeypatch.setattr(saves.game, "load_by_id", lambda rid: newer)
    with pytest.raises(saves.VersionChanged) as info:
        game.replay()
    assert ("saved with version 1 of Dino Hunt Dice's rules; this is version 2"
            in str(info.value))


def test_a_ruleset_that_declares_it_replays_an_older_version_opens_its_saves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = _game()
    rules = load_by_id("dino_hunt_dice")
    newer = dataclasses.replace(rules, version=3, data={**rules.data, "replays": [1, 2]})
    monkeypatch.setattr(saves.game, "load_by_id", lambda rid: newer)
    assert game.replay().to_dict()["zones"] == state.to_dict()["zones"]


def _declared_newer(monkeypatch: pytest.MonkeyPatch) -> Rules:
    """Dino Hunt Dice as a version 2 that declares it replays version 1."""
    rules = load_by_id("dino_hunt_dice")
    newer = dataclasses.replace(rules, version=2, data={**rules.data, "replays": [1]})
    for module in (saves.game, replays):
        monkeypatch.setattr(module, "load_by_id", lambda rid: newer)
    return newer


def test_an_older_save_reaching_a_move_the_rules_now_refuse_names_the_move_and_both_versions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = _game()
    game.log[5] = (game.log[5][0], "no_such_action", ())  # a move these rules do not have
    with pytest.raises(LoadError) as same:
        game.replay()
    assert not isinstance(same.value, saves.VersionChanged)  # same version: a damaged save
    assert "move 6 cannot be replayed" in str(same.value)
    _declared_newer(monkeypatch)
    words = ("saved with version 1 of Dino Hunt Dice's rules; move 6 is not allowed in "
             "version 2, so it cannot be replayed")
    for opening in (game.replay, lambda: replay_of(game)):
        with pytest.raises(saves.VersionChanged) as info:
            opening()
        [problem] = info.value.problems
        assert problem.message == words and problem.path == "log[5]"


def test_an_older_finished_save_whose_moves_now_end_otherwise_is_refused_in_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = _finished()
    game.summary = saves.summarise(game, state)
    game.summary["scores"] = [s + 1 for s in game.summary["scores"]]  # scored otherwise
    assert game.replay().game_over  # this version: the summary is only for the lists
    _declared_newer(monkeypatch)
    for opening in (game.replay, lambda: replay_of(game)):
        with pytest.raises(saves.VersionChanged, match=(
                "saved with version 1 of Dino Hunt Dice's rules; in version 2 its moves no "
                "longer end the game as it ended")):
            opening()
    game.summary = saves.summarise(game, state)  # the same end: it replays
    assert game.replay().game_over and replay_of(game).steps[-1].move == len(game.log)


def test_the_title_keeps_an_autosave_of_another_version_aside_byte_for_byte() -> None:
    path = saves.autosave_path()
    path.parent.mkdir(parents=True)
    text = FORMAT_1.replace("version: 1", "version: 7")
    path.write_text(text)
    found, skipped = saves.newest_autosave()
    assert found is None and len(skipped) == 1
    assert "saved with version 7 of Dino Hunt Dice's rules; this is version 1" in (
        skipped[0].problems[0])
    assert skipped[0].kept is not None and skipped[0].kept.read_text() == text
    assert not path.exists()  # nothing will write over it


@pytest.mark.parametrize("text, words", [
    ("replays: 1", "expected a list of older versions"),
    ("replays: [1, 1]", "version 1 is listed twice"),
    ("replays: [2]", "version 2 is not an older version: these rules are version 2"),
    ("replays: [one]", "expected a version number"),
])
def test_a_replays_declaration_is_checked_with_its_line(
        load_text_ruleset: Callable[[str], Rules], text: str, words: str) -> None:
    ruleset = f"""
        id: versioned
        name: Versioned
        version: 2
        {text}
        players: {{min: 1, max: 2}}
        score: 0
        actions:
          pass: {{effects: [{{end_turn: {{}}}}]}}
        end: {{trigger: "round >= 2"}}
        """
    with pytest.raises(LoadError) as info:
        load_text_ruleset(ruleset)
    assert any(words in str(p) and p.line == 4 for p in info.value.problems), str(info.value)


def test_a_ruleset_may_declare_the_older_versions_it_replays(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = load_text_ruleset("""
        id: versioned
        name: Versioned
        version: 3
        replays: [1, 2]
        players: {min: 1, max: 2}
        score: 0
        actions:
          pass: {effects: [{end_turn: {}}]}
        end: {trigger: "round >= 2"}
        """)
    assert saves.replayable_versions(rules) == {1, 2}


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=24)
values = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
                   st.floats(allow_nan=False), st.text(max_size=12),
                   st.lists(st.text(max_size=6), max_size=3).map(tuple))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.text(min_size=1, max_size=10),
                          st.lists(st.tuples(st.text(min_size=1, max_size=8), values),
                                   max_size=3).map(tuple)), max_size=8))
def test_any_log_is_written_as_yaml_that_reads_back_as_the_same_moves(
        log: list[tuple[int, str, tuple[tuple[str, Any], ...]]]) -> None:
    import yaml

    game = saves.SavedGame("dino_hunt_dice", 1, [saves.SavedSeat("Ann", "human", 0),
                                                 saves.SavedSeat("Ben", "human", 1)],
                           {}, 4, log)
    data = yaml.safe_load(saves.to_text(game))
    back = [(p, a, tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in args))
            for p, a, args in data["log"]]
    assert back == log


# --- the autosave and the two kept before it ------------------------------------------------


def _write_moves(game: saves.SavedGame, upto: int) -> None:
    # Each written whole (as when a game is closed and opened again), so each is kept.
    for n in range(1, upto + 1):
        partial = dataclasses.replace(game, log=game.log[:n])
        assert saves.try_write(partial, compact=True) is None


def test_the_last_three_autosaves_are_kept_and_a_bad_newest_gives_the_one_before() -> None:
    game, _ = _game(moves=8)
    _write_moves(game, 5)
    slots = saves.rotation_paths()
    assert [len(saves.read(p).log) for p in slots] == [5, 4, 3]
    slots[0].write_text("format: 2\nruleset: dino_hu")  # cut short
    found, skipped = saves.newest_autosave()
    assert found is not None
    kept_game, state, path = found
    assert path == slots[1] and len(kept_game.log) == 4 and len(state.log) == 4
    assert skipped[0].path == slots[0] and skipped[0].kept is not None
    assert skipped[0].kept.read_text() == "format: 2\nruleset: dino_hu"


def test_a_finished_game_takes_its_kept_autosaves_with_it() -> None:
    game, state = _finished()
    _write_moves(game, 3)
    assert saves.try_write(game) is None
    saves.archive()
    assert not any(p.exists() for p in saves.rotation_paths())
    found, skipped = saves.newest_autosave()
    assert found is None and not skipped
    [entry] = saves.list_finished()
    assert entry.over and entry.round == state.round
    assert entry.scores == [state.score(0), state.score(1)]


def test_stale_temporary_files_are_cleaned_up_and_nothing_else() -> None:
    home = saves.user_data_dir()
    for folder in (home, saves.saves_dir(), saves.finished_dir()):
        folder.mkdir(parents=True, exist_ok=True)
    stale = [home / "autosave.tmp", saves.saves_dir() / "friday.tmp",
             saves.finished_dir() / "20240101-000000-001.tmp"]
    for path in stale:
        path.write_text("format: 2\nrules")
    keep = saves.saves_dir() / "friday.yaml"
    keep.write_text("kept")
    removed = saves.remove_stale()
    assert sorted(removed) == sorted(stale)
    assert keep.exists() and not any(p.exists() for p in stale)


# --- named saves and the lists -----------------------------------------------------------


def test_save_as_lists_the_game_with_its_date_players_round_and_scores() -> None:
    game, state = _game(moves=20)
    path = saves.save_as(game, "  Friday\tnight  ")
    assert path.parent == saves.saves_dir()
    second = saves.save_as(game, "Friday night")
    assert second != path  # a second save of the same name is a new file
    entries = saves.list_saves()
    assert len(entries) == 2
    entry = entries[0]
    assert entry.name == "Friday night" and entry.game == "Dino Hunt Dice"
    assert entry.players == ["Ann", "Ben"] and entry.round == state.round
    assert entry.scores == [state.score(0), state.score(1)] and not entry.problem
    assert entry.saved_at[:4].isdigit()
    assert entry.line() == f"Round {state.round} — Ann {state.score(0)}, Ben {state.score(1)}"
    opened, opened_state = saves.load(entry.path)
    assert opened == game and opened_state.to_dict() == state.to_dict()
    assert saves.delete(entry.path) and len(saves.list_saves()) == 1


def test_the_list_reads_the_summary_and_does_not_replay_the_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = _game(moves=20)
    saves.save_as(game, "Quick")

    def refuse(self: saves.SavedGame) -> None:
        raise AssertionError("replayed")

    monkeypatch.setattr(saves.SavedGame, "replay", refuse)
    assert saves.list_saves()[0].name == "Quick"


def test_a_broken_save_in_the_list_says_so_and_the_others_still_show() -> None:
    game, _ = _game()
    saves.save_as(game, "Good")
    (saves.saves_dir() / "bad.yaml").write_text("format: 2\nseats: nobody\n")
    entries = {e.name: e for e in saves.list_saves()}
    assert not entries["Good"].problem
    assert entries["bad"].problem.startswith("cannot be opened")


def test_delete_touches_nothing_outside_the_lists(tmp_path: Path) -> None:
    other = tmp_path / "elsewhere.yaml"
    other.write_text("x")
    assert not saves.delete(other) and other.exists()


def test_a_save_needs_a_name() -> None:
    game, _ = _game()
    with pytest.raises(ValueError, match="needs a name"):
        saves.save_as(game, " \u0007 ")


# --- replays -----------------------------------------------------------------------


def _scenario_tables() -> list[tuple[str, tuple[str, ...], tuple[tuple[str, Any], ...], int]]:
    """One table for each ruleset, number of players and options the scenarios use (the
    first scenario's names and seed): another seed replays no differently."""
    seen: dict[tuple[str, int, tuple[tuple[str, Any], ...]], tuple[str, ...] | int] = {}
    tables = []
    for path in scenario_files([]):
        sc = load_scenario(path)
        options = tuple(sorted(sc.options.items()))
        key = (sc.ruleset, len(sc.players), options)
        if key not in seen:
            seen[key] = sc.seed
            tables.append((sc.ruleset, tuple(sc.players), options, sc.seed))
    return tables


def test_a_replay_of_each_shipped_scenarios_table_reaches_the_same_end_as_the_game() -> None:
    """Every table the shipped scenarios set (ruleset, players, options, seed), played to
    the end by bots, saved, and replayed from the file move by move."""
    tables = _scenario_tables()
    assert len(tables) >= 3
    for n, (rid, players, options, seed) in enumerate(tables):
        rules = load_by_id(rid)
        state = new_game(rules, list(players), dict(options), seed)
        rng = random.Random(n)
        while not state.game_over and len(state.log) < 3000:
            apply(state, sample_action(state, rng))
        game = saves.SavedGame(rid, rules.version, [saves.SavedSeat(name, "random", i)
                                                   for i, name in enumerate(players)],
                               dict(state.options), seed,
                               [(a.player, a.id, a.args) for a in state.log])
        path = saves.user_data_dir() / f"{n}.yaml"
        assert saves.write(game, path)
        replay = replay_of(saves.read(path))
        assert len(replay.steps) == len(state.log) + 1
        assert replay.steps[-1].snapshot == state.to_dict(log=False)
        assert [s.action for s in replay.steps[1:]] == state.log
        assert replay.state_at(len(replay.steps) - 1).to_dict() == state.to_dict()


def test_a_replay_steps_turn_by_turn_with_turn_numbers() -> None:
    game, state = _finished("dino_hunt", 3)
    replay = replay_of(game)
    turns = [s.turn for s in replay.steps]
    assert turns == sorted(turns) and turns[-1] == state.turns
    third = replay.step_of_turn(3)
    assert replay.steps[third].turn == 3 and replay.steps[third - 1].turn < 3
    assert replay.state_at(0).log == [] and replay.state_at(third).log == state.log[:third]
    lines = narration(game)
    assert lines[0].startswith("Dino Hunt, with Ann, Ben")
    first = state.players[state.log[0].player]
    assert f"[move 1, round 1, turn 1] {first}: {state.log[0]}" in lines
    assert "Game over!" in lines[-1]


def test_dinotable_replay_prints_the_game_move_by_move(tmp_path: Path) -> None:
    game, _ = _finished()
    path = tmp_path / "game.yaml"
    assert saves.write(game, path)
    done = run_cli("replay", str(path), "--text")
    assert done.returncode == 0, done.stderr
    assert f"{len(game.log)} moves." in done.stdout and "[move 1, round 1, turn 1]" in done.stdout


def test_dinotable_replay_of_a_bad_file_names_the_file_and_line(tmp_path: Path) -> None:
    game, _ = _finished()
    game.log = [*game.log[:3], (game.log[3][0], "no_such_action", ()), *game.log[4:]]
    path = tmp_path / "game.yaml"
    assert saves.write(game, path)
    line = path.read_text().splitlines().index(f"- [{game.log[3][0]}, no_such_action, []]")
    done = run_cli("replay", str(path), "--text")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"dinotable: error: {path}:{line + 1}:")
    assert "move 4 cannot be replayed" in done.stderr
