"""What a game's options and number of players change in the rules themselves.

Three general pieces, each written in `rules.yaml`:

- an option whose default and choices depend on the number of players
  (`by_players: {5: {default: night, choices: [night]}}`: five players always play by
  night);
- a board whose shape an option chooses (`shape_option: board`, `shapes: {day: [...],
  night: [...]}`): every space of every shape has its zone, and the game's board holds the
  spaces of the chosen shape, in order;
- teams switched on by a true/false option (`players: {teams: 2, teams_option: teams}`);
- an option that only matters under another's value (`applies_when: {variant: party}`);
- scores kept secret only in some games (`reveal_scores: {value: at_end, applies_when:
  {variant: standard}}`): the others show every score all game.

`shaped` gives the rules one game plays by: the same rules when nothing changes, else a
copy (made once per choice of shapes and teams) with those boards and teams. The engine
reads a game's rules from its state, so everything else follows.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .model import BoardDef, OptionDef, Rules


def option_at(option: OptionDef, players: int | None) -> tuple[Any, tuple[Any, ...]]:
    """An option's default and choices at a number of players (None: the usual ones)."""
    if players is not None and players in option.by_players:
        return option.by_players[players]
    return option.default, option.choices


def applies(when: tuple[tuple[str, tuple[Any, ...]], ...], options: dict[str, Any]) -> bool:
    """Whether an option, or a table widget, with this `applies_when` matters with these
    options chosen (each named option has one of its values)."""
    return all(options.get(other) in values for other, values in when)


def option_applies(option: OptionDef, options: dict[str, Any]) -> bool:
    """Whether an option matters with these options chosen (`applies_when`)."""
    return applies(option.applies_when, options)


def for_new_game(rules: Rules, options: dict[str, Any]) -> dict[str, Any]:
    """These options for a new game: each hidden option back at its default, so a game
    continued under an older edition of the rules is followed by one under today's."""
    return {name: rules.options[name].default if name in rules.options
            and rules.options[name].hidden else value for name, value in options.items()}


def shaped(rules: Rules, options: dict[str, Any]) -> Rules:
    """The rules a game with these options plays by (boards shaped, teams on or off)."""
    shapes = tuple((b.name, options.get(b.shape_option)) for b in rules.boards.values()
                   if b.shape_option)
    teams_off = bool(rules.teams_option) and not options.get(rules.teams_option)
    open_scores = rules.reveal_scores != "always" and bool(rules.reveal_when) and not applies(
        rules.reveal_when, options)
    if not shapes and not teams_off and not open_scores:
        return rules
    key = ("shaped", shapes, teams_off, open_scores)
    found: Rules | None = rules.memo.get(key)
    if found is None:
        boards = dict(rules.boards)
        for name, value in shapes:
            boards[name] = _reshaped(boards[name], value)
        found = replace(rules, boards=boards, teams=0 if teams_off else rules.teams,
                        reveal_scores="always" if open_scores else rules.reveal_scores)
        rules.memo[key] = found
    return found


def _reshaped(board: BoardDef, value: Any) -> BoardDef:
    spaces = board.shapes.get(value, board.spaces)
    rows = -(-len(spaces) // board.cols) if board.cols else board.rows
    return replace(board, spaces=spaces, rows=rows, index={s: i for i, s in enumerate(spaces)})
