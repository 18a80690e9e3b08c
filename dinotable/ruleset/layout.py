"""The `layout` section: where the table draws each zone. Read by the table, checked here.

The engine ignores layout; the loader validates it with the same file:line:col messages
and compiles its expressions, so a typo in a layout is caught by `dinotable validate`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..engine.effects import EffectCompiler, Template, _unknown
from ..engine.expr import Compiled

LAYOUT_KEYS = {"dice_colours", "faces", "tray", "source", "areas", "odds", "status",
               "player_zones", "player_counters", "counters", "track"}
TRAY_KEYS = {"zones", "toss", "passed"}
COUNTER_KEYS = {"var", "label"}
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


def parse_colour(text: str) -> tuple[int, int, int]:
    """'#rrggbb' -> (r, g, b)."""
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


def build_layout(raw: Any, compiler: EffectCompiler, dice: dict[str, Any],
                 zones: dict[str, Any], faces: set[str], actions: dict[str, Any]) -> Layout:
    """Check and compile a layout section, reporting problems through the compiler."""
    report = compiler.report
    path: tuple[Any, ...] = ("layout",)
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        report(path, "expected a mapping of layout settings")
        raw = {}
    for key in raw:
        if key not in LAYOUT_KEYS:
            report((*path, key), _unknown("layout key", str(key), sorted(LAYOUT_KEYS)))

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
        for key in spec:
            if key not in FACE_KEYS:
                report((*fpath, key), _unknown("face setting", str(key), sorted(FACE_KEYS)))
        tone = spec.get("tone", "neutral")
        if tone not in TONES:
            report((*fpath, "tone"), _unknown("tone", str(tone), list(TONES)))
            tone = "neutral"
        styles[face] = FaceStyle(str(spec.get("label", face)), tone,
                                 str(spec.get("meaning", "")))

    def zone_name(value: Any, zpath: tuple[Any, ...]) -> str | None:
        if value not in zones:
            report(zpath, _unknown("zone", str(value), list(zones)))
            return None
        return str(value)

    tray_raw = raw.get("tray") or {}
    tray_zones = tray_raw.get("zones", []) if isinstance(tray_raw, dict) else []
    tray = tuple(z for i, z in enumerate(tray_zones)
                 if zone_name(z, (*path, "tray", "zones", i)) is not None)
    if isinstance(tray_raw, dict):
        for key in tray_raw:
            if key not in TRAY_KEYS:
                report((*path, "tray", key), _unknown("tray setting", str(key), sorted(TRAY_KEYS)))
    elif "tray" in raw:
        report((*path, "tray"), "expected {zones: [...], toss: ACTION}")
    passed = bool(tray_raw.get("passed", False)) if isinstance(tray_raw, dict) else False
    toss_action = tray_raw.get("toss") if isinstance(tray_raw, dict) else None
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
        for key in spec:
            if key not in AREA_KEYS:
                report((*apath, key), _unknown("area setting", str(key), sorted(AREA_KEYS)))
        zone = zone_name(spec.get("zone"), (*apath, "zone"))
        limit = spec.get("limit")
        if limit is not None and (not isinstance(limit, int) or limit < 1):
            report((*apath, "limit"), "expected a whole number of at least 1")
            limit = None
        tone = spec.get("tone", "neutral")
        if tone not in TONES:
            report((*apath, "tone"), _unknown("tone", str(tone), list(TONES)))
            tone = "neutral"
        if zone is not None:
            areas.append(Area(zone, str(spec.get("label", zone)), tone, limit))
    odds = None
    if "odds" in raw:
        spec = raw["odds"] if isinstance(raw["odds"], dict) else {}
        for key in spec:
            if key not in ODDS_KEYS:
                report((*path, "odds", key), _unknown("odds setting", str(key), sorted(ODDS_KEYS)))
        chance = compiler.expr(spec.get("chance"), (*path, "odds", "chance"))
        when = compiler.expr(spec["when"], (*path, "odds", "when")) if "when" in spec else None
        if chance is not None:
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
            for k in spec:
                if k not in COUNTER_KEYS:
                    report((*cpath, k), _unknown("counter setting", str(k), sorted(COUNTER_KEYS)))
            if spec["var"] not in known:
                kind = "player" if key == "player_counters" else "game"
                report((*cpath, "var"), _unknown(f"{kind} variable", str(spec["var"]),
                                                 sorted(known)))
                continue
            found[key].append(Counter(str(spec["var"]), str(spec.get("label", spec["var"]))))
    track = None
    if "track" in raw:
        spec = raw["track"] if isinstance(raw["track"], dict) else {}
        for key in spec:
            if key not in TRACK_KEYS:
                report((*path, "track", key), _unknown("track setting", str(key),
                                                       sorted(TRACK_KEYS)))
        length = compiler.expr(spec.get("length", 20), (*path, "track", "length"))
        if length is not None:
            track = Track(length, str(spec.get("start", "Start")), str(spec.get("end", "Goal")))
    return Layout(colours, styles, tray, toss_action, source, source_label, tuple(areas), odds,
                  status, passed, tuple(player_zones), tuple(found["player_counters"]),
                  tuple(found["counters"]), track)
