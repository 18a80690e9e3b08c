"""What one seat may know: zones it can see, scores and variables shown to it, and events
as that seat may hear of them ("Ben draws a card" for the others, the card for Ben).

`view_for` and `redact` are the only things a front end should read; a seat of
None is a spectator, who sees only what is public.
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

from .attach import attached_view
from .chance import Chance
from .decide import frame_seat
from .expr import Compiled, Ctx, evaluate
from .facing import sees_face
from .flow import scores, team_scores
from .indexed import copy_vars
from .legality import waiting_on
from .model import Rules
from .origins import PASSED_ON, rules_error
from .state import Event, GameState, Item

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
        return [copy_vars(v) for v in state.player_vars]
    return [{k: (None if k in hidden and seat != viewer else
                 dict(value) if type(value) is dict else value) for k, value in v.items()}
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
        elif kind == "attached":
            if not (can_see(r, data["from"], data.get("from_owner"), viewer)
                    or can_see(r, data["zone"], data.get("owner"), viewer)):
                event = Event(kind, event.seat, {k: v for k, v in data.items()
                                                 if k not in ("item", "kind", "onto", "onto_kind")}
                              | {"hidden": True})
        elif kind in ("rolled", "faces_set"):
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
def view_for(state: GameState, seat: int | None, *, everything: bool = False
             ) -> dict[str, Any]:
    """What one seat may see (None: a spectator who sees only what is public).

    Zones it cannot see show only their size; other seats' owner-only variables and, with
    `reveal_scores: at_end`, their scores are None until the game is over. `everything`:
    a viewer who sees every zone, face and score (a replay, after the game).
    """
    rules = state.rules
    zones: dict[str, Any] = {}
    for zname, lists in state.zones.items():
        zdef = rules.zones[zname]
        shown: list[Any] = []
        for owner, content in enumerate(lists):
            opened = zname in state.shown  # shown to everyone for now (`show`)
            visible = everything or opened or zdef.visible == "all" or (
                zdef.visible == "owner" and zdef.per_player and owner == seat)
            if visible:
                # A cup or bag shows what is in it, never a face: nothing in it is rolled.
                # A card lying face down shows only its back: (None, None, None).
                shown.append([(state.items[i].id, state.items[i].kind,
                               None if zdef.blind else state.items[i].face)
                              if everything or opened or sees_face(state, i, zname, owner,
                                                                   seat)
                              else (None, None, None)
                              for i in content])
            else:
                shown.append({"size": len(content)})
        zones[zname] = shown if zdef.per_player else shown[0]
    return {
        "ruleset": rules.id,
        "players": list(state.players),
        "current": None if state.game_over else state.current,
        "waiting_on": waiting_on(state),
        "decision": _decision_view(state),
        "round": state.round,
        "scores": scores(state) if everything else seen_scores(state, seat, scores(state)),
        "teams": ([s % state.rules.teams for s in range(len(state.players))]
                  if state.rules.teams else None),
        "team_scores": (team_scores(state) if state.rules.teams and (
            state.rules.reveal_scores == "always" or state.game_over) else None),
        "player_vars": ([copy_vars(v) for v in state.player_vars] if everything
                        else seen_player_vars(state, seat)),
        "game_vars": copy_vars(state.game_vars),
        "turn_vars": copy_vars(state.turn_vars),
        "zones": zones,
        # Items attached to items (a bonus card behind a card), by the host's id.
        "attached": attached_view(state, seat, everything),
        "last_round": state.last_round,
        "tiebreak": state.tiebreak,
        "game_over": state.game_over,
        "winners": list(state.winners),
    }


def _decision_view(state: GameState) -> dict[str, Any] | None:
    """What everyone may know of the decision the game waits on."""
    if not state.pending or state.game_over:
        return None
    frame = state.pending[-1]
    if frame["kind"] == "choose":
        return {"kind": "choose", "seat": frame["seat"],
                "question": state.rules.questions[frame["q"]].id}
    return {"kind": "window", "seat": frame_seat(frame), "window": frame["window"]}


# --- reading values as one seat sees them ------------------------------------------
# The table's status line, odds and track, the terminal's status and a bot's preferences
# are ruleset expressions: outside the engine they are worked out only here, on the game
# as that seat may know it, so nothing a seat may not see can leak through a number.

HIDDEN_KIND = "?"  # the kind of an item the seat may not see
_HIDDEN: list[Item] = []  # the blank item at each index: a seen state is only ever read


def _hidden(index: int) -> Item:
    """The blank item standing at `index` in a seen state (id `hidden<index>`)."""
    while len(_HIDDEN) <= index:
        _HIDDEN.append(Item(f"hidden{len(_HIDDEN)}", HIDDEN_KIND))
    return _HIDDEN[index]


# A game's items and ids as each seat saw them last, with the places blanked then: while the
# same places are hidden (most moves move nothing out of sight), they serve again. Kept
# with the game, and only while the game's own item list and ids are the ones they copied.
_BLANKED: weakref.WeakKeyDictionary[GameState, dict[int | None, tuple[Any, ...]]] = (
    weakref.WeakKeyDictionary())


def _zone_kinds(state: GameState) -> tuple[tuple[str, ...], ...]:
    """The game's zones not open to all, those open to all, and those of these each player
    has: in the game's order, found once per ruleset."""
    rules = state.rules
    found = rules.memo.get("zone_kinds")
    if found is None or found[0] is not rules.zones:  # (rules made from others share memo)
        zdefs = rules.zones
        found = rules.memo["zone_kinds"] = (rules.zones, (
            tuple(z for z in state.zones if zdefs[z].visible != "all"),
            tuple(z for z in state.zones if zdefs[z].visible == "all"),
            tuple(z for z in state.zones if zdefs[z].visible == "all" and zdefs[z].per_player)))
    kinds: tuple[tuple[str, ...], ...] = found[1]
    return kinds


def _blanked(state: GameState, seat: int | None) -> tuple[list[Item], dict[str, int]]:
    """The game's items with those `seat` may not see blank, and the ids of the others."""
    face_down = state.face_down
    zdefs = state.rules.zones
    zones = state.zones
    closed, open_zones, open_own = _zone_kinds(state)
    hidden: list[int] = []
    in_closed: list[int] = []  # all the closed zones hold, blank or not
    # A zone closed to some seat: all it holds is blank, unless this seat sees into it.
    for zname in closed:
        zdef = zdefs[zname]
        opened = zname in state.shown
        for owner, content in enumerate(zones[zname]):
            if not content:
                continue
            in_closed += content
            if not (opened or (zdef.visible == "owner" and zdef.per_player
                               and seat is not None and owner == seat)):
                hidden += content
    # A card face down in a zone open to all is blank, except to the owner of the player's
    # zone it lies in (facing.sees_face) and in a zone shown to everyone. (Most lie in
    # closed zones, a secret card's owner's: then the open zones are not looked through.)
    down = face_down.difference(in_closed) if face_down else face_down
    if down:
        down = down.intersection(chain.from_iterable(chain.from_iterable(
            zones[z] for z in open_zones)))
    if down and seat is not None:
        down.difference_update(chain.from_iterable(zones[z][seat] for z in open_own))
    if down and state.shown:
        down.difference_update(chain.from_iterable(chain.from_iterable(
            zones[z] for z in state.shown if z in zones)))
    if down:
        hidden += sorted(down)
    kept = _BLANKED.get(state)
    if kept is None:
        kept = _BLANKED[state] = {}
    last = kept.get(seat)
    if last is not None and last[0] == hidden and last[1] is state.items and (
            last[2] is state.item_ids):
        return last[3], last[4]
    items = list(state.items)
    ids = state.item_ids.copy()
    for i in hidden:
        del ids[items[i].id]  # its id would name it (a first copy's is its kind)
        items[i] = _hidden(i)
    kept[seat] = (hidden, state.items, state.item_ids, items, ids)
    return items, ids


class _Unseeded(Chance):
    """A seen state's chance: `Chance(0)`, seeded only once something asks for its draws
    (reading a game never does, and seeding costs more than the rest of a seen state)."""

    __slots__ = ()

    def __init__(self) -> None:  # the slots a draw needs are filled on demand
        self.seed = 0
        self.forced = deque()

    def __getattr__(self, name: str) -> Any:
        if name not in ("_rng", "random"):
            raise AttributeError(name)
        forced = self.forced
        Chance.__init__(self, 0)
        self.forced = forced
        return getattr(self, name)


def seen_state(state: GameState, seat: int | None) -> GameState:
    """The game as `seat` may know it: a copy in which items it may not see are blank
    (kind "?", no face), other seats' owner-only variables are None and chance is fresh.
    A game with nothing hidden from the seat is its own seen state (no copy is made)."""
    rules = state.rules
    # Whether every zone is open to all, worked out once: a board has a zone a space, and
    # this is read for every option a bot's preference scores.
    # (Rules made from others share their memo: the answer is kept with the zones it read.)
    found = rules.memo.get("all_zones_open")
    if found is None or found[0] is not rules.zones:
        found = rules.memo["all_zones_open"] = (
            rules.zones, all(z.visible == "all" for z in rules.zones.values()))
    if not state.face_down and not rules.owner_vars and found[1]:
        return state
    cached = state.seen_cache
    if cached is not None and cached[0] == state.version and cached[1] == seat:
        return cached[2]
    items, ids = _blanked(state, seat)
    seen = GameState.__new__(GameState)
    state.take_into(seen)
    seen.items = items
    seen.item_ids = ids
    if state.attached:  # a blank item holds nothing that could tell what it is
        seen.attached = {h: held for h, held in state.attached.items()
                         if items[h] is state.items[h]}
    # Without secret variables every seat sees them as they are: the seen state reads the
    # game's own, as it reads its zones (a seen state is only ever read).
    seen.player_vars = (seen_player_vars(state, seat) if rules.owner_vars
                        and not state.game_over else state.player_vars)
    seen.chance = _Unseeded()  # what is still to come is nobody's to know
    seen.log = []
    seen.ctx = Ctx(seen, seat if seat is not None else 0)
    seen.legal_cache = None
    seen.seen_cache = None
    state.seen_cache = (state.version, seat, seen)
    return seen


def value_for(state: GameState, seat: int | None, fn: Compiled,
              args: dict[str, Any] | None = None, *, scope: int | None = None) -> Any:
    """A ruleset expression's value as `seat` may know the game (see `seen_state`), read
    for `seat` (or for `scope`: the odds of the current player, shown to a watcher); a
    failure is an EngineError naming the ruleset's line."""
    who = scope if scope is not None else seat if seat is not None else 0
    return evaluate(fn, seen_state(state, seat), who, args)


def values_for(state: GameState, seat: int, fn: Compiled,
               args: Sequence[Mapping[str, Any]]) -> list[Any]:
    """`value_for` of one expression with each of several sets of arguments (a bot scoring
    each of its options), on the one game `seat` may know."""
    c = Ctx(seen_state(state, seat), seat)
    out: list[Any] = []
    try:
        for given in args:
            c.args = given
            out.append(fn(c))
    except PASSED_ON:
        raise
    except Exception as exc:
        raise rules_error(state.rules, exc, "working out a value for the table") from exc
    return out


def text_for(state: GameState, seat: int | None, template: Any, *,
             scope: int | None = None) -> str:
    """A ruleset text (a status line) filled in as `seat` may know the game, read for
    `seat` (or for `scope`: another player's running total, as `seat` may know it)."""
    seen = seen_state(state, seat)
    who = scope if scope is not None else seat if seat is not None else 0
    return str(template.render(Ctx(seen, who)))
