"""How the screens around the table behave: setup's steppers and keys, remembered names, the
rules page, modals that hand back what was chosen, no import circles, and no window without
a display."""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from helpers import ROOT

from dinotable.app import App, display_problem
from dinotable.engine import apply, new_game, sample_action
from dinotable.render import theme
from dinotable.ruleset import load_by_id
from dinotable.scenes.base import stepper_geometry
from dinotable.scenes.pause import PauseScene
from dinotable.scenes.results import ResultsScene, Standings, next_starter
from dinotable.scenes.rules import RulesScene, parse_rules, rules_lines
from dinotable.scenes.setup import Seat, SetupScene
from dinotable.scenes.table import TableScene
from dinotable.scenes.title import TitleScene
from dinotable.settings import Settings

SCENES = ROOT / "dinotable" / "scenes"


def click(app: App, pos: tuple[int, int]) -> None:
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])


def key(app: App, k: int) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)])


def type_text(app: App, text: str) -> None:
    for ch in text:
        app.step([pygame.event.Event(pygame.TEXTINPUT, text=ch)])


# --- setup ------------------------------------------------------------------------------


def test_the_left_arrow_of_a_stepper_lowers_and_the_right_arrow_raises(app: App) -> None:
    setup = SetupScene(app, load_by_id("dino_hunt_dice"))
    app.push(setup)
    goal = setup.menu.find("option:goal")
    g = stepper_geometry(goal)
    # Both arrows are drawn on the field's right half: the "<" itself must lower the goal.
    assert g.left > goal.rect.centerx
    before = setup.options["goal"]
    click(app, (g.left + 6, goal.rect.centery))
    assert setup.options["goal"] == before - 1
    click(app, (g.right - 6, setup.menu.find("option:goal").rect.centery))
    click(app, (g.right - 6, setup.menu.find("option:goal").rect.centery))
    assert setup.options["goal"] == before + 1


def test_enter_in_a_name_field_starts_the_game(app: App) -> None:
    setup = SetupScene(app, load_by_id("dino_hunt_dice"))
    app.push(setup)
    click(app, setup.menu.find("name:0").rect.center)
    assert setup.typing
    key(app, pygame.K_BACKSPACE)
    type_text(app, "na")
    key(app, pygame.K_RETURN)
    table = app.top
    assert isinstance(table, TableScene)
    assert table.seats[0].name == "Anna"


def test_enter_on_a_stepper_starts_and_on_a_button_presses_it(app: App) -> None:
    rules = load_by_id("dino_hunt_dice")
    setup = SetupScene(app, rules)
    app.push(setup)
    setup.menu.focus = setup.menu.controls.index(setup.menu.find("kind:0"))
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, TableScene)
    app.reset(TitleScene(app))
    setup = SetupScene(app, rules)
    app.push(setup)
    setup.menu.focus = setup.menu.controls.index(setup.menu.find("add"))
    key(app, pygame.K_RETURN)
    assert app.top is setup and len(setup.seats) == 4


def test_typed_names_are_remembered_for_the_next_setup(app: App) -> None:
    rules = load_by_id("dino_hunt_dice")
    setup = SetupScene(app, rules)
    app.push(setup)
    click(app, setup.menu.find("name:1").rect.center)
    for _ in range(3):
        key(app, pygame.K_BACKSPACE)
    type_text(app, "Grandpa")
    click(app, setup.menu.find("start").rect.center)
    assert isinstance(app.top, TableScene)
    # Read back from the settings file, as the next time the app opens.
    assert Settings.load().names[:2] == ["Ann", "Grandpa"]
    app.settings = Settings.load()
    again = SetupScene(app, rules)
    assert [s.name for s in again.seats][:2] == ["Ann", "Grandpa"]
    again.add_seat()
    names = [s.name for s in again.seats]
    assert len(set(names)) == len(names)


def test_a_hand_edited_names_list_cannot_break_the_setup(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "edited"
    home.mkdir()
    monkeypatch.setenv("DINOTABLE_HOME", str(home))
    (home / "settings.json").write_text('{"names": ["Zoe", 3, null, "' + "x" * 99 + '"]}',
                                        encoding="utf-8")
    assert Settings.load().names == ["Zoe"]


# --- the rules page ---------------------------------------------------------------------


def test_the_rules_text_is_reflowed_keeping_headings_breaks_and_nested_lists() -> None:
    text = ("# Game\n\nCatch as many as\nyou can.\n\n## Parts\n\n- A cup with:\n"
            "  - 5 green dice,\n    the friendly\n    ones.\n  - 2 red.\n- 2 to 6\n  players.\n"
            "\n1. First\n2. Second\n")
    blocks = [(b.kind, b.text, b.level, b.bullet) for b in parse_rules(text)]
    assert blocks == [
        ("heading", "Game", 1, ""), ("blank", "", 0, ""),
        ("para", "Catch as many as you can.", 0, ""), ("blank", "", 0, ""),
        ("heading", "Parts", 2, ""), ("blank", "", 0, ""),
        ("item", "A cup with:", 0, "•"), ("item", "5 green dice, the friendly ones.", 1, "•"),
        ("item", "2 red.", 1, "•"), ("item", "2 to 6 players.", 0, "•"), ("blank", "", 0, ""),
        ("item", "First", 0, "1."), ("item", "Second", 0, "2."),
    ]


def test_the_shipped_rules_fill_their_lines_and_indent_nested_items(app: App) -> None:
    from dinotable.render import theme

    rules = load_by_id("dino_hunt_dice")
    width = 920
    rows = rules_lines(rules, width)
    body = theme.font(theme.BODY)
    for n, row in enumerate(rows[:-1]):
        after = rows[n + 1]
        assert body.size(row.text)[0] <= width - row.x or row.bold
        if row.text and after.text and not after.bullet and not after.bold and not row.bold:
            # A wrapped line is only cut where the next word would not have fitted.
            word = after.text.split()[0]
            assert body.size(f"{row.text} {word}")[0] > width - row.x, (row, after)
    nested = [r for r in rows if r.bullet and r.bullet_x > 0]
    top = [r for r in rows if r.bullet and r.bullet_x == 0]
    assert nested and top and min(r.x for r in nested) > max(r.x for r in top)
    scene = RulesScene(app, rules)
    app.push(scene)
    app.step()
    key(app, pygame.K_ESCAPE)
    assert scene not in app.stack


# --- modals hand back what was chosen ---------------------------------------------------


def test_pause_hands_back_the_choice_and_knows_nothing_of_the_table(app: App) -> None:
    rules = load_by_id("dino_hunt_dice")
    below = TitleScene(app)
    app.push(below)
    chosen: list[Any] = []
    for tag, expected in (("resume", "resume"), ("restart", "restart"), ("quit", "quit")):
        pause = PauseScene(app, rules=rules)
        app.push(pause, chosen.append)
        click(app, pause.menu.find(tag).rect.center)
        if tag == "restart":  # asked once more first
            assert app.top is pause and pause.asking
            click(app, pause.menu.find("restart_yes").rect.center)
        assert app.top is below and chosen[-1] == expected
    pause = PauseScene(app, rules=rules)
    app.push(pause, chosen.append)
    click(app, pause.menu.find("rules").rect.center)
    assert isinstance(app.top, RulesScene)
    key(app, pygame.K_ESCAPE)  # back from the rules to the pause menu, nothing chosen yet
    assert app.top is pause and len(chosen) == 3
    key(app, pygame.K_ESCAPE)
    assert app.top is below and chosen[-1] == "resume"


def test_results_hand_back_again_or_title(app: App) -> None:
    standings = Standings("Dino Hunt Dice", ["Ann", "Ben"], [(200, 60, 60), (60, 60, 200)],
                          ["A", "B"], [13, 9], [0])
    chosen: list[Any] = []
    for tag in ("again", "title"):
        results = ResultsScene(app, standings=standings)
        app.push(results, chosen.append)
        app.step()
        click(app, results.menu.find(tag).rect.center)
        assert results not in app.stack
    assert chosen == ["again", "title"]
    assert ResultsScene(app, standings=standings).next_line() == "Play again and Ben goes first."


def test_a_team_games_results_give_each_teams_total_best_first(app: App) -> None:
    # 2 vs 2: the 1st and 3rd seats against the 2nd and 4th; the team's sum decides.
    standings = Standings("Dino Dude Ranch", ["Ann", "Ben", "Cat", "Dan"],
                          [(200, 60, 60)] * 4, [""] * 4, [14, 29, 17, 20], [1, 3],
                          teams=[0, 1, 0, 1], team_totals=[31, 49])
    assert standings.team_line() == "Ben and Dan 49  ·  Ann and Cat 31"
    alone = Standings("Dino Dude Ranch", ["Ann", "Ben"], [(200, 60, 60)] * 2, [""] * 2,
                      [14, 29], [1])
    assert alone.team_line() == ""
    results = ResultsScene(app, standings=standings)
    app.push(results)
    with theme.seeing_text() as seen:
        app.step()
    assert any("Ben and Dan 49" in text for text, _, _ in seen.drawn)
    assert not seen.cut


def test_play_again_seats_the_next_starter_first() -> None:
    assert next_starter(["Ann", "Ben", "Cat"]) == ["Ben", "Cat", "Ann"]
    assert next_starter(next_starter(["Ann", "Ben"])) == ["Ann", "Ben"]


def _scene_imports(path: Path) -> tuple[set[str], set[str]]:
    """(modules imported anywhere but under TYPE_CHECKING, those imported at module level)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = "dinotable.scenes"
    anywhere: set[str] = set()
    top: set[str] = set()

    def name_of(node: ast.ImportFrom) -> str:
        base = package.rsplit(".", node.level - 1)[0] if node.level else ""
        return ".".join(p for p in (base, node.module or "") if p)

    def visit(node: ast.AST, at_top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom):
                base = name_of(child)
                found = {f"{base}.{a.name}" if base == package else base for a in child.names}
                anywhere.update(found)
                if at_top:
                    top.update(found)
            elif isinstance(child, ast.Import):
                found = {a.name for a in child.names}
                anywhere.update(found)
                if at_top:
                    top.update(found)
            inner = at_top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.ClassDef))
            visit(child, inner)

    visit(tree, True)
    return anywhere, top


def test_the_scenes_and_the_app_import_each_other_in_no_circle() -> None:
    graph: dict[str, set[str]] = {}
    for path in sorted(SCENES.glob("*.py")):
        module = f"dinotable.scenes.{path.stem}"
        anywhere, top = _scene_imports(path)
        assert "dinotable.app" not in top, f"{module} imports the app at module level"
        graph[module] = {m for m in anywhere if m.startswith("dinotable.scenes.")
                         or m == "dinotable.app"}
    graph["dinotable.app"] = {m for m in _scene_imports(ROOT / "dinotable" / "app.py")[0]
                              if m.startswith("dinotable.scenes.")}
    # Modals only look down: they never import the table, the setup or the title.
    for modal in ("pause", "results", "message", "rules"):
        assert not graph[f"dinotable.scenes.{modal}"] & {
            "dinotable.scenes.table", "dinotable.scenes.setup", "dinotable.scenes.title",
            "dinotable.app"}, modal
    seen: dict[str, int] = {}

    def walk(node: str, path: list[str]) -> None:
        if seen.get(node) == 2:
            return
        assert seen.get(node) != 1, "import circle: " + " -> ".join([*path, node])
        seen[node] = 1
        for nxt in sorted(graph.get(node, ())):
            walk(nxt, [*path, node])
        seen[node] = 2

    for node in sorted(graph):
        walk(node, [])


@pytest.mark.parametrize("module", sorted(p.stem for p in SCENES.glob("*.py")
                                          if p.stem != "__init__"))
def test_each_scene_module_imports_alone_in_a_fresh_interpreter(module: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-c", f"import dinotable.scenes.{module}"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


# --- no display -------------------------------------------------------------------------


def test_without_a_display_the_app_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(PYTHONPATH=str(ROOT), DINOTABLE_HOME=str(tmp_path), SDL_AUDIODRIVER="dummy")
    for args in ([], ["play", "dino_hunt_dice"]):
        done = subprocess.run([sys.executable, "-m", "dinotable", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, (done.stdout, done.stderr)
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, done.stderr
        assert lines[0].startswith("dinotable needs a display:")
        assert "dinotable terminal" in lines[0] and "dino_hunt_dice" in lines[0]


def test_a_display_or_a_chosen_driver_is_trusted() -> None:
    assert display_problem({}, "linux") is not None
    assert display_problem({"SDL_VIDEODRIVER": "x11"}, "linux") is not None
    assert display_problem({"DISPLAY": ":0"}, "linux") is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert display_problem({"SDL_VIDEODRIVER": "dummy"}, "linux") is None
    assert display_problem({}, "darwin") is None
    assert display_problem({}, "win32") is None


def test_a_finished_team_tables_standings_add_up_each_team(app: App) -> None:
    rules = load_by_id("dino_dude_ranch")
    state = new_game(rules, ["Ann", "Ben", "Cat", "Dan"], {"teams": True}, 2)
    rng = random.Random(2)
    while not state.game_over:
        apply(state, sample_action(state, rng))
    seats = [Seat(n, "random", i) for i, n in enumerate(state.players)]
    table = TableScene(app, rules, seats, {"teams": True}, 2, state=state, saving=False)
    standings = Standings.of_table(table)
    assert standings.teams == [0, 1, 0, 1]
    assert standings.team_totals == [standings.scores[0] + standings.scores[2],
                                     standings.scores[1] + standings.scores[3]]
    assert str(max(standings.team_totals)) in standings.team_line().split("  ·  ")[0]
