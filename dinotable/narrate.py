"""Events in words, for the table's log and the terminal alike, as one seat may hear them.

The engine's events are records; this turns each into a sentence (or None when it needs no
words) for a viewer, after hiding what that viewer may not know (`engine.redact`): "Ben
draws a card from the deck" for the others, "Ben draws ruby from the deck" for Ben.
Game-specific sentences are the ruleset's own (`say` effects): they come through as said.
Presentation only: no pygame here, so the terminal and the window share it.
"""

from __future__ import annotations

from typing import Any

from .engine import Event, GameState, Rules, redact, said_by

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


def describe(event: Event, table: GameState | dict[str, Any], viewer: int | None,
             rules: Rules | None = None) -> str | None:
    """One line about an event as `viewer` may hear of it (None: a spectator).

    `table` is the game (its rules hide what the viewer may not see) or a view from
    `engine.view_for`; with a view, the event must already be redacted for the viewer,
    as a front end that holds only views receives them. `rules` (taken from the game when
    `table` is one) names cards and zones by their labels.
    """
    if isinstance(table, GameState):
        event = redact([event], viewer, table)[0]
        players = table.players
        rules = rules or table.rules
    else:
        players = list(table["players"])
    name = players[event.seat] if event.seat is not None else ""
    data = event.data
    kind = event.kind
    if kind == "said":
        return str(data["text"])
    if kind == "drew":
        where = zone_words(rules, str(data["from"]))
        if data.get("hidden"):
            return f"{name} draws {_some(data)} from the {where}."
        drawn = ", ".join(item_words(rules, k) for k in data["kinds"])
        return f"{name} draws {drawn} from the {where}."
    if kind == "rolled":
        if data.get("hidden"):
            return f"{name} rolls {_some(data)} out of sight."
        faces = [face for _, _, face in data["dice"]]
        if len(faces) == 1 and isinstance(faces[0], int):
            return f"{name} rolls {'an' if faces[0] in (8, 11, 18) else 'a'} {faces[0]}."
        shown = ", ".join(f"{k} {face}" for _, k, face in data["dice"])
        return f"{name} rolls: {shown}."
    if kind == "faces_set":
        if data.get("hidden"):
            return f"{name} turns {_some(data)} out of sight."
        shown = ", ".join(f"{item_words(rules, k)} to {face}" for _, k, face in data["dice"])
        return f"{name} turns {shown}."
    if kind == "attached":
        if data.get("hidden"):
            return f"{name} attaches a card out of sight."
        return (f"{name} attaches the {item_words(rules, str(data['kind']))} to the "
                f"{item_words(rules, str(data['onto_kind']))}.")
    if kind == "turn_started":
        return f"--- {name}'s turn ---"
    if kind == "action":
        # A move the ruleset phrases ("bid three 4s") is told as said by its player.
        says = data.get("says")
        return f"{name} {said_by(str(says))}." if says else None
    if kind == "shown":
        return shown_words(rules, players, data)
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
    if kind == "phase_started":
        return f"--- {phase_words(str(data['phase']))} ---"
    if kind == "knocked_out":
        return f"{name} is out of the game."
    if kind == "tiebreak":
        tied = " and ".join(players[s] for s in data["seats"])
        return f"A tie! {tied} play a tiebreaker round."
    if kind == "game_over":
        return "Game over! Winner: " + " and ".join(players[s] for s in data["winners"])
    return None


def phase_words(phase: str) -> str:
    """A round's phase as people read it: `tricks` -> "Tricks"."""
    words = phase.replace("_", " ")
    return words[:1].upper() + words[1:]


def move_line(events: list[Event], action_label: str, name: str) -> str:
    """The log's first line for a move: the ruleset's phrase said of the player ("Ann
    bids three 4s."), else who took which action ("Ann: Bid.")."""
    says = next((e.data.get("says") for e in events if e.kind == "action"), None)
    return f"{name} {said_by(str(says))}." if says else f"{name}: {action_label}."


def shown_words(rules: Rules | None, players: list[str], data: dict[str, Any]) -> str:
    """What a `show` laid open, for everyone: "Everyone sees each player's cup: Ann 2, 5; Ben 6."
    (an item by its face when it shows one, else by its kind)."""
    zone = str(data["zone"])
    where = zone_words(rules, zone)
    copies = list(data["items"])

    def listed(content: list[Any]) -> str:
        return ", ".join(str(face) if face is not None else item_words(rules, str(kind))
                         for _, kind, face in content) or "nothing"

    if not data.get("per_player"):
        return f"Everyone sees the {where}: {listed(copies[0] if copies else [])}."
    told = "; ".join(f"{players[s]} {listed(content)}" for s, content in enumerate(copies)
                     if s < len(players))
    return f"Everyone sees each player's {where}: {told}."


def item_words(rules: Rules | None, kind: str) -> str:
    """A kind of card or die as people read it: its label, else its id in words."""
    idef = rules.items.get(kind) if rules is not None else None
    if idef is not None and idef.label:
        return str(idef.label)
    return kind.replace("_", " ")


def zone_words(rules: Rules | None, zone: str) -> str:
    """A zone as people read it: its label (in lower case, after "the"), else its id."""
    zdef = rules.zones.get(zone) if rules is not None else None
    if zdef is not None and zdef.label:
        label = str(zdef.label)
        return label[:1].lower() + label[1:]
    return zone.replace("_", " ")


def _some(data: dict[str, Any]) -> str:
    """'a card', '2 cards': how many items, named by what their zone holds."""
    one, many = NOUNS.get(str(data.get("holds")), ("item", "items"))
    count = int(data.get("count", 0))
    if count == 1:
        return f"{'an' if one[0] in 'aeiou' else 'a'} {one}"
    return f"{count} {many}"


# Events that need no caption: the next turn's markers and who may answer are on the table.
_UNCAPTIONED = {"turn_started", "window_opened", "action"}
MANY_DICE = 4  # more dice than this are counted by face in a caption


def caption(events: list[Event], table: GameState | dict[str, Any],
            viewer: int | None = None) -> str:
    """One line for someone watching a move: what it did, in the game's own words.

    `events` are one action's, as `engine.apply` returned them (with a view as `table`,
    already redacted for `viewer`). What follows the end of the turn belongs to the next
    player's story and is left out. The ruleset's own sentences (`say`) tell it best; without
    them, the draws and rolls are told; with neither, who did what ("Ann: Roll."). A demo
    shows this under the table, so passers-by can follow the game without reading the log.
    """
    told: list[str] = []
    said: list[str] = []
    for event in events:
        if event.kind == "turn_ended":
            break
        if event.kind in _UNCAPTIONED:
            continue
        if event.kind == "rolled" and not event.data.get("hidden") and len(
                event.data.get("dice", ())) > MANY_DICE:
            line: str | None = _roll_counted(event, table)
        else:
            line = describe(event, table, viewer)
        if line:
            (said if event.kind in ("said", "asked") else told).append(line)
    lines = said or told
    if lines:
        # Ids such as early_cretaceous read better as words on a screen across the room.
        return " ".join(lines).replace("_", " ")
    first = next((e for e in events if e.kind == "action"), None)
    if first is None or first.seat is None:
        return ""
    players = table.players if isinstance(table, GameState) else list(table["players"])
    name = first.data.get("action", "")
    if isinstance(table, GameState) and name in table.rules.actions:
        name = table.rules.actions[name].label
    return f"{players[first.seat]}: {name}."


def _roll_counted(event: Event, table: GameState | dict[str, Any]) -> str:
    """'Ann rolls 12 dice: 6 egg, 4 bone, 2 dinosaur.' (the most shown first)."""
    players = table.players if isinstance(table, GameState) else list(table["players"])
    name = players[event.seat] if event.seat is not None else ""
    counts: dict[str, int] = {}
    for _, _, face in event.data["dice"]:
        counts[str(face)] = counts.get(str(face), 0) + 1
    faces = ", ".join(f"{n} {face}" for face, n in
                      sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"{name} rolls {len(event.data['dice'])} dice: {faces}."
