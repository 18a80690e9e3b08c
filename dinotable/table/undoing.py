"""Taking back a move at the table (Undo, Ctrl+Z): the seat the game waits on takes back
its own last action, one at a time, never past a reveal (`engine.undo`); the game is rebuilt
from its seed and log, so the next roll shows what it would have shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import EngineError, apply, new_game, take_back, why_no_undo
from .choice import Choice, Chooser

if TYPE_CHECKING:
    from ..scenes.table import TableScene


def reason(table: TableScene) -> str:
    """Why Undo cannot be pressed now, in words ("" when it can)."""
    if table.state.game_over:
        return "The game is over"
    seat = table.deciding
    if table.is_bot(seat):
        return why_no_undo(table.rules, [], None, table.seed, [], is_bot=True)
    if not table.idle:
        return table.wait_words()
    if table.holder != seat:
        return f"Pass the laptop to {table.name(seat)}"
    # The log is replayed to find the last reveal: once per move, not once per frame.
    log = table.state.log
    key = (len(log), seat, log[-1] if log else None)
    cached = table.undo_cache
    if cached is None or cached[0] != key:
        try:
            reason = why_no_undo(table.rules, [s.name for s in table.seats],
                                 dict(table.state.options), table.seed, table.state.log,
                                 current=table.state)
        except EngineError:
            # The moves do not replay from the seed alone (a position set up by hand,
            # chance pinned for a test): nothing can be taken back, and nothing breaks.
            reason = "This game cannot be rewound"
        table.undo_cache = (key, reason)
        return reason
    return cached[1]

def choice(table: TableScene) -> Choice:
    """Undo as a choice: enabled, or greyed with the reason it cannot be used."""
    reason = table.undo_reason()
    return Choice("Undo", "undo", enabled=not reason, reason=no_undo_words(reason),
                  key="Ctrl+Z")

def take_back_last(table: TableScene) -> None:
    """The seat the game waits on takes back its last action (Undo, Ctrl+Z): the game is
    rebuilt from its seed without it, saved, and the log says so."""
    reason = table.undo_reason()
    seat = table.deciding
    names = [s.name for s in table.seats]
    log = list(table.state.log)
    shorter = log
    if not reason:
        try:
            shorter, reason = take_back(table.rules, names, dict(table.state.options),
                                        table.seed, log, seat)
        except EngineError:
            reason = "This game cannot be rewound"
    if reason:
        table.hint(no_undo_words(reason))
        table.refresh_buttons()
        return
    taken = log[-1]
    state = new_game(table.rules, names, dict(table.state.options), table.seed)
    for action in shorter:
        apply(state, action)
    table.state = state
    table.chooser = Chooser(state, names)
    table.page = 0
    table.ring = None
    table.steps.clear()
    table.sprites = {}  # laid out afresh where the shorter game has them
    table._settle()
    table.shown.scores = list(table.shown.score_goals)
    words = f"{table.name(seat)} takes back: {table.rules.actions[taken.id].label}."
    table.log_line(words)
    table.last_words = words
    table.autosave()
    table.refresh_buttons()


def no_undo_words(reason: str) -> str:
    """A greyed Undo's words: "No undo now. The dice have been rolled since." """
    return f"No undo now. {reason}." if reason else ""
