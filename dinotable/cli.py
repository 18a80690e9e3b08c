"""The command line: play, validate, check, simulate, bench."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NoReturn

from . import __version__, stop
from .names import shorten

if TYPE_CHECKING:
    import argparse

EXIT_USAGE = 2
EXIT_INTERNAL = 3  # something broke inside dinotable (not the input, not a failed check)
MAX_GAMES = 1_000_000
MAX_PLAYERS = 8
MAX_JOBS = 256
MAX_FRAMES = 10_000_000  # about two days at 60 frames a second
SEED_MAX = 2**63
MAX_LINE = 300  # an error line longer than this is cut: it echoes what was typed
EXIT_RULES = 3  # a ruleset that loaded failed while a game was played (a rules error)
# Exactly these keys, in this order, make the last line of `simulate --json`.
SIMULATE_JSON_KEYS = ("ruleset", "players", "games", "seconds", "games_per_second",
                      "actions_per_second", "wins", "mean_scores", "mean_turns")


@cache
def _parser_class() -> type[argparse.ArgumentParser]:
    """argparse, but a usage error is one clear line and exit status 2. Made when first
    wanted: the window's own launch does without argparse (see `window_args`)."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            self.exit(EXIT_USAGE, f"{self.prog}: error: {shorten(message, MAX_LINE)} "
                                  f"(see: {self.prog} --help)\n")

    return Parser


def _whole(text: str, low: int, high: int) -> int:
    """A whole number from low to high, or one short line saying what was expected."""
    # Python refuses to read more than 4,300 digits; far fewer are ever sensible here.
    import argparse  # loaded already: only an argparse parser reads numbers this way

    # Only ASCII digits with one sign: "+-5", "²" or "٣" would pass str.isdigit and then
    # fail int() with argparse's own words ("invalid _seed value").
    if not re.fullmatch(r"\s*[+-]?[0-9]{1,20}\s*", text):
        raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}, "
                                         f"got {shorten(text)!r}")
    value = int(text)
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}, "
                                         f"got {shorten(text)}")
    return value


def _path(text: str) -> str:
    """A file or folder named on the command line; an empty one is a mistake (a variable
    that was never set), never the current folder."""
    if not text.strip():
        import argparse

        raise argparse.ArgumentTypeError("expected a file or folder, got an empty path")
    return text


def _bounded(high: int) -> Callable[[str], int]:
    def check(text: str) -> int:
        return _whole(text, 1, high)

    check.__name__ = "number"  # argparse names the type in some messages
    return check


def _whole_port(text: str) -> int:
    """A port number, 1 to 65535."""
    return _whole(text, 1, 65535)


def _ruleset_id(text: str) -> str:
    """A ruleset id (the name of a folder in rulesets/), never a path."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,60}", text):
        import argparse

        raise argparse.ArgumentTypeError(f"expected a ruleset id such as dino_hunt_dice, "
                                         f"got {shorten(text)!r}")
    return text


def _seed(text: str) -> int:
    return _whole(text, 0, SEED_MAX)


_seed.__name__ = "seed"  # argparse names the type in some messages: never "_seed"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every command."""
    parser = _parser_class()(prog="dinotable", description=(
        "A tabletop for five dinosaur games. With no command, opens the window on the title "
        "screen."))
    parser.add_argument("--version", action="version", version=f"dinotable {__version__}")
    parser.add_argument("--self-test", action="store_true",
                        help="check this copy headless (every ruleset, scenario and scene), "
                             "print a summary and exit 0, or 1 naming what failed")
    parser.add_argument("--frames", type=_bounded(MAX_FRAMES), default=None, metavar="N",
                        help="draw N frames and exit (smoke tests, start-up timing)")
    parser.add_argument("--demo", action="store_true",
                        help="open the window on the demo: bots play every game in turn, "
                             "in a loop, until a key or click (nothing is saved)")
    sub = parser.add_subparsers(dest="command", parser_class=_parser_class())

    for name, where in (("play", "in the window"), ("terminal", "at the terminal")):
        p = sub.add_parser(name, help=f"go straight to a game {where} (hot-seat, bots welcome)")
        p.add_argument("ruleset", type=_ruleset_id, help="ruleset id, e.g. dino_hunt_dice")
        p.add_argument("--players", default="Ann,Ben",
                       help="comma-separated names (default Ann,Ben)")
        p.add_argument("--bots", default="",
                       help="comma list by seat: human, random, heuristic, search, "
                            "search:gentle or search:sharp")
        p.add_argument("--seed", type=_seed, default=None, help="seed for the dice")
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="set a ruleset option, e.g. goal=10")
        if name == "play":
            p.add_argument("--phones", action="store_true",
                           help="hands on phones: people join from their phones on the local "
                                "network (prints each person's seat and address)")
            p.add_argument("--port", type=_whole_port, default=None, metavar="N",
                           help="the port phones reach the table on (with --phones; "
                                "default: one the system gives)")
            p.add_argument("--frames", type=_bounded(MAX_FRAMES), default=None, metavar="N",
                           help="draw N frames and exit")

    v = sub.add_parser("validate", help="check rulesets and report every problem")
    v.add_argument("paths", nargs="*", type=_path, help="ruleset folders or rules.yaml files "
                                                        "(default: every shipped ruleset)")

    c = sub.add_parser("check", help="run rules scenarios")
    c.add_argument("paths", nargs="*", type=_path,
                   help="scenario files, folders of them, or ruleset folders (their "
                        "scenarios/); default: all shipped")

    s = sub.add_parser("simulate", help="play many games with bots and summarise them")
    s.add_argument("ruleset", type=_ruleset_id)
    s.add_argument("--players", type=_bounded(MAX_PLAYERS), default=2)
    s.add_argument("--games", type=_bounded(MAX_GAMES), default=100,
                   help=f"how many games (at most {MAX_GAMES:,})")
    s.add_argument("--seed", type=_seed, default=1)
    s.add_argument("--bots", default="random",
                   help="one policy for every seat, or a comma list by seat (random, "
                        "heuristic, search, search:gentle, search:sharp)")
    s.add_argument("--jobs", type=_bounded(MAX_JOBS), default=1, metavar="N",
                   help="play the games on N processes (the same results as one)")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="set a ruleset option, e.g. length=short (repeatable)")
    s.add_argument("--json", action="store_true", help="end with one JSON object")

    b = sub.add_parser("bench", help="measure engine speed for every shipped ruleset")
    b.add_argument("--json", action="store_true", help="end with one JSON object")
    b.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    add_replay_parser(sub)
    return parser


def window_args(argv: Sequence[str]) -> SimpleNamespace | None:
    """The window's own options (`--demo`, `--self-test`, `--frames N`), each spelt out
    whole with a plain number, read without argparse: the title's first frame does not wait
    for argparse to load and build every command's parser. Anything else (a command, help,
    a number argparse would refuse) gives None, and the full parser reads it as always."""
    args = SimpleNamespace(command=None, self_test=False, demo=False, frames=None)
    k = 0
    while k < len(argv):
        if argv[k] in ("--demo", "--self-test"):
            setattr(args, argv[k][2:].replace("-", "_"), True)
            k += 1
            continue
        if argv[k] == "--frames" and k + 1 < len(argv):
            value, k = argv[k + 1], k + 2
        elif argv[k].startswith("--frames="):
            value, k = argv[k].partition("=")[2], k + 1
        else:
            return None
        if not (value.isascii() and value.isdigit() and len(value) <= 20
                and 1 <= int(value) <= MAX_FRAMES):
            return None
        args.frames = int(value)
    return args


EXIT_PIPE_CLOSED = 141  # what a shell reports for a command whose reader went away (128+13)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    A reader that stops early (`dinotable check | head -1`) ends the command quietly: the
    rest of the output has nowhere to go, and that is no error of dinotable's.
    """
    try:
        status = _command(argv)
        sys.stdout.flush()  # a closed pipe shows here, while it can still be caught
        return status
    except BrokenPipeError:
        import os

        # Whatever is still buffered would fail again when Python flushes at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_PIPE_CLOSED


def _command(argv: Sequence[str] | None) -> int:
    """Parse the arguments and run the command they name."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args: Any = window_args(argv)
    if args is None:
        args = build_parser().parse_args(argv)
    try:
        if not _opens_window(args):
            stop.resume()  # a command with no frame loop: Ctrl+C is Python's own again
        if args.self_test:
            from .selftest import run_self_test

            return run_self_test()
        if args.command == "validate":
            return cmd_validate(args.paths)
        if args.command == "check":
            from .check import run_check

            return run_check(args.paths, sys.stdout, sys.stderr)
        if args.command == "simulate":
            return cmd_simulate(args)
        if args.command == "bench":
            from .bench import run_bench

            return run_bench(json_out=args.json, quick=args.quick)
        if args.command == "terminal":
            from .text_table import play_cli

            return play_cli(args.ruleset, args.players, args.bots, args.seed, args.option)
        if args.command == "play":
            return cmd_play(args)
        if args.command == "replay":
            return cmd_replay(args)
        # Opening the window makes many objects and frees few: collecting cycles meanwhile
        # only delays the first frame (App.run turns collection back on after it).
        import gc

        gc.disable()
        try:
            from .app import start

            if args.demo:
                return start(args.frames, scene="demo")
            return start(args.frames)
        finally:
            gc.enable()
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise  # the reader of the output went away: see main
    except Exception as exc:
        from .engine import EngineError

        if isinstance(exc, EngineError):
            # A game the ruleset itself broke: one line naming the rules file and line.
            print(f"dinotable: error: {shorten(str(exc), MAX_LINE)}", file=sys.stderr)
            return EXIT_RULES
        # One line, not a traceback; DINOTABLE_DEBUG=1 shows where it happened.
        import os

        if os.environ.get("DINOTABLE_DEBUG"):
            raise
        print(f"dinotable: internal error: {type(exc).__name__}: "
              f"{shorten(str(exc), MAX_LINE)} (DINOTABLE_DEBUG=1 shows the details)",
              file=sys.stderr)
        return EXIT_INTERNAL


def _opens_window(args: Any) -> bool:
    """Whether the command runs the window's frame loop, which acts on a stop signal
    itself (see stop.py)."""
    if args.self_test:
        return False
    return args.command in (None, "play") or (args.command == "replay"
                                               and not getattr(args, "text", False))


def cmd_play(args: Any) -> int:
    """`dinotable play`: check the seats and options, then open the window on a table."""
    from .ruleset import LoadError
    from .text_table import table_request

    try:
        _, names, bots, options = table_request(args.ruleset, args.players, args.bots,
                                                args.option)
    except LoadError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_USAGE
    except ValueError as exc:
        return _fail(str(exc))
    link = None
    if args.port is not None and not args.phones:
        return _fail("--port is the port phones reach the table on: it needs --phones")
    from .app import display_problem, start

    if args.phones:
        no_window = display_problem()
        if no_window is not None:
            print(no_window, file=sys.stderr, flush=True)
            return EXIT_USAGE
        link = _serve_phones(args.ruleset, names, bots, args.port or 0)
        if isinstance(link, str):
            return _fail(link)
    try:
        return start(args.frames, scene="table", ruleset=args.ruleset, players=names,
                     bots=bots, seed=args.seed, options=options, link=link)
    finally:
        if link is not None:
            link.stop()


def _serve_phones(ruleset: str, names: list[str], bots: list[str], port: int) -> Any:
    """`play --phones`: serve the game's seats before the window opens, and print one line
    per person's seat, `NAME: ADDRESS` (the table shows the same as QR codes). Returns the
    running link, or why it could not start."""
    from .companion.link import PhoneLink
    from .companion.seat_view import hex_colour
    from .render.theme import PLAYER_COLOURS
    from .ruleset import load_by_id

    kinds = list(bots) + ["human"] * (len(names) - len(bots))
    humans = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    if not humans:
        return "--phones: every seat is a bot, so no seat can join from a phone"
    link = PhoneLink(humans, [hex_colour(c.rgb) for c in PLAYER_COLOURS],
                     load_by_id(ruleset).name, port=port)
    try:
        link.start()
    except OSError as exc:
        return str(exc)
    for seat in humans:
        print(f"{names[seat]}: {link.url(seat)}", flush=True)
    return link


def _fail(message: str) -> int:
    print(f"dinotable: error: {shorten(message, MAX_LINE)}", file=sys.stderr)
    return EXIT_USAGE


def _not_a_ruleset(path: Path) -> list[Any]:
    """The one problem of a path given to validate that is neither a folder nor a file
    (a device, a pipe): said without reading it."""
    from . import bounded
    from .ruleset import Problem

    try:
        bounded.read_bytes(path, 0, "a ruleset folder or its rules.yaml")
    except bounded.Refused as exc:
        return [Problem(str(path), 1, 1, "(file)", exc.message)]
    return [Problem(str(path), 1, 1, "(file)", "expected a ruleset folder or its rules.yaml")]


def cmd_validate(paths: list[str]) -> int:
    """`dinotable validate`: 0 when every ruleset loads, else 2 with every problem."""
    import time

    from .ruleset import installed_rulesets, problems_of

    folders: list[Path] = []
    for p in paths:
        path = Path(p)
        folders.append(path.parent if path.is_file() else path)
    if not paths:
        folders = installed_rulesets()
        if not folders:
            return _fail("no rulesets found")
    bad = 0
    start = time.perf_counter()
    for folder in folders:
        problems = problems_of(folder) if folder.is_dir() or not folder.exists() else (
            _not_a_ruleset(folder))
        if problems:
            bad += 1
            for problem in problems:
                print(problem, file=sys.stderr)
        else:
            print(f"ok {folder.name}")
    ms = (time.perf_counter() - start) * 1000
    print(f"{len(folders) - bad} valid, {bad} invalid ({ms:.0f} ms)")
    return EXIT_USAGE if bad else 0


def cmd_simulate(args: Any) -> int:
    """`dinotable simulate`."""
    from .bots import POLICIES
    from .ruleset import LoadError, load_by_id
    from .sim import RunawayGame, simulate

    try:
        rules = load_by_id(args.ruleset)
    except LoadError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_USAGE
    bots = [b.strip() for b in args.bots.split(",")]
    for b in bots:
        if b not in POLICIES:
            return _fail(f"--bots: unknown policy {shorten(b)!r}; "
                         f"choose from {', '.join(POLICIES)}")
    if len(bots) not in (1, args.players):
        return _fail(f"--bots names {len(bots)} policies; give one, or one per seat "
                     f"({args.players})")
    if not rules.min_players <= args.players <= rules.max_players:
        return _fail(f"{rules.name} seats {rules.min_players} to {rules.max_players} players")
    options = _simulate_options(rules, args.option)
    if isinstance(options, str):
        return _fail(options)
    try:
        summary = simulate(rules, args.players, args.games, args.seed, bots, options,
                           args.jobs, _progress_bar() if sys.stderr.isatty() else None)
    except RunawayGame as exc:
        print(f"dinotable: error: {exc}", file=sys.stderr)
        return EXIT_INTERNAL
    chosen = "".join(f", {name}={value}" for name, value in options.items()
                     if rules.options[name].default != value)
    print(f"{rules.name}: {summary['games']} games, {args.players} players, "
          f"bots {', '.join(summary['bots'])}, seed {args.seed}{chosen}")
    for seat in range(args.players):
        share = summary["wins"][seat] / summary["games"]
        print(f"  seat {seat + 1} ({summary['bots'][seat]}): wins {summary['wins'][seat]} "
              f"({share:.1%}), mean score {summary['mean_scores'][seat]:.2f}")
    print(f"  mean player turns per game {summary['mean_turns']:.1f}; "
          f"{summary['games_per_second']:.0f} games/s, "
          f"{summary['actions_per_second']:.0f} actions/s")
    if args.json:
        import json

        print(json.dumps({key: summary[key] for key in SIMULATE_JSON_KEYS}))
    return 0


def _progress_bar() -> Callable[[int, int], None]:
    """A bar on stderr that fills as games finish (only ever drawn on a terminal)."""
    shown = [-1]

    def draw(done: int, total: int) -> None:
        filled = 30 * done // total
        if filled == shown[0] and done < total:
            return  # redrawn only when it grows: a fast simulation finishes thousands a second
        shown[0] = filled
        end = "\n" if done >= total else ""
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games{end}")
        sys.stderr.flush()

    return draw


def _simulate_options(rules: Any, pairs: list[str]) -> dict[str, Any] | str:
    """`--option NAME=VALUE` pairs checked against the ruleset: the full option set, or
    the one sentence that says what is wrong (as `play` reads them)."""
    from .text_table import parse_options

    try:
        from .engine import resolve_options

        return resolve_options(rules, parse_options(pairs))
    except ValueError as exc:
        return str(exc)


def add_replay_parser(sub: Any) -> None:
    """`dinotable replay FILE [--text]`."""
    r = sub.add_parser("replay", help="watch a saved or finished game again, move by move",
                       description="Check a saved game (an autosave, a named save, or one "
                                   "of the finished games in the user data folder's "
                                   "finished/) and watch it move by move. A file that "
                                   "cannot be replayed is named with its line and what is "
                                   "wrong (exit 2).")
    r.add_argument("file", help="a save file, e.g. finished/20240501-213000-001.yaml")
    r.add_argument("--text", action="store_true",
                   help="print the game move by move in words instead of opening the window")
    r.add_argument("--frames", type=_bounded(MAX_FRAMES), default=None, metavar="N",
                   help="draw N frames and exit")


def cmd_replay(args: Any) -> int:
    """`dinotable replay`: check the file, then open the viewer or print the narration."""
    from pathlib import Path

    from . import saves
    from .replays import narration, replay_of
    from .ruleset import LoadError

    path = Path(args.file)
    try:
        game = saves.read(path)
        replay = replay_of(game)
    except LoadError as exc:
        problem = exc.problems[0] if exc.problems else None
        if problem is None:
            return _fail(f"{path}: cannot be replayed")
        if problem.file != str(path):  # found by replaying: name the file's own line
            line, col = saves.line_of(path, problem.path)
            return _fail(f"{path}:{line}:{col}: {problem.path}: {problem.message}")
        return _fail(str(problem))
    viewer: Any = None
    if not args.text:
        import importlib

        try:  # the window's viewer, where this copy has one
            viewer = importlib.import_module("dinotable.scenes.replay")
        except ImportError:
            viewer = None
    if viewer is None or not hasattr(viewer, "start_replay"):
        for said in narration(game):
            print(said)
        print(f"{len(replay.steps) - 1} moves.")
        return 0
    result: int = viewer.start_replay(path, game, replay, frames=getattr(args, "frames", None))
    return result
