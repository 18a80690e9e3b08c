"""Setting a game up: seats, options, items in their starting zones, the first turn begun."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .decks import Shuffled
from .expr import suggest
from .facing import lay_start_items
from .flow import begin_round, start_round
from .model import Rules
from .origins import PASSED_ON, rules_error
from .state import GameState, Item
from .variants import option_at, shaped


def new_game(rules: Rules, players: list[str], options: dict[str, Any] | None = None,
             seed: int = 0, force: list[Any] | None = None,
             setup: Callable[[GameState], None] | None = None) -> GameState:
    """Set up a game: seats, options, items in their starting zones, first turn begun.

    `force` queues chance outcomes before anything is set up, so the ruleset's own setup
    (a draw at the first round's start, a shuffle) takes them. `setup` is called with the
    state once the items are in their starting zones, before the first round starts: a
    scenario places a position there (see `engine.place_items`).
    """
    n = len(players)
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(f"{rules.name} seats {rules.min_players} to {rules.max_players} "
                         f"players, not {n}")
    if len(set(players)) != n:
        raise ValueError("every player needs a different name")
    if options:
        chosen = resolve_options(rules, options, n)
        rules = shaped(rules, chosen)  # the boards an option shapes, the teams it switches on
    else:
        chosen, rules = _usual_options(rules, n)
    if rules.teams and n % rules.teams:
        raise ValueError(f"{rules.name} is played in {rules.teams} teams of equal size: "
                         f"{n} players cannot be split so")
    state = GameState(rules, players, chosen, seed)
    if force:
        state.chance.force(force)
    try:
        _set_up(state)
    except PASSED_ON:
        raise
    except Exception as exc:  # a ruleset's own code failed: name its line
        raise rules_error(rules, exc, "setting up the game") from exc
    try:
        # The first round's start is the ruleset's own set-up (a deal, a roll-off for who
        # goes first): a scenario's position is placed after it and before the first turn,
        # so that turn's own start (a draw) still comes after the position.
        start_round(state.ctx, 0, begin=setup is None)
    except PASSED_ON:
        raise
    except Exception as exc:
        raise rules_error(rules, exc, "setting up the game") from exc
    if setup is not None:
        setup(state)  # a scenario's position: its own errors are its own
        try:
            if not state.pending:
                begin_round(state.ctx)
        except PASSED_ON:
            raise
        except Exception as exc:
            raise rules_error(rules, exc, "setting up the game") from exc
    return state


def _usual_options(rules: Rules, n: int) -> tuple[dict[str, Any], Rules]:
    """Every option at its usual value for `n` seats, and the rules they shape: worked out
    once per number of seats (never changed: the game takes a copy of the options)."""
    key = ("usual_options", n)
    found: tuple[dict[str, Any], Rules] | None = rules.memo.get(key)
    if found is None:
        chosen = resolve_options(rules, {}, n)
        found = rules.memo[key] = (chosen, shaped(rules, chosen))
    return found


def _set_up(state: GameState) -> None:
    """Items into their starting zones, as they lie before the first round."""
    items, zones, shuffled, ids = _start_layout(state.rules, len(state.players))
    state.items = [Item(i, kind) for i, kind in items]
    state.zones = {name: [content.copy() for content in lists] for name, lists in zones.items()}
    state.shuffled = Shuffled(shuffled)  # remembers each deck's unknown run: O(1) draws
    state.item_ids = ids.copy()
    lay_start_items(state)


Layout = tuple[list[tuple[str, str]], dict[str, list[list[int]]], list[int], dict[str, int]]


def _start_layout(rules: Rules, n: int) -> Layout:
    """Every game of `rules` at `n` seats starts alike: (id, kind) of each item, the item
    indexes in each zone (one list per owner), the indexes lying shuffled in decks, and
    each id's index. Worked out once per number of seats."""
    key = ("start", n)
    found: Layout | None = rules.memo.get(key)
    if found is not None:
        return found
    items: list[tuple[str, str]] = []
    zones: dict[str, list[list[int]]] = {}
    shuffled: list[int] = []
    made: dict[str, int] = {}  # dice of each kind so far: green1, green2, ...
    copies: dict[str, int] = {}  # cards of each kind so far: kind, kind_2, kind_3, ...
    for zdef in rules.zones.values():
        owners = n if zdef.per_player else 1
        zones[zdef.name] = [[] for _ in range(owners)]
        for owner in range(owners):
            content = zones[zdef.name][owner]
            for kind, count in zdef.start:
                for _ in range(count):
                    numbered = made[kind] = made.get(kind, 0) + 1
                    content.append(len(items))
                    items.append((f"{kind}{numbered}", kind))
            # A zone's starting cards, tiles and tokens; a deck's cards start shuffled.
            for kind, count in zdef.start_items:
                for _ in range(count):
                    copy = copies[kind] = copies.get(kind, 0) + 1
                    if zdef.order == "deck":
                        shuffled.append(len(items))
                    content.append(len(items))
                    items.append((kind if copy == 1 else f"{kind}_{copy}", kind))
    ids = {item_id: index for index, (item_id, _) in enumerate(items)}
    rules.memo[key] = (items, zones, shuffled, ids)
    return items, zones, shuffled, ids


ECHO_MAX = 60  # characters of a value a message echoes (what was typed, cut short)


def _echo(value: Any) -> str:
    """What was given, for a message: a 5,000-digit value is cut to ECHO_MAX characters."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**ECHO_MAX:
        return "a number too long to show"  # and past 4,300 digits str() itself refuses
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= ECHO_MAX else text[:ECHO_MAX - 1] + "…"


def resolve_options(rules: Rules, chosen: dict[str, Any], players: int | None = None
                    ) -> dict[str, Any]:
    """The full option set: defaults, overridden by valid choices; bad ones raise ValueError.

    With `players`, an option's default and choices are those at that number of players
    (`by_players`); without it, the usual ones.
    """
    values = {name: option_at(o, players)[0] for name, o in rules.options.items()}
    for name, value in chosen.items():
        o = rules.options.get(name)
        if o is None:
            near = suggest(name, list(rules.options))
            hint = f" (did you mean {near!r}?)" if near else ""
            raise ValueError(f"{rules.id} has no option {_echo(name)}{hint}")
        default, choices = option_at(o, players)
        if choices and value not in choices and value == o.default:
            # The usual default, filled in before the players were counted, gives way to
            # the default at this number of players (five play by night).
            value = default
        if choices and value not in choices:
            at = f" with {players} players" if players in o.by_players else ""
            raise ValueError(f"option {name} must be one of {list(choices)}{at}, not "
                             f"{_echo(value)}")
        if isinstance(o.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"option {name} must be true or false, not {_echo(value)}")
        elif isinstance(o.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"option {name} must be a whole number, not {_echo(value)}")
            if (o.minimum is not None and value < o.minimum) or (
                    o.maximum is not None and value > o.maximum):
                raise ValueError(f"option {name} must be from {o.minimum} to {o.maximum}, "
                                 f"not {_echo(value)}")
        values[name] = value
    return values

