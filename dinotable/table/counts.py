"""A zone told as a count beside the table: its label and how many it holds (for each
player when each has one), tokens of several kinds kind by kind."""

from __future__ import annotations

import pygame

from ..render import theme
from . import tallies
from .registry import register
from .widgets import Look, ZonePart, count


@register
class Count(ZonePart):
    """A zone as one line, its label and how many it holds (for each player when each has
    one): for zones a player only needs to know the size of. Words too long for the line
    are set smaller, then on two lines, never cut."""

    kind = "count"
    side = True
    shrinks = False

    def height(self, seats: int) -> int:
        return 62 if tallies.several(self.rules, self.spec.zone) else 36

    def wanted(self, seats: int) -> int:
        self.width = self.host.area[self.region].w
        return self.need(seats, self.host.look())

    def need(self, seats: int, look: Look) -> int:
        if tallies.several(self.rules, self.spec.zone):
            return tallies.count_height(self, look, self.width - 12)
        _, lines = tallies.fitted(self.words(look), self.width - 12, theme.SMALL)
        return self.height(seats) + tallies.LINE * (len(lines) - 1)

    def words(self, look: Look) -> str:
        """Its line: the label and how many (each player's, for a zone each has)."""
        if self.rules.zones[self.spec.zone].per_player:
            text = "  ".join(f"{look.names[s]}: {count(look.zone(self.spec.zone, s))}"
                             for s in range(len(look.names)))
        else:
            text = str(count(look.zone(self.spec.zone)))
        return f"{self.label}: {text}"

    def draw_zone(self, canvas: pygame.Surface, rect: pygame.Rect, look: Look) -> None:
        self.hits = []
        if tallies.several(self.rules, self.spec.zone) and rect.h >= 56:
            tallies.draw_count(self, canvas, rect, look)
            return
        size, lines = tallies.fitted(self.words(look), rect.w - 12, theme.SMALL)
        top = rect.centery - tallies.LINE * (len(lines) - 1) // 2
        for n, line in enumerate(lines):
            line = theme.ellipsize(line, theme.font(size, True), rect.w - 12)
            theme.text(canvas, line, (rect.x + 6, top + n * tallies.LINE), size,
                       theme.PARCHMENT, bold=True, anchor="midleft", tight=True)
