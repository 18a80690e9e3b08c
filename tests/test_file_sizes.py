"""The engine, the ruleset loader, the table's parts, the drawing and the package's own
top-level modules stay in files a newcomer can read: none over 600 lines."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "dinotable"
LIMIT = 600


@pytest.mark.parametrize("folder", ["engine", "ruleset", "table", "render", "scenes", "audit", "."])
def test_no_file_is_over_the_limit(folder: str) -> None:
    files = sorted((ROOT / folder).glob("*.py"))
    assert files, f"no Python files found in dinotable/{folder}"
    lines = {f.name: len(f.read_text(encoding="utf-8").splitlines()) for f in files}
    over = {name: n for name, n in lines.items() if n > LIMIT}
    assert not over, f"over {LIMIT} lines: {over}"
