"""The most any player can win against Dino Hunt Dice's hints at two seats, worked out
exactly: a best response to the hints by dynamic programming over every turn's dice.

A bot is measured by how much more than its share it wins against `heuristic`. In a game
whose hints already play close to the best, no bot can win much more; this tool says how
much more is there to win at all. It reads the dice and the cup from the shipped ruleset
and restates its rules and its `bots.heuristic` preferences here (keep them in step):

- a roll draws dice from the cup until three are held (or the cup is empty), rolls them;
  dinos are caught, footprints stomp, leaves stay in hand; a third stomp ends the turn with
  nothing banked; an empty cup with fewer than three leaves banks the leaves as well;
- when a total reaches the goal the round is finished; the highest total wins and tied
  leaders play rounds again;
- the hints: in the last round, behind or level, roll on; bank once the goal is reached;
  bank when the chance of a third stomp times the dinos at stake plus one is at least 1.

It prints the first and second seat's chance of winning when both play by the hints, then
when that seat plays its best against the hints; averaged over both seats, the best is the
ceiling for a bot's share against the hints with the seats taken in turn.

    PYTHONPATH=$PWD python3 tools/dino_hunt_dice_ceiling.py [--goal 20]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from itertools import product
from math import comb
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dinotable.engine.odds import chance_at_least
from dinotable.ruleset import load_by_id

Counts = tuple[int, ...]  # dice by colour
State = tuple[Counts, Counts, int, int]  # cup, hand (leaves), dinos caught, stomps
BUST = -1
ENOUGH = 10 ** 6  # a total past any goal: a tiebreak's players have all reached it


class Turn:
    """Every position of one turn, children before parents, with each roll's outcomes."""

    def __init__(self, cup: Counts, faces: list[tuple[float, float, float]]) -> None:
        self.faces = faces  # by colour: the chance of a dino, leaves and a footprint
        self.start: State = (cup, (0,) * len(cup), 0, 0)
        self.order: list[State] = []
        self.index: dict[State, int] = {}
        # By position: the chance a roll leaves it as it was (three leaves again), and
        # the other outcomes as (chance, position index, or BUST, or -2 - total banked).
        self.again: list[float] = []
        self.outcomes: list[list[tuple[float, int]]] = []
        self._visit(self.start)

    def _visit(self, state: State) -> None:
        self.index[state] = -1  # being visited
        rolls = self._roll(state)
        for _, nxt in rolls:
            if isinstance(nxt, tuple) and nxt != state and nxt not in self.index:
                self._visit(nxt)
        again = sum(p for p, nxt in rolls if nxt == state)
        self.index[state] = len(self.order)
        self.order.append(state)
        self.again.append(again)
        self.outcomes.append([(p, self.index[nxt] if isinstance(nxt, tuple) else nxt)
                              for p, nxt in rolls if nxt != state])

    def _roll(self, state: State) -> list[tuple[float, State | int]]:
        cup, hand, caught, stomps = state
        draw = min(3 - sum(hand), sum(cup))
        ways = comb(sum(cup), draw)
        found: dict[State | int, float] = {}
        for drawn in product(*(range(n + 1) for n in cup)):
            if sum(drawn) != draw:
                continue
            p_draw = 1.0
            for n, k in zip(cup, drawn, strict=True):
                p_draw *= comb(n, k)
            p_draw /= ways
            rest = tuple(n - k for n, k in zip(cup, drawn, strict=True))
            held = [h + k for h, k in zip(hand, drawn, strict=True)]
            for rolled in product(*(_shows(n, self.faces[c]) for c, n in enumerate(held))):
                p = p_draw
                dinos = feet = 0
                for _, _, _, q in rolled:
                    p *= q
                dinos = caught + sum(r[0] for r in rolled)
                feet = stomps + sum(r[2] for r in rolled)
                leaves = tuple(r[1] for r in rolled)
                nxt: State | int
                if feet >= 3:
                    nxt = BUST
                elif sum(rest) == 0 and sum(leaves) < 3:
                    nxt = -2 - (dinos + sum(leaves))
                else:
                    nxt = (rest, leaves, dinos, feet)
                found[nxt] = found.get(nxt, 0.0) + p
        return [(p, nxt) for nxt, p in found.items()]

    def best(self, bank: Callable[[int], float], bust: float) -> float:
        """The value of the turn played to the best: `bank(n)` is the worth of banking n."""
        return self.values(bank, bust)[0][-1]

    def values(self, bank: Callable[[int], float], bust: float
               ) -> tuple[list[float], list[float]]:
        """Each position's value played to the best, and the value of rolling there."""
        value = [0.0] * len(self.order)
        rolls = [0.0] * len(self.order)
        for i, state in enumerate(self.order):
            total = 0.0
            for p, nxt in self.outcomes[i]:
                total += p * (bust if nxt == BUST else bank(-2 - nxt) if nxt < 0
                              else value[nxt])
            rolls[i] = total / (1.0 - self.again[i])
            value[i] = rolls[i] if state == self.start else max(bank(state[2]), rolls[i])
        return value, rolls

    def hinted(self, stops: Callable[[State], bool]) -> dict[int, float]:
        """The chance of each total the turn banks (0 for a bust) when `stops` decides."""
        dist: list[dict[int, float]] = []
        for i, state in enumerate(self.order):
            if state != self.start and stops(state):
                dist.append({state[2]: 1.0})
                continue
            here: dict[int, float] = {}
            for p, nxt in self.outcomes[i]:
                sub = {0: 1.0} if nxt == BUST else {-2 - nxt: 1.0} if nxt < 0 else dist[nxt]
                for total, q in sub.items():
                    here[total] = here.get(total, 0.0) + p * q / (1.0 - self.again[i])
            dist.append(here)
        return dist[-1]


def _shows(n: int, face: tuple[float, float, float]) -> list[tuple[int, int, int, float]]:
    """n dice of one colour: each count of dinos, leaves and footprints with its chance."""
    out = []
    for dinos in range(n + 1):
        for leaves in range(n + 1 - dinos):
            feet = n - dinos - leaves
            out.append((dinos, leaves, feet, comb(n, dinos) * comb(n - dinos, leaves)
                        * face[0] ** dinos * face[1] ** leaves * face[2] ** feet))
    return out


class Game:
    """Two seats, the first to move first; each seat plays by the hints or its best."""

    def __init__(self, goal: int) -> None:
        rules = load_by_id("dino_hunt_dice")
        cup = dict(rules.zones["cup"].start)
        self.kinds = list(cup)
        faces = []
        for kind in self.kinds:
            shown = rules.dice[kind].faces
            faces.append(tuple(shown.count(f) / len(shown)
                               for f in ("dino", "leaves", "footprint")))
        self.foot = [f[2] for f in faces]
        self.turn = Turn(tuple(cup.values()), faces)  # type: ignore[arg-type]
        self.goal = goal
        self._hinted: dict[tuple[int, int, bool], dict[int, float]] = {}
        self._after: dict[int, Callable[[int, int], Callable[[int], float]]] = {}
        self._values: dict[tuple[int, int, int],
                           tuple[Callable[[int], float], list[float]]] = {}

    def hints(self, own: int, highest: int, last: bool) -> dict[int, float]:
        """The hints' turn: the chance of each total banked."""
        key = (own, highest, last)
        if key not in self._hinted:
            def stops(state: State) -> bool:
                cup, hand, caught, stomps = state
                if last and own + caught <= highest:
                    return False
                if own + caught >= self.goal:
                    return True
                rolled = tuple(sorted(self.foot[c] for c, n in enumerate(hand)
                                      for _ in range(n)))
                pool = tuple(sorted((self.foot[c], n) for c, n in enumerate(cup) if n))
                risk = chance_at_least(3 - stomps, rolled, pool, 3 - sum(hand))
                return risk * (caught + 1) >= 1

            self._hinted[key] = self.turn.hinted(stops)
        return self._hinted[key]

    def tiebreak(self, best: int | None) -> float:
        """The first seat's chance of winning from a tie, tiebreak rounds repeating."""
        first = self.hints(ENOUGH, ENOUGH, True)
        won = 0.5
        for _ in range(200):
            def against(x: int, won: float = won) -> float:  # the first seat banked x
                second = self.hints(ENOUGH, ENOUGH + x, True)
                return sum(q * (1.0 if y < x else won if y == x else 0.0)
                           for y, q in second.items())

            def answer(x: int, won: float = won) -> float:  # the second seat's best
                def worth(y: int) -> float:
                    return 1.0 if y > x else 1.0 - won if y == x else 0.0
                return self.turn.best(worth, worth(0))

            if best == 0:
                new = self.turn.best(against, against(0))
            elif best == 1:
                new = sum(q * (1.0 - answer(x)) for x, q in first.items())
            else:
                new = sum(q * against(x) for x, q in first.items())
            if abs(new - won) < 1e-13:
                break
            won = new
        return won

    def first_seat_wins(self, best: int | None) -> float:
        """The first seat's chance of winning; seat `best` (if any) plays its best (and
        what its turns are worth is kept for `losses`)."""
        goal = self.goal
        tie = self.tiebreak(best)

        def last(s0: int, s1: int) -> float:  # the first seat has reached the goal
            def worth(total: int) -> float:
                return 1.0 if s0 > total else tie if s0 == total else 0.0
            if best == 1:
                return 1.0 - self.turn.best(lambda g: 1.0 - worth(s1 + g), 1.0 - worth(s1))
            return sum(q * worth(s1 + g) for g, q in self.hints(s1, s0, True).items())

        # wins[s0, s1, mover]: the first seat's chance from the start of the mover's turn.
        wins: dict[tuple[int, int, int], float] = {}

        def after0(g: int, s0: int, s1: int) -> float:  # the first seat banked g
            if g == 0:
                return wins[s0, s1, 1]
            return last(s0 + g, s1) if s0 + g >= goal else wins[s0 + g, s1, 1]

        def after1(g: int, s0: int, s1: int) -> float:  # the second seat banked g
            if g == 0:
                return wins[s0, s1, 0]
            return 0.0 if s1 + g >= goal else wins[s0, s1 + g, 0]

        def turn_worth(seat: int, s0: int, s1: int) -> Callable[[int], float]:
            """What banking each total is worth to `seat`: its chance of winning then."""
            if seat == 0:
                return lambda g: after0(g, s0, s1)
            return lambda g: 1.0 - after1(g, s0, s1)

        for s0 in range(goal - 1, -1, -1):
            for s1 in range(goal - 1, -1, -1):
                wins[s0, s1, 0] = wins[s0, s1, 1] = 0.5
                high = max(s0, s1)
                first, second = turn_worth(0, s0, s1), turn_worth(1, s0, s1)
                for _ in range(200):
                    before = wins[s0, s1, 0], wins[s0, s1, 1]
                    if best == 0:
                        wins[s0, s1, 0] = self.turn.best(first, first(0))
                    else:
                        wins[s0, s1, 0] = sum(q * first(g)
                                              for g, q in self.hints(s0, high, False).items())
                    if best == 1:
                        wins[s0, s1, 1] = 1.0 - self.turn.best(second, second(0))
                    else:
                        wins[s0, s1, 1] = 1.0 - sum(
                            q * second(g) for g, q in self.hints(s1, high, False).items())
                    if abs(before[0] - wins[s0, s1, 0]) + abs(before[1] - wins[s0, s1, 1]) < 1e-13:
                        break
        if best is not None:
            self._after[best] = lambda s0, s1: turn_worth(best, s0, s1)
        return wins[0, 0, 0]

    def losses(self, seat: int, scores: tuple[int, int], state: State,
               ) -> dict[str, float]:
        """At a decision of `seat` in an ordinary round (after `first_seat_wins(seat)`):
        how much of its chance of winning each move gives up against the best move."""
        key = (seat, *scores)
        if key not in self._values:
            after = self._after[seat](*scores)
            self._values[key] = (after, self.turn.values(after, after(0))[1])
        after, rolls = self._values[key]
        worth = {"stop": after(state[2]), "roll": rolls[self.turn.index[state]]}
        top = max(worth.values())
        return {move: top - value for move, value in worth.items()}


def _by_colour(state: Any, zone: str, colour: dict[str, int]) -> Counts:
    """The dice in one zone of an engine game, counted by colour."""
    counts = [0] * len(colour)
    for owned in state.zones[zone]:
        for i in owned:
            counts[colour[state.items[i].kind]] += 1
    return tuple(counts)


def regret(game: Game, policy: str, games: int, seed: int, seats: tuple[int, ...] = (0, 1)
           ) -> dict[int, dict[str, float]]:
    """Play `games` with `policy` at one seat (each seat in turn) and the hints at the
    other; at each of its choices in an ordinary round, add up how much of its chance of
    winning its move gave up against the best move, and how much the hints' move would
    have. A far finer measure of a bot against the hints than who won: each decision is
    valued exactly, with none of the dice's luck. By seat: the games, the choices, those
    unlike the hints', and the chance given up a game by the bot's moves and the hints'."""
    from random import Random

    from dinotable.bots import POLICIES, heuristic_policy
    from dinotable.bots.search import unclocked
    from dinotable.engine import apply, legal_actions, new_game

    rules = load_by_id("dino_hunt_dice")
    bot = POLICIES[policy]
    colour = {kind: c for c, kind in enumerate(game.kinds)}
    found: dict[int, dict[str, float]] = {}
    for seat in seats:
        game.first_seat_wins(seat)
        lost = {"bot": 0.0, "hints": 0.0}
        decisions = differ = 0
        played = games // 2 + (games % 2 if seat == 0 else 0)
        with unclocked():
            for number in range(played):
                state = new_game(rules, ["A", "B"], {"goal": game.goal}, seed * 1_000_003 + number)
                rng = Random(number)
                while not state.game_over:
                    legal = legal_actions(state)
                    if (state.current != seat or len(legal) < 2 or state.last_round
                            or state.tiebreak):
                        apply(state, heuristic_policy(state, legal, rng), False)
                        continue
                    dice = {zone: _by_colour(state, zone, colour)
                            for zone in ("cup", "hand", "caught", "stomped")}
                    here: State = (dice["cup"], dice["hand"], sum(dice["caught"]),
                                   sum(dice["stomped"]))
                    scores = (state.player_vars[0]["banked"], state.player_vars[1]["banked"])
                    losses = game.losses(seat, scores, here)
                    action = bot(state, legal, Random(decisions))
                    advice = heuristic_policy(state, legal, Random(decisions))
                    lost["bot"] += losses[action.id]
                    lost["hints"] += losses[advice.id]
                    decisions += 1
                    differ += action.id != advice.id
                    apply(state, action, False)
        found[seat] = {"games": played, "choices": decisions, "unlike": differ,
                       "bot": lost["bot"] / played, "hints": lost["hints"] / played}
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goal", type=int, default=20)
    parser.add_argument("--regret", type=int, default=0, metavar="GAMES",
                        help="instead, weigh a bot's choices in this many games")
    parser.add_argument("--policy", default="search")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = Game(args.goal)
    if args.regret:
        for seat, got in regret(game, args.policy, args.regret, args.seed).items():
            print(f"{args.policy} as the {'first' if seat == 0 else 'second'} seat, "
                  f"{got['games']:.0f} games, {got['choices']:.0f} choices in ordinary rounds, "
                  f"{got['unlike']:.0f} unlike the hints': chance of winning given up a game "
                  f"{got['bot']:.2%} (the hints' moves {got['hints']:.2%})", flush=True)
        return 0
    print(f"{len(game.turn.order)} positions in a turn")
    hinted = game.first_seat_wins(None)
    first = game.first_seat_wins(0)
    second = 1.0 - game.first_seat_wins(1)
    print(f"both by the hints: first seat {hinted:.2%}, second seat {1 - hinted:.2%}")
    print(f"best against the hints: first seat {first:.2%}, second seat {second:.2%}")
    print(f"ceiling, seats in turn: {(first + second) / 2:.2%} (the hints' own: 50%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
