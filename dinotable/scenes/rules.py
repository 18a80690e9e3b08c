"""The rules reference: the ruleset's own rules text, large and scrollable."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from .. import bounded
from ..engine import Rules
from ..render import theme
from ..render.widgets import Panel
from .base import Control, Menu, Scene

RULES_TEXT_MAX = 1024 * 1024  # a rules text is a few pages

if TYPE_CHECKING:
    from ..app import App

PAGE = pygame.Rect(140, 90, 1000, 540)  # the page at 1280x720


def page_for(size: tuple[int, int]) -> pygame.Rect:
    """The page on a canvas of `size`: as wide as at 1280x720 while it fits, as tall as the
    window leaves under the title and over the Back button."""
    w = min(PAGE.w, size[0] - 48)
    return pygame.Rect((size[0] - w) // 2, PAGE.y, w, size[1] - PAGE.y - 90)


@dataclass(frozen=True)
class Block:
    """One reflowed piece of the rules text: a heading, a paragraph or a list item."""

    kind: str  # heading | para | item | blank
    text: str
    level: int = 0  # heading level, or how deep a list item is nested (0 = top)
    bullet: str = ""  # "•" or "1." for list items


_ITEM = re.compile(r"^( *)([-*+]|\d+[.)])\s+(.*)$")


def parse_rules(text: str) -> list[Block]:
    """Markdown-ish rules text as blocks: the lines of a paragraph or list item joined,
    blank lines kept as breaks, headings and (nested) list items kept as such."""
    blocks: list[Block] = []
    current: list[str] | None = None  # the words of the paragraph or item being read
    for raw in text.replace("\t", "    ").splitlines():
        line = raw.rstrip()
        if not line.strip():
            current = None
            if blocks and blocks[-1].kind != "blank":
                blocks.append(Block("blank", ""))
            continue
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            blocks.append(Block("heading", line.lstrip("#").strip(), level))
            current = None
            continue
        item = _ITEM.match(line)
        if item:
            indent, mark, rest = item.groups()
            bullet = "•" if mark in "-*+" else mark
            blocks.append(Block("item", rest.strip(), len(indent) // 2, bullet))
            current = [rest.strip()]
            continue
        if current is not None and blocks:
            # A continuation line: same paragraph or item, whatever its indent.
            last = blocks[-1]
            blocks[-1] = Block(last.kind, f"{last.text} {line.strip()}", last.level, last.bullet)
            continue
        blocks.append(Block("para", line.strip()))
        current = [line.strip()]
    while blocks and blocks[-1].kind == "blank":
        blocks.pop()
    return blocks


# *word* or _some words_: single-mark emphasis round words (not a lone "2 * 3", nor
# the underscores inside a snake_case name).
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])|(?<!\w)_(?=\S)([^_]*?\S)_(?!\w)")


def _plain(text: str) -> str:
    """Markdown emphasis and code marks dropped (the page shows plain words)."""
    text = text.replace("**", "").replace("__", "").replace("`", "")
    return _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)


INDENT = 34  # px per level of list nesting


@dataclass(frozen=True)
class Row:
    """One line on the page: its words, size and weight, where it starts (px from the
    page's left), and the bullet drawn before it (the first line of a list item)."""

    text: str
    size: int
    bold: bool = False
    x: int = 0
    bullet: str = ""
    bullet_x: int = 0


def rules_lines(rules: Rules, width: int) -> list[Row]:
    """The rules text as rows wrapped to a width: paragraphs reflowed, headings larger,
    list items with a hanging indent, nested ones further in."""
    path = Path(rules.source) / "rules.md"
    try:
        text = bounded.read_text(path, RULES_TEXT_MAX, "a rules text")
    except bounded.Refused:
        text = f"# {rules.name}\n\nNo rules text is shipped with this game."
    rows: list[Row] = []
    body = theme.font(theme.BODY)
    for block in parse_rules(text):
        if block.kind == "blank":
            rows.append(Row("", theme.SMALL))
        elif block.kind == "heading":
            size = theme.TITLE_SMALL if block.level == 1 else theme.BODY
            for part in theme.wrap(_plain(block.text), theme.font(size, True), width):
                rows.append(Row(part, size, True))
        elif block.kind == "para":
            for part in theme.wrap(_plain(block.text), body, width):
                rows.append(Row(part, theme.BODY))
        else:
            left = block.level * INDENT
            hang = left + max(INDENT, body.size(block.bullet + "  ")[0])
            parts = theme.wrap(_plain(block.text), body, max(80, width - hang)) or [""]
            rows.append(Row(parts[0], theme.BODY, x=hang, bullet=block.bullet, bullet_x=left))
            rows.extend(Row(part, theme.BODY, x=hang) for part in parts[1:])
    return rows


class RulesScene(Scene):
    """Read the rules; Esc or Back returns to where you were. The page re-flows to the
    window's shape."""

    flows = True

    def __init__(self, app: App, rules: Rules) -> None:
        super().__init__(app)
        self.rules = rules
        self.scroll = 0.0
        self.menu = Menu()
        self.lay_out(app.canvas.get_size())

    def lay_out(self, size: tuple[int, int]) -> None:
        """The page, its rows and the Back button for a canvas of `size`."""
        self.size = size
        self.page = page_for(size)
        self.rows = rules_lines(self.rules, self.page.w - 80)
        self.menu.set([Control(pygame.Rect(size[0] // 2 - 100, size[1] - 70, 200, 56), "Back",
                               self.back, key="Esc", tag="back")])
        self.scroll_by(0)

    def content_height(self) -> int:
        """Height of all the rows."""
        return sum(theme.font(r.size, r.bold).get_linesize() for r in self.rows)

    def back(self) -> None:
        """Return."""
        self.dismiss()

    def scroll_by(self, pixels: float) -> None:
        """Scroll, clamped to the text."""
        limit = max(0, self.content_height() - (self.page.h - 40))
        self.scroll = max(0.0, min(float(limit), self.scroll + pixels))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_F1):
                self.back()
                return
            page = self.page.h - 80
            step = {pygame.K_DOWN: 40, pygame.K_UP: -40, pygame.K_PAGEDOWN: page,
                    pygame.K_PAGEUP: -page, pygame.K_SPACE: page,
                    pygame.K_HOME: -1e9, pygame.K_END: 1e9}.get(event.key)
            if step is not None:
                self.scroll_by(step)
                return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * 48)
            return
        self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        if canvas.get_size() != self.size:
            self.lay_out(canvas.get_size())  # the window was resized
        page = self.page
        theme.draw_table_background(canvas)
        theme.text(canvas, f"How to play {self.rules.name}", (self.size[0] // 2, 46),
                   theme.TITLE_SMALL, theme.PARCHMENT, bold=True, anchor="center")
        Panel(page, "").draw(canvas)
        clip = canvas.get_clip()
        inner = page.inflate(-40, -30)
        canvas.set_clip(inner)
        y = inner.y - int(self.scroll)
        for row in self.rows:
            h = theme.font(row.size, row.bold).get_linesize()
            if y + h >= inner.y and y <= inner.bottom:
                if row.bullet:
                    theme.text(canvas, row.bullet, (inner.x + 20 + row.bullet_x, y), row.size,
                               theme.INK_SOFT, bold=True)
                theme.text(canvas, row.text, (inner.x + 20 + row.x, y), row.size, theme.INK,
                           bold=row.bold)
            y += h
        canvas.set_clip(clip)
        total = self.content_height()
        if total > inner.h:
            bar_h = max(40, int(inner.h * inner.h / total))
            top = inner.y + int((inner.h - bar_h) * self.scroll / max(1, total - inner.h))
            pygame.draw.rect(canvas, theme.WOOD, (page.right - 16, top, 8, bar_h),
                             border_radius=4)
        back = self.menu.controls[0].rect
        hint = "Arrows, Page Up/Down or the wheel scroll"
        room = self.size[0] - back.right - 40
        # Smaller type on a narrow canvas, then two lines, before any word is lost.
        size = theme.fit_size(hint, room, theme.SMALL, floor=theme.TINY)
        lines = [hint] if theme.font(size).size(hint)[0] <= room else [
            theme.ellipsize(line, theme.font(size), room)
            for line in theme.wrap(hint, theme.font(size), room)[:2]]
        for n, line in enumerate(lines):
            y = back.centery + (2 * n - len(lines) + 1) * (size + 2) // 2
            theme.text(canvas, line, (back.right + 20, y), size, theme.PARCHMENT,
                       anchor="midleft", tight=True)
        self.menu.draw(canvas)
