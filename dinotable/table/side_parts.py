"""The words beside the dice: what each face means (the legend), the game's counters, and
the status line about the turn with the odds. Each reads its own entry of the ruleset's
`layout`; none names a game.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pygame

from ..engine import applies, shown_value, text_for, value_for
from ..render import theme
from ..render.dice import draw_die
from ..render.widgets import Panel
from ..ruleset.layout import Counter
from .part import Part
from .registry import register

if TYPE_CHECKING:
    from .host import PartHost
    from .widgets import Look

ONE_DICE = re.compile(r"(?<![\d.])\b1 dice\b")


@register
class LegendPart(Part):
    """What each face means, with the face drawn on a die."""

    name = "legend"
    region = "side"

    @classmethod
    def build(cls, host: PartHost) -> list[Part]:
        layout = host.layout
        wanted = layout.faces and host.rules.dice and not layout.source and not layout.areas
        return [cls(host)] if wanted else []

    def wanted(self, seats: int) -> int:
        return 72 + 56 * len(self.host.layout.faces) - 12

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        box = self.rect
        if box.h < 100:
            return  # squeezed out by what the column must hold: the menu's rules tell it
        Panel(box, "The dice").draw(canvas)
        faces = list(self.host.layout.faces.items())
        room_h = box.h - 72 - 6  # under the title, inside the frame
        step = min(56, room_h // max(1, len(faces)))
        # A short panel drops the meanings (a name beside its die), then the faces that
        # do not fit: the legend never runs out of its frame.
        meanings = step >= 48
        kind = next(iter(self.host.rules.dice))
        if step < 30:
            rows = -(-len(faces) // 2)
            if room_h // rows >= 24 and box.w >= 200:
                self._two_columns(canvas, look, faces, room_h // rows, kind)
                return
            step = 30  # too small for two columns as well: the faces that fit
            faces = faces[:max(1, room_h // step)]
        y = box.y + 72 if meanings else box.y + 78
        room = box.w - 62 - 10  # right of the die; a narrow column cuts a long meaning
        for face, style in faces:
            draw_die(canvas, (box.x + 34, y), min(40, step - 8), 0, look.die_colour(kind), face)
            label, size = theme.squeezed(style.label, room, theme.SMALL, bold=True)
            theme.text(canvas, label, (box.x + 62, y - (12 if meanings else 0)), size,
                       theme.INK, bold=True, anchor="midleft", tight=True)
            if style.meaning and meanings:
                meaning = theme.ellipsize(style.meaning, theme.font(theme.TINY), room)
                theme.text(canvas, meaning, (box.x + 62, y + 12), theme.TINY,
                           theme.INK_SOFT, anchor="midleft", tight=True)
            y += step

    def _two_columns(self, canvas: pygame.Surface, look: Look, faces: list[Any], step: int,
                     kind: str) -> None:
        """Every face, in two columns of small dice and names: a short panel (a small
        window, many faces) still tells what each face is, the bad ones included."""
        box = self.rect
        half = (box.w - 16) // 2
        size = min(30, step - 4)
        room = half - size - 10
        # The names whole at the largest type that holds the longest, down to four px less.
        text = next((t for t in range(theme.TINY, theme.TINY - 5, -1) if all(
            theme.font(t, True).size(style.label)[0] <= room for _, style in faces)),
            theme.TINY - 4)
        font = theme.font(text, True)
        for n, (face, style) in enumerate(faces):
            x = box.x + 8 + (n % 2) * half
            y = box.y + 72 + step // 2 + (n // 2) * step
            draw_die(canvas, (x + size // 2 + 2, y), size, 0, look.die_colour(kind), face)
            theme.text(canvas, theme.ellipsize(style.label, font, room), (x + size + 7, y),
                       text, theme.INK, bold=True, anchor="midleft", tight=True)


@register
class CounterPart(Part):
    """A game variable with its label (the stones in the supply)."""

    name = "counter"
    region = "side"
    shrinks = False

    def __init__(self, host: PartHost, counter: Counter | None = None) -> None:
        super().__init__(host)
        assert counter is not None
        self.counter = counter

    @classmethod
    def build(cls, host: PartHost) -> list[Part]:
        return [cls(host, c) for c in host.layout.counters
                if applies(c.applies_when, host.state.options)]

    def wanted(self, seats: int) -> int:
        return 70

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        Panel(self.rect, "").draw(canvas)
        var = self.counter.var
        # An indexed value reads as KEY:VALUE pairs, never as a raw mapping.
        value = shown_value(look.view["game_vars"].get(var, "?"),
                            self.host.rules.game_vars.get(var))
        text, size = theme.squeezed(f"{self.counter.label}: {value}", self.rect.w - 30,
                                    theme.SMALL, bold=True)
        theme.text(canvas, text, (self.rect.x + 18, self.rect.centery), size, theme.INK,
                   bold=True, anchor="midleft", tight=True)


@register
class StatusPart(Part):
    """One line about the turn so far (the ruleset's `status`) and, on request, the odds."""

    name = "status"
    shrinks = False

    @classmethod
    def build(cls, host: PartHost) -> list[Part]:
        layout = host.layout
        return [cls(host)] if layout.status is not None or layout.odds is not None else []

    def wanted(self, seats: int) -> int:
        return 74

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        host = self.host
        layout = host.layout
        live = host.idle and not host.state.game_over
        status = ""
        if layout.status is not None and live and host.viewer is not None and (
                host.viewer == host.state.current):
            # Said to the player whose turn it is, and only while they hold the laptop.
            status = text_for(host.state, host.viewer, layout.status)
            # A count in a ruleset's words may be one: "1 dice to throw" reads "1 die".
            status = ONE_DICE.sub("1 die", status)
        if status:
            words, size = theme.squeezed(status, self.rect.w, theme.BODY, bold=True)
            theme.text(canvas, words, (self.rect.x, self.rect.y + 4), size, theme.PARCHMENT,
                       bold=True)
        odds = layout.odds
        if odds is not None and host.show_odds and live:
            seat = host.state.current
            if odds.when is None or value_for(host.state, host.viewer, odds.when, scope=seat):
                chance = float(value_for(host.state, host.viewer, odds.chance, scope=seat))
                text = f"{odds.label}: {chance:.0%}" + theme.in_words(chance)
                theme.text(canvas, text, (self.rect.x, self.rect.y + 42),
                           theme.fit_size(text, self.rect.w, theme.SMALL, bold=True, floor=18),
                           theme.GOLD_LIGHT, bold=True)
