"""Turn-flow and word effects: end_turn, drop_out, end_round, end_phase, knock_out, say."""

from __future__ import annotations

from typing import Any, cast

from .codegen import Piece, generate
from .effects import Param, effect
from .expr import (
    Compiled,
    Ctx,
    bind,
)
from .model import Effect
from .state import Event


@effect("end_turn", "End the current turn now; the rest of the action's effects do not run.",
        "end_turn: {}", {},
        emit=lambda p: Piece(["c.turn_over = True", "return True"], {}, ends_turn=True))
def _end_turn(p: dict[str, Any]) -> Effect:
    def run(c: Ctx) -> bool:
        c.turn_over = True
        return True

    cast(Any, run).ends_turn = True
    return run


@effect("drop_out", "The acting player drops out of this round: later turns of the round "
        "pass them by. Their turn goes on until it ends.", "drop_out: {}", {})
def _drop_out(p: dict[str, Any]) -> Effect:
    def run(c: Ctx) -> bool:
        st = c.state
        if not st.out[c.seat]:
            st.out[c.seat] = True
            if c.events is not None:
                c.events.append(Event("dropped_out", c.seat, {}))
        return False

    return run


@effect("end_round", "End the round when this turn ends (for rounds with `mode: until_ended`); "
        "`starter` is the seat that starts the next round.",
        "end_round: {starter: \"left_of(current)\"}",
        {"starter": Param("expr", "who starts the next round", required=False,
                          default="left_of(current)", vtype="player")})
def _end_round(p: dict[str, Any]) -> Effect:
    starter: Compiled = p["starter"]

    def run(c: Ctx) -> bool:
        c.state.next_starter = int(starter(c)) % len(c.state.players)
        return False

    return run


def _emit_say(p: dict[str, Any]) -> Piece:
    ns: dict[str, Any] = {"_Event": Event}
    text = bind(ns, p["text"], "t")
    return Piece([
        "if c.events is not None:  # words are only for someone watching",
        f"    c.events.append(_Event('said', c.seat, {{'text': {text}.render(c), "
        f"'tone': {p['tone']!r}}}))",
    ], ns)


@effect("say", "Tell the table what just happened; {player} and {expression} fill in. "
        "`tone` (good, bad or news) lets the table colour the message and pick a sound.",
        "say: {text: \"Three stomps! {player} banks nothing.\", tone: bad}",
        {"text": Param("text", "the words, with placeholders"),
         "tone": Param("tone", "good, bad or news (default)", required=False,
                       default="news")}, shorthand="text", emit=_emit_say)
def _say(p: dict[str, Any]) -> Effect:
    return generate([_emit_say(p)])


@effect("end_phase", "End this pass of the round's phase when this turn ends; `starter` is "
        "the seat that begins what comes next (the phase again, or the next phase).",
        "end_phase: {starter: \"current\"}",
        {"starter": Param("expr", "who begins the next phase pass", required=False,
                          vtype="player")})
def _end_phase(p: dict[str, Any]) -> Effect:
    starter: Compiled | None = p["starter"]

    def run(c: Ctx) -> bool:
        st = c.state
        st.phase_ended = True
        if starter is not None:
            st.phase_starter = int(starter(c)) % len(st.players)
        return False

    return run


@effect("knock_out", "Put a player out of the game for good (the seat in scope, or "
        "`player`): no more turns, actions or questions for them.",
        "knock_out: {player: \"current\"}",
        {"player": Param("expr", "the seat knocked out (default: the seat in scope)",
                         required=False, vtype="player")})
def _knock_out(p: dict[str, Any]) -> Effect:
    who: Compiled | None = p["player"]

    def run(c: Ctx) -> bool:
        st = c.state
        seat = c.seat if who is None else int(who(c)) % len(st.players)
        if not st.knocked[seat]:
            st.knocked[seat] = True
            st.active[seat] = False  # every turn, round, window and action passes them by
            if c.events is not None:
                c.events.append(Event("knocked_out", seat, {}))
            if seat == st.current:
                c.turn_over = True  # they can take nothing more: their turn ends
        return False

    return run
