"""What one seat's phone shows: the seat's own view of the game, its things drawn as cards,
whose turn it is, and the moves it may make now with the table's own words.

Everything here is read from `engine.view_for` for that seat (and the engine's lists of
moves, which are the seat's own when the game waits on it), so a phone can never be sent
what its seat may not see. Pure data in, JSON-ready data out: no pygame, no network.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from ..engine import PASS, Action, GameState, arg_values, is_subset, markable, view_for
from ..table.choice import Chooser, item_label

if TYPE_CHECKING:
    from ..table.session import TableSession

MAX_MOVES = 400  # a phone lists at most this many moves (grouped); the rest wait a step
# Every payload made gets the next number: a page knows a newer one from an older one (and
# a test waits for it) without comparing what they show.
_SERIAL = itertools.count(1)


def jsonable(value: Any) -> Any:
    """Tuples as lists, keys as text: what JSON can carry."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def hex_colour(rgb: tuple[int, int, int]) -> str:
    """(62, 155, 79) -> '#3e9b4f'."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def turn_words(session: TableSession, seat: int) -> str:
    """Whose turn it is, as this seat reads it: "Your turn", "Ben's turn", "Ann may
    respond", "The game is over"."""
    state = session.state
    if state.game_over:
        return "The game is over"
    deciding = session.deciding
    if deciding != state.current and state.pending:
        asked = "may respond" if state.pending[-1].get("kind") == "window" else "is asked"
        if deciding == seat:
            return "You may respond" if asked == "may respond" else "You are asked"
        return f"{session.name(deciding)} {asked}"
    return "Your turn" if deciding == seat else f"{session.name(deciding)}'s turn"


def _cards(state: GameState, seat: int, zone: str, content: list[Any]) -> list[dict[str, Any]]:
    rules = state.rules
    out: list[dict[str, Any]] = []
    for item_id, kind, face in content:
        if kind is None:
            out.append({"id": None, "kind": None, "label": "Face down", "text": "",
                        "face": None, "hidden": True})
            continue
        idef = rules.items.get(kind)
        out.append({"id": item_id, "kind": kind, "label": item_label(rules, kind),
                    "text": idef.text if idef is not None else "",
                    "face": None if face is None else str(face).replace("_", " "),
                    "hidden": False})
    return out


def _board_space(state: GameState, zname: str) -> dict[str, Any]:
    """For a zone that is one space of a seat's own board (`ranch@s3`): the board's label
    and the space's name, so a page can show the whole board as one row; else nulls."""
    board_id, sep, space = zname.partition("@")
    board = state.rules.boards.get(board_id) if sep else None
    if board is None:
        return {"board": None, "board_label": None, "space": None}
    return {"board": board_id, "board_label": board.label or board_id.capitalize(),
            "space": " ".join(w[:1].upper() + w[1:] for w in space.split("_"))}


def own_zones(state: GameState, seat: int, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat's own zones (its hand, its bonus cards, what lies in front of it), each
    with its items as the seat sees them; zones it cannot see inside give their size. A
    space of the seat's own board names its board and space (`board`, `space`)."""
    out: list[dict[str, Any]] = []
    for zname, zdef in state.rules.zones.items():
        if not zdef.per_player:
            continue
        mine = view["zones"][zname][seat]
        label = zdef.label or zname.replace("_", " ").capitalize()
        where = _board_space(state, zname)
        # Private: only this seat may read them (a hand, or cards lying face down to others).
        private = zdef.visible != "all" or zdef.face == "down"
        if isinstance(mine, dict):
            out.append({"id": zname, "label": label, "private": private,
                        "size": mine["size"], "cards": [], **where})
            continue
        out.append({"id": zname, "label": label, "private": private,
                    "size": len(mine), "cards": _cards(state, seat, zname, mine), **where})
    return out


def _label(chooser: Chooser, action: Action) -> str:
    """A move's words, as on the table's bar ("Bid three 4s", "Bid \u2014 count 3, face 4")."""
    return chooser.move_words(action)


def _marking(state: GameState, chooser: Chooser, seat: int, action_id: str
             ) -> list[dict[str, Any]]:
    """An action that takes a set of items (the dice to roll again): one entry for each way
    of choosing the arguments before the set, with the items that may be marked."""
    adef = state.rules.actions[action_id]
    first = next(i for i, a in enumerate(adef.args) if is_subset(a))
    bounds: list[dict[str, Any]] = [{}]
    for arg in adef.args[:first]:
        bounds = [dict(b, **{arg.name: v}) for b in bounds
                  for v in arg_values(state, seat, action_id, b)]
    out = []
    for bound in bounds:
        items = markable(state, seat, action_id, bound)
        if not items:
            continue
        named = [f"{chooser.value_name(a, bound[a.name])}" for a in adef.args[:first]]
        out.append({
            "label": f"{adef.label}: {', '.join(named)}" if named else adef.label,
            "group": adef.label, "enabled": True, "reason": "", "act": None,
            "mark": {"id": action_id, "arg": adef.args[first].name, "bound": jsonable(bound),
                     "items": [{"id": i, "label": chooser.value_name(adef.args[first], i)}
                               for i in items]}})
    return out


def seat_moves(session: TableSession, seat: int) -> list[dict[str, Any]]:
    """The moves this seat may make now, as the phone's buttons: each a whole move (its id
    and arguments), a set of items to mark, or greyed with the table's reason. Empty
    unless the game waits on this seat."""
    state = session.state
    if state.game_over or session.deciding != seat:
        return []
    chooser = Chooser(state, session.names)
    if chooser.seat != seat:
        return []
    out: list[dict[str, Any]] = []
    for action in chooser.legal[:MAX_MOVES]:
        out.append({"label": _label(chooser, action),
                    "group": state.rules.actions[action.id].label, "enabled": True,
                    "reason": "", "act": {"action": action.id, "args": jsonable(dict(action.args))},
                    "mark": None})
    for adef in chooser.partial:
        out += _marking(state, chooser, seat, adef.id)
    # The table's greyed buttons (Stop before any roll), with the reason it gives.
    for choice in chooser.choices():
        if not choice.enabled and choice.action is not None:
            out.append({"label": choice.label, "group": choice.label, "enabled": False,
                        "reason": choice.reason, "act": None, "mark": None})
    if state.pending and state.pending[-1].get("kind") == "window":
        # Asked to respond, most people pass: Pass comes first.
        out.sort(key=lambda m: not (m["act"] and m["act"]["action"] == PASS))
    return out


def _faces(state: GameState, view: dict[str, Any]) -> dict[str, str]:
    """The face each item shows, as this seat's view has it (a die's "four"): only what
    the seat may see, since the view has nothing else."""
    out: dict[str, str] = {}
    for zname, shown in view["zones"].items():
        for content in shown if state.rules.zones[zname].per_player else [shown]:
            if isinstance(content, list):
                for item_id, _kind, face in content:
                    if item_id is not None and face is not None:
                        out[item_id] = str(face).replace("_", " ")
    return out


def seat_payload(session: TableSession, seat: int, *, colours: list[str],
                 phones: set[int], lines: list[str], prompt: str, title: str
                 ) -> dict[str, Any]:
    """Everything one seat's phone shows, as JSON-ready data."""
    state = session.state
    view = view_for(state, seat)
    players = []
    for s, name in enumerate(session.names):
        score = view["scores"][s]
        players.append({"seat": s, "name": name, "colour": colours[s % len(colours)],
                        "score": score, "bot": session.is_bot(s), "phone": s in phones})
    moves = seat_moves(session, seat)
    if any(m["mark"] for m in moves):
        # Items to tick are told apart by the face they show (five dice, each a "Die").
        faces = _faces(state, view)
        for m in moves:
            for item in m["mark"]["items"] if m["mark"] else []:
                item["face"] = faces.get(item["id"])
    deciding = None if state.game_over else session.deciding
    # The words the phone's Undo answers with, as at the laptop ("The game is over.").
    undo = session.undo_reason(remote=True) if deciding == seat or state.game_over else (
        "It is not your move")
    undo = f"{undo}." if undo and not undo.endswith(".") else undo
    return {
        "version": next(_SERIAL),
        # Changes with every move taken or taken back: a page that sent a move knows the
        # view that shows it taken.
        "move_count": len(state.log),
        "seat": seat, "name": session.name(seat), "colour": colours[seat % len(colours)],
        "game": {"id": state.rules.id, "title": title},
        "players": players,
        "turn": {"seat": deciding, "yours": deciding == seat,
                 "words": turn_words(session, seat)},
        "prompt": prompt if deciding == seat else "",
        "round": state.round,
        "zones": own_zones(state, seat, view),
        "moves": moves,
        "undo": {"enabled": not undo, "reason": undo},
        "lines": list(lines),
        "game_over": state.game_over,
        "winners": [session.name(w) for w in state.winners],
        "view": jsonable(view),
    }
