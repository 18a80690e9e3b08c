"""Play bot-only games at a search strength with the clock on, as the table does, and
report how long each move took: the check that a bot never keeps the table waiting
longer than its budget (simulations stop a move at its playouts, not the clock).

    PYTHONPATH=$PWD python3 tools/search_budget.py dino_hunt --players 4 --strength sharp

Prints one line a ruleset: the moves with a choice to make, the longest and the mean.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dinotable.bots import POLICIES
from dinotable.engine import apply, legal_actions, new_game
from dinotable.ruleset import load_by_id
from dinotable.sim import seat_names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="+")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--strength", default="sharp", choices=["gentle", "fair", "sharp"])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--decisions", type=int, default=0,
                        help="stop after this many (0: play the whole game)")
    args = parser.parse_args()
    bot = POLICIES["search" if args.strength == "fair" else f"search:{args.strength}"]
    for name in args.rulesets:
        rules = load_by_id(name)
        state = new_game(rules, seat_names(args.players), {}, args.seed)
        rng = random.Random(args.seed)
        times: list[float] = []
        while not state.game_over and (not args.decisions or len(times) < args.decisions):
            legal = legal_actions(state)
            began = time.perf_counter()
            action = bot(state, legal, rng)
            if len(legal) > 1:  # a lone choice is taken at once, with no thought to time
                times.append(time.perf_counter() - began)
            apply(state, action, False)
        ended = "whole game" if state.game_over else "cut short"
        print(f"{rules.id}: {len(times)} decisions ({ended}), longest "
              f"{max(times, default=0):.2f} s, mean {sum(times) / max(1, len(times)):.2f} s",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
