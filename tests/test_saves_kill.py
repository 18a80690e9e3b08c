"""A process killed at any moment while it saves never leaves the slot unreadable, and the
autosaves kept before it stay readable too."""

from __future__ import annotations

import dataclasses
import os
import random
import select
import signal
import sys
import time

import pytest

from dinotable import saves
from dinotable.engine import apply, new_game, sample_action
from dinotable.ruleset import load_by_id

KILLS = 100


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "fork"),
                    reason="needs fork and SIGKILL")
def test_a_kill_at_any_moment_during_saves_never_leaves_an_unreadable_slot() -> None:
    rules = load_by_id("dino_hunt")
    state = new_game(rules, ["Ann", "Ben", "Cat"], None, 8)
    rng = random.Random(8)
    while not state.game_over and len(state.log) < 300:
        apply(state, sample_action(state, rng))
    game = saves.SavedGame(rules.id, rules.version,
                           [saves.SavedSeat(n, "human", i) for i, n in enumerate(state.players)],
                           dict(state.options), 8,
                           [(a.player, a.id, a.args) for a in state.log[:-1]])
    saves.user_data_dir().mkdir(parents=True)
    timing = random.Random(1)
    newest = 0
    for kill in range(KILLS):
        start = 1 + kill * 5
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: save move after move until it is killed
            try:
                os.close(read)
                for n in range(start, len(game.log) + 1):
                    saves.try_write(dataclasses.replace(game, log=game.log[:n]))
                    if n == start:
                        os.write(write, b"1")  # one save made: the parent may now wait
            finally:
                os._exit(0)
        os.close(write)
        if kill % 2:
            # Every other child is killed only once it has saved: however slow a loaded
            # machine makes it, kills land in the middle of later saves too.
            select.select([read], [], [], 30)
        os.close(read)
        time.sleep(timing.uniform(0, 0.03))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        # Every slot that exists opens; the newest readable one never goes backwards.
        for path in saves.rotation_paths():
            if path.exists():
                saves.load(path)
        found, skipped = saves.newest_autosave(keep_aside=False)
        assert not skipped
        if found is not None:
            assert len(found[0].log) >= min(newest, start - 1)
            newest = len(found[0].log)
        saves.remove_stale()
        assert not (saves.user_data_dir() / "autosave.tmp").exists()
    assert newest > 0
