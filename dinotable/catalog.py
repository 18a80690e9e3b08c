"""The installed games as the title lists them: name, pitch, seats and time, read cheaply.

The title's first frame needs only these few lines of each rules.yaml, not the whole
ruleset checked and compiled (that waits until the window is up). Nothing here imports the
rules engine, and a header written plainly (as every shipped one is) is read without
importing the YAML library either: that import alone costs the first frame ~10 ms. Anything
less plain goes to YAML's safe loader, so the result is always what YAML would read. A
ruleset whose header cannot be read is listed with its id and the reason; loading it in
full still gives the complete file:line message.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from . import bounded
from .paths import rulesets_dir

RULES_FILE = "rules.yaml"
KEYS = ("name", "players", "time", "pitch")
MAX_BYTES = 1024 * 1024  # as for the full load (ruleset/yamlsafe.py)
# Plain words YAML reads as true, false or null rather than as text.
_NOT_TEXT = {w for word in ("yes", "no", "true", "false", "on", "off", "null")
             for w in (word, word.capitalize(), word.upper())}


class Listing(NamedTuple):
    """One game's line on the title (or the reason its header could not be read). A
    named tuple: a frozen dataclass costs the first frame over a millisecond to build."""

    id: str
    name: str = ""
    pitch: str = ""
    min_players: int = 0
    max_players: int = 0
    time: str = ""
    problem: str = ""


def installed() -> list[Path]:
    """Every ruleset folder shipped with dinotable, sorted by id (as the loader finds them)."""
    root = rulesets_dir()
    if not root.is_dir():
        return []
    try:
        return sorted(p for p in root.iterdir() if (p / RULES_FILE).is_file())
    except OSError:  # an unreadable folder lists no games rather than stopping the title
        return []


def _head(text: str) -> str:
    """The top-level blocks of the wanted keys, as YAML text of their own."""
    kept: list[str] = []
    keep = False
    found: set[str] = set()
    for line in text.splitlines():
        top = line[:1] not in ("", " ", "\t", "#")
        if top:
            # A top-level key: the name before its colon (string methods, not a regular
            # expression: compiling one costs the first frame more than this loop).
            key, colon, _ = line.partition(":")
            key = key.rstrip()
            keep = bool(colon) and key in KEYS
            if keep:
                found.add(key)
            elif len(found) == len(KEYS):
                break  # the header sits at the top: the rest of the file is not read
        if keep:
            kept.append(line)
    return "\n".join(kept)


def _text(value: str) -> str | None:
    """A scalar written so that YAML surely reads it as this text, or None (ask YAML)."""
    if not value or not value.isprintable() or "\t" in value:
        return None
    if value[0] in "\"'":
        quote, inner = value[0], value[1:-1]
        if len(value) < 2 or value[-1] != quote or quote in inner or "\\" in inner:
            return None
        return inner
    if ": " in value or " #" in value or value.endswith(":"):
        return None
    if value[:1].isalpha():  # YAML reads a plain word as true/false/null, else as text
        return None if value in _NOT_TEXT else value
    # Begun with a digit, it is text only with a space and no colon (no number, no date).
    if value[:1].isdigit() and " " in value and ":" not in value:
        return value
    return None


def _seats(value: str) -> dict[str, Any] | None:
    """`{min: N}` or `{min: N, max: N}` with plain whole numbers (then maybe `teams: N` and
    `teams_option: NAME`), or None (ask YAML)."""
    if not (value.startswith("{") and value.endswith("}")):
        return None
    parts = value[1:-1].split(",")
    if len(parts) > 4:
        return None
    seats: dict[str, Any] = {}
    if len(parts) == 4:  # teams as an option: `teams: N, teams_option: NAME` follow
        key, _, option = parts[3].strip(" ").partition(":")
        option = option.strip(" ")
        if key != "teams_option" or not re.fullmatch(r"[a-z][a-z0-9_]*", option):
            return None
        seats["teams_option"] = option
        parts = parts[:3]
    for part, name in zip(parts, ("min", "max", "teams"), strict=False):
        # `min: 2`: the name, its colon, at least one space, then a plain whole number.
        key, _, number = part.strip(" ").partition(":")
        if key != name or not number.startswith(" "):
            return None
        number = number.strip(" ")
        if not (number.isascii() and number.isdigit() and len(number) <= 4) or (
                len(number) > 1 and number.startswith("0")):
            return None
        seats[name] = int(number)
    if "teams_option" in seats:  # as YAML reads it: the keys in the order written
        seats = {k: seats[k] for k in ("min", "max", "teams", "teams_option")}
    return seats


def plain_header(head: str) -> dict[str, Any] | None:
    """The header as YAML would read it, when it is written in the plain forms (one line
    per key: bare or quoted text, players as {min: N, max: N}); else None."""
    data: dict[str, Any] = {}
    for line in head.splitlines():
        if line[:1] in ("", " ", "\t", "#"):  # blank, a comment, or a key's second line
            if line.strip() and not line.strip().startswith("#"):
                return None
            continue
        key, _, rest = line.partition(":")
        if key not in KEYS or key in data or not rest.startswith(" "):
            return None
        value = rest.strip(" ")
        if key == "players":
            data[key] = _seats(value)
            if data[key] is None:
                return None
        else:
            data[key] = _text(value)
            if data[key] is None:
                return None
    return data or None


def read_listing(folder: Path) -> Listing:
    """One ruleset's title line from the head of its rules.yaml (as YAML's safe loader
    reads it)."""
    path = folder / RULES_FILE
    try:
        # The same bounds as the full load: a device, a pipe or deep nesting is a reason,
        # never a hang or a crash of the title.
        head = _head(bounded.read_text(path, MAX_BYTES, "a ruleset"))
    except bounded.Refused as exc:
        return Listing(folder.name, problem=f"{path}:{exc.line}:{exc.col}: {exc.message}")
    except (OSError, UnicodeDecodeError) as exc:
        return Listing(folder.name, problem=f"{path}: {_reason(exc)}")
    data: Any = plain_header(head)  # flat plain lines: nothing deep to bound
    if data is None:
        import yaml

        try:
            bounded.prescan(head)
            data = yaml.safe_load(head)
        except bounded.Refused as exc:
            return Listing(folder.name, problem=f"{path}:{exc.line}:{exc.col}: {exc.message}")
        except (yaml.YAMLError, RecursionError) as exc:
            return Listing(folder.name, problem=f"{path}: {_reason(exc)}")
    try:
        if not isinstance(data, dict):
            raise ValueError("expected name, players, time and pitch at the top level")
        players = data.get("players")
        if not isinstance(players, dict):
            raise ValueError("expected players: {min: N, max: N}")
        low, high = players.get("min"), players.get("max", players.get("min"))
        if not isinstance(low, int) or not isinstance(high, int):
            raise ValueError("expected whole numbers for players' min and max")
        return Listing(folder.name, str(data.get("name") or folder.name),
                       str(data.get("pitch") or ""), low, high, str(data.get("time") or ""))
    except ValueError as exc:
        return Listing(folder.name, problem=f"{path}: {_reason(exc)}")


def _reason(exc: Exception) -> str:
    """The first line of a problem's message."""
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def listings() -> list[Listing]:
    """Every installed game's title line, sorted by id."""
    return [read_listing(folder) for folder in installed()]
