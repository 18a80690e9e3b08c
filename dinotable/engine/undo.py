"""Taking back a move: how far the seat the game waits on may go, and the game without it.

A game is its seed and its action log, so undoing is replaying the log without its last
action. What makes that fair is where it stops: a seat takes back only its own actions, one
at a time, and never past the last moment something new became known, since a replay must
not let anyone roll again or see a card twice:

- a chance event (a roll, a draw from a shuffled deck, a shuffle: anything that drew on the
  game's random source);
- an item that some seat could not see before and now can (a card shown, a hidden card
  looked at, a card drawn into a hand);
- another player's decision (their action comes after yours in the log).

An action that did none of these leaves the random source where it was, so after an undo
the next roll shows what it would have shown: the game is exactly as if the action had
never been taken. Pure engine code: no pygame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .flow import apply
from .legality import waiting_on
from .model import Rules
from .setup import new_game
from .state import Action, GameState
from .views import can_see

Move = Action | tuple[int, str, tuple[tuple[str, Any], ...]]

NOTHING = "Nothing to take back"
GAME_OVER = "The game is over"
BOTS = "Bots never take back a move"


@dataclass(frozen=True)
class UndoInfo:
    """How many of the latest actions the waiting seat may take back, and, when it may take
    back no more, why (the words for a greyed Undo button)."""

    seat: int | None
    steps: int
    reason: str  # "" while steps > 0


def _action(move: Move) -> Action:
    if isinstance(move, Action):
        return move
    player, action_id, args = move
    return Action(player, action_id, tuple(args))


def _seen(state: GameState, viewer: int) -> set[int]:
    """The items whose identity `viewer` can see now (zones it may look into, face up)."""
    rules = state.rules
    seen: set[int] = set()
    for name, lists in state.zones.items():
        per_player = rules.zones[name].per_player
        for owner, content in enumerate(lists):
            own = owner if per_player else None
            if not (name in state.shown or can_see(rules, name, own, viewer)):
                continue
            if state.face_down and not (per_player and owner == viewer):
                seen.update(i for i in content if i not in state.face_down)
            else:
                seen.update(content)
    return seen


def _chance_mark(state: GameState) -> tuple[Any, ...]:
    chance = state.chance
    return (chance._rng.getstate(), len(chance.forced))


def reveal_in(state: GameState, action: Action) -> str:
    """Play `action` on `state` (in place) and say what it revealed, or "" if nothing.

    The words finish "... since": "The dice have been rolled", "A card has been drawn".
    """
    before_chance = _chance_mark(state)
    seats = range(len(state.players))
    before_seen = [_seen(state, s) for s in seats]
    shuffled = set(state.shuffled)
    events = apply(state, action)
    if _chance_mark(state) != before_chance or shuffled - state.shuffled:
        kinds = {e.kind for e in events}
        if "rolled" in kinds:
            return "The dice have been rolled"
        if "drew" in kinds or shuffled - state.shuffled:
            return "A card has been drawn"
        if "shuffled" in kinds:
            return "The cards have been shuffled"
        return "Chance has had its say"
    if any(e.kind == "shown" for e in events):
        return "Hidden things have been shown to everyone"
    for seat in seats:
        if _seen(state, seat) - before_seen[seat]:
            return "A card has been shown" if seat != action.player else (
                "You have seen a card")
    return ""


def _replayed(rules: Rules, names: Sequence[str], options: dict[str, Any] | None, seed: int,
              log: Sequence[Action]) -> GameState:
    state = new_game(rules, list(names), options, seed)
    for action in log:
        apply(state, action, record=False)
    return state


def undo_info(rules: Rules, names: Sequence[str], options: dict[str, Any] | None, seed: int,
              log: Sequence[Move], current: GameState | None = None) -> UndoInfo:
    """How many of the latest actions the seat the game waits on may take back.

    The log is replayed once: up to the run of the waiting seat's own latest actions
    quickly, then those one by one, watching for chance and for anything revealed.
    `current`: the game as it stands after the whole log, when the caller has it (the
    table does), which saves replaying it a second time.
    """
    actions = [_action(m) for m in log]
    full = current if current is not None else _replayed(rules, names, options, seed, actions)
    seat = waiting_on(full)
    if full.game_over:
        return UndoInfo(None, 0, GAME_OVER)
    if not actions:
        return UndoInfo(seat, 0, NOTHING)
    # The run of the waiting seat's own latest actions: the candidates.
    start = len(actions)
    while start > 0 and actions[start - 1].player == seat:
        start -= 1
    if start == len(actions):
        # The last action is someone else's: they have decided since.
        if seat is None or all(a.player != seat for a in actions):
            return UndoInfo(seat, 0, NOTHING)
        return UndoInfo(seat, 0, f"{full.players[actions[-1].player]} has played since")
    state = _replayed(rules, names, options, seed, actions[:start])
    # Walk forward through the run; the undoable tail is what follows the last reveal.
    steps, reason = 0, ""
    for action in actions[start:]:
        revealed = reveal_in(state, action)
        if revealed:
            steps, reason = 0, f"{revealed} since"
        else:
            steps += 1
    if steps:
        return UndoInfo(seat, steps, "")
    if not reason:
        reason = (NOTHING if start == 0 else
                  f"{full.players[actions[start - 1].player]} has played since")
    return UndoInfo(seat, 0, reason)


def why_no_undo(rules: Rules, names: Sequence[str], options: dict[str, Any] | None, seed: int,
                log: Sequence[Move], is_bot: bool = False,
                current: GameState | None = None) -> str:
    """Why the waiting seat cannot take back a move now, in words; "" when it can."""
    if is_bot:
        return BOTS
    info = undo_info(rules, names, options, seed, log, current)
    return "" if info.steps else info.reason


def undo(rules: Rules, names: Sequence[str], options: dict[str, Any] | None, seed: int,
         log: Sequence[Move], seat: int | None = None
         ) -> tuple[list[Action], str]:
    """Take back the last action: (the log without it, "") or (the log unchanged, why not).

    `seat` (default: the seat the game waits on) must be the one asking; a table replays
    the returned log from the seed (`replay`) to get the game as it was.
    """
    actions = [_action(m) for m in log]
    info = undo_info(rules, names, options, seed, actions)
    if not info.steps:
        return actions, info.reason
    if seat is not None and seat != info.seat:
        return actions, "Only the player the game waits on can take back a move"
    return actions[:-1], ""


def replay(rules: Rules, names: Sequence[str], options: dict[str, Any] | None, seed: int,
           log: Sequence[Move]) -> GameState:
    """The game rebuilt from its seed and log (with the log recorded on the state)."""
    state = new_game(rules, list(names), options, seed)
    for move in log:
        apply(state, _action(move))
    return state
