"""What a move would do to the dice on show, for a front end to point at before it is
taken: the dice it would spend (move away from where they lie, as paying a cost does),
throw again, or turn to another face (a negated dinosaur turning blank).

Worked out by playing the move on a copy of the game, so it holds for any ruleset; only
what happens before the turn ends counts (a move that ends the turn clears the table, and
that is no choice of the player's).
"""

from __future__ import annotations

from dataclasses import dataclass

from .flow import apply
from .state import Action, GameState


@dataclass(frozen=True)
class DiceTouched:
    """The ids of the dice a move would spend, throw and turn."""

    spent: tuple[str, ...] = ()
    thrown: tuple[str, ...] = ()
    turned: tuple[str, ...] = ()


def dice_touched(state: GameState, action: Action) -> DiceTouched:
    """The dice `action` would spend, throw or turn (none when the rules refuse it)."""
    copy = GameState.from_dict(state.rules, state.to_dict())
    try:
        events = apply(copy, action)
    except Exception:  # an illegal or failing move touches nothing: the table says why
        return DiceTouched()
    dice = state.rules.dice
    spent: list[str] = []
    thrown: list[str] = []
    turned: list[str] = []
    for event in events:
        if event.kind == "turn_ended":
            break
        if event.kind == "moved":
            spent += [i for i, k in zip(event.data.get("items") or [],
                                        event.data.get("kinds") or [], strict=False)
                      if k in dice and i is not None]
        elif event.kind in ("rolled", "faces_set"):
            ids = [entry[0] for entry in event.data.get("dice") or []]
            (thrown if event.kind == "rolled" else turned).extend(ids)
    return DiceTouched(*(tuple(dict.fromkeys(ids)) for ids in (spent, thrown, turned)))
