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
    args = parser.parse_args(argv)
    try:
        found = rulesets(args.only)
    except SystemExit as exc:
        out(str(exc))
        return 2
    from dinotable.app import App
    from dinotable.audit import cases, run_all
    from dinotable.settings import Settings

    todo = cases(found, args.quick)  # type: ignore[arg-type]

    def told(report: object) -> None:
        for line in report.faults:  # type: ignore[attr-defined]
            out(line)

    reports = run_all(lambda: App(settings=Settings(bot_speed="fast")), todo, told)
    faults = sum(len(r.faults) for r in reports)
    decisions = sum(r.decisions for r in reports)
    frames = sum(r.frames for r in reports)
    seconds = sum(r.seconds for r in reports)
    finished = sum(r.finished for r in reports)
    out(f"audited {len(reports)} games ({finished} played to the end), {decisions} "
          f"decisions, {frames} frames, {seconds:.0f} s: {faults} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
