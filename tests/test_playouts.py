"""Random playouts of every shipped ruleset: promises every game must keep, whatever its rules.

For each shipped ruleset, at its fewest and most players, many seeded games are played to the
end by a uniform random chooser; so is every fixture ruleset under tests/fixtures/good_rulesets
(each proves one mechanic: decks, hidden hands, questions, response windows, subsets, teams).
In every game: it ends within a move cap; whenever it is not over the seat the game waits on
may act, and only that seat; no item is created, lost or in two zones at once; no score is
negative (unless some item carries a penalty, such as a tar pit's -1 point); a state saved
to JSON at some point (often while a question or a response window waits) and restored
plays on exactly like the original; and the action log replays from the seed to the very
same final state, as a saved game does.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from dinotable.engine import (
    GameState,
    Rules,
    apply,
    legal_actions,
    new_game,
    sample_action,
    scores,
    waiting_on,
)
from dinotable.ruleset import installed_rulesets, load_ruleset

FIXTURES = sorted(p for p in (Path(__file__).resolve().parent / "fixtures" / "good_rulesets")
                  .iterdir() if (p / "rules.yaml").is_file())

MOVE_CAP = 20_000
# 200 games per player count for one ruleset; fewer per ruleset as more are shipped so the
# whole module stays within its time budget (never fewer than 50).
RULESETS = installed_rulesets()
GAMES = max(50, 200 // max(1, len(RULESETS)))
FIXTURE_GAMES = 30
# A game whose random games run to thousands of moves (rerolls that cost nothing) plays
# fewer of them: never fewer than MIN_GAMES, and more only while this many moves are left.
MOVES_PER_CASE = 25_000
MIN_GAMES = 10


def _cases(folders: list[Path]) -> list[object]:
    out = []
    for folder in folders:
        rules = load_ruleset(folder)
        for n in sorted({rules.min_players, rules.max_players}):
            out.append(pytest.param(folder, n, id=f"{folder.name}-{n}p"))
    return out


def _check_items(state: GameState, ids: Counter[str]) -> None:
    placed = [i for lists in state.zones.values() for content in lists for i in content]
    # An item attached to another is in no zone: it is held by that item.
    placed += [i for held in state.attached.values() for i in held]
    assert len(state.items) == len(ids), "an item was created or removed"
    assert sorted(placed) == list(range(len(state.items))), \
        "an item is in no zone or in two zones (or attached, and in a zone too)"
    assert Counter(state.items[i].id for i in placed) == ids


def _penalties(rules: Rules) -> bool:
    """Whether some card, tile or token carries a negative number (a tar pit's -1 point):
    only then may a score fall below zero."""
    return any(isinstance(v, int) and not isinstance(v, bool) and v < 0
               for kind in rules.items.values() for v in kind.props.values())


def _playout(rules: Rules, players: int, seed: int, horizon: int = 40) -> tuple[bool, int]:
    """Play one game; whether a saved copy was played on beside it to the end, and how many
    moves the game took."""
    floor = -10**9 if _penalties(rules) else 0
    state = new_game(rules, [f"P{i + 1}" for i in range(players)], None, seed)
    chooser = random.Random(seed)
    ids = Counter(it.id for it in state.items)
    assert max(ids.values(), default=1) == 1, "two items share an id"
    save_at = chooser.randrange(horizon)
    restored: GameState | None = None
    moves = 0
    while not state.game_over:
        _check_items(state, ids)
        assert all(s >= floor for s in scores(state) if s is not None), scores(state)
        legal = legal_actions(state)
        assert legal, f"no legal action in a game that is not over:\n{state}"
        assert {a.player for a in legal} == {waiting_on(state)}
        if moves == save_at or (restored is None and state.pending and moves > save_at):
            # Saved through JSON and restored (by preference while a decision waits): from
            # here on both play the same choices.
            restored = GameState.from_dict(rules, json.loads(json.dumps(state.to_dict())))
        if rules.large_domains and chooser.random() < 0.5:
            action = sample_action(state, chooser)  # as random bots do: no listing
            assert action in legal
        else:
            action = legal[chooser.randrange(len(legal))]
        if restored is None:
            apply(state, action, record=False)
        else:
            assert legal_actions(restored) == legal
            assert apply(restored, action) == apply(state, action)
        moves += 1
        assert moves <= MOVE_CAP, f"game not over after {MOVE_CAP} actions"
    assert state.winners, "a finished game has at least one winner"
    again = new_game(rules, [f"P{i + 1}" for i in range(players)], None, seed)
    for logged in state.log:
        apply(again, logged, record=False)
    assert again.to_dict() == state.to_dict(), "the action log does not replay to the game"
    _check_items(state, ids)
    assert all(s >= floor for s in scores(state))
    if restored is None:
        return False, moves
    assert restored.game_over
    assert scores(restored) == scores(state)
    assert restored.winners == state.winners
    assert restored.to_dict() == state.to_dict()
    return True, moves


def test_there_is_at_least_one_shipped_ruleset() -> None:
    assert RULESETS


@pytest.mark.parametrize("folder, players", [*_cases(RULESETS), *_cases(FIXTURES)])
def test_random_playouts_end_keep_every_item_and_restore_from_a_save(
        folder: Path, players: int) -> None:
    rules = load_ruleset(folder)
    restored = played = moves = 0
    games = FIXTURE_GAMES if folder in FIXTURES else GAMES
    while played < games and (played < MIN_GAMES or moves < MOVES_PER_CASE):
        try:
            saved, made = _playout(rules, players, played, 8 if folder in FIXTURES else 40)
        except AssertionError as exc:
            raise AssertionError(f"{folder.name}, {players} players, seed {played}: {exc}"
                                 ) from exc
        restored, played, moves = restored + saved, played + 1, moves + made
    assert restored >= played // 2, "too few games were saved and restored part-way"
