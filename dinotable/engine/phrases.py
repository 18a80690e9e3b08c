"""Moves in the ruleset's own words: an action's `says` phrase ("bid three 4s"), worked
out for one move, and the small text functions such phrases use (`words`, `plural`,
`listed`).

A phrase is worked out on the game as a seat may know it (views.seen_state), so a move's
words can never tell what that seat may not see. The table, the terminal, the phone and the
log read moves through `phrase_for`; the log's sentence ("Ann bids three 4s") is the phrase
with its first word said of the player (`said_by`).
"""

from __future__ import annotations

from typing import Any

from .expr import Compiled, Ctx, declare_types, function
from .state import Action, GameState

_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
          "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
          "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: Any) -> str:
    """A whole number from 0 to 99 in words ("three", "twenty-one"); anything else as it is
    written (100, -2, 2.5, a text)."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < 100:
        return str(n)
    if n < 20:
        return _UNITS[n]
    tens, units = divmod(n, 10)
    return _TENS[tens] + (f"-{_UNITS[units]}" if units else "")


@function("words", ("expr",), "A number in words, for phrases: 3 gives \"three\" (0 to 99; "
          "other values as they are written).", "words($count)")
def _words(n: Compiled) -> Compiled:
    return lambda c: number_words(n(c))


def plural_of(count: Any, word: str) -> str:
    """`word` as it reads after `count`: "die" after 1, else its plural ("dice" is the one
    irregular plural the tables need; otherwise -es after s, x, z, ch, sh, -ies after a
    consonant and y, else -s)."""
    if count == 1:
        return word
    irregular = {"die": "dice", "child": "children", "person": "people"}
    if word in irregular:
        return irregular[word]
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if len(word) > 1 and word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


@function("plural", ("expr", "expr"), "A word as it reads after a number: "
          "`plural(2, 'die')` gives \"dice\", `plural(1, 'column')` \"column\".",
          "plural($count, 'die')")
def _plural(count: Compiled, word: Compiled) -> Compiled:
    return lambda c: plural_of(count(c), str(word(c)))


def listed_words(values: Any) -> str:
    """A list as people say it: "7 and 9", "leaf, leaf and fish" (ids and faces with
    underscores read as words); anything else as it is written."""
    if not isinstance(values, list | tuple):
        return str(values)
    names = [str(v).replace("_", " ") for v in values]
    if len(names) < 2:
        return "".join(names) or "nothing"
    return f"{', '.join(names[:-1])} and {names[-1]}"


@function("listed", ("expr",), "A list as people say it, for phrases: [7, 9] gives \"7 and "
          "9\", three faces \"leaf, leaf and fish\".", "listed($columns)")
def _listed(values: Compiled) -> Compiled:
    return lambda c: listed_words(values(c))


declare_types("words", "text", ("number",))
declare_types("listed", "text", ("list",))
declare_types("plural", "text", ("number", "any"))


def said_by(phrase: str) -> str:
    """The phrase as said of the player who made the move: its first word takes the third
    person ("bid three 4s" -> "bids three 4s", "challenge" -> "challenges", "pass" ->
    "passes", "try" -> "tries", "have" -> "has")."""
    verb, space, rest = phrase.partition(" ")
    if not verb:
        return phrase
    lower = verb.lower()
    if lower == "have":
        said = verb[:1] + "as"
    elif lower in ("be", "is"):
        said = verb[:1] + "s" if lower == "is" else "is"
    elif lower.endswith(("s", "x", "z", "ch", "sh", "o")):
        said = verb + "es"
    elif len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        said = verb[:-1] + "ies"
    else:
        said = verb + "s"
    return said + space + rest


def phrase_for(state: GameState, seat: int | None, action: Action) -> str | None:
    """The move in its action's `says` words, worked out for the acting player as `seat`
    may know the game (None: a spectator); None when the action has no phrase."""
    adef = state.rules.actions.get(action.id)
    says = getattr(adef, "says", None)
    if says is None:
        return None
    from .views import seen_state  # views reads the flow, which reads this module

    seen = seen_state(state, seat)
    ctx = Ctx(seen, action.player)
    ctx.args = dict(action.args)
    return str(says.render(ctx))
