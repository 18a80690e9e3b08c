"""What one seat may know: zones it can see, scores and variables shown to it, and events
as that seat may hear of them ("Ben draws a card" for the others, the card for Ben).

`view_for` (game.py) and `redact` are the only things a front end should read; a seat of
None is a spectator, who sees only what is public.
"""

from __future__ import annotations

from typing import Any

from .model import Rules
from .state import Event, GameState

# Event keys that name or show items: dropped from an event the viewer may not see.
_ITEM_KEYS = ("items", "kinds", "dice")


def can_see(rules: Rules, zone: str, owner: int | None, viewer: int | None) -> bool:
    """Whether `viewer` may see what the items in a zone are (`owner`: whose copy of a
    player's own zone; None for a shared one)."""
    zdef = rules.zones.get(zone)
    if zdef is None or zdef.visible == "all":
        return True
    return (zdef.visible == "owner" and zdef.per_player and viewer is not None
            and owner == viewer)


def seen_scores(state: GameState, viewer: int | None, scores: list[Any]) -> list[Any]:
    """The scores a viewer is shown: with `reveal_scores: at_end`, only their own (the
    others are None) until the game is over."""
    if state.rules.reveal_scores == "always" or state.game_over:
        return scores
    return [v if seat == viewer else None for seat, v in enumerate(scores)]


def seen_player_vars(state: GameState, viewer: int | None) -> list[dict[str, Any]]:
    """Every seat's player variables as a viewer sees them: another seat's owner-only
    variables show as None (hidden), until the game is over."""
    hidden = state.rules.owner_vars
    if not hidden or state.game_over:
        return [dict(v) for v in state.player_vars]
    return [{k: (None if k in hidden and seat != viewer else value) for k, value in v.items()}
            for seat, v in enumerate(state.player_vars)]


def redact(events: list[Event], viewer: int | None, rules: Rules | GameState) -> list[Event]:
    """The events as `viewer` may see them (None: a spectator).

    Items that move, are drawn or rolled where the viewer can see neither where they came
    from nor where they went lose their ids, kinds and faces: the event keeps the zones and
    gains `count`, `hidden: true` and `holds` (what the zone holds: dice, cards, ...). A
    change to another seat's owner-only variable keeps only the variable's name; a score
    that is not revealed yet is left out. Events with nothing to hide are returned as they
    are (the same objects); the others are copies.
    """
    r = rules.rules if isinstance(rules, GameState) else rules
    over = any(e.kind == "game_over" for e in events)
    out: list[Event] = []
    for event in events:
        data = event.data
        kind = event.kind
        if kind in ("drew", "moved"):
            if not (can_see(r, data["from"], data.get("from_owner"), viewer)
                    or can_see(r, data["to"], data.get("to_owner"), viewer)) or (
                    isinstance(rules, GameState) and _lies_face_down(rules, data, viewer)):
                event = _without_items(event, len(data.get("items", ())), r, data["from"])
        elif kind == "rolled":
            owner = data.get("owner", event.seat)
            if not can_see(r, data["zone"], owner, viewer):
                event = _without_items(event, len(data.get("dice", ())), r, data["zone"])
        elif kind == "changed" and event.seat != viewer and not over:
            if data.get("var") in r.owner_vars:
                event = Event(kind, event.seat, {"var": data["var"], "hidden": True})
            elif r.reveal_scores == "at_end" and "score" in data:
                event = Event(kind, event.seat, {k: v for k, v in data.items() if k != "score"})
        out.append(event)
    return out


def _lies_face_down(state: GameState, data: dict[str, Any], viewer: int | None) -> bool:
    """Whether an item moved lies face down where it went, out of the viewer's sight."""
    to_owner = data.get("to_owner")
    for item in data.get("items", ()):
        index = state.item_ids.get(item)
        if index is not None and index in state.face_down and not (
                state.rules.zones[data["to"]].per_player and to_owner == viewer
                and viewer is not None):
            return True
    return False


def _without_items(event: Event, count: int, rules: Rules, zone: str) -> Event:
    data = {k: v for k, v in event.data.items() if k not in _ITEM_KEYS}
    data["count"] = count
    data["hidden"] = True
    zdef = rules.zones.get(zone)
    data["holds"] = zdef.holds if zdef is not None else "items"  # "a card", "2 dice"
    return Event(event.kind, event.seat, data)
