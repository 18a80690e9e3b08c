"""The spaces of boards each player has, as a click chooses them: every space a move may
name, on the board of the player it belongs to (one's own ranch, or another player's where
a card allows), and what a click on one does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import Action, GameState, Rules, space_owners
from .marking import Building

SPACE = "@"  # a board space is the zone BOARD@SPACE


@dataclass(frozen=True)
class Target:
    """Something on the table a click can hit: an item (id), a space (BOARD@SPACE) or a
    seat; a space of a board each player has names whose board it is on (`owner`)."""

    kind: str  # item | space | seat
    value: Any
    owner: int | None = None


class BoardSpaces:
    """The board half of a `Chooser`: spaces offered on whoever's board they lie on."""

    state: GameState
    rules: Rules
    building: Building | None
    legal: list[Action]
    seat: int | None

    def _board_offers(self) -> list[tuple[Target, Action]]:
        """Each space a click may choose now, with a move it belongs to. While a move is
        being built, the spaces of its next argument; else the spaces of a move's first
        argument, or of the first one after the players it names (whose board)."""
        b = self.building
        out: list[tuple[Target, Action]] = []
        for action in self.legal:
            args = dict(action.args)
            if b is not None and (action.id != b.adef.id or any(
                    args.get(k) != v for k, v in b.bound.items())):
                continue
            owners = space_owners(self.state, action)
            if not owners:
                continue
            adef = self.rules.actions[action.id]
            if b is not None:
                arg = b.next_arg
            else:
                arg = next((a for a in adef.args if not a.is_player), None)
            if arg is None or arg.name not in owners or not self.rules.boards[arg.board].cols:
                continue  # a board drawn as a grid each (a track keeps its own clicks)
            zone = f"{arg.board}{SPACE}{args[arg.name]}"
            out.append((Target("space", zone, owners[arg.name]), action))
        return out

    def with_boards(self, found: set[Target]) -> set[Target]:
        """What a click would choose now, each space of a board each player has named with
        whose board it is on (drawn with a glow there)."""
        boards = self.rules.boards
        offers = {target for target, _ in self._board_offers()}
        out = set(offers)
        for t in found:
            board = boards[str(t.value).split(SPACE)[0]] if t.kind == "space" else None
            if board is None or t.owner is not None or not (board.per_player and board.cols):
                out.add(t)
            elif not offers:  # a move built a step at a time: on the chooser's own board
                out.add(Target("space", t.value, self.seat))
        return out

    def board_click(self, target: Target) -> Action | None:
        """A click on a space of a player's board: the move, when only one fits; else the
        move begun with what every fitting one shares (the rest is chosen next)."""
        fits = [action for t, action in self._board_offers() if t == target]
        if not fits:
            return None
        if len(fits) == 1:
            self.building = None
            return fits[0]
        shared: dict[str, Any] = dict(fits[0].args)
        for action in fits[1:]:
            shared = {k: v for k, v in shared.items() if dict(action.args).get(k) == v}
        self.building = Building(self.rules.actions[fits[0].id], shared)
        return None
