"""A player's area groups their cards by a property with a running total after each
heading, and draws an item attached to another with it, tucked behind: Danger! Danger!
Dinosaur's ideas by colour ("Red 30") with each Tool Bonus peeking out behind its Big Idea,
the totals counting only what the viewer may see."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
import yaml
from helpers import only_problem, write_rules

from dinotable.app import App, logical_size
from dinotable.engine import Action, new_game
from dinotable.engine.positions import arrange
from dinotable.render import theme
from dinotable.ruleset import load_by_id
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table.chrome import PlayersPart

FRAME = 1 / 30
STACKS = Path(__file__).resolve().parent / "fixtures" / "good_rulesets" / "fixture_stacks"


def tools_table(app: App) -> TableScene:
    """Ann holds Cave Painting (red 15), The Wheel and Raft (blue 10 and 5) and Farming
    (green 15) and may claim the Flint Knife and the Hoe on top of two Game stacks; Ben
    holds Longhouse (blue 15) and a face-down Storyteller (blue 5, a Secret card)."""
    rules = load_by_id("danger_danger_dinosaur")
    wanted = {("game_1", 0): ["flint_knife", "spear"], ("game_2", 0): ["hoe", "raft"],
              ("game_cards", 0): ["cave_painting", "the_wheel", "raft", "farming"],
              ("game_cards", 1): ["longhouse"], ("secret_cards", 1): ["storyteller"]}
    state = new_game(rules, ["Ann", "Ben"], {}, 5, setup=lambda st: arrange(st, wanted))
    state.chance.force(["fire", "labor", "food", "labor", "idea"])
    table = TableScene(app, rules, [Seat("Ann", "human", 0), Seat("Ben", "heuristic", 1)],
                       {}, 5, state=state, saving=False)
    app.push(table)
    table.handed(0)
    for action in (Action(0, "roll"), Action(0, "stop")):
        play(table, action)
    return table


def play(table: TableScene, action: Action) -> None:
    table.take(action)
    for _ in range(3000):
        if table.idle:
            return
        table.update(FRAME)


def area_words(table: TableScene, size: tuple[int, int]) -> list[tuple[str, pygame.Rect]]:
    """The words drawn in the players column and the cards there (by kind), in reading
    order."""
    canvas = pygame.Surface(logical_size(size))
    table.resized(canvas.get_size())
    with theme.seeing_text() as seen:
        table.draw(canvas)
    column = table.area["players"]
    areas = table.part(PlayersPart).areas
    things = [(s, r) for s, r, surface in seen.drawn if surface is canvas
              and column.contains(r)] + [(kind, pygame.Rect(r)) for r, kind in areas.faces]
    return sorted(things, key=lambda sr: (sr[1].centery // 12, sr[1].x))


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_ideas_group_by_colour_with_running_totals_and_tools_tucked_behind(
        app: App, size: tuple[int, int]) -> None:
    table = tools_table(app)
    words = [s for s, _ in area_words(table, size)]
    # Each colour's heading with its total so far, in the ruleset's order; Ben's blue
    # counts his Longhouse, not the Storyteller Ann cannot see.
    assert [w for w in words if w.endswith(":") and w[0] in "RBG"] == [
        "Red 15:", "Blue 15:", "Green 15:", "Blue 15:"], words
    assert words.index("Red 15:") < words.index("cave_painting") < words.index("Blue 15:")
    assert words.index("Blue 15:") < words.index("the_wheel") < words.index("Green 15:")
    play(table, Action(0, "claim", (("card", "flint_knife"),)))
    play(table, Action(0, "claim", (("card", "hoe"),)))
    words = [s for s, _ in area_words(table, size)]
    # A Tool Bonus doubles its Big Idea: the totals run on.
    assert "Red 30:" in words and "Green 30:" in words, words
    assert "Tools waiting:" not in words  # both attached: none waits
    areas = table.part(PlayersPart).areas
    faces = [(kind, pygame.Rect(rect)) for rect, kind in areas.faces]
    kinds = [kind for kind, _ in faces]
    for tool, idea in (("flint_knife", "cave_painting"), ("hoe", "farming")):
        assert tool in kinds and idea in kinds, kinds
        tool_rect, idea_rect = dict(faces)[tool], dict(faces)[idea]
        # Drawn first, so the card lies over it; peeking out at the card's right.
        assert kinds.index(tool) < kinds.index(idea)
        assert idea_rect.x < tool_rect.x < idea_rect.right < tool_rect.right
        assert abs(tool_rect.centery - idea_rect.centery) <= 4


def test_a_tool_bonus_with_no_big_idea_of_its_colour_waits_apart(app: App) -> None:
    table = tools_table(app)
    table.state.zones["game_cards"][0] = [i for i in table.state.zone("game_cards", 0)
                                         if table.state.items[i].kind != "cave_painting"]
    play(table, Action(0, "claim", (("card", "flint_knife"),)))
    words = [s for s, _ in area_words(table, (1280, 720))]
    assert "Tools waiting:" in words and "flint_knife" in words, words
    assert words.index("Tools waiting:") < words.index("flint_knife")
    assert not any(w.startswith("Red ") for w in words)


@pytest.mark.parametrize(("widget", "message"), [
    ({"show": "players", "zone": "built", "group": "sute"}, "unknown property 'sute'"),
    ({"show": "row", "zone": "stack_1", "group": "suit"}, "group: is for a zone each player"),
    ({"show": "players", "zone": "built", "group": "suit", "groups": ["red"]},
     "expected {VALUE: TEXT}"),
    ({"show": "players", "zone": "built", "group": "suit", "groups": {"red": "Red {nope}"}},
     "nope"),
])
def test_a_grouping_mistake_names_its_line_and_what_was_expected(
        tmp_path: Path, widget: dict[str, Any], message: str) -> None:
    data = yaml.safe_load((STACKS / "rules.yaml").read_text(encoding="utf-8"))
    data["id"] = "grouping_mistake"
    data.setdefault("layout", {})["widgets"] = [widget]
    problem = only_problem(write_rules(tmp_path, data))
    assert message in problem.message, problem.message
    assert problem.line > 0 and problem.path.startswith("layout.widgets[0]")
