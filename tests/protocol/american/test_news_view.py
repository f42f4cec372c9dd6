"""The seat view's news (issue 22, item 13): a call of ours that lost says to whom and why;
the Charleston says who stopped it and which tiles a pass brought us (marked in the rack)."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any, cast

from fourwinds.protocol.american.actions import (
    Action,
    Call,
    CallMahjong,
    CharlestonPass,
    Discard,
    NoCall,
    StopVote,
)
from fourwinds.protocol.american.engine import apply
from fourwinds.protocol.american.state import AmericanState, CharlestonStep, Stage
from fourwinds.protocol.american.table_rules import AmericanRules
from fourwinds.protocol.american.table_view import RULES
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.views.rule_view import SeatFacts
from fourwinds.protocol.tiles import Kind

from .engine_fixtures import E, N, S, W, charleston_state, discard, play_state, slot_of, slots_of

EAST_2468 = "5p 222m444m6666m888m"


def _table(state: AmericanState, me: Seat) -> Mapping[str, Any]:
    session = SimpleNamespace(open=SimpleNamespace(options=SimpleNamespace(auto_pass=True)))
    facts = SeatFacts(cast(Any, session), state, cast(Any, tuple(SEATS)), me, AmericanRules())
    return RULES.table(facts)


def _answers(state: AmericanState, answers: dict[Seat, Action]) -> AmericanState:
    for seat in SEATS:
        if state.stage is Stage.CALLS and state.pending[seat] is None:
            state, _ = apply(state, answers.get(seat, NoCall(seat)))
    return state


def test_a_pung_call_lost_to_a_kong_nearer_in_turn_says_who_took_it_and_why() -> None:
    state = play_state(
        {E: EAST_2468, S: "5pJJ 1s2s3s4s6s7s8s9s 1z2z", W: "5p5p 1s2s3s4s6s7s8s9s 5z6z7z"}
    )
    state, _ = discard(state, E, "5p")
    kong = Call(
        S, (slot_of(state, S, "5p"), *slots_of(state, S, "J", 2)), (Kind.P5, Kind.JOKER, Kind.JOKER)
    )
    state = _answers(state, {S: kong, W: Call(W, slots_of(state, W, "5p", 2), (Kind.P5, Kind.P5))})
    assert _table(state, W)["news"] == [
        "Your pung call on 5p lost: South called kong (nearer in turn after East)"
    ]
    assert _table(state, S)["news"] == []  # the winner is told by its new exposure
    assert _table(state, N)["news"] == []  # North did not call


def test_an_exposure_call_lost_to_mahjong_says_mahjong_beats_an_exposure() -> None:
    state = play_state(
        {
            E: "8m 1p2p3p4p5p6p7p9p 1s2s3s4s5s",
            S: "JJ 3s6s7s8s9s 5z5z5z6z6z6z",
            N: "222m444m6666m888m",
        }
    )
    state, _ = discard(state, E, "8m")
    state = _answers(
        state, {S: Call(S, slots_of(state, S, "J", 2), (Kind.JOKER, Kind.JOKER)), N: CallMahjong(N)}
    )
    assert _table(state, S)["news"] == [
        "Your pung call on 8m lost: North called Mahjong (Mahjong beats an exposure)"
    ]


def test_a_lost_call_is_told_for_a_round_of_discards_then_no_more() -> None:
    state = play_state(
        {E: EAST_2468, S: "5pJ 1s2s3s4s6s7s8s9s 1z2z3z", W: "5p5p 1s2s3s4s6s7s8s9s 5z6z7z"}
    )
    state, _ = discard(state, E, "5p")
    state = _answers(
        state,
        {
            S: Call(S, (slot_of(state, S, "5p"), slot_of(state, S, "J")), (Kind.P5, Kind.JOKER)),
            W: Call(W, slots_of(state, W, "5p", 2), (Kind.P5, Kind.P5)),
        },
    )
    told = []
    for _ in range(4):  # South discards, then West, North and East after their draws
        told.append(bool(_table(state, W)["news"]))
        seat = state.turn
        slot = next(x for x in reversed(state.hands[seat]) if state.faces[x] != Kind.JOKER)
        state, _ = apply(state, Discard(seat, slot, state.faces[slot]))
        state = _answers(state, {})
    assert told == [True, True, True, True]
    assert _table(state, W)["news"] == []


def _pass_all(state: AmericanState) -> AmericanState:
    for seat in SEATS:
        tiles = tuple(x for x in state.hands[seat] if state.faces[x] != Kind.JOKER)[:3]
        state, _ = apply(state, CharlestonPass(seat, tiles, 0))
    return state


def test_the_tiles_a_charleston_pass_brought_us_are_news_and_marked_in_the_rack() -> None:
    state = charleston_state()
    given = tuple(x for x in state.hands[E] if state.faces[x] != Kind.JOKER)[:3]
    state = _pass_all(state)  # first right: East receives from North, its left
    came = sorted(state.kinds(state.received[S]))
    table = _table(state, S)
    codes = [str(c) for c in table["received"]]
    assert sorted(codes) == sorted(_code(k) for k in came)
    assert set(state.received[S]) == set(given)  # East passed right, to South
    assert table["news"] == [
        f"Received {' '.join(_code(k) for k in state.kinds(given))} from East (first right)"
    ]
    assert all(code in table["hand"] for code in codes)


def _code(kind: Kind) -> str:
    from fourwinds.protocol.table.views.rule_view import code

    return code(kind)


def test_the_stop_vote_says_who_stopped_the_charleston() -> None:
    state = charleston_state()
    for _ in range(3):
        state = _pass_all(state)
    assert state.step is CharlestonStep.STOP_VOTE and _table(state, E)["news"][:1] != [
        "The Charleston stopped"
    ]
    for seat in SEATS:
        state, _ = apply(state, StopVote(seat, seat in (S, N)))
    assert state.step is CharlestonStep.COURTESY
    news = _table(state, E)["news"]
    assert news[0] == "The Charleston stopped: South, North voted to stop"
    assert news[1].endswith("(first left)") and "from South" in news[1]


def test_when_no_one_stops_the_news_says_the_second_charleston_begins() -> None:
    state = charleston_state()
    for _ in range(3):
        state = _pass_all(state)
    for seat in SEATS:
        state, _ = apply(state, StopVote(seat, False))
    assert state.step is CharlestonStep.SECOND_LEFT
    assert _table(state, W)["news"][0] == "No one voted to stop: the second Charleston"
