#!/usr/bin/env python3
"""Take the README's pictures: each shipped game at the table, a few moves in.

    python3 tools/screenshots.py                      every shipped game, into docs/images/
    python3 tools/screenshots.py --only dino_hunt     only this game (repeatable)
    python3 tools/screenshots.py --out /tmp/pictures  somewhere else

Each game is a seeded game played through the real table scene, headless (SDL's dummy video
driver) in a 1280x720 window, with people and bots in the seats: the people's moves are the
hint bot's choices, the bots play their own turns, the laptop is passed as at a real table.
When the moment a game's entry in SHOTS names comes (a person to act, so the holder's own
hand is on screen, never the pass-the-laptop screen), the frame is saved as
`<ruleset id>.png`. A shipped game without an entry is taken with the default moment.

Exit 0 when every picture was saved, 1 when a game never reached its moment, 2 on a bad
argument (one line).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

# Before pygame is imported: no window, no sound device, and nothing of the person's own
# settings or saves touched (the table never saves here, and settings go to a folder of
# their own that is removed at the end).
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from dinotable.app import App
    from dinotable.scenes.table import TableScene

SIZE = (1280, 720)
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
STEP = 0.1  # seconds a frame while the table plays out (as the audit steps it)
PATIENCE = 20_000  # frames a game may take to reach its moment


@dataclass(frozen=True)
class Shot:
    """When to take a game's picture."""

    seats: tuple[str, ...] = ("human", "heuristic", "human")  # a person, a bot, a person
    seed: int = 1
    moves: int = 6  # people's moves made before the picture (bots' moves come between)
    odds: bool = False  # the odds panel open (O), where the game has one


# Chosen by looking at the pictures: each shows the game doing what it is about.
SHOTS: dict[str, Shot] = {
    # Two dinosaurs caught and two stomps: roll once more or bank? The odds say.
    "dino_hunt_dice": Shot(moves=6, odds=True),
    # Four eggs thrown: Cat steals a dinosaur die; the pieces are out on the track.
    "dinosaur_dice": Shot(moves=8),
    # Cat hunts a Megalosaurus and rolls a 4; Fresh Bait glows in Cat's own hand.
    "dino_hunt": Shot(moves=16),
    # The red dinosaur dice are in the Jungle; reroll once more, or stop?
    "danger_danger_dinosaur": Shot(moves=20, odds=True),
    # Dinosaurs to capture glow in the Hunting Grounds; Cat's ranch and hidden bonus card.
    "dino_dude_ranch": Shot(moves=25),
}


class BadArgument(Exception):
    """A command-line mistake, said in one line."""


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"screenshots: {message}\n")


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = Parser(prog="screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="ID",
                        help="take only this game's picture (repeatable)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", metavar="DIR",
                        help="the folder the pictures go to (default docs/images)")
    return parser.parse_args(argv)


def shipped(only: list[str]) -> list[str]:
    """The shipped rulesets' ids (or only those named, each checked)."""
    from dinotable.ruleset import installed_rulesets

    ids = [folder.name for folder in installed_rulesets()]
    unknown = [name for name in only if name not in ids]
    if unknown:
        raise BadArgument(f"--only: no shipped game {unknown[0]!r}; expected one of "
                          f"{', '.join(ids)}")
    return [name for name in ids if not only or name in only]


def seats_for(shot: Shot, low: int, high: int) -> list[str]:
    """The shot's seats, as many as the game allows."""
    kinds = list(shot.seats[:high])
    while len(kinds) < low:
        kinds.append("heuristic")
    return kinds


def settled(table: TableScene) -> bool:
    """A person may act and nothing moves: no dice rolling, no banner, no hint fading."""
    return (table.my_turn and table.banner is None and table.toast is None
            and table.shown.scores == table.shown.score_goals
            and not any(s.goal is not None for s in table.sprites.values()))


def press_enter(app: App) -> None:
    """The next player says they hold the laptop."""
    import pygame

    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                    unicode="\r", scancode=0))


def take(ruleset: str, shot: Shot, out: Path) -> Path:
    """Play the game to its moment and save the frame; the picture's path."""
    import pygame

    from dinotable import bots
    from dinotable.app import App
    from dinotable.ruleset import load_by_id
    from dinotable.scenes.handoff import HandoffScene
    from dinotable.scenes.table import TableScene
    from dinotable.settings import Settings
    from dinotable.table.session import Seat

    rules = load_by_id(ruleset)
    kinds = seats_for(shot, rules.min_players, rules.max_players)
    app = App(size=SIZE, settings=Settings(bot_speed="fast", show_odds=shot.odds, muted=True))
    try:
        seats = [Seat(NAMES[k], kind, k) for k, kind in enumerate(kinds)]
        table = TableScene(app, rules, seats, {}, shot.seed, saving=False)
        app.push(table)
        rng = random.Random(shot.seed)
        made = 0
        for _ in range(PATIENCE):
            if isinstance(app.top, HandoffScene):
                press_enter(app)
            elif app.top is not table or table.state.game_over:
                break
            elif settled(table) and made < shot.moves:
                table.take(bots.choose("heuristic", table.state, rng))
                made += 1
            elif settled(table):
                app.step([], STEP)
                path = out / f"{ruleset}.png"
                pygame.image.save(app.window, str(path))
                return path
            else:
                app.step([], STEP)
        raise RuntimeError(f"{ruleset}: the game never came to a person's move "
                           f"{shot.moves + 1} (made {made})")
    finally:
        pygame.quit()


def main(argv: Sequence[str] | None = None, say: Callable[[str], None] = print) -> int:
    args = parse(argv)
    try:
        ids = shipped(args.only)
        if args.out.exists() and not args.out.is_dir():
            raise BadArgument(f"--out: {args.out} is a file, not a folder")
    except BadArgument as exc:
        print(f"screenshots: {exc}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    before = os.environ.get("DINOTABLE_HOME")
    with tempfile.TemporaryDirectory() as home:
        os.environ["DINOTABLE_HOME"] = home
        try:
            failed = sum(not shoot(ruleset, args.out, say) for ruleset in ids)
        finally:
            if before is None:
                os.environ.pop("DINOTABLE_HOME", None)
            else:
                os.environ["DINOTABLE_HOME"] = before
    return 1 if failed else 0


def shoot(ruleset: str, out: Path, say: Callable[[str], None]) -> bool:
    """Take one game's picture and say where it went; False when it could not be taken."""
    start = time.perf_counter()
    try:
        path = take(ruleset, SHOTS.get(ruleset, Shot()), out)
    except RuntimeError as exc:
        say(str(exc))
        return False
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    say(f"{shown} ({path.stat().st_size // 1000} KB, {time.perf_counter() - start:.1f} s)")
    return True


if __name__ == "__main__":
    sys.exit(main())
