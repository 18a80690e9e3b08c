"""Danger! Danger! Dinosaur tells what a move scores in words that add up to what the
score badge gains: a claim's points and the 25 for the highest colour score it wins (the
running score counts that bonus at once), a Bone Artifact's points for its set, a party
game's points for ideas. A player who hears "5 red points" must not see the badge jump 30."""

from __future__ import annotations

import random
import re

from dinotable.bots import heuristic_policy
from dinotable.engine import apply, legal_actions, new_game, scores
from dinotable.lessons import LessonRun, lessons_of
from dinotable.ruleset import load_by_id

# "5 red points", "10 more blue points", "25 points for the highest red score", "3 points
# for ideas": each number a move gains is followed by "points" (a total says "in all").
GAIN = re.compile(r"(\d+) (?:more )?(?:red |blue |green )?points")


def said_gain(texts: list[str]) -> int:
    """The points these words say were gained."""
    return sum(int(n) for text in texts for n in GAIN.findall(text))


def test_what_a_move_says_it_scores_is_what_the_score_gains() -> None:
    rules = load_by_id("danger_danger_dinosaur")
    told = {"bonus": 0, "craft": 0, "retire": 0, "tool": 0, "party": 0}
    for seed, variant in [(s, "standard") for s in range(1, 7)] + [(7, "party"), (8, "party")]:
        state = new_game(rules, ["Ann", "Ben", "Cat"], {"variant": variant}, seed)
        rng = random.Random(seed)
        while not state.game_over:
            legal = legal_actions(state)
            # Mostly the heuristic's moves (it claims), now and then any (it crafts, retires).
            action = (heuristic_policy(state, legal, rng) if rng.random() < 0.8
                      else rng.choice(legal))
            before = scores(state)
            events = apply(state, action)
            if state.game_over:
                break  # the end's words restate the bonuses the score already counts
            texts = [str(e.data["text"]) for e in events if e.kind == "said"]
            gained = scores(state)[action.player] - before[action.player]
            assert said_gain(texts) == gained, (action, texts, gained)
            words = " ".join(texts)
            told["bonus"] += "for the highest" in words
            told["craft"] += "crafts" in words and gained > 0
            told["retire"] += "retires" in words and gained > 0
            told["tool"] += "and doubles" in words
            told["party"] += "points for ideas" in words and gained > 0
    assert all(told.values()), told  # every kind of scoring was met and checked


def learner_score(run: LessonRun) -> int:
    return int(scores(run.state)[run.learner])


def test_the_lesson_says_the_points_the_learner_scores() -> None:
    rules = load_by_id("danger_danger_dinosaur")
    [lesson] = lessons_of(rules)
    run = LessonRun(lesson)
    last = learner_score(run)
    checked = 0
    while run.step is not None:
        step = run.step
        if step.kind != "act" and step.say and GAIN.search(step.say):
            # Words after the learner's move name what it scored since the last such words.
            assert said_gain([step.say]) == learner_score(run) - last, step.say
            last = learner_score(run)
            checked += 1
        run.play_silently()
    assert checked, "the lesson tells the learner what the claim scored"

