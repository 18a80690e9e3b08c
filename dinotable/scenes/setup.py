"""The setup scene: seats (name, human or bot, colour), the game's options, and start."""

from __future__ import annotations

import random
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

import pygame

from ..engine import Rules, option_applies
from ..names import allowed_in_name, clean_name
from ..render import theme
from ..settings import BOT_SPEEDS
from ..table.session import Seat as Seat  # where callers have always found it
from .base import Control, Menu, Scene, shortcut
from .keeping import keep_unfinished, tell_kept

if TYPE_CHECKING:
    from ..app import App
    from ..companion.link import PhoneLink

DEFAULT_NAMES = ["Ann", "Ben", "Cat", "Dev", "Eli", "Fay"]
SETUP_NAME_MAX = 12  # what the seat field shows in full; below the names.NAME_MAX limit
# The search bot's strengths (gentle, fair, sharp) come after the bots that play at once.
SEAT_KINDS = ["human", "heuristic", "random", "search:gentle", "search", "search:sharp"]
KIND_LABELS = {"human": "Person", "heuristic": "Bot (clever)", "random": "Bot (wild)",
               "search:gentle": "Bot (gentle)", "search": "Bot (fair)",
               "search:sharp": "Bot (sharp)"}


def remembered_names(names: list[str]) -> list[str]:
    """Names typed last time first, then the defaults nobody has taken (case aside)."""
    out: list[str] = []
    for name in [*names, *DEFAULT_NAMES]:
        name = clean_name(name)[:SETUP_NAME_MAX].strip()
        if name and name.lower() not in {n.lower() for n in out}:
            out.append(name)
    return out


ROW_W = 1060  # a seat's row at 1280x720: name, person or bot, colour, Remove


def option_words(value: Any) -> str:
    """An option's value as a player reads it: a switch is On or Off, never True/False."""
    if isinstance(value, bool):
        return "On" if value else "Off"
    return str(value)


class Spacing(NamedTuple):
    """How tall the seats' rows and the settings' cells are, and how far apart."""

    seat_h: int
    seat_pitch: int
    cell_h: int
    cell_pitch: int


# The roomiest first; many seats and settings on a short canvas (Dino Dude Ranch's four
# or five seats at 1280x720) take the closer rows rather than run under Back and Start!.
# Never below 48 px: a narrow setting's label still has room for two lines.
SPACINGS = (Spacing(52, 60, 50, 58), Spacing(50, 56, 48, 54), Spacing(48, 52, 48, 52),
            Spacing(46, 50, 48, 50))


class SetupScene(Scene):
    """Who plays, and with which options; laid out for the window's shape."""

    flows = True

    def __init__(self, app: App, rules: Rules, seats: list[Seat] | None = None,
                 options: dict[str, Any] | None = None) -> None:
        super().__init__(app)
        self.rules = rules
        n = max(rules.min_players, min(3, rules.max_players))
        names = remembered_names(app.settings.names)
        self.seats = seats or [Seat(names[i], "human" if i < n - 1 else "heuristic", i)
                               for i in range(n)]
        self.options = {name: o.default for name, o in rules.options.items()}
        self.options.update(options or {})
        self.menu = Menu()
        self.message = ""
        self.rebuild(keep_focus=False)

    @property
    def typing(self) -> bool:
        """True while a name field has the focus (so M types an M instead of muting)."""
        return bool(self.menu.controls) and self.menu.focused.kind == "field"

    # --- controls --------------------------------------------------------

    def rebuild(self, keep_focus: bool = True) -> None:
        """Lay out the controls for the current seats and options, on the canvas the
        window gives (a narrow one narrows the name fields): the roomiest spacing that
        leaves every row clear of Back and Start!."""
        self.size = self.app.canvas.get_size()
        for spacing in SPACINGS:
            controls, bottom = self.controls_at(spacing)
            if bottom <= self.menu_bottom():
                break
        self.menu.set(controls, keep_focus=keep_focus)

    def menu_bottom(self) -> int:
        """How far down the seats and settings may reach: above Back and Start!."""
        return self.size[1] - 12 - 66 - 10

    def controls_at(self, spacing: Spacing) -> tuple[list[Control], int]:
        """The controls with rows spaced as `spacing` says, and how far down they reach."""
        size = self.size
        row_w = min(ROW_W, size[0] - 60)
        left = (size[0] - row_w) // 2
        name_w = 420 - (ROW_W - row_w)
        controls: list[Control] = []
        y = 132
        seat_h = spacing.seat_h
        for i, seat in enumerate(self.seats):
            colour = theme.PLAYER_COLOURS[seat.colour]
            x = left + name_w + 15
            controls.append(Control(pygame.Rect(left, y, name_w, seat_h), f"Seat {i + 1}",
                                    kind="field", value=seat.name, colour=colour.rgb,
                                    on_text=partial(self.type_name, seat),
                                    tag=f"name:{i}"))
            controls.append(Control(pygame.Rect(x, y, 290, seat_h), "", kind="stepper",
                                    value=KIND_LABELS[seat.kind],
                                    on_left=partial(self.cycle_kind, seat, -1),
                                    on_right=partial(self.cycle_kind, seat, 1),
                                    tag=f"kind:{i}"))
            controls.append(Control(pygame.Rect(x + 305, y, 200, seat_h), "", kind="stepper",
                                    value=colour.name,
                                    on_left=partial(self.cycle_colour, seat, -1),
                                    on_right=partial(self.cycle_colour, seat, 1),
                                    tag=f"colour:{i}"))
            can_remove = len(self.seats) > self.rules.min_players
            controls.append(Control(pygame.Rect(x + 520, y, 105, seat_h), "Remove",
                                    partial(self.remove_seat, i), enabled=can_remove,
                                    why_disabled=f"{self.rules.name} needs at least "
                                                 f"{self.rules.min_players} players",
                                    tag=f"remove:{i}"))
            y += spacing.seat_pitch
        if len(self.seats) < self.rules.max_players:
            controls.append(Control(pygame.Rect(left, y, 300, seat_h - 2), "Add a seat",
                                    self.add_seat, key="+", tag="add"))
            y += spacing.seat_pitch + 2
        # The settings sit in two columns under the seats, so six seats still fit; a narrow
        # window puts them in one column, wide enough for their words, while they fit.
        # An option that does not matter with the others as chosen (a party game's goal in
        # a standard game) is not offered; it comes back when it matters. A hidden option
        # (the edition older saves replay under) is never offered.
        offered = {name: o for name, o in self.rules.options.items()
                   if not o.hidden and option_applies(o, self.options)}
        settings_n = len(offered) + 4
        pitch = spacing.cell_pitch
        cols = 1 if row_w < ROW_W and (
            y + settings_n * pitch - (pitch - spacing.cell_h) <= self.menu_bottom()) else 2
        cell_w = (row_w - 20 * (cols - 1)) // cols
        grid = [pygame.Rect(left + col * (cell_w + 20), 0, cell_w, spacing.cell_h)
                for col in range(cols)]
        cells = iter(range(100))

        def cell() -> pygame.Rect:
            n = next(cells)
            return grid[n % cols].move(0, y + (n // cols) * pitch)

        for name, o in offered.items():
            controls.append(Control(cell(), o.label or name,
                                    kind="stepper", value=option_words(self.options[name]),
                                    on_left=partial(self.step_option, name, -1),
                                    on_right=partial(self.step_option, name, 1),
                                    tag=f"option:{name}"))
        settings = self.app.settings
        controls.append(Control(cell(), "Bot speed", kind="stepper",
                                value=settings.bot_speed.title(),
                                on_left=lambda: self.step_speed(-1),
                                on_right=lambda: self.step_speed(1), tag="speed"))
        volume = "Muted" if self.app.sounds.muted else f"{round(settings.volume * 100)}%"
        controls.append(Control(cell(), "Sound (M mutes)", kind="stepper",
                                value=volume, on_left=partial(self.step_volume, -1),
                                on_right=partial(self.step_volume, 1), tag="volume"))
        handoff = "Every turn" if settings.always_handoff else (
            "Every turn (secret cards)" if self.rules.hidden_information else "Only if needed")
        controls.append(Control(cell(), "Pass the laptop",
                                kind="stepper", value=handoff, on_left=self.toggle_handoff,
                                on_right=self.toggle_handoff, tag="handoff"))
        controls.append(Control(cell(), "Hands on phones", kind="stepper",
                                value="On" if settings.phones else "Off",
                                on_left=self.toggle_phones, on_right=self.toggle_phones,
                                tag="phones"))
        reach = max(c.rect.bottom for c in controls)
        bottom = size[1] - 12
        controls.append(Control(pygame.Rect(left + row_w - 290, bottom - 66, 290, 66),
                                "Start!", self.start, key="Enter", tag="start"))
        controls.append(Control(pygame.Rect(left, bottom - 60, 250, 56), "Back", self.back,
                                key="Esc", tag="back"))
        return controls, reach

    def type_name(self, seat: Seat, ch: str) -> None:
        """Edit a seat's name from the keyboard."""
        if ch == "\b":
            seat.name = seat.name[:-1]
        elif allowed_in_name(ch) and len(seat.name) < SETUP_NAME_MAX:
            seat.name += ch
        self.rebuild()

    def cycle_kind(self, seat: Seat, step: int) -> None:
        """Person or bot."""
        seat.kind = SEAT_KINDS[(SEAT_KINDS.index(seat.kind) + step) % len(SEAT_KINDS)]
        self.rebuild()

    def cycle_colour(self, seat: Seat, step: int) -> None:
        """The next colour nobody else has."""
        taken = {s.colour for s in self.seats if s is not seat}
        n = len(theme.PLAYER_COLOURS)
        c = seat.colour
        for _ in range(n):
            c = (c + step) % n
            if c not in taken:
                break
        seat.colour = c
        self.rebuild()

    def add_seat(self) -> None:
        """One more seat, a person by default."""
        if len(self.seats) >= self.rules.max_players:
            return
        used_names = {s.name.lower() for s in self.seats}
        used_colours = {s.colour for s in self.seats}
        name = next(n for n in [*remembered_names(self.app.settings.names), "Gus", "Hal"]
                    if n.lower() not in used_names)
        colour = next(c for c in range(len(theme.PLAYER_COLOURS)) if c not in used_colours)
        self.seats.append(Seat(name, "human", colour))
        self.rebuild()

    def remove_seat(self, index: int) -> None:
        """Take a seat away."""
        if len(self.seats) > self.rules.min_players:
            del self.seats[index]
            self.rebuild()

    def step_option(self, name: str, step: int) -> None:
        """Change a number option within its range, or cycle a choice/switch."""
        o = self.rules.options[name]
        value = self.options[name]
        if o.choices:
            i = (list(o.choices).index(value) + step) % len(o.choices)
            self.options[name] = o.choices[i]
        elif isinstance(o.default, bool):
            self.options[name] = not value
        elif isinstance(o.default, int):
            new = value + step
            if o.minimum is not None:
                new = max(o.minimum, new)
            if o.maximum is not None:
                new = min(o.maximum, new)
            self.options[name] = new
        self.rebuild()

    def step_speed(self, step: int) -> None:
        """Slow, normal or fast bots."""
        speeds = list(BOT_SPEEDS)
        s = self.app.settings
        s.bot_speed = speeds[(speeds.index(s.bot_speed) + step) % len(speeds)]
        s.save()
        self.rebuild()

    def step_volume(self, step: int) -> None:
        """Louder or quieter in tenths; turning it up unmutes."""
        s = self.app.settings
        s.volume = round(min(1.0, max(0.0, s.volume + step / 10)), 1)
        self.app.sounds.set_volume(s.volume)
        if step > 0 and self.app.sounds.muted:
            self.app.sounds.toggle_mute()
        s.muted = self.app.sounds.muted
        s.save()
        self.app.sounds.play("bank")  # hear the new level
        self.rebuild()

    def toggle_handoff(self) -> None:
        """Show the pass-the-laptop screen every turn, or only when cards are secret."""
        s = self.app.settings
        s.always_handoff = not s.always_handoff
        s.save()
        self.rebuild()

    def toggle_phones(self) -> None:
        """People join from their phones (their hands are there, not on the laptop), or
        everyone plays at the laptop."""
        s = self.app.settings
        s.phones = not s.phones
        s.save()
        self.rebuild()

    def names_problem(self) -> str:
        """Why the seats cannot start, or ''."""
        names = [s.name.strip() for s in self.seats]
        if any(not n for n in names):
            return "Every seat needs a name."
        if len(set(n.lower() for n in names)) != len(names):
            return "Two seats have the same name."
        return ""

    def start(self) -> None:
        """Sit down at the table."""
        problem = self.names_problem()
        if problem:
            self.message = problem
            return
        from .table import TableScene

        for seat in self.seats:
            seat.name = seat.name.strip()
        self.remember_names()
        kept = keep_unfinished()
        table = TableScene(self.app, self.rules, list(self.seats), dict(self.options),
                           random.randrange(1 << 30))
        self.app.push(table)
        tell_kept(table, kept)
        if self.app.settings.phones:
            table.phones_on()

    def remember_names(self) -> None:
        """Keep the seats' names for the next setup (settings.json in the user data folder)."""
        s = self.app.settings
        s.names = [seat.name for seat in self.seats]
        s.save()

    def back(self) -> None:
        """Back to the title."""
        self.app.pop()

    def handle(self, event: pygame.event.Event) -> None:
        if shortcut(event, {pygame.K_ESCAPE: self.back}):
            return
        if (event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
                and self.menu.controls and self.menu.focused.kind != "button"):
            # Enter on a name (or a stepper, which Enter cannot press) means "let's play",
            # as the Start button's key says; on a button it presses that button.
            self.start()
            return
        if self.menu.handle(event):
            self.message = ""
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_PLUS, pygame.K_KP_PLUS):
            self.add_seat()

    def draw(self, canvas: pygame.Surface) -> None:
        if canvas.get_size() != self.size:
            self.rebuild()  # the window was resized
        middle = self.size[0] // 2
        theme.draw_table_background(canvas)
        theme.text(canvas, self.rules.name, (middle, 44), theme.TITLE_SMALL, theme.PARCHMENT,
                   bold=True, anchor="center", tight=True)
        ask = "Who is playing? Type a name, choose a person or a bot, then Start."
        size = theme.fit_size(ask, self.size[0] - 40, theme.BODY, floor=theme.SMALL)
        theme.text(canvas, ask, (middle, 100), size, theme.PARCHMENT, anchor="center",
                   tight=True)
        self.menu.draw(canvas)
        if self.message:
            # Between Back and Start, in smaller type if it must.
            room = self.menu.find("start").rect.x - self.menu.find("back").rect.right - 20
            size = theme.fit_size(self.message, room, theme.BODY, bold=True, floor=theme.TINY)
            words = theme.ellipsize(self.message, theme.font(size, True), room)
            x = (self.menu.find("start").rect.x + self.menu.find("back").rect.right) // 2
            theme.text(canvas, words, (x, self.size[1] - 44), size, theme.DANGER_LIGHT,
                       bold=True, anchor="center")


def start_table(app: App, ruleset: str, players: list[str] | None = None,
                bots: list[str] | None = None, seed: int | None = None,
                options: dict[str, Any] | None = None, link: PhoneLink | None = None
                ) -> None:
    """`dinotable play`: straight to a table with named seats (`link`: `--phones`, its
    server already serving; the table shows each seat's code to join by)."""
    from ..ruleset import load_by_id
    from .table import TableScene

    rules = load_by_id(ruleset)
    # `play` has checked the names; cleaning again keeps any other caller within the limits.
    names = [clean_name(n) for n in players] if players else DEFAULT_NAMES[
        :max(rules.min_players, 2)]
    kinds = list(bots or [])
    kinds += ["human"] * (len(names) - len(kinds))
    seats = [Seat(n, k, i) for i, (n, k) in enumerate(zip(names, kinds, strict=True))]
    setup = SetupScene(app, rules, seats, options)
    app.push(setup)
    kept = keep_unfinished()
    table = TableScene(app, rules, seats, setup.options,
                       random.randrange(1 << 30) if seed is None else seed, link=link)
    app.push(table)
    tell_kept(table, kept)
    if link is not None:
        table.phones_on()
