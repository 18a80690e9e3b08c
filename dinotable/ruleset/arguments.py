"""Where an action's arguments may be tested, for the message when a `when` reads one.

An action's `when` is checked before any argument is chosen: it decides whether the action
is offered at all, and gives `why_not` for the action as a whole. An argument is tested
where its values are worked out, in its domain, or else in the effects.
"""

from __future__ import annotations

import re
from typing import Any

from ..engine.model import ArgDef

_QUOTED = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\"""")
_ARG = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
# Domains that test each value (`where`, the value being $kind, $space, $item or $face),
# and those that also test the whole choice (`test`).
_WHERE = {"kind_in": "$kind", "kind_on": "$kind", "space_of": "$space", "subset_of": "$item",
          "faces_of": "$face", "top_of": "$kind"}


def argument_in_when(raw: Any, args: list[ArgDef]) -> str | None:
    """The message for an action's `when` that reads one of the action's own arguments."""
    if not isinstance(raw, str):
        return None
    read = [m.group(1) for m in _ARG.finditer(_QUOTED.sub("''", raw))]
    by_name = {a.name: a for a in args}
    arg = next((by_name[name] for name in read if name in by_name), None)
    if arg is None:
        return None
    if arg.domain in ("subset_of", "faces_of"):
        where = (f"test it in the argument instead: `test:` for the whole choice (as "
                 f"${arg.name}) or `where:` for each one (as {_WHERE[arg.domain]})")
    elif arg.domain in _WHERE:
        where = (f"test it in the argument instead: `where:` keeps the values for which it "
                 f"holds (each value as {_WHERE[arg.domain]})")
    else:
        where = (f"its {arg.domain} domain takes no test, so test ${arg.name} in the effects "
                 "with a when form (when: ..., then: [...], else: [...])")
    return (f"${arg.name} is an argument of this action, but `when` is checked before its "
            f"arguments are chosen and cannot read them; {where}")
