"""Bot policies: each picks one of `engine.legal_actions`, never anything else."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import (
    Action,
    GameState,
    legal_actions,
    sample_action,
    unchanging,
    value_for,
    values_for,
)

Policy = Callable[[GameState, list[Action], random.Random], Action]


def random_policy(state: GameState, legal: list[Action], rng: random.Random) -> Action:
    """Uniform over the legal actions, each action with its arguments counted once."""
    return legal[int(rng.random() * len(legal))]


def heuristic_policy(state: GameState, legal: list[Action], rng: random.Random) -> Action:
    """A sensible player: the ruleset's `bots.heuristic` preferences, first that applies.

    Each preference names an action, an optional condition (an expression seen from the
    bot's seat) and an optional `best` score for choosing among its arguments; the first
    whose action is legal and whose condition holds is taken. With none, it plays at random.
    """
    if not legal:
        raise ValueError("no legal action to choose from")
    # A preference's expression that fails is an EngineError naming its line (value_for).
    # Nothing changes while the preferences are read, so a formula that several of them
    # (or one of them for each choice) call with the same arguments is worked out once.
    with unchanging():
        return _preferred(state, legal, rng)


def _preferred(state: GameState, legal: list[Action], rng: random.Random) -> Action:
    # Preferences read the game as the bot's seat may know it, never a rival's hidden hand.
    seat = legal[0].player
    by_id: dict[str, list[Action]] = {}  # the legal moves of each action, in legal order
    for action in legal:
        found = by_id.get(action.id)
        if found is None:
            by_id[action.id] = [action]
        else:
            found.append(action)
    for hint in state.rules.bot_hints:
        options = by_id.get(hint.action)
        if not options or (hint.when is not None and not value_for(state, seat, hint.when)):
            continue
        if hint.best is not None and len(options) > 1:
            scored = list(zip(values_for(state, seat, hint.best, [a.arg_map for a in options]),
                              options, strict=True))
            top = max(score for score, _ in scored)
            options = [a for score, a in scored if score == top]
        return options[int(rng.random() * len(options))]
    return random_policy(state, legal, rng)


POLICIES: dict[str, Policy] = {"random": random_policy, "heuristic": heuristic_policy}


def _add_search() -> None:
    # `search` plays at the fair strength; `search:gentle` and `search:sharp` name the others.
    from .search import STRENGTHS, policy

    for name, strength in STRENGTHS.items():
        POLICIES["search" if name == "fair" else f"search:{name}"] = policy(strength)


_add_search()


def thinks(policy: str) -> bool:
    """Whether a policy takes time over a move (a search): the table lets it think aside."""
    return policy.startswith("search")


def choose(policy: str, state: GameState, rng: random.Random) -> Action:
    """Let a named policy choose for the player the game waits on.

    A random bot facing a subset argument samples one instead of listing them all.
    """
    if policy == "random" and state.rules.large_domains:
        return sample_action(state, rng)
    return POLICIES[policy](state, legal_actions(state), rng)
