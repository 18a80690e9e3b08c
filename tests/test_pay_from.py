"""Which items pay a cost: each face entry by the first unused item showing it, then each
kind entry by the first unused item of that kind, in zone order; nothing when one entry
cannot be paid. Checked against that sentence written out plainly, for any zone and cost."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dinotable.engine.multisets import pay_from
from dinotable.engine.state import Item

FACES = ("food", "fire", "idea", None)
KINDS = ("red", "white")


class _Game:
    """Just the items a payment reads."""

    def __init__(self, items: list[Item]) -> None:
        self.items = items


def _as_written(items: list[Item], zone: list[int], cost: list[Any]) -> list[int] | None:
    used: list[int] = []
    later = []
    for entry in cost:
        pick = next((i for i in zone if i not in used and items[i].face == entry), None)
        if pick is None:
            later.append(entry)
        else:
            used.append(pick)
    for entry in later:
        pick = next((i for i in zone if i not in used and items[i].kind == entry), None)
        if pick is None:
            return None
        used.append(pick)
    return [i for i in zone if i in used]


@given(dice=st.lists(st.tuples(st.sampled_from(KINDS), st.sampled_from(FACES)), max_size=8),
       cost=st.lists(st.sampled_from(FACES[:3] + KINDS + ("labor",)), max_size=5),
       data=st.data())
@settings(max_examples=300, deadline=None)
def test_the_items_that_pay_are_those_the_rule_picks(dice: list[tuple[str, Any]],
                                                     cost: list[Any], data: Any) -> None:
    items = [Item(f"{kind}{n}", kind, face) for n, (kind, face) in enumerate(dice)]
    # The zone holds some of the items, in any order.
    zone = data.draw(st.permutations(range(len(items))))[:data.draw(
        st.integers(0, len(items)))]
    assert pay_from(_Game(items), list(zone), cost) == _as_written(items, list(zone), cost)


def test_a_face_is_never_spent_on_a_kind_another_die_could_pay() -> None:
    items = [Item("red1", "red", "fire"), Item("white1", "white", "food")]
    # "red" could take red1, but red1 must pay "fire": nothing pays "red" then.
    assert pay_from(_Game(items), [0, 1], ["red", "fire"]) is None
    assert pay_from(_Game(items), [0, 1], ["white", "fire"]) == [0, 1]
