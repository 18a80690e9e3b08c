"""Dice named by their faces, and costs paid in faces or kinds.

Identical dice are interchangeable: `[labor, labor]` is two dice showing labor, whichever
two. The `faces_of` domain offers each distinct multiset of the faces a zone's dice show
once (not every set of dice positions), in one fixed order of faces, so a choice has one
spelling. A cost is a list of faces or kinds, one item per entry; `matching` finds the
items of a zone that pay it (faces first, then kinds, each in zone order), `can_pay` says
whether they do, and the `pay` effect (effects_pay.py) moves exactly those.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .domains import DOMAINS, DomainSpec, passing
from .errors import EngineError
from .expr import Compiled, Ctx, ZoneName, declare_types, function
from .model import Rules
from .registry import INLINE_HELPERS
from .state import GameState

MAX_LISTED_MULTISETS = 20_000  # a zone of many dice and faces: refuse to list them all


def face_rank(rules: Rules) -> dict[Any, int]:
    """Every face's place in the one order choices are written in: the dice as declared,
    each die's faces in order (a face shared by dice counts once, where it first comes)."""
    rank = rules.memo.get("face_rank")
    if rank is None:
        rank = {}
        for die in rules.dice.values():
            for face in die.faces:
                rank.setdefault(face, len(rank))
        for kind in rules.items:  # cards, tiles and tokens are named by kind, after faces
            rank.setdefault(kind, len(rank))
        rules.memo["face_rank"] = rank
    return rank


def shown_as(state: GameState, index: int) -> Any:
    """What names an item in a list of faces or kinds: a die by the face it shows (None
    before it is rolled), a card, tile or token by its kind."""
    item = state.items[index]
    return item.face if item.kind in state.rules.dice else item.kind


def in_face_order(rules: Rules, faces: Sequence[Any]) -> tuple[Any, ...]:
    """A multiset of faces spelt the one way the engine lists it (its faces in rank order)."""
    rank = face_rank(rules)
    return tuple(sorted(faces, key=lambda f: (rank.get(f, len(rank)), str(f))))


def as_cost(value: Any) -> list[Any]:
    """A cost as a list of entries: a list or tuple as it is, anything else one entry
    ('' or None: nothing to pay)."""
    if isinstance(value, list | tuple):
        return list(value)
    if value is None or value == "":
        return []
    return [value]


def pay_from(state: GameState, zone: list[int], cost: Sequence[Any]) -> list[int] | None:
    """The items of `zone` that pay `cost`, in zone order, or None when it cannot pay all.

    An entry is paid by an item showing that face, or else by an item of that kind: every
    face entry is matched first, then the kind entries, each by the first unused item in
    zone order, so a die showing a face is never spent on a kind another die could pay.
    """
    items = state.items
    # The faces and kinds in zone order, a place crossed out (_TAKEN) once an item pays:
    # the first unused item showing an entry is the first place its face still stands.
    faces: list[Any] = [items[i].face for i in zone]
    taken: list[int] = []
    later: list[Any] = []
    for entry in cost:
        try:
            at = faces.index(entry)
        except ValueError:
            later.append(entry)
            continue
        faces[at] = _TAKEN
        taken.append(at)
    if later:
        kinds: list[Any] = [items[i].kind for i in zone]
        for at in taken:
            kinds[at] = _TAKEN
        for entry in later:
            try:
                at = kinds.index(entry)
            except ValueError:
                return None
            kinds[at] = _TAKEN
            taken.append(at)
    taken.sort()
    return [zone[at] for at in taken]


class _Taken:
    """A place already paid with: equal to no face or kind."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


_TAKEN = _Taken()


def paid_ids(state: GameState, items: list[int], cost: Any) -> tuple[str, ...]:
    """`matching`: the ids of the items that pay `cost`, in zone order; () when they
    cannot pay all of it."""
    found = pay_from(state, items, as_cost(cost))
    return () if found is None else tuple(state.items[i].id for i in found)


def can_pay_with(state: GameState, items: list[int], cost: Any) -> bool:
    """`can_pay`: whether the items pay `cost`."""
    return pay_from(state, items, as_cost(cost)) is not None


INLINE_HELPERS.update(_paid_ids=paid_ids, _can_pay_with=can_pay_with)


@function("matching", ("zone", "expr"), "The ids of the items in a zone that pay a cost (a "
          "list of faces or kinds, one item per entry; faces first, then kinds, each taking "
          "the first unused item in zone order), in zone order; an empty list when the zone "
          "cannot pay all of it.", "matching(tray, $dice)",
          inline=lambda zone, cost: f"_paid_ids(st, {zone.source()}, {cost})")
def _matching(zone: ZoneName, cost: Compiled) -> Compiled:
    get = zone.items()
    return lambda c: paid_ids(c.state, get(c), cost(c))


@function("can_pay", ("zone", "expr"), "Whether the items in a zone can pay a cost: a list "
          "of faces or kinds (a list property, an argument), one item showing that face, or "
          "else of that kind, per entry.", "can_pay(tray, prop($card, cost))",
          inline=lambda zone, cost: f"_can_pay_with(st, {zone.source()}, {cost})")
def _can_pay(zone: ZoneName, cost: Compiled) -> Compiled:
    get = zone.items()
    return lambda c: can_pay_with(c.state, get(c), cost(c))


declare_types("matching", "list")
declare_types("can_pay", "bool")


# --- the faces_of domain -------------------------------------------------------------

@dataclass(frozen=True)
class FacesOf:
    """The `faces_of` domain of one argument: its pieces, compiled."""

    name: str
    zone: str
    lo: Compiled | None
    hi: Compiled | None
    where: Compiled | None
    test: Compiled | None
    _listed: dict[tuple[Any, ...], tuple[tuple[Any, ...], ...]] = field(
        default_factory=dict, compare=False, repr=False)

    def shown(self, c: Ctx) -> list[tuple[Any, int]]:
        """The faces the zone's dice show (passing `where`), in rank order, with counts."""
        state = c.state
        counts = Counter(f for f in (shown_as(state, i) for i in state.zone(self.zone, c.seat))
                         if f is not None)
        faces = passing(c, list(in_face_order(c.state.rules, list(counts))), "face",
                        self.where)
        return [(f, counts[f]) for f in faces]

    def values(self, c: Ctx) -> list[Any]:
        """Every allowed multiset, fewest dice first, each a tuple of faces in rank order."""
        shown = self.shown(c)
        total = 1
        for _, n in shown:
            total *= n + 1
        if total > MAX_LISTED_MULTISETS:
            raise EngineError(f"{self.name}: {total} choices of faces are too many to list")
        most = sum(n for _, n in shown)
        low = 0 if self.lo is None else max(0, int(self.lo(c)))
        high = most if self.hi is None else min(most, int(self.hi(c)))
        # The list depends on the faces shown and the bounds alone: a playout meets the same
        # few hundred trays again and again, so each is listed once. The list is handed out
        # as the tuple kept (nobody may change it), so a lister meeting the same tray again
        # knows it by its identity (`legality._with_args`).
        key = (tuple(shown), low, high)
        listed = self._listed.get(key)
        if listed is None:
            if len(self._listed) >= LISTED_KEPT:
                self._listed.clear()
            listed = self._listed[key] = _multisets(shown, low, high, face_rank(c.state.rules))
        return passing(c, listed, self.name, self.test)  # type: ignore[arg-type]


LISTED_KEPT = 4096  # trays remembered per argument (a few hundred kilobytes at most)


def _multisets(shown: list[tuple[Any, int]], low: int, high: int,
               rank: dict[Any, int]) -> tuple[tuple[Any, ...], ...]:
    """Every multiset of `shown` (faces in rank order, with counts) of `low` to `high` dice:
    fewest dice first, then in the order of their faces' ranks, read as words."""
    ranks = [rank.get(f, len(rank)) for f, _ in shown]
    if any(a >= b for a, b in itertools.pairwise(ranks)):
        # Faces of one rank (none the dice declare): sorted as they fall, stably.
        found = [tuple(f for (f, _), k in zip(shown, takes, strict=True) for _ in range(k))
                 for takes in itertools.product(*(range(n + 1) for _, n in shown))
                 if low <= sum(takes) <= high]
        found.sort(key=lambda v: (len(v), [rank.get(f, len(rank)) for f in v]))
        return tuple(found)
    # With every rank apart, a multiset's faces read in rank order sort as words: of two of
    # one size, the one with more of the first face where they differ comes first. So each
    # size is written out in order, taking as many of each face as can be, then fewer.
    room = [0] * (len(shown) + 1)  # how many dice the faces from j on can give
    for j in range(len(shown) - 1, -1, -1):
        room[j] = room[j + 1] + shown[j][1]
    out: list[tuple[Any, ...]] = []

    def fill(j: int, left: int, prefix: tuple[Any, ...]) -> None:
        if left == 0:
            out.append(prefix)
            return
        face, n = shown[j]
        for k in range(min(n, left), max(0, left - room[j + 1]) - 1, -1):
            fill(j + 1, left - k, prefix + (face,) * k)

    for size in range(low, min(high, room[0]) + 1):  # never more dice than are shown
        fill(0, size, ())
    return tuple(out)


def faces_dice(state: GameState, seat: int, arg: Any) -> list[tuple[str, Any]] | None:
    """For a front end: the dice (id, face) a `faces_of` argument may name, those of its
    zone (the seat's own copy) showing a face that passes its `where`, in zone order; None
    for another argument. A player chooses dice, the argument names their faces
    (`in_face_order`)."""
    domain = getattr(arg.values, "__self__", None)
    if not isinstance(domain, FacesOf):
        return None
    allowed = {face for face, _ in domain.shown(Ctx(state, seat))}
    items = state.items
    # A token or card is named by its kind, as the argument names it (`shown_as`).
    return [(items[i].id, shown) for i in state.zone(domain.zone, seat)
            if (shown := shown_as(state, i)) is not None and shown in allowed]


FACES_DOC = ("Dice of a zone named by the faces they show (the acting player's own, for a "
             "per-player zone): a list of faces, one per die (`[labor, labor]` is two dice "
             "showing labor); cards, tiles and tokens are named by their kind (`[leaf, leaf]` "
             "is two leaf tokens). Identical dice are interchangeable, so each distinct choice is "
             "offered once: between `min` and `max` dice (default: any number), each face "
             "passing `where` (`$face` is the face tested), the whole passing `test` (the "
             "argument itself names the faces chosen). The faces are listed in the order the "
             "dice declare them.")
DOMAINS["faces_of"] = DomainSpec(
    "faces_of", FACES_DOC, "dice: {domain: faces_of, zone: tray, min: 1}",
    ("zone", "min", "max", "where", "test"), False, lambda *a: (lambda c: []))
FACES_OPTIONAL = ("min", "max", "where", "test")
