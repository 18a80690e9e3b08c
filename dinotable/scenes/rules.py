"""The rules reference: the ruleset's own rules text, large and scrollable."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from ..engine import Rules
from ..render import theme
from ..render.widgets import Panel
from .base import Control, Menu, Scene

if TYPE_CHECKING:
    from ..app import App

PAGE = pygame.Rect(140, 90, 1000, 540)


def rules_lines(rules: Rules, width: int) -> list[tuple[str, int, bool]]:
    """The rules text as (line, size, bold) rows wrapped to a width; headings larger."""
    path = Path(rules.source) / "rules.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        text = f"# {rules.name}\n\nNo rules text is shipped with this game."
    rows: list[tuple[str, int, bool]] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line:
            rows.append(("", theme.SMALL, False))
            continue
        size, bold = theme.BODY, False
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            line = line.lstrip("#").strip()
            size, bold = (theme.TITLE_SMALL if level == 1 else theme.BODY), True
        elif line.lstrip().startswith(("- ", "* ")):
            line = "•  " + line.lstrip()[2:]
        line = line.replace("**", "").replace("`", "")
        for part in theme.wrap(line, theme.font(size, bold), width):
            rows.append((part, size, bold))
    return rows


class RulesScene(Scene):
    """Read the rules; Esc or Back returns to where you were."""

    def __init__(self, app: App, rules: Rules) -> None:
        super().__init__(app)
        self.rules = rules
        self.rows = rules_lines(rules, PAGE.w - 80)
        self.scroll = 0.0
        self.menu = Menu()
        self.menu.set([Control(pygame.Rect(540, 650, 200, 56), "Back", self.back, key="Esc",
                               tag="back")])

    def content_height(self) -> int:
        """Height of all the rows."""
        return sum(theme.font(size, bold).get_linesize() for _, size, bold in self.rows)

    def back(self) -> None:
        """Return."""
        self.app.pop()

    def scroll_by(self, pixels: float) -> None:
        """Scroll, clamped to the text."""
        limit = max(0, self.content_height() - (PAGE.h - 40))
        self.scroll = max(0.0, min(float(limit), self.scroll + pixels))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_F1):
                self.back()
                return
            step = {pygame.K_DOWN: 40, pygame.K_UP: -40, pygame.K_PAGEDOWN: PAGE.h - 80,
                    pygame.K_PAGEUP: -(PAGE.h - 80), pygame.K_SPACE: PAGE.h - 80,
                    pygame.K_HOME: -1e9, pygame.K_END: 1e9}.get(event.key)
            if step is not None:
                self.scroll_by(step)
                return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * 48)
            return
        self.menu.handle(event)

    def draw(self, canvas: pygame.Surface) -> None:
        theme.draw_table_background(canvas)
        theme.text(canvas, f"How to play {self.rules.name}", (640, 46), theme.TITLE_SMALL,
                   theme.PARCHMENT, bold=True, anchor="center")
        Panel(PAGE, "").draw(canvas)
        clip = canvas.get_clip()
        inner = PAGE.inflate(-40, -30)
        canvas.set_clip(inner)
        y = inner.y - int(self.scroll)
        for line, size, bold in self.rows:
            h = theme.font(size, bold).get_linesize()
            if y + h >= inner.y and y <= inner.bottom:
                theme.text(canvas, line, (inner.x + 20, y), size, theme.INK, bold=bold)
            y += h
        canvas.set_clip(clip)
        total = self.content_height()
        if total > inner.h:
            bar_h = max(40, int(inner.h * inner.h / total))
            top = inner.y + int((inner.h - bar_h) * self.scroll / max(1, total - inner.h))
            pygame.draw.rect(canvas, theme.WOOD, (PAGE.right - 16, top, 8, bar_h),
                             border_radius=4)
        theme.text(canvas, "Arrows, Page Up/Down or the wheel scroll", (760, 678),
                   theme.SMALL, theme.PARCHMENT, anchor="midleft", tight=True)
        self.menu.draw(canvas)
