"""The engine is pure rules: importing and running it loads no pygame and no pymunk."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from helpers import ROOT

PROGRAM = textwrap.dedent("""
    import json, sys
    import dinotable.engine, dinotable.ruleset, dinotable.sim, dinotable.bots
    from dinotable.ruleset import installed_rulesets, load_ruleset
    from dinotable.sim import play_game

    played = 0
    for folder in installed_rulesets():
        rules = load_ruleset(folder)
        for bots in (["random"], ["heuristic"]):
            result = play_game(rules, rules.min_players, 1, bots * rules.min_players)
            played += result.actions > 0
    heavy = sorted(m for m in sys.modules
                   if m.split(".")[0] in ("pygame", "pymunk", "pygame_ce"))
    print(json.dumps({"played": played, "heavy": heavy}))
""")


def test_engine_ruleset_sim_and_bots_run_a_game_without_importing_pygame_or_pymunk() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["played"] >= 2
    assert report["heavy"] == []
