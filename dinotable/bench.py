"""`dinotable bench`: speed figures for every shipped ruleset (every JSON key in docs/bench.md)."""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from . import __version__
from .bench_saves import measure_saves, saves_line
from .reference import dino_hunt_dice as handwritten
from .ruleset import installed_rulesets, load_ruleset
from .sim import simulate

REPEATS = 3  # best of three: a shared 2-core machine is noisy, the best run is the signal
BUILD_COMMAND = 'python3 -m pip install ".[package]" && python3 packaging/build.py'


def _players(min_players: int, max_players: int) -> int:
    return max(min_players, min(3, max_players))


def _games_within(rules: Any, players: int, games: int, budget_s: float) -> int:
    """`games`, or fewer for a ruleset whose games are long (a card game plays tens of games
    a second, a dice game thousands): about `budget_s` seconds a run, at least 20 games."""
    trial = simulate(rules, players, 5, 0, ["random"])
    return max(20, min(games, int(trial["games_per_second"] * budget_s)))


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return max(runs, key=lambda r: r["games_per_second"])


def measure(quick: bool = False) -> dict[str, Any]:
    """Run every measurement and return the bench object."""
    games = 200 if quick else 2000
    result: dict[str, Any] = {
        "dinotable": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rulesets": {},
    }
    for folder in installed_rulesets():
        start = time.perf_counter()
        rules = load_ruleset(folder)
        load_ms = (time.perf_counter() - start) * 1000
        players = _players(rules.min_players, rules.max_players)
        count = _games_within(rules, players, games, 1.0 if quick else 10.0)
        best = _best([simulate(rules, players, count, seed, ["random"])
                      for seed in range(1, REPEATS + 1)])
        result["rulesets"][rules.id] = {
            "load_validate_ms": round(load_ms, 2),
            "players": players,
            "games": count,
            "games_per_second": best["games_per_second"],
            "actions_per_second": best["actions_per_second"],
        }
    start = time.perf_counter()
    for folder in installed_rulesets():
        load_ruleset(folder)
    result["load_validate_all_ms"] = round((time.perf_counter() - start) * 1000, 2)
    dhd = result["rulesets"].get("dino_hunt_dice")
    if dhd is not None:
        # The engine and the hand-written game take turns, run for run, so that both see
        # the machine alike: a shared machine slows down and speeds up by the second.
        rules = load_ruleset(next(f for f in installed_rulesets() if f.name == "dino_hunt_dice"))
        engine_runs, hand_runs = [], []
        for seed in range(1, REPEATS + 1):
            engine_runs.append(simulate(rules, dhd["players"], dhd["games"], seed, ["random"]))
            hand_runs.append(handwritten.simulate(dhd["players"], games, seed))
        engine, hand = _best(engine_runs), _best(hand_runs)
        result["handwritten_dino_hunt_dice"] = {
            "players": dhd["players"],
            "games": games,
            "games_per_second": round(hand["games_per_second"], 2),
            "actions_per_second": round(hand["actions_per_second"], 1),
        }
        result["engine_vs_handwritten"] = round(
            engine["games_per_second"] / hand["games_per_second"], 3)
    result["dino_hunt"] = measure_dino_hunt(quick)
    result["bots"] = measure_bots(quick)
    result["fixtures"] = measure_fixtures(200 if quick else 1000, 1.0 if quick else 10.0)
    result.update(measure_decisions(100 if quick else 500))
    result["search"] = measure_search(result, quick)
    from .bench_table import measure_table

    result.update(measure_table(quick))
    result.update(measure_executable(quick))
    return result


def fixture_folders() -> list[Path]:
    """The small rulesets that prove one mechanic each (present in a checkout only)."""
    root = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "good_rulesets"
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / "rules.yaml").is_file())


def measure_fixtures(games: int, budget_s: float = 10.0) -> dict[str, Any]:
    """Random-bot games per second for every fixture ruleset, and microseconds per action
    (fewer games for a fixture whose games are long: about `budget_s` seconds a run)."""
    out: dict[str, Any] = {}
    for folder in fixture_folders():
        rules = load_ruleset(folder)
        players = _players(rules.min_players, rules.max_players)
        count = _games_within(rules, players, games, budget_s)
        best = _best([simulate(rules, players, count, seed, ["random"])
                      for seed in range(1, REPEATS + 1)])
        out[rules.id] = {
            "players": players, "games": count,
            "games_per_second": best["games_per_second"],
            "actions_per_second": best["actions_per_second"],
            "us_per_action": round(1e6 / best["actions_per_second"], 2)
            if best["actions_per_second"] else None,
        }
    return out


SEARCH_MIN_GAMES_PER_SECOND = 100  # slower games (a card game): see docs/bots.md


def measure_search(figures: dict[str, Any], quick: bool = False) -> dict[str, Any]:
    """The search bot at two seats against the heuristic bot and against the random bot,
    in every shipped ruleset (and, in a full run, fixture game) whose random games are
    quick: its wins out of `games` (seat taken in turn) and its longest move."""
    from .sim import head_to_head

    policy = "search:gentle" if quick else "search"
    games = 2 if quick else 20
    folders = installed_rulesets() + ([] if quick else fixture_folders())
    speeds = {**figures["rulesets"], **figures.get("fixtures", {})}
    out: dict[str, Any] = {"policy": policy, "players": 2, "games": games, "rulesets": {}}
    for folder in folders:
        rules = load_ruleset(folder)
        speed = speeds.get(rules.id, {}).get("games_per_second", 0)
        if speed < SEARCH_MIN_GAMES_PER_SECOND or not rules.min_players <= 2 <= rules.max_players:
            continue
        out["rulesets"][rules.id] = {
            f"vs_{against}": head_to_head(rules, 2, games, 1, policy, against)["share"]
            for against in ("heuristic", "random")}
    return out


def measure_decisions(games: int) -> dict[str, Any]:
    """What the decision machinery costs: `apply` of an answer to a question or a response
    window against `apply` of an ordinary action, in the fixtures that ask."""
    import random

    from .engine import apply, legal_actions, new_game

    folders = {p.name: p for p in fixture_folders()}
    timings: dict[bool, list[float]] = {True: [], False: []}
    for name in ("fixture_respond", "fixture_choose"):
        if name not in folders:
            continue
        rules = load_ruleset(folders[name])
        for seed in range(games):
            state = new_game(rules, ["A", "B", "C"], None, seed)
            rng = random.Random(seed)
            while not state.game_over:
                legal = legal_actions(state)
                action = legal[int(rng.random() * len(legal))]
                answering = bool(state.pending)
                start = time.perf_counter()
                apply(state, action, False)
                timings[answering].append(time.perf_counter() - start)
    if not timings[True] or not timings[False]:
        return {"decision_apply_us": None, "plain_apply_us": None}
    return {
        "decision_apply_us": round(1e6 * sum(timings[True]) / len(timings[True]), 2),
        "plain_apply_us": round(1e6 * sum(timings[False]) / len(timings[False]), 2),
    }


def dist_dir() -> Path:
    """Where packaging/build.py puts the standalone app (DINOTABLE_DIST overrides)."""
    override = os.environ.get("DINOTABLE_DIST")
    return Path(override) if override else Path(__file__).resolve().parent.parent / "dist"


def built_executable(dist: Path) -> Path | None:
    """The one-folder app's executable under `dist`, if it has been built."""
    exe = dist / "dinotable" / ("dinotable.exe" if sys.platform == "win32" else "dinotable")
    return exe if exe.is_file() else None


def _megabytes(path: Path) -> float:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if not p.is_symlink()]
    return round(sum(p.stat().st_size for p in files if p.is_file()) / 1e6, 1)


def measure_executable(quick: bool = False) -> dict[str, Any]:
    """The standalone app's first frame and sizes; null until packaging/build.py has run."""
    from .bench_table import time_to_first_frame

    result: dict[str, Any] = {"exe_first_frame_s": None, "exe_unpacked_mb": None,
                              "exe_zip_mb": None}
    dist = dist_dir()
    exe = built_executable(dist)
    if exe is None:
        return result
    result["exe_first_frame_s"] = time_to_first_frame([str(exe), "--frames", "1"],
                                                      2 if quick else 5)
    result["exe_unpacked_mb"] = _megabytes(exe.parent)
    zips = sorted(dist.glob(f"dinotable-{__version__}-*.zip"), key=lambda p: p.stat().st_mtime)
    if zips:
        result["exe_zip_mb"] = _megabytes(zips[-1])
    return result


def run_bench(json_out: bool = False, quick: bool = False) -> int:
    """Print the figures (and, with --json, the object on the last line)."""
    from .bench_growth import boards_line, growth_line, measure_boards, measure_growth

    result = measure(quick)
    result["saves"] = measure_saves(quick)
    result["growth"] = measure_growth(quick)
    result["boards"] = measure_boards(quick)
    from .bench_bots import measure_playouts, playouts_lines

    # How far fair and sharp think on their own clocks, from seeded positions of each game.
    result["playouts"] = measure_playouts(counts={"fair": 1, "sharp": 1} if quick else None)
    for rid, figures in result["rulesets"].items():
        print(f"{rid}: {figures['games_per_second']:.0f} games/s, "
              f"{figures['actions_per_second']:.0f} actions/s with random bots "
              f"({figures['players']} players); load+validate {figures['load_validate_ms']:.1f} ms")
    print(f"all rulesets load+validate: {result['load_validate_all_ms']:.1f} ms")
    hunt = result.get("dino_hunt")
    if hunt:
        print(f"dino_hunt, {hunt['players']} players, full deck: "
              f"{hunt['random_games_per_second']:.1f} games/s random, "
              f"{hunt['heuristic_games_per_second']:.1f} games/s heuristic; longest heuristic "
              f"move {hunt['heuristic_longest_move_ms']} ms over {hunt['heuristic_moves']} "
              f"moves; view_for mid-game {hunt['view_for_us']} us; end-of-game autosave "
              f"({hunt['save_moves']} moves, {hunt['save_bytes']} bytes) written in "
              f"{hunt['autosave_ms']} ms, loaded and replayed in {hunt['load_replay_ms']} ms")
    for line in bots_lines(result["bots"]):
        print(line)
    for rid, figures in result["fixtures"].items():
        print(f"fixture {rid}: {figures['games_per_second']:.0f} games/s, "
              f"{figures['us_per_action']} us an action ({figures['players']} players)")
    found = result["search"]
    for rid, shares in found["rulesets"].items():
        print(f"{found['policy']} in {rid}, {found['players']} players, {found['games']} games: "
              f"wins {shares['vs_heuristic']:.0%} against heuristic, "
              f"{shares['vs_random']:.0%} against random")
    if result["decision_apply_us"] is not None:
        print(f"apply: {result['decision_apply_us']} us answering a question or a response "
              f"window, {result['plain_apply_us']} us for another action")
    hand = result.get("handwritten_dino_hunt_dice")
    if hand:
        print(f"hand-written dino_hunt_dice: {hand['games_per_second']:.0f} games/s, "
              f"{hand['actions_per_second']:.0f} actions/s; engine/hand-written ratio "
              f"{result['engine_vs_handwritten']:.3f}")
    print(f"table at 1280x720, ten dice tumbling: frame p50 {result['frame_ms_p50']:.2f} ms, "
          f"p99 {result['frame_ms_p99']:.2f} ms; physics step {result['physics_step_us']:.1f} us;"
          f" toss to rest {result['settle_s']:.2f} s (longest {result['max_settle_s']:.2f} s)")
    if "card_frame_ms_p99" in result:
        print(f"card table at 1280x720, {result['cards_on_table']} cards out, pointer moving: "
              f"frame p50 {result['card_frame_ms_p50']:.2f} ms, "
              f"p99 {result['card_frame_ms_p99']:.2f} ms")
    ratio = result["first_frame_ratio"]
    print(f"first frame (process start to the title shown) {result['first_frame_s']:.3f} s; "
          f"a bare pygame window {result['bare_pygame_first_frame_s']:.3f} s; ratio "
          f"{'n/a' if ratio is None else f'{ratio:.2f}x'} (median of fresh processes)")
    if result["exe_first_frame_s"] is None:
        print(f"standalone app: not built in {dist_dir()}; build it with: {BUILD_COMMAND}")
    else:
        ratio = result["exe_first_frame_s"] / result["first_frame_s"]
        zipped = "not zipped" if result["exe_zip_mb"] is None else f"{result['exe_zip_mb']} MB"
        print(f"standalone app: first frame {result['exe_first_frame_s']:.3f} s "
              f"({ratio:.2f}x from source); unpacked {result['exe_unpacked_mb']} MB, "
              f"zip {zipped}")
    print(saves_line(result["saves"]))
    print(growth_line(result["growth"]))
    print(boards_line(result["boards"]))
    for line in playouts_lines(result["playouts"]):
        print(f"playouts: {line}")
    if json_out:
        print(json.dumps(result))
    sys.stdout.flush()
    return 0


# --- Dino Hunt: the card game's own figures ----------------------------------------------

HUNT_PLAYERS = 4


def _timed_game(rules: Any, seed: int, policy: str, players: int = HUNT_PLAYERS
                ) -> tuple[list[Any], float, list[float]]:
    """One whole game with one policy at every seat: its moves, its seconds, and how long
    each bot move took (choosing and applying it), in seconds."""
    import random

    from .bots import POLICIES
    from .engine import apply, legal_actions, new_game

    state = new_game(rules, [f"P{i + 1}" for i in range(players)], None, seed)
    rng = random.Random(seed ^ 0x5EED)
    choose = POLICIES[policy]
    log: list[Any] = []
    took: list[float] = []
    clock = time.perf_counter
    start = clock()
    while not state.game_over:
        before = clock()
        action = choose(state, legal_actions(state), rng)
        apply(state, action, False)
        took.append(clock() - before)
        log.append(action)
    return log, clock() - start, took


# Games whose bots a person plays against, timed at four seats: games per second with random
# and with heuristic bots, and how long a heuristic move keeps a person waiting.
BOT_GAMES = ("danger_danger_dinosaur", "dino_dude_ranch")


def measure_bots(quick: bool = False) -> dict[str, Any]:
    """Each of BOT_GAMES at four seats: random and heuristic games per second, and the
    heuristic bot's move times over every move of every game (the longest and the 99th
    percentile; a person should never wait over 200 ms)."""
    from .ruleset import load_by_id

    out: dict[str, Any] = {}
    games = 5 if quick else 50
    for rid in BOT_GAMES:
        try:
            rules = load_by_id(rid)
        except (FileNotFoundError, LookupError, ValueError):
            continue
        figures: dict[str, Any] = {"players": HUNT_PLAYERS, "games": games}
        rates, moves, _ = _bot_games(rules, games)
        figures.update(rates)
        moves.sort()
        figures["heuristic_moves"] = len(moves)
        figures["heuristic_move_ms_max"] = round(moves[-1] * 1000, 2)
        figures["heuristic_move_ms_p99"] = round(moves[(len(moves) - 1) * 99 // 100] * 1000, 2)
        out[rid] = figures
    return out


def _bot_games(rules: Any, games: int) -> tuple[dict[str, float], list[float], list[Any]]:
    """`games` whole games with random bots, then with heuristic ones, at four seats: the
    games per second of each, every heuristic move's time, and the last heuristic game."""
    rates: dict[str, float] = {}
    times: list[float] = []
    last_log: list[Any] = []
    for policy in ("random", "heuristic"):
        seconds = 0.0
        for seed in range(1, games + 1):
            log, took, took_each = _timed_game(rules, seed, policy)
            seconds += took
            if policy == "heuristic":
                times += took_each
                last_log = log
        rates[f"{policy}_games_per_second"] = round(games / seconds, 2)
    return rates, times, last_log


def bots_lines(bots: dict[str, Any]) -> list[str]:
    """The lines `dinotable bench` prints for `measure_bots`."""
    return [f"{rid}, {f['players']} players: {f['random_games_per_second']:.1f} games/s "
            f"random, {f['heuristic_games_per_second']:.1f} games/s heuristic; heuristic move "
            f"max {f['heuristic_move_ms_max']} ms, p99 {f['heuristic_move_ms_p99']} ms over "
            f"{f['heuristic_moves']} moves" for rid, f in bots.items()]


def measure_dino_hunt(quick: bool = False) -> dict[str, Any] | None:
    """Dino Hunt at four seats with the full deck: random and heuristic games per second,
    the heuristic bot's longest move, one `view_for` mid-game, and an end-of-game autosave
    written, then loaded and replayed."""
    import tempfile

    from . import saves
    from .engine import new_game, view_for
    from .ruleset import load_by_id

    try:
        rules = load_by_id("dino_hunt")
    except (FileNotFoundError, LookupError, ValueError):
        return None
    games = 10 if quick else 100
    out: dict[str, Any] = {"players": HUNT_PLAYERS, "games": games}
    rates, times, last_log = _bot_games(rules, games)
    out.update(rates)
    out["heuristic_moves"] = len(times)
    out["heuristic_longest_move_ms"] = round(max(times) * 1000, 2)
    # view_for halfway through the last heuristic game, for every seat in turn.
    state = new_game(rules, [f"P{i + 1}" for i in range(HUNT_PLAYERS)], None, games)
    from .engine import apply

    for action in last_log[:len(last_log) // 2]:
        apply(state, action, False)
    calls = 500 if quick else 5000
    start = time.perf_counter()
    for n in range(calls):
        view_for(state, n % HUNT_PLAYERS)
    out["view_for_us"] = round(1e6 * (time.perf_counter() - start) / calls, 2)
    # The autosave a table writes after the last move, then Continue: read and replay it.
    game = saves.SavedGame(rules.id, rules.version,
                           [saves.SavedSeat(f"P{i + 1}", "heuristic", i)
                            for i in range(HUNT_PLAYERS)],
                           dict(state.options), games,
                           [(a.player, a.id, a.args) for a in last_log])
    out["save_moves"] = len(last_log)
    writes: list[float] = []
    loads: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "autosave.yaml"
        for _ in range(REPEATS if quick else 10):
            start = time.perf_counter()
            problem = saves.try_write(game, path)
            writes.append(time.perf_counter() - start)
            if problem is not None:
                raise RuntimeError(problem)
            start = time.perf_counter()
            _, replayed = saves.load(path)
            loads.append(time.perf_counter() - start)
            if not replayed.game_over:
                raise RuntimeError("the replayed Dino Hunt save did not reach the game's end")
        out["save_bytes"] = path.stat().st_size
    out["autosave_ms"] = round(1000 * min(writes), 2)
    out["load_replay_ms"] = round(1000 * min(loads), 2)
    return out
