"""The "Saved games" and "Finished games" lists, reached from the title screen.

Each line shows the save's name, the game, when it was saved, who played and the round and
scores (read from the summary each save keeps, so opening the list replays nothing). Open
hands back an `Opened` (the file, the game read from it, and whether it is a finished game,
for the replay) through the callback given to `app.push(SavedGamesScene(app), on_open)`;
None when the player goes back. Delete asks once more before it deletes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from .. import saves
from ..render import theme
from ..ruleset import LoadError, load_by_id
from .base import Control, Menu, Scene, shortcut

if TYPE_CHECKING:
    from ..app import App

ROW_TOP, ROW_H, ROW_W = 170, 86, 1000  # the lines' top, height and widest width


@dataclass
class Opened:
    """What Open hands back."""

    path: Path
    game: saves.SavedGame
    finished: bool  # from the finished games: watch it again rather than play on


class SavedGamesScene(Scene):
    """Two lists, saved and finished, one shown at a time, with Open and Delete; laid out
    for the window's shape (a taller window shows more lines)."""

    flows = True

    def __init__(self, app: App, finished: bool = False) -> None:
        super().__init__(app)
        self.finished = finished
        self.entries: list[saves.SaveEntry] = []
        self.selected = 0
        self.first = 0  # the first line shown
        self.confirm = False  # Delete pressed once: the next press deletes
        self.problem = ""
        self.menu = Menu()
        self.size = app.canvas.get_size()
        self.load()

    @property
    def rows(self) -> int:
        """Lines shown at once (Up/Down and the wheel scroll): as many as fit over the
        buttons, and never fewer than three."""
        return max(3, (self.size[1] - 96 - ROW_TOP + 6) // (ROW_H + 6))

    @property
    def left(self) -> int:
        """Where the lines and buttons start: the list is centred."""
        return (self.size[0] - min(ROW_W, self.size[0] - 80)) // 2

    def load(self) -> None:
        """Read the list from disk (kept until something is deleted)."""
        self.entries = saves.list_finished() if self.finished else saves.list_saves()
        self.selected = min(self.selected, max(0, len(self.entries) - 1))
        self.rebuild(keep_focus=False)

    @property
    def chosen(self) -> saves.SaveEntry | None:
        """The line selected, if there is one."""
        return self.entries[self.selected] if self.entries else None

    def rebuild(self, keep_focus: bool = True) -> None:
        """The tabs and the buttons, enabled for what the selected line allows."""
        entry = self.chosen
        can_open = entry is not None and not entry.problem
        why_not = ("Nothing to open" if entry is None else
                   "This save cannot be opened" if entry.problem else "")
        open_label = "Watch" if self.finished else "Open"
        # Three buttons across the list's width, Back at its right end.
        left, width = self.left, min(ROW_W, self.size[0] - 80)
        button_w = min(300, (width - 40) // 3)
        y = self.size[1] - 92
        # Open first: the keyboard's focus starts on it, so Enter opens the selected line.
        self.menu.set([
            Control(pygame.Rect(left, y, button_w, 64), open_label, self.open, key="Enter",
                    enabled=can_open, why_disabled=why_not, tag="open"),
            Control(pygame.Rect(left + button_w + 20, y, button_w, 64),
                    "Really delete?" if self.confirm else "Delete", self.delete, key="Del",
                    enabled=entry is not None, why_disabled="Nothing to delete",
                    tag="delete"),
            Control(pygame.Rect(left + width - button_w, y, button_w, 64), "Back", self.back,
                    key="Esc", tag="back"),
            Control(pygame.Rect(left, 80, button_w, 56), "Saved games", self.show_saved,
                    tag="tab:saved"),
            Control(pygame.Rect(left + button_w + 20, 80, button_w, 56), "Finished games",
                    self.show_finished, tag="tab:finished"),
        ], keep_focus=keep_focus)

    # --- choices ---------------------------------------------------------------------

    def show_saved(self) -> None:
        """The games saved by name."""
        self._switch(False)

    def show_finished(self) -> None:
        """The last games played to the end."""
        self._switch(True)

    def _switch(self, finished: bool) -> None:
        if finished != self.finished:
            self.finished, self.selected, self.first, self.confirm = finished, 0, 0, False
            self.problem = ""
            self.load()

    def select(self, index: int) -> None:
        """Select a line (and scroll to it)."""
        if not self.entries:
            return
        self.selected = max(0, min(index, len(self.entries) - 1))
        if self.selected < self.first:
            self.first = self.selected
        elif self.selected >= self.first + self.rows:
            self.first = self.selected - self.rows + 1
        self.confirm = False
        self.rebuild()

    def open(self) -> None:
        """Hand back the chosen save, read afresh (it may have changed on disk)."""
        entry = self.chosen
        if entry is None or entry.problem:
            return
        try:
            game = saves.read(entry.path)
        except LoadError as exc:
            self.problem = saves.shorten(str(exc.problems[0].message), 100)
            return
        self.dismiss(Opened(entry.path, game, self.finished))

    def delete(self) -> None:
        """Delete the chosen save, the second time it is asked."""
        entry = self.chosen
        if entry is None:
            return
        if not self.confirm:
            self.confirm = True
            self.rebuild()
            return
        self.confirm = False
        if not saves.delete(entry.path):
            self.problem = f"{entry.path.name} could not be deleted"
        self.load()

    def back(self) -> None:
        """Back to the title, nothing opened."""
        self.dismiss(None)

    # --- input and drawing -----------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if shortcut(event, {pygame.K_ESCAPE: self.back, pygame.K_DELETE: self.delete,
                            pygame.K_PAGEUP: lambda: self.select(self.selected - self.rows),
                            pygame.K_PAGEDOWN: lambda: self.select(self.selected + self.rows)}):
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN):
            self.select(self.selected + (1 if event.key == pygame.K_DOWN else -1))
            return
        if event.type == pygame.MOUSEWHEEL:
            last = max(0, len(self.entries) - self.rows)
            self.first = max(0, min(self.first - event.y, last))
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            row = self._row_at(event.pos)
            if row is not None:
                if row == self.selected and getattr(event, "clicks", 1) >= 2:
                    self.open()
                else:
                    self.select(row)
                return
        self.menu.handle(event)

    def _row_at(self, pos: tuple[int, int]) -> int | None:
        for shown in range(self.rows):
            index = self.first + shown
            if index < len(self.entries) and self._row_rect(shown).collidepoint(pos):
                return index
        return None

    def _row_rect(self, shown: int) -> pygame.Rect:
        return pygame.Rect(self.left, ROW_TOP + shown * (ROW_H + 6),
                           min(ROW_W, self.size[0] - 80), ROW_H)

    def draw(self, canvas: pygame.Surface) -> None:
        if canvas.get_size() != self.size:  # the window was resized
            self.size = canvas.get_size()
            self.select(self.selected)  # still in view, with fewer lines or more
            self.rebuild()
        middle = self.size[0] // 2
        theme.draw_table_background(canvas)
        title = "Finished games" if self.finished else "Saved games"
        theme.text(canvas, title, (middle, 40), theme.SIZE_HEADING, theme.PARCHMENT, bold=True,
                   anchor="center")
        self.menu.draw(canvas)
        # The tab showing is underlined, so which list this is reads at a glance.
        tab = self.menu.find("tab:finished" if self.finished else "tab:saved").rect
        pygame.draw.rect(canvas, theme.PARCHMENT, (tab.x + 20, tab.bottom + 6, tab.w - 40, 5),
                         border_radius=2)
        if not self.entries:
            empty = ("No finished games yet: the last 20 played to the end are kept here."
                     if self.finished else
                     "No saved games yet: choose Save as... from the pause menu in a game.")
            size = theme.fit_size(empty, self.size[0] - 40, theme.BODY, floor=theme.SMALL)
            for n, line in enumerate(theme.wrap(empty, theme.font(size), self.size[0] - 40)):
                theme.text(canvas, line, (middle, 330 + n * 36), size, theme.PARCHMENT,
                           anchor="center")
        for shown in range(self.rows):
            index = self.first + shown
            if index >= len(self.entries):
                break
            self._draw_row(canvas, self._row_rect(shown), self.entries[index],
                           index == self.selected)
        if len(self.entries) > self.rows:
            more = (f"{self.first + 1}-{min(self.first + self.rows, len(self.entries))} of "
                    f"{len(self.entries)}  (Up/Down to scroll)")
            theme.text(canvas, more, (self._row_rect(0).right, 146), theme.SMALL, theme.PARCHMENT,
                       anchor="midright")
        if self.problem:
            # Under the tabs, over the list: clear of the lines however many there are.
            room = self._row_rect(0).w - 260
            size = theme.fit_size(self.problem, room, theme.SMALL, floor=theme.TINY)
            words = theme.ellipsize(self.problem, theme.font(size), room)
            theme.text(canvas, words, (self.left, 158), size, theme.DANGER_LIGHT,
                       anchor="midleft")

    @staticmethod
    def _draw_row(canvas: pygame.Surface, rect: pygame.Rect, entry: saves.SaveEntry,
                  selected: bool) -> None:
        pygame.draw.rect(canvas, theme.PARCHMENT_LIGHT if selected else theme.PARCHMENT, rect,
                         border_radius=12)
        pygame.draw.rect(canvas, theme.FOCUS if selected else theme.WOOD_DARK, rect,
                         width=4 if selected else 2, border_radius=12)
        left, right = rect.x + 20, rect.right - 20
        when = _when(entry.saved_at)
        theme.text(canvas, when, (right, rect.y + 26), theme.SMALL, theme.INK_SOFT,
                   anchor="midright")
        room = right - left - theme.font(theme.SMALL).size(when)[0] - 30
        heading = (entry.name or entry.game or entry.path.stem) if (
            not entry.game or not entry.name or entry.name == entry.game) else (
            f"{entry.name} · {entry.game}")
        size = theme.fit_size(heading, room, theme.BODY, True, theme.SMALL)
        theme.text(canvas, _cut(heading, size, room, True), (left, rect.y + 26), size,
                   theme.INK, bold=True, anchor="midleft")
        line = entry_line(entry)
        players = ", ".join(entry.players)
        detail = line if entry.problem or not players else f"{line}   ({players})"
        theme.text(canvas, _cut(detail, theme.SMALL, right - left, False),
                   (left, rect.y + 62), theme.SMALL,
                   theme.DANGER if entry.problem else theme.INK, anchor="midleft")


@cache
def hides_scores(ruleset: str) -> bool:
    """Whether a game keeps the players' scores secret until its end (`reveal_scores:
    at_end`): a list of saves must not tell them either."""
    try:
        return load_by_id(ruleset).reveal_scores == "at_end"
    except Exception:  # a ruleset that does not load: its save says so on its own
        return False


def secret_line(round_: int | None, moves: int) -> str:
    """A game in progress whose scores are secret: how far it has gone, and no score."""
    where = f"Round {round_}" if round_ is not None else f"{moves} moves"
    return f"{where} — scores are secret until the end"


def entry_line(entry: saves.SaveEntry) -> str:
    """A save's line in the list, without the scores its game keeps secret."""
    if not entry.problem and not entry.over and hides_scores(entry.ruleset):
        return secret_line(entry.round, entry.moves)
    return entry.line()


def _when(stamp: str) -> str:
    """"1 May 2024, 21:30" from "2024-05-01 21:30:00" (as it is, if it is not one)."""
    import time

    try:
        parsed = time.strptime(stamp, "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return stamp
    return f"{parsed.tm_mday} {time.strftime('%b %Y, %H:%M', parsed)}"


def _cut(text: str, size: int, width: int, bold: bool) -> str:
    """`text`, cut with an ellipsis to fit `width` px."""
    font = theme.font(size, bold)
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"
