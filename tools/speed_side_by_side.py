"""Random-bot games a second of this checkout beside another commit's, in one run.

    python3 tools/speed_side_by_side.py --against b336228

The other commit is checked out (detached) beside this one, and each tree then plays the
same seeded random-bot games in its own fresh process, the two taking turns run for run
(A B A B ...), so that a shared machine's ups and downs fall on both alike; each figure is
the best of the runs. It prints, per game, both figures and their ratio, and then this
checkout's Dino Hunt Dice against the plain hand-written version (`dinotable/reference/`),
also in turns. `--json` ends with one JSON object.

Every figure is whole games of random bots, timed inside the process (loading a ruleset
and starting Python are not counted).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (ruleset, seats, games a run): the card games at four seats, where people wait longest.
GAMES = (("danger_danger_dinosaur", 4, 30), ("dino_hunt", 4, 40),
         ("dino_dude_ranch", 4, 60), ("dino_hunt_dice", 3, 2000))

# Run in the tree under test (its own PYTHONPATH): uses only what every version has.
_PLAY = """
import json, sys, time
from dinotable.ruleset import load_by_id
from dinotable.sim import simulate
rid, seats, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = load_by_id(rid)
simulate(rules, seats, 2, 99, ["random"])  # warm: the first game compiles what it meets
start = time.perf_counter()
simulate(rules, seats, games, 1, ["random"])
print(json.dumps(games / (time.perf_counter() - start)))
"""

_HAND = """
import json, sys, time
from dinotable.reference import dino_hunt_dice as hand
from dinotable.ruleset import load_by_id
from dinotable.sim import simulate
games = int(sys.argv[1])
if sys.argv[2] == "hand":
    print(json.dumps(hand.simulate(3, games, 1)["games_per_second"]))
else:
    rules = load_by_id("dino_hunt_dice")
    simulate(rules, 3, 2, 99, ["random"])
    print(json.dumps(simulate(rules, 3, games, 1, ["random"])["games_per_second"]))
"""


def _rate(tree: Path, code: str, *args: object) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", code, *map(str, args)], env=env, cwd=tree,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def checkout(commit: str, into: Path) -> Path:
    """A detached worktree of `commit` under `into` (made once, then reused)."""
    tree = into / f"dinotable-{commit}"
    if not (tree / "dinotable").is_dir():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree),
                        commit], check=True, capture_output=True)
    return tree


def side_by_side(other: Path, runs: int) -> dict[str, dict[str, float]]:
    """Each game's best games a second here and in `other`, the two in turns."""
    out: dict[str, dict[str, float]] = {}
    for rid, seats, games in GAMES:
        here: list[float] = []
        there: list[float] = []
        for _ in range(runs):
            here.append(_rate(ROOT, _PLAY, rid, seats, games))
            there.append(_rate(other, _PLAY, rid, seats, games))
        out[rid] = {"seats": seats, "games": games, "here": round(max(here), 2),
                    "other": round(max(there), 2), "ratio": round(max(here) / max(there), 2)}
        print(f"{rid}, {seats} seats: {max(here):.2f} games/s here, {max(there):.2f} "
              f"there: {max(here) / max(there):.2f}x", flush=True)
    return out


def against_handwritten(runs: int, games: int = 2000) -> dict[str, float]:
    """This checkout's Dino Hunt Dice beside the hand-written one, in turns."""
    engine = [0.0] * runs
    hand = [0.0] * runs
    for i in range(runs):
        engine[i] = _rate(ROOT, _HAND, games, "engine")
        hand[i] = _rate(ROOT, _HAND, games, "hand")
    ratio = max(engine) / max(hand)
    print(f"dino_hunt_dice, 3 seats: engine {max(engine):.0f} games/s, hand-written "
          f"{max(hand):.0f}: {ratio:.2f} of it", flush=True)
    return {"engine": round(max(engine), 1), "hand": round(max(hand), 1),
            "ratio": round(ratio, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, metavar="COMMIT",
                        help="the commit to compare with (checked out beside this one)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each, in turns (3)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    with tempfile.TemporaryDirectory() as folder:
        try:
            other = checkout(args.against, Path(folder))
        except subprocess.CalledProcessError as exc:
            print(f"cannot check out {args.against!r}: {exc.stderr.strip()}", file=sys.stderr)
            return 2
        try:
            result = {"against": args.against, "games": side_by_side(other, args.runs),
                      "handwritten": against_handwritten(args.runs)}
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(other)], capture_output=True)
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
