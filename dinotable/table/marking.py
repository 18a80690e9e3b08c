"""Choosing by marking things on the table: the dice a faces argument names, the items a
subset argument takes, and what a chosen move would do to the dice (the dice that pay for
a card, the dinosaurs a move would turn). `Chooser` (`table/choice.py`) is built on it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from ..engine import (
    Action,
    ActionDef,
    ArgDef,
    GameState,
    Rules,
    dice_touched,
    faces_dice,
    in_face_order,
    is_subset,
    markable,
    why_illegal,
)


def by_faces(arg: ArgDef) -> bool:
    """Whether an argument names dice by their faces (chosen by clicking dice)."""
    return arg.domain == "faces_of"


def marked_by_hand(arg: ArgDef) -> bool:
    """Whether an argument is built by marking things on the table (a set of items, or
    dice named by their faces) rather than chosen from a list."""
    return is_subset(arg) or by_faces(arg)


@dataclass
class Building:
    """An action being chosen a step at a time: the arguments so far, the items marked."""

    adef: ActionDef
    bound: dict[str, Any] = field(default_factory=dict)
    marked: list[str] = field(default_factory=list)
    payable: bool = True  # False: no subset found that pays for what was chosen
    # Among many numbers (thirty counts), the span chosen first ("7-12"): its numbers next.
    span: tuple[int, int] | None = None

    @property
    def next_arg(self) -> ArgDef | None:
        """The first argument not chosen yet."""
        return next((a for a in self.adef.args if a.name not in self.bound), None)


class DiceMarks:
    """The marking half of a `Chooser`: what may be marked, what is, and what the move
    chosen would spend or turn."""

    state: GameState
    rules: Rules
    seat: int | None
    building: Building | None
    legal: list[Action]
    partial: list[ActionDef]
    version: int
    ready: tuple[Action, Any] | None
    previewed: tuple[Action, tuple[str, ...]] | None
    turning: tuple[int, tuple[str, ...]] | None

    def _action(self, b: Building, extra: dict[str, Any]) -> Action:
        return Action(self.seat or 0, b.adef.id, tuple(sorted({**b.bound, **extra}.items())))

    def pieces(self, arg: ArgDef | None, n: int = 2) -> str:
        """What a faces argument's zone holds, in words: "dice", "a token", "tokens"."""
        domain = getattr(getattr(arg, "values", None), "__self__", None)
        zone = self.rules.zones.get(str(getattr(domain, "zone", "")))
        holds = zone.holds if zone is not None else "dice"
        if n != 1:
            return "things" if holds == "items" else holds
        return {"dice": "die", "items": "thing"}.get(holds, holds.rstrip("s"))

    def confirm_label(self, b: Building) -> str:
        """The confirm button's words while dice are chosen: "Reroll 2 dice"."""
        n = len(b.marked)
        return f"{b.adef.label} {n} {self.pieces(b.next_arg, n)}" if n else b.adef.label

    def faces_marked(self, b: Building) -> tuple[Any, ...]:
        """The faces of the dice marked, spelt as the engine lists the argument."""
        faces = {i: f for i, f in self.dice_for(b)}
        return in_face_order(self.rules, [faces[i] for i in b.marked if i in faces])

    def dice_for(self, b: Building) -> list[tuple[str, Any]]:
        """The dice (id, face) a faces argument being built may mark."""
        arg = b.next_arg
        if arg is None or self.seat is None:
            return []
        return faces_dice(self.state, self.seat, arg) or []

    def paying(self) -> tuple[str, ...]:
        """The dice the move a click chose would spend (the dice that pay for the card),
        to glow before it is confirmed."""
        if self.ready is None:
            return ()
        if self.previewed is None or self.previewed[0] != self.ready[0]:
            self.previewed = (self.ready[0], dice_touched(self.state, self.ready[0]).spent)
        return self.previewed[1]

    def threatened(self) -> tuple[str, ...]:
        """The dice a move on the bar would turn to another face (the dinosaurs Mammoth
        Bones would negate), shown while the seat is asked whether to."""
        if self.building is not None or self.ready is not None:
            return ()
        if self.turning is None or self.turning[0] != self.version:
            turned: dict[str, None] = {}
            for action in self.legal:
                if not action.args:
                    turned.update(dict.fromkeys(dice_touched(self.state, action).turned))
            self.turning = (self.version, tuple(turned))
        return self.turning[1]

    def dice_showing(self, b: Building, faces: tuple[Any, ...]) -> list[str]:
        """Dice showing these faces, one per face, the first in zone order."""
        out: list[str] = []
        dice = self.dice_for(b)
        for face in faces:
            pick = next((i for i, f in dice if f == face and i not in out), None)
            if pick is not None:
                out.append(pick)
        return out

    def assign(self, arg: ArgDef, limit: int = 4096) -> list[str]:
        """A subset the rules accept for the argument (the fewest items first): the dice
        that pay for the card chosen, marked for the player to see and confirm or change.
        Empty when none does (or none is found among the first `limit` tried)."""
        b = self.building
        if b is None:
            return []
        items = self.markable(arg)
        tried = 0
        for size in range(1, len(items) + 1):
            for group in itertools.combinations(items, size):
                tried += 1
                if tried > limit:
                    return []
                if why_illegal(self.state, self._action(b, {arg.name: group})) is None:
                    return list(group)
        return []

    def markable(self, arg: ArgDef) -> list[str]:
        """The items a subset argument may mark: those of its zone (the seat's own copy)
        that pass its `where`; whether the marked ones together are allowed is asked on
        confirming."""
        b = self.building
        if self.seat is not None and by_faces(arg):
            return [i for i, _ in faces_dice(self.state, self.seat, arg) or []]
        if self.seat is None or not is_subset(arg):
            return []
        if b is None:  # the first argument of an action not begun yet
            adef = next(a for a in self.partial if arg in a.args)
            return markable(self.state, self.seat, adef.id)
        return markable(self.state, self.seat, b.adef.id, b.bound)

    def _ordered(self, arg: ArgDef, marked: list[str]) -> list[str]:
        order = self.markable(arg)
        return [i for i in order if i in marked]
