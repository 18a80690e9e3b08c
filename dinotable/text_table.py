"""A table at the terminal: every shipped game, hot-seat, with bots, no window needed."""

from __future__ import annotations

import contextlib
import random
import sys
from typing import Any, TextIO

from .bots import POLICIES
from .engine import (
    Action,
    Event,
    GameState,
    Rules,
    apply,
    legal_actions,
    new_game,
    resolve_options,
    scores,
    view_for,
)
from .names import name_problem, shorten
from .ruleset import LoadError, installed_rulesets, load_by_id, load_ruleset

EXIT_USAGE = 2


def parse_options(pairs: list[str]) -> dict[str, object]:
    """`goal=10` -> {'goal': 10}; numbers and true/false are read as such."""
    out: dict[str, object] = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"--option {shorten(pair)!r}: expected NAME=VALUE, e.g. goal=10")
        name, _, raw = pair.partition("=")
        value: object = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        else:
            with contextlib.suppress(ValueError):
                value = int(raw)
        out[name.strip()] = value
    return out


def describe(state: GameState, event: Event) -> str | None:
    """One line for the table about an event, or None when it needs no words."""
    name = state.players[event.seat] if event.seat is not None else ""
    data = event.data
    if event.kind == "said":
        return str(data["text"])
    if event.kind == "drew":
        return f"{name} draws {', '.join(data['kinds'])} from the {data['from']}."
    if event.kind == "rolled":
        shown = ", ".join(f"{kind} {face}" for _, kind, face in data["dice"])
        return f"{name} rolls: {shown}."
    if event.kind == "turn_started":
        return f"--- {name}'s turn ---"
    if event.kind == "last_round":
        return f"{name} reached the goal: this is the last round!"
    if event.kind == "tiebreak":
        tied = " and ".join(state.players[s] for s in data["seats"])
        return f"A tie! {tied} play a tiebreaker round."
    if event.kind == "game_over":
        return "Game over! Winner: " + " and ".join(state.players[s] for s in data["winners"])
    return None


def show_table(state: GameState, out: TextIO) -> None:
    """Scores and the zones as the player to move may see them (engine.view_for), as words."""
    view = view_for(state, state.current)
    for seat, name in enumerate(state.players):
        marker = ">" if seat == state.current and not state.game_over else " "
        print(f" {marker} {name}: {state.score(seat)}", file=out)
    for zname, shown_zone in view["zones"].items():
        zdef = state.rules.zones[zname]
        owners = shown_zone if zdef.per_player else [shown_zone]
        for owner, content in enumerate(owners):
            label = f"{zdef.label} ({state.players[owner]})" if zdef.per_player else zdef.label
            if isinstance(content, dict):
                print(f"   {label}: {content['size']} hidden", file=out)
                continue
            shown = ", ".join(f"{kind} {face}" if face else kind for _, kind, face in content)
            print(f"   {label}: {shown or '-'}", file=out)


def play(state: GameState, bots: list[str], inp: TextIO, out: TextIO, seed: int) -> int:
    """Play a game to the end at the terminal; returns the exit status."""
    rng = random.Random(seed)
    for line in ("=" * 40, f"{state.rules.name}: {', '.join(state.players)}"):
        print(line, file=out)
    while not state.game_over:
        seat = state.current
        legal = legal_actions(state)
        if bots[seat] != "human":
            action: Action | None = POLICIES[bots[seat]](state, legal, rng)
        else:
            show_table(state, out)
            action = _ask(state, legal, inp, out)
        if action is None:
            print("Goodbye!", file=out)
            return 0
        for event in apply(state, action):
            text = describe(state, event)
            if text:
                print(text, file=out)
    final = sorted(range(len(state.players)), key=lambda s: -scores(state)[s])
    for rank, seat in enumerate(final, 1):
        print(f"{rank}. {state.players[seat]}: {state.score(seat)}", file=out)
    return 0


def _ask(state: GameState, legal: list[Action], inp: TextIO, out: TextIO) -> Action | None:
    rules = state.rules
    choices = {}
    for n, action in enumerate(legal, 1):
        adef = rules.actions[action.id]
        label = adef.label + "".join(
            f" {state.players[v] if any(a.is_player and a.name == k for a in adef.args) else v}"
            for k, v in action.args)
        choices[str(n)] = action
        if not action.args:
            choices[adef.key.lower()] = action
        print(f"   [{n}] {label}" + (f" ({adef.key})" if not action.args else ""), file=out)
    while True:
        print(f"{state.players[state.current]}, your choice (q to quit): ", end="", file=out)
        out.flush()
        line = inp.readline()
        if not line:
            return None
        answer = line.strip().lower()
        if answer in ("q", "quit"):
            return None
        if answer in choices:
            return choices[answer]
        print("   Type one of the numbers or letters shown.", file=out)


def _choose_ruleset(inp: TextIO, out: TextIO) -> str | None:
    folders = installed_rulesets()
    usable = []
    print("dinotable - choose a game:", file=out)
    for folder in folders:
        try:
            rules = load_ruleset(folder)
        except LoadError as exc:
            print(f"   (unavailable) {folder.name}: {exc.problems[0]}", file=out)
            continue
        usable.append(rules.id)
        pitch = rules.data.get("pitch", "")
        print(f"   [{len(usable)}] {rules.name} ({rules.min_players}-{rules.max_players} "
              f"players, {rules.data.get('time', '?')}): {pitch}", file=out)
    while usable:
        print("Game number (q to quit): ", end="", file=out)
        out.flush()
        line = inp.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            return None
        if line.strip().isdigit() and 1 <= int(line) <= len(usable):
            return usable[int(line) - 1]
    return None


def table_request(ruleset_id: str, players: str, bots_arg: str, option_pairs: list[str]
                  ) -> tuple[Rules, list[str], list[str], dict[str, Any]]:
    """Check a table asked for on the command line (`play`, `terminal`): the ruleset, the
    seats, the bots and the options. LoadError for the ruleset, ValueError (one clear
    sentence) for anything else."""
    rules = load_by_id(ruleset_id)
    names = [n.strip() for n in players.split(",") if n.strip()]
    for n in names:
        problem = name_problem(n)
        if problem:
            raise ValueError(f"--players {shorten(n)!r}: {problem}")
    bots = [b.strip() or "human" for b in bots_arg.split(",")] if bots_arg else []
    bots += ["human"] * (len(names) - len(bots))
    if len(bots) != len(names):
        raise ValueError("--bots names more seats than --players")
    for b in bots:
        if b != "human" and b not in POLICIES:
            raise ValueError(f"--bots: unknown policy {shorten(b)!r}; choose human, "
                             f"{', '.join(POLICIES)}")
    if not rules.min_players <= len(names) <= rules.max_players:
        raise ValueError(f"{rules.name} seats {rules.min_players} to {rules.max_players} "
                         "players")
    if len({n.lower() for n in names}) != len(names):
        raise ValueError("--players: every player needs a different name")
    return rules, names, bots, resolve_options(rules, parse_options(option_pairs))


def play_cli(ruleset_id: str | None, players: str | None, bots_arg: str, seed: int | None,
             option_pairs: list[str], inp: TextIO | None = None, out: TextIO | None = None
             ) -> int:
    """`dinotable play` and `dinotable` with no command."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    if ruleset_id is None:
        ruleset_id = _choose_ruleset(inp, out)
        if ruleset_id is None:
            return 0
        print("Player names, separated by commas (a name ending in * is a bot): ", end="",
              file=out)
        out.flush()
        line = inp.readline().strip() or "Ann,Ben*"
        names = [n.strip() for n in line.split(",") if n.strip()]
        bots_arg = ",".join("heuristic" if n.endswith("*") else "human" for n in names)
        players = ",".join(n.rstrip("*") for n in names)
    try:
        rules, names, bots, options = table_request(ruleset_id, players or "Ann,Ben", bots_arg,
                                                    option_pairs)
    except LoadError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_USAGE
    except ValueError as exc:
        print(f"dinotable: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    seed = random.randrange(1 << 30) if seed is None else seed
    state = new_game(rules, names, options, seed)
    return play(state, bots, inp, out, seed)
