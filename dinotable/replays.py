"""A saved or finished game, move by move: the data a replay viewer steps through.

A save is a seed and a log, so a replay is the game played again with the events kept:
one `Step` per move, each with the position after it (a `to_dict` snapshot, less the moves
the steps hold already, that the viewer turns back into a state with `Replay.state_at`),
the turn and round it was played in, and what happened, in events and in words. No pygame
here: the viewer scene and `dinotable replay FILE --text` share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engine import Action, Event, GameState, IllegalAction, apply, new_game
from .ruleset import LoadError, Problem, Rules, load_by_id
from .saves import SavedGame, check_version, end_refused, move_refused


@dataclass
class Step:
    """One position of a replay: the start (move 0) or the position after a move."""

    move: int  # 0 for the start, then 1, 2, ...
    round: int  # the round and turn the move was played in (for the start: the first)
    turn: int  # counts turns across the game: "jump to turn 7" finds its first step
    seat: int | None  # who moved (None for the start)
    action: Action | None
    events: list[Event]
    snapshot: dict[str, Any] = field(repr=False)


@dataclass
class Replay:
    """A whole game, position by position."""

    rules: Rules
    players: list[str]
    steps: list[Step]

    def state_at(self, index: int) -> GameState:
        """The game as it stood at step `index` (0: before the first move)."""
        state = GameState.from_dict(self.rules, self.steps[index].snapshot)
        state.log = [step.action for step in self.steps[1:index + 1] if step.action]
        return state

    def step_of_turn(self, turn: int) -> int:
        """The first step at or after the start of turn `turn` (the last step if past it)."""
        for i, step in enumerate(self.steps):
            if step.turn >= turn:
                return i
        return len(self.steps) - 1

    def lines(self, index: int) -> list[str]:
        """What happened in step `index`, in words, as everyone sees it after the game."""
        from .narrate import describe

        table = {"players": self.players}
        out = []
        for event in self.steps[index].events:
            if event.kind == "action":
                continue
            line = describe(event, table, None)  # unredacted: after the game, all is shown
            if line:
                out.append(line)
        return out


def replay_of(game: SavedGame) -> Replay:
    """Every position of a saved game, move by move (LoadError if it cannot be replayed)."""
    rules = load_by_id(game.ruleset)
    check_version(game, rules)
    where = f"the saved {rules.name} game"
    names = [s.name for s in game.seats]
    try:
        state = new_game(rules, names, game.options, game.seed)
    except (ValueError, TypeError) as exc:
        raise LoadError([Problem(where, 1, 1, "(setup)", str(exc)[:200])]) from None
    steps = [Step(0, state.round, state.turns, None, None, [], state.to_dict(log=False))]
    for n, (player, action_id, args) in enumerate(game.log, start=1):
        action = Action(player, action_id, args)
        rnd, turn = state.round, state.turns  # the round and turn the move was played in
        if state.game_over:
            raise move_refused(game, rules, n - 1, "comes after the game ended")
        try:
            events = apply(state, action)
        except (IllegalAction, ValueError, TypeError, KeyError, IndexError) as exc:
            raise move_refused(game, rules, n - 1, f"cannot be replayed: "
                                                   f"{str(exc)[:200]}") from None
        steps.append(Step(n, rnd, turn, player, action, events, state.to_dict(log=False)))
    ending = end_refused(game, rules, state)
    if ending is not None:
        raise ending
    return Replay(rules, names, steps)


def narration(game: SavedGame) -> list[str]:
    """The whole game in words, move by move, with the move and turn numbers."""
    replay = replay_of(game)
    out = [f"{replay.rules.name}, with {', '.join(replay.players)} (seed {game.seed})"]
    for i, step in enumerate(replay.steps[1:], start=1):
        who = replay.players[step.seat] if step.seat is not None else ""
        out.append(f"[move {step.move}, round {step.round}, turn {step.turn}] {who}: "
                   f"{step.action}")
        out.extend(f"    {line}" for line in replay.lines(i))
    return out
