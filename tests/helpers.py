"""Helpers shared by the test modules (imported as `helpers`: tests/ is on sys.path)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def run_cli(*args: str, cwd: Path = ROOT, stdin: str = "",
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `python -m dinotable ARGS` headless in a fresh interpreter; return the result."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH"))
                                         if p)}
    return subprocess.run([sys.executable, "-m", "dinotable", *args], cwd=cwd, env=env,
                          input=stdin, capture_output=True, text=True, timeout=timeout)


def last_json_line(stdout: str) -> str:
    """The last non-empty line of a command's output."""
    return [line for line in stdout.splitlines() if line.strip()][-1]

