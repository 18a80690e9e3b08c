"""Save as...: give the game in progress a name and keep it in the saved games.

Pushed from the pause menu with the game as the table would autosave it:
`app.push(SaveAsScene(app, table.saved_game(), table.state), on_done)`. It hands back the
file written (a Path), or None when cancelled.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pygame

from .. import saves
from ..names import allowed_in_name
from ..render import theme
from ..render.widgets import Panel
from ..ruleset import LoadError
from .base import Control, Menu, Scene, shade, shortcut

if TYPE_CHECKING:
    from ..app import App
    from ..engine import GameState

BOX = pygame.Rect(290, 170, 700, 380)


class SaveAsScene(Scene):
    """A name field with Save and Cancel, over the table."""

    opaque = False

    def __init__(self, app: App, game: saves.SavedGame, state: GameState | None = None,
                 opened_by: str = "") -> None:
        super().__init__(app)
        # The letter of the key that opened this box: its text arrives after its key press,
        # here, and must not start the name.
        self.opened_by = opened_by
        self.game = game
        self.state = state
        self.name = default_name(game, state)
        self.problem = ""
        self.menu = Menu()
        self.rebuild(keep_focus=False)

    @property
    def typing(self) -> bool:
        """True while the name field has the focus (letters type, not shortcuts)."""
        return bool(self.menu.controls) and self.menu.focused.kind == "field"

    def rebuild(self, keep_focus: bool = True) -> None:
        """Lay out the field and the buttons."""
        ready = bool(saves.clean_name_for_save(self.name))
        self.menu.set([
            Control(pygame.Rect(BOX.x + 40, BOX.y + 120, BOX.w - 80, 60), "Name",
                    kind="field", value=self.name, max_length=saves.SAVE_NAME_MAX,
                    on_text=self.type, on_activate=self.save, tag="name"),
            Control(pygame.Rect(BOX.x + 40, BOX.bottom - 100, 280, 64), "Save", self.save,
                    key="Enter", enabled=ready, why_disabled="Type a name first", tag="save"),
            Control(pygame.Rect(BOX.right - 320, BOX.bottom - 100, 280, 64), "Cancel",
                    self.cancel, key="Esc", tag="cancel"),
        ], keep_focus=keep_focus)

    def type(self, ch: str) -> None:
        """Edit the name from the keyboard (Backspace arrives as "\\b")."""
        if ch == "\b":
            self.name = self.name[:-1]
        else:
            for one in ch:
                if allowed_in_name(one) and len(self.name) < saves.SAVE_NAME_MAX:
                    self.name += one
        self.problem = ""
        self.rebuild()

    def save(self) -> None:
        """Write the save; stay open and say why if it cannot be written."""
        try:
            path = saves.save_as(self.game, self.name, self.state)
        except ValueError as exc:
            self.problem = saves.shorten(str(exc), 90)
            return
        except LoadError as exc:
            first = exc.problems[0].message if exc.problems else "it cannot be replayed"
            self.problem = saves.shorten(f"Not saved: {first}", 90)
            return
        self.dismiss(path)

    def cancel(self) -> None:
        """Back to the game, nothing saved."""
        self.dismiss(None)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self.opened_by = ""  # a key pressed here: its text is meant for the name
        elif event.type == pygame.TEXTINPUT and self.opened_by:
            opener, self.opened_by = self.opened_by, ""
            if event.text.lower() == opener:
                return
        if not shortcut(event, {pygame.K_ESCAPE: self.cancel}):
            self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        shade(canvas)
        Panel(BOX, "Save this game").draw(canvas)
        theme.text(canvas, "A name to find it by in Saved games:", (BOX.x + 40, BOX.y + 84),
                   theme.SMALL, theme.INK_SOFT, anchor="midleft")
        self.menu.draw(canvas)
        if self.problem:
            theme.text(canvas, self.problem, (BOX.centerx, BOX.y + 212), theme.SMALL,
                       theme.DANGER, anchor="center")


def default_name(game: saves.SavedGame, state: GameState | None) -> str:
    """"Dino Hunt, round 3" (the game's name, its round), to keep or type over."""
    title = state.rules.name if state is not None else game.ruleset.replace("_", " ").title()
    where = f", round {state.round}" if state is not None else time.strftime(" %H:%M")
    return saves.clean_name_for_save(f"{title}{where}")
