"""Nobody gets in where they don't belong: whole seeded games of every shipped ruleset played
from phones over HTTP (bots at the other seats), checked at every step.

At every position where the game waits on a phone (and at the end), every phone seat's
`/view`, `/state` and event stream are read: the view is `engine.view_for` for that seat,
and no answer holds the id or kind of an item the seat may not see (in a zone it may not
look into, or lying face down), unless the seat sees that same id or kind elsewhere. Every
event the stream sent in between is checked the same way, against the position it shows.
Wrong, old and nearly right addresses get the same 404 and learn nothing; moves sent for
another seat, out of turn, malformed, oversized or in a flood are refused in words and
change nothing. Only 127.0.0.1 is ever asked anything.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from phones_net import OPENER, WAIT, EventStream, get, local, post_bytes, until

from dinotable import bots
from dinotable.companion import server as phone_server
from dinotable.companion.headless import HeadlessTable
from dinotable.companion.hub import jsonable, phone_words
from dinotable.engine import Action, Event, GameState, view_for, why_illegal
from dinotable.ruleset import installed_rulesets, load_by_id
from dinotable.table.session import Seat, TableSession

RULESETS = sorted(p.name for p in installed_rulesets())
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
TOKEN_WORD = re.compile(r"[A-Za-z0-9_]+")  # item ids and kinds are made of these
GAME_STEPS = 3000  # moves the phones may make in one game before the test gives up on it
GAME_SECONDS = 300.0  # the same, in time: only a game that hangs takes this long
FLOOD = phone_server.FLOOD  # the shipped limit on moves a seat sends at once


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves go to a folder of the test's own."""
    monkeypatch.setenv("DINOTABLE_HOME", str(tmp_path / "home"))


# --- talking to the server (127.0.0.1 only) ---------------------------------------------

# No proxy, whatever the environment says: every request goes straight to this machine.
post = post_bytes


# --- what each seat may know --------------------------------------------------------------

def secrets_of(state: GameState, seat: int) -> tuple[set[str], set[str]]:
    """The ids and kinds of the items `seat` may not see, and of those it sees; worked out
    from the rules themselves: zones seen by all, by their owner or by none, and items lying
    face down (seen only by the owner of the player's zone they lie in)."""
    rules = state.rules
    seen: set[int] = set()
    for zname, lists in state.zones.items():
        zdef = rules.zones[zname]
        for owner, content in enumerate(lists):
            mine = zdef.per_player and owner == seat
            if zdef.visible == "none" or (zdef.visible == "owner" and not mine):
                continue
            seen.update(i for i in content if i not in state.face_down or mine)
    # What is attached to an item the seat sees (face up) shows with it.
    hosts = set(seen)
    for host, held in state.attached.items():
        if host in hosts:
            seen.update(i for i in held if i not in state.face_down)
    hidden = set(range(len(state.items))) - seen
    shown = {w for i in seen for w in (state.items[i].id, state.items[i].kind)}
    secret = {w for i in hidden for w in (state.items[i].id, state.items[i].kind)}
    return secret - shown, shown


def ids_in_view(view: dict[str, Any], state: GameState) -> set[str]:
    """Every item id a view shows (zones and attachments)."""
    found: set[str] = set()
    for zname, content in view["zones"].items():
        lists = content if state.rules.zones[zname].per_player else [content]
        for each in lists:
            if isinstance(each, list):
                found.update(i for i, _, _ in each if i is not None)
    for held in view["attached"].values():
        found.update(i for i, _, _ in held if i is not None)
    return found


def leaks(text: str, secret: frozenset[str] | set[str]) -> set[str]:
    """The secret ids and kinds named anywhere in an answer's text."""
    return secret & set(TOKEN_WORD.findall(text))


def told(text: str, secret: frozenset[str] | set[str]) -> list[str]:
    """Where an answer names a secret (for the failure message)."""
    return [text[max(0, m.start() - 120):m.end() + 60] for m in TOKEN_WORD.finditer(text)
            if m.group() in secret]


def digest(view: Any) -> str:
    return hashlib.sha1(json.dumps(view, sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class Secrets:
    """What one seat may not be told at one position."""

    now: frozenset[str]  # ids and kinds of the items it may not see
    # Those of them it has not seen at any position so far: what words about past moves
    # (a card turned face up, then face down again) must not name either.
    unseen: frozenset[str]


@dataclass(frozen=True)
class Position:
    """The game as it stood after a move (or at the start)."""

    count: int  # positions recorded up to this one
    moves: int  # len(log)
    deciding: int
    game_over: bool
    views: dict[int, Any]  # every seat's view, JSON-ready
    secrets: dict[int, Secrets]  # each phone seat's


class Positions:
    """Every position the game passes through, recorded on the table's own thread as each
    move is taken or taken back (the session's watchers), so the test reads the game only
    as it stood between moves."""

    def __init__(self, session: TableSession, phones: list[int]) -> None:
        self.session = session
        self.phones = phones
        self.lock = threading.Lock()
        self.count = 0
        self.ever: dict[int, set[str]] = {seat: set() for seat in phones}
        # The secrets of every view a phone seat was ever in: what an answer showing that
        # view must not name (the view alone decides what the seat sees).
        self.by_view: dict[tuple[int, str], Secrets] = {}
        self.problems: list[str] = []
        items = session.state.items
        # Every id and kind is one word to look for in an answer's text.
        assert all(TOKEN_WORD.fullmatch(w) for it in items for w in (it.id, it.kind))
        self.now = self._record()
        session.watchers.append(self._heard)

    def _heard(self, action: Action | None, events: list[Event]) -> None:
        position = self._record()
        with self.lock:
            self.now = position

    def _record(self) -> Position:
        state = self.session.state
        views = {seat: jsonable(view_for(state, seat)) for seat in range(len(state.players))}
        secrets: dict[int, Secrets] = {}
        for seat in self.phones:
            secret, shown = secrets_of(state, seat)
            wrong = ids_in_view(views[seat], state) & secret
            if wrong:  # the engine's own view would already tell a secret
                self.problems.append(f"view_for({seat}) shows {sorted(wrong)}")
            self.ever[seat] |= shown
            secrets[seat] = Secrets(frozenset(secret), frozenset(secret - self.ever[seat]))
            self.by_view[(seat, digest(views[seat]))] = secrets[seat]
        self.count += 1
        return Position(self.count, len(state.log), self.session.deciding, state.game_over,
                        views, secrets)

    def quiet(self) -> Position:
        """The position once the game waits on a phone (or is over): bots have moved."""
        found: list[Position] = []

        def settled() -> bool:
            with self.lock:
                now = self.now
            if now.game_over or now.deciding in self.phones:
                found.append(now)
                return True
            return False

        until(settled, "the bots to move")
        return found[-1]


def assert_tells_nothing(text: str, secrets: Secrets, what: str) -> None:
    """An answer (a view, a page's JSON, an event, a refusal) names no secret; its lines
    about past moves name none the seat has not seen."""
    try:
        data = json.loads(text)
    except ValueError:
        data = text
    lines = data.pop("lines", []) if isinstance(data, dict) else []
    rest = json.dumps(data)
    assert not leaks(rest, secrets.now), f"{what} tells {told(rest, secrets.now)}"
    said = "\n".join(lines)
    assert not leaks(said, secrets.unseen), f"{what} tells {told(said, secrets.unseen)}"


# --- one game -------------------------------------------------------------------------------

@dataclass
class Game:
    """A game in play: the table, its positions, each phone seat's address and stream."""

    table: HeadlessTable
    positions: Positions
    phones: list[int]
    streams: dict[int, EventStream]
    rng: random.Random
    last_event: dict[int, str]
    witnessed: int = 0  # answers that named another phone seat's secrets

    @property
    def session(self) -> TableSession:
        return self.table.session

    def url(self, seat: int) -> str:
        return local(self.table.server.url(seat))

    def state_json(self, seat: int) -> dict[str, Any]:
        status, body = get(self.url(seat) + "/state")
        assert status == 200, body
        data: dict[str, Any] = json.loads(body)
        return data

    def mirror(self) -> GameState:
        """A copy of the game for the test's own questions: the table's thread alone
        touches the game itself."""
        state = self.session.state
        return GameState.from_dict(state.rules, state.to_dict())


def seats_for(ruleset: str, layout: str) -> list[Seat]:
    """`pair`: two players, both on phones. `full`: as many players as the game takes,
    phones at seats 0 and 2, bots (random and heuristic by turns) at the others."""
    rules = load_by_id(ruleset)
    if layout == "pair":
        return [Seat(NAMES[0], "human", 0), Seat(NAMES[1], "human", 1)]
    kinds = ["human", "random", "human", "heuristic", "random", "heuristic"]
    return [Seat(NAMES[s], kinds[s], s) for s in range(rules.max_players)]


@pytest.fixture
def old_tokens() -> list[str]:
    """The seats' tokens of a game that was played (and closed) before."""
    rules = load_by_id("dinosaur_dice")
    session = TableSession(rules, [Seat("Old", "human", 0), Seat("Gone", "human", 1)], {}, 3,
                           saving=False)
    with HeadlessTable(session) as table:
        tokens = list(table.phones.tokens.values())
        assert get(local(table.server.url(0)) + "/view")[0] == 200
    return tokens


@pytest.fixture
def game_factory() -> Iterator[Callable[[str, str, int], Game]]:
    games: list[Game] = []

    def make(ruleset: str, layout: str, seed: int) -> Game:
        rules = load_by_id(ruleset)
        session = TableSession(rules, seats_for(ruleset, layout), {}, seed, saving=False)
        phones = [s for s in range(len(session.seats)) if not session.is_bot(s)]
        positions = Positions(session, phones)
        table = HeadlessTable(session, tick=0.001).start()
        game = Game(table, positions, phones, {}, random.Random(seed), {})
        games.append(game)
        for seat in phones:
            status, page = get(game.url(seat))  # opening the page joins the seat
            assert status == 200 and page.startswith(b"<!")
            base = table.server.url(seat).split(str(table.server.port), 1)[1]
            game.streams[seat] = EventStream(table.server.port, base + "/events")
        return game

    yield make
    for game in games:
        for stream in game.streams.values():
            stream.close()
        game.table.stop()


# --- the checks ---------------------------------------------------------------------------

def check_answers(game: Game, position: Position) -> None:
    """Every phone seat's /view, /state and event stream, at a position the game rests in."""
    for seat in game.phones:
        expected = position.views[seat]
        secret = position.secrets[seat]
        url = game.url(seat)
        seen: list[bytes] = []

        def current(url: str = url, expected: Any = expected, seen: list[bytes] = seen
                    ) -> bool:
            status, body = get(url + "/view")
            assert status == 200
            seen.append(body)
            return bool(json.loads(body) == expected)

        until(current, f"seat {seat}'s /view to be view_for")
        view_text = seen[-1]
        status, state_text = get(url + "/state")
        assert status == 200
        data = json.loads(state_text)
        assert data["seat"] == seat and data["view"] == expected
        # Scores the view hides (revealed at the end) are hidden in the list of players too.
        assert [p["score"] for p in data["players"]] == expected["scores"]
        assert_tells_nothing(view_text.decode(), secret, f"seat {seat}'s /view")
        assert_tells_nothing(state_text.decode(), secret, f"seat {seat}'s /state")
        # The check is alive: what this seat is shown names secrets of the others (its own
        # hand, say), as a leak would.
        for other in game.phones:
            if other != seat and leaks(json.dumps(data["view"]), position.secrets[other].now):
                game.witnessed += 1
        check_stream(game, seat, state_text.decode())


def check_stream(game: Game, seat: int, newest: str) -> None:
    """Every event the seat's stream sent since the last check names none of the secrets of
    the position it shows, and the stream comes to the newest."""
    stream = game.streams[seat]
    deadline = time.monotonic() + WAIT
    while game.last_event.get(seat) != newest:
        assert time.monotonic() < deadline, f"seat {seat}'s stream never sent the newest view"
        assert not stream.ended, "the stream ended"
        for name, text in stream.drain(0.05):
            if name != "view":
                continue
            data = json.loads(text)
            assert data["seat"] == seat
            secret = game.positions.by_view.get((seat, digest(data["view"])))
            assert secret is not None, f"seat {seat} was sent a view of no position"
            assert_tells_nothing(text, secret, f"seat {seat}'s event stream")
            game.last_event[seat] = text


def snapshot(game: Game) -> tuple[int, int, int, dict[int, bytes]]:
    """What a refused move must leave as it was: the positions recorded, the moves and the
    game's version, and every phone seat's /view."""
    state = game.session.state
    views = {}
    for seat in game.phones:
        status, body = get(game.url(seat) + "/view")
        assert status == 200
        views[seat] = body
    return game.positions.count, len(state.log), state.version, views


def assert_unchanged(game: Game, before: tuple[int, int, int, dict[int, bytes]]) -> None:
    """Nothing moved: no move taken or taken back, every seat's view as it was."""
    count, moves, version, views = before
    # The table answers a move only after it has dealt with it: an answer in hand means
    # the table is done with it.
    assert game.positions.count == count
    assert len(game.session.state.log) == moves and game.session.state.version == version
    for seat, view in views.items():
        assert get(game.url(seat) + "/view") == (200, view)
    position, mirror = game.positions.now, game.mirror()
    for seat in range(len(game.session.seats)):
        assert jsonable(view_for(mirror, seat)) == position.views[seat]


def refused(status: int, body: bytes, *statuses: int) -> str:
    """A refusal: one of `statuses`, `{"ok": false, "reason": words}`; returns the words."""
    assert status in statuses, (status, body)
    answer = json.loads(body)
    assert answer["ok"] is False
    reason = answer["reason"]
    assert isinstance(reason, str) and re.search(r"[A-Za-z]{2,}", reason), answer
    return reason


def engine_words(state: GameState, action: Action) -> str:
    """The refusal a phone is given: the table's reason as a sentence, in plain words
    where only a stale page could meet it (`phone_words`)."""
    assert why_illegal(state, action) is not None
    why = phone_words(state, action)
    assert why is not None
    return why


def as_action(seat: int, move: dict[str, Any]) -> Action:
    return Action(seat, move["action"], tuple(sorted(move.get("args", {}).items())))


def listed_moves(game: Game, seat: int) -> list[dict[str, Any]]:
    """The moves the seat's phone offers now (whole moves, ready to send)."""
    return [m["act"] for m in game.state_json(seat)["moves"] if m["enabled"] and m["act"]]


def refuse_for_another_seat(game: Game, deciding: int, other: int) -> None:
    """The deciding seat's own move, sent from another seat's address: refused in the
    engine's words (those of the seat that sent it), nothing changed, no secret told."""
    move = game.rng.choice(listed_moves(game, deciding))
    mirror = game.mirror()
    before = snapshot(game)
    status, body = post(game.url(other) + "/act", move)
    reason = refused(status, body, 409)
    assert reason == engine_words(mirror, as_action(other, move))
    assert_tells_nothing(reason, game.positions.now.secrets[other], "a refusal")
    assert_unchanged(game, before)


def refuse_bad_moves(game: Game, deciding: int, other: int) -> None:
    """Out of turn, malformed, wrong types, unknown ids, huge lists and bodies, Undo out of
    turn: each refused in words, nothing changed."""
    moves = listed_moves(game, deciding)
    move = game.rng.choice(moves)
    mirror = game.mirror()
    before = snapshot(game)
    rules = game.session.rules
    secret = game.positions.now.secrets
    arg = next((a.name for a in rules.actions[move["action"]].args), "card")
    # In the engine's words: unknown action, an argument that is not a choice, a move of
    # another seat's, a move the deciding seat may not make now.
    for body in ({"action": "no_such_move", "args": {}},
                 {"action": move["action"], "args": {arg: "no_such_thing"}},
                 {"action": move["action"], "args": {**move["args"], "extra": 1}}):
        for seat in (deciding, other):
            status, answer = post(game.url(seat) + "/act", body)
            reason = refused(status, answer, 409)
            assert reason == engine_words(mirror, as_action(seat, body))
            assert_tells_nothing(reason, secret[seat], "a refusal")
    # Not the shape of a move at all.
    shapes: list[Any] = [b"{not json", b"", b"[]", b"null", b'"end_turn"', b"\xff\xfe\x00",
                         {"action": 7}, {"action": ""}, {"action": None},
                         {"action": "x" * 65}, {"args": {}},
                         {"action": move["action"], "args": [1, 2]},
                         {"action": move["action"], "args": {arg: True}},
                         {"action": move["action"], "args": {arg: 1.5}},
                         {"action": move["action"], "args": {arg: {"id": 1}}},
                         {"action": move["action"], "args": {arg: [None]}},
                         {"action": move["action"], "args": {arg: list(range(65))}},
                         {"action": move["action"], "args": {str(n): 1 for n in range(17)}},
                         b"[" * 5000, b'{"action": "x", "args": ' + b"[" * 3000 + b"]" * 3000
                         + b"}"]
    for body in shapes:
        status, answer = post(game.url(deciding) + "/act", body)
        refused(status, answer, 400)
    # Too large to be read at all: a list of 10,000 items, a body over 8 KB.
    for body in ({"action": move["action"], "args": {arg: [0] * 10_000}},
                 {"action": move["action"], "args": {arg: "x" * 9000}},
                 b" " * (8 * 1024 + 1)):
        status, answer = post(game.url(deciding) + "/act", body)
        refused(status, answer, 413)
    # Undo on another's turn.
    status, answer = post(game.url(other) + "/undo", b"")
    assert refused(status, answer, 409) == "It is not your move."
    assert_unchanged(game, before)


def flood(game: Game, deciding: int, other: int) -> None:
    """Many moves at once from one address: some turned away as a flood (429), all refused
    in words, nothing changed."""
    move = game.rng.choice(listed_moves(game, deciding))
    before = snapshot(game)
    url = game.url(other) + "/act"
    time.sleep(FLOOD[1])  # nothing sent from that address lately
    limit, phone_server.FLOOD = phone_server.FLOOD, FLOOD
    try:
        with ThreadPoolExecutor(max_workers=24) as pool:
            answers = list(pool.map(lambda _: post(url, move), range(48)))
    finally:
        phone_server.FLOOD = limit
    statuses = [status for status, _ in answers]
    for status, body in answers:
        refused(status, body, 409, 429)
    assert 429 in statuses
    assert_unchanged(game, before)


def play_one(game: Game, seat: int) -> None:
    """The seat plays one of the moves its phone offers: as often as not the one a
    heuristic bot would choose (which the phone must offer), else any (so games end)."""
    moves = listed_moves(game, seat)
    if game.rng.random() < 0.6:
        choice = bots.choose("heuristic", game.mirror(), game.rng)
        move = {"action": choice.id, "args": jsonable(dict(choice.args))}
        assert move in moves, f"the phone does not offer {choice}"
    else:
        move = game.rng.choice(moves)
    for _ in range(20):
        status, body = post(game.url(seat) + "/act", move)
        if status != 429:
            break
        time.sleep(0.2)
    assert (status, json.loads(body)) == (200, {"ok": True, "reason": ""}), move


def check_addresses(game: Game, old: list[str]) -> None:
    """Wrong, old and nearly right tokens: the same 404, naming no seat, at every route."""
    tokens = game.table.phones.tokens
    assert len(set(tokens.values())) == len(tokens) and not set(tokens.values()) & set(old)
    for token in tokens.values():
        assert len(token) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    base = local(game.table.server.base)
    real = tokens[game.phones[0]]
    flip = {c: "A" if c != "A" else "B" for c in real}
    wrong = [*old, "x" * len(real), real[:-1], real + "A", real.upper(), real.lower(),
             flip[real[0]] + real[1:], real[:16] + flip[real[16]] + real[17:],
             real[:-1] + flip[real[-1]], "", "%00", "..%2F" + real, real + "%20"]
    answers = set()
    for token in wrong:
        for route in ("", "/view", "/state", "/events"):
            status, body = get(f"{base}/seat/{token}{route}")
            if token == "" and route == "":
                continue  # /seat/ itself is no seat's page
            assert status == 404, (token, route, status)
            answers.add(body)
        for route in ("/act", "/undo"):
            status, body = post(f"{base}/seat/{token}{route}",
                                {"action": "end_turn", "args": {}})
            assert status == 404, (token, route, status)
            answers.add(body)
    assert len(answers) == 1, answers
    (body,) = answers
    for name in game.session.names:
        assert name.encode() not in body
    assert b"seat" not in body.lower()


def play_game(game: Game, old: list[str], attacks: bool = True) -> int:
    """Play to the end, checking every phone seat at every position the game rests in."""
    check_addresses(game, old)
    deadline = time.monotonic() + GAME_SECONDS
    steps = 0
    while True:
        position = game.positions.quiet()
        check_answers(game, position)
        if position.game_over:
            break
        seat = position.deciding
        other = next(s for s in game.phones if s != seat)
        if attacks:
            if steps % 4 == 0:
                refuse_for_another_seat(game, seat, other)
            if steps % 25 == 3:
                refuse_bad_moves(game, seat, other)
            if steps == 10:
                flood(game, seat, other)
        play_one(game, seat)
        steps += 1
        assert steps < GAME_STEPS and time.monotonic() < deadline, "the game does not end"
    assert game.table.error is None
    assert game.positions.problems == []
    assert game.witnessed > 0 or not game.session.rules.hidden_information
    return steps


# --- the tests ------------------------------------------------------------------------------

# Seeds whose games are short enough for the suite (a few hundred moves at most).
SEEDS = {"danger_danger_dinosaur": 13, "dino_dude_ranch": 2, "dino_hunt": 1,
         "dino_hunt_dice": 1, "dinosaur_dice": 1}


@pytest.mark.parametrize("layout", ["pair", "full"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_whole_game_from_phones_tells_each_seat_only_its_own(
        ruleset: str, layout: str, game_factory: Callable[[str, str, int], Game],
        old_tokens: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # A script plays far faster than a person: the flood limit is the shipped one only
    # while a flood is sent (`flood`).
    monkeypatch.setattr(phone_server, "FLOOD", (10**6, 1.0))
    game = game_factory(ruleset, layout, SEEDS[ruleset])
    steps = play_game(game, old_tokens)
    assert steps > 0 and game.session.state.game_over


def test_a_seats_pages_keep_its_address_to_themselves(
        game_factory: Callable[[str, str, int], Game]) -> None:
    """No page hands its address on (no Referer), is kept in a cache or is shown inside
    another site's page; nor is a wrong address's answer."""
    game = game_factory("dino_hunt", "pair", 1)
    base = game.url(0)
    for address in (base, base + "/view", base + "/state", base + "/seat/nope",
                    local(game.table.server.base) + "/seat/nope/view"):
        request = urllib.request.Request(address, method="GET")
        try:
            response = OPENER.open(request, timeout=WAIT)
        except urllib.error.HTTPError as exc:
            response = exc
        with response:
            headers = response.headers
            assert headers["Referrer-Policy"] == "no-referrer"
            assert headers["Cache-Control"] == "no-store"
            assert headers["X-Frame-Options"] == "DENY"
            assert "default-src 'self'" in headers["Content-Security-Policy"]


def test_every_shipped_ruleset_is_checked() -> None:
    folders = {p.name for p in Path(__file__).resolve().parent.parent.joinpath(
        "rulesets").iterdir() if (p / "rules.yaml").is_file()}
    assert folders == set(RULESETS) and set(SEEDS) == folders


# Bodies a phone (or anyone holding its address) might send.
_values = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=40),
                    st.lists(st.one_of(st.integers(), st.text(max_size=8)), max_size=80))
_bodies = st.one_of(
    st.binary(max_size=300),
    st.dictionaries(st.sampled_from(["action", "args", "seat", "player"]), _values,
                    max_size=4),
    st.fixed_dictionaries({"action": st.one_of(st.text(max_size=70), _values),
                           "args": st.one_of(_values, st.dictionaries(
                               st.text(max_size=70), _values, max_size=20))}),
    st.recursive(_values, lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=5), inner, max_size=5)),
        max_leaves=30))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_junk_sent_to_a_seat_is_refused_in_words_and_changes_nothing(
        ruleset: str, game_factory: Callable[[str, str, int], Game],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The flood limit would turn most of these away unread: here every one is read.
    monkeypatch.setattr(phone_server, "FLOOD", (10**6, 1.0))
    game = game_factory(ruleset, "pair", 5)
    game.positions.quiet()
    deciding = game.session.deciding
    other = 1 - deciding
    names = list(game.session.rules.actions)
    before = snapshot(game)

    @settings(max_examples=120, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(body=_bodies, seat=st.sampled_from([deciding, other]),
           action=st.sampled_from(names))
    def send(body: Any, seat: int, action: str) -> None:
        if isinstance(body, dict) and "action" in body and body["action"] is None:
            body = {**body, "action": action}  # a real action's id, with junk around it
        if seat == deciding and isinstance(body, dict) and isinstance(
                body.get("action"), str) and body["action"] in names:
            return  # could be a legal move: the other tests play those
        status, answer = post(game.url(seat) + ("/act" if len(str(body)) % 7 else "/undo"),
                              body)
        refused(status, answer, 400, 409, 413)
        assert_tells_nothing(answer.decode(), game.positions.now.secrets[seat], "a refusal")

    send()
    assert_unchanged(game, before)
    assert game.table.error is None

