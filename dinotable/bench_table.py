"""Frame, physics and start-up figures for `dinotable bench` (they need pygame)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from typing import Any

BARE_WINDOW = (
    "import pygame\n"
    "pygame.init()\n"
    "pygame.display.set_mode((1280, 720))\n"
    "pygame.display.flip()\n"
    "print('first frame drawn', flush=True)\n"
    "pygame.quit()\n"
)


def frame_times(frames: int = 600) -> dict[str, float]:
    """Milliseconds per frame at 1280x720 while ten dice tumble on a full Dino Hunt Dice table."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from .app import App
    from .scenes.setup import start_table
    from .settings import Settings

    app = App(settings=Settings(muted=True))
    app.lazy = False  # every frame drawn: the figure is what a frame costs
    try:
        start_table(app, "dino_hunt_dice", ["Ann", "Ben", "Cat", "Dev", "Eli", "Fay"],
                    ["human"] * 6, seed=1)
        table = app.top
        times = []
        seed = 0
        for _ in range(frames):
            if table.toss is None:  # type: ignore[attr-defined]
                seed += 1
                table.demo_toss(seed)  # type: ignore[attr-defined]
            start = time.perf_counter()
            app.step(dt=1 / 60)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        return {"frame_ms_p50": round(statistics.median(times), 3),
                "frame_ms_p99": round(times[int(len(times) * 0.99) - 1], 3)}
    finally:
        pygame.quit()


def card_frame_times(frames: int = 600) -> dict[str, float]:
    """Milliseconds per frame at 1280x720 on a Dino Hunt table with about 60 cards showing
    (the Time Track full, hands, gadgets and zoos), the pointer moving over the cards so
    they grow on hover as a player's would."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import random

    import pygame

    from . import bots
    from .app import App
    from .engine import GameState
    from .scenes.setup import start_table
    from .settings import Settings

    app = App(settings=Settings(muted=True))
    app.lazy = False  # every frame drawn: the figure is what a frame costs
    try:
        start_table(app, "dino_hunt", ["Ann", "Ben", "Cat", "Dev"], ["human"] * 4, seed=1)
        table = app.top
        state: GameState = table.state  # type: ignore[attr-defined]
        rng = random.Random(1)

        def on_screen(st: GameState) -> int:
            # Cards anywhere but the two decks are drawn (or their backs, for hands).
            decks = {"dino_deck", "special_deck"}
            return sum(len(owned) for name, lists in st.zones.items() if name not in decks
                       for owned in lists)

        # Play on (as bots would) until about 60 cards are out, then time frames there.
        moves = 0
        while on_screen(state) < 60 and not state.game_over and moves < 2000:
            table.take(bots.choose("heuristic", state, rng))  # type: ignore[attr-defined]
            moves += 1
        for _ in range(240):  # let the playback of those moves finish
            app.step(dt=1 / 20)
            while app.top is not table:
                app.pop()  # a hand-off or the results: the bench looks at the table
        times = []
        for n in range(frames):
            x = 300 + (n * 7) % 660
            y = 120 + (n * 3) % 480
            move = pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(7, 3),
                                      buttons=(0, 0, 0))
            start = time.perf_counter()
            app.step([move], dt=1 / 60)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        return {"cards_on_table": on_screen(state),
                "card_frame_ms_p50": round(statistics.median(times), 3),
                "card_frame_ms_p99": round(times[int(len(times) * 0.99) - 1], 3)}
    finally:
        pygame.quit()


def _first_frame_once(argv: list[str], env: dict[str, str]) -> float | None:
    """Seconds from starting one process to its 'first frame drawn' line (None: never)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    took = None
    for line in proc.stdout:
        if line.startswith("first frame drawn"):
            took = time.perf_counter() - start
            break
    proc.kill()
    proc.wait()
    return took


def first_frames(commands: list[list[str]], runs: int = 5) -> list[float]:
    """Median seconds from starting a process to its 'first frame drawn' line, for each
    command; the commands take turns, so a busy moment of a shared machine falls on all."""
    env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "dummy"),
               SDL_AUDIODRIVER="dummy", DINOTABLE_REPORT_FIRST_FRAME="1",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    # An installed app has its bytecode compiled; let the first (unmeasured) run write it,
    # so the figure is start-up, not compilation.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    samples: list[list[float]] = [[] for _ in commands]
    for run in range(runs + 1):
        for argv, kept in zip(commands, samples, strict=True):
            took = _first_frame_once(argv, env)
            if run and took is not None:
                kept.append(took)
    return [round(statistics.median(kept), 4) if kept else -1.0 for kept in samples]


def time_to_first_frame(argv: list[str], runs: int = 5) -> float:
    """Median seconds from starting a process to its 'first frame drawn' line."""
    return first_frames([argv], runs)[0]


def measure_table(quick: bool = False) -> dict[str, Any]:
    """Every table figure for the bench object."""
    from .physics.tray import bench as physics_bench

    result: dict[str, Any] = {}
    result.update(frame_times(120 if quick else 600))
    result.update(card_frame_times(120 if quick else 600))
    physics = physics_bench(400 if quick else 2000)
    result["physics_step_us"] = round(float(physics["physics_step_us"]), 2)
    result["settle_s"] = round(float(physics["settle_s"]), 3)
    result["max_settle_s"] = round(float(physics["max_settle_s"]), 3)
    # Both are fresh processes, timed from their start to the first frame shown: for
    # dinotable, the title with every game listed.
    app, bare = first_frames([[sys.executable, "-m", "dinotable", "--frames", "1"],
                              [sys.executable, "-c", BARE_WINDOW]], 3 if quick else 9)
    result["first_frame_s"] = app
    result["bare_pygame_first_frame_s"] = bare
    result["first_frame_ratio"] = round(app / bare, 2) if app > 0 and bare > 0 else None
    return result
