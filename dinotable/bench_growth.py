"""`dinotable bench`: how set-up and a draw grow with the deck (100 cards against 5,000).

Both should grow no faster than the number of cards: setting a game up lays each card
once, and a draw takes the top card without looking at the rest of the deck.
"""

from __future__ import annotations

import gc
import tempfile
import time
from pathlib import Path
from typing import Any

SIZES = (100, 5000)
DRAWS = 100  # draws timed from each deck, in batches: a few milliseconds in all
BATCH = 20  # the best batch's mean is the figure: a shared machine is noisy

# A deck of one kind of card in `copies` copies, drawn one at a time until it is empty.
_RULES = """\
id: {id}
name: Growth
version: 1
players: {{min: 2, max: 2}}
items:
  card: {{type: card, copies: {copies}}}
zones:
  deck: {{holds: cards, order: deck, visible: none, start: all}}
  hand: {{holds: cards, per_player: true, visible: owner}}
score: "size(hand)"
actions:
  take:
    effects: [{{draw: {{from: deck, to: hand}}}}, {{end_turn: {{}}}}]
end:
  trigger: "size(deck) == 0"
"""


def deck_rules(cards: int, folder: Path) -> Any:
    """A ruleset whose deck holds `cards` cards, written into `folder` and loaded."""
    from .ruleset import load_ruleset

    rid = f"growth_{cards}"
    where = folder / rid
    where.mkdir(parents=True, exist_ok=True)
    (where / "rules.yaml").write_text(_RULES.format(id=rid, copies=cards), encoding="utf-8")
    return load_ruleset(where)


def _setup_and_draw(rules: Any, repeats: int) -> tuple[float, float]:
    """The best set-up time and one draw's time (seconds), each the best of several: a
    draw is the `take` action, applied as a table applies it (its check included)."""
    from .engine import apply, legal_actions, new_game

    best = float("inf")
    state = None
    for seed in range(repeats):
        rules.memo.clear()  # each set-up lays the cards out afresh, as a first game does
        state = None
        gc.collect()  # the last run's garbage is not this one's cost
        start = time.perf_counter()
        state = new_game(rules, ["A", "B"], None, seed)
        best = min(best, time.perf_counter() - start)
    assert state is not None
    clock = time.perf_counter
    draw = float("inf")
    for _ in range(DRAWS // BATCH):
        spent = 0.0
        for _ in range(BATCH):
            action = legal_actions(state)[0]  # listed outside the timing: only the draw
            start = clock()
            apply(state, action, False)
            spent += clock() - start
        draw = min(draw, spent / BATCH)
    return best, draw


def measure_growth(quick: bool = False) -> dict[str, Any]:
    """Set-up (ms) and one draw (us) at each deck size, and the big deck's ratio to the
    small one's for each, beside the ratio of the decks' sizes."""
    out: dict[str, Any] = {"cards": list(SIZES)}
    with tempfile.TemporaryDirectory() as folder:
        figures = [_setup_and_draw(deck_rules(n, Path(folder)), 5 if quick else 10)
                   for n in SIZES]
    (small_setup, small_draw), (big_setup, big_draw) = figures
    out["setup_ms"] = [round(s * 1000, 3) for s, _ in figures]
    out["draw_us"] = [round(d * 1e6, 2) for _, d in figures]
    out["setup_ratio"] = round(big_setup / small_setup, 1)
    out["draw_ratio"] = round(big_draw / small_draw, 1)
    out["cards_ratio"] = round(SIZES[1] / SIZES[0], 1)
    return out


def growth_line(figures: dict[str, Any]) -> str:
    """The growth figures in one line."""
    small, big = figures["cards"]
    return (f"deck of {small} against {big} cards ({figures['cards_ratio']:g}x): set-up "
            f"{figures['setup_ms'][0]} ms against {figures['setup_ms'][1]} ms "
            f"({figures['setup_ratio']:g}x); a draw {figures['draw_us'][0]} us against "
            f"{figures['draw_us'][1]} us ({figures['draw_ratio']:g}x)")
