"""Dino Dude Ranch as a new player first meets it: the words of the log, the buttons of
the action bar and the dice at the start of a turn."""

from __future__ import annotations

import random

import pytest

from dinotable.app import App
from dinotable.bots import choose
from dinotable.engine import apply, legal_actions, new_game
from dinotable.narrate import describe
from dinotable.ruleset import installed_rulesets, load_by_id
from dinotable.scenes.setup import Seat, SetupScene
from dinotable.scenes.table import TableScene


def test_a_new_dinosaur_is_said_to_come_from_the_dinosaur_bag() -> None:
    """The rulebook's "Parts Bag" means nothing at the table: the log names the bag by
    what is in it."""
    rules = load_by_id("dino_dude_ranch")
    state = new_game(rules, ["Ann", "Ben"], {}, 3)
    rng = random.Random(3)
    lines: list[str] = []
    while not state.game_over and not lines:
        events = apply(state, choose("heuristic", state, rng))
        lines = [str(describe(e, state, 0)) for e in events
                 if e.kind == "drew" and e.data["from"] == "bag"]
    assert lines, "no dinosaur came out of the bag"
    for line in lines:
        assert "from the dinosaur bag" in line and "parts" not in line.lower(), line


SWITCHED = [p.name for p in installed_rulesets()
            if any(isinstance(o.default, bool) for o in load_by_id(p.name).options.values())]


@pytest.mark.parametrize("ruleset", SWITCHED)
def test_a_switch_on_the_setup_screen_reads_on_or_off(app: App, ruleset: str) -> None:
    """Every game's yes-or-no options read On and Off, both ways round, never Python's
    True and False."""
    rules = load_by_id(ruleset)
    setup = SetupScene(app, rules)
    app.push(setup)
    switches = [n for n, o in rules.options.items() if isinstance(o.default, bool)
                and f"option:{n}" in {c.tag for c in setup.menu.controls}]
    assert switches, "the switches are offered"
    for name in switches:
        for _ in range(2):
            value = setup.menu.find(f"option:{name}").value
            assert value in ("On", "Off"), f"{name}: {value}"
            setup.step_option(name, 1)
            if setup.menu.find(f"option:{name}").value == value:
                break  # a switch with one choice at this many players


def test_the_buy_button_says_its_price_and_has_a_key(app: App) -> None:
    """"Buy a card: Leaf" read as a card for one Leaf: the bar has one buy button that
    says it costs 2 food, with its key like every other move's, and asks for the food."""
    rules = load_by_id("dino_dude_ranch")
    for seed in range(40):
        state = new_game(rules, ["Ann", "Ben"], {}, seed)
        if state.current != 0:
            continue
        apply(state, next(a for a in legal_actions(state) if a.id == "roll"))
        if any(a.id == "buy" for a in legal_actions(state)) and state.current == 0:
            break
    else:
        pytest.fail("no opening roll let Ann buy a card")
    table = TableScene(app, rules, [Seat("Ann", "human", 0), Seat("Ben", "heuristic", 1)],
                       {}, seed, state=state, saving=False)
    app.push(table)
    buying = [c for c in table.chooser.choices() if "buy" in c.tag]
    assert len(buying) == 1, [c.label for c in buying]
    assert "2 food" in buying[0].label and buying[0].key == "B"
    assert buying[0].step is not None and buying[0].step() is None, "the food is asked for"
    assert {c.label for c in table.chooser.choices()} & {"Leaf", "Fish", "Meat"}


def test_no_face_of_the_last_roll_shows_as_a_new_turn_begins() -> None:
    """The dice are taken up between turns: before a player rolls, the row of dice shows
    none (not the last player's Fish and Meat), and their roll shows both."""
    from dinotable.engine import view_for

    rules = load_by_id("dino_dude_ranch")
    state = new_game(rules, ["Ann", "Ben", "Cat", "Dan"], {}, 5)
    rng = random.Random(5)
    turns = 0
    while not state.game_over and turns < 12:
        if not any(a.id == "roll" for a in legal_actions(state)):
            apply(state, choose("heuristic", state, rng))
            continue
        assert view_for(state, None)["zones"]["dice"] == [], turns
        apply(state, next(a for a in legal_actions(state) if a.id == "roll"))
        assert len(view_for(state, None)["zones"]["dice"]) == 2
        turns += 1
    assert turns >= 8


@pytest.mark.parametrize("ruleset", [p.name for p in installed_rulesets()])
def test_every_greyed_move_says_when_it_can_be_made(ruleset: str) -> None:
    """A greyed button's tip says when the move is possible, in the game's own words,
    never only "not possible now"."""
    from dinotable.engine import Action, why_illegal

    rules = load_by_id(ruleset)
    state = new_game(rules, ["Ann", "Ben"], {}, 2)
    for adef in rules.actions.values():
        if adef.by != "current" or adef.when is None:
            continue
        words = why_illegal(state, Action(state.current, adef.id)) or ""
        assert "not possible now" not in words, (adef.id, words)


def test_each_food_buy_may_be_paid_with_is_one_button(app: App) -> None:
    """Buying asks for the two foods in turn: one button a food, never the same food
    twice on the bar (two buttons alike, and Tab stuck between them), even where several
    ways to pay begin with it (Leaf and Leaf, Leaf and Fish)."""
    rules = load_by_id("dino_dude_ranch")
    seats = [Seat(n, "human", i) for i, n in enumerate(["Ann", "Ben"])]
    table = TableScene(app, rules, seats, {}, 4, saving=False)
    app.push(table)
    rng = random.Random(4)
    shared = 0
    for _ in range(600):
        if table.state.game_over or shared >= 3:
            break
        chooser = table.chooser
        buys = [a for a in chooser.legal if a.id == "buy"]
        start = next((c for c in chooser.choices() if c.tag == "start:buy"), None)
        if start is not None and start.step is not None and len(buys) > len(
                {dict(a.args)["first"] for a in buys}):
            shared += 1
            start.step()
            tags = [c.tag for c in chooser.choices()]
            assert len(tags) == len(set(tags)), tags
            chooser.cancel()
        table.take(choose("heuristic", table.state, rng))
        table.steps.clear()
        table._settle()
    assert shared >= 3, "no turn came where two ways to pay began with one food"
