"""Playback: each kind of engine event becomes steps on the table, by a registered handler.

`steps_for(host, event)` looks the event's kind up in `HANDLERS`; a kind with no handler
plays no animation (the log still tells it when `narrate` has words for it). The result of
a toss is told only once the dice have come to rest: the words are a step of their own,
queued after the toss, which holds the playback until it has landed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from ..engine import Event
from ..narrate import LAST_ROUND, describe, item_words
from ..render import theme
from .host import PartHost
from .part import Point
from .sprites import Sprite, Step, dice_words

if TYPE_CHECKING:
    from .dice_parts import TrayPart


class Playing(PartHost, Protocol):
    """The table as the playback works it, beyond what its parts see: the dice it tosses
    and flies, the view ahead it brings zones to, and its banner and log."""

    sprite_zones: set[str]  # the zones whose dice fly as sprites
    told_in_words: bool  # the move played back has the ruleset's own words
    rolled_in_move: list[str]  # every face the move's rolls showed, for its summary
    banner: tuple[str, tuple[int, int, int], float] | None
    showcase: list[str]  # a banner's words, then the card kinds shown under it

    @property
    def tray_part(self) -> TrayPart | None: ...

    def view_ahead(self) -> dict[str, Any]: ...

    def throw(self, zone: str, dice: list[Any]) -> None: ...

    def entry_point(self, n: int) -> Point: ...

    def slot(self, zone: str, owner: int | None, index: int) -> Point: ...

    def face_label(self, face: str | None) -> str: ...

    def log_line(self, text: str) -> None: ...


Handler = Callable[[Playing, Event], list[Step]]
HANDLERS: dict[str, Handler] = {}
SOUND_OF_TONE = {"bad": "bust", "good": "bank"}
DICE_EVENTS = ("drew", "rolled", "moved")
REVEAL_S = 1.6  # a player's hidden cards turned up: seconds to read them before what follows


def on(*kinds: str) -> Callable[[Handler], Handler]:
    """Register a handler for these event kinds."""
    def add(fn: Handler) -> Handler:
        for kind in kinds:
            HANDLERS[kind] = fn
        return fn
    return add


def steps_for(host: Playing, event: Event) -> list[Step]:
    """The steps an event plays as on the table."""
    data = event.data
    if event.kind in DICE_EVENTS and (data.get("hidden") or not (
            {data.get("from"), data.get("to"), data.get("zone")} & host.sprite_zones)):
        # Cards and pieces the widgets draw from the view; dice in the tray and its areas
        # are animated. Either way the log says it in words, except a roll the ruleset
        # tells in its own words in the same move ("Ann hunts Gallimimus and rolls 2").
        if event.kind == "rolled" and host.told_in_words:
            return []
        line = describe(event, host.view, host.viewer, host.rules)
        places = [(data.get(z), data.get(f"{z}_owner")) for z in ("from", "to")]
        return [Step(partial(note, host, line, places), "note")] if line or any(
            z for z, _ in places) else []
    handler = HANDLERS.get(event.kind)
    return handler(host, event) if handler is not None else []


def note(host: Playing, text: str | None,
         places: list[tuple[Any, Any]] | None = None) -> float:
    """A line in the log and under the header; the card zones the event touched are drawn
    as they now lie (`places`: zone and owner)."""
    for zone, owner in places or ():
        show_zone(host, zone, owner)
    if not text:
        return 0.0
    host.log_line(text)
    host.last_words = text
    return 0.35


def show_zone(host: Playing, zone: Any, owner: Any = None) -> None:
    """The widgets draw a card zone (one player's, for a zone every player has) as the
    engine has it now, the rest of the table still as the playback has reached: events
    that move or turn cards show one by one (the end's reveal among them), not all at
    once when the move's playback is over. Dice zones are the sprites' (`display.level`)."""
    if not isinstance(zone, str) or zone in host.sprite_zones or zone not in host.view["zones"]:
        return
    ahead = host.view_ahead()["zones"][zone]
    zones = dict(host.view["zones"])
    if host.rules.zones[zone].per_player and isinstance(owner, int):
        lists = list(zones[zone])
        lists[owner] = ahead[owner]
        zones[zone] = lists
    else:
        zones[zone] = ahead
    # What is attached to what (a Tool Bonus behind its card) comes along with the cards.
    host.view = {**host.view, "zones": zones, "attached": host.view_ahead().get("attached", {})}


@on("attached")
def _attached(host: Playing, event: Event) -> list[Step]:
    data = event.data
    line = describe(event, host.view, host.viewer, host.rules)
    places = [(data.get("from"), data.get("from_owner")), (data.get("zone"), data.get("owner"))]
    return [Step(partial(note, host, line, places), "attached")]


@on("flipped")
def _flipped(host: Playing, event: Event) -> list[Step]:
    data = event.data
    zone, owner = data["zone"], data.get("owner")
    turned = [str(i) for i in data.get("face_up") or ()]

    def start() -> float:
        show_zone(host, zone, owner)
        if not (turned and host.rules.zones[zone].per_player and isinstance(owner, int)):
            return 0.0  # a stack's top turned up: it shows, no more to say
        # A player's hidden cards turned up (the end's reveal): a moment to read them.
        state = host.state
        kinds = [state.items[state.item_ids[i]].kind for i in turned if i in state.item_ids]
        label = host.rules.zones[zone].label or zone.replace("_", " ")
        text = f"{host.name(owner)}'s {label.lower()}"
        host.banner = (text, host.colour(owner), REVEAL_S + 0.4)
        host.showcase = [text, *kinds]  # shown large under the banner, to be read
        host.log_line(f"{text}: {', '.join(item_words(host.rules, k) for k in kinds)}.")
        host.last_words = host.log[-1]
        return REVEAL_S
    return [Step(start, "flipped")]


@on("shown")
def _shown(host: Playing, event: Event) -> list[Step]:
    """A hidden zone shown to everyone (the cups lifted at a challenge): what lay there, in
    words, held up for a moment in a banner and kept in the log, since the move may go on to
    hide it again (a new round rolls the cups) before anyone could look."""
    line = describe(event, host.view, host.viewer, host.rules)

    def start() -> float:
        if not line:
            return 0.0
        host.banner = (line, theme.WOOD, REVEAL_S + 0.4)
        host.log_line(line)
        host.last_words = line
        return REVEAL_S
    return [Step(start, "shown")]


def announce(host: Playing, text: str, colour: tuple[int, int, int], seconds: float,
             sound: str = "turn") -> float:
    """Words in a banner across the middle, in the log and under the header."""
    host.banner = (text, colour, seconds)
    host.log_line(text)
    host.last_words = text
    host.sounds.play(sound)
    return seconds * 0.8


@on("drew")
def _drew(host: Playing, event: Event) -> list[Step]:
    data = event.data

    def start() -> float:
        sx, sy = host.source_point()
        for n, (item, kind) in enumerate(zip(data["items"], data["kinds"], strict=True)):
            if kind in host.shown.source:
                host.shown.source[kind] = max(0, host.shown.source[kind] - 1)
            sprite = Sprite(item, kind, None, data["to"], sx, sy)
            tray = host.tray_part
            if tray is not None:  # put down loosely beside the cup, not in a column
                x, y, turn = tray.entry(n)
                sprite.tween((x, y), 0.3, turn)
            else:
                sprite.tween(host.entry_point(n), 0.3)
            host.sprites[item] = sprite
        n = len(data["items"])
        where = host.layout.source_label.lower() or "cup"
        host.log_line(f"{host.name(host.shown.current)} takes {dice_words(n)} from the {where}.")
        return 0.32
    return [Step(start, "drew")]


@on("action")
def _action(host: Playing, event: Event) -> list[Step]:
    host.rolled_in_move = []  # a new move: its summary names only its own rolls
    return []


def and_list(words: list[str]) -> str:
    """"Water", "Water and Blank", "Food, Water and Blank"."""
    return "".join(words) if len(words) <= 1 else ", ".join(words[:-1]) + " and " + words[-1]


@on("rolled")
def _rolled(host: Playing, event: Event) -> list[Step]:
    data = event.data
    rolled = [face for _, _, face in data["dice"]]
    # A move may roll two zones (the exploration dice, then the dinosaur dice): the line
    # under the header names every face the move rolled, not just the last zone's.
    host.rolled_in_move = [*host.rolled_in_move, *rolled]
    summary = list(host.rolled_in_move)

    def throw() -> float:
        host.throw(data["zone"], data["dice"])
        return 0.0  # the toss itself holds the playback until the dice rest

    def tell() -> float:
        # Only now, with the dice at rest showing these faces, is the result said.
        shown = ", ".join(host.face_label(face) for face in rolled)
        who = host.name(host.shown.current)
        host.log_line(f"{who} rolls: {shown}.")
        host.last_words = f"{who} rolled {and_list([host.face_label(f) for f in summary])}."
        return 0.0
    return [Step(throw, "rolled"), Step(tell, "told")]


@on("moved")
def _moved(host: Playing, event: Event) -> list[Step]:
    data = event.data

    def start() -> float:
        target = data["to"]
        if target == host.layout.source or target not in host.sprite_zones:
            # Back into the cup, or into a box no widget shows (the dinosaur dice of the
            # last reroll): the die leaves the table rather than lie over the others.
            for item in data["items"]:
                sprite = host.sprites.pop(item, None)
                if sprite is not None and target == host.layout.source:
                    host.shown.source[sprite.kind] = host.shown.source.get(sprite.kind, 0) + 1
            return 0.12
        owner = data.get("to_owner")
        begin = len(host.zone_sprites(target, owner))
        for n, item in enumerate(data["items"]):
            sprite = host.sprites.get(item)
            if sprite is None:
                continue
            coming_from = sprite.zone
            sprite.zone, sprite.owner = target, owner
            if target in host.layout.tray and coming_from in host.layout.tray:
                continue  # stays where it lies in the tray
            sprite.tween(host.slot(target, owner, begin + n), 0.45)
        return 0.47
    return [Step(start, "moved")]


@on("said", "asked")
def _said(host: Playing, event: Event) -> list[Step]:
    data = event.data
    if event.kind == "asked":
        host.asked = str(data.get("prompt") or "")
        if not data.get("prompt"):
            return []
    text = str(data.get("text") or data.get("prompt"))
    tone = str(data.get("tone", "news"))

    def start() -> float:
        # The ruleset says whether its words are good or bad news: colour and sound follow.
        host.log_line(text)
        host.last_words = text
        colour = {"bad": theme.DANGER, "good": theme.GOOD}.get(tone, theme.WOOD)
        if tone in SOUND_OF_TONE:
            host.sounds.play(SOUND_OF_TONE[tone])
        host.banner = (text, colour, 2.0)
        return 1.2
    return [Step(start, "said")]


@on("window_opened")
def _window(host: Playing, event: Event) -> list[Step]:
    text = f"{host.name(int(event.data['asking']))} may respond."

    def start() -> float:
        # In the log only: under the header stays the move being answered ("Ann hunts
        # Eoraptor and rolls 2."); the header itself says who may respond.
        host.log_line(text)
        return 0.35
    return [Step(start, "window")]


@on("changed")
def _changed(host: Playing, event: Event) -> list[Step]:
    seat, score = event.seat, event.data.get("score")
    if seat is None or not isinstance(score, int | float):
        return []  # a secret score, or one not shown before the end: nothing ticks up

    def start() -> float:
        host.shown.score_goals[seat] = float(score)
        return 0.3
    return [Step(start, "changed")]


@on("turn_started")
def _turn_started(host: Playing, event: Event) -> list[Step]:
    seat = event.seat
    if seat is None:
        return []

    def start() -> float:
        host.shown.current = seat
        if host.layout.passed:
            # The dice go round the table: they slide over to the new thrower's side.
            dice = [sp for sp in host.sprites.values() if sp.zone in host.layout.tray]
            tray = host.tray_part
            for n, sprite in enumerate(dice):
                sprite.tween(host.slot(sprite.zone, None, n), 0.5,
                             tray.tilt(n, "left") if tray is not None else 0.0)
        host.sounds.play("turn")
        who = host.name(seat) + (" (bot)" if host.is_bot(seat) else "")
        host.banner = (f"{who}'s turn", host.colour(seat), 1.0)
        host.log_line(f"--- {host.name(seat)}'s turn ---")
        return 0.5
    return [Step(start, "turn")]


@on("last_round")
def _last_round(host: Playing, event: Event) -> list[Step]:
    text = LAST_ROUND.get(str(event.data.get("then")), "The end of the game has begun.")
    return [Step(partial(announce, host, text, theme.GOLD, 2.2), "last")]


@on("tiebreak")
def _tiebreak(host: Playing, event: Event) -> list[Step]:
    tied = " and ".join(host.name(s) for s in event.data["seats"])
    text = f"A tie! {tied} play a tiebreaker round."
    return [Step(partial(announce, host, text, theme.GOLD, 2.4), "tie")]


@on("dropped_out")
def _dropped(host: Playing, event: Event) -> list[Step]:
    seat = event.seat
    if seat is None:
        return []

    def start() -> float:
        host.shown.out.add(seat)
        return 0.2
    return [Step(start, "out")]


@on("round_started")
def _round(host: Playing, event: Event) -> list[Step]:
    number = int(event.data["round"])

    def start() -> float:
        host.shown.round = number
        host.shown.out.clear()
        host.shown.phase = ""
        return 0.0
    return [Step(start, "round")]


@on("phase_started")
def _phase(host: Playing, event: Event) -> list[Step]:
    phase = str(event.data["phase"])

    def start() -> float:
        host.shown.phase = phase
        return 0.0
    return [Step(start, "phase")]


@on("game_over")
def _game_over(host: Playing, event: Event) -> list[Step]:
    winners: list[Any] = list(event.data["winners"])
    names = " and ".join(host.name(s) for s in winners)
    text = f"{names} win{'s' if len(winners) == 1 else ''} the game!"

    def start() -> float:
        # Every score shows now (scores kept secret until the end), ticking up under the
        # winner's words before the results.
        ahead = host.view_ahead()
        host.view = {**host.view, "scores": ahead["scores"]}
        host.shown.score_goals = [float(v or 0) for v in ahead["scores"]]
        return announce(host, text, theme.GOLD, 2.0, "bank")
    return [Step(start, "over")]
