"""`dinotable bench`: how set-up and a draw grow with the deck (100 cards against 5,000),
and how a move grows with a board (50 to 400 spaces).

Both deck figures should grow no faster than the number of cards: setting a game up lays
each card once, and a draw takes the top card without looking at the rest of the deck.

The board figures come from a grid game where each turn puts a piece on an empty space,
anywhere or beside a filled one, scored by filled neighbours: listing a turn's moves tests
each space once, and the heuristic bot scores each move with a few lookups, so both should
grow with the spaces (about 4x from 100 to 400), and a whole heuristic game on 300 spaces
take well under a second.
"""

from __future__ import annotations

import gc
import random
import tempfile
import time
from collections.abc import Callable
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


# --- a board: a move's cost against the board's size ----------------------------------

GRIDS = ((5, 10), (10, 10), (10, 20), (20, 20))  # 50, 100, 200 and 400 spaces
WHOLE_GAME = (15, 20)  # the 300-space field a heuristic game is played on
FILLED = 0.85  # a late position: the bots score every space with a count of the field

_FIELD_RULES = """\
id: {id}
name: Board growth
version: 1
players: {{min: 2, max: 2}}
items:
  post: {{type: token, copies: {half}}}
  stone: {{type: token, copies: {half}}}
zones:
  supply: {{holds: tokens, start: {{post: {half}, stone: {half}}}}}
boards:
  field: {{rows: {rows}, cols: {cols}, holds: tokens}}
vars:
  player: {{points: 0}}
score: points
actions:
  place:
    args:
      space: {{domain: space_of, board: field, empty: true}}
    effects:
      - place: {{from: supply, board: field, space: $space}}
      - add: {{points: "1 + filled_neighbours(field, $space)"}}
      - end_turn: {{}}
  build:
    args:
      space: {{domain: space_of, board: field, where: "at(field, $space) == 0 and \
filled_neighbours(field, $space) > 0"}}
    effects:
      - place: {{from: supply, board: field, space: $space}}
      - add: {{points: "2 + filled_neighbours(field, $space)"}}
      - end_turn: {{}}
end:
  trigger: "empty_spaces(field) == 0"
bots:
  heuristic:
    - action: build
      when: "empty_spaces(field) > {quarter}"
      best: "filled_neighbours(field, $space) * 100 - distance(field, '{middle}', $space)"
    - action: build
      best: "filled_neighbours(field, $space) * 1000 + empty_spaces(field) - \
distance(field, '{middle}', $space)"
    - action: place
"""


def field_rules(rows: int, cols: int, folder: Path) -> Any:
    """The grid game on a field of rows x cols spaces (as many pieces as spaces), written
    into `folder` and loaded."""
    from .ruleset import load_ruleset

    n = rows * cols
    rid = f"board_growth_{n}"
    where = folder / rid
    where.mkdir(parents=True, exist_ok=True)
    text = _FIELD_RULES.format(id=rid, rows=rows, cols=cols, half=(n + 1) // 2, quarter=n // 4,
                         middle=f"r{(rows + 1) // 2}c{(cols + 1) // 2}")
    (where / "rules.yaml").write_text(text, encoding="utf-8")
    return load_ruleset(where)


def position(rules: Any, filled: float, seed: int = 3) -> Any:
    """A two-player game with about this share of the field filled by seeded random moves."""
    from .engine import apply, legal_actions, new_game

    state = new_game(rules, ["A", "B"], None, seed)
    rng = random.Random(seed)
    for _ in range(int(len(rules.boards["field"].spaces) * filled)):
        legal = legal_actions(state)
        apply(state, legal[int(rng.random() * len(legal))], False)
    return state


def listing(state: Any) -> Callable[[], object]:
    """Listing the moves of the turn, afresh each time (as after a move)."""
    from .engine import legal_actions

    def run() -> object:
        state.legal_cache = None
        return legal_actions(state)

    return run


def choosing(state: Any) -> Callable[[], object]:
    """A heuristic bot's move: listing, and scoring every move by its preferences."""
    from .bots import heuristic_policy
    from .engine import legal_actions

    def run() -> object:
        state.legal_cache = None
        return heuristic_policy(state, legal_actions(state), random.Random(1))

    return run


def best_times(fns: list[Callable[[], object]], rounds: int = 15, calls: int = 3) -> list[float]:
    """Each function's best time for one call (seconds), the functions taking turns round
    by round so that all see the machine alike. Each call is timed alone: on a busy
    machine a longer stretch is likelier to be interrupted, which would make a slower
    function look slower still. The collector is held off (its pauses depend on all the
    process holds, not on the board)."""
    best = [float("inf")] * len(fns)
    clock = time.perf_counter
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            for k, fn in enumerate(fns):
                for _ in range(calls):
                    start = clock()
                    fn()
                    best[k] = min(best[k], clock() - start)
    finally:
        if collecting:
            gc.enable()
    return best


def _whole_game(rules: Any) -> tuple[float, int]:
    from .bots import heuristic_policy
    from .engine import apply, legal_actions, new_game

    state = new_game(rules, ["A", "B"], None, 1)
    rng = random.Random(1)
    start = time.perf_counter()
    while not state.game_over:
        apply(state, heuristic_policy(state, legal_actions(state), rng), False)
    return time.perf_counter() - start, len(state.log)


def measure_boards(quick: bool = False) -> dict[str, Any]:
    """Listing a turn's moves and a heuristic move (us) at each board size late in a game,
    their ratios to 100 spaces, and a whole heuristic game on 300 spaces (s)."""
    with tempfile.TemporaryDirectory() as folder:
        states = [position(field_rules(r, c, Path(folder)), FILLED) for r, c in GRIDS]
        rounds = 7 if quick else 15
        lists = best_times([listing(s) for s in states], rounds)
        moves = best_times([choosing(s) for s in states], rounds)
        game_s, game_moves = _whole_game(field_rules(*WHOLE_GAME, Path(folder)))
    base = [r * c for r, c in GRIDS].index(100)
    return {
        "spaces": [r * c for r, c in GRIDS],
        "listing_us": [round(t * 1e6, 1) for t in lists],
        "heuristic_move_us": [round(t * 1e6, 1) for t in moves],
        "listing_ratio": [round(t / lists[base], 2) for t in lists],
        "heuristic_move_ratio": [round(t / moves[base], 2) for t in moves],
        "heuristic_game_s": round(game_s, 3),
        "heuristic_game_moves": game_moves,
    }


def boards_line(figures: dict[str, Any]) -> str:
    """The board figures in one line."""
    spaces = "/".join(str(n) for n in figures["spaces"])
    ratios = "/".join(f"{r:g}" for r in figures["listing_ratio"])
    moves = "/".join(f"{r:g}" for r in figures["heuristic_move_ratio"])
    return (f"boards of {spaces} spaces: listing a turn's moves {ratios}x, a heuristic move "
            f"{moves}x the cost at 100 spaces; a heuristic game on 300 spaces "
            f"{figures['heuristic_game_s']} s ({figures['heuristic_game_moves']} moves)")
