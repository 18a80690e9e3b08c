"""A game at the table without the window: the state, the seats, the bots and their random
source, taking an action, the autosave, taking a move back and the hand-off.

The table scene draws a session and turns input into its actions; everything here runs
(and is tested) with no pygame and no pymunk loaded, so a whole game can be played through
it by bots alone.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import bots, saves
from ..engine import (
    Action,
    EngineError,
    Event,
    GameState,
    Rules,
    apply,
    legal_actions,
    new_game,
    seen_state,
    take_back,
    view_for,
    waiting_on,
    why_no_undo,
)


@dataclass
class Seat:
    """One seat at the table."""

    name: str
    kind: str  # human | heuristic | random
    colour: int  # index into theme.PLAYER_COLOURS


class _Thought(threading.Thread):
    """A bot's move worked out aside: the policy, on a copy of what its seat sees."""

    def __init__(self, key: tuple[int, int, str], policy: bots.Policy, view: GameState,
                 legal: list[Action], rng: random.Random) -> None:
        # A daemon: closing the window must not wait for the end of a thought.
        super().__init__(name="bot-thinking", daemon=True)
        self.key = key
        self.move: Action | None = None
        self.error: Exception | None = None
        self._args = (policy, view, legal, rng)
        self.start()

    def run(self) -> None:
        policy, view, legal, rng = self._args
        try:
            self.move = policy(view, legal, rng)
        except Exception as exc:  # raised again on the table's thread, which reports it
            self.error = exc


class TableSession:
    """A game in progress, as the rules and the people at the table see it."""

    def __init__(self, rules: Rules, seats: list[Seat], options: dict[str, Any], seed: int,
                 state: GameState | None = None, bots_rng: random.Random | None = None,
                 saving: bool = True, always_handoff: bool = False) -> None:
        self.rules = rules
        self.seats = seats
        self.options = options
        self.seed = seed
        self.saving = saving  # False: a demo, which never touches the autosave
        # Every hot-seat turn is handed over, even in a game that hides nothing.
        self.always_handoff = always_handoff
        # A continued game arrives as the state its saved moves rebuilt.
        self.state: GameState = state or new_game(rules, self.names, options, seed)
        # The rules this game plays by: its options may shape a board or switch teams on.
        self.rules = self.state.rules
        # The bots' choices come from a source that is saved with the game, so a continued
        # game plays on exactly as it would have.
        self.rng = bots_rng or random.Random(seed ^ 0xB07)
        self.save_problem = ""
        # The person holding the laptop: the table shows only what this seat may see (None:
        # nobody yet, so only what is public). Set when a hand-off is answered, or when a
        # human seat acts; bots playing leave it with the last human.
        self.holder: int | None = None
        self.handoff_seen: int | None = None  # the seat last asked for by a hand-off
        # Why Undo is refused, worked out once per move (the log is replayed to know).
        self.undo_cache: tuple[Any, str] | None = None
        self.thinking: _Thought | None = None  # a searching bot's move being worked out
        # Seats whose turns come from their phones (hands on phones): never handed the
        # laptop, which shows only the public table while the game waits on one of them.
        self.phones: set[int] = set()
        # The moves as saved, built once each: the state's log, how many of its moves, and
        # the last of them (a move taken back replaces the state, and with it the log).
        self._saved_moves: tuple[list[Any], list[Any], Any] | None = None
        # Told of every move taken (the action and its events) and of every move taken
        # back (None, []): the phones' narrators.
        self.watchers: list[Callable[[Action | None, list[Event]], None]] = []

    # --- the seats -----------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """Every seat's player name, in seat order."""
        return [s.name for s in self.seats]

    def name(self, seat: int) -> str:
        """A seat's player name."""
        return self.seats[seat].name

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays this seat."""
        return self.seats[seat].kind != "human"

    @property
    def deciding(self) -> int:
        """The seat the game waits on (whose turn it is, or who is asked to answer)."""
        seat = waiting_on(self.state)
        return self.state.current if seat is None else seat

    @property
    def bot_to_move(self) -> bool:
        """The game goes on and a bot must answer it."""
        return not self.state.game_over and self.is_bot(self.deciding)

    # --- playing ---------------------------------------------------------------------

    def take(self, action: Action) -> list[Event]:
        """Apply an action (`engine.IllegalAction` when the rules refuse it, with nothing
        changed); a person who acts holds the laptop from then on."""
        if not self.is_bot(action.player) and action.player not in self.phones:
            self.holder = action.player
        events = apply(self.state, action)
        if self.passing():
            self.holder = None  # nothing private is drawn until the laptop is passed
        for watcher in list(self.watchers):
            watcher(action, events)
        return events

    def hand_to_phones(self, seats: set[int]) -> None:
        """These seats play from their phones from now on. The laptop no longer holds the
        private things of a seat that joined: it shows the public table until it is passed
        to someone playing at it."""
        self.phones = set(seats)
        if self.holder in self.phones or self.passing():
            self.holder = None
        if self.handoff_seen in self.phones:
            self.handoff_seen = None

    def passing(self) -> bool:
        """Whether the game now waits on another person than the one holding the laptop,
        in a game that hides things: the laptop must be passed to them."""
        seat = self.deciding
        if (self.state.game_over or self.holder is None or self.is_bot(seat)
                or self.holder == seat or not self.rules.hidden_information):
            return False
        # A seat that plays from its phone is at the table too: the laptop is public then.
        return seat in self.phones or sum(not self.is_bot(s) for s in range(len(self.seats))) > 1

    def bot_action(self) -> Action:
        """What the bot the game waits on plays now (from the session's own source)."""
        return bots.choose(self.seats[self.deciding].kind, self.state, self.rng)

    def bot_move(self) -> Action | None:
        """The move of the bot the game waits on, or None while it is still thinking.

        A searching bot thinks for up to its budget (seconds), in a thread of its own so
        that the window keeps drawing and says so; it works on its seat's own view, taken
        here, so nothing the table does meanwhile reaches it. Other bots answer at once.
        A thought about a position the game has left (a move taken back) is dropped."""
        kind = self.seats[self.deciding].kind
        if not bots.thinks(kind):
            return self.bot_action()
        key = (len(self.state.log), self.deciding, kind)
        if self.thinking is None or self.thinking.key != key:
            seat = self.deciding
            self.thinking = _Thought(key, bots.POLICIES[kind], seen_state(self.state, seat),
                                     legal_actions(self.state),
                                     random.Random(self.rng.getrandbits(64)))
        thought = self.thinking
        if thought.is_alive():
            return None
        self.thinking = None
        if thought.error is not None:
            raise thought.error
        return thought.move

    # --- the hand-off ------------------------------------------------------------------

    def handoff_due(self) -> bool:
        """A person is asked to act who does not hold the laptop: True when the laptop must
        be passed first (the game hides things from some, and two people play), once per
        request; otherwise they simply hold it now."""
        seat = self.deciding
        if self.state.game_over or self.is_bot(seat) or self.holder == seat:
            return False
        if seat in self.phones:
            return False  # played from the phone: the laptop stays with the public table
        humans = [s for s in range(len(self.seats)) if not self.is_bot(s)]
        needed = self.rules.hidden_information or self.always_handoff
        if needed and len(humans) > 1:
            if self.handoff_seen != seat:
                self.handoff_seen = seat
                return True
            return False
        self.holder = seat
        return False

    def handed(self, seat: int) -> None:
        """The hand-off was answered: `seat` holds the laptop."""
        self.holder = seat
        self.handoff_seen = None

    def handoff_words(self, seat: int) -> str:
        """Why the laptop goes to `seat`: their turn, or a question or a chance to respond
        on someone else's turn."""
        decision = view_for(self.state, None)["decision"]
        name = self.name(seat)
        if decision is not None and seat != self.state.current:
            if decision["kind"] == "window":
                return f"{name}, you may respond"
            return f"{name}, you are asked"
        return f"{name}'s turn"

    # --- saving -------------------------------------------------------------------------

    def saved_game(self, *, passing: bool = False) -> saves.SavedGame:
        """The game as it will be written: enough to rebuild it exactly. `passing`: for a
        write done before anything else happens, which may share the session's own list
        of moves (not copied: a move's autosave costs the same late in a game as early)."""
        moves = self._moves()
        return saves.SavedGame(
            self.rules.id, self.rules.version,
            [saves.SavedSeat(s.name, s.kind, s.colour) for s in self.seats],
            dict(self.state.options), self.seed, moves if passing else list(moves),
            self.rng.getstate())

    def _moves(self) -> list[tuple[int, str, tuple[tuple[str, Any], ...]]]:
        """The log as a save holds it. Each move's entry is made once and kept, so saving
        after a move costs the same late in a long game as early: the autosave's journal
        finds the moves it already holds unchanged by their identity."""
        log = self.state.log
        cached = self._saved_moves
        if (cached is None or cached[0] is not log or len(cached[1]) > len(log)
                or (cached[1] and log[len(cached[1]) - 1] is not cached[2])):
            cached = (log, [], None)
        moves = cached[1]
        moves.extend((a.player, a.id, a.args) for a in log[len(moves):])
        self._saved_moves = (log, moves, log[-1] if log else None)
        return moves

    def autosave(self, compact: bool = False) -> str:
        """Keep the game on disk after every move (a line appended to the autosave's
        journal; `compact`: the whole save written, as when the game is closed); a finished
        game goes to finished/. Returns what the players should be told ("" when nothing
        changed): that this game cannot be saved, once, or that it is saved again."""
        if not self.saving:
            return ""
        game = self.saved_game(passing=True)
        problem = saves.try_write(game, compact=True) if compact else saves.try_write(game)
        if problem is None:
            if self.state.game_over:
                saves.archive()
            if self.save_problem:
                # Said once a save works again: the game is kept after all.
                self.save_problem = ""
                return "The game is saved again."
            return ""
        if self.save_problem:
            return ""
        # Once: the game goes on, and the players know it will not be kept.
        self.save_problem = problem
        return f"This game cannot be saved ({problem}); play goes on."

    # --- taking back a move -----------------------------------------------------------

    def undo_reason(self, idle: bool = True, busy: str = "Wait for the dice to settle",
                    remote: bool = False) -> str:
        """Why the seat the game waits on cannot take back its last action now ("" when it
        can); `idle`: nothing is still being played back on the table (else `busy` says
        what is being waited for); `remote`: asked from that seat's phone, not the laptop."""
        if self.state.game_over:
            return "The game is over"
        seat = self.deciding
        if self.is_bot(seat):
            return why_no_undo(self.rules, [], None, self.seed, [], is_bot=True)
        if not idle:
            return busy
        if remote != (seat in self.phones):
            return ("Take it back from your phone" if seat in self.phones and not remote
                    else "This seat plays at the laptop")
        if not remote and self.holder != seat:
            return f"Pass the laptop to {self.name(seat)}"
        # The log is replayed to find the last reveal: once per move, not once per frame.
        log = self.state.log
        key = (len(log), seat, log[-1] if log else None)
        cached = self.undo_cache
        if cached is None or cached[0] != key:
            try:
                reason = why_no_undo(self.rules, self.names, dict(self.state.options),
                                     self.seed, self.state.log, current=self.state)
            except EngineError:
                # The moves do not replay from the seed alone (a position set up by hand,
                # chance pinned for a test): nothing can be taken back, and nothing breaks.
                reason = "This game cannot be rewound"
            self.undo_cache = (key, reason)
            return reason
        return cached[1]

    def take_back(self, idle: bool = True, remote: bool = False) -> tuple[Action | None, str]:
        """The seat the game waits on takes back its last action: the game is rebuilt from
        its seed without it. Returns the action taken back, or None and why not."""
        reason = self.undo_reason(idle, remote=remote)
        seat = self.deciding
        log = list(self.state.log)
        shorter = log
        if not reason:
            try:
                shorter, reason = take_back(self.rules, self.names, dict(self.state.options),
                                            self.seed, log, seat)
            except EngineError:
                reason = "This game cannot be rewound"
        if reason:
            return None, reason
        state = new_game(self.rules, self.names, dict(self.state.options), self.seed)
        for action in shorter:
            apply(state, action)
        self.state = state
        for watcher in list(self.watchers):
            watcher(None, [])
        return log[-1], ""
