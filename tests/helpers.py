"""Helpers shared by the test modules (imported as `helpers`: tests/ is on sys.path)."""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from dinotable.engine import GameState, apply, legal_actions, new_game
from dinotable.ruleset import load_by_id

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


def load_module(path: Path, name: str) -> ModuleType:
    """A script that is no package's module (a tool, a packaging step), imported from its file."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def last_json_line(stdout: str) -> str:
    """The last non-empty line of a command's output."""
    return [line for line in stdout.splitlines() if line.strip()][-1]



def write_rules(root: Path, rules: str | dict[str, Any]) -> Path:
    """Write a ruleset (YAML text, or its data) as ROOT/<its id>/rules.yaml; return the folder."""
    text = rules if isinstance(rules, str) else yaml.safe_dump(rules, sort_keys=False)
    folder = root / str(yaml.safe_load(text)["id"])
    folder.mkdir(exist_ok=True)
    (folder / "rules.yaml").write_text(text, encoding="utf-8")
    return folder


def only_problem(folder: Path) -> Any:
    """The one problem the loader reports for a broken ruleset (it must report exactly one)."""
    from dinotable.ruleset import LoadError, load_ruleset

    try:
        load_ruleset(folder)
    except LoadError as exc:
        (problem,) = exc.problems
        return problem
    raise AssertionError(f"{folder} loaded without a problem")


def danger_at_a_reroll(seed: int) -> GameState:
    """A Danger! Danger! Dinosaur game at a reroll with several dice in the jungle."""
    rules = load_by_id("danger_danger_dinosaur")
    rng = random.Random(seed)
    state = new_game(rules, ["Ann", "Ben", "Cat"], None, seed)
    while not state.game_over:
        legal = legal_actions(state)
        if sum(1 for a in legal if a.id == "reroll") > 20:
            return state
        apply(state, legal[int(rng.random() * len(legal))], False)
    raise AssertionError("no reroll of many dice came up")
