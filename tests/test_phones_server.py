"""The phones' server as scripts use it: each seat's view, its moves and Undo over HTTP, the
event stream, phones that go away, the server's port, and saves and replays of a game
played from phones, which behave as at the hot-seat table. Only 127.0.0.1 is ever asked
anything, by urllib and http.client.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import random
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from phones_net import WAIT, EventStream, get, local, post_bytes, until

from dinotable import replays, saves
from dinotable.companion import hub
from dinotable.companion import server as phone_server
from dinotable.companion.headless import HeadlessTable
from dinotable.companion.hub import jsonable, phone_words
from dinotable.engine import Action, Event, GameState, view_for, why_illegal
from dinotable.ruleset import load_by_id
from dinotable.table.session import Seat, TableSession


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves go to a folder of the test's own."""
    monkeypatch.setenv("DINOTABLE_HOME", str(tmp_path / "home"))


@pytest.fixture(autouse=True)
def _quick_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    """A script moves faster than the flood limit lets a person: the tests here that send
    one move after another lift it (those about floods set it back)."""
    monkeypatch.setattr(phone_server, "FLOOD", (10**6, 1.0))


# --- talking to the server (127.0.0.1 only) ---------------------------------------------

# No proxy, whatever the environment says: every request goes straight to this machine.
def post(url: str, body: Any = b"") -> tuple[int, Any]:
    """POST a JSON body (bytes are sent as they are): the status and the JSON answer."""
    status, answer = post_bytes(url, body, WAIT + phone_server.ANSWER_WAIT)
    return status, json.loads(answer)


def post_chunked(table: HeadlessTable, seat: int, chunks: list[bytes]) -> tuple[int, Any]:
    """POST a move's body in chunks, without saying its length first."""
    conn = http.client.HTTPConnection("127.0.0.1", table.server.port, timeout=WAIT)
    try:
        conn.request("POST", path(table, seat) + "/act", body=iter(chunks),
                     headers={"Content-Type": "application/json"}, encode_chunked=True)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


# --- tables ---------------------------------------------------------------------------------

class Positions:
    """The game after every move taken or taken back, recorded on the table's own thread
    (the session's watchers): a test knows when the bots have moved without touching the
    game while the table plays it."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.lock = threading.Lock()
        self.now = self._record()
        session.watchers.append(self._heard)

    def _record(self) -> tuple[int, int, bool]:
        state = self.session.state
        return len(state.log), self.session.deciding, state.game_over

    def _heard(self, action: Action | None, events: list[Event]) -> None:
        position = self._record()
        with self.lock:
            self.now = position

    def wait_for_person(self) -> tuple[int, int, bool]:
        """(moves, deciding seat, game over) once the game waits on a person or is over."""
        found: list[tuple[int, int, bool]] = []

        def settled() -> bool:
            with self.lock:
                now = self.now
            found.append(now)
            return now[2] or not self.session.is_bot(now[1])

        until(settled, "the bots to move")
        return found[-1]


def make_session(ruleset: str = "dino_hunt", kinds: tuple[str, ...] = ("human", "human"),
                 seed: int = 7, saving: bool = False) -> TableSession:
    names = ["Ann", "Ben", "Cat", "Dan"]
    seats = [Seat(names[s], kind, s) for s, kind in enumerate(kinds)]
    return TableSession(load_by_id(ruleset), seats, {}, seed, saving=saving)


@pytest.fixture
def tables() -> Iterator[Callable[..., HeadlessTable]]:
    """Start tables (stopped after the test): `tables(session, **HeadlessTable options)`."""
    started: list[HeadlessTable] = []

    def start(session: TableSession, **options: Any) -> HeadlessTable:
        table = HeadlessTable(session, **options).start()
        started.append(table)
        return table

    yield start
    for table in started:
        table.stop()


def url(table: HeadlessTable, seat: int) -> str:
    return local(table.server.url(seat))


def path(table: HeadlessTable, seat: int) -> str:
    return url(table, seat).split(str(table.server.port), 1)[1]


def read_json(table: HeadlessTable, seat: int, route: str) -> Any:
    status, body = get(url(table, seat) + route)
    assert status == 200, body
    return json.loads(body)


def mirror(session: TableSession) -> GameState:
    """A copy of the game for the test's own questions: only the table's thread touches the
    game itself."""
    return GameState.from_dict(session.state.rules, session.state.to_dict())


def listed_moves(table: HeadlessTable, seat: int) -> list[dict[str, Any]]:
    """The moves the seat's phone offers now, ready to send."""
    page = read_json(table, seat, "/state")
    return [m["act"] for m in page["moves"] if m["enabled"] and m["act"]]


def as_action(seat: int, move: dict[str, Any]) -> Action:
    return Action(seat, move["action"], tuple(sorted(move.get("args", {}).items())))


def views(session: TableSession) -> list[Any]:
    """Every seat's view, JSON-ready."""
    copy = mirror(session)
    return [jsonable(view_for(copy, seat)) for seat in range(len(session.seats))]


OK = (200, {"ok": True, "reason": ""})

Logged = list[tuple[int, str, tuple[tuple[str, Any], ...]]]


def saved_log(session: TableSession) -> Logged:
    return [(a.player, a.id, a.args) for a in session.state.log]


def on_disk() -> Logged:
    """The moves in the autosave (none before the first move)."""
    path = saves.autosave_path()
    return saves.read(path).log if path.exists() else []


# --- views and moves --------------------------------------------------------------------------

def test_each_phone_reads_its_own_seats_view(tables: Callable[..., HeadlessTable]) -> None:
    session = make_session(kinds=("human", "human", "heuristic"))
    table = tables(session)
    expected = views(session)
    for seat in (0, 1):
        assert read_json(table, seat, "/view") == expected[seat]
        page = read_json(table, seat, "/state")
        assert page["seat"] == seat and page["name"] == session.name(seat)
        assert page["view"] == expected[seat]
    # Each hand is its own: Ann's view is not Ben's, and the bot's seat has no address.
    assert expected[0] != expected[1]
    assert sorted(table.phones.tokens) == [0, 1]


def test_a_legal_move_is_taken_and_the_phone_then_reads_the_game_after_it(
        tables: Callable[..., HeadlessTable], monkeypatch: pytest.MonkeyPatch) -> None:
    # What each phone shows takes a while to make (a big game, a slow machine): the answer
    # to a move still comes only once it is ready, so the phone never reads the old game.
    made = hub.seat_payload

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.05)
        return made(*args, **kwargs)

    monkeypatch.setattr(hub, "seat_payload", slow)
    session = make_session()
    table = tables(session)
    rng = random.Random(3)
    for _ in range(8):
        seat = session.deciding
        move = rng.choice(listed_moves(table, seat))
        before = len(session.state.log)
        assert post(url(table, seat) + "/act", move) == OK
        assert len(session.state.log) == before + 1
        assert session.state.log[-1] == as_action(seat, move)
        now = views(session)
        for each in (0, 1):
            assert read_json(table, each, "/view") == now[each]
            page = read_json(table, each, "/state")
            assert page["turn"]["seat"] == session.deciding


def test_a_refused_move_is_told_in_the_engines_words_and_changes_nothing(
        tables: Callable[..., HeadlessTable]) -> None:
    session = make_session()
    table = tables(session)
    ann_moves = listed_moves(table, 0)
    state = mirror(session)
    before = (len(session.state.log), views(session),
              [get(url(table, s) + "/view") for s in (0, 1)])
    tries = [
        (1, ann_moves[0]),  # Ann's move, sent from Ben's phone
        (1, {"action": "end_turn", "args": {}}),  # Ben, out of turn
        (0, {"action": "fly", "args": {}}),  # no such move
        (0, {"action": "pass", "args": {}}),  # a reply when nobody asked
        (0, {"action": ann_moves[0]["action"], "args": {"card": "no_such_card"}}),
        (0, {"action": ann_moves[0]["action"], "args": {**ann_moves[0]["args"], "x": 1}}),
    ]
    for seat, move in tries:
        status, answer = post(url(table, seat) + "/act", move)
        why = phone_words(state, as_action(seat, move))
        assert why is not None and why_illegal(state, as_action(seat, move)) is not None
        assert (status, answer) == (409, {"ok": False, "reason": why})
        assert "[" not in why and "{" not in why  # words, not the engine's data
    # Not moves at all: refused before the table sees them.
    for body in (b"{oops", {"action": 3}, {"action": "travel", "args": {"to": [True]}},
                 b"[" * 4000):
        status, answer = post(url(table, 0) + "/act", body)
        assert status == 400 and answer["ok"] is False and "action" in answer["reason"]
    # Too large to read, whether its length is told first or not.
    status, answer = post(url(table, 0) + "/act", b" " * (8 * 1024 + 1))
    assert status == 413 and answer["ok"] is False and "KB" in answer["reason"]
    status, answer = post_chunked(table, 0, [b" " * 1024] * 9)
    assert status == 413 and answer["ok"] is False and "KB" in answer["reason"]
    assert (len(session.state.log), views(session),
            [get(url(table, s) + "/view") for s in (0, 1)]) == before


def test_many_copies_of_one_move_sent_at_once_are_taken_once(
        tables: Callable[..., HeadlessTable]) -> None:
    session = make_session()
    table = tables(session)
    move = listed_moves(table, 0)[0]
    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(lambda _: post(url(table, 0) + "/act", move), range(32)))
    assert answers.count(OK) == 1
    for status, answer in answers:
        if (status, answer) != OK:
            assert status in (409, 429) and answer["ok"] is False and answer["reason"]
    assert [a for a in session.state.log] == [as_action(0, move)]


# --- Undo --------------------------------------------------------------------------------------

def test_undo_from_a_phone_takes_back_as_at_the_hot_seat_table(
        tables: Callable[..., HeadlessTable]) -> None:
    """The same moves played from phones and at one laptop; Undo asked at the same moments
    takes back the same moves, or is refused in the same words."""
    phones = make_session()
    laptop = make_session()
    table = tables(phones)
    for seat in (0, 1):
        assert get(url(table, seat))[0] == 200  # each opens its page: its seat is its phone's
    rng = random.Random(11)
    taken_back = refused = 0
    for step in range(60):
        if phones.state.game_over:
            break
        seat = phones.deciding
        assert laptop.deciding == seat
        move = rng.choice(listed_moves(table, seat))
        assert post(url(table, seat) + "/act", move) == OK
        laptop.take(as_action(seat, move))
        if step % 2:
            continue
        asking = phones.deciding
        laptop.handed(asking)  # the laptop is passed to whoever the game waits on
        status, answer = post(url(table, asking) + "/undo")
        action, reason = laptop.take_back()
        if action is None:
            assert (status, answer) == (409, {"ok": False, "reason": reason})
            refused += 1
        else:
            assert (status, answer) == OK
            taken_back += 1
        assert phones.state.log == laptop.state.log
        assert views(phones) == views(laptop)
        assert read_json(table, asking, "/view") == views(laptop)[asking]
    assert taken_back and refused


def test_undo_from_a_phone_after_the_game_is_refused_as_at_the_table(
        tables: Callable[..., HeadlessTable]) -> None:
    phones = make_session("dinosaur_dice", seed=2)
    laptop = make_session("dinosaur_dice", seed=2)
    table = tables(phones)
    for step in range(500):
        if phones.state.game_over:
            break
        seat = phones.deciding
        moves = listed_moves(table, seat)
        move = moves[step % len(moves)]
        assert post(url(table, seat) + "/act", move) == OK
        laptop.take(as_action(seat, move))
    assert laptop.state.game_over
    laptop.handed(laptop.deciding)
    _, reason = laptop.take_back()
    for seat in (0, 1):
        assert post(url(table, seat) + "/undo") == (409, {"ok": False, "reason": reason})
    assert phones.state.log == laptop.state.log


def test_undo_from_a_phone_whose_move_it_is_not_is_refused_and_changes_nothing(
        tables: Callable[..., HeadlessTable]) -> None:
    session = make_session()
    table = tables(session)
    assert post(url(table, 0) + "/act", listed_moves(table, 0)[0]) == OK
    before = (list(session.state.log), views(session))
    other = 1 - session.deciding
    status, answer = post(url(table, other) + "/undo")
    assert status == 409 and answer == {"ok": False, "reason": "It is not your move."}
    assert (list(session.state.log), views(session)) == before


# --- the event stream --------------------------------------------------------------------------

def test_the_event_stream_sends_the_view_at_once_and_again_after_every_move(
        tables: Callable[..., HeadlessTable]) -> None:
    session = make_session()
    table = tables(session)
    streams = []
    try:
        at_once = 2.0  # long before the first keep-alive: sent on connecting
        for seat in (0, 1):
            streams.append(EventStream(table.server.port, path(table, seat) + "/events"))
            _, first = streams[seat].next("view", timeout=at_once)
            # The newest: already showing that this seat now plays from its phone.
            assert json.loads(first) == read_json(table, seat, "/state")
            assert json.loads(first)["view"] == views(session)[seat]
            assert json.loads(first)["players"][seat]["phone"] is True
        seen = [len(stream.events) for stream in streams]
        for _ in range(3):
            seat = session.deciding
            assert post(url(table, seat) + "/act", listed_moves(table, seat)[0]) == OK
            now = views(session)
            for each, stream in enumerate(streams):
                while True:
                    index, data = stream.next("view", seen[each])
                    seen[each] = index + 1
                    if json.loads(data)["view"] == now[each]:
                        break
    finally:
        for stream in streams:
            stream.close()


def test_a_phone_that_goes_away_and_comes_back_is_sent_the_newest_view_at_once(
        tables: Callable[..., HeadlessTable], caplog: pytest.LogCaptureFixture) -> None:
    session = make_session()
    table = tables(session)
    caplog.set_level(logging.WARNING)
    stream = EventStream(table.server.port, path(table, 0) + "/events")
    stream.next("view")
    stream.close()  # the phone sleeps
    for _ in range(3):  # the game goes on meanwhile, from Ben's phone and Ann's
        seat = session.deciding
        assert post(url(table, seat) + "/act", listed_moves(table, seat)[0]) == OK
    again = EventStream(table.server.port, path(table, 0) + "/events")
    try:
        _, data = again.next("view", timeout=2.0)
        assert json.loads(data)["view"] == views(session)[0]
        assert json.loads(data) == read_json(table, 0, "/state")
    finally:
        again.close()
    # A phone going away is nothing to report.
    time.sleep(0.3)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


# --- phones that go away mid-move -----------------------------------------------------------

def send_and_hang_up(table: HeadlessTable, seat: int, move: dict[str, Any],
                     after: float) -> None:
    """A move sent from a phone that loses the network `after` seconds later, before the
    answer comes."""
    body = json.dumps(move).encode()
    with socket.create_connection(("127.0.0.1", table.server.port), timeout=WAIT) as conn:
        conn.sendall(f"POST {path(table, seat)}/act HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                     f"\r\n".encode() + body)
        time.sleep(after)
        # Gone at once, without a goodbye.
        linger = struct.pack("HH" if os.name == "nt" else "ii", 1, 0)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)


class Busy:
    """Keeps a table busy (as while dice still roll on its screen): it comes to no phone's
    move, and shows nothing new, until `free`."""

    def __init__(self, table: HeadlessTable) -> None:
        self.busy = threading.Event()
        self.busy.set()
        self.pumps = 0  # times the table came to the phones' moves since it was freed
        pump = table.phones.pump

        def pumped(session: TableSession, take: Callable[[Action], None],
                   undo: Callable[[], str], ready: bool = True) -> None:
            free = ready and not self.busy.is_set()
            pump(session, take, undo, free)
            self.pumps += free

        table.phones.pump = pumped  # type: ignore[method-assign]

    def free(self) -> None:
        """The table comes to the phones' moves again; returns once it has."""
        self.pumps = 0
        self.busy.clear()
        until(lambda: self.pumps >= 2, "the table to come to the phones' moves")


def test_a_move_in_flight_when_the_phone_goes_is_taken_whole_or_not_at_all(
        tables: Callable[..., HeadlessTable], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    session = make_session(saving=True)
    table = tables(session)
    busy = Busy(table)
    outcomes = []
    for after in (0.0, 0.3, 0.0, 0.3):
        seat = session.deciding
        move = listed_moves(table, seat)[0]
        before = list(session.state.log)
        busy.busy.set()  # the move waits for the table, and its phone goes meanwhile
        send_and_hang_up(table, seat, move, after)
        busy.free()
        # Taken once or not at all; if taken, saved and shown: nothing half done.
        assert session.state.log in (before, [*before, as_action(seat, move)])
        outcomes.append(len(session.state.log) - len(before))
        until(lambda: on_disk() == saved_log(session), "the autosave")
        now = views(session)
        until(lambda now=now: [read_json(table, s, "/view") for s in (0, 1)] == now,
              "the phones to be shown the game")
    # A move that had reached the table before its phone went is played.
    assert outcomes[1] == outcomes[3] == 1
    # The phones play on, and nothing went wrong on the way.
    seat = session.deciding
    assert post(url(table, seat) + "/act", listed_moves(table, seat)[0]) == OK
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_phone_that_stops_waiting_is_told_the_truth_about_its_move(
        tables: Callable[..., HeadlessTable], monkeypatch: pytest.MonkeyPatch) -> None:
    """Given up on before the table took it: refused, and never played. Taken while the
    phone was giving up: the phone is told it was taken, never to send it again."""
    monkeypatch.setattr(phone_server, "ANSWER_WAIT", 1.0)
    session = make_session()
    table = tables(session)
    seat = session.deciding
    move = listed_moves(table, seat)[0]
    busy = Busy(table)  # the table does not come to the move in time
    status, answer = post(url(table, seat) + "/act", move)
    assert status == 503 and answer["ok"] is False and "not played" in answer["reason"]
    busy.free()
    assert session.state.log == []

    # The table comes to the move at once but takes long over it.
    take = session.take

    def slow_take(action: Action) -> list[Event]:
        time.sleep(1.3)  # longer than the phone waits, not twice as long
        return take(action)

    monkeypatch.setattr(session, "take", slow_take)
    assert post(url(table, seat) + "/act", move) == OK
    assert session.state.log == [as_action(seat, move)]


# --- the server's life -------------------------------------------------------------------------

def test_the_server_stops_with_the_table(tables: Callable[..., HeadlessTable]) -> None:
    session = make_session()
    table = tables(session)
    port = table.server.port
    stream = EventStream(port, path(table, 0) + "/events")
    stream.next("view")
    # A move the table has not come to yet when it closes.
    move = listed_moves(table, 0)[0]
    Busy(table)
    waiting: list[tuple[int, Any]] = []
    sender = threading.Thread(target=lambda: waiting.append(post(url(table, 0) + "/act",
                                                                 move)))
    sender.start()
    until(lambda: bool(table.phones._inbox), "the move to reach the table")
    table.stop()
    sender.join(WAIT)
    assert waiting == [(409, {"ok": False, "reason": "The table has closed."})]
    stream.next("closed")
    stream.close()
    with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port),
                                                                         timeout=WAIT):
        pass
    assert session.state.log == []


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_fixed_port_is_served(tables: Callable[..., HeadlessTable]) -> None:
    port = free_port()
    table = tables(make_session(), port=port)
    assert table.server.port == port
    assert table.server.url(0).startswith(f"http://127.0.0.1:{port}/seat/")
    assert get(url(table, 0) + "/view")[0] == 200


def test_a_port_in_use_is_refused_in_words_and_leaves_the_game_as_it_was() -> None:
    session = make_session()
    with socket.socket() as other:  # another program holds the port
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        table = HeadlessTable(session, port=port)
        with pytest.raises(OSError, match=f"cannot serve the phones on port {port}"):
            table.start()
        table.stop()  # stopping a table that never started is harmless
        # Nobody is narrating the game for phones that never came.
        assert session.watchers == []
    # The port is free again: a table opens on it.
    table = HeadlessTable(session, port=port).start()
    try:
        assert get(url(table, 0) + "/view")[0] == 200
    finally:
        table.stop()


# --- saves and replays ------------------------------------------------------------------------

def test_a_game_from_phones_is_saved_after_every_move_and_replays_to_the_same_end(
        tables: Callable[..., HeadlessTable]) -> None:
    session = make_session(kinds=("human", "human", "heuristic"), saving=True)
    positions = Positions(session)
    table = tables(session, tick=0.001)
    rng = random.Random(5)
    undone = 0
    for step in range(400):
        _, seat, over = positions.wait_for_person()
        if over:
            break
        # Saved after every move: the autosave holds the game as it stands.
        until(lambda: on_disk() == saved_log(session), "the autosave")
        if step == 20:  # and continuing it mid-game plays on exactly as this table would
            game, state = saves.load()
            assert state.to_dict() == mirror(session).to_dict()
            assert game.bots_rng().getstate() == session.rng.getstate()
        if step % 7 == 3:
            status, answer = post(url(table, seat) + "/undo")
            if status == 200:
                undone += 1
                until(lambda: on_disk() == saved_log(session), "the autosave")
                continue
            assert status == 409 and answer["reason"]
        assert post(url(table, seat) + "/act", rng.choice(listed_moves(table, seat))) == OK
    assert session.state.game_over and undone
    # The finished game is archived, and reopens to the same end.
    until(lambda: len(saves.list_finished()) == 1, "the finished game")
    (finished,) = saves.list_finished()
    game, state = saves.load(finished.path)
    assert game == session.saved_game()
    assert state.to_dict() == session.state.to_dict()
    replay = replays.replay_of(game)
    end = replay.state_at(len(replay.steps) - 1)
    assert end.to_dict() == session.state.to_dict() and end.winners == session.state.winners
    # The same people's moves at one laptop make the same game, and the same save.
    laptop = make_session(kinds=("human", "human", "heuristic"), saving=False)
    people = iter(a for a in session.state.log if not session.is_bot(a.player))
    while not laptop.state.game_over:
        laptop.take(laptop.bot_action() if laptop.bot_to_move else next(people))
    assert laptop.saved_game() == session.saved_game()


def test_a_stale_move_is_refused_in_a_players_words_and_a_rule_in_the_tables() -> None:
    from dinotable.engine import new_game
    from dinotable.ruleset import load_by_id

    state = new_game(load_by_id("dino_hunt"), ["Ann", "Ben"], {}, 5)
    seat = state.current
    # A card the page offered a moment ago, gone since: no engine list of choices.
    stale = phone_words(state, Action(seat, "place", (("card", "no_such_card"),
                                                      ("period", "triassic"))))
    assert stale == "That choice is not open now: the game has moved on. Choose again."
    # A rule of the game: the ruleset's own words, as the table's greyed button gives them.
    assert phone_words(state, Action(seat, "travel", (("period", "triassic"),))) == (
        "Place your dinosaurs first, and you need Energy to travel.")
    # Out of turn: the table's own reason, as a sentence.
    other = phone_words(state, Action(1 - seat, "travel", (("period", "triassic"),)))
    engine = why_illegal(state, Action(1 - seat, "travel", (("period", "triassic"),)))
    assert other is not None and engine is not None
    assert other == engine[:1].upper() + engine[1:]
