"""The installed games as the title lists them: name, pitch, seats and time, read cheaply.

The title's first frame needs only these few lines of each rules.yaml, not the whole
ruleset checked and compiled (that waits until the window is up). Nothing here imports the
rules engine. A ruleset whose header cannot be read is listed with its id and the reason;
loading it in full still gives the complete file:line message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import bounded
from .paths import rulesets_dir

RULES_FILE = "rules.yaml"
KEYS = ("name", "players", "time", "pitch")
MAX_BYTES = 1024 * 1024  # as for the full load (ruleset/yamlsafe.py)
_TOP_KEY = re.compile(r"([A-Za-z_][\w-]*)\s*:")


@dataclass(frozen=True)
class Listing:
    """One game's line on the title (or the reason its header could not be read)."""

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
            match = _TOP_KEY.match(line)
            keep = bool(match) and match.group(1) in KEYS  # type: ignore[union-attr]
            if keep:
                found.add(match.group(1))  # type: ignore[union-attr]
            elif len(found) == len(KEYS):
                break  # the header sits at the top: the rest of the file is not read
        if keep:
            kept.append(line)
    return "\n".join(kept)


def read_listing(folder: Path) -> Listing:
    """One ruleset's title line from the head of its rules.yaml (safe loader only)."""
    import yaml

    path = folder / RULES_FILE
    try:
        # The same bounds as the full load: a device, a pipe or deep nesting is a reason,
        # never a hang or a crash of the title.
        head = _head(bounded.read_text(path, MAX_BYTES, "a ruleset"))
        bounded.prescan(head)
        data: Any = yaml.safe_load(head)
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
    except bounded.Refused as exc:
        return Listing(folder.name, problem=f"{path}:{exc.line}:{exc.col}: {exc.message}")
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError, RecursionError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return Listing(folder.name, problem=f"{path}: {reason}")


def listings() -> list[Listing]:
    """Every installed game's title line, sorted by id."""
    return [read_listing(folder) for folder in installed()]
