"""The autosave's journal: each move appended beside a save written whole now and then. It
opens to the game as written, to a prefix of it when a kill or a power cut cut the journal
short, survives a move taken back, and costs the same late in a long game as early."""

from __future__ import annotations

import dataclasses
import random
import shutil
import statistics
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dinotable import saves
from dinotable.engine import apply, new_game, sample_action
from dinotable.ruleset import LoadError, load_by_id
from dinotable.saves import journal

CORPUS = Path(__file__).resolve().parent / "saves_corpus"


def _game(moves: int, seed: int = 3, upto: int = 0) -> tuple[saves.SavedGame, Any]:
    """A Dino Hunt game of random moves (from `upto` moves of seed `seed`'s game on, the
    moves of another seed's), with a bots' random source as a table saves it."""
    rules = load_by_id("dino_hunt")
    state = new_game(rules, ["Ann", "Ben", "Cat"], None, seed)
    rng = random.Random(seed)
    while len(state.log) < moves and not state.game_over:
        if upto and len(state.log) == upto:
            rng = random.Random(seed + 1000)
        apply(state, sample_action(state, rng))
    game = saves.SavedGame(rules.id, rules.version,
                           [saves.SavedSeat(n, "random", i) for i, n in enumerate(state.players)],
                           dict(state.options), seed,
                           [(a.player, a.id, a.args) for a in state.log],
                           random.Random(seed).getstate())
    return game, state


def _autosave_moves(game: saves.SavedGame, first: int = 1, bots: random.Random | None = None
                    ) -> saves.SavedGame:
    """Autosave after each move as a table does (the bots' source drawing between); the
    game as last written."""
    bots = bots or random.Random(game.seed)
    written = game
    for n in range(first, len(game.log) + 1):
        bots.random()
        written = dataclasses.replace(game, log=game.log[:n], bots_random=bots.getstate())
        assert saves.try_write(written) is None
    return written


@pytest.fixture(autouse=True)
def _fresh_writer() -> Any:
    journal.forget()  # each test starts as a new process would
    yield
    journal.forget()


def test_the_autosave_opens_to_every_move_written_and_the_bots_random_source() -> None:
    game, state = _game(80)
    written = _autosave_moves(game)
    # Most moves were appended: the journal beside the save holds them.
    assert journal.journal_path(saves.autosave_path()).stat().st_size > 0
    opened, replayed = saves.load()
    assert opened == written and opened.bots_random == written.bots_random
    assert replayed.to_dict() == state.to_dict()


def test_the_journal_and_the_whole_save_give_the_same_game(monkeypatch: Any) -> None:
    # A journal as small as a few moves: the save is written whole again and again.
    monkeypatch.setattr(journal, "JOURNAL_MIN_BYTES", 300)
    game, _ = _game(120)
    written = _autosave_moves(game)
    base_moves = len(_base_alone(saves.autosave_path()).log)
    assert 0 < base_moves < len(game.log)  # written whole along the way, and appended since
    assert saves.read() == written
    assert saves.try_write(written, compact=True) is None
    assert _base_alone(saves.autosave_path()) == written  # the file alone holds it all


def _base_alone(path: Path) -> saves.SavedGame:
    """The save as a reader that knows no journals reads it: the file by itself."""
    copy = path.parent / "elsewhere" / path.name
    copy.parent.mkdir(exist_ok=True)
    shutil.copyfile(path, copy)
    return saves.read(copy)


def test_a_reader_without_journals_opens_the_save_at_its_last_whole_write() -> None:
    game, _ = _game(60)
    _autosave_moves(game)
    alone = _base_alone(saves.autosave_path())
    assert alone.log == game.log[:len(alone.log)] and alone.format == saves.FORMAT


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=0, max_value=10**6))
def test_a_journal_cut_anywhere_opens_to_a_prefix_of_the_moves(cut: int) -> None:
    journal.forget()
    saves.discard()
    game, _ = _game(50, seed=cut % 5)
    _autosave_moves(game)
    where = journal.journal_path(saves.autosave_path())
    raw = where.read_bytes()
    where.write_bytes(raw[:cut % (len(raw) + 1)])
    opened, _ = saves.load()
    assert opened.log == game.log[:len(opened.log)]


def test_every_cut_of_the_last_line_opens_to_the_move_before_it() -> None:
    game, _ = _game(40)
    _autosave_moves(game)
    where = journal.journal_path(saves.autosave_path())
    raw = where.read_bytes()
    start = raw.rstrip(b"\n").rfind(b"\n") + 1
    for cut in range(start, len(raw)):
        where.write_bytes(raw[:cut])
        assert saves.read().log == game.log[:-1], cut
    where.write_bytes(raw)
    assert saves.read().log == game.log


def test_garbage_a_power_cut_leaves_after_the_last_line_is_not_read() -> None:
    game, _ = _game(40)
    _autosave_moves(game)
    where = journal.journal_path(saves.autosave_path())
    with open(where, "ab") as f:
        f.write(b"\0" * 300 + b"\n" + b"0badf00d [40, [0, \"x\", []], null]\n")
    assert saves.read().log == game.log


def test_a_journal_left_beside_another_save_is_not_read_onto_it() -> None:
    game, _ = _game(40)
    _autosave_moves(game)
    where = journal.journal_path(saves.autosave_path())
    stale = where.read_bytes()
    other, _ = _game(10, seed=9)
    journal.forget()
    assert saves.try_write(other, compact=True) is None
    where.write_bytes(stale)  # as if killed between the save's rename and the journal's
    assert saves.read() == other


def test_a_whole_line_that_is_not_a_move_is_named_by_file_and_line() -> None:
    game, _ = _game(20)
    _autosave_moves(game)
    where = journal.journal_path(saves.autosave_path())
    lines = where.read_bytes().splitlines(keepends=True)
    body = b'[%d, "seven", null]' % (len(game.log) - len(lines) + 2)
    lines[2] = b"%08x " % zlib.crc32(body) + body + b"\n"
    where.write_bytes(b"".join(lines))
    with pytest.raises(LoadError) as caught:
        saves.read()
    assert str(caught.value).startswith(f"{where}:3:1:")
    assert "expected [" in str(caught.value)


def test_a_torn_save_is_kept_aside_with_its_journal_and_the_one_before_opens() -> None:
    game, _ = _game(60)
    _autosave_moves(game, bots=random.Random(1))
    journal.forget()  # the app opened again: its first save is written whole, then appends
    _autosave_moves(game, first=len(game.log) - 10 + 1, bots=random.Random(2))
    path = saves.autosave_path()
    before = saves.read(saves.rotation_paths()[1])
    assert len(before.log) == len(game.log)  # the one before: the last session's game
    path.write_bytes(path.read_bytes()[:200])
    torn = path.read_bytes()
    journal_bytes = journal.journal_path(path).read_bytes()
    found, skipped = saves.newest_autosave()
    assert found is not None and found[0] == before and found[2] == saves.rotation_paths()[1]
    [skip] = skipped
    assert skip.kept is not None and skip.kept.read_bytes() == torn
    assert journal.journal_path(skip.kept).read_bytes() == journal_bytes


def test_moves_taken_back_and_played_again_differently_are_what_opens() -> None:
    game, _ = _game(60)
    _autosave_moves(game)
    again, state = _game(90, upto=45)  # the last 15 moves taken back, then others played
    assert again.log[:45] == game.log[:45] and again.log[45:60] != game.log[45:60]
    for n in range(45, len(again.log) + 1):
        assert saves.try_write(dataclasses.replace(again, log=again.log[:n])) is None
    opened, replayed = saves.load()
    assert opened.log == again.log and replayed.to_dict() == state.to_dict()


def test_the_title_continues_the_game_from_its_journal() -> None:
    game, state = _game(70)
    _autosave_moves(game)
    found, skipped = saves.newest_autosave()
    assert not skipped and found is not None
    assert found[1].to_dict() == state.to_dict() and found[2] == saves.autosave_path()


def test_archiving_and_discarding_take_the_journal_too() -> None:
    game, _ = _game(30)
    _autosave_moves(game)
    where = journal.journal_path(saves.autosave_path())
    saves.discard()
    assert not where.exists() and not saves.autosave_path().exists()
    finished, state = _game(10_000)
    assert state.game_over
    _autosave_moves(finished)
    assert saves.archive() is not None
    assert not where.exists() and not saves.autosave_path().exists()
    [entry] = saves.list_finished()
    assert entry.over and entry.moves == len(finished.log)


@pytest.mark.parametrize("save", sorted(CORPUS.glob("*/*.yaml"))[::7], ids=lambda p: p.name)
def test_older_saves_read_the_same_with_a_stale_journal_beside_them(save: Path) -> None:
    path = saves.autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(save, path)
    try:
        alone = saves.read(path)
    except LoadError:
        return  # refused in words: test_saves_corpus says which and why
    game, _ = _game(20)
    _autosave_moves(game)
    stale = journal.journal_path(path).read_bytes()
    shutil.copyfile(save, path)
    journal.journal_path(path).write_bytes(stale)
    assert saves.read(path) == alone


def test_an_autosave_late_in_a_long_game_costs_about_what_it_costs_early() -> None:
    rules = load_by_id("dino_hunt_dice")
    log = [(n % 2, "roll" if n % 3 else "stop", ()) for n in range(3100)]
    game = saves.SavedGame(rules.id, rules.version,
                           [saves.SavedSeat("Ann", "human", 0),
                            saves.SavedSeat("Ben", "random", 1)], {}, 1, log)
    bots = random.Random(1)

    def costs(first: int) -> list[float]:
        journal.forget()
        saves.discard()
        assert saves.try_write(dataclasses.replace(game, log=log[:first])) is None
        out = []
        for n in range(first + 1, first + 41):
            bots.random()
            moved = dataclasses.replace(game, log=log[:n], bots_random=bots.getstate())
            start = time.perf_counter()
            assert saves.try_write(moved) is None
            out.append(time.perf_counter() - start)
        return out[1:]  # the first appends a changed random source in full

    early, late = [], []
    for _ in range(5):  # in turns, the best of five: the machine's noise falls on both
        early.append(statistics.median(costs(30)))
        late.append(statistics.median(costs(3000)))
    # Rewriting the whole save at move 3,000 costs over a hundred times a move's append; a
    # bound of five times leaves room for a machine busy with other tests, never for that.
    assert min(late) <= 5 * min(early), (early, late)


def test_a_table_game_with_a_move_taken_back_continues_exactly_from_its_autosave() -> None:
    from dinotable.engine import legal_actions
    from dinotable.table.session import Seat, TableSession

    rules = load_by_id("dino_dude_ranch")
    session = TableSession(rules, [Seat("Ann", "human", 0), Seat("Ben", "random", 1)], {}, 11)
    taken_back = 0
    while len(session.state.log) < 80 and not session.state.game_over:
        if session.bot_to_move:
            session.take(session.bot_action())
        else:
            session.holder = session.deciding
            session.take(legal_actions(session.state)[-1])
            if len(session.state.log) > 30 and not taken_back and not session.undo_reason():
                taken, why = session.take_back()
                assert taken is not None, why
                taken_back += 1
        assert session.autosave() == ""
    assert taken_back
    opened, state = saves.load()
    assert state.to_dict() == session.state.to_dict()
    assert opened.bots_rng().getstate() == session.rng.getstate()


@pytest.mark.parametrize("body", [b"[" * 30_000 + b"]" * 30_000, b"[1" + b"0" * 5000 + b"]",
                                  b'[%d, [0, "roll", []], [1, 2]]', b'{"journal": 1}'])
def test_a_hostile_line_is_refused_in_words_and_never_crashes(body: bytes) -> None:
    game, _ = _game(20)
    _autosave_moves(game)
    where = journal.journal_path(saves.autosave_path())
    lines = where.read_bytes().splitlines(keepends=True)
    if b"%d" in body:
        body = body % (len(game.log) - len(lines) + 2)
    lines[2] = b"%08x " % zlib.crc32(body) + body + b"\n"
    where.write_bytes(b"".join(lines))
    with pytest.raises(LoadError) as caught:
        saves.read()
    assert str(caught.value).startswith(f"{where}:3:1:")
