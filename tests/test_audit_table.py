"""The table's audit finds what a new user would meet: each kind of check is shown to see
a fault planted in the table (a score left behind, a hand left on show, a key that takes a
pick back or leaves the bar, Esc that opens nothing, a card read large under other words,
words cut where they fit, a board that changes shape), and the quick audit of every
shipped and fixture game comes out clean."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from dinotable.app import App
from dinotable.audit import Case, audit
from dinotable.render import theme
from dinotable.ruleset import load_by_id
from dinotable.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def fresh_app() -> Iterator[App]:
    application = App(settings=Settings(bot_speed="fast"))
    yield application
    pygame.quit()


def found(app: App, game: str, seats: int = 2, keyboard: bool = False, moves: int = 12,
          seed: int = 1) -> list[str]:
    """The faults the audit reports in a short game."""
    return audit(app, Case(game, load_by_id(game), seats, keyboard, seed=seed,
                           moves=moves)).faults


def test_a_clean_short_game_has_no_faults(fresh_app: App) -> None:
    faults = found(fresh_app, "dino_hunt", keyboard=True, moves=10)
    assert faults == []


def test_a_score_left_behind_after_the_hand_off_is_found(
        fresh_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.engine import view_for
    from dinotable.scenes.table import TableScene

    def handed(self: TableScene, seat: int) -> None:
        # Planted: the new holder's view, but the scores as the last holder was shown them.
        self.session.handed(seat)
        self.view = view_for(self.state, seat)

    monkeypatch.setattr(TableScene, "handed", handed)
    faults = found(fresh_app, "dino_hunt", moves=16)
    assert any("score reads" in f for f in faults), faults


def test_a_hand_left_on_show_as_the_turn_passes_is_found(
        fresh_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.table.session import TableSession

    # Planted: the laptop is never taken from the last holder before the hand-off.
    monkeypatch.setattr(TableSession, "passing", lambda self: False)
    faults = found(fresh_app, "dino_hunt", moves=10)
    assert any("hidden from the public's view" in f for f in faults), faults


def test_enter_that_takes_a_pick_back_is_found(fresh_app: App,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.table.focus import FocusRing

    key = FocusRing.key

    def old_key(self: FocusRing, event: Any, *args: Any) -> bool:
        used = key(self, event, *args)
        if self.picked is not None:  # planted: the ring stays on the thing picked
            self.ring, self.picked = self.picked, None
        return used

    monkeypatch.setattr(FocusRing, "key", old_key)
    faults = found(fresh_app, "dino_hunt", keyboard=True, moves=10)
    assert any("takes the pick back" in f for f in faults), faults


def test_an_arrow_that_leaves_the_bar_is_found(fresh_app: App,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.table.focus import FocusRing

    key = FocusRing.key

    def leaky(self: FocusRing, event: Any, targets: Any, *args: Any) -> bool:
        glowing = targets()
        if event.key == pygame.K_RIGHT and self.ring is None and glowing:
            self.ring = glowing[0][1]  # planted: Right goes from the bar to the table
            return True
        return key(self, event, targets, *args)

    monkeypatch.setattr(FocusRing, "key", leaky)
    faults = found(fresh_app, "dino_hunt", keyboard=True, moves=6)
    assert any("leaves the bar" in f for f in faults), faults


def test_esc_that_opens_no_menu_is_found(fresh_app: App,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.scenes.table import TableScene

    monkeypatch.setattr(TableScene, "pause", lambda self: None)  # planted
    faults = found(fresh_app, "dinosaur_dice", keyboard=True, moves=4)
    assert any("Esc on the TableScene does not open the menu" in f for f in faults), faults


def test_a_move_the_keyboard_cannot_make_is_found(fresh_app: App,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.table.focus import FocusRing

    key = FocusRing.key

    def no_enter(self: FocusRing, event: Any, *args: Any) -> bool:
        if event.key in (pygame.K_RETURN, pygame.K_SPACE) and self.ring is not None:
            return True  # planted: Enter on a glowing thing does nothing
        return key(self, event, *args)

    monkeypatch.setattr(FocusRing, "key", no_enter)
    faults = found(fresh_app, "dino_hunt", keyboard=True, moves=10)
    assert any("with the keyboard" in f for f in faults), faults


def test_a_card_read_large_under_other_words_is_found(
        fresh_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.table.chrome import PinnedCardPart

    # Planted: the card a click pinned is drawn first, under the rest of the table.
    monkeypatch.setattr(PinnedCardPart, "on_top", False)
    monkeypatch.setattr(PinnedCardPart, "layer", -1)
    faults = found(fresh_app, "dino_hunt", moves=12)
    assert any("drawn over the card read large" in f for f in faults), faults


def drawing_also(monkeypatch: pytest.MonkeyPatch, kind: Any, extra: Any) -> None:
    """Plant a fault: after a kind of part draws, `extra(part, canvas)` draws too."""
    draw = kind.draw

    def drawing(self: Any, canvas: pygame.Surface, look: Any) -> None:
        draw(self, canvas, look)
        extra(self, canvas)

    monkeypatch.setattr(kind, "draw", drawing)


def test_words_cut_where_they_fit_are_found(fresh_app: App,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.table.chrome import HeaderPart

    def cutting(part: HeaderPart, canvas: pygame.Surface) -> None:
        words = "Round over"  # planted: a short label cut a few pixels short of its width
        room = theme.font(theme.SMALL).size(words)[0]
        theme.text(canvas, theme.ellipsize(words, theme.font(theme.SMALL), room - 4),
                   part.rect.topleft, theme.SMALL)

    drawing_also(monkeypatch, HeaderPart, cutting)
    faults = found(fresh_app, "dinosaur_dice", moves=3)
    assert any("'Round over' cut to" in f for f in faults), faults


def test_words_off_the_screen_are_found(fresh_app: App,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.table.chrome import LogPart

    drawing_also(monkeypatch, LogPart, lambda part, canvas: theme.text(
        canvas, "far away", (canvas.get_width() - 20, 40), theme.SMALL))  # planted
    faults = found(fresh_app, "dinosaur_dice", moves=3)
    assert any("'far away'" in f and "off the screen" in f for f in faults), faults


def test_a_board_that_changes_shape_is_found(fresh_app: App,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.table.areas import Areas

    split = Areas.split
    calls = [0]

    def restless(self: Areas, *args: Any) -> Any:
        out = split(self, *args)
        calls[0] += 1
        if out is None or calls[0] % 7:
            return out
        cell, cols, board, rect = out
        return cell, cols + 1, board, rect  # planted: now and then a row longer

    monkeypatch.setattr(Areas, "split", restless)
    faults = found(fresh_app, "dino_dude_ranch", moves=12)
    assert any("board changed shape" in f for f in faults), faults


def test_a_bot_not_marked_as_one_is_found(fresh_app: App,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.table.chrome import PlayersPart

    draw = PlayersPart.draw

    def as_people(self: PlayersPart, canvas: pygame.Surface, look: Any) -> None:
        # Planted: the plates are drawn as if every seat were a person's.
        host: Any = self.host
        host.is_bot = lambda seat: False
        try:
            draw(self, canvas, look)
        finally:
            del host.is_bot

    monkeypatch.setattr(PlayersPart, "draw", as_people)
    faults = found(fresh_app, "dinosaur_dice", seats=3, moves=4)
    assert any("plays as a bot, but the plate reads" in f for f in faults), faults


def test_the_quick_audit_of_every_game_is_clean() -> None:
    """`tools/audit_table.py --quick`, as the suite runs it: every shipped and fixture game,
    by mouse and by keyboard, exit 0 and a summary."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import audit_table
    finally:
        sys.path.remove(str(ROOT / "tools"))
    lines: list[str] = []
    status = audit_table.main(["--quick"], out=lines.append)
    assert status == 0, "\n".join(lines[-40:])
    assert lines[-1].startswith("audited ") and lines[-1].endswith(": 0 faults"), lines[-1]


def test_a_game_with_a_seat_on_a_phone_is_clean(fresh_app: App) -> None:
    report = audit(fresh_app, Case("dino_hunt", load_by_id("dino_hunt"), 3, False,
                                   moves=24, phones=True))
    assert report.faults == []
    assert report.decisions or report.frames  # the game was played, not skipped


def test_a_hand_left_on_show_while_a_phone_plays_is_found(
        fresh_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    from dinotable.table.session import TableSession

    passing = TableSession.passing

    def kept(self: TableSession) -> bool:
        # Planted: a seat on a phone is treated as if nobody at the table could see.
        return False if self.deciding in self.phones else passing(self)

    monkeypatch.setattr(TableSession, "passing", kept)
    report = audit(fresh_app, Case("dino_hunt", load_by_id("dino_hunt"), 3, False,
                                   moves=24, phones=True))
    assert any("hidden from the public's view" in f for f in report.faults), report.faults
