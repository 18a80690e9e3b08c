"""Exact odds for press-your-luck choices, as expression functions."""

from __future__ import annotations

from functools import lru_cache

from .expr import Compiled, Ctx, ZoneName, declare_types, function


def _face_count_distribution(chances: list[float]) -> list[float]:
    """Distribution of how many of several independent dice show a face (Poisson-binomial)."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


@lru_cache(maxsize=4096)
def chance_at_least(at_least: int, rolled: tuple[float, ...],
                    pool: tuple[tuple[float, int], ...], draws: int) -> float:
    """P(at least `at_least` dice show the face) when rolling `rolled` (each die's chance of
    the face) plus `draws` dice drawn without replacement from `pool` ((chance, count) per kind).
    """
    if at_least <= 0:
        return 1.0
    total = sum(n for _, n in pool)
    draws = min(draws, total)
    if draws == 0:
        dist = _face_count_distribution(list(rolled))
        return sum(dist[at_least:])
    result = 0.0
    for k, (p, n) in enumerate(pool):
        if n == 0:
            continue
        rest = (*pool[:k], (p, n - 1), *pool[k + 1:])
        result += n / total * chance_at_least(at_least, (*rolled, p), rest, draws - 1)
    return result


@function("chance_of", ("face", "expr", "zone", "zone", "expr"),
          "Exact chance that at least N dice show a face when the dice in one zone are "
          "rolled together with M dice drawn at random from another.",
          "chance_of(footprint, 3 - size(stomped), hand, cup, 3 - size(hand))")
def _chance_of(face: str, at_least: Compiled, roll_zone: ZoneName, draw_zone: ZoneName,
               draws: Compiled) -> Compiled:
    roll_items, draw_items = roll_zone.items(), draw_zone.items()

    def run(c: Ctx) -> float:
        st = c.state
        dice, items = st.rules.dice, st.items

        def p(kind: str) -> float:
            faces = dice[kind].faces
            return faces.count(face) / len(faces)

        rolled = tuple(sorted(p(items[i].kind) for i in roll_items(c)))
        counts: dict[str, int] = {}
        for i in draw_items(c):
            counts[items[i].kind] = counts.get(items[i].kind, 0) + 1
        pool = tuple(sorted((p(k), n) for k, n in counts.items()))
        return chance_at_least(int(at_least(c)), rolled, pool, max(0, int(draws(c))))

    return run


declare_types("chance_of", "number", ("any", "number", "any", "any", "number"))
