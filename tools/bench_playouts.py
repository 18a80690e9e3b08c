"""Playouts the fair and sharp search bots make in a move's time budget, per shipped game,
from a fixed set of seeded positions (see dinotable/bench_bots.py).

    PYTHONPATH=$PWD python3 tools/bench_playouts.py [ruleset ...] [--json]

The measuring code is always this tree's; the engine and bots are whatever `dinotable`
PYTHONPATH names, so an older tree is measured side by side with the same positions:

    PYTHONPATH=/path/to/older/tree python3 tools/bench_playouts.py
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # after PYTHONPATH: the tree it names is the one measured


def _bench_bots() -> Any:
    """This tree's dinotable/bench_bots.py, whichever dinotable is imported."""
    spec = importlib.util.spec_from_file_location("bench_bots", ROOT / "dinotable" /
                                                  "bench_bots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import dinotable

    bench = _bench_bots()
    figures = bench.measure_playouts(args.rulesets or None)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"dinotable from {Path(dinotable.__file__).parent}")
        for line in bench.playouts_lines(figures):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
