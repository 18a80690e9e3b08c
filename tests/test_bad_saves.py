"""No file in the data folder crashes, hangs or is lost: every broken save gives one readable
message and is kept aside byte for byte; saves survive kills, full disks and folders in the
way; finished games are archived; a continued game plays on exactly as it would have."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import errno
import random
import time
from pathlib import Path

import pygame
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dinotable import saves
from dinotable.app import App
from dinotable.engine import legal_actions
from dinotable.render import theme
from dinotable.ruleset import LoadError, load_by_id
from dinotable.scenes.message import MessageScene
from dinotable.scenes.setup import Seat, SetupScene
from dinotable.scenes.table import TableScene
from dinotable.scenes.title import TitleScene
from dinotable.settings import Settings

BAD = Path(__file__).resolve().parent / "fixtures" / "bad_saves"
FIXTURES = sorted(BAD.glob("*.yaml"))


def expected(path: Path) -> str:
    """The message a fixture must produce: its first line, `# expect: ...`."""
    first = path.read_bytes().split(b"\n", 1)[0].decode("ascii")
    assert first.startswith("# expect: "), path.name
    return first.removeprefix("# expect: ")


def _title_frames(app: App, frames: int = 4) -> TitleScene:
    """The title as the app opens it: first frame, then the games and the save load."""
    title = TitleScene(app, lazy=True)
    app.push(title)
    for _ in range(frames):
        app.step()
    return title


def _place(fixture: Path) -> bytes:
    data = fixture.read_bytes()
    path = saves.autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


def test_there_is_a_fixture_for_every_finding() -> None:
    names = {p.stem for p in FIXTURES}
    for finding in ("number_5000_digits", "nested_5000_deep", "nul_in_name", "name_100000_chars",
                    "option_key_not_text", "colour_99", "colour_minus_99", "colour_10e50",
                    "colour_minus_1", "colour_true", "colour_twice", "ruleset_a_path"):
        assert finding in names


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_a_broken_save_gives_one_readable_message(fixture: Path) -> None:
    with pytest.raises(LoadError) as info:
        saves.load(fixture)
    text = str(info.value)
    assert expected(fixture) in text
    for problem in info.value.problems:
        assert len(str(problem)) < len(str(fixture)) + 300  # a huge value is not echoed


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_the_title_reports_a_broken_save_and_keeps_it_byte_for_byte(app: App,
                                                                    fixture: Path) -> None:
    original = _place(fixture)
    started = time.perf_counter()
    title = _title_frames(app)
    assert time.perf_counter() - started < 10  # no hang (the 100,000-character name took minutes)
    assert app.frames >= 4
    message = app.top
    assert isinstance(message, MessageScene)
    assert message.title == "The saved game could not be opened"
    shown = " ".join(message.lines)
    assert expected(fixture) in shown
    assert "The file was kept as autosave.unreadable.yaml." in shown
    kept = saves.autosave_path().with_name("autosave.unreadable.yaml")
    assert kept.read_bytes() == original
    assert not saves.autosave_path().exists()
    assert title.saved is None
    with pytest.raises(KeyError):
        title.menu.find("continue")


def test_a_second_unreadable_save_never_replaces_the_first(app: App) -> None:
    first = _place(BAD / "colour_99.yaml")
    _title_frames(app)
    app.reset(TitleScene(app))  # the next start of the app
    second = _place(BAD / "nul_in_name.yaml")
    title = _title_frames(app)
    message = app.top
    assert isinstance(message, MessageScene)
    assert "The file was kept as autosave.unreadable-2.yaml." in message.lines
    folder = saves.autosave_path().parent
    assert (folder / "autosave.unreadable.yaml").read_bytes() == first
    assert (folder / "autosave.unreadable-2.yaml").read_bytes() == second
    assert title.saved is None


def test_a_save_too_big_to_read_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("#" * (saves.MAX_BYTES + 10))
    with pytest.raises(LoadError, match="a save is at most 524288"):
        saves.read(path)


def test_a_name_from_a_save_is_drawn_at_once_however_long(app: App) -> None:
    name = "W" * 100_000
    started = time.perf_counter()
    shown = theme.ellipsize(name, theme.font(theme.BODY, True), 700)
    lines = theme.wrap(name, theme.font(theme.SMALL), 820)
    # No hang: cut or wrapped letter by letter, this name took minutes (the speed itself is
    # the bench's to measure; this only catches a return of that).
    assert time.perf_counter() - started < 10
    assert shown.endswith("…") and theme.font(theme.BODY, True).size(shown)[0] <= 700
    assert "".join(lines) == name
    assert theme.ellipsize("Ann", theme.font(theme.BODY), 700) == "Ann"


def test_the_palette_size_saves_check_against_is_the_real_one() -> None:
    assert len(theme.PLAYER_COLOURS) == saves.PALETTE_SIZE


@pytest.mark.parametrize("content", [
    b"[" * 100_000 + b"]" * 100_000, b'{"volume": ' + b"9" * 5000 + b"}", b"\xff\xfe",
    b"\x00" * 100, b'{"volume": NaN, "bot_speed": "warp"}', b"#" * 200_000,
], ids=["deep", "digits", "not-utf8", "nul", "nan", "huge"])
def test_a_broken_settings_file_gives_the_defaults(content: bytes) -> None:
    folder = saves.autosave_path().parent
    folder.mkdir(parents=True)
    (folder / "settings.json").write_bytes(content)
    loaded = Settings.load()
    assert loaded.bot_speed == "normal" and 0.0 <= loaded.volume <= 1.0
    application = App()  # opens, and draws the title
    try:
        _title_frames(application)
        assert application.frames >= 4
    finally:
        pygame.quit()


def test_a_folder_where_the_save_should_be_does_not_stop_the_title(app: App) -> None:
    saves.autosave_path().mkdir(parents=True)
    (saves.user_data_dir() / "settings.json").mkdir()
    title = _title_frames(app)
    assert app.top is title and title.saved is None and app.frames >= 4


def test_a_save_cut_short_by_a_kill_is_cleaned_up_at_start(app: App) -> None:
    folder = saves.autosave_path().parent
    folder.mkdir(parents=True)
    (folder / "autosave.tmp").write_text("format: 1\nruleset: dino_hu")
    (folder / "settings.json.tmp").write_text("{")
    _title_frames(app)
    assert not (folder / "autosave.tmp").exists()
    assert not (folder / "settings.json.tmp").exists()


# --- writing ----------------------------------------------------------------------


def _game() -> saves.SavedGame:
    return saves.SavedGame("dino_hunt_dice", 1, [saves.SavedSeat("Ann", "human", 0),
                                                 saves.SavedSeat("Ben", "human", 1)],
                           {}, 3, [])


def test_a_save_is_synced_to_disk_before_it_replaces_the_old_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}") if os.path.exists("/proc/self/fd")
                      else str(fd))
        real_fsync(fd)

    def replace(src: str | Path, dst: str | Path) -> None:
        synced.append(f"rename {Path(src).name} -> {Path(dst).name}")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    path = tmp_path / "autosave.yaml"
    assert saves.try_write(_game(), path) is None
    assert synced[0].endswith("autosave.tmp")
    assert synced[1] == "rename autosave.tmp -> autosave.yaml"
    assert synced[2] == str(tmp_path)  # the folder, so the rename itself is kept
    assert saves.read(path) == _game()
    assert not (tmp_path / "autosave.tmp").exists()


def test_a_full_disk_keeps_the_old_save_and_leaves_no_temporary_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "autosave.yaml"
    assert saves.write(_game(), path)
    before = path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    bigger = _game()
    bigger.log = [(0, "roll", ())]
    problem = saves.try_write(bigger, path)
    assert problem is not None and "No space left on device" in problem
    assert path.read_bytes() == before
    assert not (tmp_path / "autosave.tmp").exists()


@pytest.mark.parametrize("obstacle", ["save-is-a-folder", "data-folder-is-a-file"])
def test_a_save_that_cannot_be_written_is_reported_once_and_play_goes_on(
        app: App, obstacle: str) -> None:
    home = saves.user_data_dir()
    if obstacle == "save-is-a-folder":
        saves.autosave_path().mkdir(parents=True)
    else:
        home.parent.mkdir(parents=True, exist_ok=True)
        home.write_text("a file where the data folder should be")
    rules = load_by_id("dino_hunt_dice")
    table = TableScene(app, rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], {}, 5)
    app.push(table)
    for _ in range(4):
        table.take(legal_actions(table.state)[0])
        app.step()
    assert len(table.state.log) == 4  # play went on
    notes = [line for line in table.log if "cannot be saved" in line]
    assert len(notes) == 1
    assert table.save_problem and str(saves.autosave_path()) in table.save_problem


# --- finished games ------------------------------------------------------------------


def _finish(app: App, seed: int) -> TableScene:
    rules = load_by_id("dino_hunt_dice")
    table = TableScene(app, rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)],
                       {"goal": 5}, seed)
    while not table.state.game_over:
        table.take(legal_actions(table.state)[-1])
    return table


def test_a_finished_game_is_archived_not_offered(app: App) -> None:
    table = _finish(app, 8)
    assert not saves.autosave_path().exists()
    (archived,) = saves.finished_dir().glob("*.yaml")
    _, state = saves.load(archived)
    assert state.game_over and state.to_dict() == table.state.to_dict()
    title = _title_frames(app)
    assert title.saved is None and app.top is title


def test_only_the_last_twenty_finished_games_are_kept(app: App) -> None:
    for seed in range(23):
        _finish(app, seed)
    kept = sorted(saves.finished_dir().glob("*.yaml"))
    assert len(kept) == saves.KEEP_FINISHED == 20
    assert saves.read(kept[-1]).seed == 22 and saves.read(kept[0]).seed == 3


def test_a_save_of_a_game_already_over_goes_to_the_finished_games(app: App) -> None:
    table = _finish(app, 9)
    saves.write(table.saved_game())  # as an older version left it
    title = _title_frames(app)
    assert title.saved is None and app.top is title
    assert not saves.autosave_path().exists()
    assert len(list(saves.finished_dir().glob("*.yaml"))) == 2


# --- bots after Continue -------------------------------------------------------------


def _bots_move(app: App, table: TableScene, moves: int) -> None:
    app.reset(table)
    for _ in range(moves):
        if table.state.game_over:
            return
        table._bot_turn(10.0)  # what the table does when a bot's time to think is up


def _log(table: TableScene) -> list[tuple[int, str, tuple[tuple[str, object], ...]]]:
    return [(a.player, a.id, a.args) for a in table.state.log]


def test_a_continued_game_plays_on_exactly_as_the_uninterrupted_one(app: App) -> None:
    rules = load_by_id("dinosaur_dice")
    seats = [Seat("Ann", "heuristic", 0), Seat("Ben", "random", 1), Seat("Cat", "random", 2)]
    straight = TableScene(app, rules, seats, {"goal": 30}, 21)
    _bots_move(app, straight, 12)
    game, state = saves.load()
    continued = TableScene(app, rules, seats, dict(game.options), game.seed, state,
                           game.bots_rng())
    # The old way: the source started again from the seed.
    restarted = TableScene(app, rules, seats, dict(game.options), game.seed, saves.load()[1])
    _bots_move(app, straight, 40)
    _bots_move(app, continued, 40)
    _bots_move(app, restarted, 40)
    assert len(_log(straight)) == 52
    assert _log(continued) == _log(straight)
    assert _log(restarted) != _log(straight)  # so the comparison above can tell


def test_continue_from_the_title_restores_the_bots_source(app: App) -> None:
    rules = load_by_id("dino_hunt_dice")
    seats = [Seat("Ann", "random", 0), Seat("Ben", "random", 1)]
    table = TableScene(app, rules, seats, {}, 4)
    _bots_move(app, table, 5)
    expected_state = table.rng.getstate()
    title = _title_frames(app)
    title.resume()
    resumed = app.top
    assert isinstance(resumed, TableScene)
    assert resumed.rng.getstate() == expected_state


def test_a_save_without_the_bots_source_still_opens() -> None:
    game = _game()
    path = saves.autosave_path()
    saves.write(game, path)
    text = path.read_text()
    assert "bots_random" not in text
    back = saves.read(path)
    assert back.bots_random is None
    assert back.bots_rng().random() == random.Random(3 ^ 0xB07).random()


# --- names ---------------------------------------------------------------------------


def test_setup_refuses_control_characters_in_a_name(app: App) -> None:
    setup = SetupScene(app, load_by_id("dino_hunt_dice"))
    seat = setup.seats[0]
    seat.name = ""
    for ch in "A\x00\u202eB\tC":
        setup.type_name(seat, ch)
    assert seat.name == "ABC"


# --- the loader never raises anything but LoadError ------------------------------------


def _real_save() -> str:
    rules = load_by_id("dino_hunt_dice")
    from dinotable.engine import apply, new_game

    state = new_game(rules, ["Ann", "Ben"], {"goal": 12}, 41)
    for _ in range(6):
        apply(state, legal_actions(state)[0])
    game = saves.SavedGame(rules.id, rules.version, [saves.SavedSeat("Ann", "human", 2),
                                                     saves.SavedSeat("Ben", "random", 4)],
                           dict(state.options), 41,
                           [(a.player, a.id, a.args) for a in state.log],
                           random.Random(9).getstate())
    return yaml.safe_dump(saves.to_data(game), sort_keys=False, default_flow_style=None)


REAL = _real_save()
PROPERTY = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _loads_or_refuses(path: Path, content: bytes) -> None:
    path.write_bytes(content)
    try:
        saves.load(path)
    except LoadError as exc:
        assert exc.problems and all(len(str(p)) < len(str(path)) + 400 for p in exc.problems)


@PROPERTY
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash_the_loader(tmp_path: Path, content: bytes) -> None:
    _loads_or_refuses(tmp_path / "autosave.yaml", content)


_scalars = (st.none() | st.booleans() | st.integers() | st.floats()
            | st.text(max_size=30) | st.integers(min_value=-10, max_value=10))
_yaml_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=5)
                            | st.dictionaries(_scalars, inner, max_size=5), max_leaves=40)


@PROPERTY
@given(_yaml_values)
def test_random_yaml_never_crashes_the_loader(tmp_path: Path, value: object) -> None:
    try:
        text = yaml.safe_dump(value, allow_unicode=True)
    except yaml.YAMLError:
        return  # not every Python value has a YAML form
    _loads_or_refuses(tmp_path / "autosave.yaml", text.encode("utf-8", "surrogatepass"))


_KEYS = ["format", "ruleset", "version", "seats", "options", "seed", "log", "bots_random"]


@PROPERTY
@given(st.sampled_from(_KEYS), st.lists(st.integers(0, 8), max_size=3), _yaml_values)
def test_a_real_save_with_any_field_replaced_never_crashes_the_loader(
        tmp_path: Path, key: str, steps: list[int], value: object) -> None:
    data = yaml.safe_load(REAL)
    target: object = data
    parent: object = None
    index: object = key
    parent, target = data, data[key]
    for step in steps:  # walk into the field a little way, where it has parts
        if isinstance(target, list) and target:
            parent, index = target, step % len(target)
            target = target[step % len(target)]
        elif isinstance(target, dict) and target:
            parent, index = target, sorted(target, key=str)[step % len(target)]
            target = target[index]  # type: ignore[index]
    parent[index] = value  # type: ignore[index]
    try:
        text = yaml.safe_dump(data, allow_unicode=True)
    except yaml.YAMLError:
        return
    _loads_or_refuses(tmp_path / "autosave.yaml", text.encode("utf-8", "surrogatepass"))


@PROPERTY
@given(st.integers(0, len(REAL)), st.integers(0, 40), st.text(max_size=40))
def test_a_real_save_with_its_text_damaged_never_crashes_the_loader(
        tmp_path: Path, at: int, cut: int, inserted: str) -> None:
    text = REAL[:at] + inserted + REAL[at + cut:]
    _loads_or_refuses(tmp_path / "autosave.yaml", text.encode("utf-8", "surrogatepass"))
