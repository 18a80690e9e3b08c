"""Learn to play: a lesson followed on the real table.

The learner plays the lesson's seat; the script plays the others, with the dice falling
as the lesson forces them. A caption across the top says what is happening in plain
words, an arrow points at what to touch, and only the taught move glows: the other
buttons are greyed, the other things on the table do not glow, and a wrong click is
answered with a gentle hint. Back and Skip rebuild the table at the step before or after
(the lesson replays from its start, which is quick); at the end the learner may start a
real game with the same seats.

The scene is the ordinary table (`TableScene`) with the lesson laid over it: it talks to
the table only through the table's own interface (taking an action, the chooser, the
buttons), so the table knows nothing of lessons.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

from ..engine import Action
from ..lessons import NEXT, LessonRun, lessons_of
from ..render import theme
from ..render.arrows import arrow, arrow_box, clear_way
from ..render.widgets import Panel
from ..table.choice import Choice, Target
from ..table.chrome import PlayersPart
from ..table.controls import OWN
from ..table.reading import draw_pinned, pinned_rect
from ..table.session import Seat
from ..table.undoing import choice as undo_choice
from .base import Control
from .keeping import keep_unfinished, tell_kept
from .lesson_chooser import LessonChooser
from .table import HURRY, TableScene

if TYPE_CHECKING:
    from ..app import App
    from ..engine import Rules
    from ..scenarios import Scenario

SCRIPT_PAUSE = 0.9  # seconds before the script plays a move nobody is told about
READING = 0.05  # seconds more per letter of a caption the script's move comes with
READING_MAX = 5.0
NUDGE_SECONDS = 3.5
LESSON_TAG = "lesson:"
GOLD = (246, 196, 64)


class LessonScene(TableScene):
    """A lesson on the table (see the module's docstring)."""

    def __init__(self, app: App, lesson: Scenario, start: int = 0) -> None:
        self.lesson = lesson
        self.run = LessonRun(lesson, start)
        learner = self.run.learner
        seats = [Seat(name, "human" if n == learner else "heuristic", n)
                 for n, name in enumerate(lesson.players)]
        super().__init__(app, self.run.rules, seats, dict(lesson.options), lesson.seed,
                         state=self.run.state, saving=False)
        self.results_shown = True  # the lesson ends with its own words, not the results
        self.session.holder = learner  # the learner's own cards are face up from the start
        self.chooser = LessonChooser(self.state, self.session.names, self.taught)
        self.script_wait = 0.0
        self.nudge: tuple[str, float] | None = None
        self.clock = 0.0  # the arrow's bobbing
        self.shown_at = -1  # the step the buttons were last laid out for
        self.paged_at = -1  # the step the action bar was last turned to the taught page for
        self.pressed: tuple[Any, Any, bool] | None = None  # at the mouse button's press
        self._settle()

    # --- what the lesson teaches now --------------------------------------------------

    def taught(self) -> Action | None:
        """The move the learner is to make now (None: nothing to do on the table)."""
        if self.run.kind() != "learner":
            return None
        return self.run.action()

    def teaches(self, choice: Choice) -> bool:
        """Whether a button of the action bar is (a step of) the taught move."""
        want = self.taught()
        if want is None:
            return False
        if choice.tag == "cancel":
            return True  # stepping back out of a choice is never wrong
        if choice.step is not None:
            return self.chooser.leads(choice.step, want) if isinstance(
                self.chooser, LessonChooser) else False
        return choice.action == want

    def wrong_words(self) -> str:
        """What a click that does nothing is told: kindly, and what to do instead."""
        kind = self.run.kind()
        step = self.run.step
        if kind == "read":
            return "Read the words at the top, then press Next."
        if kind == "done":
            return "The lesson is over: press 'Play a game', or 'Again'."
        if kind == "learner" and step is not None:
            return step.hint or "Not that one. Look for the arrow: " + self.doing()
        return "Watch: the other player is having a go."

    def doing(self) -> str:
        """The taught move in a few words: "press Roll", "click Ben"."""
        want = self.taught()
        if want is None:
            return ""
        adef = self.rules.actions[want.id]
        if not adef.args:
            return f"press {adef.label}."
        arg = adef.args[-1]
        return f"{adef.label.lower()} {self.chooser.value_name(arg, dict(want.args)[arg.name])}."

    # --- the table, told about the lesson -------------------------------------------------

    def take(self, action: Action) -> None:
        if self.is_bot(action.player):
            super().take(action)
            return
        if self.run.kind() == "learner" and action == self.run.action():
            self.run.go_on()
            super().take(action)
            self.nudge = None
            return
        self.chooser.cancel()
        self.say_nudge(self.wrong_words())
        self.refresh_buttons()

    def choose(self, choice: Choice) -> None:
        if choice.tag.startswith(LESSON_TAG) or self.teaches(choice):
            super().choose(choice)
        else:
            self.say_nudge(self.wrong_words())

    def undo_choice(self) -> Choice:
        return undo_choice("In a lesson, Back goes a step back")

    def undo(self) -> None:
        self.say_nudge("In a lesson, Back goes a step back.")

    def pause(self) -> None:
        from .pause import PauseScene

        self.app.push(PauseScene(self.app, rules=self.rules, lesson=True), self.paused)

    def paused(self, choice: Any) -> None:
        if choice in ("restart", "learn"):
            self.app.replace(LessonScene(self.app, self.lesson))
        elif choice == "quit":
            self.app.to_title()

    def say_nudge(self, text: str) -> None:
        """A gentle hint under the caption for a few seconds."""
        self.nudge = (text, NUDGE_SECONDS)
        self.toast = None  # one hint at a time, in the same place
        self.dirty = True

    # --- moving through the lesson -------------------------------------------------------

    def _bot_turn(self, dt: float) -> None:
        """The table is idle: the lesson goes on as far as it can without the learner."""
        if self.app.top is not self:
            return
        moved = False
        while self.run.kind() == "auto":
            self.run.auto()
            moved = True
        if self.run.kind() == "script":
            step = self.run.step
            words = step.say if step is not None else ""
            self.script_wait += dt
            pause = min(READING_MAX, SCRIPT_PAUSE + READING * len(words)) if words else (
                SCRIPT_PAUSE)
            if self.hurry:  # H: the learner has read enough
                pause = HURRY
            if self.script_wait >= pause:
                self.script_wait = 0.0
                action = self.run.action()
                self.run.go_on()
                super().take(action)
                moved = True
        if moved or self.shown_at != self.run.cursor:
            self.chooser.refresh()
            self.refresh_buttons()

    def next_page(self) -> None:
        """Next: the words were read; the lesson goes on."""
        if self.run.kind() == "read" and self.idle:
            self.run.auto()
            self.nudge = None
            self.refresh_buttons()

    def back(self) -> None:
        """Back to the step before, the table rebuilt as it was then."""
        self.app.replace(LessonScene(self.app, self.lesson, self.run.back_to()))

    def skip(self) -> None:
        """On to the next step, the one skipped played for the learner."""
        self.app.replace(LessonScene(self.app, self.lesson, self.run.skip_to()))

    def again(self) -> None:
        """The lesson from its start."""
        self.app.replace(LessonScene(self.app, self.lesson))

    def play_for_real(self) -> None:
        """A real game with the same seats: the learner, and bots for the others (a game
        left unfinished is kept in Saved games, as for any new game)."""
        kept = keep_unfinished()
        table = TableScene(self.app, self.rules, self.seats, {}, random.randrange(1 << 30))
        self.app.replace(table)
        tell_kept(table, kept)

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.nudge is not None:
            text, left = self.nudge
            self.nudge = (text, left - dt) if left > dt else None
        super().update(dt)

    @property
    def animating(self) -> bool:
        """The arrow bobs, and the script may be due to move."""
        return True

    # --- buttons and keys -----------------------------------------------------------------

    def refresh_buttons(self) -> None:
        super().refresh_buttons()
        if not isinstance(self.chooser, LessonChooser):
            return  # still being built
        if self.my_turn and self.paged_at != self.run.cursor and self.taught() is not None:
            # A new move to make: the action bar turns to the page with its button on it.
            self.paged_at = self.run.cursor
            self.page = 0
            super().refresh_buttons()
            while not self.taught_on_bar() and any(
                    c.tag == "page:next" and c.enabled for c in self.menu.controls):
                self.page += 1
                super().refresh_buttons()
            if not self.taught_on_bar():
                # Begun on the table (a die clicked first): the page with the move's own
                # button, which the words name ("then press Reroll"), else the first.
                self.page = self.page_naming(self.taught())
                super().refresh_buttons()
        self.shown_at = self.run.cursor
        choices = {c.tag: c for c in self.chooser.choices()} if self.my_turn else {}
        # A button the lesson greys says why in words of its own: pressed, the hint under
        # the caption says what to do instead (the same words twice would read as an echo).
        words = f"Not in this step: {self.doing()}" if self.run.kind() == "learner" else (
            "Not in this step of the lesson.")
        for c in self.menu.controls:
            if c.tag in OWN or c.tag.startswith("page:") or not c.enabled:
                continue
            choice = choices.get(c.tag)
            if choice is None or not self.teaches(choice):
                c.enabled, c.why_disabled = False, words
        controls = [*self.menu.controls, *self.lesson_controls()]
        self.menu.set(controls)
        # Enter does the obvious thing: Next, the taught button, or a real game at the end.
        wanted = {"read": (LESSON_TAG + NEXT,), "done": (LESSON_TAG + "play",)}.get(
            self.run.kind())
        for i, c in enumerate(controls):
            ours = c.tag in OWN or c.tag.startswith(("page:", LESSON_TAG))
            if c.enabled and (c.tag in wanted if wanted else not ours):
                self.menu.focus = i
                self.menu.show_focus = True
                break
        else:
            # Nothing on the bar to press yet (a die to click first): no button is ringed,
            # so Enter is never pointed at a page arrow the words do not name.
            self.menu.show_focus = False
        self.dirty = True

    def page_naming(self, want: Action | None) -> int:
        """The first page of the action bar with a button of `want`'s action (0: none)."""
        if want is None:
            return 0
        tags = {f"start:{want.id}", f"action:{want.id}", f"confirm:{want.id}"}
        for page in range(self.page + 1):
            self.page = page
            super().refresh_buttons()
            if any(c.tag in tags for c in self.menu.controls):
                return page
        return 0

    def taught_on_bar(self) -> bool:
        """Whether a button of the taught move is on the action bar's page shown."""
        choices = {c.tag: c for c in self.chooser.choices()}
        return any(c.tag in choices and self.teaches(choices[c.tag])
                   for c in self.menu.controls if c.tag != "cancel")

    def panel_rect(self) -> pygame.Rect:
        """Where the lesson's own buttons are: over the log, which a lesson does not need."""
        return self.area["log"]

    @property
    def titled(self) -> bool:
        """Whether the lesson's panel has room for its title over its buttons."""
        return self.panel_rect().h >= 170

    def lesson_controls(self) -> list[Control]:
        """Next (when there are words to read), Back and Skip; at the end, a real game."""
        box = self.panel_rect().inflate(-16, -16)
        kind = self.run.kind()
        small = pygame.Rect(box.x, box.bottom - 54, (box.w - 10) // 2, 54)
        right = small.move(small.w + 10, 0)
        top = box.y + (34 if self.titled else 0)
        big = pygame.Rect(box.x, top, box.w, min(70, small.y - top - 10))
        if kind == "done":
            return [Control(big, "Play a game", self.play_for_real, key="Enter",
                            tag=LESSON_TAG + "play"),
                    Control(small, "Back", self.back, tag=LESSON_TAG + "back"),
                    Control(right, "Again", self.again, tag=LESSON_TAG + "again")]
        reading = kind == "read" and self.idle
        return [Control(big, "Next", self.next_page, key="Enter", enabled=reading,
                        why_disabled="Do what the words at the top say",
                        tag=LESSON_TAG + "next"),
                Control(small, "Back", self.back, enabled=self.run.cursor > min(
                    self.run.stops or [self.run.first]), why_disabled="This is the first step",
                    tag=LESSON_TAG + "back"),
                Control(right, "Skip", self.skip, tag=LESSON_TAG + "skip")]

    def handle(self, event: pygame.event.Event) -> None:
        kind = self.run.kind()
        if event.type == pygame.KEYDOWN and event.key in (
                pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and kind in ("read", "done"):
            if kind == "read":
                self.next_page()
            elif self.menu.focused.enabled:
                self.menu.activate(self.menu.focused)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.zoom.pinned is not None and not pinned_rect(self).collidepoint(event.pos):
                # A card read large is put back by a click beside it, and that click still
                # does what it was aimed at (Next, the taught move): nothing is lost.
                self.zoom.clear()
            self.pressed = (self.progress(), self.toast, self.own_control_at(event.pos))
        super().handle(event)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.pressed:
            # Judged when the button comes up: a drag across the tray throws the dice.
            before, toast, own = self.pressed
            self.pressed = None
            if not own and self.progress() == before and self.toast is toast:
                self.say_nudge(self.wrong_words())  # (unless the table has just said why)

    def progress(self) -> tuple[Any, ...]:
        """What a useful click changes: the step, the game, a choice being made, the scene."""
        b = self.chooser.building
        return (self.run.cursor, len(self.state.log), self.chooser.ready,
                None if b is None else (b.adef.id, tuple(b.marked), repr(b.bound)),
                id(self.app.top), self.zoom.pinned)

    def own_control_at(self, pos: tuple[int, int]) -> bool:
        """A click on the table's own buttons (Menu, Odds, the lesson's) is never wrong."""
        index = self.menu.at(pos)
        if index is None:
            return False
        tag = self.menu.controls[index].tag
        return tag in OWN or tag.startswith((LESSON_TAG, "page:")) or (
            self.menu.controls[index].enabled)

    # --- drawing ---------------------------------------------------------------------------

    def draw(self, canvas: pygame.Surface) -> None:
        if self.banner is not None and any(r.colliderect(self.tr) for r in self.pointed()):
            self.banner = None  # what the lesson points at is never under a banner
        with theme.seeing_text() as seen:
            super().draw(canvas)
            self.draw_caption(canvas)
            self.draw_panel(canvas)
        words = [letters for _, letters, surface in seen.drawn if surface is canvas]
        self.arrows: list[pygame.Rect] = []  # where each arrow was drawn, this frame
        for rect in self.pointed():
            self.draw_pointer(canvas, rect, words)
        self.menu.draw(canvas)  # the lesson's buttons, over its panel
        if self.nudge is not None:
            self.draw_nudge(canvas, self.nudge[0])
        # A card being read large lies over the lesson's caption, panel and arrow too.
        draw_pinned(self, self.zoom, canvas)

    def caption_rect(self) -> pygame.Rect:
        """The caption: across the top, over the header."""
        head = self.area["header"]
        return pygame.Rect(head.x, head.y - 6, head.w, head.h + 10)

    def draw_caption(self, canvas: pygame.Surface) -> None:
        """The step's words, large, across the top."""
        box = self.caption_rect()
        Panel(box, "").draw(canvas)
        done, total = self.run.progress()
        kind = self.run.kind()
        tag = "Lesson done!" if kind == "done" else f"Step {done} of {total}"
        theme.text(canvas, tag, (box.x + 20, box.y + 10), theme.SIZE_TINY, theme.INK_SOFT,
                   bold=True, tight=True)
        words = self.run.caption() if kind != "done" else (
            "Well done, you have learned to play! Press 'Play a game' to play a real game.")
        room = box.w - 40
        lines: list[str] = []
        size = theme.SIZE_BODY
        for size in (theme.SIZE_BODY, theme.SIZE_SMALL, theme.SIZE_TINY):
            lines = theme.wrap(words, theme.font(size, True), room)
            if len(lines) * (size + 4) <= box.h - 34:
                break
        for n, line in enumerate(lines[:3]):
            theme.text(canvas, line, (box.x + 20, box.y + 32 + n * (size + 4)), size,
                       theme.INK, bold=True, tight=True)

    def draw_panel(self, canvas: pygame.Surface) -> None:
        """The lesson's own buttons' panel, over the log."""
        box = self.panel_rect()
        Panel(box, "").draw(canvas)
        if not self.titled:
            return
        title = self.lesson.title or "Lesson"
        if theme.font(theme.SIZE_TINY, True).size(title)[0] > box.w - 24:
            title = "Lesson"  # a narrow panel: the caption above names the game's step
        theme.text(canvas, title, (box.centerx, box.y + 19), theme.SIZE_TINY, theme.INK_SOFT,
                   bold=True, anchor="center", tight=True)

    def draw_nudge(self, canvas: pygame.Surface, text: str) -> None:
        """The gentle hint: a parchment tab under the caption, on up to two lines."""
        middle = self.tr
        font = theme.font(theme.SIZE_BODY, True)
        lines = theme.wrap(text, font, middle.w - 60)[:2]
        width = max(font.size(line)[0] for line in lines) + 40
        box = pygame.Rect(0, 0, width, len(lines) * (font.get_height() + 2) + 18)
        box.midtop = (middle.centerx, middle.y + 10)
        pygame.draw.rect(canvas, theme.PARCHMENT_LIGHT, box, border_radius=12)
        pygame.draw.rect(canvas, GOLD, box, 4, border_radius=12)
        for n, line in enumerate(lines):
            theme.text(canvas, line, (box.centerx, box.y + 9 + n * (font.get_height() + 2)),
                       theme.SIZE_BODY, theme.INK, bold=True, anchor="midtop", tight=True)

    def pointed(self) -> list[pygame.Rect]:
        """Where the arrow points now: what the step names, else the taught move's things
        (or its button), else Next when there are words to read."""
        if not self.idle:
            return []
        kind = self.run.kind()
        point = self.run.point()
        if point is not None and kind != "learner":
            return self.find(point)
        if kind == "learner" and self.my_turn:
            # A player to choose is pointed at by the name plate: the rest of the row may
            # hold cards, and a click on a card reads it instead of choosing the player.
            glowing = [self.plate_rect(t.value) if t.kind == "seat" else r
                       for r, t in self.ring_targets()]
            if glowing:
                return glowing
            return [c.rect for c in self.menu.controls
                    if c.enabled and c.tag not in OWN and not c.tag.startswith(
                        (LESSON_TAG, "page:"))][:1]
        if kind == "read":
            return self.find({"button": NEXT})
        return []

    def find(self, point: dict[str, str]) -> list[pygame.Rect]:
        """The rects on the table of a thing a lesson names."""
        kind, name = next(iter(point.items()))
        if kind == "button":
            tags = (LESSON_TAG + NEXT,) if name == NEXT else (
                f"action:{name}", f"start:{name}", f"confirm:{name}")
            return [c.rect for c in self.menu.controls if c.tag in tags or (
                c.tag.startswith(f"{name}:"))][:1]
        if kind == "player":
            seat = self.session.names.index(name)
            return [self.row_rect(seat)]
        if kind == "die":
            return [pygame.Rect(int(s.x) - size // 2, int(s.y) - size // 2, size, size)
                    for s in self.sprites.values() if name in (s.kind, s.face)
                    for size in [self.sprite_size(s)]]
        if kind == "zone":
            owners = [None, *range(len(self.seats))]
            return [p.rect for p in self.parts if p.name != "tray" and (
                any(p.where(name, o, 0) is not None for o in owners)
                or getattr(getattr(p, "spec", None), "zone", None) == name)][:2]
        def named(target: Target) -> bool:
            if kind == "space":
                return target == Target("space", self.space_of(name))
            return target.kind == "item" and self.kind_of(str(target.value)) == name

        return [rect for part in self.parts for rect, target in part.targets_at()
                if named(target)][:3]

    def plate_rect(self, seat: int) -> pygame.Rect:
        """A player's name plate in the players column."""
        players: PlayersPart = self.part(PlayersPart)
        return players.plate_rect(seat)

    def space_of(self, space: str) -> str:
        """A space's target name: BOARD@SPACE."""
        board = next((b for b, d in self.rules.boards.items() if space in d.spaces), "")
        return f"{board}@{space}"

    def kind_of(self, item: str) -> str:
        """An item's kind, by its id."""
        index = self.state.item_ids.get(item)
        return "" if index is None else self.state.items[index].kind

    def draw_pointer(self, canvas: pygame.Surface, rect: pygame.Rect,
                     words: Sequence[pygame.Rect] = ()) -> None:
        """A gold ring round the thing and a bobbing arrow pointing at it, from the side
        where it covers no words (`words`: where the table's words lie)."""
        pulse = 3 + int(3 * (1 + math.sin(self.clock * 5)))
        pygame.draw.rect(canvas, theme.INK, rect.inflate(12 + pulse, 12 + pulse), width=7,
                         border_radius=12)
        pygame.draw.rect(canvas, GOLD, rect.inflate(10 + pulse, 10 + pulse), width=5,
                         border_radius=12)
        bob = int(8 * math.sin(self.clock * 4))
        gap = 8 + pulse
        sides = {(0, 1): (rect.centerx, rect.top - gap), (0, -1): (rect.centerx, rect.bottom + gap),
                 (1, 0): (rect.left - gap, rect.centery), (-1, 0): (rect.right + gap, rect.centery)}
        ring = rect.inflate(24, 24)
        others = [w for w in words if not ring.contains(w)]
        for sprite in self.sprites.values():  # the other dice: an arrow hides no face
            size = self.sprite_size(sprite)
            box = pygame.Rect(0, 0, size, size)
            box.center = (int(sprite.x), int(sprite.y))
            if not ring.contains(box):
                others.append(box)

        found = clear_way(sides, self.arrow_ways(rect), others, canvas.get_rect(),
                          self.caption_rect())
        if found is None:
            return  # every arrow would hide a word (a crowded corner): the ring alone
        way, length = found
        self.arrows.append(arrow_box(sides[way], way, bob, length))
        pygame.draw.polygon(canvas, GOLD, arrow(sides[way], way, bob, length))
        pygame.draw.polygon(canvas, theme.INK, arrow(sides[way], way, bob, length), width=3)

    def arrow_ways(self, rect: pygame.Rect) -> list[tuple[int, int]]:
        """The sides an arrow may come from, the likeliest first: above the bar's buttons and
        the middle (below, near the top), from the left in the side column, from the right
        in the players' column."""
        width = self.area_size[0]
        if rect.top >= self.area["bar"].y - 10 or (
                width * 28 // 100 <= rect.centerx <= width * 72 // 100):
            first = [(0, 1), (0, -1)] if rect.top - 70 > self.caption_rect().bottom else [
                (0, -1), (0, 1)]
        elif rect.centerx > width // 2:
            first = [(1, 0)]
        else:
            first = [(-1, 0)]
        return first + [w for w in ((0, 1), (0, -1), (1, 0), (-1, 0)) if w not in first]


def open_lesson(app: App, rules: Rules, replace: bool = False) -> bool:
    """Start the first lesson of a game on the table; False when it has none."""
    found = lessons_of(rules)
    if not found:
        return False
    scene = LessonScene(app, found[0])
    if replace:
        app.replace(scene)
    else:
        app.push(scene)
    return True
