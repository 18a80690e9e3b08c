"""Making a move at the table as a person would: with the mouse, or with the keyboard alone.

The driver is told the move (a bot chose it for the person) and finds the presses that
make it: the buttons and the glowing things to press, in some order. It looks for them
with the table's `take` held back, so a wrong try changes nothing; once found they are
pressed for real. With the keyboard a press is Tab until the focus is on the thing, then
Enter; along the way it checks the keys a player leans on: Enter after a pick, the arrows
on the bar, Esc.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from ..engine import Action
from ..table.choice import Target
from ..table.controls import OWN

if TYPE_CHECKING:
    from ..scenes.table import TableScene

NODES = 80  # tries per move at most
DEPTH = 14  # presses per move at most


@dataclass(frozen=True)
class Press:
    """A thing to press: a glowing thing on the table, or a button by its tag."""

    target: Target | None = None
    tag: str = ""

    def __str__(self) -> str:
        if self.target is not None:
            return f"{self.target.kind} {self.target.value}"
        return f"button {self.tag}"


def key_event(key: int, mod: int = 0, unicode: str = "") -> pygame.event.Event:
    """A key press as pygame gives it."""
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0)


def wanted_values(action: Action) -> Counter[str]:
    """Everything an action names (its arguments, a tuple's parts: two leaves twice), as
    words."""
    out: Counter[str] = Counter()
    for value in dict(action.args).values():
        for v in value if isinstance(value, (tuple, list)) else (value,):
            out[str(v)] += 1
    return out


def in_span(tag: str, wanted: Action) -> bool:
    """Whether a button offering a span of numbers ("bid:span:6-10") holds a number the
    move names."""
    head = f"{wanted.id}:span:"
    if not tag.startswith(head):
        return False
    low, _, high = tag[len(head):].partition("-")
    numbers = [v for v in dict(wanted.args).values()
               if isinstance(v, int) and not isinstance(v, bool)]
    return low.isdigit() and high.isdigit() and any(
        int(low) <= n <= int(high) for n in numbers)


def shows(state: Any, item_id: Any) -> str | None:
    """What an item shows, as an argument names it: a die's face, else its kind."""
    index = state.item_ids.get(item_id) if isinstance(item_id, str) else None
    if index is None:
        return None
    item = state.items[index]
    return str(item.face) if item.face is not None else str(item.kind)


class Driver:
    """Finds and makes a move with the mouse or the keyboard (`keyboard`)."""

    def __init__(self, table: TableScene, keyboard: bool, draw: Any) -> None:
        self.table = table
        self.keyboard = keyboard
        self.draw = draw  # draws the table, so what was drawn is where a click lands
        self.captured: list[Action] = []

    # --- the table, between tries ---------------------------------------------------------

    def reset(self) -> None:
        """Back to the start of the decision: nothing chosen, the first page, no focus."""
        table = self.table
        table.chooser.cancel()
        table.page = 0
        table.focus.reset()
        table.refresh_buttons()
        self.draw()

    def signature(self) -> tuple[Any, ...]:
        """What a press may have changed: the choice being built, the page, the focus."""
        table = self.table
        chooser = table.chooser
        b = chooser.building
        built = None if b is None else (b.adef.id, repr(sorted(b.bound.items())),
                                         tuple(b.marked), b.span)
        ready = None if chooser.ready is None else chooser.ready[0]
        keys = (table.focus.ring, table.menu.focus) if self.keyboard else ()
        return (built, ready, table.page, *keys)

    # --- what may be pressed ----------------------------------------------------------------

    def presses(self, wanted: Action) -> list[Press]:
        """What might lead to `wanted` now, the likeliest first."""
        table = self.table
        values = wanted_values(wanted)
        marked = set(table.chooser.marked())
        # Dice or tokens named by what they show: no more of a face than the move names.
        have = Counter(shows(table.state, m) for m in marked)
        first: list[Press] = []
        then: list[Press] = []
        last: list[Press] = []
        for c in table.menu.controls:
            if not c.enabled or c.tag in OWN or c.tag == "cancel":
                continue
            if c.tag in (f"action:{wanted.id}", f"confirm:{wanted.id}") or c.tag == (
                    f"{wanted.id}:{next(iter(values), '')}") or in_span(c.tag, wanted):
                first.append(Press(tag=c.tag))
            elif c.tag.startswith((f"start:{wanted.id}", f"{wanted.id}:", "mark:")) or (
                    c.tag.startswith("page:")):
                last.append(Press(tag=c.tag))
        for _, target in table.ring_targets():
            value = target.value
            words = {str(value), str(value).split("@")[-1]}
            if target.kind == "item" and value in table.state.item_ids:
                item = table.state.items[table.state.item_ids[value]]
                words |= {str(item.kind), str(item.face)}
            shown = shows(table.state, value)
            wants = any(values[w] for w in words) and (
                value in marked or str(value) in values or shown is None
                or have[shown] < values[shown] or not values[shown])
            if wants and value not in marked:
                then.append(Press(target))
            elif value in marked and not wants:
                then.append(Press(target))  # marked, but not wanted: unmark it
            elif wants:
                last.append(Press(target))
        return first + then + last

    # --- pressing -----------------------------------------------------------------------------

    def press(self, press: Press) -> str:
        """Press one thing; "" when pressed, else why it could not be."""
        self.draw()
        if self.keyboard:
            return self._key_press(press)
        return self._click(press)

    def rect_of(self, press: Press) -> pygame.Rect | None:
        table = self.table
        if press.target is not None:
            return next((r for r, t in table.ring_targets() if t == press.target), None)
        return next((c.rect for c in table.menu.controls if c.tag == press.tag), None)

    def _click(self, press: Press) -> str:
        rect = self.rect_of(press)
        if rect is None:
            return f"{press} is not on the table"
        table = self.table
        pos = rect.center
        table.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                        buttons=(0, 0, 0)))
        table.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        table.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        return ""

    def focused(self, press: Press) -> bool:
        """Whether the keyboard's focus is on the thing."""
        table = self.table
        if press.target is not None:
            return table.focus.ring == press.target
        menu = table.menu
        return (table.focus.ring is None and bool(menu.controls) and menu.show_focus
                and menu.focused.tag == press.tag)

    def _key_press(self, press: Press) -> str:
        table = self.table
        stops = len(table.ring_targets()) + len(table.menu.controls) + 2
        for _ in range(stops):
            if self.focused(press):
                break
            table.handle(key_event(pygame.K_TAB))
            self.draw()
        else:
            return f"Tab never reaches {press}"
        table.handle(key_event(pygame.K_RETURN, unicode="\r"))
        return ""

    # --- finding the presses ------------------------------------------------------------------

    def find(self, wanted: Action) -> tuple[list[Press] | None, list[str]]:
        """The presses that make `wanted`, tried with the table's `take` held back (None:
        not found), and the faults met on the way."""
        table = self.table
        faults: list[str] = []
        table.take = self.captured.append  # type: ignore[method-assign,assignment]
        try:
            self.captured.clear()
            self.reset()
            path: list[Press] = []
            stack: list[list[Press]] = [self.presses(wanted)]
            seen = {self.signature()}
            tries = 0
            while stack and tries < NODES:
                options = stack[-1]
                if not options or len(path) >= DEPTH:
                    stack.pop()
                    if path:
                        path.pop()
                        self.replay(path)
                    continue
                press = options.pop(0)
                tries += 1
                before = self.signature()
                why = self.press(press)
                if why:
                    if self.keyboard and why.startswith("Tab never") and press.target is None:
                        faults.append(why)
                    self.replay(path)
                    continue
                if self.captured:
                    action = self.captured.pop()
                    self.captured.clear()
                    if action == wanted:
                        return [*path, press], faults
                    self.replay(path)
                    continue
                after = self.signature()
                if after == before or after in seen:
                    self.replay(path)
                    continue
                seen.add(after)
                path.append(press)
                stack.append(self.presses(wanted))
            return None, faults
        finally:
            del table.take
            self.captured.clear()

    def replay(self, path: list[Press]) -> None:
        """Back to the start of the decision, then the presses again."""
        self.reset()
        for press in path:
            self.press(press)

    # --- the keys a player leans on ------------------------------------------------------------

    def enter_after_pick(self, path: list[Press], wanted: Action) -> list[str]:
        """After a thing is picked with Enter, Enter again presses the button the bar
        rings (the move, or the next step), never takes the pick back."""
        picks = [k for k, p in enumerate(path) if p.target is not None and k < len(path) - 1]
        if not self.keyboard or not picks:
            return []
        table = self.table
        k = picks[0]
        table.take = self.captured.append  # type: ignore[method-assign,assignment]
        try:
            self.replay(path[:k])
            before = self.signature()[:2]
            self.press(path[k])
            picked = self.signature()[:2]
            self.draw()
            table.handle(key_event(pygame.K_RETURN, unicode="\r"))
            took = bool(self.captured)
            now = self.signature()[:2]
            if not took and now == before and picked != before:
                return [f"Enter after picking {path[k]} takes the pick back"]
            return []
        finally:
            del table.take
            self.captured.clear()
            self.reset()

    def arrows_stay_on_the_bar(self) -> list[str]:
        """Left and Right from a button of the bar move along the bar, never onto the
        table (where Enter would make a move at once)."""
        table = self.table
        if not self.keyboard:
            return []
        self.reset()
        menu = table.menu
        bar = [i for i, c in enumerate(menu.controls) if c.enabled and c.tag not in OWN]
        if not bar or not table.ring_targets():
            return []
        faults: list[str] = []
        for key, name in ((pygame.K_RIGHT, "Right"), (pygame.K_LEFT, "Left")):
            menu.focus, menu.show_focus = bar[0], True
            table.focus.ring, table.focus.keyed = None, True
            for _ in range(len(bar) + 1):
                label = menu.focused.label
                table.handle(key_event(key))
                if table.focus.ring is not None:
                    faults.append(f"{name} from {label!r} leaves the bar for "
                                  f"{table.focus.ring.kind} {table.focus.ring.value}")
                    break
        self.reset()
        return faults

    def make(self, wanted: Action) -> list[str]:
        """Make the move as a person would; the faults met. Where no presses make it, it is
        made directly (and said), so the game goes on."""
        path, faults = self.find(wanted)
        how = "the keyboard" if self.keyboard else "the mouse"
        if path is None:
            faults.append(f"cannot make {wanted.id} {dict(wanted.args) or ''} with {how}")
            self.reset()
            self.table.take(wanted)
            return faults
        faults += self.enter_after_pick(path, wanted)
        faults += self.arrows_stay_on_the_bar()
        before = len(self.table.state.log)
        self.replay(path[:-1])
        self.press(path[-1])
        if len(self.table.state.log) == before:
            faults.append(f"pressing {path[-1]} with {how} did not make {wanted.id}")
            self.table.take(wanted)
        return faults
