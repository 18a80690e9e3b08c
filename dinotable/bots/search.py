"""`search`: information-set Monte Carlo tree search, for any ruleset, from its rules alone.

The bot reads the game once, as its own seat may know it (`engine.seen_state`), and never
the game itself again. Each playout starts from a determinisation of that view: the items
the seat cannot see are dealt back into their hidden places at random (from every item the
game has, less those the seat sees), other seats' secret variables take their starting
values, and chance is fresh. One tree is shared by all determinisations (single-observer
ISMCTS): a move is weighed by how often it was available, so moves that exist only in some
worlds are not favoured. Below the tree a playout follows the ruleset's heuristic hints for
its first moves, then plays at random; a playout that runs long is judged by who leads.

Strengths are budgets: at most so many playouts, and never longer than so many seconds.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from dataclasses import dataclass
from typing import Any

from ..engine import (
    Action,
    Chance,
    EngineError,
    GameState,
    Rules,
    apply,
    leaders,
    legal_actions,
    new_game,
    random_playout,
    scores,
    seen_state,
)

EXPLORE = 0.7  # UCB exploration weight: rewards lie in [0, 1 + MARGIN]
MARGIN = 0.1  # the score margin's share of a playout's reward, beside winning it
CUT_MARGIN = 1.0  # its share when the playout was cut short: then who leads says little


@dataclass(frozen=True)
class Strength:
    """How hard the bot thinks: a budget for each move."""

    name: str
    label: str  # as the set-up screen names it
    playouts: int  # at most this many playouts a move
    seconds: float  # and never longer than this (checked between playouts)
    hinted: int  # moves of each playout chosen by the ruleset's hints, before random play
    depth: int  # moves a playout makes at most before the game is judged by who leads
    turns: int = 0  # and turns begun after the move (0: no limit) before it is judged


STRENGTHS: dict[str, Strength] = {
    # A playout is judged at the end of the mover's turn (turns=1): a score banked or lost
    # in the turn weighs far more than the noise of a whole game played out at random.
    "gentle": Strength("gentle", "Bot (gentle)", 40, 0.25, 0, 40, 1),
    "fair": Strength("fair", "Bot (fair)", 150, 1.0, 20, 60, 1),
    "sharp": Strength("sharp", "Bot (sharp)", 600, 2.5, 40, 150, 1),
}


STRIDE = 4  # moves played at random between looks at the turn count


class _Node:
    """A move in the shared tree: visits, times it was available, reward summed by seat."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = [0.0] * seats


class _Knowledge:
    """What the seat knows, ready to deal determinisations from."""

    def __init__(self, view: GameState, seat: int) -> None:
        self.rules = view.rules
        self.seat = seat
        self.snapshot = view.to_dict()
        self.snapshot["log"] = []  # the moves so far are not needed to play on
        # A hidden item is blanked: its id no longer names its place in the game. Which
        # zone it started in is public, as a card's back is: a card from the special deck
        # is one of the specials nobody has seen, so each is dealt from its own family.
        families = _families(view)
        hidden = [i for i, item in enumerate(view.items) if view.item_ids.get(item.id) != i]
        seen = {item.id for i, item in enumerate(view.items) if view.item_ids.get(item.id) == i}
        self.deals: list[tuple[list[int], list[tuple[str, str]]]] = []
        for family, members in families.items():
            places = [i for i in hidden if i in members]
            if places:
                unseen = [(iid, kind) for iid, kind in family if iid not in seen]
                self.deals.append((places, unseen))
        start = view.rules.player_vars
        # Another seat's secret variables (None in the view) are taken at their start.
        self.vars = [{k: (start.get(k) if v is None and k in view.rules.owner_vars else v)
                      for k, v in pv.items()} for pv in view.player_vars]

    def deal(self, rng: random.Random) -> GameState:
        """One world consistent with what the seat has seen."""
        data = dict(self.snapshot)
        if self.deals:
            items = list(data["items"])
            for places, unseen in self.deals:
                shuffled = unseen.copy()
                rng.shuffle(shuffled)
                for index, (iid, kind) in zip(places, shuffled, strict=False):
                    items[index] = [iid, kind, None]
            data["items"] = items
        data["player_vars"] = self.vars
        state = GameState.from_dict(self.rules, data)
        state.chance = Chance(rng.getrandbits(62))
        return state


Family = tuple[tuple[str, str], ...]  # the (id, kind) of every item that started in one zone
_FAMILIES: dict[tuple[str, int, int], tuple[Rules, dict[Family, set[int]]]] = {}


def _families(view: GameState) -> dict[Family, set[int]]:
    """The items of the game by the zone they started in, with the places (item indexes)
    of each: public, the same for every game of a ruleset at this many seats, so a game
    set up afresh shows them."""
    rules = view.rules
    key = (rules.id, rules.version, len(view.players))
    found = _FAMILIES.get(key)
    if found is None or found[0] is not rules:
        groups: dict[Family, set[int]] = {}

        def look(fresh: GameState) -> None:  # called with the items set out, before play
            for lists in fresh.zones.values():
                content = [i for owned in lists for i in owned]
                if content:
                    items = [(fresh.items[i].id, fresh.items[i].kind) for i in content]
                    groups[tuple(items)] = set(content)

        new_game(rules, list(view.players), dict(view.options), 0, setup=look)
        found = _FAMILIES[key] = (rules, groups)
    return found[1]


def _outcome(state: GameState) -> list[float]:
    """A finished (or cut short) playout's reward by seat: a win 1, a shared win 1/k, plus a
    small share for the score margin (a larger one for a game cut short)."""
    n = len(state.players)
    margin = MARGIN if state.game_over else CUT_MARGIN
    top = state.winners if state.game_over else leaders(state)
    reward = [0.0] * n
    for s in top:
        reward[s] = 1.0 / len(top)
    if not state.rules.teams:
        values = scores(state)
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            # Each seat's lead over the average, as a share of the largest score: a lead
            # counts for more when the scores are small.
            mean = sum(values) / n
            spread = 1 + max(abs(v) for v in values)
            for s in range(n):
                reward[s] += margin * (values[s] - mean) / spread
    return reward


def _playout(state: GameState, strength: Strength, rng: random.Random, until: int) -> None:
    """Play on: the ruleset's hints for the first moves, if it has any, then at random, until
    the game ends, `strength.depth` moves are made or turn `until` begins."""
    made = 0
    if state.rules.bot_hints:
        from . import heuristic_policy

        while made < strength.hinted and not state.game_over and state.turns < until:
            legal = legal_actions(state)
            apply(state, heuristic_policy(state, legal, rng), False)
            made += 1
    while made < strength.depth and not state.game_over and state.turns < until:
        made += random_playout(state, rng, min(STRIDE, strength.depth - made))


def _pick(node: _Node, legal: list[Action], seat: int) -> Action:
    """The child the seat to move likes best (UCB over availability)."""
    best: Action = legal[0]
    top = -1.0
    for action in legal:
        child = node.children[action]
        value = child.reward[seat] / child.visits + EXPLORE * math.sqrt(
            math.log(child.avail) / child.visits)
        if value > top:
            best, top = action, value
    return best


def _iterate(root: _Node, world: GameState, first: set[Action], strength: Strength,
             rng: random.Random) -> None:
    """One playout: down the tree, one new move added, played out, rewards back up."""
    node = root
    path = [root]
    until = world.turns + strength.turns if strength.turns else 1 << 62
    while not world.game_over:
        legal = legal_actions(world)
        if node is root:
            legal = [a for a in legal if a in first]  # only what the seat may really do
            if not legal:
                return  # a world where the seat's own moves differ: it teaches nothing
        untried = []
        for action in legal:
            child = node.children.get(action)
            if child is None:
                untried.append(action)
            else:
                child.avail += 1
        if untried:
            action = untried[int(rng.random() * len(untried))]
            node.children[action] = child = _Node(len(world.players))
            apply(world, action, False)
            path.append(child)
            break
        action = _pick(node, legal, legal[0].player)
        node = node.children[action]
        apply(world, action, False)
        path.append(node)
    _playout(world, strength, rng, until)
    reward = _outcome(world)
    for visited in path:
        visited.visits += 1
        totals = visited.reward
        for s, r in enumerate(reward):
            totals[s] += r


def search(state: GameState, legal: list[Action], rng: random.Random,
           strength: Strength) -> Action:
    """The move the search likes best for the seat the game waits on, within the budget."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    start = time.perf_counter()
    seat = legal[0].player
    knowledge = _Knowledge(seen_state(state, seat), seat)
    root = _Node(len(knowledge.snapshot["players"]))
    first = set(legal)
    slowest = 0.0
    for _ in range(strength.playouts):
        began = time.perf_counter()
        # The next playout must fit in what is left, twice the slowest one so far: a
        # playout runs to its end, so the budget is kept by never starting one too many.
        if began - start + 2 * slowest > strength.seconds:
            break
        # A world the rules could never reach (a guess gone wrong) is a wasted playout.
        with contextlib.suppress(EngineError):
            _iterate(root, knowledge.deal(rng), first, strength, rng)
        slowest = max(slowest, time.perf_counter() - began)
    tried = [a for a in legal if a in root.children]
    if not tried:
        return legal[int(rng.random() * len(legal))]
    return max(tried, key=lambda a: (root.children[a].visits,
                                     root.children[a].reward[seat] / root.children[a].visits))


def policy(strength: Strength) -> Any:
    """The bot policy that searches at `strength`."""

    def choose(state: GameState, legal: list[Action], rng: random.Random) -> Action:
        return search(state, legal, rng, strength)

    choose.__name__ = f"search_{strength.name}"
    choose.__doc__ = f"Monte Carlo tree search, {strength.name}: {strength.playouts} playouts " \
                     f"or {strength.seconds:g} s a move at most."
    return choose
