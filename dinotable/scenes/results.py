"""The results: who won, everyone's score, play again or back to the title.

It hands back "again" or "title" through the callback given to
`App.push(ResultsScene(app, standings=...), on_choice)`. "Play again" means the same seats
and options with the next player starting: `next_starter(seats)` gives that seating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import pygame

from ..engine import view_for
from ..render import theme
from ..render.plates import name_plate
from ..render.widgets import Panel
from .base import Control, Menu, Scene, shortcut

if TYPE_CHECKING:
    from ..app import App

T = TypeVar("T")


@dataclass(frozen=True)
class Standings:
    """Everything the results screen shows, so it needs nothing else from the table."""

    game: str  # the rules' name
    names: list[str]
    colours: list[tuple[int, int, int]]
    marks: list[str]
    scores: list[int]
    winners: list[int]
    # In a team game, each seat's team and each team's total, as the engine tells them
    # (empty: everyone plays alone).
    teams: list[int] = field(default_factory=list)
    team_totals: list[int] = field(default_factory=list)

    @classmethod
    def of_table(cls, table: Any) -> Standings:
        """Read a finished table (its state, names, colours and marks)."""
        state = table.state
        seats = range(len(state.players))
        public = view_for(state, None)  # the game is over: the team totals are open to all
        return cls(table.rules.name, [table.name(s) for s in seats],
                   [table.colour(s) for s in seats], [table.mark(s) for s in seats],
                   [state.score(s) for s in seats], list(state.winners),
                   public["teams"] or [], public["team_scores"] or [])

    def team_line(self) -> str:
        """Each team's players and total, best first ("Ben and Dan 49 · Ann and Cat 31"):
        the team's score is what decides a team game."""
        best = sorted(range(len(self.team_totals)), key=lambda t: -self.team_totals[t])
        return "  ·  ".join(" and ".join(name for name, team in zip(self.names, self.teams,
                                                                     strict=True) if team == t)
                            + f" {self.team_totals[t]}" for t in best)


def next_starter(seats: Sequence[T]) -> list[T]:
    """The seats turned once round the table: whoever sat second now starts (the engine
    always gives the first turn to the first seat), and everyone keeps their neighbours."""
    return [*seats[1:], *seats[:1]]


class ResultsScene(Scene):
    """The ranking at the end of a game, laid out for the window's shape."""

    flows = True

    def __init__(self, app: App, table: Any = None, *,
                 standings: Standings | None = None, game: Any = None) -> None:
        super().__init__(app)
        # The game just finished, as saved: what "Watch the replay" plays again.
        self.game = game if game is not None or table is None else table.saved_game()
        self.table = table  # the finished table, to look at once more
        if standings is None:
            standings = Standings.of_table(table)
        self.standings = standings
        scores = list(standings.scores)
        winners = standings.winners
        self.ranking = sorted(range(len(scores)), key=lambda s: (s not in winners,
                                                                 -scores[s], s))
        self.scores = scores
        self.winners = list(winners)
        self.menu = Menu()
        self.lay_out(app.canvas.get_size())

    def lay_out(self, size: tuple[int, int]) -> None:
        """The row of buttons for a canvas of `size`, centred under the scores."""
        self.size = size
        buttons = [("Play again", self.again, "Enter", "again"),
                   ("Back to title", self.title, "Esc", "title")]
        if self.game is not None:
            buttons.append(("Watch the replay", self.watch, "R", "replay"))
        if self.table is not None:
            buttons.append(("See the table", self.see_table, "T", "table"))
        # One row while each button keeps its words at their size; else two rows.
        per_row = len(buttons)
        if (size[0] - 40 - 20 * (per_row - 1)) // per_row < 280:
            per_row = -(-per_row // 2)
        self.rows = -(-len(buttons) // per_row)
        w = min(300, (size[0] - 40 - 20 * (per_row - 1)) // per_row)
        controls = []
        for n, (label, act, key, tag) in enumerate(buttons):
            row, col = divmod(n, per_row)
            in_row = min(per_row, len(buttons) - row * per_row)
            x = size[0] // 2 - (w * in_row + 20 * (in_row - 1)) // 2 + col * (w + 20)
            y = size[1] - 100 - 86 * (self.rows - 1 - row)
            controls.append(Control(pygame.Rect(x, y, w, 70), label, act, key=key, tag=tag))
        focus = self.menu.focus
        self.menu.set(controls, keep_focus=False)
        self.menu.focus = min(focus, len(controls) - 1)

    def next_line(self) -> str:
        """Who goes first if they play again (the seat after this game's starter)."""
        names = self.standings.names
        return f"Play again and {next_starter(names)[0]} goes first." if len(names) > 1 else ""

    def again(self) -> None:
        """The same seats and options, a new game, the next player starting."""
        self.dismiss("again")

    def title(self) -> None:
        """Back to the list of games."""
        self.dismiss("title")

    def watch(self) -> None:
        """The game just finished, move by move (closing it comes back here)."""
        if self.game is not None:
            self.app.watch_replay(self.game)

    def see_table(self) -> None:
        """The table as the game ended (each player's cards turned up, what they scored
        marked on it), until a key or a click comes back here."""
        if self.table is not None:
            self.app.push(TableLook(self.app, self.table))

    def handle(self, event: pygame.event.Event) -> None:
        if not shortcut(event, {pygame.K_ESCAPE: self.title, pygame.K_r: self.watch,
                                pygame.K_t: self.see_table}):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        if canvas.get_size() != self.size:
            self.lay_out(canvas.get_size())  # the window was resized
        middle = self.size[0] // 2
        theme.draw_table_background(canvas)
        st = self.standings
        names = " and ".join(st.names[s] for s in self.winners)
        verb = "wins" if len(self.winners) == 1 else "win"
        words = f"{names} {verb}!"
        size = theme.fit_size(words, self.size[0] - 60, theme.HUGE, bold=True,
                              floor=theme.TITLE_SMALL)
        theme.text(canvas, words, (middle, 70), size, theme.GOLD_LIGHT, bold=True,
                   anchor="center")
        line = st.game + (f":  {st.team_line()}" if st.team_totals else "")
        size = theme.fit_size(line, self.size[0] - 40, theme.BODY, floor=theme.SMALL)
        theme.text(canvas, line, (middle, 140), size, theme.PARCHMENT, anchor="center")
        # Six players' plates, a little closer together on a short canvas.
        below = 100 + 86 * (self.rows - 1)  # the rows of buttons
        step = min(64, (self.size[1] - below - 42 - 180 - 80) // max(1, len(self.ranking)))
        box = pygame.Rect(middle - 300, 180, 600, 80 + step * len(self.ranking))
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
            name_plate(canvas, pygame.Rect(box.x + 80, y, box.w - 110, step - 10),
                       st.names[seat], st.colours[seat], seat in self.winners,
                       self.scores[seat], mark=st.marks[seat], status="WINNER")
            y += step
        theme.text(canvas, self.next_line(), (middle, self.size[1] - below - 28), theme.SMALL,
                   theme.PARCHMENT, anchor="center", tight=True)
        self.menu.draw(canvas)


class TableLook(Scene):
    """The finished table, looked at once more from the results: any key or click goes
    back to them."""

    flows = True

    def __init__(self, app: App, table: Any) -> None:
        super().__init__(app)
        self.table = table

    def handle(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.dismiss()

    def draw(self, canvas: pygame.Surface) -> None:
        self.table.draw(canvas)
        # Where the action bar stood: a finished game has no moves left to offer.
        note = "Any key or a click: back to the results"
        w = theme.font(theme.SMALL, True).size(note)[0] + 40
        box = pygame.Rect(0, 0, w, 44)
        box.center = (canvas.get_width() // 2, canvas.get_height() - 80)
        Panel(box, "").draw(canvas)
        theme.text(canvas, note, box.center, theme.SMALL, theme.INK, bold=True,
                   anchor="center", tight=True)
