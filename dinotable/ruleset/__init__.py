"""YAML rulesets: safe loading, validation with file:line:col messages, and discovery."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..engine.model import Rules
from ..paths import rulesets_dir
from .loader import RULES_FILE, load_ruleset, problems_of
from .problems import LoadError, Problem

__all__ = ["LoadError", "Problem", "Rules", "find_ruleset", "installed_rulesets",
           "load_by_id", "load_ruleset", "problems_of"]


def installed_rulesets() -> list[Path]:
    """Every ruleset folder shipped with dinotable, sorted by id."""
    root = rulesets_dir()
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / RULES_FILE).is_file())


def find_ruleset(ruleset_id: str) -> Path:
    """The folder of a ruleset by id, or LoadError naming the ids that exist."""
    folder = rulesets_dir() / ruleset_id
    if (folder / RULES_FILE).is_file():
        return folder
    known = [p.name for p in installed_rulesets()]
    from ..engine.expr import suggest

    near = suggest(ruleset_id, known)
    hint = f" (did you mean {near!r}?)" if near else ""
    raise LoadError([Problem(str(folder), 1, 1, "(ruleset)",
                             f"no ruleset {ruleset_id!r}{hint}; installed: {', '.join(known)}")])


@lru_cache(maxsize=32)
def load_by_id(ruleset_id: str) -> Rules:
    """Load a shipped ruleset by id (cached: rulesets are frozen)."""
    return load_ruleset(find_ruleset(ruleset_id))
