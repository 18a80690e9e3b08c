"""The card list: every kind of card a game has, grouped in tabs, zoomed and flipped to read.

Opened from the menu as a modal over whatever is below; Esc (or Close) hands back None.
What a card shows comes from the ruleset's `layout: cards` (see `render.cards.card_info`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from ..render import cards, theme
from .base import Control, Menu, Scene

if TYPE_CHECKING:
    from ..app import App

GRID = pygame.Rect(40, 132, 1200, 512)  # where the card list scrolls
TABS_Y = 78
GAP = 18
MIN_SCREEN_PX = 18  # no word of a card in the list smaller than this on the screen


@dataclass(frozen=True)
class Group:
    """One tab of the card list: its name and its cards in order."""

    name: str
    cards: tuple[cards.CardInfo, ...]


def _sort_value(rules: Any, info: cards.CardInfo, name: str) -> tuple[int, Any]:
    """A card's value for `sort:`; numbers before words so mixed values never compare."""
    if name == "label":
        value: Any = info.title
    elif name == "copies":
        value = info.copies
    else:
        value = rules.items[info.kind].props.get(name)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, value)
    return (1, cards.words_of(value).lower())


def card_groups(rules: Any) -> list[Group]:
    """The ruleset's item kinds as tabs: by the `group` property of `layout: cards` (named
    and ordered by its `tabs`), else by type (cards, tiles, tokens); each sorted by `sort`,
    else in the order of `items:`."""
    style = getattr(rules.layout, "cards", None) if rules.layout is not None else None
    infos = [cards.card_info(rules, kind) for kind in rules.items]
    names: dict[str, str] = dict(style.tabs) if style is not None else {}
    keyed: dict[str, list[cards.CardInfo]] = {value: [] for value in names}
    for info in infos:
        key = info.group if style is not None and style.group else rules.items[info.kind].type
        keyed.setdefault(key, []).append(info)
    if style is not None and style.sort:
        order = style.sort
        for members in keyed.values():
            members.sort(key=lambda i: tuple(_sort_value(rules, i, n) for n in order))
    groups = []
    for key, members in keyed.items():
        if not members:
            continue
        if key in names:
            name = names[key]
        elif style is not None and style.group:
            name = cards.words_of(key) if key else "Other"
        else:
            name = {"card": "Cards", "tile": "Tiles", "token": "Tokens"}.get(key, key)
        groups.append(Group(name, tuple(members)))
    return groups


class CardsScene(Scene):
    """Browse a game's cards: tabs of cards, click (or Enter) to zoom one, click it again
    (or F) to flip it to its back; Esc closes the zoom, then the list. The list re-flows to
    the window's shape."""

    opaque = True
    flows = True

    def __init__(self, app: App, rules: Any) -> None:
        super().__init__(app)
        self.rules = rules
        self.groups = card_groups(rules)
        self.tab = 0
        self.focus = 0
        self.scroll = 0
        self.zoomed = False
        self.flipped = False
        self.menu = Menu()
        self.menu.show_focus = False
        self.hits: list[tuple[pygame.Rect, int]] = []  # each drawn card's place and index
        self.card_rect = pygame.Rect(0, 0, 0, 0)  # the zoomed card, where it was drawn
        self.lay_out(app.canvas.get_size())

    def lay_out(self, size: tuple[int, int]) -> None:
        """The list's place and the buttons for a canvas of `size`."""
        self.size = size
        self.tab_rects = self.place_tabs(size[0] - 2 * GRID.x)
        # The list starts under the tabs: one row of them, or more on a narrow canvas.
        top = GRID.y + (self.tab_rects[-1].bottom - self.tab_rects[0].bottom
                        if self.tab_rects else 0)
        self.grid = pygame.Rect(GRID.x, top, size[0] - 2 * GRID.x, size[1] - top - 76)
        self._controls()
        self.clamp_scroll()

    # --- what is shown -----------------------------------------------------------------

    @property
    def shown(self) -> tuple[cards.CardInfo, ...]:
        """The cards of the open tab."""
        return self.groups[self.tab].cards if self.groups else ()

    @property
    def current(self) -> cards.CardInfo | None:
        """The focused card."""
        return self.shown[self.focus] if self.shown else None

    def ui_scale(self) -> float:
        """How much larger than at 1280x720 words must be drawn to read the same in the
        window (the canvas is shrunk to fit a smaller one)."""
        view, size = self.app.view_and_size()
        scale = min(view.w / size[0], view.h / size[1]) if view.w and view.h else 1.0
        return max(1.0, min(1.7, MIN_SCREEN_PX / (theme.TINY * max(scale, 0.1))))

    def grid_geometry(self) -> tuple[int, int, int, int]:
        """Columns, card width, card height and text size of the card list now."""
        ui = self.ui_scale()
        size = math.ceil(theme.TINY * ui)  # never a hair under the smallest on screen
        w, h = round(164 * ui), round(160 * ui)
        cols = max(1, (self.grid.w + GAP) // (w + GAP))
        return cols, w, h, size

    def tab_label(self, index: int) -> str:
        """A tab's words: its group's name and how many cards it has."""
        group = self.groups[index]
        return f"{group.name} ({len(group.cards)})"

    def place_tabs(self, room: int) -> list[pygame.Rect]:
        """Where the tabs go, left to right in rows `room` wide: a tab that would run
        past the edge starts the next row (a narrow window, or a game with many groups)."""
        if len(self.groups) < 2:
            return []
        rects: list[pygame.Rect] = []
        x, y = GRID.x, TABS_Y - 4
        for i in range(len(self.groups)):
            w = min(room, theme.font(theme.SIZE_BUTTON, True).size(self.tab_label(i))[0] + 48)
            if rects and x + w > GRID.x + room:
                x, y = GRID.x, y + 48 + 14
            rects.append(pygame.Rect(x, y, w, 48))
            x += w + 12
        return rects

    def _controls(self) -> None:
        """Tabs, and the buttons of the list or of the zoomed card."""
        controls = []
        if len(self.groups) > 1 and not self.zoomed:
            for i, rect in enumerate(self.tab_rects):
                controls.append(Control(rect, self.tab_label(i), partial(self.open_tab, i),
                                        tag=f"tab{i}"))
        w, h = self.size
        if self.zoomed:
            controls.append(Control(pygame.Rect(w - 280, h - 220, 240, 60), "Flip", self.flip,
                                    key="F", tag="flip"))
            controls.append(Control(pygame.Rect(w - 280, h - 144, 240, 60), "Back to list",
                                    self.unzoom, key="Esc", tag="unzoom"))
        else:
            controls.append(Control(pygame.Rect(w - 230, h - 64, 190, 56), "Close",
                                    self.close, key="Esc", tag="close"))
        self.menu.set(controls)

    # --- what a player does ------------------------------------------------------------

    def close(self) -> None:
        """Back to where the list was opened from."""
        self.dismiss(None)

    def open_tab(self, index: int) -> None:
        """Show another group of cards."""
        if not self.groups:
            return
        self.tab = index % len(self.groups)
        self.focus = 0
        self.scroll = 0
        self.zoomed = self.flipped = False
        self._controls()

    def zoom(self, index: int | None = None) -> None:
        """Show a card large (the focused one, or `index`), face up."""
        if not self.shown:
            return
        if index is not None:
            self.focus = index
        self.zoomed = True
        self.flipped = False
        self._controls()

    def unzoom(self) -> None:
        """Back to the list, on the same card."""
        self.zoomed = self.flipped = False
        self._controls()
        self.keep_in_view()

    def flip(self) -> None:
        """Turn the zoomed card over (zooming it first from the list)."""
        if not self.shown:
            return
        if not self.zoomed:
            self.zoom()
            self.flipped = True
        else:
            self.flipped = not self.flipped

    def move(self, step: int) -> None:
        """Move the focus by `step` cards, within the tab."""
        if not self.shown:
            return
        self.focus = max(0, min(len(self.shown) - 1, self.focus + step))
        self.flipped = False
        self.keep_in_view()

    def keep_in_view(self) -> None:
        """Scroll so the focused card is wholly in the list."""
        cols, _, h, _ = self.grid_geometry()
        row = self.focus // cols
        top = row * (h + GAP)
        if top < self.scroll:
            self.scroll = top
        elif top + h > self.scroll + self.grid.h:
            self.scroll = top + h - self.grid.h
        self.clamp_scroll()

    def clamp_scroll(self) -> None:
        """Keep the scroll within the list."""
        cols, _, h, _ = self.grid_geometry()
        rows = math.ceil(len(self.shown) / cols)
        limit = max(0, rows * (h + GAP) - GAP - self.grid.h)
        self.scroll = max(0, min(limit, self.scroll))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self.key(event)
            return
        if event.type == pygame.MOUSEWHEEL and not self.zoomed:
            self.scroll -= event.y * 60
            self.clamp_scroll()
            return
        if self.menu.handle(event):
            return
        if event.type == pygame.MOUSEMOTION and not self.zoomed:
            for rect, index in self.hits:
                if rect.collidepoint(event.pos):
                    self.focus = index
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.zoomed:
                if self.card_rect.collidepoint(event.pos):
                    self.flip()
                else:
                    self.unzoom()
                return
            for rect, index in self.hits:
                if rect.collidepoint(event.pos):
                    self.zoom(index)
                    return

    def key(self, event: pygame.event.Event) -> None:
        """The keyboard: arrows move, Enter zooms, F flips, Tab changes group, Esc closes."""
        k = event.key
        cols = self.grid_geometry()[0]
        if k == pygame.K_ESCAPE:
            self.unzoom() if self.zoomed else self.close()
        elif k == pygame.K_TAB:
            self.open_tab(self.tab + (-1 if event.mod & pygame.KMOD_SHIFT else 1))
        elif k == pygame.K_f:
            self.flip()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.flip() if self.zoomed else self.zoom()
        elif k == pygame.K_LEFT:
            self.move(-1)
        elif k == pygame.K_RIGHT:
            self.move(1)
        elif k == pygame.K_UP and not self.zoomed:
            self.move(-cols)
        elif k == pygame.K_DOWN and not self.zoomed:
            self.move(cols)
        elif k in (pygame.K_HOME, pygame.K_END):
            self.move(-len(self.shown) if k == pygame.K_HOME else len(self.shown))
        elif k in (pygame.K_PAGEUP, pygame.K_PAGEDOWN) and not self.zoomed:
            rows = max(1, self.grid.h // (self.grid_geometry()[2] + GAP))
            self.move(cols * rows * (-1 if k == pygame.K_PAGEUP else 1))

    # --- drawing -----------------------------------------------------------------------

    def draw(self, canvas: pygame.Surface) -> None:
        if canvas.get_size() != self.size:
            self.lay_out(canvas.get_size())  # the window was resized
        theme.draw_table_background(canvas)
        theme.text(canvas, f"{self.rules.name}: the cards", (self.grid.x, 14),
                   theme.SIZE_HEADING, theme.PARCHMENT, bold=True)
        if not self.groups:
            theme.text(canvas, "This game has no cards.", self.grid.center,
                       theme.SIZE_HEADING, theme.PARCHMENT, bold=True, anchor="center")
            self.menu.draw(canvas)
            return
        self.draw_tabs(canvas)
        self.draw_grid(canvas)
        if self.zoomed:
            self.draw_zoom(canvas)
        else:
            hint = "Click a card to read it · Enter zooms · F flips"
            if len(self.groups) > 1:
                hint += " · Tab: other group"
            room = self.size[0] - 290
            size = theme.fit_size(hint, room, round(theme.SMALL * self.ui_scale()),
                                  floor=theme.TINY)
            hint = theme.ellipsize(hint, theme.font(size), room)
            theme.text(canvas, hint, (self.grid.x, self.size[1] - 36), size, theme.FELT_TEXT,
                       anchor="midleft")
        self.menu.draw(canvas)

    def draw_tabs(self, canvas: pygame.Surface) -> None:
        """Mark the open tab (the tab buttons are the menu's)."""
        if len(self.groups) < 2:
            theme.text(canvas, f"{len(self.shown)} kinds of card", (self.grid.x, TABS_Y + 20),
                       theme.BODY, theme.FELT_TEXT, anchor="midleft")
            return
        if self.zoomed:
            return
        rect = self.menu.find(f"tab{self.tab}").rect
        pygame.draw.rect(canvas, theme.GOLD, (rect.x, rect.bottom + 4, rect.w, 6),
                         border_radius=3)

    def draw_grid(self, canvas: pygame.Surface) -> None:
        """The open tab's cards, scrolled, the focused one ringed."""
        cols, w, h, size = self.grid_geometry()
        self.clamp_scroll()
        left = self.grid.x + (self.grid.w - (cols * (w + GAP) - GAP)) // 2
        self.hits = []
        clip = canvas.get_clip()
        canvas.set_clip(self.grid.inflate(24, 24))
        for i, info in enumerate(self.shown):
            row, col = divmod(i, cols)
            rect = pygame.Rect(left + col * (w + GAP), self.grid.y + row * (h + GAP) - self.scroll,
                               w, h)
            if rect.bottom < self.grid.y or rect.top > self.grid.bottom:
                continue
            cards.draw_card_tile(canvas, rect, info, size,
                                 focused=i == self.focus and not self.zoomed)
            self.hits.append((rect.clip(self.grid), i))
        canvas.set_clip(clip)
        rows = math.ceil(len(self.shown) / cols)
        total = rows * (h + GAP) - GAP
        if total > self.grid.h:
            bar_h = max(40, self.grid.h * self.grid.h // total)
            top = self.grid.y + (self.grid.h - bar_h) * self.scroll // max(1, total - self.grid.h)
            pygame.draw.rect(canvas, theme.PARCHMENT_DIM, (self.grid.right + 10, top, 8, bar_h),
                             border_radius=4)

    def draw_zoom(self, canvas: pygame.Surface) -> None:
        """The focused card large, face or back, over the dimmed list."""
        info = self.current
        if info is None:
            return
        veil = pygame.Surface(canvas.get_size(), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 170))
        canvas.blit(veil, (0, 0))
        ui = self.ui_scale()
        x, width = self.size[0] - 280, 250  # the words and buttons beside the card
        w = min(900, round(470 * ui), x - 40)
        rect = pygame.Rect(0, 0, w, min(640, self.size[1] - 80))
        rect.center = (min(self.size[0] // 2, x - 10 - w // 2 - 10), self.size[1] // 2 + 12)
        self.card_rect = cards.draw_card_large(canvas, rect, info, back=self.flipped,
                                               body=round(theme.BODY * min(ui, 1.3)))
        side = "its back" if self.flipped else "its face"
        size = round(theme.SMALL * min(ui, 1.4))
        lines = theme.wrap(f"Showing {side}. Click the card or press F to flip it. "
                           "Left and Right: the next card.", theme.font(size), width - 20)
        line_h = theme.font(size).get_linesize()
        panel = pygame.Rect(x - 10, 100, width, 70 + line_h * len(lines))
        pygame.draw.rect(canvas, theme.FELT_DARK, panel, border_radius=12)
        theme.text(canvas, f"Card {self.focus + 1} of {len(self.shown)}", (x, 112),
                   round(theme.BODY * min(ui, 1.4)), theme.PARCHMENT, bold=True)
        for i, line in enumerate(lines):
            theme.text(canvas, line, (x, 160 + i * line_h), size, theme.FELT_TEXT)
