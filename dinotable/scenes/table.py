"""The table: a host of widgets for any ruleset, played by people and bots in turn.

The scene owns the game, the seats, the bot clock, the hand-off, the autosave and the
playback queue. What is drawn, and where, belongs to the registered parts
(`dinotable/table/`): the layout manager places them, each draws from the viewer's view
and answers what a click on it means. The engine has already decided everything when
`apply` returns; the events play back one by one (`table/playback.py`) on a display model
that trails the engine until the animation catches up, with the dice that fly between
parts in one shared sprite layer.
"""

from __future__ import annotations

import random
from collections import deque
from typing import TYPE_CHECKING, Any

import pygame

from .. import bots, saves
from ..engine import (
    Action,
    Event,
    GameState,
    IllegalAction,
    Rules,
    apply,
    new_game,
    redact,
    view_for,
    waiting_on,
)
from ..physics.tray import Toss
from ..render import theme
from ..render.dice import draw_die, name_faces
from ..render.widgets import Banner
from ..ruleset.layout import Layout
from ..settings import BOT_SPEEDS
from ..table import chrome, dice_parts, playback, undoing
from ..table.bar import bar_controls
from ..table.choice import Choice, Chooser, Target
from ..table.part import PARTS, Part, Point
from ..table.regions import place, regions_for
from ..table.sprites import Shown, Sprite, Step
from ..table.widgets import Look, Widget
from .base import Control, Menu, Scene

if TYPE_CHECKING:
    from ..app import App
    from .setup import Seat

# Kept for callers that size a tray as the table does (the tray's own widget owns them).
DIE = dice_parts.DIE
TRACK_BAND = dice_parts.TRACK_BAND
TRAY = pygame.Rect(300, 112, 660, 400)
HURRY = 0.12  # seconds a bot waits when hurried (H)
GREY = (200, 196, 186)
HINT_SECONDS = 2.2
UNDO_W = 186  # the Undo button, at the action bar's right end


class TableScene(Scene):
    """A game in progress."""

    sees_all = False  # True: every hand and face is drawn (a replay, after the game)
    flows = True  # laid out for the window's shape (see table/regions.py)

    def __init__(self, app: App, rules: Rules, seats: list[Seat], options: dict[str, Any],
                 seed: int, state: GameState | None = None,
                 bots_rng: random.Random | None = None, saving: bool = True) -> None:
        super().__init__(app)
        self.saving = saving  # False: a demo, which never touches the autosave
        self.rules = rules
        self.seats = seats
        self.options = options
        self.seed = seed
        self.layout: Layout = rules.layout
        # A continued game arrives as the state its saved moves rebuilt.
        self.state: GameState = state or new_game(rules, [s.name for s in seats], options, seed)
        # The bots' choices come from a source that is saved with the game, so a continued
        # game plays on exactly as it would have; the dice's tumbling has its own.
        self.rng = bots_rng or random.Random(seed ^ 0xB07)
        self.toss_rng = random.Random(seed ^ 0x7055)
        self.save_problem = ""
        self.sprites: dict[str, Sprite] = {}
        self.steps: deque[Step] = deque()
        self.wait = 0.0
        self.toss: Toss | None = None
        self.toss_t = 0.0
        self.toss_bumps: list[Any] = []
        self.pending_fling: tuple[float, float, float, float] | None = None
        self.banner: tuple[str, tuple[int, int, int], float] | None = None
        self.toast: tuple[str, float] | None = None
        self.log: list[str] = []
        self.log_scroll = 0
        who = seats[self.state.current].name
        self.last_words = (f"{who} starts." if not self.state.log else
                           f"Welcome back: the game goes on with {who}.")
        self.bot_wait = 0.0
        self.hurry = False
        self.told_in_words = False  # the move being played back has the ruleset's words
        # Why Undo is greyed, worked out once per move (table/undoing.py).
        self.undo_cache: tuple[Any, str] | None = None
        self.show_odds = app.settings.show_odds
        self.muted = bool(getattr(app.sounds, "muted", False))
        self.menu = Menu()
        self.handoff_seen: int | None = None
        self.handoff_due = False
        self.results_shown = False
        # The person holding the laptop: the table draws only what this seat may see (None:
        # nobody yet, so only what is public). Set when a hand-off is answered, or when a
        # human seat acts; bots playing leave it with the last human.
        self.holder: int | None = None
        self.view: dict[str, Any] = view_for(self.state, None)
        self.chooser = Chooser(self.state, [s.name for s in seats])
        name_faces({face: style.label for face, style in rules.layout.faces.items()})
        self.mouse: tuple[int, int] = (-1, -1)
        self.asked = ""  # the prompt of the question the game waits on, for the header
        self.page = 0  # the action bar's page, when there are more buttons than fit
        self.ring: Target | None = None  # the glowing thing the keyboard's focus is on
        self.keyed = False  # the keyboard has moved the focus since the last decision
        # Drawing only when something changed: input, or what the pointer is over.
        self.dirty = True
        self.pointer: tuple[int, int] = (-1, -1)
        self.drawn_hover: tuple[Any, ...] | None = None
        self.laid_out: tuple[Any, int | None] | None = None  # the view the layout is for
        self.laid_out_view: dict[str, Any] | None = None
        self.sprite_zones = set(self.layout.tray) | {a.zone for a in self.layout.areas} | {
            a.zone for a in self.layout.player_zones}
        scores = [float(v or 0) for v in self.view["scores"]]
        self.shown = Shown(self.state.current, scores, list(scores), self._source_counts(),
                           self.state.round)
        # The regions of the canvas the table is drawn on (the window's shape; see draw).
        self.area_size = app.canvas.get_size()
        self.parts: list[Part] = [part for kind in PARTS for part in kind.build(self)]
        self.area = regions_for(self.area_size, any(p.wide for p in self.parts))
        self.relayout()
        self._settle()  # dice that start on the table (a pool in the tray) are laid out

    # --- the parts -----------------------------------------------------------

    def relayout(self) -> None:
        """Give every part its region (a card widget's height follows what it holds)."""
        for part, rect in zip(self.parts, place(self.parts, len(self.seats), self.area),
                              strict=True):
            part.rect = rect

    def resized(self, size: tuple[int, int]) -> None:
        """The canvas changed shape (the window was resized): lay the table out anew, and
        move the dice at rest with the parts they lie in."""
        old = self.tr.copy()
        self.area_size = size
        self.area = regions_for(size, any(p.wide for p in self.parts))
        self.relayout()
        new = self.tr
        for zone in {s.zone for s in self.sprites.values()}:
            for owner in {s.owner for s in self.sprites.values() if s.zone == zone}:
                for n, sprite in enumerate(self.zone_sprites(zone, owner)):
                    if sprite.goal is not None:
                        continue  # in flight: it lands where its part now is
                    if zone in self.layout.tray:  # where it came to rest, on the new felt
                        sprite.x = new.x + (sprite.x - old.x) * new.w / max(1, old.w)
                        sprite.y = new.y + (sprite.y - old.y) * new.h / max(1, old.h)
                    else:
                        sprite.x, sprite.y = self.slot(zone, owner, n)
        self.refresh_buttons()
        self.dirty = True

    def part(self, kind: type[Part]) -> Any:
        """The first part of a kind, or None."""
        return next((p for p in self.parts if isinstance(p, kind)), None)

    @property
    def tray_part(self) -> dice_parts.TrayPart | None:
        """The tray, when the ruleset tosses dice."""
        part: dice_parts.TrayPart | None = self.part(dice_parts.TrayPart)
        return part

    @property
    def tr(self) -> pygame.Rect:
        """The tray's rect (the centre region when there is no tray)."""
        tray = self.tray_part
        return tray.rect if tray is not None else self.area["centre"]

    @property
    def widgets(self) -> list[Widget]:
        """The card widgets on the table."""
        return [p.widget for p in self.parts if isinstance(p, chrome.CardPart)]

    def widget_regions(self) -> list[tuple[Widget, pygame.Rect]]:
        """Each card widget with the rect it is drawn in."""
        return [(p.widget, p.rect) for p in self.parts if isinstance(p, chrome.CardPart)]

    def regions(self) -> list[tuple[str, pygame.Rect]]:
        """Every part's name and rect, with the action bar and menu: for layout checks."""
        out = [(p.name, p.rect) for p in self.parts if p.rect.w and p.rect.h]
        return [*out, ("bar", self.area["bar"]), ("menu", self.area["menu"])]

    # --- helpers -----------------------------------------------------------

    def _source_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        if self.layout.source:
            content = self.view["zones"][self.layout.source]
            if self.rules.zones[self.layout.source].per_player:
                content = content[self.state.current]
            for entry in content if isinstance(content, list) else []:
                kind = entry[1]
                if kind is not None:
                    counts[kind] = counts.get(kind, 0) + 1
        return counts

    def colour(self, seat: int) -> tuple[int, int, int]:
        """A seat's player colour."""
        return theme.PLAYER_COLOURS[self.seats[seat].colour].rgb

    def mark(self, seat: int) -> str:
        """A seat's shape mark, so players are told apart without colour."""
        return theme.PLAYER_COLOURS[self.seats[seat].colour].mark

    def die_colour(self, kind: str) -> tuple[int, int, int]:
        """A die kind's colour from the layout (grey when the layout names none)."""
        return self.layout.dice_colours.get(kind, GREY)

    def face_label(self, face: str | None) -> str:
        """A face's name on screen."""
        if face is None:
            return "?"
        style = self.layout.faces.get(face)
        return style.label if style else str(face).replace("_", " ")

    @property
    def idle(self) -> bool:
        """No animation is playing: the table shows the engine's state."""
        return not self.steps and self.wait <= 0 and self.toss is None

    @property
    def my_turn(self) -> bool:
        """The table waits on the person holding the laptop, and nothing moves."""
        return (self.idle and not self.state.game_over and not self.is_bot(self.deciding)
                and self.holder == self.deciding)

    @property
    def animating(self) -> bool:
        """Dice rolling, pieces sliding, a banner showing, a score ticking, a bot to move."""
        return (not self.idle or self.banner is not None or self.handoff_due
                or self.toast is not None
                or any(sp.goal is not None for sp in self.sprites.values())
                or self.shown.scores != self.shown.score_goals
                or (not self.state.game_over and self.is_bot(self.deciding)))

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays this seat."""
        return self.seats[seat].kind != "human"

    def name(self, seat: int) -> str:
        """A seat's player name."""
        return self.seats[seat].name

    def hint(self, text: str) -> None:
        """A short note over the table for a moment (a click that did nothing, a key)."""
        self.toast = (text, HINT_SECONDS)

    # --- positions: each part answers for the zones it shows -------------------

    def source_point(self) -> Point:
        """Where dice come out of the cup (or appear, with no cup)."""
        cup = self.part(dice_parts.CupPart)
        if cup is not None:
            point: Point = cup.point()
            return point
        return (self.tr.right - DIE, self.tr.y + DIE)

    def entry_point(self, n: int) -> Point:
        """Where the n-th die drawn from the cup lands in the tray."""
        tray = self.tray_part
        return tray.spot(n, "right") if tray is not None else self.source_point()

    def slot(self, zone: str, owner: int | None, index: int) -> Point:
        """Where the index-th die of a zone sits, as the part showing it says."""
        for part in self.parts:
            point = part.where(zone, owner, index)
            if point is not None:
                return point
        return self.source_point()

    def sprite_size(self, sprite: Sprite) -> int:
        """How big a die is drawn where it is (or where it is flying to)."""
        for part in self.parts:
            size = part.die_size(sprite.zone, sprite.owner, sprite.goal is not None)
            if size is not None:
                return size
        return DIE

    def zone_sprites(self, zone: str, owner: int | None = None) -> list[Sprite]:
        """The sprites shown in a zone (one player's, for a per-player zone), in order."""
        return [s for s in self.sprites.values() if s.zone == zone and s.owner == owner]

    def row_rect(self, seat: int) -> pygame.Rect:
        """A player's row in the players column: what a click on a player hits."""
        players: chrome.PlayersPart = self.part(chrome.PlayersPart)
        return players.row_rect(seat)

    # --- playing actions ---------------------------------------------------

    @property
    def viewer(self) -> int | None:
        """The seat whose view the table shows: whoever holds the laptop."""
        return self.holder

    def take(self, action: Action) -> None:
        """Apply an action and queue its events, as the laptop's holder may see them."""
        if not self.is_bot(action.player):
            self.holder = action.player
        try:
            applied = apply(self.state, action)
        except IllegalAction as refused:
            # A choice the table built that the rules refuse: said, and nothing changes.
            self.chooser.cancel()
            self.hint(str(refused))
            self.chooser.refresh()
            return
        events = applied if self.sees_all else redact(applied, self.viewer, self.state)
        adef = self.rules.actions[action.id]
        self.log_line(f"{self.name(action.player)}: {adef.label}.")
        # Under the header too, until the move's own words come ("Ann: Pass.", not the
        # "Ann may respond." that asked her).
        self.last_words = f"{self.name(action.player)}: {adef.label}."
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

    def saved_game(self) -> saves.SavedGame:
        """The game as it will be written: enough to rebuild it exactly."""
        return saves.SavedGame(
            self.rules.id, self.rules.version,
            [saves.SavedSeat(s.name, s.kind, s.colour) for s in self.seats],
            dict(self.state.options), self.seed,
            [(a.player, a.id, a.args) for a in self.state.log], self.rng.getstate())

    def autosave(self) -> None:
        """Keep the game on disk after every move; a finished game goes to finished/."""
        if not self.saving:
            return
        problem = saves.try_write(self.saved_game())
        if problem is None:
            if self.save_problem:
                # The note goes once a save works again: the game is kept after all.
                self.save_problem = ""
                self.log_line("The game is saved again.")
            if self.state.game_over:
                saves.archive()
            return
        if not self.save_problem:
            # Once: the game goes on, and the players know it will not be kept.
            self.save_problem = problem
            self.log_line(f"This game cannot be saved ({problem}); play goes on.")
            self.last_words = "This game cannot be saved; play goes on."

    def closing(self) -> None:
        # Saved after every move already; this keeps a game nobody has moved in yet.
        if self.saving and not self.state.game_over:
            self.autosave()

    def _settle(self) -> float:
        """After playback: the display matches the engine exactly."""
        if not self.state.game_over:
            self._maybe_handoff()  # may change who holds the laptop, so it comes first
        self.view = view_for(self.state, self.viewer, everything=self.sees_all)
        self.shown.current = self.state.current
        self.shown.score_goals = [float(v or 0) for v in self.view["scores"]]
        self.shown.source = self._source_counts()
        self.shown.round = self.state.round
        self.shown.out = {s for s in range(len(self.seats)) if self.state.out[s]}
        on_table = set()
        for zname in self.sprite_zones:
            per_player = self.rules.zones[zname].per_player
            shown = self.view["zones"][zname]
            for owner, content in enumerate(shown if per_player else [shown]):
                if isinstance(content, dict):
                    continue  # hidden from this viewer: nothing to draw
                for n, (item_id, kind, face) in enumerate(content):
                    if item_id is None:
                        continue
                    on_table.add(item_id)
                    sprite = self.sprites.get(item_id)
                    where = owner if per_player else None
                    if sprite is None:
                        sx, sy = self.source_point()
                        sprite = self.sprites[item_id] = Sprite(item_id, kind, face, zname,
                                                                sx, sy)
                        if zname in self.layout.tray:
                            sprite.x, sprite.y = self.slot(zname, None, n)
                    sprite.face, sprite.zone, sprite.owner = face, zname, where
                    if zname not in self.layout.tray and sprite.goal is None:
                        # Set aside: in its slot (a row may have regrown to fit them all).
                        sprite.x, sprite.y = self.slot(zname, where, n)
        for gone in set(self.sprites) - on_table:
            del self.sprites[gone]
        if not self.state.pending:
            self.asked = ""
        self.ring, self.keyed = None, False  # a new decision: the first Tab starts over
        self.chooser.refresh()
        self.refresh_buttons()
        return 0.0

    def _maybe_handoff(self) -> None:
        """A human seat is asked to act: when it is not the one holding the laptop and the
        game hides things, the laptop is passed (the hand-off screen) before anything of
        theirs is drawn; otherwise they simply hold it now."""
        seat = self.deciding
        if self.state.game_over or self.is_bot(seat) or self.holder == seat:
            return
        humans = [s for s in range(len(self.seats)) if not self.is_bot(s)]
        needed = self.rules.hidden_information or self.app.settings.always_handoff
        if needed and len(humans) > 1:
            if self.handoff_seen != seat:
                self.handoff_seen = seat
                self.handoff_due = True  # shown from update(), once this scene is on top
            return
        self.holder = seat

    def handed(self, seat: int) -> None:
        """The hand-off was answered: `seat` holds the laptop; the table shows their view."""
        self.holder = seat
        self.handoff_seen = None
        self.view = view_for(self.state, seat)
        self.chooser.refresh()
        self.refresh_buttons()

    def handoff_words(self, seat: int) -> str:
        """Why the laptop goes to `seat`: their turn, or a question or a chance to respond
        on someone else's turn."""
        decision = view_for(self.state, None)["decision"]
        name = self.name(seat)
        if decision is not None and seat != self.state.current:
            if decision["kind"] == "window":
                return f"{name}, you may respond"
            return f"{name}, you are asked"
        return f"{name}'s turn"

    @property
    def deciding(self) -> int:
        """The seat the game waits on (whose turn it is, or who is asked to answer)."""
        seat = waiting_on(self.state)
        return self.state.current if seat is None else seat

    def log_line(self, text: str) -> None:
        """Add a line to the table's log."""
        self.log.append(text)
        self.log = self.log[-200:]
        self.log_scroll = 0

    def what_to_do(self) -> str:
        """The header's line: who the game waits on and what they can do."""
        header: chrome.HeaderPart = self.part(chrome.HeaderPart)
        return header.what_to_do()

    def steal_targets(self) -> set[int]:
        """Players a click on whose row takes or starts an action aimed at them."""
        if not self.my_turn:
            return set()
        return {int(t.value) for t in self.chooser.targets() if t.kind == "seat"}

    # --- buttons -------------------------------------------------------------

    def refresh_buttons(self) -> None:
        """The action bar and the menu buttons for what can be done now."""
        seat = self.deciding
        human_turn = self.my_turn
        choices = self.chooser.choices() if human_turn else []
        if not human_turn and not self.state.game_over and not self.chooser.building:
            # Greyed, so everyone sees what the game is about, with why on hover: the one
            # reason that holds now.
            reason = ("Wait for the dice to settle" if not self.idle else
                      f"It is {self.name(seat)}'s turn" if self.is_bot(seat) or (
                          self.holder == seat) else f"Pass the laptop to {self.name(seat)}")
            choices = [Choice(adef.label, f"action:{adef.id}", enabled=False, reason=reason,
                              key=adef.key.upper())
                       for adef in self.rules.actions.values()
                       if adef.by == "current" and not self.state.pending]
        undo = None if self.state.game_over else self.undo_choice()
        controls = self._bar(choices, room=UNDO_W + 12 if undo is not None else 0)
        if undo is not None:
            # At the bar's right end, on every page, so a misclick is always one press away.
            bar = self.area["bar"]
            controls.append(Control(pygame.Rect(bar.right - UNDO_W, bar.y, UNDO_W, bar.h),
                                    "Undo", self.undo, key="Ctrl+Z", enabled=undo.enabled,
                                    why_disabled=undo.reason, tag="undo"))
        menu = self.area["menu"]
        controls.append(Control(pygame.Rect(menu.x, menu.y, menu.w, 56), "Menu", self.pause,
                                key="Esc", tag="pause"))
        if self.layout.odds is not None:
            controls.append(Control(pygame.Rect(menu.x, menu.y + 62, menu.w, 50), "Odds",
                                    self.toggle_odds, key="O", tag="odds"))
        self.menu.set(controls)
        self.menu.show_focus = human_turn  # no ring to chase while a bot or the dice move
        focused = self.menu.focused
        if human_turn and not (focused.enabled and focused.tag not in ("pause", "odds",
                                                                       "undo")):
            # The player's first choice gets the keyboard focus: Enter does the obvious thing.
            for i, c in enumerate(controls):
                if c.enabled and c.tag not in ("pause", "odds", "undo") and not c.tag.startswith(
                        "page:"):
                    self.menu.focus = i
                    break

    _refresh_buttons = refresh_buttons

    def _bar(self, choices: list[Choice], room: int = 0) -> list[Control]:
        """The choices as the action bar's buttons, a page at a time when they do not fit
        (`room`: what is kept free at the bar's right end, for Undo)."""
        bar = self.area["bar"]
        if room:
            bar = pygame.Rect(bar.x, bar.y, bar.w - room, bar.h)
        controls, self.page = bar_controls(bar, choices, self.page, self.choose,
                                           self.turn_page)
        return controls

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
        """The pause menu."""
        from .pause import PauseScene

        self.app.push(PauseScene(self.app, self))

    def restart(self) -> None:
        """The same seats and options, new dice."""
        self.app.replace(TableScene(self.app, self.rules, self.seats, self.options,
                                    random.randrange(1 << 30)))

    def demo_toss(self, seed: int) -> None:
        """Toss every die in the cup across the tray, for show only (the benchmark's load):
        the engine's state is not touched."""
        tray = self.tray_part
        if tray is not None:
            tray.show_off(seed)

    # --- input -----------------------------------------------------------------

    def action_for_key(self, key: int) -> Action | None:
        """The legal action a key stands for, if any."""
        if not self.my_turn:
            return None
        toss = self.layout.toss_action
        if key == pygame.K_SPACE and toss and self.chooser.available(toss) and (
                self.chooser.building is None):
            return self.chooser.for_key(self.rules.actions[toss].key) or next(
                (c.action for c in self.chooser.choices()
                 if c.tag == f"action:{toss}" and c.enabled), None)
        for choice in self.chooser.choices():
            if choice.key and len(choice.key) == 1 and choice.enabled and (
                    choice.action is not None) and choice.step is None and (
                    key == pygame.key.key_code(choice.key.lower())):
                return choice.action
        return None

    def choice_for_key(self, key: int) -> Choice | None:
        """The enabled choice whose button shows this letter, on the holder's turn: an
        action, or the first step of one (Hunt: then click what to hunt)."""
        if not self.my_turn or key == pygame.K_SPACE:
            return None
        for choice in self.chooser.choices():
            if choice.key and len(choice.key) == 1 and choice.enabled and (
                    key == pygame.key.key_code(choice.key.lower())):
                return choice
        return None

    def needs_redraw(self) -> bool:
        """Something moves or counts down, input came, or the pointer is over something
        else that reacts (a card that grows, a button, a glowing target) than last drawn."""
        return self.dirty or self.animating or self.hover_key() != self.drawn_hover

    def hover_key(self) -> tuple[Any, ...]:
        """What under the pointer changes the picture: the button, the part, the thing."""
        pos = self.pointer
        thing = next((rect.topleft for part in self.parts for rect, _ in part.targets_at()
                      if rect.collidepoint(pos)), None)
        part = next((n for n, p in enumerate(self.parts) if p.rect.collidepoint(pos)), None)
        return (self.menu.at(pos), part, thing)

    def noticed(self, event: pygame.event.Event) -> None:
        """Input arrived: any but a bare pointer move changes what is drawn."""
        if event.type == pygame.MOUSEMOTION:
            self.pointer = event.pos
            if any(event.dict.get("buttons", ())):
                self.dirty = True  # a drag is drawn as it goes
        else:
            self.dirty = True

    def handle(self, event: pygame.event.Event) -> None:
        self.noticed(event)
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
                self.undo()
                return
            if event.key == pygame.K_ESCAPE:
                self.pause()
                return
            if event.key == pygame.K_F1:
                from .rules import RulesScene

                self.app.push(RulesScene(self.app, self.rules))
                return
            keyed = self.choice_for_key(event.key)
            if keyed is not None:
                # A game's own action key comes before the table's letters (H for Hunt, not
                # "hurry", while it is your turn to hunt).
                self.choose(keyed)
                return
            if event.key == pygame.K_o:
                self.toggle_odds()
                return
            if event.key == pygame.K_h:
                self.hurry = not self.hurry
                self.hint("Bots hurry" if self.hurry else "Bots take their time")
                return
            if event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
                self.scroll_log(3 if event.key == pygame.K_PAGEUP else -3)
                return
            if self.keyboard(event):
                return
            action = self.action_for_key(event.key)
            if action is not None:
                self.take(action)
                self.refresh_buttons()
                return
            if event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER) and not (
                    self.idle and not self.state.game_over
                    and not self.is_bot(self.deciding)):
                # An impatient Space while the dice roll must not press whatever button
                # happens to have the focus (it would open the menu): it does nothing.
                return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_log(event.y)
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
            self.refresh_buttons()

    def ring_targets(self) -> list[tuple[pygame.Rect, Target]]:
        """The glowing things on the table, in reading order, for the keyboard."""
        if not self.my_turn:
            return []
        glowing = self.chooser.targets()
        seen: dict[Target, pygame.Rect] = {}
        for part in self.parts:
            for rect, target in part.targets_at():
                if target in glowing and target not in seen:
                    seen[target] = rect
        return sorted(((r, t) for t, r in seen.items()), key=lambda rt: (rt[0].y // 40,
                                                                        rt[0].x))

    def keyboard(self, event: pygame.event.Event) -> bool:
        """Tab and the arrow keys move the focus over the glowing things, then the buttons;
        Enter or Space on a glowing thing clicks it. True when the key was used here."""
        targets = self.ring_targets()
        if not targets:
            self.ring = None
            return False
        order = [t for _, t in targets]
        buttons = [i for i, c in enumerate(self.menu.controls) if c.enabled]
        stops: list[Target | int] = [*order, *buttons]
        now: Target | int = self.ring if self.ring in order else self.menu.focus
        if not self.keyed and self.ring is None:
            now = -1  # the first Tab lands on the first glowing thing, not the 2nd button
        step = {pygame.K_TAB: -1 if event.mod & pygame.KMOD_SHIFT else 1,
                pygame.K_RIGHT: 1, pygame.K_DOWN: 1, pygame.K_LEFT: -1,
                pygame.K_UP: -1}.get(event.key)
        if step is not None:
            k = stops.index(now) if now in stops else (-1 if step > 0 else 0)
            nxt = stops[(k + step) % len(stops)]
            self.keyed = True
            if isinstance(nxt, Target):
                self.ring = nxt
                self.menu.show_focus = False
            else:
                self.ring = None
                self.menu.focus = nxt
                self.menu.show_focus = True
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and (
                self.ring in order):
            target, self.ring = self.ring, None
            assert target is not None
            at = order.index(target)
            self.click_target(target)
            # The ring stays where it was (on the die just marked), so the next Tab goes
            # on from there and reaches the buttons; back to the first thing only when
            # what glows has changed under it. (Going back to the first after every press
            # kept a player marking dice forever, never reaching Reroll.)
            after = [t for _, t in self.ring_targets()]
            self.ring = target if target in after else after[min(at, len(after) - 1)] \
                if after else None
            return True
        return False

    def draw_ring(self, canvas: pygame.Surface) -> None:
        """The keyboard's focus ring round the glowing thing it is on."""
        for rect, target in self.ring_targets():
            if target == self.ring:
                # Thick enough to survive the scaling to an 800x600 window (0.625).
                pygame.draw.rect(canvas, theme.INK, rect.inflate(20, 20), width=5,
                                 border_radius=14)
                pygame.draw.rect(canvas, theme.PARCHMENT_LIGHT, rect.inflate(10, 10),
                                 width=5, border_radius=11)

    def scroll_log(self, lines: int) -> None:
        """Scroll the log (positive: back in time)."""
        self.log_scroll = max(0, min(max(0, len(self.log) - 5), self.log_scroll + lines))

    # --- time -------------------------------------------------------------------

    def update(self, dt: float) -> None:
        if self.handoff_due and self.app.top is self:
            from .handoff import HandoffScene

            self.handoff_due = False
            seat = self.deciding
            self.app.push(HandoffScene(self.app, self.name(seat), self.colour(seat),
                                       lambda: self.handed(seat), self.handoff_words(seat)))
            return
        muted = bool(getattr(self.app.sounds, "muted", False))
        if muted != self.muted:
            self.muted = muted
            self.hint("Sound off" if muted else "Sound on")
        if self.toast is not None:
            text, left = self.toast
            self.toast = (text, left - dt) if left - dt > 0 else None
        for sprite in self.sprites.values():
            sprite.update(dt)
        goals = self.shown.score_goals
        for s, goal in enumerate(goals):
            cur = self.shown.scores[s]
            if cur != goal:
                step = max(abs(goal - cur) * min(1.0, dt * 6), dt * 8)
                self.shown.scores[s] = goal if abs(goal - cur) <= step else (
                    cur + step if goal > cur else cur - step)
        if self.banner is not None:
            text, colour, left = self.banner
            self.banner = (text, colour, left - dt) if left - dt > 0 else None
        if self.toss is not None:
            self._toss_frame(dt)
            return
        if self.wait > 0:
            self.wait -= dt
            return
        while self.steps and self.wait <= 0 and self.toss is None:
            beat = self.steps.popleft()
            self.wait = beat.start()
        if self.idle:
            self._bot_turn(dt)
        # A bot may just have moved: its playback comes before the results.
        if self.idle and not self.results_shown and self.state.game_over:
            self.results_shown = True
            from .results import ResultsScene

            self.app.push(ResultsScene(self.app, self))

    def _toss_frame(self, dt: float) -> None:
        """The tossed dice move along their paths (the tray's); the toss ends at rest."""
        tray = self.tray_part
        if tray is None:
            self.toss = None
            return
        tray.roll_on(dt)

    def _bot_turn(self, dt: float) -> None:
        seat = self.deciding
        if self.state.game_over or not self.is_bot(seat) or self.app.top is not self:
            return
        self.bot_wait += dt
        if self.bot_wait < (HURRY if self.hurry else BOT_SPEEDS[self.app.settings.bot_speed]):
            return
        self.bot_wait = 0.0
        self.take(bots.choose(self.seats[seat].kind, self.state, self.rng))
        self.refresh_buttons()

    # --- drawing ----------------------------------------------------------------

    def look(self) -> Look:
        """What the widgets draw from: the holder's view, and what a click would do."""
        live = self.my_turn
        return Look(self.rules, self.view, self.viewer, [s.name for s in self.seats],
                    [self.colour(s) for s in range(len(self.seats))], self.die_colour,
                    self.face_label, self.chooser.targets() if live else set(),
                    self.chooser.marked() if live else [], self.mouse, self.sees_all)

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
            if part.lifts and part.rect.collidepoint(self.mouse):
                hovered.append(part)  # a hovered card grows over its neighbours: drawn last
                continue
            part.draw(canvas, look)
        self.draw_sprites(canvas)
        for part in hovered:
            part.draw(canvas, look)
        self.menu.draw(canvas)
        if self.ring is not None:
            self.draw_ring(canvas)
        middle = self.tr
        if self.banner is not None:
            text, colour, left = self.banner
            Banner(text, colour).draw(canvas, pygame.Rect(middle.x - 40, middle.centery - 50,
                                                          middle.w + 80, 100),
                                      alpha=min(1.0, left * 3))
        if self.toast is not None:
            self.draw_toast(canvas, middle)
        self.drawn_hover = self.hover_key()

    def draw_sprites(self, canvas: pygame.Surface) -> None:
        """The dice outside the cup: those at rest top to bottom, then those in flight."""
        resting = sorted((s for s in self.sprites.values() if s.goal is None),
                         key=lambda s: s.y)
        flying = [s for s in self.sprites.values() if s.goal is not None]
        for sprite in resting + flying:
            draw_die(canvas, (sprite.x, sprite.y), self.sprite_size(sprite), sprite.angle,
                     self.die_colour(sprite.kind), sprite.face)

    def draw_toast(self, canvas: pygame.Surface, middle: pygame.Rect) -> None:
        """The hint of the moment, on a parchment tab at the top of the middle."""
        assert self.toast is not None
        text, _ = self.toast
        font = theme.font(theme.SMALL, True)
        words = theme.ellipsize(text, font, middle.w - 40)
        box = pygame.Rect(0, 0, font.size(words)[0] + 32, font.get_height() + 14)
        box.midtop = (middle.centerx, middle.y + 14)
        pygame.draw.rect(canvas, theme.PARCHMENT_LIGHT, box, border_radius=10)
        pygame.draw.rect(canvas, theme.INK, box, 2, border_radius=10)
        theme.text(canvas, words, box.center, theme.SMALL, theme.INK, bold=True,
                   anchor="center")

    # --- taking back a move (table/undoing.py) ------------------------------------------

    def undo_reason(self) -> str:
        """Why Undo cannot be pressed now, in words ("" when it can)."""
        return undoing.reason(self)

    def undo_choice(self) -> Choice:
        """Undo as a choice: enabled, or greyed with the reason it cannot be used."""
        return undoing.choice(self)

    def undo(self) -> None:
        """The seat the game waits on takes back its last action (Undo, Ctrl+Z)."""
        undoing.take_back_last(self)
