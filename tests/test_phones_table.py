"""Hands on phones at the laptop: a host turns it on at set-up or from the pause menu, each
person's seat shows its code in turn and moves on by itself when that phone joins, a seat
on a phone is never handed the laptop (which keeps to the public table while it decides),
its moves and Undo come from the phone, and the server stops with the game. Requests go
to this machine's loopback address only."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from dinotable.app import App
from dinotable.companion.hub import PhoneMove
from dinotable.companion.link import PhoneLink
from dinotable.engine import legal_actions, view_for
from dinotable.ruleset import load_by_id
from dinotable.scenes.handoff import HandoffScene
from dinotable.scenes.pause import PauseScene
from dinotable.scenes.phones import JoinScene
from dinotable.scenes.setup import SetupScene
from dinotable.scenes.table import TableScene
from dinotable.settings import Settings
from dinotable.table.session import Seat

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def app() -> Iterator[App]:
    application = App(settings=Settings(bot_speed="fast"))
    yield application
    application.hold_phones(None)  # the server of the last game stops with it
    pygame.quit()


def local(link: PhoneLink, path: str) -> str:
    """An address of the link's server on the loopback interface."""
    return f"http://127.0.0.1:{link.server.port}{path}"


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def serving(link: PhoneLink) -> bool:
    with socket.socket() as s:
        s.settimeout(2)
        return s.connect_ex(("127.0.0.1", link.server.port)) == 0


def three_at_hunt(app: App) -> TableScene:
    """Dino Hunt with Ann and Ben (people) and Cat (a bot), hands on phones set at set-up."""
    app.settings.phones = True
    setup = SetupScene(app, load_by_id("dino_hunt"),
                       [Seat("Ann", "human", 0), Seat("Ben", "human", 1),
                        Seat("Cat", "heuristic", 2)])
    app.push(setup)
    setup.start()
    join = app.top
    assert isinstance(join, JoinScene)
    table = app.stack[-2]
    assert isinstance(table, TableScene) and table.link is not None
    return table


def hunt_table(app: App, seed: int = 3) -> TableScene:
    """The same seats at a seeded game, hands on phones switched on from the table."""
    table = TableScene(app, load_by_id("dino_hunt"),
                       [Seat("Ann", "human", 0), Seat("Ben", "human", 1),
                        Seat("Cat", "heuristic", 2)], {}, seed)
    app.push(table)
    table.phones_on()
    assert isinstance(app.top, JoinScene)
    return table


def both_on_phones(app: App) -> tuple[TableScene, PhoneLink]:
    """The seeded game with Ann's and Ben's phones joined, once a person must act."""
    table = hunt_table(app)
    link = table.link
    assert link is not None
    link.phones.join(0)
    link.phones.join(1)
    app.top.done()  # type: ignore[attr-defined]
    app.step([], 0.1)  # the table hears who joined
    steps_until(app, lambda: table.idle and not table.session.bot_to_move)
    return table, link


def steps_until(app: App, done: Any, frames: int = 600) -> None:
    for _ in range(frames):
        if done():
            return
        app.step([], 0.1)
    raise AssertionError("the table never got there")


def test_set_up_with_phones_shows_each_persons_code_in_turn(app: App) -> None:
    table = three_at_hunt(app)
    link = table.link
    assert link is not None and serving(link)
    join = app.top
    assert isinstance(join, JoinScene)
    assert join.current == 0  # Ann's code first; Cat is a bot and has none
    assert link.seats == [0, 1]
    # The short address opens only the seat being joined, and leads to its page.
    short = link.short(0)
    code = short.rsplit("/", 1)[1]
    status, page = get(local(link, f"/j/{code.lower()}"))
    assert status == 200 and "<html" in page
    assert link.joined == {0}
    app.step([], 0.1)
    assert join.current == 1  # on to Ben, with nobody touching the laptop
    assert get(local(link, f"/j/{code}"))[0] == 404  # Ann's code closed with her turn
    join.skip()  # Ben plays at the laptop
    assert join.current is None
    join.done()
    assert app.top is table
    app.step([], 0.1)
    assert table.session.phones == {0}
    assert get(local(link, f"/j/{link.phones.offer(None) or 'AAAAA'}"))[0] == 404


def test_a_seat_on_a_phone_is_never_handed_the_laptop(app: App) -> None:
    table = three_at_hunt(app)
    link = table.link
    assert link is not None
    link.phones.join(0)
    app.top.done()  # type: ignore[attr-defined]
    session = table.session
    seen_phone_turn = False
    for _ in range(3000):
        if session.state.game_over:
            break
        top = app.top
        if isinstance(top, HandoffScene):
            # The laptop is passed to Ben only; Ann's turns come from her phone.
            assert top.name == "Ben"
            app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                         unicode="\r", scancode=0)], 0.1)
            continue
        if top is not table:
            break
        app.step([], 0.1)
        if not table.idle or session.bot_to_move:
            continue
        seat = session.deciding
        if seat == 0:
            seen_phone_turn = True
            # Nothing private of anyone's is on the laptop while Ann decides on her phone.
            assert session.holder is None
            assert table.view == view_for(session.state, None)
            assert not table.my_turn
            assert "on their phone" in table.what_to_do()
            move = PhoneMove(0, "act", legal_actions(session.state)[0].id,
                             dict(legal_actions(session.state)[0].args))
            assert link.phones.submit(move) == ""
            steps_until(app, move.done.is_set)
            assert move.answer == {"ok": True, "reason": ""}
        elif seat == 1 and table.my_turn:
            table.take(legal_actions(session.state)[0])
        if len(session.state.log) > 60:
            break
    assert seen_phone_turn


def test_a_move_from_the_wrong_seat_is_refused_in_words_and_changes_nothing(app: App
                                                                           ) -> None:
    table, link = both_on_phones(app)
    session = table.session
    waiting = session.deciding
    other = 1 - waiting
    log = len(session.state.log)
    legal = legal_actions(session.state)[0]
    move = PhoneMove(other, "act", legal.id, dict(legal.args))
    link.phones.submit(move)
    steps_until(app, move.done.is_set)
    assert move.answer is not None and not move.answer["ok"]
    assert move.answer["reason"][:1].isupper()  # a sentence, as the table words it
    assert len(session.state.log) == log


def test_undo_comes_from_the_phone_of_the_seat_that_moved(app: App) -> None:
    table, link = both_on_phones(app)
    session = table.session
    seat = session.deciding
    # At the laptop, Undo for a seat on a phone says where it is taken back instead.
    assert "phone" in table.undo_choice().reason
    undoable = next(a for a in legal_actions(session.state) if a.id == "travel")
    move = PhoneMove(seat, "act", undoable.id, dict(undoable.args))
    link.phones.submit(move)
    steps_until(app, move.done.is_set)
    steps_until(app, lambda: table.idle)
    log = len(session.state.log)
    back = PhoneMove(seat, "undo")
    link.phones.submit(back)
    steps_until(app, back.done.is_set)
    assert back.answer == {"ok": True, "reason": ""}
    assert len(session.state.log) == log - 1


def test_the_pause_menu_turns_phones_on_and_off(app: App) -> None:
    table = TableScene(app, load_by_id("dino_hunt"),
                       [Seat("Ann", "human", 0), Seat("Ben", "human", 1)], {}, 3)
    app.push(table)
    app.step()
    table.pause()
    pause = app.top
    assert isinstance(pause, PauseScene)
    pause.menu.activate(pause.menu.find("phones"))
    join = app.top
    assert isinstance(join, JoinScene)
    link = table.link
    assert link is not None and serving(link)
    link.phones.join(1)
    app.step([], 0.1)
    assert table.session.phones == {1}
    join.menu.activate(join.menu.find("off"))
    assert join not in app.stack and table.link is None
    assert table.session.phones == set()
    assert not serving(link)  # the port is closed once phones are off


def test_leaving_the_game_stops_its_server(app: App) -> None:
    table = three_at_hunt(app)
    link = table.link
    assert link is not None and serving(link)
    token = link.phones.tokens[0]
    app.to_title()
    assert not serving(link)
    assert link.phones.seat_of(token) == 0 and app.phone_link is None


def test_a_game_of_bots_offers_no_phones(app: App) -> None:
    table = TableScene(app, load_by_id("dino_hunt"),
                       [Seat("Ann", "heuristic", 0), Seat("Ben", "random", 1)], {}, 3)
    app.push(table)
    table.pause()
    pause = app.top
    assert isinstance(pause, PauseScene)
    assert not any(c.tag == "phones" for c in pause.rows)


# --- the command line ------------------------------------------------------------------


def play(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "-m", "dinotable", "play", *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, check=False)


def test_play_with_phones_prints_each_persons_seat_and_address() -> None:
    done = play("dino_hunt", "--players", "Ann,Ben,Cat", "--bots", "human,heuristic,human",
                "--phones", "--frames", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == ["Ann", "Cat"]
    urls = [line.split(": ", 1)[1] for line in lines]
    assert all(u.startswith("http://") and "/seat/" in u for u in urls)
    assert len({u.rsplit("/", 1)[1] for u in urls}) == 2  # a token of its own each


def test_play_with_phones_on_a_port_in_use_says_so_and_exits_2() -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = play("dino_hunt", "--phones", "--port", str(port), "--frames", "2")
    assert done.returncode == 2
    assert f"port {port}" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("args, words", [
    (["--port", "8765"], "needs --phones"),
    (["--phones", "--port", "0"], "--port"),
    (["--phones", "--port", "70000"], "--port"),
    (["--phones", "--port", "eight"], "--port"),
    (["--phones", "--bots", "heuristic,random"], "every seat is a bot"),
])
def test_play_refuses_a_bad_phones_request_in_one_line(args: list[str], words: str) -> None:
    done = play("dino_hunt", *args, "--frames", "2")
    assert done.returncode == 2
    assert words in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""  # no seat's address before the request is good


def test_a_seats_page_and_view_answer_over_the_network(app: App) -> None:
    table = three_at_hunt(app)
    link = table.link
    assert link is not None
    token = link.phones.tokens[1]
    app.step([], 0.1)
    status, text = get(local(link, f"/seat/{token}/view"))
    assert status == 200
    assert json.loads(text) == json.loads(json.dumps(view_for(table.state, 1)))
    assert get(local(link, "/seat/" + "x" * len(token) + "/view"))[0] == 404
