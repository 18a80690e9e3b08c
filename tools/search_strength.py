"""Measure the `search` bot's strength: one search seat against the other policy at every
other seat (the seat taken in turn), for shipped rulesets and fixture games, printing one
Markdown table row per ruleset and seat count, and a JSON line of every figure.

    PYTHONPATH=$PWD python3 tools/search_strength.py dino_hunt_dice fixture_yacht \
        --seats 2,4 --games 100 --policy search --against heuristic,random --jobs 2

A name is a shipped ruleset id or a folder under tests/fixtures/good_rulesets/. A seat count
the ruleset does not allow is left out. Each cell gives the wins, the share and its standard
error; with --baseline it is followed by the other policy's own share from the same seat on
the same seeds (what the seat's luck alone is worth).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dinotable.ruleset import load_by_id, load_ruleset  # noqa: E402
from dinotable.sim import head_to_head  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="+")
    parser.add_argument("--seats", default="2,4")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="search")
    parser.add_argument("--against", default="heuristic,random")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--baseline", action="store_true")
    args = parser.parse_args()
    fixtures = ROOT / "tests" / "fixtures" / "good_rulesets"
    for name in args.rulesets:
        rules = (load_ruleset(fixtures / name) if (fixtures / name).is_dir()
                 else load_by_id(name))
        for seats in (int(s) for s in args.seats.split(",")):
            if not rules.min_players <= seats <= rules.max_players:
                continue
            cells = []
            for against in args.against.split(","):
                start = time.perf_counter()
                result = head_to_head(rules, seats, args.games, args.seed, args.policy,
                                      against, jobs=args.jobs)
                result["ruleset"] = rules.id
                result["seconds"] = round(time.perf_counter() - start, 1)
                print(json.dumps(result), file=sys.stderr, flush=True)
                cells.append(_cell(result))
                if args.baseline:
                    cells.append(_cell(head_to_head(rules, seats, args.games, args.seed,
                                                    against, against, jobs=args.jobs)))
            print(f"| {rules.id} | {seats} | {' | '.join(cells)} | "
                  f"{1 / seats:.0%} |", flush=True)
    return 0


def _cell(result: dict[str, int | float | str]) -> str:
    """Wins out of games, the share and its standard error, for a Markdown table."""
    wins, games = int(result["wins"]), int(result["games"])
    share = wins / games if games else 0.0
    error = (share * (1 - share) / games) ** 0.5 if games else 0.0
    return f"{wins}/{games} ({share:.0%} ± {error:.1%})"


if __name__ == "__main__":
    raise SystemExit(main())
