"""Events in words, for the table's log and the terminal alike, as one seat may hear them.

The engine's events are records; this turns each into a sentence (or None when it needs no
words) for a viewer, after hiding what that viewer may not know (`engine.redact`): "Ben
draws a card from the deck" for the others, "Ben draws ruby from the deck" for Ben.
Game-specific sentences are the ruleset's own (`say` effects): they come through as said.
Presentation only: no pygame here, so the terminal and the window share it.
"""

from __future__ import annotations

from typing import Any

from .engine import Event, GameState, redact

# What a zone holds, one and many, for events that hide which items they were.
NOUNS = {"dice": ("die", "dice"), "cards": ("card", "cards"), "tiles": ("tile", "tiles"),
         "tokens": ("token", "tokens")}


# The end trigger held after a turn: what happens next, in the words of the ruleset's `end`
# (a game's own sentence, such as who reached a goal, belongs in its `say` effects).
LAST_ROUND = {
    "finish_round": "The end has begun: this round is played to its end.",
    "last_turns": "The end has begun: everyone else gets one last turn.",
    "ends": "The end has come.",
}


def describe(event: Event, table: GameState | dict[str, Any], viewer: int | None
             ) -> str | None:
    """One line about an event as `viewer` may hear of it (None: a spectator).

    `table` is the game (its rules hide what the viewer may not see) or a view from
    `engine.view_for`; with a view, the event must already be redacted for the viewer,
    as a front end that holds only views receives them.
    """
    if isinstance(table, GameState):
        event = redact([event], viewer, table)[0]
        players = table.players
    else:
        players = list(table["players"])
    name = players[event.seat] if event.seat is not None else ""
    data = event.data
    kind = event.kind
    if kind == "said":
        return str(data["text"])
    if kind == "drew":
        if data.get("hidden"):
            return f"{name} draws {_some(data)} from the {data['from']}."
        return f"{name} draws {', '.join(data['kinds'])} from the {data['from']}."
    if kind == "rolled":
        if data.get("hidden"):
            return f"{name} rolls {_some(data)} out of sight."
        shown = ", ".join(f"{k} {face}" for _, k, face in data["dice"])
        return f"{name} rolls: {shown}."
    if kind == "turn_started":
        return f"--- {name}'s turn ---"
    if kind == "asked":
        return str(data.get("prompt") or f"{name} has a choice to make.")
    if kind == "window_opened":
        return f"{players[data['asking']]} may respond."
    if kind == "flipped":
        if data.get("face_up"):
            return f"{name} turns over {', '.join(data['face_up'])}."
        count = int(data.get("face_down", 0))
        return f"{name} turns {count} face down." if count else None
    if kind == "last_round":
        return LAST_ROUND.get(str(data.get("then")), "The end of the game has begun.")
    if kind == "tiebreak":
        tied = " and ".join(players[s] for s in data["seats"])
        return f"A tie! {tied} play a tiebreaker round."
    if kind == "game_over":
        return "Game over! Winner: " + " and ".join(players[s] for s in data["winners"])
    return None


def _some(data: dict[str, Any]) -> str:
    """'a card', '2 cards': how many items, named by what their zone holds."""
    one, many = NOUNS.get(str(data.get("holds")), ("item", "items"))
    count = int(data.get("count", 0))
    if count == 1:
        return f"{'an' if one[0] in 'aeiou' else 'a'} {one}"
    return f"{count} {many}"
