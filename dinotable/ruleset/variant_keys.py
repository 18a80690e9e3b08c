"""Reading what options change in the rules: an option's default and choices by number of
players (`by_players`), a board's shapes chosen by an option (`shape_option`, `shapes`) and
teams switched on by an option (`players.teams_option`). The engine side is
engine/variants.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.model import BoardDef, OptionDef
from .problems import Path
from .reader import _ID

if TYPE_CHECKING:
    from .reader import SectionReader

BY_PLAYERS_KEYS = {"default", "choices"}


def option_by_players(reader: SectionReader, spec: dict[str, Any], path: Path, default: Any,
                      choices: list[Any]) -> dict[int, tuple[Any, tuple[Any, ...]]]:
    """`by_players: {N: {default: V, choices: [...]}}`: at N players, that default and those
    choices (either may be left out: the usual one stands)."""
    raw = spec.get("by_players")
    if raw is None:
        return {}
    bpath = (*path, "by_players")
    if not isinstance(raw, dict):
        reader.report(bpath, "expected {PLAYERS: {default: VALUE, choices: [...]}}")
        return {}
    out: dict[int, tuple[Any, tuple[Any, ...]]] = {}
    for n, at in raw.items():
        npath = (*bpath, n)
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 8:
            reader.report(npath, "expected a number of players (1 to 8)")
            continue
        if not isinstance(at, dict) or not at or set(at) - BY_PLAYERS_KEYS:
            reader.report(npath, "expected {default: VALUE, choices: [...]}")
            continue
        here = list(at.get("choices", choices))
        value = at.get("default", default)
        if not isinstance(here, list):
            reader.report((*npath, "choices"), "expected a list of values")
            continue
        if type(value) is not type(default):
            reader.report((*npath, "default"), f"expected a value like the default "
                                               f"({default!r})")
            continue
        if here and value not in here:
            reader.report((*npath, "default"), f"{value!r} is not one of {here}")
            continue
        out[n] = (value, tuple(here))
    return out


def option_applies_when(reader: SectionReader, spec: dict[str, Any], path: Path
                        ) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """An option's `applies_when`: see `read_applies_when`."""
    return read_applies_when(reader.report, spec.get("applies_when"), (*path, "applies_when"))


def read_applies_when(report: Any, raw: Any, path: Path
                      ) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """`applies_when: {OPTION: VALUE or [VALUE, ...]}`: an option or a table widget that
    matters only while each named option has one of those values (the names and values are
    checked against the options once all are read, by `check_applies_when`)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not raw or not all(isinstance(k, str) for k in raw):
        report(path, "expected {OPTION: VALUE or [VALUE, ...]}")
        return ()
    return tuple((name, tuple(v) if isinstance(v, list) else (v,)) for name, v in raw.items())


def options_condition(when: tuple[tuple[str, tuple[Any, ...]], ...]) -> str:
    """An `applies_when` as an expression: `(variant == 'standard')`."""
    def equals(name: str, value: Any) -> str:
        if isinstance(value, bool):
            return name if value else f"not {name}"
        return f"{name} == {value!r}"
    return " and ".join("(" + " or ".join(equals(name, v) for v in values) + ")"
                        for name, values in when)


def check_applies_when(reader: SectionReader, options: dict[str, OptionDef]) -> None:
    """Every option an option's `applies_when` names is another option, and each value one
    it takes."""
    for o in options.values():
        check_when(reader.report, ("options", o.name, "applies_when"), o.applies_when,
                   options, o.name)


def check_when(report: Any, path: Path, when: tuple[tuple[str, tuple[Any, ...]], ...],
               options: dict[str, OptionDef], own: str = "") -> None:
    """Each option an `applies_when` names is one of the options (not `own`), and each
    value one that option takes."""
    for other, values in when:
        named = options.get(other)
        if named is None or other == own:
            report((*path, other), f"no other option {other!r}; there are "
                                   f"{sorted(set(options) - {own})}")
            continue
        allowed = set(named.choices) or ({True, False} if isinstance(named.default, bool)
                                         else set())
        wrong = [v for v in values if allowed and v not in allowed]
        if wrong:
            report((*path, other), f"{wrong[0]!r} is not a value of option {other} (one of "
                                   f"{sorted(allowed, key=str)})")


def board_shapes(reader: SectionReader, spec: dict[str, Any], path: Path,
                 spaces: list[str]) -> tuple[str, dict[Any, tuple[str, ...]]]:
    """`shape_option: OPTION` and `shapes: {VALUE: [SPACE, ...]}`: the option, and each of
    its values' spaces (checked against the option once options are known)."""
    option = spec.get("shape_option")
    raw = spec.get("shapes")
    if option is None and raw is None:
        return "", {}
    if not isinstance(option, str) or not isinstance(raw, dict) or not raw:
        reader.report(path, "a board shaped by an option needs `shape_option: OPTION` and "
                            "`shapes: {VALUE: [SPACE, ...]}`")
        return "", {}
    shapes: dict[Any, tuple[str, ...]] = {}
    for value, listed in raw.items():
        if (not isinstance(listed, list) or not listed
                or not all(isinstance(x, str) and _ID.match(x) for x in listed)
                or len(set(listed)) != len(listed)):
            reader.report((*path, "shapes", value), "expected a list of different "
                                                    "lower_snake_case space names")
            continue
        shapes[value] = tuple(listed)
    del spaces  # the board as declared is the shape of any value not listed
    return option, shapes


def check_shape_options(reader: SectionReader, boards: dict[str, BoardDef],
                        options: dict[str, OptionDef]) -> None:
    """Every shaped board names an option, and every shape a value that option may take."""
    for board in boards.values():
        if not board.shape_option:
            continue
        path = ("boards", board.name, "shape_option")
        option = options.get(board.shape_option)
        if option is None:
            reader.report(path, f"no option {board.shape_option!r}; there are "
                                f"{sorted(options)}")
            continue
        allowed = set(option.choices) | {option.default}
        for value in board.shapes:
            if value not in allowed and option.choices:
                reader.report(("boards", board.name, "shapes", value),
                              f"{value!r} is not a choice of option {option.name}")


def check_teams_option(reader: SectionReader, name: Any, options: dict[str, OptionDef]
                       ) -> str:
    """`players.teams_option`: a true/false option that switches the teams on."""
    if name is None:
        return ""
    option = options.get(name) if isinstance(name, str) else None
    if option is None or not isinstance(option.default, bool):
        reader.report(("players", "teams_option"), "expected the name of a true/false "
                                                   f"option; there are {sorted(options)}")
        return ""
    return str(name)
