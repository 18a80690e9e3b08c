"""Showing a hidden zone to everyone for a moment: `show` (the cups lifted at a challenge).

A zone shown stays open to every seat until the turn ends (`state.shown`, cleared by the
turn flow); the `shown` event carries what lay there, so a log told later, a replay or a
front end that missed the moment can still say what everyone saw. Since it is set by an
effect, replaying the action log shows it again: saves need nothing of their own.
"""

from __future__ import annotations

from typing import Any

from .codegen import ZoneRef
from .effects import Param, effect
from .expr import Ctx
from .model import Effect
from .state import Event


def shown_items(state: Any, zone: str) -> list[list[tuple[str, str, Any]]]:
    """What lies in a zone, copy by copy (one list for a shared zone): id, kind and face."""
    blind = state.rules.zones[zone].blind
    return [[(state.items[i].id, state.items[i].kind, None if blind else state.items[i].face)
             for i in content] for content in state.zones[zone]]


@effect("show", "Show a zone's items to everyone until the turn ends (every player's copy of "
        "a zone each player has): lifting the cups at a challenge.",
        "show: {zone: cup}",
        {"zone": Param("zone", "the zone shown; a zone each player has is shown for every "
                               "player")}, shorthand="zone")
def _show(p: dict[str, Any]) -> Effect:
    ref: ZoneRef = p["zone"]
    name = ref.name

    def run(c: Ctx) -> bool:
        st = c.state
        st.shown.add(name)
        if c.events is not None:
            c.events.append(Event("shown", c.seat, {
                "zone": name, "per_player": st.rules.zones[name].per_player,
                "items": shown_items(st, name)}))
        return False

    return run
