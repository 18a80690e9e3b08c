"""The card list and the zoomed card: every game's cards can be browsed, read and flipped,
and a ruleset says what a card's face and back show (`layout: cards`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from dinotable.engine import Rules
from dinotable.render import cards, theme
from dinotable.ruleset import load_by_id, load_ruleset
from dinotable.ruleset.problems import LoadError
from dinotable.scenes.cards import MIN_SCREEN_PX, CardsScene

if TYPE_CHECKING:
    from dinotable.app import App

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(p.name for p in (ROOT / "rulesets").iterdir() if (p / "rules.yaml").exists())
FIXTURES = sorted(p for p in (ROOT / "tests" / "fixtures" / "good_rulesets").iterdir()
                  if (p / "rules.yaml").exists())


@pytest.fixture(scope="module")
def hunt() -> Rules:
    """The shipped Dino Hunt ruleset."""
    return load_by_id("dino_hunt")


@pytest.fixture
def words(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string written on screen: lines through `theme.text`, wrapped words through
    the cards' paragraphs."""
    said: list[str] = []
    text, paragraph = theme.text, cards._paragraph

    def spy_text(surface: Any, string: str, *args: Any, **kwargs: Any) -> Any:
        said.append(string)
        return text(surface, string, *args, **kwargs)

    def spy_paragraph(string: str, *args: Any, **kwargs: Any) -> Any:
        said.append(string)
        return paragraph(string, *args, **kwargs)

    monkeypatch.setattr(theme, "text", spy_text)
    monkeypatch.setattr(cards, "_paragraph", spy_paragraph)
    return said


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="")


def click(pos: tuple[int, int]) -> list[pygame.event.Event]:
    """A click at a canvas point (the app's window is the canvas's size in these tests)."""
    return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)]


def open_list(app: App, rules: Rules) -> CardsScene:
    scene = CardsScene(app, rules)
    app.push(scene)
    app.step([])
    return scene


def show(app: App, scene: CardsScene, kind: str) -> None:
    """Zoom a card from the list with the keyboard: Tab to its group, arrows to it, Enter."""
    for _ in range(len(scene.groups)):
        if any(c.kind == kind for c in scene.shown):
            break
        app.step([key(pygame.K_TAB)])
    index = [c.kind for c in scene.shown].index(kind)
    app.step([key(pygame.K_HOME)])
    app.step([key(pygame.K_RIGHT)] * index)
    app.step([key(pygame.K_RETURN)])


# --- every game's cards open --------------------------------------------------------------

@pytest.mark.parametrize("folder", [*(ROOT / "rulesets" / r for r in SHIPPED), *FIXTURES],
                         ids=lambda p: p.name)
def test_the_card_list_opens_for_every_game(app: App, folder: Path, drawn: list[str],
                                            words: list[str]) -> None:
    rules = load_ruleset(folder)
    scene = open_list(app, rules)
    if not rules.items:
        assert "This game has no cards." in words
        assert drawn == []
    else:
        assert drawn and set(drawn) <= set(rules.items)
        assert sum(len(g.cards) for g in scene.groups) == len(rules.items)
    answers: list[Any] = []
    scene.on_dismiss = answers.append
    # Every key a player might press, in and out of the zoom; the third Esc closes the list
    # (the first two close the zoom, when there are cards to zoom).
    app.step([key(pygame.K_RIGHT), key(pygame.K_DOWN), key(pygame.K_RETURN), key(pygame.K_f),
              key(pygame.K_RIGHT), key(pygame.K_TAB), key(pygame.K_f)])
    assert scene in app.stack and answers == []
    for _ in range(3 if rules.items else 1):
        app.step([key(pygame.K_ESCAPE)])
    assert scene not in app.stack and answers == [None]


# --- Dino Hunt: tabs, the zoomed face and its back --------------------------------------

def test_dino_hunt_lists_dinosaurs_and_specials_in_two_tabs_with_their_copies(
        app: App, hunt: Rules, words: list[str]) -> None:
    scene = open_list(app, hunt)
    assert [g.name for g in scene.groups] == ["Dinosaurs", "Specials"]
    by_group = {g.name: {c.kind for c in g.cards} for g in scene.groups}
    assert by_group["Dinosaurs"] == {k for k, i in hunt.items.items()
                                     if i.props["group"] == "dinosaur"}
    assert by_group["Specials"] == {k for k, i in hunt.items.items()
                                    if i.props["group"] == "special"}
    assert len(by_group["Dinosaurs"]) >= 60 and len(by_group["Specials"]) >= 20
    assert f"Dinosaurs ({len(by_group['Dinosaurs'])})" in [c.label for c in scene.menu.controls]
    doubled = next(c for c in scene.shown if c.copies == 2)
    show(app, scene, doubled.kind)
    assert "x2" in words


def test_a_zoomed_dinosaur_shows_its_name_numbers_and_hunt_table_and_its_back_the_facts(
        app: App, hunt: Rules, drawn: list[str], words: list[str]) -> None:
    scene = open_list(app, hunt)
    rex = hunt.items["tyrannosaurus_rex"]
    show(app, scene, "tyrannosaurus_rex")
    assert scene.zoomed and not scene.flipped
    assert drawn[-1] == "tyrannosaurus_rex"
    assert rex.label in words
    assert str(rex.props["points"]) in words and "Score" in words
    for roll, result in rex.props["hunt"].items():
        assert f"{roll}: {cards.words_of(result)}" in words
    assert rex.props["fact"] not in words  # the back is not the face
    words.clear()
    app.step([key(pygame.K_f)])
    assert scene.flipped and drawn[-1] == "tyrannosaurus_rex"
    for name, label in (("size", "Size"), ("found", "Found in"), ("fact", "Did you know?")):
        assert label in words and rex.props[name] in words
    assert not any(w.startswith("1: ") for w in words)  # the hunt table is on the face


def test_a_special_shows_what_it_does_and_its_story(app: App, hunt: Rules,
                                                    words: list[str]) -> None:
    scene = open_list(app, hunt)
    show(app, scene, "misfire")
    misfire = hunt.items["misfire"]
    assert misfire.text in words and misfire.props["story"] in words
    assert "After rival roll" in words  # its timing, as words


def test_clicking_a_card_zooms_it_clicking_it_again_flips_it_and_outside_closes_the_zoom(
        app: App, hunt: Rules) -> None:
    scene = open_list(app, hunt)
    rect, index = scene.hits[2]
    app.step(click(rect.center))
    assert scene.zoomed and scene.focus == index and not scene.flipped
    app.step(click(scene.card_rect.center))
    assert scene.flipped
    app.step(click(scene.menu.find("flip").rect.center))
    assert not scene.flipped
    app.step(click((20, 700)))
    assert not scene.zoomed and scene in app.stack


def test_the_keyboard_reaches_the_last_card_of_each_group_and_shows_it(
        app: App, hunt: Rules, drawn: list[str]) -> None:
    scene = open_list(app, hunt)
    for tab in range(len(scene.groups)):
        last = scene.shown[-1]
        cols = scene.grid_geometry()[0]
        rows = -(-len(scene.shown) // cols)
        app.step([key(pygame.K_DOWN)] * rows + [key(pygame.K_RIGHT)] * cols)
        assert scene.focus == len(scene.shown) - 1
        drawn.clear()
        app.step([])
        assert last.kind in drawn  # scrolled into the list's view
        app.step([key(pygame.K_RETURN)])
        assert scene.zoomed and drawn[-1] == last.kind
        app.step([key(pygame.K_ESCAPE), key(pygame.K_TAB)])
        assert scene.tab == (tab + 1) % len(scene.groups) and scene.focus == 0


def test_in_a_small_window_the_list_draws_larger_so_words_stay_readable(
        app: App, hunt: Rules) -> None:
    scene = open_list(app, hunt)
    cols_big, _, _, size_big = scene.grid_geometry()
    app.dispatch(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=600))
    app.step([])
    view, canvas = app.view_and_size()  # the list re-flows on a canvas the window's shape
    assert view.size == (800, 600) and canvas[0] / canvas[1] == pytest.approx(800 / 600, 0.01)
    cols, _, _, size = scene.grid_geometry()
    assert size * view.w / canvas[0] >= MIN_SCREEN_PX  # on the screen, in pixels
    assert size > size_big and cols < cols_big
    app.step([key(pygame.K_END)])
    assert scene.focus == len(scene.shown) - 1


# --- any ruleset: what the face, back and list show, from `layout: cards` ---------------

CARD_GAME = """
    id: card_test
    name: Card Test
    version: 1
    players: {min: 2, max: 2}
    properties:
      team: ""
      points: 0
      odds: {}
      fact: ""
      story: ""
      on_play: {type: effects}
    items:
      zebra: {type: card, label: Zebra, team: b, points: 1, fact: Stripes}
      ant: {type: card, label: Ant, team: a, points: 5, odds: {1: lost, 2: found}}
      bee: {type: card, label: Bee, team: a, points: 2, copies: 3, story: "Buzz."}
      cow: {type: token, label: Cow}
    zones:
      deck: {holds: cards, start: all}
    actions:
      pass: {effects: [{end_turn: {}}]}
    score: "0"
    end: {trigger: "true"}
    %s
"""
LAYOUT_LINE = len(CARD_GAME.strip().splitlines())  # `layout:` is the file's last line


def with_cards(load_text_ruleset: Callable[[str], Rules], cards_yaml: str) -> Rules:
    return load_text_ruleset(CARD_GAME % f"layout: {{cards: {cards_yaml}}}")


def test_groups_tabs_and_sort_follow_the_layout(app: App,
                                                load_text_ruleset: Callable[[str], Rules]
                                                ) -> None:
    rules = with_cards(load_text_ruleset, "{group: team, tabs: {b: Bees first}, "
                                          "sort: [points, label], face: [points]}")
    scene = open_list(app, rules)
    assert [g.name for g in scene.groups] == ["Bees first", "A", "Other"]
    assert [c.kind for c in scene.groups[1].cards] == ["bee", "ant"]  # by points
    app.step([key(pygame.K_TAB)])
    assert scene.shown[0].kind == "bee"


def test_face_and_back_show_the_declared_properties_with_their_labels(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = with_cards(load_text_ruleset, "{face: {points: Score, odds: Odds, story: ''}, "
                                          "back: {fact: Did you know}}")
    ant, bee, zebra = (cards.card_info(rules, k) for k in ("ant", "bee", "zebra"))
    assert [(f.label, f.value, f.form) for f in ant.face[:1]] == [("Score", "5", "number")]
    assert ant.face[1].form == "table" and ant.face[1].rows == (("1", "Lost"), ("2", "Found"))
    assert bee.face[-1].label == "" and bee.face[-1].value == "Buzz." and bee.copies == 3
    assert [(f.label, f.value) for f in zebra.back] == [("Did you know", "Stripes")]
    assert ant.back == ()  # no fact: nothing to print


def test_without_the_key_a_card_shows_every_value_it_carries(
        load_text_ruleset: Callable[[str], Rules], app: App, words: list[str]) -> None:
    rules = load_text_ruleset(CARD_GAME % "")
    assert rules.layout.cards is None
    ant = cards.card_info(rules, "ant")
    assert ("Points", "5") in [(f.label, f.value) for f in ant.face]
    scene = open_list(app, rules)
    assert [g.name for g in scene.groups] == ["Cards", "Tokens"]
    show(app, scene, "ant")
    app.step([key(pygame.K_f)])
    assert "Nothing is printed on the back of this card." in words


@pytest.mark.parametrize(("setting", "message"), [
    ("{face: [pionts]}", "unknown property 'pionts' (did you mean 'points'?)"),
    ("{faces: [points]}", "unknown cards setting 'faces' (did you mean 'face'?)"),
    ("{back: {on_play: Rules}}", "holds effects"),
    ("{band: [teem]}", "unknown property 'teem' (did you mean 'team'?)"),
    ("{sort: [lable]}", "did you mean 'label'?"),
    ("{colours: {a: red}}", "expected a colour like"),
    ("{tabs: {a: A}}", "set `group` too"),
    ("[points]", "expected {face:"),
])
def test_a_wrong_cards_setting_is_refused_with_its_file_and_line(
        load_text_ruleset: Callable[[str], Rules], setting: str, message: str) -> None:
    with pytest.raises(LoadError) as caught:
        with_cards(load_text_ruleset, setting)
    text = str(caught.value)
    assert message in text
    line = next(p for p in text.splitlines() if message in p)
    assert f"rules.yaml:{LAYOUT_LINE}:" in line


def test_the_cards_layout_of_dino_hunt_names_real_properties(hunt: Rules) -> None:
    style = hunt.layout.cards
    assert style is not None and style.group == "group"
    assert dict(style.back) == {"size": "Size", "found": "Found in", "fact": "Did you know?"}
    assert "hunt" in dict(style.face)
