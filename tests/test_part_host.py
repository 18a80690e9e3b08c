"""The parts of the table reach it only through `PartHost`: what they read of the table is
that short list, never the scene with its input, clock and session."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import ROOT

from dinotable.table.host import PartHost

PARTS_FILES = ["part.py", "chrome.py", "dice_parts.py", "widgets.py", "boards.py", "areas.py",
               "reading.py"]


def host_names(path: Path) -> set[str]:
    """Every `host.x` and `self.host.x` a file reads or writes."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute):
            base = node.value
            if (isinstance(base, ast.Name) and base.id == "host") or (
                    isinstance(base, ast.Attribute) and base.attr == "host"):
                names.add(node.attr)
    return names


def test_parts_use_nothing_of_the_table_but_the_part_host() -> None:
    allowed = {n for n in dir(PartHost) if not n.startswith("_")} | set(
        PartHost.__annotations__)
    used: set[str] = set()
    for name in PARTS_FILES:
        used |= host_names(ROOT / "dinotable" / "table" / name)
    assert used, "the parts read the table somewhere"
    assert used <= allowed, sorted(used - allowed)
    # Narrow: a handful of things, not the scene's hundred.
    assert len(allowed) <= 38
