"""Generated code means what the ruleset says: the inline and the called forms of every
function and effect play the same games, and a ruleset's own text is never rewritten."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dinotable.engine import Rules, apply, legal_actions, new_game, sample_action, scores
from dinotable.engine.expr import called_forms
from dinotable.ruleset import LoadError, installed_rulesets, load_ruleset

FIXTURES = sorted(p for p in (Path(__file__).resolve().parent / "fixtures" / "good_rulesets")
                  .iterdir() if (p / "rules.yaml").is_file())
FOLDERS = [*installed_rulesets(), *FIXTURES]
GAMES = 4
MOVE_CAP = 5_000


def _play(rules: Rules, seed: int) -> list[Any]:
    """One random game, as a list of what happened at every step: the legal actions, the
    action taken and the events it made; then the final scores and winners."""
    players = [f"P{i}" for i in range(max(rules.min_players, min(3, rules.max_players)))]
    state = new_game(rules, players, None, seed)
    rng = random.Random(seed)
    trace: list[Any] = []
    for _ in range(MOVE_CAP):
        if state.game_over:
            break
        if rules.large_domains:
            action = sample_action(state, rng)
        else:
            legal = legal_actions(state)
            trace.append(list(legal))
            action = legal[int(rng.random() * len(legal))]
        events = apply(state, action)
        trace.append((action, [(e.kind, e.seat, e.data) for e in events]))
    trace.append((scores(state), list(state.winners), state.to_dict()))
    return trace


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_inline_and_called_forms_play_the_same_games(folder: Path) -> None:
    inline = load_ruleset(folder)
    with called_forms():
        called = load_ruleset(folder)
    for seed in range(GAMES):
        one, other = _play(inline, seed), _play(called, seed)
        assert len(one) == len(other), f"{folder.name} seed {seed}: games of different length"
        for step, (a, b) in enumerate(zip(one, other, strict=True)):
            assert a == b, f"{folder.name} seed {seed}: the two forms part at step {step}"


def test_called_forms_really_call_the_library() -> None:
    """The switch is real: with it, no function or effect is inlined into generated code."""
    folder = next(p for p in FOLDERS if p.name == "dino_hunt_dice")
    inline = load_ruleset(folder)
    with called_forms():
        called = load_ruleset(folder)
    roll_inline = inline.actions["roll"].effects
    roll_called = called.actions["roll"].effects
    assert "st.chance" in roll_inline.source  # type: ignore[attr-defined]
    assert "st.chance" not in roll_called.source  # type: ignore[attr-defined]


STRINGS = """
id: strings
name: Strings
version: 1
players: {min: 2, max: 2}
vars:
  game: {same: false, note: "c.state.x"}
zones:
  pile: {holds: cards}
actions:
  compare:
    effects:
      - set: {same: "'c.state.x' == 'st.x'"}
      - when: "note == 'c.state.x' and 'st.' != 'c.state.'"
        then: [{set: {note: "'st.turn_vars'"}}]
      - end_turn: {}
score: 0
end: {trigger: "round >= 2"}
"""


def test_a_rulesets_own_text_is_never_rewritten(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    rules = load_text_ruleset(STRINGS)
    state = new_game(rules, ["Ann", "Ben"])
    apply(state, legal_actions(state)[0])
    assert state.game_vars["same"] is False
    assert state.game_vars["note"] == "st.turn_vars"


NESTED_END = """
id: nested_end
name: Nested end
version: 1
players: {min: 2, max: 2}
vars:
  player: {n: 0}
actions:
  go:
    effects:
      - for_each_player:
          - repeat:
              while: "n < 1"
              do:
                - add: {n: 1}
                - when: "n > 5"
                  then: [{end_turn: {}}]
      - end_turn: {}
score: 0
end: {trigger: "round >= 2"}
"""


def test_end_turn_inside_for_each_player_is_refused_at_any_depth(
        load_text_ruleset: Callable[[str], Rules]) -> None:
    with pytest.raises(LoadError) as failed:
        load_text_ruleset(NESTED_END)
    assert "end_turn cannot stand inside for_each_player" in str(failed.value)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_the_random_playout_plays_what_apply_would(folder: Path) -> None:
    """Simulations run the engine's own playout loop, with the quiet form of each effect; it
    must make the very moves, with the very outcomes, that taking each random legal move
    through `apply`, watched, makes."""
    rules = load_ruleset(folder)
    if rules.large_domains:
        pytest.skip("a random bot samples a set of items here instead of listing them")
    _playout_matches_apply(rules)


def _playout_matches_apply(rules: Rules) -> None:
    """Seeded random games played out quietly and through `apply`, watched, end alike."""
    from dinotable.engine import random_playout

    players = [f"P{i}" for i in range(max(rules.min_players, min(3, rules.max_players)))]
    for seed in range(GAMES):
        fast, slow = new_game(rules, players, None, seed), new_game(rules, players, None, seed)
        made = random_playout(fast, random.Random(seed), MOVE_CAP)
        rng = random.Random(seed)
        taken = 0
        while not slow.game_over and taken < MOVE_CAP:
            legal = legal_actions(slow)
            # Recorded: the watched form of every effect, against the playout's quiet form.
            apply(slow, legal[int(rng.random() * len(legal))], True)
            taken += 1
        assert made == taken
        assert fast.to_dict() == slow.to_dict()


# A roll sorted by face as the dice land, when nobody watches: straight into table zones
# of their own, or gathered first where two faces share a zone or a zone is a player's.
SORTS = {
    "two_table_zones": ("{move_faces: {from: hand, face: dino, to: caught}}",
                        "{move_faces: {from: hand, face: footprint, to: stomped}}"),
    "two_faces_one_zone": ("{move_faces: {from: hand, face: footprint, to: caught}}",
                           "{move_faces: {from: hand, face: dino, to: caught}}"),
    "a_players_zone": ("{move_faces: {from: hand, face: dino, to: bag}}",
                       "{move_faces: {from: hand, face: footprint, to: stomped}}"),
}


@pytest.mark.parametrize("sort", SORTS, ids=list(SORTS))
def test_a_roll_sorted_as_it_lands_ends_where_sorting_after_the_roll_would(
        sort: str, load_text_ruleset: Callable[[str], Rules]) -> None:
    """Sorted quietly in the roll's own pass, every die ends in the zone, and in the place
    in it, that a roll and then each move_faces in turn, watched, gives it."""
    rules = load_text_ruleset(f"""
        id: sorting_{sort}
        name: Sorting
        version: 1
        players: {{min: 2, max: 3}}
        dice:
          green: {{faces: [dino, dino, leaves, footprint, footprint, dino]}}
          red: {{faces: [dino, leaves, leaves, footprint, footprint, footprint]}}
        zones:
          cup: {{holds: dice, start: {{green: 4, red: 3}}}}
          hand: {{holds: dice}}
          caught: {{holds: dice}}
          stomped: {{holds: dice}}
          bag: {{holds: dice, per_player: true}}
        vars: {{player: {{points: 0}}}}
        score: points
        turn:
          end: [{{move_all: {{from: [hand, caught, stomped, bag], to: cup}}}}]
        actions:
          roll:
            effects:
              - draw: {{from: cup, to: hand, count: "3 - size(hand)"}}
              - roll: {{zone: hand}}
              - {SORTS[sort][0]}
              - {SORTS[sort][1]}
              - when: "size(stomped) + size(caught) >= 4 or size(cup) == 0"
                then: [{{add: {{points: "size(caught) + size(bag)"}}}}, {{end_turn: {{}}}}]
          stop:
            effects: [{{add: {{points: 1}}}}, {{end_turn: {{}}}}]
        end: {{trigger: "highest(points) >= 12"}}
    """)
    _playout_matches_apply(rules)


def test_the_quiet_form_drops_only_what_nobody_watching_or_forcing_would_run() -> None:
    """The quiet form of generated code (quiet.py) folds the watched and forced tests to
    constants: the branches they rule out go, everything else stays as written."""
    import ast

    from dinotable.engine.quiet import quiet_source

    source = "\n".join([
        "def _effects(c):",
        "    if c.events is not None and _pv['x'] != _old:",
        "        c.events.append(1)",
        "    if c.events is None and not _ch.forced and _t is not _z:",
        "        fast()",
        "    else:",
        "        slow(pick() if st.chance.forced else roll())",
        "    if _ch.forced or ready:",
        "        go()",
        "    label = 'c.events is None'",
        "    return False",
    ])
    folded = ast.unparse(quiet_source(source))
    assert "c.events" not in folded.replace("'c.events is None'", "")
    assert "forced" not in folded
    assert "if _t is not _z:\n        fast()\n    else:\n        slow(roll())" in folded
    assert "if ready:\n        go()" in folded
    assert "label = 'c.events is None'" in folded  # a string is never rewritten


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_no_action_reads_events_or_forced_dice_in_its_quiet_form(folder: Path) -> None:
    """Each action's quiet form (the effects themselves where they have none to fold) never
    looks at the events list or forced dice, so the inner loop of simulations pays for
    neither."""
    rules = load_ruleset(folder)
    for adef in rules.actions.values():
        quiet = getattr(adef.effects, "quiet", adef.effects)
        names = quiet.__code__.co_names
        assert "events" not in names and "forced" not in names, adef.id
