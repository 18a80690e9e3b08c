"""A table at the terminal: every shipped game, hot-seat, with bots, no window needed."""

from __future__ import annotations

import contextlib
import random
import sys
from typing import Any, TextIO

from .bots import POLICIES
from .engine import (
    Action,
    ActionDef,
    ArgDef,
    GameState,
    Rules,
    apply,
    legal_actions,
    new_game,
    resolve_options,
    scores,
    shown_value,
    text_for,
    view_for,
    waiting_on,
)
from .names import name_problem, shorten
from .narrate import describe, phase_words
from .ruleset import LoadError, installed_rulesets, load_by_id, load_ruleset
from .table.choice import Chooser

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


def show_table(state: GameState, out: TextIO, seat: int | None = None) -> None:
    """The table as one seat may see it (engine.view_for), as words: scores, player
    variables, zones and the layout's status line. Hidden things show only as counts."""
    if seat is None:
        seat = waiting_on(state)
    view = view_for(state, seat)
    rules = state.rules
    if rules.phases:  # the round and its phase head the table
        print(f"   Round {state.round}"
              + (f", {phase_words(state.phase)}" if state.phase else ""), file=out)
    score_var = str(rules.data.get("score", "")).strip()
    for s, name in enumerate(state.players):
        marker = ">" if s == view["waiting_on"] else " "
        score = view["scores"][s]
        shown_vars = ", ".join(f"{k} {shown_value(v, rules.player_vars.get(k))}"
                               for k, v in view["player_vars"][s].items() if k != score_var)
        print(f" {marker} {name}: {'?' if score is None else score}"
              + (f"  ({shown_vars})" if shown_vars else "")
              + ("  - OUT of the game" if state.knocked[s] else ""), file=out)
    for zname, shown_zone in view["zones"].items():
        zdef = rules.zones[zname]
        owners = shown_zone if zdef.per_player else [shown_zone]
        for owner, content in enumerate(owners):
            label = f"{zdef.label} ({state.players[owner]})" if zdef.per_player else zdef.label
            if isinstance(content, dict):
                print(f"   {label}: {content['size']} hidden", file=out)
                continue
            print(f"   {label}: {_contents(rules, content) or '-'}", file=out)
    status = getattr(rules.layout, "status", None)
    if status is not None and seat is not None and not state.game_over:
        print(f"   {text_for(state, seat, status)}", file=out)


def _kind_words(rules: Rules, kind: str) -> str:
    """A kind as the terminal names it: its id, or for a generated card (whose id is made
    of its family and values, `card_hearts_12`) its label, `Queen of hearts`."""
    idef = rules.items.get(kind)
    return idef.label if idef is not None and idef.family else kind


def _contents(rules: Rules, content: list[Any]) -> str:
    """A zone's items as words: each one ("die 4, die 6"), or for a zone holding many, how
    many of each kind ("120 stone, 40 gold"), so a game of hundreds of tokens fits a screen."""
    named = ["face down" if kind is None else f"{kind} {face}" if face else _kind_words(rules, kind)
             for _, kind, face in content]
    if len(named) <= MANY_ITEMS:
        return ", ".join(named)
    counts: dict[str, int] = {}
    for _, kind, _face in content:
        key = "face down" if kind is None else str(kind)
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n} {kind}" for kind, n in
                     sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _listener(bots: list[str]) -> int | None:
    """Whose ears the terminal's lines are for: the one person at the table, or (several
    people sharing the screen) nobody in particular, so only what is public is told."""
    people = [s for s, b in enumerate(bots) if b == "human"]
    return people[0] if len(people) == 1 else None


def play(state: GameState, bots: list[str], inp: TextIO, out: TextIO, seed: int) -> int:
    """Play a game to the end at the terminal; returns the exit status."""
    rng = random.Random(seed)
    for line in ("=" * 40, f"{state.rules.name}: {', '.join(state.players)}"):
        print(line, file=out)
    listener = _listener(bots)
    shared_screen = state.rules.hidden_information and listener is None
    last_shown: int | None = None
    while not state.game_over:
        seat = waiting_on(state)
        assert seat is not None
        legal = legal_actions(state, seat)
        if bots[seat] != "human":
            action: Action | None = POLICIES[bots[seat]](state, legal, rng)
        else:
            if shared_screen and seat != last_shown and not _hand_over(state, seat, inp, out):
                action = None
            else:
                last_shown = seat
                show_table(state, out, seat)
                action = _ask(state, legal, inp, out, seat)
        if action is None:
            print("Goodbye!", file=out)
            return 0
        for event in apply(state, action):
            text = describe(event, state, listener)
            if text:
                print(text, file=out)
    final = sorted(range(len(state.players)), key=lambda s: -scores(state)[s])
    for rank, seat in enumerate(final, 1):
        print(f"{rank}. {state.players[seat]}: {state.score(seat)}", file=out)
    return 0


def _hand_over(state: GameState, seat: int, inp: TextIO, out: TextIO) -> bool:
    """Between people sharing the screen in a game with secrets: wait until the next player
    has it. False when the input ends."""
    name = state.players[seat]
    print(f"Pass the screen to {name}. {name}, press Enter when only you can see it: ",
          end="", file=out)
    out.flush()
    if not inp.readline():
        return False
    if out.isatty():
        print("\033[2J\033[H", end="", file=out)  # the last player's secrets scroll away
    return True


GROUP_AT = 9  # an action with more moves than this is offered as one line, typed with values
MANY_ITEMS = 12  # a zone holding more items than this is told kind by kind


def _span(values: list[Any], names: list[str]) -> str:
    """An argument's values in a few words: "1-12" for whole numbers in a row, else the
    names ("red, blue"), the first eight when there are more."""
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        low, high = min(values), max(values)
        if sorted(set(values)) == list(range(low, high + 1)):
            return str(low) if low == high else f"{low}-{high}"
    shown = ", ".join(dict.fromkeys(names))
    return shown if len(names) <= 8 else ", ".join(list(dict.fromkeys(names))[:8]) + ", ..."


def _group_line(chooser: Chooser, adef: ActionDef, moves: list[Action]) -> str:
    """One line for an action with many moves: its arguments' spans and how to type one,
    e.g. "Bid: count 1-12 x face 1-6 - type b COUNT FACE (e.g. b 3 4)"."""
    parts = []
    example = []
    for arg in adef.args:
        values = list(dict.fromkeys(dict(a.args)[arg.name] for a in moves))
        names = [_typed(chooser, arg, v) for v in values]
        parts.append(f"{arg.name.replace('_', ' ')} {_span(values, names)}")
        example.append(names[0])
    key = adef.key.lower()
    caps = " ".join(arg.name.upper() for arg in adef.args)
    return (f"{adef.label}: {' x '.join(parts)} - type {key} {caps} "
            f"(e.g. {key} {' '.join(example)}), or {key} alone to choose step by step")


def _typed(chooser: Chooser, arg: ArgDef, value: Any) -> str:
    """How a value is typed at the terminal: its words with no spaces ("Ben", "4", "red")."""
    if isinstance(value, tuple | list):
        return ",".join(_typed(chooser, arg, v) for v in value)
    return chooser.value_name(arg, value).replace(" ", "_").lower()


def _ask(state: GameState, legal: list[Action], inp: TextIO, out: TextIO, seat: int
         ) -> Action | None:
    rules = state.rules
    chooser = Chooser(state, list(state.players))
    choices: dict[str, Action] = {}
    grouped: dict[str, tuple[ActionDef, list[Action]]] = {}
    by_id: dict[str, list[Action]] = {}
    for action in legal:
        by_id.setdefault(action.id, []).append(action)
    n = 0
    for aid, moves in by_id.items():
        adef = rules.actions[aid]
        if len(moves) > GROUP_AT and adef.args:
            # Thirty counts by six faces are 180 bids: one line, typed with its values.
            grouped[adef.key.lower()] = grouped[aid.lower()] = (adef, moves)
            print(f"   [{adef.key.lower()}] {_group_line(chooser, adef, moves)}", file=out)
            continue
        for action in moves:
            n += 1
            choices[str(n)] = action
            if not action.args:
                choices[adef.key.lower()] = action
            print(f"   [{n}] {chooser.move_words(action)}"
                  + (f" ({adef.key})" if not action.args else ""), file=out)
    while True:
        print(f"{state.players[seat]}, your choice (q to quit): ", end="", file=out)
        out.flush()
        line = inp.readline()
        if not line:
            return None
        answer = line.strip().lower()
        if answer in ("q", "quit"):
            return None
        if answer in choices:
            return choices[answer]
        words = answer.split()
        if words and words[0] in grouped:
            adef, moves = grouped[words[0]]
            found = _typed_move(chooser, adef, moves, words[1:], inp, out)
            if found is not None:
                return found
            continue
        print("   Type one of the numbers or letters shown.", file=out)


def _typed_move(chooser: Chooser, adef: ActionDef, moves: list[Action], words: list[str],
                inp: TextIO, out: TextIO) -> Action | None:
    """The move typed as an action's key and its values ("b 3 4"); values not typed are
    asked for one argument at a time. None (told why) when nothing fits."""
    fitting = list(moves)
    for k, arg in enumerate(adef.args):
        values = list(dict.fromkeys(dict(a.args)[arg.name] for a in fitting))
        if k < len(words):
            typed = words[k]
        else:
            names = [_typed(chooser, arg, v) for v in values]
            print(f"   {adef.label} - {arg.name.replace('_', ' ')}: "
                  f"{_span(values, names)}? ", end="", file=out)
            out.flush()
            typed = inp.readline().strip().lower()
            if not typed:
                return None
        fitting = [a for a in fitting if _typed(chooser, arg, dict(a.args)[arg.name]) == typed]
        if not fitting:
            print(f"   No {adef.label.lower()} with {arg.name.replace('_', ' ')} {typed} now.",
                  file=out)
            return None
    return fitting[0] if len(fitting) == 1 else None


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
