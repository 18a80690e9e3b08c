"""The table as a host of widgets: regions that never overlap or leave the screen, and text
that never runs past its widget, for every ruleset's whole games at 2, 4 and 6 seats in
three window shapes; the result of a toss told only once the dice rest, dice that
come to rest on the felt and apart, and the table's short on-screen confirmations."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from dinotable import bots, saves
from dinotable.app import App, logical_size
from dinotable.engine import Rules, apply, new_game
from dinotable.render import cards, theme
from dinotable.ruleset import installed_rulesets, load_by_id, load_ruleset
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.dice_parts import DIE, AreaPart
from dinotable.table.part import Part
from dinotable.table.widgets import ZonePart

FIXTURES = Path(__file__).parent / "fixtures" / "good_rulesets"
SHIPPED = tuple(p.name for p in installed_rulesets())  # every game shipped, a new one too
FRAME = 1 / 30
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def all_rulesets() -> list[tuple[str, Rules]]:
    out = [(name, load_by_id(name)) for name in SHIPPED]
    out += [(p.name, load_ruleset(p)) for p in sorted(FIXTURES.iterdir()) if p.is_dir()]
    return out


def table_for(app: App, rules: Rules, kinds: list[str], seed: int = 3) -> TableScene:
    seats = [Seat(NAMES[i], kind, i % 6) for i, kind in enumerate(kinds)]
    table = TableScene(app, rules, seats, {}, seed)
    app.push(table)
    return table


RULESETS = all_rulesets()


WINDOWS = ((1280, 720), (800, 600), (1920, 1080))
SEAT_COUNTS = (2, 4, 6)
MAX_MOVES = 500  # a fixture game that would go on longer is cut here
LOOKS = 300  # positions drawn per game at most (every one of the shipped games), spread evenly


def seat_counts(rules: Rules) -> list[int]:
    """2, 4 and 6 seats, each brought within the ruleset's range."""
    return sorted({min(max(n, rules.min_players), rules.max_players) for n in SEAT_COUNTS})


CASES = [(name, rules, n) for name, rules in RULESETS for n in seat_counts(rules)]


def played(table: TableScene) -> None:
    """What the table shows once a move's playback is over, without waiting for it."""
    table.steps.clear()
    if table.tray_part is not None:
        table.tray_part.toss = None  # the tray's throw, landed at once
    table.wait, table.banner = 0.0, None
    table._settle()


def record_parts(table: TableScene) -> list[tuple[Part, int, int]]:
    """Wrap each part's drawing so the text it draws can be told apart (filled per draw:
    the part, and the first and last index of its lines in the text seen)."""
    spans: list[tuple[Part, int, int]] = []
    for part in table.parts:
        def drawing(canvas: pygame.Surface, look: Any, part: Part = part,
                    draw: Any = part.draw) -> None:
            seen = theme._seen
            first = len(seen.drawn) if seen is not None else 0
            draw(canvas, look)
            spans.append((part, first, len(seen.drawn) if seen is not None else 0))
        part.draw = drawing  # type: ignore[method-assign]
    return spans


def layout_faults(table: TableScene, canvas: pygame.Surface,
                  spans: list[tuple[Part, int, int]]) -> list[str]:
    """Everything wrong with the table drawn on `canvas`: widgets overlapping or off the
    screen, text past its widget or the screen, a player's row outside the column."""
    spans.clear()
    cards.forget()  # every card face painted afresh, so the words on it are seen
    with theme.seeing_text() as seen:
        table.draw(canvas)
    screen = canvas.get_rect()
    faults = []
    regions = table.regions()
    for k, (part, rect) in enumerate(regions):
        if not screen.contains(rect):
            faults.append(f"{part} {rect} off the screen")
        faults += [f"{part} {rect} overlaps {other} {rect2}" for other, rect2 in regions[k + 1:]
                   if rect.colliderect(rect2)]
    for string, letters, surface in seen.drawn:
        if surface is canvas and not screen.contains(letters):
            faults.append(f"{string!r} {letters} off the screen")
    for part in table.parts:
        # Every card, chip and die a widget draws lies inside it (a hovered card grows out
        # of it, but nothing is hovered here).
        shown = getattr(part, "areas", None) or part  # the players column draws its areas
        if part.rect.h >= 30:
            faults += [f"{part.name} draws {target} at {rect} outside {part.rect}"
                       for rect, target in shown.hits + shown.faces
                       if not part.rect.contains(rect)]
    for part, first, last in spans:
        room = part.rect.inflate(2, 2)
        faults += [f"{string!r} {letters} past {part.name} {part.rect}"
                   for string, letters, surface in seen.drawn[first:last]
                   if surface is canvas and not room.contains(letters)]
    # The words on a card or chip lie clear of its edge (a chip's name is not clipped by
    # its frame or crowded by its glow), and no word is cut to a letter or two ("A…").
    faces = {id(face) for face in cards._FACES.values()}
    for string, letters, surface in seen.drawn:
        if id(surface) in faces:
            w, h = surface.get_width() - 3, surface.get_height() - 4  # less the shadow
            if not pygame.Rect(2, 2, w - 4, h - 4).contains(letters):
                faults.append(f"{string!r} {letters} past the edge of its {w}x{h} card")
    faults += [f"{whole!r} cut to {shown!r}" for whole, shown in seen.cut
               if len(shown.rstrip("…")) < 3]
    # What to do, a board's space names and a pile's name are read whole at any window
    # size: on two lines, or shortened to initials ("E. Cretaceous"), never cut.
    whole = {table.what_to_do()} | {cards.words_of(space, frozenset(board.spaces))
                                    for board in table.rules.boards.values()
                                    for space in board.spaces}
    whole |= {part.label for part in table.parts if isinstance(part, ZonePart)
              and part.kind == "pile"}
    faults += [f"{string!r} cut to {shown!r}" for string, shown in seen.cut if string in whole]
    # "+N more" in a player's area only when the column has no room left: no other
    # area keeps a whole line spare.
    players = next(part for part in table.parts if part.name == "players")
    areas = getattr(players, "areas", None)
    if areas is not None and areas.more:
        look = table.look()
        spare: dict[int, list[bool]] = {}  # each row of areas: which have a line spare
        for s in range(len(table.seats)):
            own, plate = players.area_rect(s), players.plate_rect(s)
            need = areas.height_for(s, look, own.w - 8, players.counters_text(s, look))
            spare.setdefault(own.y, []).append(own.bottom - plate.bottom - 4 - need >= areas.LINE)
        # Areas side by side share a row's height: one may have room its neighbour needs.
        for y, room in spare.items():
            if all(room):
                faults.append(f"+N more shown while the areas at y={y} have room")
    column = next(rect for part, rect in regions if part == "players")
    rows = [table.row_rect(s) for s in range(len(table.seats))]
    for s, row in enumerate(rows):
        # Rows may stand side by side (two columns of areas at five or more seats), never
        # over one another.
        if not column.contains(row) or any(row.colliderect(other) for other in rows[:s]):
            faults.append(f"seat {s}'s row {row} out of the players column {column}")
    return faults


@pytest.mark.parametrize(("name", "rules", "seats"), CASES,
                         ids=[f"{name}-{n}" for name, _, n in CASES])
def test_whole_games_lay_out_in_every_window(app: App, name: str, rules: Rules,
                                            seats: int) -> None:
    """Seeded bot games played to the end, each position drawn in three windows: no two
    widgets overlap, none leaves the screen, no text runs past its widget or the screen."""
    kinds = ["human"] + ["heuristic"] * (seats - 1)
    # The game's length first (the engine alone is quick), to spread the looks over it.
    state = new_game(rules, NAMES[:seats], {}, seats)
    rng = random.Random(seats)
    moves = 0
    while not state.game_over and moves < MAX_MOVES:
        apply(state, bots.choose("heuristic", state, rng))
        moves += 1
    stride = max(1, -(-moves // LOOKS))
    looked = set(range(0, moves + 1, stride)) | {moves}
    table = TableScene(app, rules, [Seat(NAMES[i], kind, i) for i, kind in enumerate(kinds)],
                       {}, seats, saving=False)
    app.push(table)
    canvases = [pygame.Surface(logical_size(size)) for size in WINDOWS]
    spans = record_parts(table)
    rng = random.Random(seats)
    for move in range(moves + 1):
        if move:
            table.take(bots.choose("heuristic", table.state, rng))
            played(table)
        if move not in looked:
            continue
        for size, canvas in zip(WINDOWS, canvases, strict=True):
            faults = layout_faults(table, canvas, spans)
            assert not faults, (name, seats, size, move, faults[:6])
    assert table.state.game_over or moves == MAX_MOVES


def roll_words(table: TableScene) -> list[str]:
    """Everything on the table that would tell how a toss came out."""
    return [line for line in table.log if "rolls:" in line] + (
        [table.last_words] if "rolled" in table.last_words else [])


@pytest.mark.parametrize("kind", ["human", "heuristic"])
def test_the_result_is_told_only_once_the_dice_have_landed(app: App, kind: str) -> None:
    table = table_for(app, load_by_id("dino_hunt_dice"), [kind, "human"])
    app.settings.bot_speed = "fast"
    table.holder = 0
    tossed = 0
    for _ in range(600):
        if kind == "human" and table.my_turn and table.chooser.available("roll"):
            app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0,
                                         unicode=" ", scancode=0)], FRAME)
        before = len(roll_words(table))
        app.step([], FRAME)
        if table.toss is not None:
            tossed += 1
            # The dice tumble: neither the log nor the header names the faces yet.
            assert len(roll_words(table)) == before
            assert "rolled" not in table.last_words or table.last_words in roll_words(
                table)[:before]
            assert table.what_to_do() == "Watch the dice..."
        if tossed and table.toss is None and roll_words(table):
            break
    assert tossed > 5, "the dice were thrown and seen tumbling"
    assert roll_words(table), "once at rest, the result is told"


def test_a_bot_really_throws_its_dice_across_the_tray(app: App) -> None:
    table = table_for(app, load_by_id("dino_hunt_dice"), ["heuristic", "human"])
    app.settings.bot_speed = "fast"
    for _ in range(300):
        app.step([], FRAME)
        if table.toss is not None:
            break
    toss = table.toss
    assert toss is not None
    assert all(toss.travelled(die) > DIE for die in toss.die_ids), "each die rolls"


def test_dice_come_to_rest_on_the_felt_apart_and_off_the_labels(app: App) -> None:
    table = table_for(app, load_by_id("dino_hunt_dice"), ["human", "human"])
    tray = table.tray_part
    assert tray is not None
    faces = table.rules.dice["green"].faces
    inner = pygame.Rect(0, 0, tray.rect.w, tray.rect.h).inflate(-2 * 14, -2 * 14)
    label = pygame.Rect(*[int(v) for v in tray.keep_clear()[0]])
    rng = random.Random(7)
    for seed in range(24):
        dice = [(f"d{k}", faces, faces[rng.randrange(len(faces))])
                for k in range(rng.randrange(1, 8))]
        toss = tray.tray.toss(dice, seed, tray.fling_for_bot(rng),
                              keep_clear=tray.keep_clear())
        poses = toss.final_poses()
        for die, pose in poses.items():
            assert inner.collidepoint(pose.x, pose.y), (seed, die, pose)
            body = pygame.Rect(0, 0, DIE - 8, DIE - 8)
            body.center = (int(pose.x), int(pose.y))
            assert not body.colliderect(label), (seed, die, pose)
        points = list(poses.values())
        for i, a in enumerate(points):
            for b in points[i + 1:]:
                assert (a.x - b.x) ** 2 + (a.y - b.y) ** 2 > (DIE * 0.9) ** 2, seed


def test_a_click_on_the_felt_hints_how_to_throw(app: App) -> None:
    table = table_for(app, load_by_id("dino_hunt_dice"), ["human", "human"])
    table.holder = 0
    table.refresh_buttons()
    pos = table.tr.center
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], FRAME)
    assert table.toast is not None and "Drag" in table.toast[0]
    assert table.toss is None, "a click throws nothing"
    for _ in range(120):
        app.step([], FRAME)
    assert table.toast is None, "the hint goes after a moment"


def test_odds_and_sound_keys_are_confirmed_on_screen(app: App) -> None:
    table = table_for(app, load_by_id("dino_hunt_dice"), ["human", "human"])
    was = table.show_odds
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_o, mod=0, unicode="o",
                                 scancode=0)], FRAME)
    assert table.toast is not None
    assert table.toast[0] == ("Odds hidden" if was else "Odds shown")
    muted = app.sounds.muted
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=0, unicode="m",
                                 scancode=0)], FRAME)
    app.step([], FRAME)
    assert table.toast is not None
    assert table.toast[0] == ("Sound on" if muted else "Sound off")


def test_the_not_saved_note_goes_once_a_save_works_again(app: App,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    table = table_for(app, load_by_id("dino_hunt_dice"), ["human", "human"])
    monkeypatch.setattr(saves, "try_write", lambda game: "the disk is full")
    table.autosave()
    assert "disk is full" in table.save_problem
    monkeypatch.setattr(saves, "try_write", lambda game: None)
    table.autosave()
    assert table.save_problem == ""


@pytest.mark.parametrize("held", [1, 5, 8, 12])
def test_an_area_lays_out_every_die_inside_its_panel_and_apart(app: App, held: int) -> None:
    table = table_for(app, load_by_id("dino_hunt_dice"), ["human", "human"])
    area = next(p for p in table.parts if isinstance(p, AreaPart))
    size, _ = area.grid(held)
    boxes = []
    for n in range(held):
        x, y = area.slot(n, held)
        box = pygame.Rect(0, 0, size, size)
        box.center = (int(x), int(y))
        assert area.rect.contains(box), (n, box, area.rect)
        assert box.top >= area.rect.y + 40, "below the title"
        assert all(not box.colliderect(other) for other in boxes)
        boxes.append(box)


@pytest.mark.parametrize("games", [3, 5, 7, 9])
@pytest.mark.parametrize("resume", [False, True])
def test_the_title_lists_every_game_on_the_screen(app: App, games: int, resume: bool) -> None:
    """However many games are installed, each card lies whole on the screen, apart from the
    others and the row of buttons, with its name and pitch inside it."""
    from dinotable.catalog import Listing
    from dinotable.scenes.title import Entry, TitleScene

    title = TitleScene(app, lazy=True)
    title.placeholder = resume
    names = ["Dino Hunt", "Dino Hunt Dice", "Dinosaur Dice", "Raptor Ranch", "Fossil Ideas",
             "Egg Race", "Meteor Run", "Tar Pit", "Volcano"]
    title.lay_out([Entry(f"game{k}", None, "", Listing(
        f"game{k}", names[k], "A pitch long enough to fill most of the card's one line, "
        "and then some more words", 2, 6, "20 min")) for k in range(games)])
    cards = [c.rect for c in title.menu.controls
             if c.tag.startswith("game:") or c.tag == "continue"]
    buttons = [c.rect for c in title.menu.controls if c.rect not in cards]
    screen = app.canvas.get_rect()
    assert len(cards) == games + resume
    for k, rect in enumerate(cards):
        assert screen.contains(rect) and rect.h >= 76, rect
        assert not any(rect.colliderect(other) for other in cards[k + 1:] + buttons), rect
        assert rect.bottom < 600, "above the keys' hint"
    with theme.seeing_text() as seen:
        title.draw(app.canvas)
    for string, letters, _ in seen.drawn:
        assert screen.contains(letters), string
        inside = [rect for rect in cards if rect.colliderect(letters)]
        assert all(rect.contains(letters) for rect in inside), (string, letters, inside)


def test_a_resized_window_re_flows_the_table_and_maps_the_pointer(app: App) -> None:
    """A 4:3 window gets a table laid out for 4:3 (not a 16:9 picture shrunk), scaled only
    as far as keeps type readable, and a click lands where the player sees the thing."""
    table = table_for(app, load_by_id("dino_hunt_dice"), ["human", "human"])
    app.step([], FRAME)
    wide = table.area["centre"].copy()
    app.step([pygame.event.Event(pygame.VIDEORESIZE, w=800, h=600, size=(800, 600))], FRAME)
    assert app.window.get_size() == (800, 600)
    assert app.canvas.get_size() == logical_size((800, 600))
    w, h = app.canvas.get_size()
    assert w / h == pytest.approx(800 / 600, abs=0.01), "the canvas has the window's shape"
    assert 800 / w >= 0.75, "shrunk no further than keeps 20 px type at 15 px or more"
    assert table.area_size == (w, h) and table.area["centre"] != wide
    # The window's pixel at the middle of the undo button is the button on the canvas.
    undo = next(c.rect for c in table.menu.controls if c.tag == "undo")
    pos = (round(undo.centerx * 800 / w), round(undo.centery * 600 / h))
    assert undo.collidepoint(app.to_canvas(pos))
    # Back to 1280x720: the reference layout, drawn pixel for pixel.
    app.step([pygame.event.Event(pygame.VIDEORESIZE, w=1280, h=720, size=(1280, 720))], FRAME)
    assert app.canvas.get_size() == (1280, 720) and table.area["centre"] == wide
    assert logical_size((1920, 1080)) == (1600, 900), "full HD: type a little larger"


def test_a_glowing_chip_leaves_its_name_as_it_was(app: App) -> None:
    """A chip that may be clicked glows round its outside: the ring never crowds the name
    (the dice categories of a dice game, a Special in a hand)."""
    rect = pygame.Rect(20, 20, 170, 27)
    drawn = []
    for glow in (False, True):
        canvas = pygame.Surface((220, 80))
        canvas.fill(theme.FELT)
        cards.draw_card(canvas, rect, "small_straight", "Small Straight", band=(64, 92, 150),
                        glow=glow, small=True)
        drawn.append(canvas)
    inside = rect.inflate(-24, -4)  # within its frame, clear of the rounded corners
    assert (pygame.image.tobytes(drawn[0].subsurface(inside), "RGB")
            == pygame.image.tobytes(drawn[1].subsurface(inside), "RGB"))
    ring = [drawn[1].get_at((rect.centerx, rect.y - y))[:3] for y in (1, 2, 3)]
    assert theme.GOLD in ring, "the glow shows round the chip"


def test_the_title_keeps_each_pitch_whole_beside_the_continue_card(app: App) -> None:
    """With the Continue card above them the game cards are shorter: each shipped game's
    pitch still reads whole, in smaller type (on two lines when the cards stand in two
    columns)."""
    from dinotable.scenes.title import TitleScene

    title = TitleScene(app, lazy=True)
    app.push(title)
    for _ in range(50):
        app.step([], FRAME)
        if title.loaded:
            break
    title.placeholder = True
    title.lay_out(title.entries)
    with theme.seeing_text() as seen:
        title.draw(app.canvas)
    pitches = {str(entry.rules.data.get("pitch", "")) for entry in title.entries
               if entry.rules is not None and entry.id in SHIPPED}
    assert len(pitches) == len(SHIPPED)
    shown = {string for string, _, _ in seen.drawn}
    # Whole on one line, or (five games and more, in two columns) on two lines.
    whole = {p for p in pitches if p in shown
             or any(p == f"{a} {b}" for a in shown for b in shown if p.startswith(a))}
    assert whole == pitches, pitches - whole
    assert not [whole for whole, _ in seen.cut if whole in pitches]


def test_a_disabled_buttons_tip_comes_after_a_moment_and_goes_under_a_still_pointer(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tip saying why a button is grey shows once the pointer rests on it, and goes a
    few seconds after the pointer last moved: a pointer left standing after a click never
    keeps the table under it hidden."""
    from dinotable.render import widgets

    now = [50.0]
    monkeypatch.setattr(widgets, "clock", lambda: now[0])
    table = table_for(app, load_by_id("dino_hunt_dice"), ["human", "human"])
    table.holder = 0
    table.refresh_buttons()
    undo = table.menu.find("undo")
    assert not undo.enabled and undo.why_disabled

    def tip_drawn() -> bool:
        with theme.seeing_text() as seen:
            table.draw(app.canvas)
        return any(undo.why_disabled in line for line, _, _ in seen.drawn)

    table.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=undo.rect.center, rel=(0, 0),
                                    buttons=(0, 0, 0)))
    assert not tip_drawn(), "not at the first touch"
    now[0] += 0.6
    assert table.needs_redraw() and tip_drawn(), "after a moment's rest"
    now[0] += 2
    table.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=undo.rect.move(3, 0).center,
                                    rel=(3, 0), buttons=(0, 0, 0)))
    now[0] += 3
    assert tip_drawn(), "a pointer moving on the button keeps the tip"
    now[0] += 2
    assert table.needs_redraw() and not tip_drawn(), "gone under a still pointer"
    table.menu.focus = table.menu.controls.index(undo)
    table.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0),
                                    buttons=(0, 0, 0)))
    now[0] += 1
    assert not tip_drawn(), "a pointer elsewhere: no tip for the focused button"


@pytest.mark.parametrize("window", [(800, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("name", SHIPPED)
def test_every_setting_on_the_set_up_screen_reads_whole(app: App, name: str,
                                                         window: tuple[int, int]) -> None:
    """With every seat taken (and with six, when the settings stand in two narrow
    columns), each setting's label reads whole inside its field: on two lines where the
    field is narrow ("Game length / (short = half the deck)" at 800x600), never cut."""
    from dinotable.scenes.setup import SetupScene

    app.dispatch(pygame.event.Event(pygame.VIDEORESIZE, w=window[0], h=window[1],
                                    size=window))
    rules = load_by_id(name)
    for seats in sorted({rules.max_players, 6}):
        scene = SetupScene(app, rules, [Seat(NAMES[i], "human", i) for i in range(seats)])
        app.push(scene)
        with theme.seeing_text() as seen:
            app.step([], FRAME)
        controls = [c for c in scene.menu.controls if c.kind == "stepper" and c.label]
        assert len(controls) >= 3, "bot speed, sound and passing the laptop at least"
        for c in controls:
            said = [string for string, letters, surface in seen.drawn
                    if surface is app.canvas and string and string in c.label
                    and c.rect.contains(letters)]
            assert " ".join(said) == c.label, (seats, c.label, said)
        labels = {c.label for c in controls}
        assert not [(whole, shown) for whole, shown in seen.cut if whole in labels], seats
        app.pop()


@pytest.mark.parametrize("window", [(800, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("screen", ["setup", "rules", "cards", "results"])
def test_the_screens_around_a_game_re_flow_to_the_window(app: App, screen: str,
                                                         window: tuple[int, int]) -> None:
    """Set-up, rules, cards and results are laid out on a canvas of the window's shape
    (not a 16:9 picture with bars): every button and word on it, none over another."""
    from dinotable.scenes.cards import CardsScene
    from dinotable.scenes.results import ResultsScene, Standings
    from dinotable.scenes.rules import RulesScene
    from dinotable.scenes.setup import SetupScene

    app.dispatch(pygame.event.Event(pygame.VIDEORESIZE, w=window[0], h=window[1],
                                    size=window))
    rules = load_by_id("dino_hunt")
    seats = [Seat(name, "human", i) for i, name in enumerate(NAMES[:6])]
    standings = Standings("Dino Hunt", NAMES[:6], [(200, 40, 40)] * 6, [""] * 6,
                          [9, 14, 3, 20, 7, 11], [3])
    scene = {"setup": lambda: SetupScene(app, rules, seats),
             "rules": lambda: RulesScene(app, rules),
             "cards": lambda: CardsScene(app, rules),
             "results": lambda: ResultsScene(app, standings=standings)}[screen]()
    app.push(scene)
    assert app.flowing() and app.view_and_size() == (app.window.get_rect(),
                                                     logical_size(window))
    with theme.seeing_text() as seen:
        app.step([], FRAME)
    canvas = app.canvas.get_rect()
    assert canvas.size == logical_size(window)
    rects = [c.rect for c in scene.menu.controls]  # type: ignore[attr-defined]
    for k, rect in enumerate(rects):
        assert canvas.contains(rect), (rect, canvas)
        assert not any(rect.colliderect(other) for other in rects[k + 1:]), rect
    drawn = [(string, letters) for string, letters, surface in seen.drawn
             if surface is app.canvas]
    assert drawn, "drawn on the re-flowing canvas"
    assert all(canvas.contains(letters) for _, letters in drawn), [
        (s, r) for s, r in drawn if not canvas.contains(r)][:3]
