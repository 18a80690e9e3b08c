"""Mutated rulesets never crash `validate` and never crash or hang a game.

Every shipped ruleset is mutated by a seeded generator (numbers made text, huge or
negative; a line deleted or two swapped; unicode junk inserted; a key renamed). Each
mutant either fails to load with every problem pinned to a line, or loads and then plays
a few bot games that end (or reach the action cap) or stop with an `EngineError` naming the
rules file and a line of it: never another exception, never a hang. The small grid fixture is
mutated too: its mutants that never end once the field is full stall on an argument with no
value left, which must name that argument's line.

Run many more mutations by hand: `PYTHONPATH=. python3 tests/test_ruleset_fuzz.py 3000`.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import FIXTURES

from dinotable.bots import POLICIES
from dinotable.engine import EngineError, apply, legal_actions, new_game, scores, view_for
from dinotable.ruleset import LoadError, installed_rulesets, load_ruleset

MUTATIONS_PER_RULESET = 60
ACTION_CAP = 600
GAMES = (("random", 11), ("heuristic", 12))
_NUMBER = re.compile(r"(?<![\w.#])-?\d+(?![\w.])")
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?=\s*:)")
_JUNK = ["\u00e9", "\u2603", "\U0001f996", "\u200b", "\ufeff", "\u0000", "\t", "{", "]",
         "'", '"', "&a", "*a", "!!python/name:os.system", "%", "@", "\u202e", "{&a}",
         "{1: 2}", "~", "null: 1"]


def mutate(text: str, rng: random.Random) -> str:
    """One random mutation of a ruleset's text."""
    lines = text.split("\n")
    kind = rng.randrange(7)
    numbers = list(_NUMBER.finditer(text))
    if kind <= 2 and numbers:
        m = rng.choice(numbers)
        new = (["'seven'", "seven", "true", "''", "[]"] if kind == 0 else
               ["1" * 30, "9" * 5000, str(10 ** 12)] if kind == 1 else
               ["-1", "-" + m.group().lstrip("-"), "0", "-999999"])
        return text[:m.start()] + rng.choice(new) + text[m.end():]
    if kind == 3 and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
        return "\n".join(lines)
    if kind == 4 and len(lines) > 2:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == 5:
        keys = list(_KEY.finditer(text))
        if keys:
            m = rng.choice(keys)
            word = m.group()
            new = rng.choice([word[:-1] or "x", word + "s", word.upper(), "zz_" + word])
            return text[:m.start()] + new + text[m.end():]
    pos = rng.randrange(len(text) + 1)
    return text[:pos] + rng.choice(_JUNK) + text[pos:]


def play(rules_dir: Path) -> str:
    """Load a mutant and play its bot games; return what happened (raise on a real bug)."""
    try:
        rules = load_ruleset(rules_dir)
    except LoadError as exc:
        assert exc.problems, "a LoadError with no problem"
        for p in exc.problems:
            assert p.line >= 1 and p.col >= 1 and p.file.endswith("rules.yaml"), str(p)
            assert p.message.strip(), str(p)
        return "invalid"
    seats = sorted({rules.min_players, min(rules.max_players, rules.min_players + 1)})
    outcome = "played"
    for n in seats:
        for policy, seed in GAMES:
            try:
                _game(rules, n, policy, seed)
            except EngineError as exc:
                assert re.search(r"rules\.yaml:\d+", str(exc)), (
                    f"an engine error not naming the rules line: {exc}")
                outcome = "engine error"
    return outcome


def _game(rules: object, n: int, policy: str, seed: int) -> None:
    state = new_game(rules, [f"P{i}" for i in range(n)], None, seed)  # type: ignore[arg-type]
    rng = random.Random(seed)
    choose = POLICIES[policy]
    for _ in range(ACTION_CAP):
        if state.game_over:
            break
        apply(state, choose(state, legal_actions(state), rng), False)
    scores(state)
    view_for(state, 0)


def mutated_rulesets() -> list[Path]:
    """Every shipped ruleset, and the grid fixture (a board's spaces as an argument)."""
    return [*installed_rulesets(), FIXTURES / "good_rulesets" / "fixture_grid"]


def mutants(count: int, seed: int = 1) -> Iterator[tuple[str, str, str]]:
    """(ruleset id, mutant number, mutated text) for every ruleset mutated."""
    for folder in mutated_rulesets():
        text = (folder / "rules.yaml").read_text(encoding="utf-8")
        rng = random.Random(f"{seed}:{folder.name}")
        for k in range(count):
            yield folder.name, str(k), mutate(text, rng)


def _run(count: int, tmp: Path, seed: int = 1) -> dict[str, int]:
    tally: dict[str, int] = {}
    for rid, k, text in mutants(count, seed):
        folder = tmp / k / rid  # the folder is named like the ruleset id, so the id check holds
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "rules.yaml").write_text(text, encoding="utf-8")
        try:
            outcome = play(folder)
        except Exception as exc:
            raise AssertionError(f"mutant {rid} #{k} crashed: {exc!r}\n--- rules.yaml ---\n"
                                 f"{text}") from exc
        tally[outcome] = tally.get(outcome, 0) + 1
    return tally


def test_mutated_rulesets_are_reported_or_play_safely(tmp_path: Path) -> None:
    tally = _run(MUTATIONS_PER_RULESET, tmp_path)
    assert sum(tally.values()) == MUTATIONS_PER_RULESET * len(mutated_rulesets())
    # The generator really does both: some mutants are refused, some still play.
    assert tally.get("invalid", 0) > 0
    assert tally.get("played", 0) > 0


@pytest.mark.parametrize("folder", installed_rulesets(), ids=lambda p: p.name)
def test_the_shipped_rulesets_themselves_play_safely(folder: Path) -> None:
    assert play(folder) == "played"


if __name__ == "__main__":
    import tempfile
    import time

    total = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        print(_run(total, Path(d), int(sys.argv[2]) if len(sys.argv) > 2 else 1),
              f"{time.perf_counter() - t0:.1f}s")
