"""The one source of chance: seeded, serialisable, and forceable outcome by outcome."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

from .errors import ChanceError


class Chance:
    """A seeded random source with a queue of forced outcomes.

    Every random event asks `next_forced()` first; only when the queue is empty
    does it fall back to the seeded generator, so a scenario can pin any
    outcome and leave the rest to the seed.
    """

    __slots__ = ("_rng", "forced", "random", "seed")

    def __init__(self, seed: int, state: tuple[Any, ...] | None = None) -> None:
        self.seed = seed
        if state is None:
            self._rng = random.Random(seed)
        else:  # a generator's saved state, taken as it is: seeding first would cost as much
            self._rng = random.Random.__new__(random.Random)
            self._rng.setstate(state)
        self.random = self._rng.random  # uniform float in [0, 1); the hot path
        self.forced: deque[Any] = deque()

    def force(self, outcomes: Sequence[Any]) -> None:
        """Queue outcomes that the next random events must take, in order."""
        self.forced.extend(outcomes)

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n) (n is small: a die's faces, a cup's dice)."""
        # random() * n is several times faster than randrange, and for the small n
        # of dice and decks its bias (below 2**-50) is far beneath anything measurable.
        return int(self.random() * n)

    def pick_index(self, event: str, labels: Sequence[Sequence[str]]) -> int:
        """Choose one of several outcomes; `labels[i]` lists the ids that name outcome i."""
        if self.forced:
            wanted = self.forced.popleft()
            for i, names in enumerate(labels):
                if wanted in names:
                    return i
            raise ChanceError(
                f"forced outcome {wanted!r} is impossible for {event}: "
                f"possible are {sorted({n for names in labels for n in names})}"
            )
        return self._rng.randrange(len(labels))

    def shuffle(self, event: str, items: list[Any], names: Sequence[Sequence[str]]) -> list[int]:
        """Return a random permutation of range(len(items)); a forced list pins the top."""
        order = list(range(len(items)))
        self._rng.shuffle(order)
        if self.forced:
            wanted = self.forced.popleft()
            if not isinstance(wanted, list):
                wanted = [wanted]
            top: list[int] = []
            for want in wanted:
                for i in order:
                    if i not in top and want in names[i]:
                        top.append(i)
                        break
                else:
                    raise ChanceError(f"forced outcome {want!r} is impossible for {event}")
            order = top + [i for i in order if i not in top]
        return order

    def to_dict(self) -> dict[str, Any]:
        """Serialisable form: seed, generator state and the forced queue."""
        version, internal, gauss = self._rng.getstate()
        return {"seed": self.seed, "state": [version, list(internal), gauss],
                "forced": list(self.forced)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Chance:
        """Rebuild a Chance exactly as `to_dict` saw it."""
        version, internal, gauss = data["state"]
        chance = cls(int(data["seed"]), (version, tuple(internal), gauss))
        chance.forced.extend(data.get("forced", []))
        return chance

    def copy(self) -> Chance:
        """An independent Chance that will give the same outcomes as this one."""
        other = Chance(self.seed, self._rng.getstate())
        other.forced.extend(self.forced)
        return other
