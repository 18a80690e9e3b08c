"""How near the hand-written version's speed the engine's Dino Hunt Dice could come at most.

    PYTHONPATH=$PWD python3 tools/dino_hunt_dice_floor.py [--runs 5] [--games 3000]

The same seeded random-bot games at three seats are played three ways, in turns, each
figure the best of the runs:

- by the engine, as `dinotable simulate` plays them;
- by the engine with a shortcut: its turn flow written out for this one game (no phases,
  windows, questions, knock-outs or turn starts to look for) and its `roll` as plain as the
  hand-written one's, while listing, `stop`, the turn's end, the end trigger, the rounds
  and setting up stay the engine's own. This is no way to play (it knows this ruleset's
  zones, faces and flow); it first checks that it plays the very games the engine does;
- by the hand-written version (`dinotable/reference/`).

The shortcut's figure is what is left when the turn flow and the roll cost no more than
they must: a ceiling for any tuning of those two within the engine's design.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dinotable.sim as sim
from dinotable.engine import GameState, Rules
from dinotable.engine.expr import Ctx
from dinotable.engine.flow import _end_round
from dinotable.reference import dino_hunt_dice as hand
from dinotable.ruleset import load_by_id

SEATS = 3


def plain_roll(rules: Rules) -> Callable[[Ctx], bool]:
    """The ruleset's `roll` with nobody watching, written as plainly as the hand-written one."""
    faces = {kind: die.faces for kind, die in rules.dice.items()}

    def roll(c: Ctx) -> bool:
        st = c.state
        zones = st.zones
        cup, held = zones["cup"][0], zones["hand"][0]
        caught, stomped = zones["caught"][0], zones["stomped"][0]
        r = st.chance.random
        for _ in range(min(3 - len(held), len(cup))):
            held.append(cup.pop(int(r() * len(cup))))
        items = st.items
        keep = []
        for i in held:
            item = items[i]
            shown = faces[item.kind]
            face = item.face = shown[int(r() * len(shown))]
            if face == "dino":
                caught.append(i)
            elif face == "footprint":
                stomped.append(i)
            else:
                keep.append(i)
        if len(keep) != len(held):
            held[:] = keep
        st.turn_vars["rolled"] = True
        if len(stomped) >= 3:
            c.turn_over = True
            return True
        if not cup and len(held) < 3:
            st.player_vars[c.seat]["banked"] += len(caught) + len(held)
            c.turn_over = True
            return True
        return False

    return roll


def shortcut(rules: Rules) -> Callable[[GameState, random.Random, int], int]:
    """`random_playout` for this game alone: the same moves, the turn flow written out."""
    # Each effect list's quiet form (nobody watching, nothing forced), as the engine plays.
    stop = getattr(rules.actions["stop"].effects, "quiet", rules.actions["stop"].effects)
    end = getattr(rules.turn_end, "quiet", rules.turn_end)
    roll, trigger, listing = plain_roll(rules), rules.end.trigger, rules.legal
    no_args: dict[str, Any] = {}

    def playout(state: GameState, rng: random.Random, limit: int) -> int:
        rand = rng.random
        ctx = state.ctx
        ctx.events = None
        log = state.log
        fresh = rules.turn_vars
        made = 0
        while made < limit and not state.game_over:
            seat = state.current
            ctx.seat = seat
            ctx.args = no_args
            legal = listing(ctx, seat)
            action = legal[int(rand() * len(legal))]
            ctx.turn_over = False
            log.append(action)
            made += 1
            if not (roll if action.id == "roll" else stop)(ctx):
                continue
            end(ctx)
            if not state.last_round and not state.tiebreak and trigger(ctx):
                state.last_round = True  # `finish_round`: the round is played out
            pos = state.round_pos + 1
            state.round_pos = pos
            if pos < len(state.round_order):
                state.current = state.round_order[pos]
                state.turns += 1
                state.turn_vars = fresh.copy()
            else:
                _end_round(ctx)
        return made

    return playout


def _engine(rules: Rules, games: int) -> dict[str, Any]:
    return sim.simulate(rules, SEATS, games, 1, ["random"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each, in turns (5)")
    parser.add_argument("--games", type=int, default=3000, help="games a run (3000)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.games < 1:
        parser.error("--runs and --games must be at least 1")
    rules = load_by_id("dino_hunt_dice")
    # The simulations' own loop is swapped for the shortcut while it plays.
    names = vars(sim)
    engine_playout, fast = names["random_playout"], shortcut(rules)

    def with_shortcut(games: int) -> dict[str, Any]:
        names["random_playout"] = fast
        try:
            return _engine(rules, games)
        finally:
            names["random_playout"] = engine_playout

    same = ("wins", "mean_scores", "mean_turns")
    a, b = _engine(rules, 300), with_shortcut(300)
    if [a[k] for k in same] != [b[k] for k in same]:
        print("the shortcut plays other games than the engine: its figures mean nothing",
              file=sys.stderr)
        return 1
    rates: dict[str, list[float]] = {"engine": [], "shortcut": [], "hand-written": []}
    plays: list[tuple[str, Callable[[], object]]] = [
        ("engine", lambda: _engine(rules, args.games)),
        ("shortcut", lambda: with_shortcut(args.games)),
        ("hand-written", lambda: hand.simulate(SEATS, args.games, 1))]
    for _ in range(args.runs):
        for name, run in plays:
            start = time.perf_counter()
            run()
            rates[name].append(args.games / (time.perf_counter() - start))
    best = {name: max(found) for name, found in rates.items()}
    for name, rate in best.items():
        print(f"{name:13s} {rate:8,.0f} games a second, "
              f"{rate / best['hand-written']:.2f} of the hand-written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
