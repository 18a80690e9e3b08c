"""The table's own files (its parts, controls, display, playback and undo) know the scene
only through narrow protocols: none of them imports the table scene or names it, so what
each function touches is in its signature."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from helpers import ROOT

TABLE = ROOT / "dinotable" / "table"
SCENE = "dinotable.scenes.table"


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, by its full name (a name imported from a package counts
    as the module it may be)."""
    package = ["dinotable", "table"]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def test_no_file_of_the_table_imports_the_table_scene() -> None:
    files = sorted(TABLE.glob("*.py"))
    assert files
    importing = [f.name for f in files if SCENE in imported_modules(f)]
    assert not importing, f"import {SCENE}: {importing}"


def test_no_file_of_the_table_names_the_table_scene() -> None:
    naming = [f.name for f in sorted(TABLE.glob("*.py"))
              if re.search(r"\bTableScene\b", f.read_text(encoding="utf-8"))]
    assert not naming, f"name TableScene: {naming}"


def test_the_import_check_sees_a_relative_import_of_the_scene(tmp_path: Path) -> None:
    for line in ("from ..scenes.table import TableScene", "from ..scenes import table",
                 "import dinotable.scenes.table"):
        sample = tmp_path / "sample.py"
        sample.write_text(f"{line}\n", encoding="utf-8")
        assert SCENE in imported_modules(sample), line
