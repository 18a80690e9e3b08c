"""The table: a host of widgets for any ruleset, played by people and bots in turn.

The game itself (state, seats, bots, autosave, undo, who holds the laptop) is a
`TableSession` (`table/session.py`), which needs no window. The scene draws it and turns
input into its actions. What is drawn, and where, belongs to the registered parts
(`dinotable/table/`), which see the table only through `PartHost` (`table/host.py`): the
layout manager places them, each draws from the viewer's view and answers what a click on
it means. The engine has already decided everything when `apply` returns; the events play
back one by one (`table/playback.py`) on a display model that trails the engine until the
animation catches up (`table/display.py`), with the dice flying between parts in one layer.
"""

from __future__ import annotations

import random
from collections import deque
from typing import TYPE_CHECKING, Any

import pygame

from ..engine import (
    Action,
    Event,
    GameState,
    IllegalAction,
    Rules,
    for_new_game,
    redact,
    view_for,
)
from ..narrate import move_line
from ..render import theme
from ..render.dice import name_faces
from ..ruleset.layout import Layout
from ..settings import BOT_SPEEDS
from ..table import chrome, controls, display, playback, reading, undoing
from ..table.choice import Choice, Chooser, Target
from ..table.focus import FocusRing
from ..table.host import TableHost
from ..table.part import Part
from ..table.regions import regions_for
from ..table.registry import build_parts
from ..table.session import Seat, TableSession
from ..table.sprites import Shown, Sprite, Step
from .base import Menu, Scene
from .keeping import keep_unfinished, tell_kept
from .results import ResultsScene, next_starter

if TYPE_CHECKING:
    from ..app import App
    from ..companion.link import PhoneLink

HURRY = 0.12  # seconds a bot waits when hurried (H)
UNDO_W = controls.UNDO_W
OPENING = 2.0  # seconds a new game shows who goes first before a bot begins


class TableScene(TableHost, Scene):
    """A game in progress."""

    flows = True  # laid out for the window's shape (see table/regions.py)

    def __init__(self, app: App, rules: Rules, seats: list[Seat], options: dict[str, Any],
                 seed: int, state: GameState | None = None,
                 bots_rng: random.Random | None = None, saving: bool = True,
                 link: PhoneLink | None = None) -> None:
        super().__init__(app)
        self.session = TableSession(rules, seats, options, seed, state, bots_rng, saving)
        # Hands on phones (companion/): the seats that joined play from their phones.
        self.link: PhoneLink | None = None
        self.phones_seen: set[int] = set()
        # The rules this game plays by (its options may shape a board or switch teams on).
        self.rules, self.options, self.seed, self.saving = self.session.rules, options, seed, saving
        self.layout: Layout = rules.layout
        # The dice's tumbling has a source of its own, so it never changes a bot's choice.
        self.toss_rng = random.Random(seed ^ 0x7055)
        self.steps: deque[Step] = deque()  # the events still to play back, and the wait
        self.wait = 0.0
        self.sprites: dict[str, Sprite] = {}
        self.banner: tuple[str, tuple[int, int, int], float] | None = None
        self.showcase: list[str] = []  # cards shown under the banner (a reveal)
        self.toast: tuple[str, float] | None = None
        self.log: list[str] = []  # what happened, in words, and how far back it is read
        self.log_scroll = 0
        who = seats[self.state.current].name
        self.last_words = (f"{who} starts." if not self.state.log else
                           f"Welcome back: the game goes on with {who}.")
        self.bot_wait, self.dots = 0.0, ""  # the dots: a thinking bot's, as last drawn
        self.hurry = False
        self.told_in_words = False  # the move being played back has the ruleset's words
        self.rolled_in_move: list[str] = []  # every face a move's rolls showed, for its summary
        self.show_odds = app.settings.show_odds
        self.muted = bool(getattr(app.sounds, "muted", False))
        self.menu = Menu()
        self.handoff_due = self.results_shown = False
        self.view: dict[str, Any] = view_for(self.state, None)
        self.chooser = Chooser(self.state, self.session.names)
        name_faces({face: style.label for face, style in rules.layout.faces.items()})
        self.mouse: tuple[int, int] = (-1, -1)
        self.asked = ""  # the prompt of the question the game waits on, for the header
        self.page, self.focus = 0, FocusRing()  # the bar's page when it pages; the keys' focus
        self.zoom = reading.Zoom()  # the card being read: one at a time, for the whole table
        # Drawing only when something changed: input, or what the pointer is over.
        self.dirty, self.pointer = True, (-1, -1)
        self.drawn_hover: tuple[Any, ...] | None = None
        self.laid_out: tuple[Any, int | None] | None = None  # the view the layout is for
        self.laid_out_view: dict[str, Any] | None = None
        self.sprite_zones = set(self.layout.tray) | {a.zone for a in self.layout.areas} | {
            a.zone for a in self.layout.player_zones}
        scores = [float(v or 0) for v in self.view["scores"]]
        self.shown = Shown(self.state.current, scores, list(scores),
                           display.source_counts(self), self.state.round)
        # The regions of the canvas the table is drawn on (the window's shape; see draw).
        self.area_size = app.canvas.get_size()
        self.parts: list[Part] = build_parts(self)
        self.area = regions_for(self.area_size, max(p.wide for p in self.parts))
        self.relayout()
        self._settle()  # dice that start on the table (a pool in the tray) are laid out
        display.opening(self, OPENING)
        if link is not None:
            self.use_link(link)

    # --- playing actions ---------------------------------------------------

    def take(self, action: Action) -> None:
        """Apply an action and queue its events, as the laptop's holder may see them."""
        if not self.is_bot(action.player):
            self.log_scroll = 0  # a player who acts has read on: the newest lines again
        display.stand_in(self, action)  # the very dice the player chose are the ones moved
        holder = self.session.holder
        # What everyone may see before the move: shown from the moment the laptop is to be
        # passed, while the move plays out (nothing of the last holder's stays on screen).
        public = view_for(self.state, None) if (
            holder is not None and self.rules.hidden_information) else None
        try:
            applied = self.session.take(action)
        except IllegalAction as refused:
            # A choice the table built that the rules refuse: said, and nothing changes.
            self.chooser.cancel()
            self.hint(str(refused))
            self.chooser.refresh()
            return
        if public is not None and self.session.holder is None:
            self.view = public
            self.zoom.clear()
        events = applied if self.sees_all else redact(applied, self.viewer, self.state)
        words = move_line(applied, self.rules.actions[action.id].label, self.name(action.player))
        # Under the header too, until the move's own words come ("Ann: Pass.", not the
        # "Ann may respond." that asked her).
        self.log_line(words)
        self.last_words = words
        self.chooser.cancel()
        self.told_in_words = any(e.kind == "said" for e in events)
        for event in events:
            self.queue_event(event)
        self.steps.append(Step(self._settle, "settle"))
        self.autosave()

    def queue_event(self, event: Event) -> None:
        """Turn one engine event into playback steps (see `table/playback.py`)."""
        self.steps.extend(playback.steps_for(self, event))

    def throw(self, zone: str, dice: list[Any]) -> None:
        """Toss these dice (id, kind, the face the engine chose) across the tray: the
        tray works the toss out; the playback waits until it has landed."""
        tray = self.tray_part
        if tray is not None:
            tray.throw(zone, dice)

    def saved_game(self) -> Any:
        """The game as it will be written: enough to rebuild it exactly."""
        return self.session.saved_game()

    def autosave(self, compact: bool = False) -> None:
        """Keep the game on disk after every move; say once when it cannot be."""
        words = self.session.autosave(compact)
        if words:
            self.log_line(words)
            if self.save_problem:
                self.last_words = "This game cannot be saved; play goes on."

    def closing(self) -> None:
        # Saved after every move already; this keeps a game nobody has moved in yet, and
        # writes it whole (its journal folded in) for whichever dinotable opens it next.
        if self.saving and not self.state.game_over:
            self.autosave(compact=True)

    def _settle(self) -> float:
        """After playback: the display matches the engine exactly."""
        if not self.state.game_over:
            self._maybe_handoff()  # may change who holds the laptop, so it comes first
        self.view = view_for(self.state, self.viewer, everything=self.sees_all)
        display.level(self)
        if not self.state.pending:
            self.asked = ""
        self.focus.reset()
        self.chooser.refresh()
        self.refresh_buttons()
        return 0.0

    def _maybe_handoff(self) -> None:
        """The laptop is passed (the hand-off screen) before a person's private things are
        drawn, when the session says so (`TableSession.handoff_due`)."""
        self.session.always_handoff = self.app.settings.always_handoff
        if self.session.handoff_due():
            self.handoff_due = True  # shown from update(), once this scene is on top

    def handed(self, seat: int) -> None:
        """The hand-off was answered: `seat` holds the laptop; the table shows their view."""
        self.session.handed(seat)
        self.view = view_for(self.state, seat)
        # Their own score and counters as they may see them, at once: not ticking up from
        # what the last holder (or nobody) was shown.
        display.level(self)
        self.shown.scores = list(self.shown.score_goals)
        self.chooser.refresh()
        self.refresh_buttons()

    # --- hands on phones (companion/, scenes/phones.py) ---------------------------------

    def use_link(self, link: PhoneLink) -> None:
        """Play with these phones: the link already serves; the game is told to it."""
        self.link = link
        self.app.hold_phones(link)
        link.phones.attach(self.session)

    def phones_on(self) -> None:
        """Turn hands on phones on (set-up's choice, or the pause menu): serve this game
        on the local network and show each person's seat its code to join by."""
        if self.link is None:
            from ..companion.link import PhoneLink
            from ..companion.seat_view import hex_colour

            humans = [s for s in range(len(self.seats)) if not self.is_bot(s)]
            if not humans:
                self.hint("Only bots play here: there is no seat to join from a phone.")
                return
            colours = [hex_colour(c.rgb) for c in theme.PLAYER_COLOURS]
            link = PhoneLink(humans, colours, self.rules.name,
                             port=self.app.settings.phones_port)
            try:
                link.start()
            except OSError as exc:
                self.hint(f"Hands on phones could not start: {exc}.")
                self.log_line(f"Hands on phones could not start: {exc}.")
                return
            self.use_link(link)
            self.log_line(f"Hands on phones is on: phones reach this game at {link.where}.")
        from .phones import JoinScene

        assert self.link is not None
        self.app.push(JoinScene(self.app, self.link, self.seats, on_off=self.phones_off,
                                tick=lambda: self._pump_phones(ready=False)))

    def phones_off(self) -> None:
        """Hands on phones off: the server stops, and every seat plays at the laptop."""
        if self.link is not None:
            self.app.hold_phones(None)  # the server stops; open pages hear the table closed
            self.link = None
        self.session.hand_to_phones(set())
        self.phones_seen = set()
        self.log_line("Hands on phones is off: every seat plays at the laptop.")
        self._settle()

    def _pump_phones(self, ready: bool = True) -> None:
        """Once a frame: take the phones' moves (once the table shows the last one, and
        only while it is `ready`) and tell them what changed; say who has joined."""
        link = self.link
        if link is None:
            return
        link.phones.pump(self.session, self.take, self._phone_undo,
                         ready=ready and self.idle)
        joined = self.session.phones
        if joined != self.phones_seen:
            for seat in sorted(joined - self.phones_seen):
                self.log_line(f"{self.name(seat)} joined from a phone.")
            self.phones_seen = set(joined)
            self._settle()  # who holds the laptop may have changed: the view follows

    def _phone_undo(self) -> str:
        """Undo pressed on the phone of the seat the game waits on ("" when taken back)."""
        return undoing.take_back_last(self, self._settle, remote=True)

    # --- buttons and keys (table/controls.py) ------------------------------------------

    def refresh_buttons(self) -> None:
        """The action bar and the menu buttons for what can be done now."""
        controls.refresh(self)

    def _bar(self, choices: list[Choice], room: int = 0) -> list[Any]:
        return controls.action_bar(self, choices, room)

    def turn_page(self, step: int) -> None:
        """Show the next or previous page of the action bar."""
        self.page = max(0, self.page + step)
        self.refresh_buttons()

    def choose(self, choice: Choice) -> None:
        """A button pressed: take its action, or take a step of a choice being built."""
        action = choice.action if choice.step is None else choice.step()
        if action is not None and choice.enabled:
            self.page = 0
            self.take(action)
        self.refresh_buttons()

    def click_target(self, target: Target) -> bool:
        """A click on a die, card, space or player: an action, a step, or nothing."""
        if not self.my_turn or target not in self.chooser.targets():
            return False
        action = self.chooser.click(target)
        if action is not None:
            self.page = 0
            self.take(action)
        self.refresh_buttons()
        return True

    def toggle_odds(self) -> None:
        """Show or hide the chance panel."""
        self.show_odds = not self.show_odds
        self.app.settings.show_odds = self.show_odds
        self.app.settings.save()
        self.hint("Odds shown" if self.show_odds else "Odds hidden")

    def pause(self) -> None:
        """The pause menu; it hands back what was chosen."""
        from .pause import PauseScene

        self.app.push(PauseScene(self.app, rules=self.rules, game=self.saved_game(),
                                 state=self.state, phones=not self.sees_all and any(
                                     not self.is_bot(s) for s in range(len(self.seats)))),
                      self.paused)

    def paused(self, choice: Any) -> None:
        """What the pause menu handed back: resume, restart, learn or quit to the title."""
        if choice == "phones":
            self.phones_on()
            return
        if choice == "learn":
            self.app.hold_phones(None)  # the lesson takes the table's place: phones stop
        if choice in ("restart", "learn"):
            # Opened over the hand-off: it goes with this game, which is replaced below.
            while self in self.app.stack and self.app.top is not self:
                self.app.pop()
        if choice == "restart":
            self.restart()
        elif choice == "learn":  # the game stays the one to continue: a lesson never saves
            self.app.learn(self.rules, replace=True)
        elif choice == "quit":
            self.app.to_title()

    def restart(self) -> None:
        """The same seats and options, new dice; the game left unfinished is kept."""
        kept = keep_unfinished() if self.saving else ""
        phones = self.link is not None
        table = TableScene(self.app, self.rules, self.seats,
                           for_new_game(self.rules, self.options), random.randrange(1 << 30))
        self.app.replace(table)
        tell_kept(table, kept)
        if phones:
            table.phones_on()  # a new game: new addresses, so each phone joins again

    def finished(self, choice: Any) -> None:
        """What the results handed back: play again (the next player starts) or leave."""
        if choice == "again":
            self.seats = next_starter(self.seats)
            self.restart()
        elif choice == "title":
            self.app.to_title()

    def demo_toss(self, seed: int) -> None:
        """Toss every die in the cup across the tray, for show only (the benchmark's load):
        the engine's state is not touched."""
        tray = self.tray_part
        if tray is not None:
            tray.show_off(seed)

    # --- input (the keyboard's focus ring: table/focus.py) -------------------------------

    action_for_key = controls.action_for_key
    choice_for_key = controls.choice_for_key

    def needs_redraw(self) -> bool:
        """Something moves or counts down, input came, or the pointer is over something
        else that reacts (a card that grows, a button, a glowing target) than last drawn."""
        return self.dirty or self.animating or display.hover_key(self) != self.drawn_hover

    def handle(self, event: pygame.event.Event) -> None:
        display.noticed(self, event)
        if event.type == pygame.KEYDOWN and controls.key(self, event):
            return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_log(2 * event.y)
            return
        if any(part.handle(event) for part in self.parts):
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            # Everything under the pointer, the glowing first: a click on a dinosaur lying
            # in a period that may be chosen chooses the period.
            glowing = self.chooser.targets() if self.my_turn else set()
            for part in self.parts:
                under = [t for r, t in reversed(part.targets_at()) if r.collidepoint(event.pos)]
                hit = part.hit(event.pos)
                if hit is not None and hit not in under:
                    under.insert(0, hit)
                for target in sorted(under, key=lambda t: t not in glowing):
                    if self.click_target(target):
                        return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_BACKSPACE and (
                self.chooser.building is not None):
            self.chooser.cancel()
            self.refresh_buttons()
            return
        if self.menu.handle(event):
            if event.type == pygame.KEYDOWN:
                self.focus.keyed = True  # the keys moved the focus in this decision
            self.refresh_buttons()

    def scroll_log(self, lines: int) -> None:
        """Scroll the log (positive: back in time)."""
        self.log_scroll = max(0, min(max(0, len(self.log) - 5), self.log_scroll + lines))

    # --- time -------------------------------------------------------------------

    def update(self, dt: float) -> None:
        if self.link is not None:
            self._pump_phones()
        if self.handoff_due and self.app.top is self:
            from .handoff import HandoffScene

            self.handoff_due = False
            seat = self.deciding
            # Asked for before that seat's phone joined: the phone plays it, no hand-off.
            if not self.on_phone(seat):
                self.app.push(HandoffScene(self.app, self.name(seat), self.colour(seat),
                                           lambda: self.handed(seat),
                                           self.session.handoff_words(seat),
                                           on_pause=self.pause))
                return
        muted = bool(getattr(self.app.sounds, "muted", False))
        if muted != self.muted:
            self.muted = muted
            self.hint("Sound off" if muted else "Sound on")
        display.tick(self, dt)
        tray = self.tray_part
        if tray is not None and tray.toss is not None:
            tray.roll_on(dt)  # the tossed dice move along their paths; it ends at rest
            return
        if self.wait > 0:
            self.wait -= dt
            return
        while self.steps and self.wait <= 0 and self.toss is None:
            self.wait = self.steps.popleft().start()
        if self.idle:
            self._bot_turn(dt)
        # A bot may just have moved: its playback comes before the results.
        if self.idle and not self.results_shown and self.state.game_over:
            self.results_shown = True
            self.app.push(ResultsScene(self.app, self), self.finished)

    def _bot_turn(self, dt: float) -> None:
        if not self.session.bot_to_move or self.app.top is not self:
            return
        self.bot_wait += dt
        if self.bot_wait < (HURRY if self.hurry else BOT_SPEEDS[self.app.settings.bot_speed]):
            return
        action = self.session.bot_move()
        if action is None:  # still thinking: redrawn as the status line's dots move
            dots = chrome.thinking_dots()
            self.dirty, self.dots = self.dirty or dots != self.dots, dots
            return
        self.bot_wait = 0.0
        self.take(action)
        self.refresh_buttons()

    # --- drawing ----------------------------------------------------------------

    def draw(self, canvas: pygame.Surface) -> None:
        self.dirty = False
        theme.draw_table_background(canvas)
        if canvas.get_size() != self.area_size:
            self.resized(canvas.get_size())
        if self.laid_out != (id(self.view), self.viewer) or self.laid_out_view is not self.view:
            # Heights follow what the widgets hold, which changes only with the view.
            self.relayout()
            self.laid_out, self.laid_out_view = (id(self.view), self.viewer), self.view
        look = self.look()
        hovered: list[Part] = []
        for part in self.parts:
            if part.on_top:
                continue
            if part.lifts and part.rect.collidepoint(self.mouse):
                hovered.append(part)  # a hovered card grows over its neighbours: drawn last
                continue
            part.draw(canvas, look)
        self.draw_sprites(canvas)
        for part in hovered:
            part.draw(canvas, look)
        self.menu.draw(canvas)
        if self.ring is not None:
            self.focus.draw(canvas, self.ring_targets())
        for part in self.parts:
            if part.on_top:
                part.draw(canvas, look)  # a card a click pinned lies over the whole table
        display.draw_over(self, canvas)
        self.drawn_hover = display.hover_key(self)

    def draw_sprites(self, canvas: pygame.Surface) -> None:
        """The dice outside the cup (`table/display.py`)."""
        display.draw_sprites(self, canvas)

    # --- taking back a move (table/undoing.py) ------------------------------------------

    def undo_choice(self) -> Choice:
        """Undo as a choice: enabled, or greyed with the reason it cannot be used."""
        return undoing.choice(self.session.undo_reason(self.idle, self.wait_words()))

    def undo(self) -> None:
        """The seat the game waits on takes back its last action (Undo, Ctrl+Z)."""
        undoing.take_back_last(self, self._settle)
