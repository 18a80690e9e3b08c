#!/usr/bin/env python3
"""Make the corpus of saves in tests/saves_corpus: games saved by earlier versions of the
rules and of the app, which every later version must open and replay or refuse in words.

For each chosen commit, a temporary checkout of it (`git worktree add --detach` under the
system's temporary folder, removed after) plays seeded games with seeded random legal moves
through that commit's own engine, and writes them with that commit's own save writer, the
way its table did: the autosave of a game in progress, and a finished game as the app kept
it (archived with its summary where that version archived games). A commit from before the
app saved games writes the first format by hand, as the first save writer did.

    python3 tools/save_corpus.py                 every chosen commit's saves, made again
    python3 tools/save_corpus.py --check         made again elsewhere and compared, byte
                                                 for byte, with the corpus
    python3 tools/save_corpus.py --head          HEAD's saves too (a release's, once its
                                                 rules are committed; then add HEAD's
                                                 commit to CHOSEN)
    python3 tools/save_corpus.py --ruleset dino_hunt --commit 1084ba8
                                                 one game's saves at one more commit
    python3 tools/save_corpus.py --all --out /tmp/sweep
                                                 every commit that changed each ruleset's
                                                 rules, and HEAD, somewhere else (to look
                                                 for the changes that break replay)
    python3 tools/save_corpus.py --list          what would be made, and nothing else

Each file is named <date>-<commit>-v<version>-<finished|unfinished>-<N>p.yaml in the
folder of its ruleset; the same commit gives the same bytes every time (seeds, names and
the time written in the save all come from the commit and the game). Exit 0 when all were
made (and, with --check, match), 1 otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "saves_corpus"
RULESETS = ("dino_hunt_dice", "dinosaur_dice", "dino_hunt", "danger_danger_dinosaur",
            "dino_dude_ranch")

# The commits each ruleset's saves come from: its first version, commits across its
# history, those just before and after a change to how saved moves replay (found with
# --all), and each release's own (HEAD when it was made, added here so the corpus can be
# made again as it is). A commit may come from before the app saved games (the first
# format, by hand) or hold the first save writer (format 1) though the rules did not change.
CHOSEN: dict[str, tuple[str, ...]] = {
    "dino_hunt_dice": (
        "cdd6a3f",  # the first Dino Hunt Dice, before the app saved games
        "6362a78",
        "ce1082f",  # the first save writer (format 1)
        "e950ecb",  # the last change to its rules
        "5142ff0",  # this release
    ),
    "dinosaur_dice": (
        "6362a78",  # the first Dinosaur Dice, before the app saved games
        "ce1082f",  # the first save writer (format 1)
        "533fa21",  # the steal becomes a question
        "ff195b0",  # the last change to its rules
        "5142ff0",  # this release
    ),
    "dino_hunt": (
        "4b99540",  # the first Dino Hunt (format 1)
        "3220f09",  # just after a response window came to ask with itself open
        "2c35ff8",
        "1084ba8",  # just before a card that cannot change a hunt was no longer offered
        "b8d1589",  # just after it
        "9f9ee2b",  # the last text of version 1
        "5142ff0",  # version 2
        "9cc5d2b",  # version 3: rivals' identical cards add up; no Energy ends the turn
    ),
    "danger_danger_dinosaur": (
        "421c0bd",  # the first Danger! Danger! Dinosaur
        "38823ac",  # just before the dinosaur die went to one face in six
        "402f6f5",  # just after it
        "35d2f88",  # just before the Tribe Elders and Wise Grandmothers scored 20
        "bed7b05",  # just after it, and just before the Longhouse came to need water
        "81584b9",  # just after that
        "1072ab5",
        "6597ee7",  # the first of version 2
        "5142ff0",  # this release
    ),
    "dino_dude_ranch": (
        "e453fd5",  # the first Dino Dude Ranch
        "9d9e0e8",
        "fbd007d",  # just before two Rancher Bonus cards came to score more
        "d1f1fea",  # just after it
        "10823db",
        "85212fa",  # the last text of version 1
        "79d4683",  # the first of version 2
        "5142ff0",  # this release
    ),
}

# Options a game is played with, one set a game in turn (only those the commit's rules
# know are passed): the variants a table offers, besides the defaults.
OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "dino_hunt_dice": ({}, {"goal": 13}),
    "dinosaur_dice": ({}, {"goal": 15}),
    "dino_hunt": ({"length": "short"}, {}),
    "danger_danger_dinosaur": ({}, {"variant": "party"}),
    "dino_dude_ranch": ({}, {"board": "night", "tar_pit_attacks": True}),
}
NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eve", "Finn")
KINDS = ("human", "heuristic", "random", "heuristic", "human", "random")
MOVE_CAP = 1500  # games are tried with one seed after another until three end by then
LONG_CAP = 5000  # or failing that, the shortest that ends by this many moves
SEEDS = 12  # seeds tried for each game


@dataclass(frozen=True)
class Job:
    """One save to make: a ruleset's game at a commit, played to its end or stopped."""

    ruleset: str
    commit: str  # the short commit
    finished: bool
    players: int
    seed: int
    options: dict[str, Any]


# Run inside the checkout of a commit, with its own dinotable first on the path. Only the
# engine's oldest calls are relied on; anything newer is looked up before it is used.
PLAYER = r'''
import dataclasses, json, os, random, shutil, sys

job = json.loads(sys.stdin.read())
from dinotable import engine
from dinotable.ruleset import load_by_id
try:
    from dinotable import saves
except ImportError:
    saves = None


def choose(state, rng):
    sample = getattr(engine, "sample_action", None)
    if sample is not None:
        return sample(state, rng)
    waiting = getattr(engine, "waiting_on", None)
    seat = waiting(state) if waiting is not None else None
    found = engine.legal_actions(state, seat) if seat is not None else engine.legal_actions(state)
    return found[int(rng.random() * len(found))]


def play(rules, names, options, seed, upto):
    state = engine.new_game(rules, names, options or None, seed)
    rng = random.Random(seed ^ 0xB07)  # the table's bots' random source
    while not state.game_over and len(state.log) < upto:
        engine.apply(state, choose(state, rng))
    return state, rng


def plain(value):
    return list(value) if isinstance(value, tuple) else value


def by_hand(game, path):
    # Before the app saved games: the first format, as the first save writer wrote it.
    import yaml
    data = {"format": 1, "ruleset": game["ruleset"], "version": game["version"],
            "seats": game["seats"], "options": game["options"], "seed": game["seed"],
            "log": [[p, a, [[k, plain(v)] for k, v in args]] for p, a, args in game["log"]]}
    with open(path, "w", encoding="utf-8") as f:
        f.write(yaml.safe_dump(data, sort_keys=False))


def with_writer(game, rng, finished):
    fields = {f.name for f in dataclasses.fields(saves.SavedGame)}
    extra = {}
    if "bots_random" in fields:
        extra["bots_random"] = rng.getstate()
    if "saved_at" in fields:
        extra["saved_at"] = job["saved_at"]
    seats = [saves.SavedSeat(s["name"], s["kind"], s["colour"]) for s in game["seats"]]
    saved = saves.SavedGame(game["ruleset"], game["version"], seats, game["options"],
                            game["seed"], game["log"], **extra)
    write = getattr(saves, "try_write", None)
    if write is not None:
        problem = write(saved)
        if problem is not None:
            raise SystemExit(problem)
    elif not saves.write(saved):
        raise SystemExit("not written")
    autosave = saves.autosave_path()
    if finished and hasattr(saves, "archive"):
        kept = saves.archive()  # as the table kept a game once it was over
        if kept is None:
            raise SystemExit("not archived")
        return kept
    return autosave


out = []
for each in job["games"]:
    home = each["home"]
    os.environ["DINOTABLE_HOME"] = home
    rules = load_by_id(each["ruleset"])
    names = job["names"][:each["players"]]
    options = {k: v for k, v in each["options"].items() if k in rules.options
               and (not rules.options[k].choices or v in rules.options[k].choices)}
    result = {"ruleset": each["ruleset"], "finished": each["finished"],
              "version": rules.version}
    try:
        # The shortest of the seeded games tried: seeds are tried until three games end
        # within the cap, or all have been (random moves can make very long games, and
        # the corpus is kept small and quick to test).
        ended = []
        for seed in range(each["seed"], each["seed"] + job["seeds"]):
            state, rng = play(rules, names, options, seed,
                              job["long_cap"] if each["finished"] else job["cap"])
            if state.game_over or not each["finished"]:
                # A game to stop partway need not end: the first one will do.
                ended.append((len(state.log), seed, state, rng))
            if not each["finished"] or sum(n <= job["cap"] for n, *_ in ended) == 3:
                break
        if not ended:
            raise SystemExit("no game ended")
        _, seed, state, rng = min(ended, key=lambda e: e[:2])
        if not each["finished"]:
            # Stopped partway: the same game, replayed to a point in its first half.
            length = len(state.log)
            stop = max(3, length * (2 + seed % 3) // 10)
            state, rng = play(rules, names, options, seed, stop)
        game = {"ruleset": rules.id, "version": rules.version, "seed": seed,
                "seats": [{"name": n, "kind": job["kinds"][i], "colour": i}
                          for i, n in enumerate(names)],
                "options": dict(state.options),
                "log": [(a.player, a.id, tuple(a.args)) for a in state.log]}
        target = each["target"]
        if saves is None:
            by_hand(game, target)
        else:
            shutil.copyfile(with_writer(game, rng, each["finished"]), target)
        result.update(moves=len(state.log), over=bool(state.game_over), seed=seed)
    except BaseException as exc:  # reported, and the other games still made
        result["error"] = f"{type(exc).__name__}: {exc}"[:300]
    out.append(result)
print(json.dumps(out))
'''


def git(*args: str, cwd: Path = ROOT) -> str:
    """A git command's output (it must succeed)."""
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def short(commit: str) -> str:
    """A commit's seven-character name."""
    return git("rev-parse", "--short=7", f"{commit}^{{commit}}")


def changes(ruleset: str) -> list[str]:
    """Every commit that changed a ruleset's rules.yaml, oldest first."""
    return git("log", "--reverse", "--format=%h", "--abbrev=7", "--",
               f"rulesets/{ruleset}/rules.yaml").split()


def _number(text: str) -> int:
    """A number worked out from a text alone (the same on every machine and run)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def jobs_for(ruleset: str, commits: list[str]) -> list[Job]:
    """A finished and an unfinished game for each commit, on different seat counts and
    options. Each is worked out from the ruleset and the commit alone, so adding a commit
    changes no other commit's saves."""
    out = []
    counts = (2, 3, 4)
    options = OPTIONS[ruleset]
    for commit in commits:
        pick = _number(f"{ruleset}:{commit}")
        for n, finished in enumerate((True, False)):
            key = f"{ruleset}:{commit}:{'finished' if finished else 'unfinished'}"
            seed = _number(key) % 100_000
            out.append(Job(ruleset, commit, finished, counts[(pick + n) % len(counts)], seed,
                           options[(pick // 3 + n) % len(options)]))
    return out


def file_name(date: str, commit: str, version: int, finished: bool, players: int) -> str:
    """Where a save goes in its ruleset's folder."""
    state = "finished" if finished else "unfinished"
    return f"{date}-{commit}-v{version}-{state}-{players}p.yaml"


def make(commit: str, jobs: list[Job], out: Path) -> list[str]:
    """Play and save every job at one commit, in a checkout of it; lines to report."""
    date = git("show", "-s", "--format=%cd", "--date=format-local:%Y-%m-%d", commit)
    stamp = git("show", "-s", "--format=%cd", "--date=format-local:%Y-%m-%d %H:%M:%S", commit)
    scratch = Path(tempfile.mkdtemp(prefix=f"save-corpus-{commit}-"))
    tree = scratch / "checkout"
    report = []
    try:
        git("worktree", "add", "--detach", str(tree), commit)
        games = []
        for n, job in enumerate(jobs):
            home = scratch / f"home-{n}"
            home.mkdir()
            games.append({"ruleset": job.ruleset, "finished": job.finished,
                          "players": job.players, "seed": job.seed, "options": job.options,
                          "home": str(home), "target": str(scratch / f"save-{n}.yaml")})
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "DINOTABLE_RULESETS", "DINOTABLE_HOME")}
        env.update(PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", TZ="UTC",
                   SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        script = scratch / "player.py"
        script.write_text(PLAYER, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(script)], cwd=tree, env=env, capture_output=True, text=True,
            input=json.dumps({"games": games, "names": NAMES, "kinds": KINDS,
                              "cap": MOVE_CAP, "long_cap": LONG_CAP,
                              "seeds": SEEDS, "saved_at": stamp}), check=False)
        if done.returncode != 0:
            tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
            return [f"{commit}: the checkout could not play ({tail[0]})"]
        for job, game, result in zip(jobs, games, json.loads(done.stdout), strict=True):
            where = f"{job.ruleset} at {commit}"
            if "error" in result:
                report.append(f"{where}: not made ({result['error']})")
                continue
            name = file_name(date, commit, result["version"], job.finished, job.players)
            target = out / job.ruleset / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(game["target"], target)
            size = target.stat().st_size
            report.append(f"{job.ruleset}/{name}: {result['moves']} moves, "
                          f"{'over' if result['over'] else 'going on'}, {size // 1024} KB")
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                       capture_output=True, check=False)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True,
                       check=False)
        shutil.rmtree(scratch, ignore_errors=True)
    return report


def plan(args: argparse.Namespace) -> dict[str, list[Job]]:
    """The jobs to run, by commit."""
    rulesets = args.ruleset or list(RULESETS)
    for rid in rulesets:
        if rid not in RULESETS:
            raise SystemExit(f"no shipped ruleset {rid!r}; they are {', '.join(RULESETS)}")
    head = short("HEAD")
    by_commit: dict[str, list[Job]] = {}
    for rid in rulesets:
        if args.commit:
            commits = [short(c) for c in args.commit]
        elif args.all:
            commits = [*changes(rid), head]
        else:
            commits = [short(c) for c in CHOSEN[rid]] + ([head] if args.head else [])
        commits = list(dict.fromkeys(commits))
        for job in jobs_for(rid, commits):
            by_commit.setdefault(job.commit, []).append(job)
    return by_commit


def check(by_commit: dict[str, list[Job]], scratch: Path, corpus: Path) -> int:
    """Make the saves in `scratch` and compare them with the corpus; 0 when they match."""
    for commit, jobs in by_commit.items():
        for line in make(commit, jobs, scratch):
            if "not made" in line or "could not play" in line:
                print(line)
    made = {p.relative_to(scratch) for p in scratch.glob("*/*.yaml")}
    kept = {p.relative_to(corpus) for p in corpus.glob("*/*.yaml")
            if p.parent.name in {j.ruleset for jobs in by_commit.values() for j in jobs}}
    differ = sorted(str(p) for p in made & kept
                    if (scratch / p).read_bytes() != (corpus / p).read_bytes())
    for name, paths in (("not in the corpus", made - kept), ("not made again", kept - made)):
        for path in sorted(paths):
            print(f"{path}: {name}")
    for path in differ:
        print(f"{path}: made again, it differs")
    print(f"{len(made & kept) - len(differ)} of {len(kept)} saves made again byte for byte")
    return 0 if made == kept and not differ else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", action="append", help="only this ruleset (repeatable)")
    parser.add_argument("--commit", action="append",
                        help="only this commit (repeatable), instead of the chosen ones")
    parser.add_argument("--all", action="store_true",
                        help="every commit that changed the ruleset's rules, and HEAD")
    parser.add_argument("--head", action="store_true", help="HEAD's saves too")
    parser.add_argument("--out", type=Path, default=CORPUS, help="where the saves go")
    parser.add_argument("--check", action="store_true",
                        help="make them elsewhere and compare them with the corpus")
    parser.add_argument("--list", action="store_true", help="say what would be made")
    args = parser.parse_args(argv)
    by_commit = plan(args)
    if args.check:
        with tempfile.TemporaryDirectory(prefix="save-corpus-check-") as scratch:
            return check(by_commit, Path(scratch), args.out)
    if args.list:
        for commit, jobs in by_commit.items():
            for job in jobs:
                print(f"{commit} {job.ruleset} {'finished' if job.finished else 'unfinished'}"
                      f" {job.players}p seed {job.seed} {job.options or ''}")
        return 0
    failed = False
    for commit, jobs in by_commit.items():
        for line in make(commit, jobs, args.out):
            failed |= "not made" in line or "could not play" in line
            print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
