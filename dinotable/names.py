"""Players' names and echoed input: the limits every way in (setup, command line, saves)."""

from __future__ import annotations

import unicodedata

NAME_MAX = 24  # characters in a player's name, wherever it comes from
# Control, format (bidi overrides, zero-width), surrogate, private-use and line/paragraph
# separators: none draws as a letter, and some cannot be drawn at all.
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


def shorten(text: str, limit: int = 60) -> str:
    """`text`, cut to `limit` characters with an ellipsis (echoing what a user gave)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def name_problem(name: object) -> str:
    """Why `name` cannot be a player's name, or ''."""
    if not isinstance(name, str):
        return f"a name is text, not {shorten(repr(name))}"
    if not name.strip():
        return "a name cannot be empty"
    if len(name) > NAME_MAX:
        return f"a name has at most {NAME_MAX} characters; this one has {len(name)}"
    if any(unicodedata.category(ch) in _REFUSED for ch in name):
        return f"a name cannot hold control characters: {shorten(ascii(name))}"
    return ""


def clean_name(name: str) -> str:
    """A name as typed or given, made safe: control characters dropped, cut to NAME_MAX."""
    kept = "".join(ch for ch in name if unicodedata.category(ch) not in _REFUSED)
    return kept.strip()[:NAME_MAX].strip()


def allowed_in_name(ch: str) -> bool:
    """Whether a typed character may go into a name."""
    return len(ch) == 1 and ch.isprintable() and unicodedata.category(ch) not in _REFUSED
