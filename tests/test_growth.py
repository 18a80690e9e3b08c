"""Growth that stays linear: setting a game up lays each card once, a draw takes the top card
without looking at the rest of the deck, a board's legal moves cost the same however full it
is, and the list of saved games reads each file's head, not every move of every game."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES

from dinotable import saves
from dinotable.bench_growth import deck_rules
from dinotable.engine import apply, legal_actions, new_game, sample_action
from dinotable.engine import decks as decks_module
from dinotable.engine.decks import Shuffled, take_top
from dinotable.ruleset import load_by_id, load_ruleset


class _Counting(Shuffled):
    """The shuffled set, counting how often a card is looked up in it."""

    looked = 0

    def __contains__(self, item: object) -> bool:
        _Counting.looked += 1
        return super().__contains__(item)


class _Forgetful(set[int]):
    """A shuffled set that remembers no run: each draw scans, as every draw once did."""


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> type[_Counting]:
    import dinotable.engine.setup as setup_module

    monkeypatch.setattr(setup_module, "Shuffled", _Counting)
    _Counting.looked = 0
    return _Counting


def _looks_per_draw(cards: int, tmp_path: Path, counting: type[_Counting]) -> float:
    rules = deck_rules(cards, tmp_path)
    state = new_game(rules, ["A", "B"], None, 1)
    assert isinstance(state.shuffled, counting)
    deck = state.zones["deck"][0]
    take_top(state, deck, "deck")  # the first draw after a shuffle measures the run once
    counting.looked = 0
    for _ in range(50):
        assert take_top(state, deck, "deck") is not None
    return counting.looked / 50


def test_a_draw_from_5000_cards_looks_at_no_more_cards_than_from_100(
        tmp_path: Path, counting: type[_Counting]) -> None:
    small = _looks_per_draw(100, tmp_path, counting)
    big = _looks_per_draw(5000, tmp_path, counting)
    assert big <= small + 1 and big < 10, (small, big)


def test_draws_still_come_out_as_the_seed_always_gave_them(tmp_path: Path) -> None:
    """The remembered run changes no outcome: the same seed draws what a scan would."""
    rules = deck_rules(300, tmp_path)
    fast = new_game(rules, ["A", "B"], None, 7)
    slow = new_game(rules, ["A", "B"], None, 7)
    slow.shuffled = _Forgetful(slow.shuffled)  # every draw measures the run afresh
    drawn = []
    for state in (fast, slow):
        deck = state.zones["deck"][0]
        drawn.append([take_top(state, deck, "deck") for _ in range(299)])
    assert drawn[0] == drawn[1]


DEALT = """\
id: dealt
name: Dealt
version: 1
players: {min: 2, max: 2}
items:
  card: {type: card, copies: COPIES}
zones:
  deck: {holds: cards, order: deck, visible: none, start: all}
  hand: {holds: cards, per_player: true, visible: owner}
score: "size(hand)"
round:
  start:
    - when: "round == 1"
      then: [{deal: {from: deck, to: hand, count: 40}}]
actions:
  pass: {effects: [{end_turn: {}}]}
end: {trigger: "round > 1"}
"""


def test_set_up_dealing_from_a_big_deck_looks_at_each_card_a_bounded_number_of_times(
        tmp_path: Path, counting: type[_Counting]) -> None:
    looks = {}
    for copies in (100, 5000):
        folder = tmp_path / f"c{copies}" / "dealt"
        folder.mkdir(parents=True)
        (folder / "rules.yaml").write_text(DEALT.replace("COPIES", str(copies)))
        rules = load_ruleset(folder)
        counting.looked = 0
        state = new_game(rules, ["A", "B"], None, 3)
        assert len(state.zones["hand"][0]) == 40
        looks[copies] = counting.looked / copies
    # Each card is looked at a few times at most, however big the deck (80 draws that each
    # scanned the deck looked at every card 80 times).
    assert looks[5000] <= 2 * looks[100] + 1, looks


def test_bench_growth_figures_grow_no_faster_than_the_deck() -> None:
    from dinotable.bench_growth import growth_line, measure_growth

    figures = measure_growth(quick=True)
    assert figures["cards"] == [100, 5000] and figures["cards_ratio"] == 50
    assert all(v > 0 for v in figures["setup_ms"] + figures["draw_us"])
    assert figures["draw_ratio"] < 10, figures  # scanning the deck made it about 200
    assert figures["setup_ratio"] < 4 * figures["cards_ratio"], figures
    assert "a draw" in growth_line(figures)


# --- a board's legal moves -----------------------------------------------------------------


def _big_grid(tmp_path: Path) -> Any:
    text = (FIXTURES / "good_rulesets" / "fixture_grid" / "rules.yaml").read_text()
    folder = tmp_path / "fixture_grid"
    folder.mkdir()
    (folder / "rules.yaml").write_text(
        text.replace("rows: 3, cols: 3", "rows: 20, cols: 20").replace(", empty: true", "")
        .replace("copies: 9", "copies: 400").replace("start: {post: 9}", "start: {post: 200}")
        .replace("empty_spaces(field) == 0", "size(supply) == 0"))
    return load_ruleset(folder)


def test_a_full_board_lists_its_moves_as_cheaply_as_an_empty_one(tmp_path: Path) -> None:
    rules = _big_grid(tmp_path)
    state = new_game(rules, ["A", "B"], None, 1)

    def listing_us() -> float:
        best = float("inf")
        for _ in range(5):
            state.legal_cache = None
            start = time.perf_counter()
            legal_actions(state)
            best = min(best, time.perf_counter() - start)
        return best * 1e6

    first = legal_actions(state)
    empty = listing_us()
    rng = random.Random(1)
    for _ in range(190):
        apply(state, sample_action(state, rng))
    again = legal_actions(state)
    full = listing_us()
    assert len(again) == len(first) == 400
    # The same action objects are handed out again: nothing is made anew per listing.
    assert all(a is b for a, b in zip(first, again, strict=True) if a.player == b.player)
    assert full < 3 * empty + 200, (empty, full)


# --- the list of saved games -----------------------------------------------------------------


def _saved(moves: int) -> tuple[saves.SavedGame, Any]:
    rules = load_by_id("dino_hunt")
    state = new_game(rules, ["Ann", "Ben", "Cy"], None, 5)
    rng = random.Random(5)
    while len(state.log) < moves and not state.game_over:
        apply(state, sample_action(state, rng))
    game = saves.SavedGame(rules.id, rules.version,
                           [saves.SavedSeat(n, "human", i) for i, n in enumerate(state.players)],
                           dict(state.options), 5, [(a.player, a.id, a.args) for a in state.log])
    return game, state


def test_the_saved_games_list_reads_only_each_files_head(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = _saved(150)
    for n in range(30):
        saves.save_as(game, f"Game {n}", state)
    total = sum(p.stat().st_size for p in saves.saves_dir().glob("*.yaml"))
    import dinotable.saves.reading as reading

    parsed: list[int] = []
    real = reading.load_text

    def measured(text: str, *args: Any) -> Any:
        parsed.append(len(text))
        return real(text, *args)

    monkeypatch.setattr(reading, "load_text", measured)
    entries = saves.list_saves()
    assert len(entries) == 30 and not any(e.problem for e in entries)
    assert {e.moves for e in entries} == {len(game.log)}
    assert entries[0].round == state.round and entries[0].players == ["Ann", "Ben", "Cy"]
    assert sum(parsed) < total / 5, (sum(parsed), total)


def test_an_old_save_without_a_summary_is_still_listed_and_a_broken_one_says_why() -> None:
    game, state = _saved(40)
    folder = saves.saves_dir()
    folder.mkdir(parents=True)
    text = saves.to_text(game).replace("format: 2\n", "format: 1\n")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("saved_at"))
    (folder / "old.yaml").write_text(text + "\n")
    (folder / "cut.yaml").write_text(saves.to_text(game)[:200])
    entries = {e.path.name: e for e in saves.list_saves()}
    assert entries["old.yaml"].round == state.round and not entries["old.yaml"].problem
    assert entries["cut.yaml"].problem.startswith("cannot be opened")


def test_the_remembered_run_is_forgotten_when_a_card_becomes_known(tmp_path: Path) -> None:
    rules = deck_rules(50, tmp_path)
    state = new_game(rules, ["A", "B"], None, 2)
    deck = state.zones["deck"][0]
    take_top(state, deck, "deck")
    assert decks_module.unknown_run(state, deck) == len(deck)
    state.shuffled.discard(deck[3])  # as looking at the fourth card would
    assert decks_module.unknown_run(state, deck) == 3
