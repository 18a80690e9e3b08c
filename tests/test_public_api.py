"""The front ends reach the engine through its public API only: the table, the scenes, the
bots, the terminal and the app import `dinotable.engine`, never one of its modules, so who
may act and what a seat may see are the engine's answers, not worked out again outside."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "dinotable"
# The scenario runner and its reader place positions and read state paths: they are the
# engine's own tools.
ENGINE_TOOLS = {"check.py", "scenarios.py"}


def _engine_modules_imported(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            # `from ..engine.expr import Ctx` is `engine.expr` at level 2
            parts = node.module.split(".")
            if "engine" in parts and parts.index("engine") < len(parts) - 1:
                found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("dinotable.engine.")]
    return found


def test_front_ends_import_only_the_engines_public_api() -> None:
    offenders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in ("engine", "ruleset") or rel.name in ENGINE_TOOLS:
            continue
        found = _engine_modules_imported(path)
        if found:
            offenders[str(rel)] = found
    assert offenders == {}


def test_the_check_finds_a_private_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from ..engine.expr import Ctx\nfrom ..engine import apply\n")
    assert _engine_modules_imported(sample) == ["engine.expr"]
