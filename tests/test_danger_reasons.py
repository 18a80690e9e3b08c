"""Danger! Danger! Dinosaur's greyed buttons say why: every action the rules refuse for the
moment (Roll after Stop, Stop before Roll, Claim before Stop) gives the player a reason in
the game's words, never only "not possible now"."""

from __future__ import annotations

import random

from dinotable.engine import Action, apply, legal_actions, new_game, refusal
from dinotable.ruleset import load_by_id


def test_every_refused_move_says_why_in_the_games_words() -> None:
    rules = load_by_id("danger_danger_dinosaur")
    refused: set[str] = set()
    for seed, variant in ((1, "standard"), (2, "standard"), (3, "party")):
        state = new_game(rules, ["Ann", "Ben"], {"variant": variant}, seed)
        rng = random.Random(seed)
        while not state.game_over and len(state.log) < 400:
            for aid in rules.actions:
                found = refusal(state, Action(state.current, aid))
                if found is not None and found.kind == "not_now":
                    assert "not possible now" not in found.text, (aid, found.text)
                    refused.add(aid)
            apply(state, rng.choice(legal_actions(state)))
    assert {"roll", "reroll", "stop", "claim", "end_turn", "negate"} <= refused, refused
