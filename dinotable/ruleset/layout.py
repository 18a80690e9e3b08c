"""The `layout` section: where the table draws each zone. Read by the table, checked here.

The engine ignores layout; the loader validates it with the same file:line:col messages
and compiles its expressions, so a typo in a layout is caught by `dinotable validate`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..engine.codegen import Template
from ..engine.compiler import EffectCompiler
from ..engine.effects import _unknown
from ..engine.expr import Compiled
from .problems import check_keys
from .variant_keys import check_when, read_applies_when

LAYOUT_KEYS = {"dice_colours", "faces", "tray", "source", "areas", "odds", "status",
               "player_zones", "player_counters", "counters", "track", "widgets", "cards"}
TRAY_KEYS = {"zones", "toss", "passed", "counts"}
COUNTER_KEYS = {"var", "label", "applies_when"}
TRACK_KEYS = {"length", "start", "end"}
FACE_KEYS = {"label", "tone", "meaning"}
AREA_KEYS = {"zone", "label", "tone", "limit"}
ODDS_KEYS = {"label", "when", "chance"}
TONES = ("good", "bad", "neutral")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class FaceStyle:
    """How a face is named on screen and whether it is good or bad news."""

    label: str
    tone: str = "neutral"
    meaning: str = ""  # a few words for the legend: "keep it", "passed on"


@dataclass(frozen=True)
class Area:
    """A row where the items of a zone are laid out, with a label."""

    zone: str
    label: str
    tone: str = "neutral"
    limit: int | None = None  # e.g. three stomps: drawn as empty slots up to the limit


@dataclass(frozen=True)
class Odds:
    """A press-your-luck chance shown on request: `chance` is 0..1, shown when `when` holds."""

    label: str
    chance: Compiled
    when: Compiled | None = None


@dataclass(frozen=True)
class Counter:
    """A number shown with a label: a player's stones, the stones in the supply."""

    var: str
    label: str
    applies_when: tuple[tuple[str, tuple[Any, ...]], ...] = ()  # as a widget's


@dataclass(frozen=True)
class Track:
    """A race track of squares, 0 (start) to `length` (the goal); pieces stand on players'
    scores."""

    length: Compiled
    start: str = "Start"
    end: str = "Goal"


@dataclass(frozen=True)
class Layout:
    """The table's plan for one ruleset."""

    dice_colours: dict[str, tuple[int, int, int]]
    faces: dict[str, FaceStyle]
    tray: tuple[str, ...]  # zones whose dice are tossed and shown in the tray
    toss_action: str | None  # the action a fling across the tray takes (e.g. roll)
    source: str | None  # the cup or bag dice are drawn from
    source_label: str
    areas: tuple[Area, ...]
    odds: Odds | None = None
    status: Template | None = None  # one line about the turn so far
    passed: bool = False  # the tray's dice go round the table: show them passed on
    player_zones: tuple[Area, ...] = ()  # zones each player has, shown in their row
    player_counters: tuple[Counter, ...] = ()  # player variables shown in their row
    counters: tuple[Counter, ...] = ()  # game variables shown beside the table
    track: Track | None = None
    widgets: tuple[WidgetSpec, ...] = ()  # zones and boards drawn by a named widget
    cards: CardStyle | None = None  # how a card's face and back show; see `build_cards`
    # A tray zone whose caption counts only the dice showing one face (the dinosaurs among
    # the red dice, not the blanks): zone -> face.
    tray_counts: dict[str, str] = field(default_factory=dict)


# --- widgets: cards, piles, hands and boards ----------------------------------------

WIDGET_KEYS = {"show", "zone", "board", "label", "size", "left", "group", "groups", "sets",
               "reflow", "applies_when"}
SETS_KEYS = {"zone", "set", "by"}
WIDGET_SIZES = ("normal", "small")  # small: cards as name chips (read them large on hover)
ZONE_WIDGETS = ("hand", "pile", "row", "players", "count", "none")  # shown for a zone
# `none`: a zone the rules keep for their own bookkeeping, never drawn on the table
BOARD_WIDGETS = ("grid", "track")  # shown for a board


@dataclass(frozen=True)
class WidgetSpec:
    """One `widgets:` entry: how a zone (hand, pile, row, players) or a board (grid, track)
    is shown on the table."""

    show: str
    zone: str = ""
    board: str = ""
    label: str = ""
    size: str = "normal"  # small: a hand or players' row of name chips, for a crowded table
    left: str = ""  # a pile's count from a game variable: the cards still to come from it
    group: str = ""  # a player's zone: its cards grouped by this property's value
    groups: tuple[tuple[str, Template], ...] = ()  # each value's heading, in this order
    # Shown only while these options have these values (the Game stacks, not in a party
    # game, which deals none); see engine/variants.py.
    applies_when: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    sets: BoardSets | None = None  # a grid's sets outlined once named (see `BoardSets`)
    reflow: bool = False  # a grid whose shape does not matter: small, in the columns that fit


@dataclass(frozen=True)
class BoardSets:
    """`sets:` on a grid: once the cards in `zone` lie open to all (turned up at the end),
    the items on the board making up the sets they name (each card's list property `set`,
    matched against the items' property `by`) are outlined, a colour and number a set, as
    `sets()` counts them: a Rancher Bonus's sets on its owner's ranch."""

    zone: str
    set: str
    by: str


def build_widgets(raw: Any, report: Any, zones: dict[str, Any], boards: dict[str, Any],
                  game_vars: Any = (), compiler: EffectCompiler | None = None,
                  options: dict[str, Any] | None = None) -> tuple[WidgetSpec, ...]:
    """Check the `widgets:` list: each entry names a kind of widget and a zone or board
    that suits it."""
    path: tuple[Any, ...] = ("layout", "widgets")
    if raw is None:
        return ()
    if not isinstance(raw, list):
        report(path, "expected a list of {show: hand|pile|row|players|grid|track, zone: ...}")
        return ()
    out = []
    for i, spec in enumerate(raw):
        wpath = (*path, i)
        if not isinstance(spec, dict) or "show" not in spec:
            report(wpath, "expected {show: hand|pile|row|players|grid|track, zone: ZONE} "
                          "or {show: grid|track, board: BOARD}")
            continue
        check_keys(report, spec, WIDGET_KEYS, wpath, "widget setting")
        show = spec["show"]
        label = str(spec.get("label", ""))
        when = read_applies_when(report, spec.get("applies_when"), (*wpath, "applies_when"))
        check_when(report, (*wpath, "applies_when"), when, options or {})
        size = str(spec.get("size", "normal"))
        if size not in WIDGET_SIZES:
            report((*wpath, "size"), _unknown("widget size", size, list(WIDGET_SIZES)))
            continue
        if show in BOARD_WIDGETS:
            board = spec.get("board")
            if board not in boards:
                report((*wpath, "board"), _unknown("board", str(board), list(boards)))
                continue
            if (show == "grid") != bool(boards[board].cols):
                kind = "a grid (rows and cols)" if show == "grid" else "a track (spaces)"
                report((*wpath, "show"), f"board {board!r} is not {kind}; "
                                         f"use show: {'track' if show == 'grid' else 'grid'}")
                continue
            sets = _board_sets(spec, wpath, boards[board], zones, report, compiler)
            reflow = spec.get("reflow", False)
            if not isinstance(reflow, bool) or (reflow and show != "grid"):
                report((*wpath, "reflow"), "expected true or false: whether the small boards "
                                           "in the players' areas take whatever columns fit")
                continue
            out.append(WidgetSpec(str(show), board=str(board), label=label, sets=sets,
                                  reflow=reflow, applies_when=when))
        elif show in ZONE_WIDGETS:
            zone = spec.get("zone")
            if zone not in zones:
                report((*wpath, "zone"), _unknown("zone", str(zone), list(zones)))
                continue
            per_player = bool(zones[zone].per_player)
            if show in ("hand", "players") and not per_player:
                report((*wpath, "zone"), f"zone {zone!r} is shared; show: {show} is for a "
                                         "zone each player has (per_player: true)")
                continue
            if show in ("pile", "row") and per_player:
                report((*wpath, "zone"), f"zone {zone!r} is one per player; use show: hand "
                                         "or show: players")
                continue
            left = str(spec.get("left", ""))
            if left and (show != "pile" or left not in game_vars):
                report((*wpath, "left"), "left: names the game variable counting what is "
                       "still to come from a pile (show: pile)" if show != "pile" else
                       _unknown("game variable", left, sorted(game_vars)))
                continue
            group, groups = _groups(spec, wpath, show, per_player, report, compiler)
            out.append(WidgetSpec(str(show), zone=str(zone), label=label, size=size,
                                  left=left, group=group, groups=groups, applies_when=when))
        else:
            report((*wpath, "show"), _unknown("widget", str(show),
                                              [*ZONE_WIDGETS, *BOARD_WIDGETS]))
    return tuple(out)


def _board_sets(spec: dict[str, Any], wpath: tuple[Any, ...], board: Any,
                zones: dict[str, Any], report: Any, compiler: EffectCompiler | None
                ) -> BoardSets | None:
    """A grid's `sets: {zone: ZONE, set: PROPERTY, by: PROPERTY}`, checked: a zone of
    cards each naming a set, and the property of the board's items a set is made of."""
    raw = spec.get("sets")
    if raw is None:
        return None
    path = (*wpath, "sets")
    if not isinstance(raw, dict) or not {"zone", "set", "by"} <= set(raw):
        report(path, "expected {zone: ZONE, set: PROPERTY, by: PROPERTY}: the cards naming "
                     "the sets, their list of values, and the items' property they match")
        return None
    check_keys(report, raw, SETS_KEYS, path, "sets setting")
    zone, listed, by = (str(raw[k]) for k in ("zone", "set", "by"))
    if zone not in zones:
        report((*path, "zone"), _unknown("zone", zone, list(zones)))
        return None
    if bool(zones[zone].per_player) != bool(board.per_player):
        report((*path, "zone"), f"zone {zone!r} and board {board.name!r} must both be one "
                                "per player, or both shared: a player's cards name the sets "
                                "on their own board")
        return None
    props = compiler.scope.props if compiler is not None else {listed, by}
    for key, name in (("set", listed), ("by", by)):
        if name not in props:
            report((*path, key), _unknown("property", name, sorted(props)))
            return None
    return BoardSets(zone, listed, by)


def _groups(spec: dict[str, Any], wpath: tuple[Any, ...], show: str, per_player: bool,
            report: Any, compiler: EffectCompiler | None
            ) -> tuple[str, tuple[tuple[str, Template], ...]]:
    """A player's zone grouped by a property (`group`), with each value's heading, a text
    that may show the player's running total (`groups: {VALUE: "Red {red_ideas}"}`)."""
    if "group" not in spec and "groups" not in spec:
        return "", ()
    group = spec.get("group")
    props = compiler.scope.props if compiler is not None else {}
    if not per_player or show not in ("hand", "players"):
        report((*wpath, "group"), "group: is for a zone each player has (show: hand or "
                                  "players)")
        return "", ()
    if group not in props:
        report((*wpath, "group"), _unknown("property", str(group), sorted(props)))
        return "", ()
    raw = spec.get("groups") or {}
    if not isinstance(raw, dict):
        report((*wpath, "groups"), "expected {VALUE: TEXT}: each value's heading")
        return str(group), ()
    headings = []
    for value, text in raw.items():
        converted = (compiler.convert("text", str(text), (*wpath, "groups", value))
                     if compiler is not None else None)
        if isinstance(converted, Template):
            headings.append((str(value), converted))
    return str(group), tuple(headings)


def parse_colour(text: str) -> tuple[int, int, int]:
    """'#rrggbb' -> (r, g, b)."""
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


def build_layout(raw: Any, compiler: EffectCompiler, dice: dict[str, Any],
                 zones: dict[str, Any], faces: set[str], actions: dict[str, Any],
                 boards: dict[str, Any] | None = None, options: dict[str, Any] | None = None
                 ) -> Layout:
    """Check and compile a layout section, reporting problems through the compiler."""
    report = compiler.report
    path: tuple[Any, ...] = ("layout",)
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        report(path, "expected a mapping of layout settings")
        raw = {}
    check_keys(report, raw, LAYOUT_KEYS, path, "layout key")

    def tone_of(spec: dict[str, Any], where: tuple[Any, ...]) -> str:
        tone = spec.get("tone", "neutral")
        if tone not in TONES:
            report((*where, "tone"), _unknown("tone", str(tone), list(TONES)))
            return "neutral"
        return str(tone)

    colours: dict[str, tuple[int, int, int]] = {}
    for kind, colour in (raw.get("dice_colours") or {}).items():
        cpath = (*path, "dice_colours", kind)
        if kind not in dice:
            report(cpath, _unknown("die kind", str(kind), list(dice)))
        elif not isinstance(colour, str) or not _HEX.match(colour):
            report(cpath, f"expected a colour like '#3e9b4f', found {colour!r}")
        else:
            colours[kind] = parse_colour(colour)

    styles: dict[str, FaceStyle] = {}
    for face, spec in (raw.get("faces") or {}).items():
        fpath = (*path, "faces", face)
        if face not in faces:
            report(fpath, _unknown("face", str(face), sorted(faces)))
            continue
        if not isinstance(spec, dict):
            report(fpath, "expected {label: ..., tone: good|bad|neutral}")
            continue
        check_keys(report, spec, FACE_KEYS, fpath, "face setting")
        styles[face] = FaceStyle(str(spec.get("label", face)), tone_of(spec, fpath),
                                 str(spec.get("meaning", "")))

    def zone_name(value: Any, zpath: tuple[Any, ...]) -> str | None:
        if value not in zones:
            report(zpath, _unknown("zone", str(value), list(zones)))
            return None
        return str(value)

    tray_raw = raw.get("tray") or {}
    if not isinstance(tray_raw, dict):
        report((*path, "tray"), "expected {zones: [...], toss: ACTION}")
        tray_raw = {}
    check_keys(report, tray_raw, TRAY_KEYS, (*path, "tray"), "tray setting")
    tray = tuple(z for i, z in enumerate(tray_raw.get("zones", []))
                 if zone_name(z, (*path, "tray", "zones", i)) is not None)
    passed = bool(tray_raw.get("passed", False))
    tray_counts = {}
    counts_raw = tray_raw.get("counts") or {}
    if not isinstance(counts_raw, dict):
        report((*path, "tray", "counts"), "expected {ZONE: FACE}")
        counts_raw = {}
    for zone, face in counts_raw.items():
        if zone not in tray:
            report((*path, "tray", "counts", zone), _unknown("tray zone", str(zone), list(tray)))
        elif face not in faces:
            report((*path, "tray", "counts", zone), _unknown("face", str(face), sorted(faces)))
        else:
            tray_counts[str(zone)] = str(face)
    toss_action = tray_raw.get("toss")
    if toss_action is not None and toss_action not in actions:
        report((*path, "tray", "toss"), _unknown("action", str(toss_action), list(actions)))
        toss_action = None
    source = None
    source_label = ""
    if "source" in raw:
        src = raw["source"] if isinstance(raw["source"], dict) else {}
        source = zone_name(src.get("zone"), (*path, "source", "zone"))
        source_label = str(src.get("label", source or ""))
    areas = []
    for i, spec in enumerate(raw.get("areas") or []):
        apath = (*path, "areas", i)
        if not isinstance(spec, dict):
            report(apath, "expected {zone: ..., label: ...}")
            continue
        check_keys(report, spec, AREA_KEYS, apath, "area setting")
        zone = zone_name(spec.get("zone"), (*apath, "zone"))
        limit = spec.get("limit")
        if limit is not None and (not isinstance(limit, int) or limit < 1):
            report((*apath, "limit"), "expected a whole number of at least 1")
            limit = None
        tone = tone_of(spec, apath)
        if zone is not None:
            areas.append(Area(zone, str(spec.get("label", zone)), tone, limit))
    odds = None
    if "odds" in raw:
        spec = raw["odds"] if isinstance(raw["odds"], dict) else {}
        check_keys(report, spec, ODDS_KEYS, (*path, "odds"), "odds setting")
        chance = compiler.expr(spec.get("chance"), (*path, "odds", "chance"))
        when = (compiler.condition(spec["when"], (*path, "odds", "when")) if "when" in spec
                else None)
        if chance is not None and compiler.typed(chance, "number", (*path, "odds", "chance"),
                                                 "a chance"):
            odds = Odds(str(spec.get("label", "Chance")), chance, when)
    status = None
    if "status" in raw:
        converted = compiler.convert("text", raw["status"], (*path, "status"))
        status = converted if isinstance(converted, Template) else None
    player_zones = []
    for i, spec in enumerate(raw.get("player_zones") or []):
        zpath = (*path, "player_zones", i)
        spec = spec if isinstance(spec, dict) else {"zone": spec}
        zone = zone_name(spec.get("zone"), (*zpath, "zone"))
        if zone is not None and not zones[zone].per_player:
            report((*zpath, "zone"), f"zone {zone!r} is shared; player_zones shows a zone each "
                                     "player has (per_player: true)")
        elif zone is not None:
            player_zones.append(Area(zone, str(spec.get("label", zone))))
    scope_vars = {"player_counters": compiler.scope.player_vars,
                  "counters": compiler.scope.game_vars}
    found: dict[str, list[Counter]] = {"player_counters": [], "counters": []}
    for key, known in scope_vars.items():
        for i, spec in enumerate(raw.get(key) or []):
            cpath = (*path, key, i)
            if not isinstance(spec, dict) or "var" not in spec:
                report(cpath, "expected {var: VARIABLE, label: TEXT}")
                continue
            check_keys(report, spec, COUNTER_KEYS, cpath, "counter setting")
            if spec["var"] not in known:
                kind = "player" if key == "player_counters" else "game"
                report((*cpath, "var"), _unknown(f"{kind} variable", str(spec["var"]),
                                                 sorted(known)))
                continue
            only = read_applies_when(report, spec.get("applies_when"),
                                     (*cpath, "applies_when"))
            check_when(report, (*cpath, "applies_when"), only, options or {})
            found[key].append(Counter(str(spec["var"]), str(spec.get("label", spec["var"])),
                                      only))
    track = None
    if "track" in raw:
        spec = raw["track"] if isinstance(raw["track"], dict) else {}
        check_keys(report, spec, TRACK_KEYS, (*path, "track"), "track setting")
        length = compiler.expr(spec.get("length", 20), (*path, "track", "length"))
        if length is not None and compiler.typed(length, "number", (*path, "track", "length"),
                                                 "a track's length"):
            track = Track(length, str(spec.get("start", "Start")), str(spec.get("end", "Goal")))
    return Layout(colours, styles, tray, toss_action, source, source_label, tuple(areas), odds,
                  status, passed, tuple(player_zones), tuple(found["player_counters"]),
                  tuple(found["counters"]), track,
                  build_widgets(raw.get("widgets"), report, zones, boards or {},
                                compiler.scope.game_vars, compiler, options),
                  build_cards(raw.get("cards"), report, compiler.scope.props,
                              compiler.effect_props), tray_counts)


# --- cards: what a card's face and back show, and how the card list is grouped ---------

CARD_KEYS = {"face", "back", "group", "tabs", "sort", "band", "colours"}
CARD_SORT_EXTRA = ("label", "copies")  # sortable besides the properties


@dataclass(frozen=True)
class CardStyle:
    """`layout: cards:`: the properties a card's face and back show (each with its label,
    in order), the property its kinds are grouped by in the card list (with tab names),
    the order inside a group, and the properties choosing the colour band."""

    face: tuple[tuple[str, str], ...] = ()
    back: tuple[tuple[str, str], ...] = ()
    group: str = ""
    tabs: tuple[tuple[str, str], ...] = ()  # group value -> tab name, in tab order
    sort: tuple[str, ...] = ()
    band: tuple[str, ...] = ()  # the first of these with a value picks the colour
    colours: tuple[tuple[str, tuple[int, int, int]], ...] = ()  # band value -> colour


def build_cards(raw: Any, report: Any, props: frozenset[str] | set[str],
                effect_props: frozenset[str] | set[str] = frozenset()) -> CardStyle | None:
    """Check `layout: cards:`; every property it names must be declared in `properties:`
    (effects written on a card are rules, not words, and cannot be shown)."""
    path: tuple[Any, ...] = ("layout", "cards")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        report(path, "expected {face: [PROPERTY, ...], back: {PROPERTY: LABEL}, "
                     "group: PROPERTY, sort: [PROPERTY, ...], band: PROPERTY}")
        return None
    check_keys(report, raw, CARD_KEYS, path, "cards setting")

    def prop(name: Any, where: tuple[Any, ...], extra: tuple[str, ...] = ()) -> str | None:
        if name in extra:
            return str(name)
        if name not in props:
            report(where, _unknown("property", str(name), [*props, *extra]))
            return None
        if name in effect_props:
            report(where, f"property {name!r} holds effects, which a card cannot show as "
                          "words; write them in the card's `text`")
            return None
        return str(name)

    def labelled(key: str) -> tuple[tuple[str, str], ...]:
        value = raw.get(key)
        if value is None:
            return ()
        if isinstance(value, list):
            value = {name: str(name).replace("_", " ").capitalize() for name in value
                     if isinstance(name, str)} if all(isinstance(v, str) for v in value) else None
        if not isinstance(value, dict):
            report((*path, key), "expected a list of properties [PROPERTY, ...] or their "
                                 "labels {PROPERTY: LABEL, ...}")
            return ()
        out = []
        for name, label in value.items():
            if prop(name, (*path, key, name)) is not None:
                out.append((str(name), "" if label is None else str(label)))
        return tuple(out)

    def names(key: str, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
        value = raw.get(key)
        if value is None:
            return ()
        items = value if isinstance(value, list) else [value]
        out = []
        for i, name in enumerate(items):
            where = (*path, key, i) if isinstance(value, list) else (*path, key)
            found = prop(name, where, extra)
            if found is not None:
                out.append(found)
        return tuple(out)

    group = names("group")
    if len(group) > 1:
        report((*path, "group"), "expected one property")
    tabs_raw = raw.get("tabs") or {}
    if not isinstance(tabs_raw, dict):
        report((*path, "tabs"), "expected {VALUE: TAB NAME, ...}")
        tabs_raw = {}
    if tabs_raw and not group:
        report((*path, "tabs"), "tabs name the groups of `group: PROPERTY`; set `group` too")
    colours = []
    colours_raw = raw.get("colours") or {}
    if not isinstance(colours_raw, dict):
        report((*path, "colours"), "expected {VALUE: '#rrggbb', ...}")
        colours_raw = {}
    for value, colour in colours_raw.items():
        if not isinstance(colour, str) or not _HEX.match(colour):
            report((*path, "colours", value), f"expected a colour like '#3e9b4f', "
                                              f"found {colour!r}")
        else:
            colours.append((str(value), parse_colour(colour)))
    return CardStyle(labelled("face"), labelled("back"), group[0] if group else "",
                     tuple((str(k), str(v)) for k, v in tabs_raw.items()),
                     names("sort", CARD_SORT_EXTRA), names("band"), tuple(colours))
