"""Read a value from a game state by a dotted path, as scenarios' `expect: state` does.

Paths every ruleset answers (NAME is a player's name, ZONE a zone, KIND a die
kind, FACE a face, VAR a variable):

- `round`, `turns`, `last_round`, `tiebreak`, `game_over`, `phase`
- `turn.VAR`, `game.VAR`, `options.NAME`
- `players.NAME.VAR`, `players.NAME.score`, `players.NAME.out`, `players.NAME.knocked_out`
- one value of an indexed variable: `players.NAME.VAR.KEY`, `game.VAR.KEY`, `turn.VAR.KEY`
- `zones.ZONE.size`, `zones.ZONE.KIND` (a die, card, tile or token kind),
  `zones.ZONE.faces.FACE`, `zones.ZONE.items`, `zones.ZONE.top` (the kind showing on
  top, '' when none does), `zones.ZONE.attached` (items attached to the items there)
- for a per-player zone: `zones.ZONE.NAME.size` (and `.KIND`, `.faces.FACE`, `.items`),
  or the same under `players.NAME.zones.ZONE`
"""

from __future__ import annotations

import re
from typing import Any

from .attach import attached_in
from .indexed import keys_text
from .stacks import top_kind
from .state import GameState

_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]*\b")
_FLAGS = ("round", "turns", "last_round", "tiebreak", "game_over", "phase")


class PathError(KeyError):
    """A state path that does not name anything in this game."""

    def __str__(self) -> str:
        return str(self.args[0])


def state_value(state: GameState, path: str) -> Any:
    """The value at `path` (see the module doc); PathError when it names nothing.

    A ruleset's own `state_aliases` are tried first: a path matching an alias pattern is
    read at the alias's target, its placeholders filled in from the path.
    """
    target = alias_target(state.rules.state_aliases, path)
    if target is not None:
        try:
            # A target may name a sum of paths (`A + B`): their values added up.
            parts = [_generic_value(state, t.strip()) for t in target.split("+")]
            return parts[0] if len(parts) == 1 else sum(parts)
        except PathError as e:
            raise PathError(f"{path!r} (the alias of {target!r}): {e}") from None
    return _generic_value(state, path)


def alias_target(aliases: tuple[tuple[str, str], ...], path: str) -> str | None:
    """The generic path an alias makes of `path`, or None when no alias pattern matches.

    A pattern's CAPITAL parts match any one part of the path; the target gets those parts
    in place of the same placeholders (`track.PERIOD` -> `zones.track@PERIOD.size`).
    """
    parts = path.split(".")
    for pattern, target in aliases:
        pparts = pattern.split(".")
        if len(pparts) != len(parts):
            continue
        bound: dict[str, str] = {}
        for want, got in zip(pparts, parts, strict=True):
            if want.isupper():
                bound[want] = got
            elif want != got:
                break
        else:
            return _fill(target, bound)
    return None


def _keyed_value(table: dict[str, Any], var: str, key: str, path: str) -> Any:
    """The value at KEY of the indexed variable VAR (KEY as the path writes it: `7`)."""
    values = table.get(var)
    if not isinstance(values, dict):
        raise PathError(f"{path!r}: {var!r} is not a variable with keys" if var in table else
                        f"{path!r}: no variable {var!r}; there are {sorted(table)}")
    for k, v in values.items():
        if str(k) == key:
            return v
    raise PathError(f"{path!r}: {var} has no key {key!r}; its keys are "
                    f"{keys_text(list(values))}")


def _fill(target: str, bound: dict[str, str]) -> str:
    """The target path with each placeholder replaced by the part it matched."""
    return _PLACEHOLDER.sub(lambda m: bound.get(m.group(0), m.group(0)), target)


def _generic_value(state: GameState, path: str) -> Any:
    parts = path.split(".")
    head = parts[0]
    if head in _FLAGS and len(parts) == 1:
        return getattr(state, head)
    if head in ("turn", "game") and len(parts) == 3:  # one value of an indexed variable
        table = state.turn_vars if head == "turn" else state.game_vars
        return _keyed_value(table, parts[1], parts[2], path)
    if head in ("turn", "game", "options") and len(parts) == 2:
        table = {"turn": state.turn_vars, "game": state.game_vars, "options": state.options}[head]
        if parts[1] in table:
            return table[parts[1]]
        raise PathError(f"{path!r}: no {head} value {parts[1]!r}; there are {sorted(table)}")
    if head == "players" and len(parts) >= 3:
        seat = _seat(state, parts[1], path)
        rest = parts[2:]
        if rest[0] == "zones" and len(rest) >= 3:
            return _zone_value(state, rest[1], seat, rest[2:], path)
        if len(rest) == 2 and rest[0] in state.player_vars[seat]:
            return _keyed_value(state.player_vars[seat], rest[0], rest[1], path)
        if len(rest) == 1:
            if rest[0] == "score":
                return state.score(seat)
            if rest[0] == "out":
                return state.out[seat]
            if rest[0] == "knocked_out":
                return state.knocked[seat]
            if rest[0] in state.player_vars[seat]:
                return state.player_vars[seat][rest[0]]
        raise PathError(f"{path!r}: players have {sorted(state.player_vars[seat])}, "
                        "score, out, knocked_out and zones.ZONE")
    if head == "zones" and len(parts) >= 3:
        zname = parts[1]
        board = state.rules.boards.get(zname)
        if board is not None:
            seat = _seat(state, parts[2], path) if board.per_player else 0
            return _zone_value(state, zname, seat, parts[3 if board.per_player else 2:], path)
        if zname not in state.zones:
            raise PathError(f"{path!r}: no zone {zname!r}; there are {sorted(state.zones)}")
        if state.rules.zones[zname].per_player:
            return _zone_value(state, zname, _seat(state, parts[2], path), parts[3:], path)
        return _zone_value(state, zname, 0, parts[2:], path)
    raise PathError(f"{path!r} is not a state path (see the ruleset's state_paths)")


def _seat(state: GameState, name: str, path: str) -> int:
    if name not in state.players:
        raise PathError(f"{path!r}: no player {name!r}")
    return state.players.index(name)


def _zone_value(state: GameState, zname: str, seat: int, rest: list[str], path: str) -> Any:
    board = state.rules.boards.get(zname)
    if board is not None:  # a board stands for the items on all its spaces, space by space
        return _listed_value(state, [i for s in board.spaces
                                     for i in state.zone(f"{zname}@{s}", seat)], rest, path)
    if zname not in state.zones:
        raise PathError(f"{path!r}: no zone {zname!r}")
    return _listed_value(state, state.zone(zname, seat), rest, path)


def _listed_value(state: GameState, listed: list[int], rest: list[str], path: str) -> Any:
    items = [state.items[i] for i in listed]
    if rest == ["size"]:
        return len(items)
    if rest == ["items"]:
        return [it.id for it in items]
    if rest == ["top"]:  # the kind showing on top ('' when none does): see stacks.py
        return top_kind(state, listed)
    if rest == ["attached"]:  # items attached to the items there: see attach.py
        return attached_in(state, listed)
    if len(rest) == 2 and rest[0] == "faces":
        face = _face(state, rest[1], path)
        return sum(1 for it in items if it.face == face)
    if len(rest) == 1 and (rest[0] in state.rules.dice or rest[0] in state.rules.items):
        return sum(1 for it in items if it.kind == rest[0])
    raise PathError(f"{path!r}: a zone answers size, items, top, attached, KIND or "
                    "faces.FACE")


def _face(state: GameState, written: str, path: str) -> Any:
    """The face a path names: a face id, or the number of a die whose faces are numbers.

    A face no die has is an error, so a misspelt expectation fails rather than reading 0.
    """
    faces: list[Any] = []
    for die in state.rules.dice.values():
        faces += [f for f in die.faces if f not in faces]
    for face in faces:
        if str(face) == written:
            return face
    raise PathError(f"{path!r}: no face {written!r}; the dice have faces "
                    f"{', '.join(map(str, faces)) or '(none)'}")
