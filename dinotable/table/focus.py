"""The keyboard's way round the table: Tab and the arrow keys move a focus ring over the
glowing things (the dice, cards, spaces and players a click would choose), then over the
buttons; Enter or Space on a glowing thing clicks it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pygame

from ..render import theme
from ..scenes.base import Menu
from .choice import Target
from .part import Part


class FocusRing:
    """Where the keyboard's focus is among the glowing things of the table."""

    def __init__(self) -> None:
        self.ring: Target | None = None  # the glowing thing the focus is on
        self.keyed = False  # the keyboard has moved the focus since the last decision
        # The thing just picked, while the focus waits on the button that confirms it: Tab
        # goes on from it (to mark the next die), Enter presses the button.
        self.picked: Target | None = None

    def reset(self) -> None:
        """A new decision: the first Tab starts over."""
        self.ring, self.keyed, self.picked = None, False, None

    @staticmethod
    def targets(parts: Iterable[Part], glowing: set[Target]) -> list[tuple[pygame.Rect, Target]]:
        """The glowing things on the table, in reading order."""
        seen: dict[Target, pygame.Rect] = {}
        for part in parts:
            for rect, target in part.targets_at():
                if target in glowing and target not in seen:
                    seen[target] = rect
        return sorted(((r, t) for t, r in seen.items()), key=lambda rt: (rt[0].y // 40,
                                                                        rt[0].x))

    def key(self, event: pygame.event.Event, targets: Callable[[], list[tuple[pygame.Rect,
                                                                           Target]]],
            menu: Menu, click: Callable[[Target], bool]) -> bool:
        """A key pressed (`targets`: what glows now). True when the key was used here."""
        glowing = targets()
        if not glowing:
            self.ring = None
            return False
        order = [t for _, t in glowing]
        buttons = [i for i, c in enumerate(menu.controls) if c.enabled]
        stops: list[Target | int] = [*order, *buttons]
        now: Target | int = self.ring if self.ring in order else menu.focus
        if not self.keyed and self.ring is None:
            now = -1  # the first Tab lands on the first glowing thing, not the 2nd button
        step = {pygame.K_TAB: -1 if event.mod & pygame.KMOD_SHIFT else 1,
                pygame.K_RIGHT: 1, pygame.K_DOWN: 1, pygame.K_LEFT: -1,
                pygame.K_UP: -1}.get(event.key)
        if step is not None and event.key != pygame.K_TAB:
            # An arrow moves along what the focus is on: the glowing things, or the buttons.
            # Only Tab crosses between them, so an arrow pressed on the bar never lands on
            # a card or a period that the next Enter would play at once.
            if self.ring in order:
                stops = list(order)
            else:
                stops, now = list(buttons), menu.focus
        picked, self.picked = self.picked, None
        if event.key == pygame.K_TAB and picked in order and self.ring is None:
            now = picked  # on from the thing just picked, not from its button
        if step is not None:
            k = stops.index(now) if now in stops else (-1 if step > 0 else 0)
            nxt = stops[(k + step) % len(stops)]
            self.keyed = True
            if isinstance(nxt, Target):
                self.ring = nxt
                menu.show_focus = False
            else:
                self.ring = None
                menu.focus = nxt
                menu.show_focus = True
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and (
                self.ring in order):
            target, self.ring = self.ring, None
            assert target is not None
            at = order.index(target)
            click(target)
            confirm = next((i for i, c in enumerate(menu.controls)
                            if c.enabled and c.tag.startswith("confirm:")), None)
            if confirm is not None:
                # A pick the bar now asks to confirm (Hunt this, Play that, Reroll the
                # marked dice): the focus goes to that button, so the next Enter or Space
                # presses it rather than taking the pick back.
                menu.focus, menu.show_focus, self.keyed = confirm, True, True
                self.picked = target
                return True
            # The ring stays where it was (on the die just marked), so the next Tab goes
            # on from there and reaches the buttons; back to the first thing only when
            # what glows has changed under it. (Going back to the first after every press
            # kept a player marking dice forever, never reaching Reroll.)
            after = [t for _, t in targets()]
            self.ring = target if target in after else after[min(at, len(after) - 1)] \
                if after else None
            return True
        return False

    def draw(self, canvas: pygame.Surface, targets: list[tuple[pygame.Rect, Target]]) -> None:
        """The ring round the glowing thing it is on."""
        for rect, target in targets:
            if target == self.ring:
                # Thick enough to survive the scaling to an 800x600 window (0.625).
                pygame.draw.rect(canvas, theme.INK, rect.inflate(20, 20), width=5,
                                 border_radius=14)
                pygame.draw.rect(canvas, theme.PARCHMENT_LIGHT, rect.inflate(10, 10),
                                 width=5, border_radius=11)
