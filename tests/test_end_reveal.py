"""The end of a game played back one thing at a time: each player's hidden cards turned up
in turn, then each end bonus handed out, every one shown long enough to read, and only then
the results, which come by themselves with nobody touching the mouse or the keys
(Danger! Danger! Dinosaur's Secret cards and Highest Color Score cards)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pygame
import pytest

from dinotable.app import App
from dinotable.engine import Action, new_game, scores
from dinotable.engine.positions import arrange
from dinotable.render import theme
from dinotable.ruleset import load_by_id
from dinotable.scenes.results import ResultsScene
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.table import chrome, display

FRAME = 1 / 30


def last_claim_table(app: App) -> TableScene:
    """Ann (a person, holding the laptop) about to claim the last Game card, the Torch:
    red goes to her (Cave Painting and the Torch), green to Ben (Farming); both hold
    Secret cards face down."""
    rules = load_by_id("danger_danger_dinosaur")
    wanted = {("game_1", 0): ["torch"], ("game_2", 0): [], ("game_3", 0): [],
              ("game_4", 0): [], ("game_5", 0): [],
              ("game_cards", 0): ["cave_painting"], ("secret_cards", 0): ["fire_keeper"],
              ("game_cards", 1): ["farming"],
              ("secret_cards", 1): ["wise_grandmother", "bone_artifact"]}
    state = new_game(rules, ["Ann", "Ben"], {}, 5, setup=lambda st: arrange(st, wanted))
    state.chance.force(["idea", "fire", "fire", "water", "water"])
    seats = [Seat("Ann", "human", 0), Seat("Ben", "heuristic", 1)]
    table = TableScene(app, rules, seats, {}, 5, state=state, saving=False)
    app.push(table)
    table.handed(0)
    for action in (Action(0, "roll"), Action(0, "stop")):
        table.take(action)
        settle(table)
    return table


def settle(table: TableScene) -> None:
    for _ in range(3000):
        if table.idle:
            return
        table.update(FRAME)


def kinds(table: TableScene, zone: str, seat: int) -> list[Any]:
    """The kinds the widgets draw in a player's zone now (None: a card's back)."""
    content = table.look().zone(zone, seat)
    return [entry[1] for entry in content] if isinstance(content, list) else []


def test_the_end_turns_up_secret_cards_player_by_player_then_the_bonuses_then_results(
        app: App) -> None:
    table = last_claim_table(app)
    assert kinds(table, "secret_cards", 1) == [None, None], "Ben's Secret cards lie face down"
    table.take(Action(0, "claim", (("card", "torch"),)))
    assert table.state.game_over
    seen: list[tuple[str, int]] = []  # (what the middle shows, frame), as it changes
    ben_up = bonus_ann = results = None
    for frame in range(60 * 30):  # a minute at most, with no input at all
        app.step([], FRAME)  # the mouse stays still: the screen moves on by itself
        if isinstance(app.top, ResultsScene):
            results = frame
            break
        shown = f"{table.banner[0]} {table.showcase[1:]}" if table.banner else ""
        if not seen or seen[-1][0] != shown:
            seen.append((shown, frame))
        if ben_up is None and kinds(table, "secret_cards", 1) == ["wise_grandmother",
                                                                  "bone_artifact"]:
            ben_up = frame
        if bonus_ann is None and kinds(table, "bonuses", 0) == ["highest_red_score"]:
            bonus_ann = frame
    assert results is not None, "the results never came without input"
    order = [words for words, _ in seen if words]
    wanted = ["Ann's secret cards ['fire_keeper']",
              "Ben's secret cards ['wise_grandmother', 'bone_artifact']",
              "Ann's bonus cards ['highest_red_score']",
              "Ann has the highest red score, 25: 25 points. []",
              "Ben's bonus cards ['highest_green_score']",
              "Ben has the highest green score, 35: 25 points. []"]
    assert [w for w in order if w in wanted] == wanted, order
    at = {words: frame for words, frame in seen}
    # Each thing shows long enough to read it before the next (a second at least).
    for first, then in pairwise(wanted):
        assert (at[then] - at[first]) * FRAME >= 1.0, (first, then)
    # Ben's cards turn up on the table when his turn of the reveal comes, not before; the
    # red bonus card lies in Ann's area once it is handed to her.
    assert ben_up is not None and at[wanted[1]] - 2 <= ben_up <= at[wanted[1]] + 2
    assert bonus_ann is not None and at[wanted[0]] < bonus_ann <= at[wanted[2]] + 2
    # The results wait for all of it, and for the winner's words after.
    assert results > at[wanted[-1]] + 1.0 / FRAME
    assert any("Ben wins the game" in words for words in order)
    # By then every score shows on the table, Ben's too, counted up to its final value.
    final = [float(v) for v in scores(table.state)]
    assert None not in table.view["scores"] and table.shown.scores == final


def test_cards_shown_at_the_end_are_named_whole_at_both_window_sizes(app: App) -> None:
    table = last_claim_table(app)
    table.take(Action(0, "claim", (("card", "torch"),)))
    for _ in range(600):
        table.update(FRAME)
        if table.showcase[1:] == ["wise_grandmother", "bone_artifact"]:
            break
    else:
        raise AssertionError("Ben's Secret cards were never shown")
    for size in ((1280, 720), (1024, 700)):
        table.resized(size)
        canvas = pygame.Surface(size)
        table.draw(canvas)
        with theme.seeing_text() as seen:
            display.draw_over(table, canvas)  # the banner and the cards over the table
        drawn = " ".join(string for string, _, _ in seen.drawn)
        for name in ("Wise", "Grandmothers", "Bone Artifact"):
            assert name in drawn, (size, name)
        assert not [whole for whole, _ in seen.cut if "Grandmothers" in whole
                    or "Bone Artifact" in whole], size


def test_while_the_end_is_shown_no_plate_says_someone_is_thinking_or_to_play(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    table = last_claim_table(app)
    statuses: list[str] = []
    plate = chrome.name_plate

    def noting(*args: Any, **kwargs: Any) -> None:
        if args[4]:  # the active plate: the one that carries a status
            statuses.append(kwargs.get("status", "YOUR TURN"))
        plate(*args, **kwargs)

    monkeypatch.setattr(chrome, "name_plate", noting)
    canvas = pygame.Surface((1280, 720))
    table.draw(canvas)
    assert statuses[-1] == "YOUR TURN", "before the end, Ann is to play"
    table.take(Action(0, "claim", (("card", "torch"),)))
    assert table.state.game_over
    statuses.clear()
    for _ in range(120):  # the reveal plays on: the Secret cards, the bonuses, the scores
        table.update(FRAME)
        table.draw(canvas)
    assert statuses and not set(statuses) - {""}, set(statuses)
