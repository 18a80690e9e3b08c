"""`search`: information-set Monte Carlo tree search, for any ruleset, from its rules alone.

The bot reads the game once, as its own seat may know it (`engine.seen_state`), and never
the game itself again. Each playout starts from a determinisation of that view: the items
the seat cannot see are dealt back into their hidden places at random (from every item the
game has, less those the seat sees), other seats' secret variables take their starting
values, and chance is fresh. One tree is shared by all determinisations (single-observer
ISMCTS): a move is weighed by how often it was available, so moves that exist only in some
worlds are not favoured. Below the tree a playout plays at random until the game ends or
the mover's turn is over; a game cut short is judged by each seat's lead.

Where the ruleset has hints, the fair and sharp bots search otherwise: they take the hints'
advice unless another move beats it beyond doubt when every seat then plays on by the hints
(one step of policy improvement over the hints, never worse than them where its estimates
are sound). Each move is weighed on the same worlds with the same dice, turn by turn, so
the luck all of them share cancels out of the comparison. A move beats the advice when it
wins more games beyond doubt, or, where wins do not tell the moves apart, when it leads by
more at the round's end beyond doubt and wins no fewer games. A weighing looks two rounds'
ends ahead at most: in a card game, hundreds of moves long, the lead two rounds on tells
moves apart where a guess at the far end is mostly noise (and costs many times the work);
in a dice game's last rounds it still plays on to the end.

Strengths are budgets: so many playouts (more where they are quick: see `work`), and never
longer than so many seconds (except in simulations, see `unclocked`). Fair and sharp weigh
twice the playouts they once did (300 and 1,200, up to 3,000 and 6,000 where quick), and
keep a rival for 16 rounds before dropping it as plainly worse (see `keep`): in a dice game
a plain choice once settled on a few dozen playouts of a second it had to spare. How many
playouts each makes in its time, game by game: `tools/bench_playouts.py`.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..engine import (
    Action,
    Chance,
    EngineError,
    GameState,
    Item,
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
DOUBT = 2.0  # standard errors by which the search must beat the hints' advice to overrule it
# Standard errors by which a rival must trail the advice to be dropped: it is looked at
# after every round, so at two a sound move was dropped now and then by the luck of a few
# rounds; a move kept longer costs only playouts, which a dice game has to spare.
DROP = 3.0
MARGIN = 0.1  # the score margin's share of a playout's reward, beside winning it
SOONER = 0.998  # a playout's reward shrinks towards even by this for each move it made


@dataclass(frozen=True)
class Strength:
    """How hard the bot thinks: a budget for each move."""

    name: str
    playouts: int  # at most this many playouts a move
    seconds: float  # and never longer than this (checked between playouts)
    hinted: int  # moves of each playout chosen by the ruleset's hints, before random play
    depth: int  # moves a playout makes at most before the game is judged by who leads
    turns: int = 0  # and turns begun after the move (0: no limit) before it is judged
    heed: bool = False  # keep to the ruleset's hints unless the playouts clearly beat them
    rounds: int = 0  # a weighing (`_judge`) ends once this many rounds end (0: no limit)
    # Weighings past `playouts` go on while the choices their moves were offered, counted
    # one by one, stay under `work`, up to `most` playouts (see `_improve`).
    work: int = 0
    most: int = 0
    # Paired rounds a rival is weighed before it may be dropped as plainly worse (0: as
    # soon as any move may be judged, see `FEWEST`).
    keep: int = 0


STRENGTHS: dict[str, Strength] = {
    # A random playout is judged at the end of the mover's turn (turns=1): a score banked
    # or lost in the turn weighs far more than the noise of a whole game played out at
    # random. Gentle plays out at random and heeds no hints: a beatable opponent that still
    # sees what a move does at once. Fair and sharp, in a ruleset with hints, weigh each
    # move by playing on by the hints for up to `depth` moves or two rounds' ends. Their
    # time goes mostly on listing and reading each move's choices (some 50 to 120 us a
    # choice in every shipped game), so `work` counts those: Dino Hunt's and Danger's 150
    # playouts list 15,000 to 30,000 and stop there (Dino Dude Ranch's about 8,000), while
    # a dice game's list some 15 each, so its close calls go on to hundreds of playouts in
    # a fraction of the time budget (in Dino Hunt Dice that doubles what fair's choices
    # gain over the hints', weighed exactly by tools/dino_hunt_dice_ceiling.py --regret).
    # A rival is kept for 16 rounds before it may be dropped: with 8, a sound move was now
    # and then dropped after a few unlucky worlds, and a dice game's plain choice was
    # settled on a few dozen playouts of a second it has to spare. Where a card game's
    # clock runs out first, the moves it weighs are as many as before (see `_rivals`).
    "gentle": Strength("gentle", 40, 0.25, 0, 40, 1),
    "fair": Strength("fair", 300, 1.0, 20, 60, 1, heed=True, rounds=2, work=16000, most=3000,
                     keep=16),
    "sharp": Strength("sharp", 1200, 2.5, 40, 150, 1, heed=True, rounds=2, work=60000,
                      most=6000, keep=16),
}


STRIDE = 4  # moves played at random between looks at the turn count


_CLOCK = [True]  # False while simulating: see `unclocked`
_clock = time.perf_counter  # read between playouts (a test hands in a clock of its own)


@contextlib.contextmanager
def unclocked() -> Iterator[None]:
    """Within it, a search move stops at its playout budget only, not at its time budget:
    what simulations need so that a seed plays the same games on any machine, however busy,
    and on any number of processes. At the table the clock also cuts every move short."""
    before = _CLOCK[0]
    _CLOCK[0] = False
    try:
        yield
    finally:
        _CLOCK[0] = before


class _Node:
    """A move in the shared tree: visits, times it was available, reward summed by seat."""

    __slots__ = ("avail", "children", "reward", "squares", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = [0.0] * seats
        self.squares = 0.0  # a first move's rewards to the searching seat, squared and summed

    def mean(self, seat: int) -> float:
        return self.reward[seat] / self.visits

    def error(self, seat: int) -> float:
        """The standard error of `mean` (a first move's, for the searching seat)."""
        mean = self.mean(seat)
        return math.sqrt(max(0.0, self.squares / self.visits - mean * mean) / self.visits)


class _Knowledge:
    """What the seat knows, ready to deal determinisations from."""

    def __init__(self, view: GameState, seat: int) -> None:
        self.rules = view.rules
        self.seat = seat
        self.snapshot = view.to_dict(log=False)  # the moves so far are not needed to play on
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
        # The view read back once as a game to play on: each world is a copy of it with
        # the hidden items dealt, far cheaper than reading the snapshot back every time.
        self.template = GameState.from_dict(self.rules, {**self.snapshot,
                                                         "player_vars": self.vars})
        self.rows = [(it.id, it.kind, it.face) for it in self.template.items]

    def deal(self, rng: random.Random) -> GameState:
        """One world consistent with what the seat has seen."""
        rows = self.rows
        if self.deals:
            rows = rows.copy()
            for places, unseen in self.deals:
                shuffled = unseen.copy()
                rng.shuffle(shuffled)
                for index, (iid, kind) in zip(places, shuffled, strict=False):
                    rows[index] = (iid, kind, None)
        # Chance is drawn after the deal, as it always was: the same seed, the same world.
        chance = Chance(rng.getrandbits(62))
        return self.template.copy([Item(i, k, f) for i, k, f in rows], chance)


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


class _Scale:
    """How far scores lie apart in the playouts of one search, learnt as they come: a lead
    at a playout cut short is weighed against it."""

    __slots__ = ("count", "total")

    def __init__(self) -> None:
        self.total = 0.0
        self.count = 0

    def of(self, spread: float) -> float:
        self.total += spread
        self.count += 1
        return max(1e-9, self.total / self.count)


def _outcome(state: GameState, scale: _Scale) -> list[float]:
    """A playout's reward by seat. A finished game: a win 1, a shared win 1/k, plus a small
    share for the score margin. A game cut short: each seat's lead over the average, against
    how far apart scores usually lie (or, with no numbers to weigh, who leads)."""
    n = len(state.players)
    values = None if state.rules.teams else scores(state)
    if values is not None and not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        values = None
    if not state.game_over and values is not None:
        mean = sum(values) / n
        usual = scale.of(sum(abs(v - mean) for v in values) / n)
        return [0.5 + 0.5 * math.tanh((v - mean) / usual) for v in values]
    top = state.winners if state.game_over else leaders(state)
    reward = [0.0] * n
    for s in top:
        reward[s] = 1.0 / len(top)
    if values is not None:
        # Each seat's lead over the average, as a share of the largest score.
        mean = sum(values) / n
        spread = 1 + max(abs(v) for v in values)
        for s in range(n):
            reward[s] += MARGIN * (values[s] - mean) / spread
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
             rng: random.Random, scale: _Scale, seat: int) -> None:
    """One playout: down the tree, one new move added, played out, rewards back up."""
    node = root
    path = [root]
    until = world.turns + strength.turns if strength.turns else 1 << 62
    # The tree stops where the playouts do: a move that ends the turn is judged there, not
    # after the rivals' replies that the moves which go on never meet.
    while not world.game_over and world.turns < until:
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
    # The same outcome sooner is worth a little more: a move that changes nothing (a roll
    # of an empty cup) is never preferred to the one that ends the matter now.
    sooner = SOONER ** len(world.log)
    reward = [0.5 + (r - 0.5) * sooner for r in _outcome(world, scale)]
    for visited in path:
        visited.visits += 1
        totals = visited.reward
        for s, r in enumerate(reward):
            totals[s] += r
    if len(path) > 1:
        path[1].squares += reward[seat] ** 2


def search(state: GameState, legal: list[Action], rng: random.Random,
           strength: Strength) -> Action:
    """The move the search likes best for the seat the game waits on, within the budget."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    start = _clock()
    seat = legal[0].player
    knowledge = _Knowledge(seen_state(state, seat), seat)
    hinted = _hinted(knowledge, legal, rng) if strength.heed else None
    if hinted is not None:
        return _improve(knowledge, legal, hinted, strength, rng, start)
    root = _Node(len(knowledge.snapshot["players"]))
    first = set(legal)
    slowest = 0.0
    scale = _Scale()
    clocked = _CLOCK[0]
    for _ in range(strength.playouts):
        began = _clock()
        # The next playout must fit in what is left, twice the slowest one so far: a
        # playout runs to its end, so the budget is kept by never starting one too many.
        if clocked and began - start + 2 * slowest > strength.seconds:
            break
        # A world the rules could never reach (a guess gone wrong) is a wasted playout.
        with contextlib.suppress(EngineError):
            _iterate(root, knowledge.deal(rng), first, strength, rng, scale, seat)
        slowest = max(slowest, _clock() - began)
    tried = [a for a in legal if a in root.children and root.children[a].visits]
    if not tried:
        return hinted or legal[int(rng.random() * len(legal))]
    children = root.children
    # The best mean among the moves tried about as often as the most tried: two moves of
    # nearly one worth share the playouts evenly, and then the better mean should tell.
    most = max(children[a].visits for a in tried)
    best = max((a for a in tried if 2 * children[a].visits >= most),
               key=lambda a: children[a].mean(seat))
    if hinted is not None and best != hinted and hinted in tried:
        # The ruleset's own advice stands unless the playouts found better beyond doubt:
        # a few hundred playouts tell a good move from a bad one, not from a near twin.
        ours, theirs = children[best], children[hinted]
        doubt = math.hypot(ours.error(seat), theirs.error(seat))
        if ours.mean(seat) - theirs.mean(seat) <= DOUBT * doubt:
            return hinted
    return best


def _hinted(knowledge: _Knowledge, legal: list[Action], rng: random.Random) -> Action | None:
    """What the ruleset's hints advise (None without hints). They read the game as the seat
    knows it, so any world dealt from its view gives the same advice."""
    if not knowledge.rules.bot_hints:
        return None
    from . import heuristic_policy

    return heuristic_policy(knowledge.deal(rng), legal, rng)


def policy(strength: Strength) -> Any:
    """The bot policy that searches at `strength`."""

    def choose(state: GameState, legal: list[Action], rng: random.Random) -> Action:
        return search(state, legal, rng, strength)

    choose.__name__ = f"search_{strength.name}"
    choose.__doc__ = f"Monte Carlo tree search, {strength.name}: {strength.playouts} playouts " \
                     f"or {strength.seconds:g} s a move at most."
    return choose


def _improve(knowledge: _Knowledge, legal: list[Action], hinted: Action, strength: Strength,
             rng: random.Random, start: float) -> Action:
    """The hints' advice, unless another move beats it beyond doubt when every seat plays
    on by the hints: one step of policy improvement over the hints, never worse than them
    where the estimates are sound. The moves are weighed in pairs on the same worlds with
    the same dice (common random numbers), so the luck both share cancels out of the
    difference, and a move is dropped once it is plainly worse than the advice.

    Two things are weighed: who wins the game played on, and the seat's lead when the round
    ends. A win or a loss tells apart only the few worlds where the move changes who wins,
    so a small gain is lost in the noise; the lead at the round's end differs in almost
    every world, and the luck of the rest of the game does not blur it. A move that wins
    more often beyond doubt is taken; failing that, one that leads by more beyond doubt and
    wins at least as often."""
    rivals = _rivals([a for a in legal if a != hinted], strength, rng)
    wins = {a: _Paired() for a in rivals}  # each rival's reward less the advice's
    leads = {a: _Paired() for a in rivals}
    rounds = spent = 0
    slowest = [0.0]
    scale = _Scale()
    listed = [0]  # the choices the weighings' moves were offered, one by one
    while rivals and _affords(strength, spent + len(rivals) + 1, listed[0]):
        spent += len(rivals) + 1
        value = _round(knowledge, [hinted, *rivals], rng.getrandbits(62), strength, scale,
                       start, slowest, listed)
        if value is None:
            break  # out of time: a round cut short is dropped, only whole pairs compare
        judged = {a: v for a, v in value.items() if v is not None}
        if len(judged) < len(value):
            continue  # a world the rules could never reach (a guess gone wrong)
        rounds += 1
        base_won, base_led = judged[hinted]
        for a in rivals:
            won, led = judged[a]
            wins[a].add(won - base_won)
            if led is not None and base_led is not None:
                leads[a].add(led - base_led)
        if rounds >= max(FEWEST, strength.keep):
            rivals = [a for a in rivals if not wins[a].worse()]
    if rounds < FEWEST:
        return hinted
    best = max(rivals, key=lambda a: wins[a].mean(), default=None)
    if best is not None and wins[best].better():
        return best
    ahead = [a for a in rivals if leads[a].better() and wins[a].mean() >= 0]
    return max(ahead, key=lambda a: leads[a].mean(), default=hinted)


def _affords(strength: Strength, playouts: int, listed: int) -> bool:
    """Whether the budget allows `playouts` in all, the weighings so far having listed
    `listed` choices: `playouts` always, more while `work` lasts, never past `most`."""
    if playouts <= strength.playouts:
        return True
    return listed < strength.work and playouts <= strength.most


def _rivals(others: list[Action], strength: Strength, rng: random.Random) -> list[Action]:
    """The moves to weigh against the advice: all of them where the budget gives each enough
    weighings to tell, else one of each kind of move (a stop, a claim) and then others drawn
    at random, as many as it allows. A choice among dozens of sets of dice to throw again
    would otherwise share the budget so thinly that no move is ever judged."""
    most = max(1, strength.playouts // (2 * max(FEWEST, strength.keep)) - 1)
    if len(others) <= most:
        return others
    shuffled = others.copy()
    rng.shuffle(shuffled)
    kinds = list({a.id: a for a in shuffled}.values())
    chosen = kinds[:most] + [a for a in shuffled if a not in kinds][:max(0, most - len(kinds))]
    return [a for a in others if a in chosen]  # in the order the rules list them


class _Paired:
    """Paired differences of one move's reward from the advice's, summed as they come."""

    __slots__ = ("count", "squares", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total = self.squares = 0.0

    def add(self, difference: float) -> None:
        self.count += 1
        self.total += difference
        self.squares += difference * difference

    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0

    def error(self) -> float:
        """The standard error of the mean."""
        n = self.count
        if n < 2:
            return math.inf
        mean = self.total / n
        return math.sqrt(max(0.0, self.squares / n - mean * mean) / (n - 1))

    def better(self) -> bool:
        """Better than the advice beyond doubt."""
        return self.mean() > DOUBT * self.error()

    def worse(self) -> bool:
        """Plainly no better than the advice."""
        return self.mean() + DROP * self.error() <= 0


FEWEST = 8  # paired rounds before any move is judged better or worse than the advice


def _round(knowledge: _Knowledge, moves: list[Action], seed: int, strength: Strength,
           scale: _Scale, start: float, slowest: list[float], listed: list[int]
           ) -> dict[Action, tuple[float, float | None] | None] | None:
    """Each move's reward and lead (see `_judge`) on the one world and dice of `seed` (None:
    the clock ran out). The clock is read before each playout, and one is begun only when
    twice the slowest so far still fits in the budget."""
    value: dict[Action, tuple[float, float | None] | None] = {}
    for move in moves:
        began = _clock()
        if _CLOCK[0] and began - start + 2 * slowest[0] > strength.seconds:
            return None
        value[move] = _judge(knowledge, move, seed, strength, scale, listed)
        slowest[0] = max(slowest[0], _clock() - began)
    return value


def _judge(knowledge: _Knowledge, action: Action, seed: int, strength: Strength,
           scale: _Scale, listed: list[int]) -> tuple[float, float | None] | None:
    """The seat's reward when it makes `action` in the world dealt from `seed` and every
    seat then follows the hints, to the end or `strength.depth` moves on, and its lead over
    the best of the others when the round ends (None without numeric scores); None where
    the world refuses the move. The choices each move was offered are added to `listed`."""
    from . import heuristic_policy

    chooser = random.Random(seed)
    world = knowledge.deal(chooser)
    # Each turn throws its own dice, drawn from the seed and the turn's number: a rival's
    # turn rolls alike whichever move was weighed, however many throws the move took.
    turn = world.turns
    world.chance = Chance(_turn_seed(seed, turn))
    lead: float | None = None
    began, measured = world.round, False
    try:
        apply(world, action, False)
        made = 0
        while made < strength.depth and not world.game_over:
            if world.turns != turn:
                turn = world.turns
                world.chance = Chance(_turn_seed(seed, turn))
                if not measured and world.round != began:
                    lead, measured = _lead(world, knowledge.seat), True
                if strength.rounds and world.round - began >= strength.rounds:
                    break
            legal = legal_actions(world)
            listed[0] += len(legal)
            apply(world, heuristic_policy(world, legal, chooser), False)
            made += 1
    except EngineError:
        return None
    if not measured and not world.game_over:
        lead = _lead(world, knowledge.seat)
    # A game over by the round's end is weighed by who won it alone: a lead then is
    # worth nothing (a player out of the race banks a stomp-free point it cannot use).
    seat = knowledge.seat
    if world.game_over:  # who won alone: the margin is the lead's business
        won = 1.0 / len(world.winners) if seat in world.winners else 0.0
    else:
        won = _outcome(world, scale)[seat]
    return won, lead


def _lead(state: GameState, seat: int) -> float | None:
    """The seat's score less the best of the others' (None where scores are not numbers)."""
    if state.rules.teams:
        return None
    values = scores(state)
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return None
    return float(values[seat] - max(v for s, v in enumerate(values) if s != seat))


def _turn_seed(seed: int, turn: int) -> int:
    """The dice seed of one turn of a weighing: apart for every turn, alike for every move."""
    return seed ^ (turn * 0x9E3779B97F4A7C15 & (1 << 62) - 1)
