"""A game that keeps its scores secret until the end (`reveal_scores: at_end`) does not
tell them on the title's Continue card or in the list of saved games either."""

from __future__ import annotations

import random
import re

import pytest

from dinotable import saves
from dinotable.app import App
from dinotable.engine import legal_actions
from dinotable.ruleset import load_by_id
from dinotable.scenes.saved import SavedGamesScene
from dinotable.scenes.setup import Seat
from dinotable.scenes.table import TableScene
from dinotable.scenes.title import TitleScene

NAMES = ["Ann", "Ben", "Cat"]
A_SCORE = re.compile(r"\b(Ann|Ben|Cat) -?\d")


def played(app: App, ruleset: str, moves: int = 30) -> TableScene:
    """A game some moves in, kept as the unfinished game and as a save called Friday."""
    seats = [Seat(n, "human", i) for i, n in enumerate(NAMES)]
    table = TableScene(app, load_by_id(ruleset), seats, {}, 7)
    app.push(table)
    rng = random.Random(7)
    for _ in range(moves):
        if table.state.game_over:
            break
        legal = legal_actions(table.state)
        table.take(legal[rng.randrange(len(legal))])
    assert not table.state.game_over
    saves.save_as(table.saved_game(), "Friday", table.state)
    return table


def words_drawn(app: App, words: list[str]) -> list[str]:
    """The lines written when the screen is drawn afresh."""
    words.clear()
    app.redraw = True
    app.step()
    return list(words)


@pytest.mark.parametrize(("ruleset", "secret"), [("dino_hunt", True),
                                                 ("dino_hunt_dice", False)])
def test_secret_scores_stay_secret_on_the_title_and_in_the_saves(
        app: App, words: list[str], ruleset: str, secret: bool) -> None:
    played(app, ruleset)
    app.to_title()
    title = app.top
    assert isinstance(title, TitleScene)
    app.step()
    assert title.saved is not None
    shown = words_drawn(app, words)
    card = [w for w in shown if "Round" in w]
    assert card, "the Continue card tells nothing of the game"
    assert bool(A_SCORE.search(" ".join(card))) is not secret
    if secret:
        assert "secret" in " ".join(card)

    listing = SavedGamesScene(app)
    app.push(listing)
    app.step()
    assert [e.name for e in listing.entries] == ["Friday"]
    rows = [w for w in words_drawn(app, words) if "Round" in w]
    assert rows and bool(A_SCORE.search(" ".join(rows))) is not secret
