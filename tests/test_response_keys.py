"""Asked to respond, a player reads a key letter on each button; one letter never stands
for two of them (Dino Hunt's Play has P, so Pass takes another)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dinotable.ruleset import load_by_id

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p.name for p in (ROOT / "rulesets").iterdir() if (p / "rules.yaml").exists())


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_the_buttons_of_a_response_window_have_different_keys(ruleset: str) -> None:
    rules = load_by_id(ruleset)
    windows = {w for a in rules.actions.values() for w in a.windows}
    for window in windows:
        offered = [a for a in rules.actions.values() if window in a.windows]
        keys = [a.key.lower() for a in offered if a.key]
        assert len(keys) == len(set(keys)), (window, [(a.id, a.key) for a in offered])
        assert "pass" in {a.id for a in offered} and rules.actions["pass"].key


def test_dino_hunt_keeps_p_for_play_and_pass_gets_a_letter_of_its_own_name() -> None:
    actions = load_by_id("dino_hunt").actions
    assert actions["play"].key == "p"
    assert actions["pass"].key in "pass" and actions["pass"].key != "p"
