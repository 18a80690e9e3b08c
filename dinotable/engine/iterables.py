"""Lists to loop over, and what sums them up: numbers, faces, seats, sum, any, all.

A loop is written as the one argument of sum(), count(), any(), all(), max() or min():
`sum(f * count_in($dice, f) for f in faces(d6))` (the compiler in expr.py turns it into a
Python generator). These functions give the lists a loop runs over, and sum/any/all also
take a list itself (`sum($dice)`).
"""

from __future__ import annotations

from typing import Any

from .expr import Compiled, declare_types, function


@function("numbers", ("expr", "expr"), "The whole numbers from LO to HI, both included "
          "(none when HI is below LO).", "numbers(1, 6)",
          inline=lambda lo, hi: f"list(range(int({lo}), int({hi}) + 1))")
def _numbers(lo: Compiled, hi: Compiled) -> Compiled:
    return lambda c: list(range(int(lo(c)), int(hi(c)) + 1))


def _faces_source(kind: str) -> str:
    return f"tuple(dict.fromkeys(st.rules.dice[{kind!r}].faces))"


@function("faces", ("kind",), "Each face of a kind of die once, in the order the die "
          "declares them.", "faces(d6)", inline=_faces_source)
def _faces(kind: str) -> Compiled:
    return lambda c: tuple(dict.fromkeys(c.state.rules.dice[kind].faces))


@function("seats", (), "Every seat at the table, in seat order from 0.", "seats()",
          inline=lambda: "list(range(len(st.players)))")
def _seats() -> Compiled:
    return lambda c: list(range(len(c.state.players)))


@function("sum", ("expr",), "The sum of a loop's values, or of a list's (0 for none).",
          "sum(f * count_in($dice, f) for f in faces(d6))",
          inline=lambda values: f"sum({values})")
def _sum(values: Compiled) -> Compiled:
    return lambda c: sum(values(c))


def _test(name: str, reduce: Any) -> None:
    @function(name, ("expr",), f"Whether {'any' if name == 'any' else 'every'} value of a "
              f"loop (or a list) is true; {'false' if name == 'any' else 'true'} for none.",
              f"{name}(count_in($dice, f) >= 3 for f in faces(d6))",
              inline=lambda values: f"{name}({values})")
    def _build(values: Compiled) -> Compiled:
        return lambda c: reduce(values(c))


_test("any", any)
_test("all", all)

declare_types("numbers", "list", ("number", "number"))
declare_types("faces", "list")
declare_types("seats", "list")
declare_types("sum", "number", ("list",))
declare_types("any", "bool", ("list",))
declare_types("all", "bool", ("list",))
