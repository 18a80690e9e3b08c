"""The log of a game played on from a save (Continue, or a save opened): its last moves
told again in the table's words, so the players see what happened before they left.

Cheap: the engine plays the moves again without building events, except for the last few,
whose events become lines as the table's playback would write them (`table/playback.py`);
no dice are thrown and nothing is animated. Everything is told as anyone at the table may
hear it: "Ben draws a card", never which (the laptop may be anyone's now).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import Action, Event, GameState, apply, new_game, redact
from ..narrate import LAST_ROUND, describe, move_line
from ..table.playback import DICE_EVENTS
from ..table.sprites import dice_words

if TYPE_CHECKING:
    from .table import TableScene

MOVES = 12  # the moves told again: a few turns back, what a log panel shows and a bit more


def past_lines(table: TableScene, moves: int = MOVES) -> list[str]:
    """The table's log lines for the last `moves` moves of the game it plays on, ending
    with a line that says the game goes on; [] when it has no moves or they cannot be
    played again."""
    actions: list[Action] = list(table.state.log)
    if not actions:
        return []
    names = [seat.name for seat in table.seats]
    try:
        state = new_game(table.rules, names, table.options, table.seed)
        lines: list[str] = []
        first_told = len(actions) - moves
        for n, action in enumerate(actions):
            if n < first_told:
                apply(state, action, record=False)  # only the position matters
                continue
            who = state.current
            events = apply(state, action)
            lines.append(move_line(events, table.rules.actions[action.id].label,
                                   names[action.player]))
            lines += move_lines(table, state, redact(events, None, state), names, who)
    except Exception:  # the log is a kindness: a game that plays on needs none of it
        return []
    lines.append(f"Welcome back: the game goes on with {names[table.state.current]}.")
    return lines


def move_lines(table: TableScene, state: GameState, events: list[Event], names: list[str],
               who: int) -> list[str]:
    """One move's events as the table's log tells them (`who`: the player whose turn it
    was when the move began)."""
    told_in_words = any(e.kind == "said" for e in events)
    sprite_zones = table.sprite_zones
    lines: list[str | None] = []
    for event in events:
        data, kind = event.data, event.kind
        if kind == "turn_started" and event.seat is not None:
            who = event.seat
            lines.append(f"--- {names[who]}'s turn ---")
        elif kind in DICE_EVENTS and (data.get("hidden") or not (
                {data.get("from"), data.get("to"), data.get("zone")} & sprite_zones)):
            if not (kind == "rolled" and told_in_words):
                lines.append(describe(event, state, None, table.rules))
        elif kind == "drew":  # dice taken from the cup into the tray
            where = table.layout.source_label.lower() or "cup"
            lines.append(f"{names[who]} takes {dice_words(len(data['items']))} from the "
                         f"{where}.")
        elif kind == "rolled":
            shown = ", ".join(table.face_label(face) for _, _, face in data["dice"])
            lines.append(f"{names[who]} rolls: {shown}.")
        elif kind == "said" or (kind == "asked" and data.get("prompt")):
            lines.append(str(data.get("text") or data.get("prompt")))
        elif kind == "window_opened":
            lines.append(f"{names[int(data['asking'])]} may respond.")
        elif kind == "last_round":
            lines.append(LAST_ROUND.get(str(data.get("then")), "The end of the game has begun."))
        elif kind == "tiebreak":
            tied = " and ".join(names[s] for s in data["seats"])
            lines.append(f"A tie! {tied} play a tiebreaker round.")
        elif kind in ("attached", "shown"):
            lines.append(describe(event, state, None, table.rules))
    return [line for line in lines if line]
