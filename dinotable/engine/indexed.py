"""Indexed values: a variable that holds one value per key (per column, per box, per suit).

An indexed variable lives in the usual variable store as a plain dict, key -> value, its
keys in the order the ruleset declares them. Expressions read one value as `NAME[KEY]`
and `set`/`add` write one the same way. This module holds what every copy, save and view
of a state needs to treat such a dict right. Pure engine code: no pygame.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

MAX_KEYS = 1000  # a longer list of keys is a typo (`to: 100000`), and would slow every copy
SHOWN_ALL = 6  # up to this many keys, a display shows every one; past it, only changed ones


def copy_vars(values: Mapping[str, Any]) -> dict[str, Any]:
    """A variable store copied so that no indexed value is shared with the original."""
    return {k: (dict(v) if type(v) is dict else v) for k, v in values.items()}


def restore_keys(values: Mapping[str, Any], indexed: Mapping[str, tuple[Any, ...]]
                 ) -> dict[str, Any]:
    """A variable store read back from JSON: number keys, which JSON turned into text,
    become numbers again (in the declared order); a hidden value (None) stays None."""
    out = dict(values)
    for name, keys in indexed.items():
        saved = out.get(name)
        if type(saved) is not dict:
            continue
        by_text = {str(k): k for k in keys}
        out[name] = {by_text.get(str(k), k): v for k, v in saved.items()}
    return out


def lookup(values: dict[Any, Any], name: str, key: Any) -> Any:
    """The value of an indexed variable at `key`; a key it does not have is an error that
    names the variable, the key and the keys it has."""
    try:
        return values[key]
    except (KeyError, TypeError):
        raise ValueError(f"{name} has no key {key!r} (its keys: {keys_text(list(values))})"
                         ) from None


def check_key(values: dict[Any, Any], name: str, key: Any) -> Any:
    """`key` itself when the indexed variable has it (so `set` may write there), else the
    error `lookup` gives."""
    lookup(values, name, key)
    return key


def keys_text(keys: list[Any]) -> str:
    """The keys of an indexed variable in words: `2 to 12` for a run of whole numbers."""
    if len(keys) > 3 and all(type(k) is int for k in keys) and keys == list(
            range(keys[0], keys[0] + len(keys))):
        return f"{keys[0]} to {keys[-1]}"
    return ", ".join(map(repr, keys))


def shown_value(value: Any, start: Any = None) -> str:
    """A variable's value for a reader: a plain value as it is; an indexed one as
    `KEY:VALUE` pairs, all of them when there are few keys, else only those that differ
    from the starting value (`7:3 9:1`, or `all 0` while none does)."""
    if type(value) is not dict:
        return "?" if value is None else str(value)
    pairs = list(value.items())
    if len(pairs) > SHOWN_ALL and isinstance(start, dict):
        pairs = [(k, v) for k, v in pairs if start.get(k) != v]
        if not pairs:
            firsts = set(start.values())
            return f"all {next(iter(firsts))}" if len(firsts) == 1 else "as at the start"
    return " ".join(f"{k}:{v}" for k, v in pairs)


@dataclass(frozen=True)
class Keyed:
    """The target of `set`/`add` written `NAME[KEY]`: one value of an indexed variable, at
    a key worked out as the effect runs."""

    name: str
    key: Any = field(compare=False)  # the compiled key expression
    text: str = ""  # as written, for messages

    def __str__(self) -> str:
        return self.text
