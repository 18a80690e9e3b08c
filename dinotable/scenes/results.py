"""The results: who won, everyone's score, play again or back to the title."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ..render import theme
from ..render.widgets import Panel, name_plate
from .base import Control, Menu, Scene, shortcut

if TYPE_CHECKING:
    from ..app import App
    from .table import TableScene


class ResultsScene(Scene):
    """The ranking at the end of a game."""

    def __init__(self, app: App, table: TableScene) -> None:
        super().__init__(app)
        self.table = table
        state = table.state
        scores = [state.score(s) for s in range(len(state.players))]
        self.ranking = sorted(range(len(scores)), key=lambda s: (s not in state.winners,
                                                                 -scores[s], s))
        self.scores = scores
        self.winners = list(state.winners)
        self.menu = Menu()
        self.menu.set([
            Control(pygame.Rect(330, 620, 300, 70), "Play again", self.again, key="Enter",
                    tag="again"),
            Control(pygame.Rect(650, 620, 300, 70), "Back to title", self.title, key="Esc",
                    tag="title"),
        ])

    def again(self) -> None:
        """The same seats and options, a new game."""
        self.app.pop()
        self.table.restart()

    def title(self) -> None:
        """Back to the list of games."""
        from .title import TitleScene

        self.app.reset(TitleScene(self.app))

    def handle(self, event: pygame.event.Event) -> None:
        if not shortcut(event, {pygame.K_ESCAPE: self.title}):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        theme.draw_table_background(canvas)
        table = self.table
        names = " and ".join(table.name(s) for s in self.winners)
        verb = "wins" if len(self.winners) == 1 else "win"
        theme.text(canvas, f"{names} {verb}!", (640, 70), theme.HUGE, theme.GOLD_LIGHT,
                   bold=True, anchor="center")
        theme.text(canvas, table.rules.name, (640, 140), theme.BODY, theme.PARCHMENT,
                   anchor="center")
        box = pygame.Rect(340, 180, 600, 80 + 64 * len(self.ranking))
        Panel(box, "Final scores").draw(canvas)
        y = box.y + 60
        place = 0
        last = None
        for n, seat in enumerate(self.ranking):
            key = (seat in self.winners, self.scores[seat])
            if key != last:
                place = n + 1
                last = key
            theme.text(canvas, f"{place}.", (box.x + 24, y + 10), theme.BODY, theme.INK,
                       bold=True)
            name_plate(canvas, pygame.Rect(box.x + 80, y, box.w - 110, 54),
                       table.name(seat), table.colour(seat), seat in self.winners,
                       self.scores[seat], mark=table.mark(seat), status="WINNER")
            y += 64
        self.menu.draw(canvas)
