"""Older saves replay under the rules they were played with: `replays:` may name the option
values each older version's saves play with, and a hidden option keeps the old rules
without ever being offered or shown. Dino Hunt keeps version 2's rules as its `edition: 2`;
Fixture Editions is the small game that pins the same for any ruleset."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path

import pytest
from helpers import FIXTURES

from dinotable import saves
from dinotable.app import App
from dinotable.engine import (
    Action,
    GameState,
    apply,
    for_new_game,
    legal_actions,
    new_game,
    resolve_options,
)
from dinotable.replays import replay_of
from dinotable.ruleset import LoadError, Rules, load_by_id, load_ruleset
from dinotable.scenes.setup import Seat, SetupScene
from dinotable.scenes.table import TableScene
from dinotable.sim import play_game
from dinotable.table.chrome import PlayersPart
from dinotable.table.session import TableSession
from dinotable.text_table import play, play_cli

CORPUS = Path(__file__).resolve().parent / "saves_corpus" / "dino_hunt"
# The Dino Hunt saves of version 1 (since 2026-12-01) and 2: played under edition 2's rules.
OLDER = sorted(p for p in CORPUS.glob("*.yaml")
               if "-v3-" not in p.name and not p.name.startswith("2026-11-30"))
EDITIONS = FIXTURES / "good_rulesets" / "fixture_editions"


@pytest.fixture
def fixture_rulesets(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The fixture games installed in place of the shipped ones (saves name a ruleset by
    id, so they are read and replayed from there)."""
    monkeypatch.setenv("DINOTABLE_RULESETS", str(EDITIONS.parent))
    load_by_id.cache_clear()
    yield
    load_by_id.cache_clear()


# --- Dino Hunt's older saves ---------------------------------------------------------


def test_the_older_dino_hunt_saves_are_the_ones_version_2_replayed() -> None:
    assert len(OLDER) == 6
    assert {saves.read(p).version for p in OLDER} == {1, 2}


@pytest.mark.parametrize("path", OLDER, ids=lambda p: p.name)
def test_an_older_dino_hunt_save_replays_to_its_end_under_edition_2(path: Path) -> None:
    game, state = saves.load(path)
    assert game.options["edition"] == 2 and state.options["edition"] == 2
    assert len(state.log) == len(game.log)
    if game.summary is not None and game.summary["over"]:
        assert state.game_over and list(state.winners) == game.summary["winners"]
    # Under today's rules the same moves do not replay: the edition is what opens it.
    today = saves.SavedGame(game.ruleset, 3, game.seats, {**game.options, "edition": 3},
                            game.seed, game.log)
    with pytest.raises(LoadError, match="cannot be replayed"):
        today.replay()


def test_an_older_dino_hunt_save_has_a_travel_to_0_energy_that_leaves_end_turn_to_press(
        ) -> None:
    """What edition 2 keeps: the player who travelled to 0 Energy still has the move."""
    game = saves.read(OLDER[0])
    replay = replay_of(game)
    found = 0
    for step in replay.steps[1:]:
        if step.action is not None and step.action.id == "travel":
            state = replay.state_at(step.move)
            if state.player_vars[step.action.player]["energy"] == 0:
                assert state.current == step.action.player
                found += 1
    assert found


def _travels_to_nothing(state: GameState, action: Action) -> bool:
    return action.id == "travel" and state.player_vars[action.player]["energy"] == 0


def test_a_continued_older_save_saved_again_keeps_edition_2_and_plays_on_under_it(
        tmp_path: Path) -> None:
    """Continued at the table and saved, the game is a version-3 save recording edition 2:
    opened again later, it plays on by version 2's rules (a trip to 0 Energy leaves the
    turn with the traveller), not today's."""
    path = CORPUS / "2026-12-03-5142ff0-v2-unfinished-2p.yaml"
    game, state = saves.load(path)
    rules = load_by_id("dino_hunt")
    seats = [Seat(s.name, "heuristic", s.colour) for s in game.seats]
    session = TableSession(rules, seats, dict(game.options), game.seed, state,
                           game.bots_rng(), saving=False)
    for _ in range(20):
        session.take(session.bot_action())
    again = tmp_path / "continued.yaml"
    assert saves.write(session.saved_game(), again)
    text = again.read_text()
    assert "version: 3\n" in text and "edition: 2" in text
    reopened, state = saves.load(again)
    assert reopened.version == 3 and reopened.options["edition"] == 2
    assert state.options["edition"] == 2 and len(state.log) == len(session.state.log)
    rng = random.Random(5)
    stayed = 0
    while not state.game_over:
        legal = legal_actions(state)
        action = legal[int(rng.random() * len(legal))]
        apply(state, action, False)
        if _travels_to_nothing(state, action):
            assert state.current == action.player and not state.pending
            stayed += 1
    assert stayed  # random play runs its Energy down by travelling, and keeps the move


def test_a_new_game_after_an_older_one_is_played_under_today_s_rules() -> None:
    rules = load_by_id("dino_hunt")
    assert for_new_game(rules, {"length": "short", "edition": 2}) == {
        "length": "short", "edition": 3}


def test_the_options_a_save_replays_with_come_from_its_version() -> None:
    rules = load_by_id("dino_hunt")
    assert saves.replayable_versions(rules) == {1, 2}
    assert saves.replay_options(rules, 1) == saves.replay_options(rules, 2) == {"edition": 2}
    assert saves.replay_options(rules, 3) == {}


# --- the hidden option is never offered or shown ---------------------------------------


def test_set_up_never_offers_a_hidden_option(app: App) -> None:
    rules = load_by_id("dino_hunt")
    setup = SetupScene(app, rules)
    tags = {c.tag for c in setup.menu.controls}
    assert "option:length" in tags and "option:edition" not in tags
    assert setup.options["edition"] == 3  # every new game: today's rules


def test_the_table_never_shows_a_hidden_goal(app: App, load_text_ruleset: Callable[[str], Rules]
                                             ) -> None:
    """A goal option is shown under the players; hidden, it is not."""
    for hidden, shown in ((False, True), (True, False)):
        rules = load_text_ruleset(f"""
            id: hidden_goal_{str(hidden).lower()}
            name: Hidden Goal
            version: 1
            players: {{min: 2, max: 2}}
            options:
              goal: {{default: 7, min: 1, max: 9, hidden: {str(hidden).lower()}}}
            vars: {{player: {{points: 0}}}}
            score: points
            actions:
              score: {{effects: [{{add: {{points: 1}}}}, {{end_turn: {{}}}}]}}
            end: {{trigger: "highest(points) >= goal"}}
            """)
        table = TableScene(app, rules, [Seat("Ann", "human", 0), Seat("Ben", "human", 1)],
                           {"goal": 7}, 3, saving=False)
        app.push(table)
        app.step([], 1 / 30)
        players = next(p for p in table.parts if isinstance(p, PlayersPart))
        assert ("Goal: 7" in players.footer()) == shown, players.footer()
        app.pop()


def test_the_terminal_never_shows_a_hidden_option_and_the_command_line_sets_it() -> None:
    rules = load_by_id("dino_hunt")
    out = StringIO()
    assert play_cli("dino_hunt", "Ann,Ben", "heuristic,heuristic", 3,
                    ["length=short", "edition=2"], StringIO(""), out) == 0
    text = out.getvalue()
    assert "Dino Hunt" in text and "edition" not in text.lower()  # no "Edition of the rules"
    assert resolve_options(rules, {"edition": 2}) == {"length": "full", "edition": 2}
    with pytest.raises(ValueError, match=r"must be one of \[2, 3\]"):
        resolve_options(rules, {"edition": 1})


# --- the ruleset format: errors ------------------------------------------------------


@pytest.mark.parametrize("text, line, words", [
    ("replays: {3: {options: {edition: 1}}}", 4,
     "version 3 is not an older version: these rules are version 3"),
    ("replays: {one: {}}", 4, "expected a version number, found 'one'"),
    ("replays: {1: [edition]}", 4, "expected {options: {NAME: VALUE, ...}} or nothing"),
    ("replays: {1: {opts: {edition: 1}}}", 4, "unknown key 'opts'"),
    ("replays: {1: {options: [edition]}}", 4, "expected a mapping of option names to values"),
    ("replays: {1: {options: {era: 1}}}", 4, "no option 'era' in these rules; they have: "
                                              "goal, edition"),
    ("replays: {1: {options: {edition: 4}}}", 4, "4 is not one of edition's choices [1, 2, 3]"),
    ("replays: {1: {options: {goal: 99}}}", 4, "option goal is from 1 to 20, not 99"),
    ("replays: {1: {options: {goal: ten}}}", 4, "option goal is a whole number, not 'ten'"),
    ("replays: seven", 4, "expected a list of older versions, e.g. [1, 2], or a mapping"),
])
def test_a_replays_mapping_is_checked_with_its_line(
        load_text_ruleset: Callable[[str], Rules], text: str, line: int, words: str) -> None:
    with pytest.raises(LoadError) as info:
        load_text_ruleset(_versioned(text))
    assert any(words in str(p) and p.line == line for p in info.value.problems), str(info.value)


def test_a_hidden_option_is_true_or_false(load_text_ruleset: Callable[[str], Rules]) -> None:
    with pytest.raises(LoadError) as info:
        load_text_ruleset(_versioned("", hidden="yes please"))
    assert any("expected true or false, found 'yes please'" in str(p) and p.line == 8
               and "hidden" in str(p) for p in info.value.problems), str(info.value)


def test_a_version_mapped_to_nothing_replays_with_the_options_its_save_recorded(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = load_text_ruleset(_versioned("replays: {1: {}, 2: {options: {edition: 2}}}"))
    assert saves.replayable_versions(rules) == {1, 2}
    assert saves.replay_options(rules, 1) == {} and saves.replay_options(rules, 2) == {
        "edition": 2}
    assert rules.options["edition"].hidden and not rules.options["goal"].hidden


def _versioned(replays: str, hidden: str = "true") -> str:
    return f"""
        id: versioned
        name: Versioned
        version: 3
        {replays}
        players: {{min: 1, max: 2}}
        options:
          goal: {{default: 5, min: 1, max: 20}}
          edition: {{default: 3, choices: [1, 2, 3], hidden: {hidden}}}
        score: 0
        actions:
          pass: {{effects: [{{end_turn: {{}}}}]}}
        end: {{trigger: "round >= goal"}}
        """


# --- Fixture Editions: a version-1 save and the bots -----------------------------------


def _edition_1_game(seed: int) -> tuple[int, GameState]:
    """A two-player game of Fixture Editions under edition 1 in which a rolled 1 went into
    the pot (a move edition 2 would have ended the turn on), played to its end."""
    rules = load_by_id("fixture_editions")
    for s in range(seed, seed + 50):
        state = new_game(rules, ["Ann", "Ben"], {"edition": 1}, s)
        rng = random.Random(s)
        ones = 0
        while not state.game_over:
            legal = legal_actions(state)
            action = legal[int(rng.random() * len(legal))]
            pot = state.turn_vars["pot"]
            apply(state, action, False)
            if action.id == "roll" and state.turn_vars["pot"] == pot + 1:
                ones += 1
        if ones:
            return s, state
    raise AssertionError("no game rolled a 1")


def test_a_version_1_save_of_fixture_editions_replays_under_edition_1(
        fixture_rulesets: None, tmp_path: Path) -> None:
    seed, state = _edition_1_game(1)
    log = [(a.player, a.id, a.args) for a in state.log]
    seats = [saves.SavedSeat(n, "human", i) for i, n in enumerate(state.players)]
    path = tmp_path / "v1.yaml"
    # Saved by version 1, which had no edition option yet.
    old = saves.SavedGame("fixture_editions", 1, seats, {"goal": 15}, seed, log)
    old.summary = saves.summarise(old, state)
    assert saves.write(old, path)
    game, replayed = saves.load(path)
    assert game.options == {"goal": 15, "edition": 1}
    assert replayed.game_over and replayed.winners == state.winners
    assert [replayed.score(s) for s in range(2)] == [state.score(s) for s in range(2)]
    # What the rules name for version 1 stands over what a save of it recorded.
    recorded = tmp_path / "v1-recorded.yaml"
    assert saves.write(saves.SavedGame("fixture_editions", 1, seats,
                                       {"goal": 15, "edition": 2}, seed, log), recorded)
    assert saves.load(recorded)[0].options == {"goal": 15, "edition": 1}
    # The same moves as a version-2 save are a damaged save: today a 1 ends the turn.
    with pytest.raises(LoadError, match="cannot be replayed"):
        saves.SavedGame("fixture_editions", 2, seats, {"goal": 15}, seed, log).replay()


@pytest.mark.parametrize("edition", [1, 2])
@pytest.mark.parametrize("bots", [["heuristic", "heuristic"], ["search", "heuristic"]])
def test_the_bots_play_fixture_editions_to_its_end_in_either_edition(
        edition: int, bots: list[str]) -> None:
    rules = load_ruleset(EDITIONS)
    for seed in range(3):
        played = play_game(rules, 2, seed, bots, {"edition": edition})
        assert played.winners and max(played.scores) >= 15


def test_the_terminal_plays_fixture_editions_without_naming_its_edition(
        fixture_rulesets: None) -> None:
    rules = load_by_id("fixture_editions")
    out = StringIO()
    state = new_game(rules, ["Ann", "Ben"], {"edition": 1}, 4)
    assert play(state, ["heuristic", "heuristic"], StringIO(""), out, 4) == 0
    assert state.game_over and "Fixture Editions" in out.getvalue()
    assert "Edition of the rules" not in out.getvalue()
