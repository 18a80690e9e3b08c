"""Players' names and echoed input: the limits every way in (setup, command line, saves)."""

from __future__ import annotations

NAME_MAX = 24  # characters in a player's name, wherever it comes from
# str.isprintable() refuses control, format (bidi overrides, zero-width), surrogate,
# private-use, unassigned, line/paragraph separator and space separator characters. A name
# may hold the spaces (Unicode's category Zs, unchanged since Unicode 6.3); none of the
# rest draws as a letter, and some cannot be drawn at all. The interpreter's own tables
# answer: the unicodedata module would add 0.4 MB to the standalone app's zip.
_SPACES = frozenset("\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                    "\u2007\u2008\u2009\u200a\u202f\u205f\u3000")


def _refused(ch: str) -> bool:
    """Whether one character may not be part of a name."""
    return not ch.isprintable() and ch not in _SPACES


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
    if any(map(_refused, name)):
        return f"a name cannot hold control characters: {shorten(ascii(name))}"
    return ""


def clean_name(name: str) -> str:
    """A name as typed or given, made safe: control characters dropped, cut to NAME_MAX."""
    kept = "".join(ch for ch in name if not _refused(ch))
    return kept.strip()[:NAME_MAX].strip()


def allowed_in_name(ch: str) -> bool:
    """Whether a typed character may go into a name."""
    return len(ch) == 1 and ch.isprintable()
