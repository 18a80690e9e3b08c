"""A saved game as YAML text, built by hand for speed (what `read` reads back as the same
game)."""

from __future__ import annotations

import json
import re
import time
from functools import lru_cache
from typing import Any

import yaml

from .game import FORMAT, SavedGame

_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def to_data(game: SavedGame) -> dict[str, Any]:
    """The YAML-ready form of a saved game."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": game.ruleset,
        "version": game.version,
        "saved_at": game.saved_at or _now(),
        "seats": [{"name": s.name, "kind": s.kind, "colour": s.colour} for s in game.seats],
        "options": dict(game.options),
        "seed": game.seed,
        # A subset argument (a tuple of ids) is written as a YAML list.
        "log": [[p, a, [[k, list(v) if isinstance(v, tuple) else v] for k, v in args]]
                for p, a, args in game.log],
    }
    if game.name:
        data["name"] = game.name
    if game.summary is not None:
        data["summary"] = game.summary
    if game.bots_random is not None:
        version, words, gauss = game.bots_random
        data["bots_random"] = {"version": version, "state": list(words), "gauss": gauss}
    return data


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


# The text of a save is built by hand, not by the YAML emitter: PyYAML's representer takes
# ~50 ms for a 950-move game (20 ms with libyaml), which was most of an autosave's time.
# A move is written as a flow list whose scalars are JSON-quoted (JSON strings and numbers
# are YAML), and each distinct move's line is made once: games repeat a few moves.
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESOLVER: Any = yaml.resolver.Resolver()
_STR_TAG = "tag:yaml.org,2002:str"
_PLAIN = re.compile(r"[A-Za-z0-9_ .,:;!?'()+*/=<>@#%&$~^|-]*")


@lru_cache(maxsize=4096)
def _scalar(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and _WORD.fullmatch(value) and _RESOLVER.resolve(
            yaml.ScalarNode, value, (True, False)) == _STR_TAG:
        return value  # an id such as roll or die2 reads as it is
    if isinstance(value, str) and _PLAIN.fullmatch(value):
        return json.dumps(value)
    # Anything else (floats, non-ASCII text) through the emitter itself, which knows which
    # characters YAML lets stand and which it must escape.
    # Dumped inside a list, so the scalar is written as it may stand in a flow list.
    text: str = yaml.dump([value], Dumper=_DUMPER, allow_unicode=True,
                          default_flow_style=True, width=10**6).strip()
    return text[1:-1]


@lru_cache(maxsize=8192)
def _move_line(move: tuple[int, str, tuple[tuple[str, Any], ...]]) -> str:
    player, action, args = move
    parts = []
    for key, value in args:
        shown = ("[" + ", ".join(_scalar(v) for v in value) + "]"
                 if isinstance(value, tuple | list) else _scalar(value))
        parts.append(f"[{_scalar(key)}, {shown}]")
    return f"- [{player}, {_scalar(action)}, [{', '.join(parts)}]]\n"


def to_text(game: SavedGame) -> str:
    """The save as YAML text (what `read` reads back as the same game)."""
    data = to_data(game)
    log = data.pop("log")
    bots = data.pop("bots_random", None)
    head: str = yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True,
                          default_flow_style=None)
    out = [head, "log:\n" if log else "log: []\n"]
    out.extend(_move_line((p, a, tuple((k, tuple(v) if isinstance(v, list) else v)
                                       for k, v in args))) for p, a, args in game.log)
    if bots is not None:
        out.append(f"bots_random:\n  version: {_scalar(bots['version'])}\n"
                   f"  state: [{', '.join(map(str, bots['state']))}]\n"
                   f"  gauss: {_scalar(bots['gauss'])}\n")
    return "".join(out)
