"""The engine is pure rules, and the table's session a game without a window: importing and
running them loads no pygame and no pymunk."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from helpers import ROOT

from dinotable.ruleset import installed_rulesets

PROGRAM = textwrap.dedent("""
    import json, sys
    import dinotable.engine, dinotable.ruleset, dinotable.sim, dinotable.bots
    import dinotable.table.session
    from dinotable.ruleset import installed_rulesets, load_ruleset
    from dinotable.sim import play_game
    from dinotable.table.session import Seat, TableSession

    played = 0
    for folder in installed_rulesets():
        rules = load_ruleset(folder)
        for bots in (["random"], ["heuristic"]):
            result = play_game(rules, rules.min_players, 1, bots * rules.min_players)
            played += result.actions > 0
        # The table's session: a whole game by bots, saved after every move.
        seats = [Seat(f"Bot{i}", "random", i) for i in range(rules.min_players)]
        session = TableSession(rules, seats, {}, 1)
        while not session.state.game_over:
            session.take(session.bot_action())
            session.autosave()
        played += session.undo_reason() == "The game is over"
    heavy = sorted(m for m in sys.modules
                   if m.split(".")[0] in ("pygame", "pymunk", "pygame_ce"))
    print(json.dumps({"played": played, "heavy": heavy}))
""")


def test_engine_ruleset_sim_bots_and_session_run_games_without_pygame_or_pymunk() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["played"] >= 3 * len(installed_rulesets())
    assert report["heavy"] == []
