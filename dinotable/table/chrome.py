"""The table's frame: the header (whose turn, what to do, the last words), the players
column, the log, the card a click pinned, and the note when a game cannot be saved.
Wording here is the table's own, never a game's."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pygame

from ..engine import applies, option_applies, shown_value, view_for
from ..narrate import phase_words
from ..render import theme
from ..render.game_log import draw_log
from ..render.plates import name_plate
from ..render.widgets import Banner, Panel
from . import player_boards
from .areas import Areas, inner
from .choice import Target
from .part import Part, Point
from .reading import Zoom, draw_pinned, read_card, show_read
from .registry import register

if TYPE_CHECKING:
    from .host import PartHost
    from .widgets import Look

PLAYER_DIE = 18  # a die kept in front of a player, under their name plate


@register
class HeaderPart(Part):
    """Whose turn it is, one line of what to do, and the last thing that happened."""

    layer = 0  # the frame, under what stands beside it
    name = "header"
    region = "header"
    grow = True

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        host = self.host
        head = self.rect
        seat = host.shown.current
        if host.state.game_over and host.idle:
            title, colour = "Game over", theme.GOLD
        else:
            who = host.name(seat)
            title = f"{who}'s turn" + (" (bot)" if host.is_bot(seat) else "")
            colour = host.colour(seat)
        # The banner takes up to 560 px; a narrow window leaves the words more of the line.
        banner_w = min(560, head.w * 45 // 100)
        Banner(title, colour).draw(canvas, pygame.Rect(head.x, head.y, banner_w, head.h))
        left = head.x + banner_w + 20
        width = head.right - left
        what = self.what_to_do()
        size = theme.fit_size(what, width, theme.BODY, bold=True, floor=theme.SMALL)
        font = theme.font(size, True)
        if font.size(what)[0] <= width:
            theme.text(canvas, what, (left, head.y + 8), size, theme.PARCHMENT, bold=True)
            words_at = (left, head.y + 46)
        else:
            # Still too long at the smaller type: two lines, the last words close under
            # them; only a third line's worth is cut.
            lines = theme.wrap(what, font, width)
            step = 25
            if len(lines) > 2:
                # Three lines of the smallest type, whole, in place of the last thing said
                # (the log tells it too); only a fourth line's worth is cut.
                size, step = theme.TINY, 22
                font = theme.font(size, True)
                lines = theme.wrap(what, font, width)
                if len(lines) > 3:
                    lines = [*lines[:2], theme.ellipsize(" ".join(lines[2:]), font, width)]
            for n, line in enumerate(lines):
                theme.text(canvas, line, (left, head.y + 4 + step * n), size, theme.PARCHMENT,
                           bold=True, tight=True)
            if len(lines) > 2:
                return
            self.last_words(canvas, (left, head.y + 8 + 25 * len(lines)), width, tight=True)
            return
        self.last_words(canvas, words_at, width)

    def last_words(self, canvas: pygame.Surface, at: tuple[int, int], width: int,
                   tight: bool = False) -> None:
        """The last thing that happened, under what to do: whole, in smaller type or on a
        second line where the header has room for one; cut only past that."""
        words = self.host.last_words
        size = theme.fit_size(words, width, theme.SMALL, floor=theme.TINY)
        font = theme.font(size)
        lines = theme.wrap(words, font, width) if font.size(words)[0] > width else [words]
        step = font.get_linesize() - 6 if tight else font.get_linesize() - 4
        room = max(1, (self.rect.bottom - at[1]) // step)
        if len(lines) > room:
            lines = [*lines[:room - 1], theme.ellipsize(" ".join(lines[room - 1:]), font, width)]
        for n, line in enumerate(lines):
            theme.text(canvas, line, (at[0], at[1] + step * n), size, theme.PARCHMENT,
                       tight=tight)

    def what_to_do(self) -> str:
        """One line telling everyone who the game waits on and what they can do."""
        host = self.host
        seat = host.deciding
        if host.state.game_over and host.idle:
            # Told like any result: once the last dice have landed, not as they leave.
            return "The game is over."
        if host.toss is not None:
            return "Watch the dice..."
        if not host.idle:
            return "Watch the table..."
        name = host.name(seat)
        if host.sees_all:  # a replay: nobody plays here, the viewer steps through
            return f"{name} plays next: press > to see what they did."
        decision = host.view.get("decision") or view_for(host.state, None)["decision"]
        if decision is not None and decision["kind"] == "window":
            asked = f"{name} may respond"
            return asked + (" (thinking...)" if host.is_bot(seat) else
                            " on their phone." if host.on_phone(seat) else
                            ": play a card or press Pass.")
        waiting = host.is_bot(seat) or host.viewer != seat
        if decision is not None and waiting:
            # Everyone reads who must answer; the one asked reads what to click instead.
            return (host.asked or f"{name} must answer") + (
                " (thinking...)" if host.is_bot(seat) else
                " (on their phone)" if host.on_phone(seat) else "")
        if host.is_bot(seat):
            # H hurries the bots at a game; in the demo any key leaves instead.
            return f"{name} is thinking{thinking_dots()}" + (
                "" if host.demo else " (H to hurry)")
        if host.on_phone(seat):
            return f"{name} is playing on their phone."
        if host.viewer != seat:
            return f"Pass the laptop to {name}."
        chooser = host.chooser
        if chooser.building is not None or chooser.ready is not None:
            return chooser.prompt()
        choices = chooser.choices()
        labels = list(dict.fromkeys(host.rules.actions[c.tag.split(":")[-1]].label
                                    if c.tag.startswith("action:") else c.label.split(":")[0]
                                    for c in choices if c.enabled))
        toss = host.layout.toss_action
        if toss and chooser.available(toss):
            toss_label = host.rules.actions[toss].label
            others = [lab for lab in labels if lab != toss_label]
            tail = f", or {' or '.join(others)}" if others else ""
            return f"{name}: drag or press Space to {toss_label.lower()}{tail}."
        seats = {t.value for t in chooser.targets() if t.kind == "seat"}
        if seats and all(c.tag.split(":")[0] in host.rules.actions or c.tag.startswith(
                "start:") for c in choices):
            label = choices[0].label.split(":")[0].lower()
            return f"{name}: click a glowing player to {label} them."
        if any(t.kind in ("item", "space") for t in chooser.targets()):
            return f"{name}: click something glowing, or choose " + " or ".join(labels) + "."
        return f"{name}: choose " + " or ".join(labels) + "."


PLATE_H = 38  # a name plate in a player's area, of a player whose turn it is not


@register
class PlayersPart(Part):
    """The players column: a name plate per seat with the score, what each player keeps
    in front of them and their counters; a click on a glowing row picks that player."""

    layer = 0  # the frame, under what stands beside it
    name = "players"
    region = "players"
    shrinks = False

    def __init__(self, host: PartHost) -> None:
        super().__init__(host)
        # A card game's players' areas: each player's own zones under their plate.
        self.areas = Areas.of(host)
        self.zoom: Zoom = host.zoom  # the table's one card being read
        # The areas' heights, worked out once per view and column (see `area_heights`).
        self._heights: tuple[tuple[object, ...], object, list[int]] | None = None
        if self.areas is not None:
            self.grow = self.lifts = True
            # Areas holding boards ask for more of the width: a board beside each player's
            # name leaves their cards a line of their own.
            self.wide = 40 if self.areas.board else 32

    def grid(self) -> tuple[int, int]:
        """Columns and rows of the players' areas: two columns for five or more players
        when the column is wide enough."""
        seats = len(self.host.seats)
        # Areas that hold a board each are short of height sooner than of width.
        wide = 300 if self.areas is not None and self.areas.board else 400
        cols = 2 if seats >= 5 and self.rect.w >= wide else 1
        if self.areas is not None and self.areas.board and seats >= 4 and self.rect.h:
            # Areas holding boards stand in one column, their zones wide enough to read,
            # unless the boards' spaces would be too small to read there but not in two.
            one = self.board_cell(1)
            cols = 2 if one < player_boards.READABLE and self.board_cell(2) > one else 1
        return cols, -(-seats // cols)

    def readable_board(self, width: int, least: int) -> int:
        """The height, from `least`, of an area whose board's spaces read (their points)."""
        assert self.areas is not None
        for h in range(least, least + 200, 4):
            area = pygame.Rect(0, 0, width, h - 4)
            cell = player_boards.split_area(self.host.rules, self.areas.board, area,
                                            Areas.LINE, self.areas.reflow, PLATE_H)[0]
            if cell >= player_boards.READABLE:
                return h
        return least

    def board_cell(self, cols: int) -> int:
        """The space size of the boards in the players' areas laid out in `cols` columns."""
        assert self.areas is not None
        rows = -(-len(self.host.seats) // cols)
        area = pygame.Rect(0, 0, (self.rect.w - 20 - 8 * (cols - 1)) // cols,
                           (self.rect.h - 50) // rows - 4)
        return player_boards.split_area(self.host.rules, self.areas.board, inner(area),
                                        Areas.LINE, self.areas.reflow, PLATE_H)[0]

    def area_rect(self, seat: int) -> pygame.Rect:
        """A player's area: the name plate, and their zones under it."""
        cols, _ = self.grid()
        top = self.rect.y + 46  # the round is in the title
        w = (self.rect.w - 20 - 8 * (cols - 1)) // cols
        heights = self.area_heights()
        row, col = divmod(seat, cols)
        return pygame.Rect(self.rect.x + 10 + col * (w + 8), top + sum(heights[:row]), w,
                           heights[row] - 4)

    def area_heights(self) -> list[int]:
        """How tall each row of players' areas is: alike while everyone's cards fit; else
        a player with few cards keeps what they need and the others share the rest, so a
        "+N more" shows only when the column has no room left."""
        host, areas = self.host, self.areas
        assert areas is not None
        cols, rows = self.grid()
        room = self.rect.bottom - 4 - (self.rect.y + 46)
        key = (tuple(self.rect), cols, len(host.seats), host.shown.current)
        if self._heights is not None and self._heights[0] == key and (
                self._heights[1] is host.view):
            return self._heights[2]
        look = host.look()
        width = (self.rect.w - 20 - 8 * (cols - 1)) // cols - 8
        need = [0] * rows
        for s in range(len(host.seats)):
            # The plate, the gaps round the zones, and the lines of chips they fill.
            want = self.plate_h(s) + 8 + areas.height_for(s, look, width,
                                                         self.counters_text(s, look),
                                                         self.plate_h(s))
            need[s // cols] = max(need[s // cols], want)
        heights = share_room(need, room)
        # Short of room, the player whose turn it is is served first: their cards are the
        # ones in play. Where areas hold boards, the one holding the laptop is (their board
        # is the large one, their cards the ones they play); the others keep at least their
        # plate and a line, beside which their board still reads.
        seat = host.shown.current
        if areas.board and look.viewer is not None:
            seat = look.viewer
        first = seat // cols if 0 <= seat < len(host.seats) else 0
        if rows > 1 and heights[first] < need[first]:
            least = [max(self.plate_h(s) for s in range(len(host.seats))
                         if s // cols == row) + 8 + Areas.LINE for row in range(rows)]
            if areas.board:
                least = [self.readable_board(width, h) for h in least]
            mine = max(heights[first], min(need[first], room - sum(least) + least[first]))
            rest = share_room(need[:first] + need[first + 1:], room - mine)
            heights = [*rest[:first], mine, *rest[first:]]
        self._heights = (key, host.view, heights)
        return heights

    @property
    def has_strip(self) -> bool:
        layout = self.host.layout
        return bool(layout.player_zones or layout.player_counters)

    def row_height(self, seats: int | None = None) -> int:
        """A player's row: the plate, and a strip below it when they have things; rows
        get shorter as seats are added so six still fit."""
        seats = seats or len(self.host.seats)
        want = 92 if self.has_strip else 56
        room = self.rect.h - 96 if self.rect.h else 478 - 96
        return max(44 if self.has_strip else 36, min(want, room // max(1, seats)))

    def wanted(self, seats: int) -> int:
        want = 92 if self.has_strip else 56
        return max(400, min(478, 52 + seats * want + 44))

    def plate_rect(self, seat: int) -> pygame.Rect:
        """A player's name plate."""
        if self.areas is not None:
            area = self.area_rect(seat)
            h = self.plate_h(seat) if area.h >= 75 else 36
            return pygame.Rect(area.x, area.y, self.areas.plate_w(seat, self.host.look(), area,
                                                                   h), h)
        row = self.row_height()
        plate_h = min(50, row - (30 if self.has_strip else 6))
        return pygame.Rect(self.rect.x + 10, self.rect.y + 52 + seat * row,
                           self.rect.w - 20, plate_h)

    def plate_h(self, seat: int) -> int:
        """A name plate's height in a player's area: the one whose turn it is stacks the
        name over YOUR TURN; the others' one line leaves their cards a line more."""
        host = self.host
        active = seat == host.shown.current and not (host.state.game_over and host.idle)
        return 46 if active else PLATE_H

    def row_rect(self, seat: int) -> pygame.Rect:
        """A player's whole row (plate and strip): what a click on a player hits."""
        if self.areas is not None:
            return self.area_rect(seat)
        plate = self.plate_rect(seat)
        return pygame.Rect(plate.x, plate.y, plate.w, self.row_height() - 4)

    def strip_y(self, seat: int) -> int:
        return self.plate_rect(seat).bottom + 4 + PLAYER_DIE // 2

    def counters(self, seat: int, look: Look) -> list[tuple[str, str, str]]:
        """Each counter beside a player's name: (its variable, its label, its value shown)."""
        shown_vars = look.view["player_vars"][seat]
        start = self.host.state.rules.player_vars  # an indexed value shows what changed
        return [(c.var, c.label, shown_value(shown_vars[c.var], start.get(c.var)))
                for c in self.host.layout.player_counters
                if applies(c.applies_when, self.host.state.options)]

    def counters_text(self, seat: int, look: Look) -> str:
        return "  ".join(f"{label}: {value}" for _, label, value in self.counters(seat, look))

    def room_for_dice(self, seat: int) -> int:
        """How many kept dice fit left of the counters, with room for a count after them."""
        plate = self.plate_rect(seat)
        look = self.host.look()
        text = self.counters_text(seat, look)
        used = theme.font(theme.TINY, True).size(text)[0] + 12 if text else 0
        room = plate.w - 12 - used - 40  # the count "×12" after the dice
        return max(1, room // (PLAYER_DIE + 2))

    def where(self, zone: str, owner: int | None, n: int) -> Point | None:
        if owner is None or zone not in {a.zone for a in self.host.layout.player_zones}:
            return None
        plate = self.plate_rect(owner)
        n = min(n, self.room_for_dice(owner) - 1)
        return (plate.x + 6 + PLAYER_DIE / 2 + n * (PLAYER_DIE + 2), float(self.strip_y(owner)))

    def die_size(self, zone: str, owner: int | None, flying: bool) -> int | None:
        if owner is None or zone not in {a.zone for a in self.host.layout.player_zones}:
            return None
        return PLAYER_DIE + 12 if flying else PLAYER_DIE

    def hit(self, pos: tuple[int, int]) -> Target | None:
        if self.areas is not None:
            card = self.areas.hit(pos)
            if card is not None:
                return card
        for seat in self.host.steal_targets():
            if self.row_rect(seat).collidepoint(pos):
                return Target("seat", seat)
        return None

    def targets_at(self) -> list[tuple[pygame.Rect, Target]]:
        cards = list(self.areas.hits) if self.areas is not None else []
        # What lies in a player's area is hit before the area itself (drawn over it): a
        # space of their board rather than the player.
        return [(self.row_rect(s), Target("seat", s))
                for s in sorted(self.host.steal_targets())] + cards

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.zoom.pinned is None \
                and any(self.row_rect(s).collidepoint(event.pos)
                        for s in self.host.steal_targets()):
            return False  # a player to choose, clicked on their ranch: the table takes it
        return self.areas is not None and read_card(self.host, self.areas, self.zoom, event)

    def footer(self) -> str:
        """The round, and the goal where it counts (a party game's, not a standard one's)."""
        state = self.host.state
        option = state.rules.options.get("goal")
        goal = state.options.get("goal") if option is not None and not option.hidden and (
            option_applies(option, state.options)) else None
        phase = self.host.shown.phase  # a round's phase shows beside its number
        return (f"Round {self.host.shown.round}"
                + (f"  ·  {phase_words(phase)}" if phase else "")
                + (f"  ·  Goal: {goal}" if goal is not None else ""))

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        host = self.host
        panel = self.rect
        areas = self.areas
        footer = self.footer()
        # A card game's areas need the column's foot: the round goes in the title there.
        Panel(panel, "Scores" if areas is None else footer).draw(canvas)
        self.told = []
        if areas is not None:
            areas.hits, areas.faces, areas.more, areas.hover = [], [], [], None
            areas.ringed, areas.told = [], []
        targets = host.steal_targets()
        for s in range(len(host.seats)):
            rect = self.plate_rect(s)
            active = s == host.shown.current and not (host.state.game_over and host.idle)
            out = not host.state.active[s] or s in host.shown.out
            if s in targets:
                glow = self.row_rect(s).inflate(10, 8)
                pygame.draw.rect(canvas, theme.GOLD, glow, width=5, border_radius=14)
            seen = look.view["scores"][s]
            name = host.name(s)
            # A bot is always marked as one: a name too long to share the plate with
            # "(bot)", even in the plate's smallest type, is shortened for it.
            tail = " (bot)" if host.is_bot(s) else ""
            # A plate too narrow for its name and "(bot)" whole beside a board that needs
            # the width: "(bot)" opens the first line under it instead.
            below = bool(tail) and areas is not None and rect.w < areas.plate_need(s)
            # Knocked out of the game for good, or only out of this round.
            extra = (" - OUT" if host.state.knocked[s] else
                     " - out" if s in host.shown.out else "")
            score = "?" if seen is None else str(round(host.shown.scores[s]))
            self.told += [(s, "name", name + tail), (s, "score", score)] + [
                (s, var, value) for var, _, value in self.counters(s, look)]
            name_plate(canvas, rect, name, host.colour(s), active, score,
                       tail="" if below else tail,
                       extra=extra,
                       mark=host.mark(s), dim=out,
                       # The end being shown: nobody is thinking, nobody is to play.
                       status="" if host.state.game_over else "TO PLAY" if host.sees_all
                       else "THINKING" if host.is_bot(s)
                       else "ON THEIR PHONE" if host.on_phone(s) else "YOUR TURN")
            counters = self.counters_text(s, look)
            if below:
                counters = f"(bot)  {counters}" if counters else "(bot)"
            if areas is not None:
                own = self.area_rect(s)
                areas.draw_seat(canvas, own, look, s, counters, rect.h)
                continue
            strip_y = self.strip_y(s)
            if counters and self.has_strip:
                # A value per key can be long: cut to the plate's width (the terminal
                # shows it whole).
                counters, size = theme.squeezed(counters, rect.w - 8, theme.TINY, bold=True)
                theme.text(canvas, counters, (rect.right - 4, strip_y), size,
                           theme.INK, bold=True, anchor="midright", tight=True)
            for area in host.layout.player_zones:
                held = len(host.zone_sprites(area.zone, s))
                if held:
                    last = self.where(area.zone, s, held)
                    assert last is not None
                    x = last[0] + (PLAYER_DIE / 2 + 4 if held >= self.room_for_dice(s) else
                                   -PLAYER_DIE / 2 + 4)
                    theme.text(canvas, f"×{held}" if held > self.room_for_dice(s) else
                               str(held), (int(x), strip_y), theme.TINY, theme.INK, bold=True,
                               anchor="midleft", tight=True)
        if areas is not None:
            show_read(host, areas, self.zoom, canvas, self.rect)
            return
        theme.text(canvas, footer, (panel.centerx, panel.bottom - 30), theme.SMALL,
                   theme.INK, bold=True, anchor="center")


def thinking_dots() -> str:
    """One to three dots, one more each half second: a bot's search is seen to go on."""
    return "." * (1 + int(time.monotonic() * 2) % 3)


def share_room(need: list[int], room: int) -> list[int]:
    """Heights for rows that need `need` in `room`: alike when each fits its equal share;
    else the rows needing least get what they need, the rest share what is left alike, and
    what nobody needs is shared by all."""
    rows = max(1, len(need))
    if max(need, default=0) <= room // rows:
        return [room // rows] * len(need)
    out = [0] * len(need)
    left = room
    for k, i in enumerate(sorted(range(len(need)), key=need.__getitem__)):
        out[i] = min(need[i], left // (len(need) - k))
        left -= out[i]
    return [h + left // rows for h in out]


@register
class LogPart(Part):
    """What happened, newest last; the wheel or Page Up scrolls back."""

    name = "log"
    region = "log"
    grow = True

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        draw_log(canvas, self.rect, self.host.log, self.host.log_scroll)


@register
class PinnedCardPart(Part):
    """The card a click pinned, large in the middle of the table, over everything else,
    until the next click; only while the one who pinned it holds the laptop."""

    name = "pinned"
    region = "pinned"
    on_top = True

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        draw_pinned(self.host, self.host.zoom, canvas)


@register
class NotePart(Part):
    """A game that cannot be saved says so under the bar, until a save succeeds again."""

    name = "note"
    region = "note"
    grow = True

    def draw(self, canvas: pygame.Surface, look: Look) -> None:
        problem = self.host.save_problem
        if problem:
            note = theme.ellipsize(f"Not saved: {problem}", theme.font(theme.SMALL),
                                   self.rect.w)
            theme.text(canvas, note, (self.rect.x, self.rect.y), theme.SMALL,
                       theme.DANGER_LIGHT)
