"""Whether a player is asked in a response window is decided with that window open."""

from __future__ import annotations

from pathlib import Path

from dinotable.engine import Action, apply, legal_actions, new_game, waiting_on
from dinotable.ruleset import load_ruleset

RULES = """
id: wins
name: Windows
version: 1
players: {min: 2, max: 2}
vars:
  player: {points: 0, charms: 1}
score: points
actions:
  attack:
    effects:
      - respond: {window: after_attack}
      - add: {points: 1}
      - end_turn: {}
  charm:
    by: current
    windows: [after_attack]
    # Playable on your own turn outside a window, or by a rival inside one.
    when: >-
      charms > 0 and ((window == '' and me == current)
      or (window == 'after_attack' and me != current))
    effects:
      - add: {charms: -1}
end: {trigger: "highest(points) >= 3"}
"""


def test_a_window_asks_by_what_is_playable_inside_it(tmp_path: Path) -> None:
    folder = tmp_path / "wins"
    folder.mkdir()
    (folder / "rules.yaml").write_text(RULES)
    state = new_game(load_ruleset(folder), ["Ann", "Ben"])
    apply(state, Action(0, "attack"))
    # Ben's charm is playable inside the window; Ann's (own turn only) is not, so Ben is
    # asked and Ann never is.
    assert waiting_on(state) == 1
    assert {a.id for a in legal_actions(state)} == {"charm", "pass"}
    apply(state, Action(1, "pass"))
    assert waiting_on(state) == 1 and state.current == 1
