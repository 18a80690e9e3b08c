"""The title scene: every installed game, with what it is and who it is for."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from ..catalog import Listing, listings
from ..paths import user_data_dir
from ..render import theme
from ..render.widgets import Panel
from .base import Control, Menu, Scene, shortcut
from .title_entries import Entry, Loading, SavesRead, discover, read_saves

if TYPE_CHECKING:
    from ..engine import GameState, Rules
    from ..saves import SavedGame


GAP = 12
CARD_MIN_H = 76  # a game's card: its name over its one-line pitch
BUTTON_H = 60
BUTTON_GAP = 10
HINT = ("Arrows or Tab to choose, Enter to play, L to learn it, F1 for the rules, M mutes, "
        "F11 full screen")


def _listing(rules: Rules) -> Listing:
    """A loaded game's title line, as its listing would give it."""
    return Listing(rules.id, rules.name, str(rules.data.get("pitch", "")), rules.min_players,
                   rules.max_players, str(rules.data.get("time", "")))


class TitleScene(Scene):
    """Pick a game; laid out for the window's shape."""

    flows = True

    def __init__(self, app: object, lazy: bool = False) -> None:
        super().__init__(app)  # type: ignore[arg-type]
        self.menu = Menu()
        self.entries: list[Entry] = []
        self.saved: SavedGame | None = None
        self.saved_state: GameState | None = None
        self.saved_line = ""
        self.pending_message: Scene | None = None
        self.drawn = False
        self.listed = False  # the games come from their listings: the rules are not loaded
        self.placeholder = False  # the Continue card's place, kept until the save is read
        self.loading: Loading | None = None  # the games being read aside (see update)
        self.size: tuple[int, int] = app.canvas.get_size()  # type: ignore[attr-defined]
        # The row (or rows) of buttons and their one size of type, for the canvas's width.
        self.button_rows, self.button_size = button_rows(self.size[0], BUTTONS)
        if lazy:
            self.show_listings()
        else:
            self.show(discover())

    @property
    def loaded(self) -> bool:
        """Whether the games' rules have been loaded (the first frame is drawn before)."""
        return bool(self.menu.controls) and not self.listed

    def show_listings(self) -> None:
        """The first frame's title: each game's name and pitch read from the head of its
        rules file, and the Continue card's place kept when an autosave is there."""
        self.listed = True
        self.placeholder = (user_data_dir() / "autosave.yaml").is_file()
        self.lay_out([Entry(item.id, None, item.problem, item) for item in listings()])

    def update(self, dt: float) -> None:
        # Loading and checking every ruleset and the autosave waits until the window has
        # shown its first frame, so the app appears at once. The running app reads them in
        # a thread while the title stays live (`App.read_aside`); frames stepped one by one
        # (tests) read them in the next frame.
        if not self.loaded and self.drawn:
            if not getattr(self.app, "read_aside", False):
                self.show(discover())
            elif self.loading is None:
                self.loading = Loading()
            elif self.loading.done:
                self.finish_loading()
        if self.pending_message is not None and self.app.top is self:
            self.app.push(self.pending_message)
            self.pending_message = None

    def finish_loading(self) -> None:
        """Show the games in full now, waiting for them if they are still being read (a
        game picked in the first moments needs its rules)."""
        if self.loaded:
            return
        loading, self.loading = self.loading, None
        if loading is None:
            self.show(discover())
        else:
            self.show(*loading.take())

    def show(self, entries: list[Entry], read: SavesRead | None = None) -> None:
        """Lay out the games (and the game in progress, if one was left unfinished)."""
        if read is None:
            read = read_saves()  # the rules machinery loads after the first frame
        found, skipped = read.found, read.skipped
        self.saved, self.saved_state = None, None
        if read.problem:
            self.broken_save([read.problem])
        if found is not None:
            self.saved, self.saved_state, _ = found
        if skipped:
            lines = [line for skip in skipped[:2] for line in skip.problems[:2]]
            kept = [skip.kept.name for skip in skipped if skip.kept is not None]
            if kept:
                lines.append(f"The file was kept as {', '.join(kept)}.")
            else:
                lines.append("The file could not be moved aside; it is left where it is.")
            if found is not None:
                lines.append("Continue offers the save before it.")
            self.report("The saved game could not be opened", lines)
        # Described once: the title redraws a dozen times a second.
        self.saved_line = self.describe_saved()
        # Filled in under the player's eyes: the focus stays where they had moved it.
        keep_focus = self.listed
        self.listed = self.placeholder = False
        self.lay_out(entries, keep_focus)

    @property
    def compact(self) -> bool:
        """Many games: the heading is smaller and higher, to leave the list more room."""
        return len(self.entries) + (self.saved is not None or self.placeholder) > 4

    def buttons_top(self) -> int:
        """Where the row (or rows) of buttons starts: at the foot of the canvas."""
        rows = len(self.button_rows)
        return self.size[1] - 20 - rows * BUTTON_H - (rows - 1) * 10

    def game_rects(self, n: int, resume: bool) -> tuple[pygame.Rect, list[pygame.Rect]]:
        """The Continue card and a card per game, in one column while they fit, else in
        two or three, each as tall as the room allows (never below a readable card)."""
        w = self.size[0]
        top = 130 if self.compact else 210
        width_1 = min(800, w - 80)
        resume_rect = pygame.Rect((w - width_1) // 2, top, width_1, 80)
        if resume:
            top += 96
        room = self.buttons_top() - 44 - top  # the keys' hint goes between
        for cols in (1, 2, 3):
            rows = -(-n // cols)
            card_h = min(92, room // max(1, rows) - GAP)
            if card_h >= CARD_MIN_H or cols == 3:
                break
        width = width_1 if cols == 1 else (w - 80 - GAP * (cols - 1)) // cols
        left = (w - (width * cols + GAP * (cols - 1))) // 2
        rects = [pygame.Rect(left + (k % cols) * (width + GAP),
                             top + (k // cols) * (card_h + GAP), width, card_h)
                 for k in range(n)]
        return resume_rect, rects

    def lay_out(self, entries: list[Entry], keep_focus: bool = False) -> None:
        """The controls for the games, the Continue card and the row of buttons."""
        self.entries = entries
        controls = []
        resume = self.saved is not None or self.placeholder
        resume_rect, rects = self.game_rects(len(entries), resume)
        if resume:
            controls.append(Control(resume_rect, "Continue", self.resume, key="C",
                                    tag="continue"))
        for entry, rect in zip(self.entries, rects, strict=True):
            controls.append(Control(rect, entry.id, partial(self.choose, entry),
                                    enabled=entry.rules is not None
                                    or (self.listed and not entry.problem),
                                    why_disabled="This game's rules file has a problem",
                                    tag=f"game:{entry.id}"))
        acts = {"learn": self.learn, "rules": self.show_rules, "cards": self.show_cards,
                "saved": self.show_saved, "demo": self.demo, "quit": self.quit}
        # Each button just wide enough for its label at the one size all six share, so
        # all read alike (the button would shrink a label that it had no room for).
        y = self.buttons_top()
        for row in self.button_rows:
            widths = [button_width(label, key, self.button_size) for label, key, _ in row]
            x = (self.size[0] - sum(widths) - BUTTON_GAP * (len(row) - 1)) // 2
            for (label, key, tag), width in zip(row, widths, strict=True):
                controls.append(Control(pygame.Rect(x, y, width, BUTTON_H), label, acts[tag],
                                        key=key, tag=tag))
                x += width + BUTTON_GAP
            y += BUTTON_H + 10
        self.menu.set(controls, keep_focus=keep_focus)

    def resume(self) -> None:
        """Rebuild the game left unfinished and sit back down at it."""
        from ..ruleset import LoadError

        self.finish_loading()
        saved = self.saved
        if saved is None:
            return
        try:
            # Replayed afresh: the state shown at the title may have been played on since.
            state = saved.replay()
        except LoadError as exc:
            self.broken_save([str(p) for p in exc.problems[:3]])
            self.show(self.entries)
            return
        self.sit_down(saved, state)

    def broken_save(self, lines: list[str], path: Path | None = None) -> None:
        """Say plainly that the saved game cannot be opened; keep the file aside."""
        from .. import saves

        kept = saves.set_aside(path)
        lines = list(lines)
        if kept is not None:
            lines.append(f"The file was kept as {kept.name}.")
        else:
            lines.append("The file could not be moved aside; it is left where it is.")
        self.report("The saved game could not be opened", lines)

    def report(self, title: str, lines: list[str]) -> None:
        """A message shown over the title once it is on top."""
        from .message import MessageScene

        self.pending_message = MessageScene(self.app, title, lines)

    def show_cards(self) -> None:
        """Every card of the focused game, to read front and back."""
        from .cards import CardsScene

        self.finish_loading()
        entry = self.selected()
        if entry is not None and entry.rules is not None:
            self.app.push(CardsScene(self.app, entry.rules))

    def show_saved(self) -> None:
        """The named saves and the finished games: open one to play on or watch again."""
        from .saved import SavedGamesScene

        self.finish_loading()  # coming back lays the games out again: in full
        self.app.push(SavedGamesScene(self.app), self._opened)

    def _opened(self, result: object) -> None:
        from ..ruleset import LoadError
        from .keeping import keep_unfinished
        from .saved import Opened

        if not isinstance(result, Opened):
            self.show(self.entries)  # a save may have been deleted
            return
        if result.finished:
            from .replay import open_replay

            open_replay(self.app, result.game, result.path)
            return
        try:
            state = result.game.replay()
        except LoadError as exc:
            self.report("The saved game could not be opened",
                        [str(p) for p in exc.problems[:3]])
            return
        # The save opened becomes the game to continue: the one left unfinished is kept.
        self.sit_down(result.game, state, keep_unfinished(result.game))

    def sit_down(self, saved: SavedGame, state: GameState, kept: str = "") -> None:
        """Play on at a saved game; `kept`: the words saying the unfinished game was kept."""
        from .history import past_lines
        from .keeping import tell_kept
        from .setup import Seat
        from .table import TableScene

        seats = [Seat(s.name, s.kind, s.colour) for s in saved.seats]
        table = TableScene(self.app, state.rules, seats, dict(saved.options), saved.seed,
                           state, saved.bots_rng())
        # What happened before, in the log: the players pick up where they left off.
        table.log[:0] = past_lines(table)
        self.app.push(table)
        tell_kept(table, kept)

    def choose(self, entry: Entry) -> None:
        """Go to the seats and options of a game."""
        from .setup import SetupScene

        if self.listed:  # picked while the rules are still being read: wait for them
            self.finish_loading()
            entry = next((e for e in self.entries if e.id == entry.id), entry)
        if entry.rules is not None:
            self.app.push(SetupScene(self.app, entry.rules))

    def selected(self) -> Entry | None:
        """The game the focus is on (or the first playable one)."""
        tag = self.menu.focused.tag
        for e in self.entries:
            if tag == f"game:{e.id}":
                return e
        return next((e for e in self.entries if e.rules is not None), None)

    def show_rules(self) -> None:
        """The rules of the focused game."""
        from .rules import RulesScene

        self.finish_loading()
        entry = self.selected()
        if entry is not None and entry.rules is not None:
            self.app.push(RulesScene(self.app, entry.rules))

    def learn(self) -> None:
        """The focused game's lesson, played on the real table; with no game focused (the
        button pressed), which game is asked first."""
        from ..lessons import lessons_of
        from .learn_picker import LearnPicker
        from .lesson import open_lesson

        self.finish_loading()
        if not self.menu.focused.tag.startswith("game:"):
            games = [e.rules for e in self.entries if e.rules is not None and lessons_of(
                e.rules)]
            self.app.push(LearnPicker(self.app, games), self._learn_picked)
            return
        entry = self.selected()
        if entry is None or entry.rules is None:
            return
        if not open_lesson(self.app, entry.rules):
            self.report(f"No lesson for {entry.rules.name} yet",
                        ["Its rules are under Rules (F1)."])

    def _learn_picked(self, rules: object) -> None:
        from .lesson import open_lesson

        if rules is not None:
            open_lesson(self.app, rules)  # type: ignore[arg-type]

    def demo(self) -> None:
        """Bots play every game in turn until a key or click brings the title back."""
        from .demo import DemoScene

        self.app.push(DemoScene(self.app))

    def quit(self) -> None:
        """Close the app."""
        self.app.running = False

    def handle(self, event: pygame.event.Event) -> None:
        keys = {pygame.K_ESCAPE: self.quit, pygame.K_F1: self.show_rules, pygame.K_l: self.learn,
                pygame.K_d: self.demo, pygame.K_k: self.show_cards, pygame.K_s: self.show_saved}
        if self.saved is not None or self.placeholder:
            keys[pygame.K_c] = self.resume
        if not shortcut(event, keys):
            self.menu.handle(event)

    def describe_saved(self) -> str:
        """The unfinished game's line: its round and scores, unless the game keeps its
        scores secret until the end (then none are told here either)."""
        if self.saved is None:
            return ""
        state = self.saved_state
        if state is not None and state.rules.reveal_scores == "at_end" and not (
                state.game_over):
            from .saved import secret_line

            names = [s.name for s in self.saved.seats]
            together = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else (
                "".join(names))
            return f"{secret_line(state.round, len(self.saved.log))}, with {together}"
        return self.saved.describe(state)

    @staticmethod
    def short_pitch(pitch: str, room: int) -> list[str]:
        """A pitch on a short card: one line when it fits in small type, else two lines of
        the smallest (the second cut short only when even two are not enough)."""
        if theme.font(theme.fit_size(pitch, room, theme.SMALL, floor=theme.TINY)).size(
                pitch)[0] <= room:
            return [pitch]
        font = theme.font(theme.TINY)
        lines = theme.wrap(pitch, font, room)
        if len(lines) > 2:
            lines = [lines[0], theme.ellipsize(" ".join(lines[1:]), font, room)]
        return lines

    @staticmethod
    def draw_pitch(canvas: pygame.Surface, pitch: str, card: pygame.Rect) -> None:
        """A game's one-line pitch, whole: smaller type first, then two lines, and only a
        pitch longer than two lines loses its end."""
        room = card.w - 48
        size = theme.fit_size(pitch, room, theme.SMALL, floor=theme.TINY)
        font = theme.font(size)
        lines = [pitch] if font.size(pitch)[0] <= room else theme.wrap(pitch, font, room)
        if len(lines) > 2:
            lines = [lines[0], theme.ellipsize(" ".join(lines[1:]), font, room)]
        top = card.y + (60 if len(lines) == 1 else 50)
        for n, line in enumerate(lines):
            theme.text(canvas, line, (card.x + 24, top + n * (size + 1)), size,
                       theme.INK_SOFT, tight=True)

    def draw(self, canvas: pygame.Surface) -> None:
        self.drawn = True
        if canvas.get_size() != self.size:  # the window was resized
            self.size = canvas.get_size()
            self.button_rows, self.button_size = button_rows(self.size[0], BUTTONS)
            self.lay_out(self.entries, keep_focus=True)
        middle = self.size[0] // 2
        theme.draw_table_background(canvas)
        compact = self.compact
        theme.text(canvas, "dinotable", (middle, 44 if compact else 70),
                   theme.TITLE if compact else theme.HUGE, theme.PARCHMENT, bold=True,
                   anchor="center")
        theme.text(canvas, "Dinosaur games for the whole table. Pick a game:",
                   (middle, 100 if compact else 150), theme.SMALL if compact else theme.BODY,
                   theme.PARCHMENT, anchor="center")
        offset = 0
        for i, c in enumerate(self.menu.controls):
            if c.tag == "continue":
                offset = 1
                Panel(c.rect, "", focused=i == self.menu.focus).draw(canvas)
                if self.saved is None:  # the save is read once the first frame is up
                    theme.text(canvas, "Continue the unfinished game",
                               (c.rect.x + 24, c.rect.y + 14), theme.SMALL, theme.INK_SOFT,
                               tight=True)
                    continue
                name = next((e.rules.name for e in self.entries
                             if e.rules is not None and e.id == self.saved.ruleset),
                            self.saved.ruleset)
                theme.text(canvas, f"Continue the unfinished game of {name}",
                           (c.rect.x + 24, c.rect.y + 14), theme.SMALL, theme.INK_SOFT,
                           tight=True)
                # The round and everyone's score: smaller type before anything is cut off.
                line = self.saved_line
                size = theme.fit_size(line, c.rect.w - 48, theme.BODY, bold=True,
                                      floor=theme.SMALL)
                line = theme.ellipsize(line, theme.font(size, True), c.rect.w - 48)
                theme.text(canvas, line, (c.rect.x + 24, c.rect.y + 44), size, theme.INK,
                           bold=True, tight=True)
                continue
            if not c.tag.startswith("game:"):
                continue
            entry = self.entries[i - offset]
            focused = i == self.menu.focus
            Panel(c.rect, "", focused=focused, dim=bool(entry.problem)).draw(canvas)
            x, y = c.rect.x + 24, c.rect.y + 12
            if entry.rules is None and (entry.problem or entry.listing is None):
                theme.text(canvas, f"{entry.id} - unavailable", (x, y), theme.BODY,
                           theme.DANGER, bold=True)
                line = theme.wrap(entry.problem, theme.font(theme.SMALL), c.rect.w - 48)[0]
                theme.text(canvas, line, (x, y + 40), theme.SMALL, theme.INK_SOFT)
                continue
            listing = entry.listing or _listing(entry.rules)  # type: ignore[arg-type]
            facts = f"{listing.min_players}-{listing.max_players} players  ·  {listing.time}"
            facts_size = theme.SMALL
            facts_w = theme.font(facts_size).size(facts)[0]
            if c.rect.w - 48 - facts_w - 16 < 240:  # two columns: the facts in finer print
                facts_size = theme.TINY
                facts_w = theme.font(facts_size).size(facts)[0]
            room = c.rect.w - 48 - facts_w - 16  # the name beside the facts, smaller if need be
            # Many games in three columns: the facts under the name (two columns keep them
            # beside a smaller name).
            narrow = room < (240 if facts_size == theme.SMALL else 160)
            if narrow:
                room = c.rect.w - 48
            # A short card (many games) keeps a clear line between the name and the pitch;
            # a pitch that needs two lines there gets them under a smaller name.
            pitch_lines = [] if narrow or c.rect.h >= 90 else self.short_pitch(
                listing.pitch, c.rect.w - 48)
            size = theme.fit_size(listing.name, room, theme.SIZE_HEADING if c.rect.h >= 90
                                  else 34 if len(pitch_lines) < 2 else theme.BODY,
                                  bold=True, floor=theme.BODY)
            name = theme.ellipsize(listing.name, theme.font(size, True), room)
            theme.text(canvas, name, (x, c.rect.y + 12), size, theme.INK, bold=True,
                       tight=True)
            if not narrow:
                theme.text(canvas, facts, (c.rect.right - 24, c.rect.y + 18), facts_size,
                           theme.INK_SOFT, anchor="topright", tight=True)
            if not narrow and c.rect.h >= 90:
                self.draw_pitch(canvas, listing.pitch, c.rect)  # whole, on one or two lines
                continue
            if len(pitch_lines) == 2:
                for n, text in enumerate(pitch_lines):
                    theme.text(canvas, text, (x, c.rect.bottom - 4 - (2 - n) * 21), theme.TINY,
                               theme.INK_SOFT, tight=True)
                continue
            # A short card (the Continue card above the games) keeps the pitch whole in
            # smaller type before cutting its end.
            line = facts if narrow else listing.pitch
            size = theme.fit_size(line, c.rect.w - 48, theme.SMALL, floor=theme.TINY)
            line = theme.ellipsize(line, theme.font(size), c.rect.w - 48)
            theme.text(canvas, line, (x, c.rect.bottom - 12), size, theme.INK_SOFT,
                       anchor="bottomleft", tight=True)
        buttons = Menu()
        buttons.controls = [c for c in self.menu.controls
                            if not c.tag.startswith("game:") and c.tag != "continue"]
        buttons.focus = next((i for i, c in enumerate(buttons.controls)
                              if c is self.menu.focused), -1)
        buttons.hover = None
        buttons.draw(canvas)
        size = theme.fit_size(HINT, self.size[0] - 40, theme.SMALL, floor=theme.TINY)
        theme.text(canvas, HINT, (middle, self.buttons_top() - 28), size, theme.PARCHMENT,
                   anchor="center")


# The row of buttons under the games: label, key and tag.
BUTTONS = (("Learn to play", "L", "learn"), ("Rules", "F1", "rules"), ("Cards", "K", "cards"),
           ("Saved games", "S", "saved"), ("Watch a demo", "D", "demo"), ("Quit", "Esc", "quit"))


def button_rows(width: int, buttons: Sequence[tuple[str, str, str]]
                ) -> tuple[list[Sequence[tuple[str, str, str]]], int]:
    """The buttons in one row at the largest type, down to body type, that lets the row
    fit `width`; else in two rows at full button type (a narrow window is taller)."""
    room = width - 24
    for size in range(theme.SIZE_BUTTON, theme.BODY - 1, -1):
        if sum(button_width(label, key, size) for label, key, _ in buttons) + BUTTON_GAP * (
                len(buttons) - 1) <= room:
            return [buttons], size
    half = -(-len(buttons) // 2)
    return [buttons[:half], buttons[half:]], theme.SIZE_BUTTON


def button_width(label: str, key: str, size: int, height: int = BUTTON_H) -> int:
    """How wide a button must be to show `label` at `size` beside its keycap, measured as
    the button lays itself out (render/widgets.py: Button.draw and keycap)."""
    face_h = height - 6  # the wood's side under its face
    cap_h = max(30, min(44, face_h - 18))
    cap_size = max(theme.SIZE_SMALL, round(cap_h * 0.62))
    cap_w = max(cap_h, theme.font(cap_size, True).size(key)[0] + 18)
    return 14 + cap_w + 12 + theme.font(size, True).size(label)[0] + 14
