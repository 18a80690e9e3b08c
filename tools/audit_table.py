#!/usr/bin/env python3
"""Audit the table: play seeded whole games of every shipped and fixture ruleset through
the real table scene (headless), at two seats and the most the game allows, by mouse and by
keyboard alone, in three window sizes, and check every frame.

    python3 tools/audit_table.py            the full run (a submission's last look)
    python3 tools/audit_table.py --quick    the suite's run: shorter games
    python3 tools/audit_table.py dino_hunt  only these rulesets (ids or fixture names)

One line per fault (game, seats, window, keyboard or mouse, move, what is wrong), then a
summary. Exit 0 when clean, 1 with faults, 2 on a bad argument.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FIXTURES = ROOT / "tests" / "fixtures" / "good_rulesets"


def rulesets(only: list[str]) -> list[tuple[str, object]]:
    """Every shipped ruleset, then every fixture game (or only those named)."""
    from dinotable.ruleset import installed_rulesets, load_by_id, load_ruleset

    found: list[tuple[str, object]] = [(p.name, load_by_id(p.name))
                                       for p in installed_rulesets()]
    if FIXTURES.is_dir():
        found += [(p.name, load_ruleset(p)) for p in sorted(FIXTURES.iterdir()) if p.is_dir()]
    if only:
        names = {name for name, _ in found}
        unknown = [n for n in only if n not in names]
        if unknown:
            raise SystemExit(f"audit_table: no ruleset named {', '.join(unknown)}; "
                             f"expected one of {', '.join(sorted(names))}")
        found = [(name, rules) for name, rules in found if name in only]
    return found


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*", help="ruleset ids or fixture names")
    parser.add_argument("--quick", action="store_true", help="shorter games, for the suite")
    parser.add_argument("--jobs", type=int, default=1,
                        help="games audited at once, each in a process of its own")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        out(f"audit_table: --jobs: expected a whole number of 1 or more, got {args.jobs}")
        return 2
    try:
        found = rulesets(args.only)
    except SystemExit as exc:
        out(str(exc))
        return 2
    from dinotable.audit import cases

    global TODO
    TODO = cases(found, args.quick)  # type: ignore[arg-type]
    import multiprocessing

    if args.jobs > 1 and "fork" not in multiprocessing.get_all_start_methods():
        # Windows cannot fork, and a started (not forked) worker would have no cases: the
        # compiled rulesets do not travel between processes. One process it is.
        out("audit_table: this system cannot fork worker processes; auditing in one")
        args.jobs = 1
    if args.jobs == 1:
        results = map(audit_one, range(len(TODO)))
    else:
        # Forked workers inherit the loaded rulesets; each opens a headless app of its own.
        pool = multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=1)
        results = pool.imap_unordered(audit_one, range(len(TODO)))
    totals = [0, 0, 0, 0.0, 0, 0]  # games, decisions, frames, seconds, finished, faults
    for faults, decisions, frames, seconds, finished in results:
        for line in faults:
            out(line)
        for k, value in enumerate((1, decisions, frames, seconds, finished, len(faults))):
            totals[k] += value
    games, decisions, frames, seconds, finished, faults = totals
    out(f"audited {games} games ({finished} played to the end), {decisions} decisions, "
        f"{frames} frames, {seconds:.0f} s: {faults} faults")
    return 1 if faults else 0


TODO: list = []  # the cases to audit, shared with forked workers


def audit_one(index: int) -> tuple[list[str], int, int, float, bool]:
    """Audit one case in a fresh headless app: its faults and figures."""
    import pygame

    from dinotable.app import App
    from dinotable.audit import audit
    from dinotable.settings import Settings

    app = App(settings=Settings(bot_speed="fast"))
    try:
        report = audit(app, TODO[index])
    finally:
        pygame.quit()
    return report.faults, report.decisions, report.frames, report.seconds, report.finished


if __name__ == "__main__":
    sys.exit(main())
