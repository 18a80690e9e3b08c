"""How a choice reads: a move in words (the ruleset's phrase, or its arguments by name), a
value's name, what an argument names, and a long run of numbers offered in spans.

The words half of a `Chooser` (table/choice.py): the bar, the terminal and the phone all
name moves through it, so a move reads the same wherever it is offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import Action, ArgDef, GameState, Rules, phrase_for
from .marking import Building

# More numbers than SPAN_AT to choose from (a count of up to thirty) are offered in spans
# of SPAN first: a few short buttons, then a few more, fit the bar with no pages to turn.
SPAN_AT = 8
SPAN = 5


class Wording:
    """Moves and values in words, for a `Chooser`."""

    state: GameState
    rules: Rules
    names: list[str]
    building: Building | None
    ready: tuple[Action, Any] | None

    if TYPE_CHECKING:  # the Chooser's: the values still open for an argument being chosen
        def open_values(self, arg: ArgDef) -> list[Any]: ...

    def value_name(self, arg: ArgDef, value: Any) -> str:
        """An argument value in words: a player's name, a card's label, a space's name."""
        if arg.is_player:
            return self.names[int(value)]
        if isinstance(value, str) and value in self.state.item_ids:
            kind = self.state.items[self.state.item_ids[value]].kind
            return item_label(self.rules, kind)
        if isinstance(value, str) and any(value in b.spaces for b in self.rules.boards.values()):
            # A board's space is a name: "Early Cretaceous".
            return " ".join(w[:1].upper() + w[1:] for w in value.split("_"))
        if isinstance(value, tuple):  # dice named by the faces they show: "skull, skull"
            return ", ".join(str(v).replace("_", " ") for v in value)
        return str(value).replace("_", " ")

    def move_words(self, action: Action) -> str:
        """A move as the bar, the terminal and the phone name it: the ruleset's own phrase
        ("Bid three 4s"); else its label and its one argument ("Steal from: Ben"), or each
        argument by its name ("Bid - count 3, face 4"), never bare values in a row. A list
        (dice chosen, columns) reads "7 and 9"."""
        phrase = phrase_for(self.state, action.player, action)
        if phrase:
            return phrase[:1].upper() + phrase[1:]
        adef = self.rules.actions[action.id]
        given = dict(action.args)
        args = [a for a in adef.args if a.name in given]
        if not args:
            return adef.label
        if len(args) == 1:
            return f"{adef.label}: {self.listed_name(args[0], given[args[0].name])}"
        named = ", ".join(f"{a.name.replace('_', ' ')} {self.listed_name(a, given[a.name])}"
                          for a in args)
        return f"{adef.label} \u2014 {named}"

    def listed_name(self, arg: ArgDef, value: Any) -> str:
        """An argument's value in words, a list of them joined as people say it: "7 and
        9", "leaf, leaf and fish"."""
        if not isinstance(value, tuple | list):
            return self.value_name(arg, value)
        names = [self.value_name(arg, v) for v in value]
        if len(names) < 2:
            return "".join(names) or "none"
        return f"{', '.join(names[:-1])} and {names[-1]}"

    def noun(self, arg: ArgDef) -> str:
        """What an argument names, in words: "a player", "a dinosaur", "a period"."""
        if arg.is_player:
            return "a player"
        if arg.domain == "space_of":
            return "a space"
        if arg.domain == "choice" and len(b_args := self._built_args()) > 1 and arg in b_args:
            # One answer of several (the count, then the face of a bid): named by its name.
            return f"the {arg.name.replace('_', ' ')}"
        if arg.domain in ("item_in", "kind_in", "item_on", "kind_on", "top_of"):
            groups = {str(getattr(self.rules.items.get(self._kind(v)), "props", {}).get(
                "group", "")) for v in self.open_values(arg)}
            group = groups.pop().replace("_", " ") if len(groups) == 1 else ""
            if not group or group == "special":
                return "a card"
            return f"{'an' if group[0] in 'aeiou' else 'a'} {group}"  # "a hired hand"
        return "one"

    def _built_args(self) -> tuple[ArgDef, ...]:
        return self.building.adef.args if self.building is not None else ()

    def _kind(self, value: Any) -> str:
        if isinstance(value, str) and value in self.state.item_ids:
            return self.state.items[self.state.item_ids[value]].kind
        return str(value)

    def ready_label(self) -> str:
        """The confirm button's words for the move a click chose: "Play Lucky Shot"."""
        if self.ready is None:
            return ""
        action, _ = self.ready
        adef = self.rules.actions[action.id]
        if adef.says is not None:
            return self.move_words(action)
        last = adef.args[-1]
        return f"{adef.label} {self.value_name(last, dict(action.args)[last.name])}"

    def spans(self, arg: ArgDef) -> list[tuple[int, int]]:
        """The spans a long run of numbers is offered in (`SPAN` a span, "1-5", "6-10"),
        or [] when its values are few enough, or not numbers, or a span is chosen."""
        b = self.building
        if b is None or b.span is not None or arg.domain != "choice":
            return []
        values = self.open_values(arg)
        if len(values) <= SPAN_AT or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in values):
            return []
        ordered = sorted(values)
        chunks = [ordered[k:k + SPAN] for k in range(0, len(ordered), SPAN)]
        return [(chunk[0], chunk[-1]) for chunk in chunks]


def item_label(rules: Any, kind: str) -> str:
    """A card's or token's name on screen."""
    idef = rules.items.get(kind)
    if idef is not None and idef.label:
        return str(idef.label)
    return kind.replace("_", " ").capitalize()
