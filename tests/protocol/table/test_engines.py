"""The table with the real engines: full matches of both rule sets with the built-in bots."""

from __future__ import annotations

import random

import pytest

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import (
    Harness,
    bot_moves,
    deliver_one,
    open_harness,
    play_match,
    restart,
    run,
)
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.state import EngineEvent, Phase
from fourwinds.protocol.table.machine.transcript import check_transcript, export_transcript

TWO = TableOptions(deck=DeckKind.PRACTICE, hands=2)
ONE = TableOptions(deck=DeckKind.PRACTICE, hands=1)


def _agreed(h: Harness, hands: int) -> None:
    assert all(s.phase is Phase.OVER for s in h.sessions)
    assert len({s.step_hash for s in h.sessions}) == 1
    assert all(not p for p in h.problems), h.problems
    assert {s.hands_played for s in h.sessions} == {hands}
    assert sum(h.sessions[0].scores) == 0


@pytest.fixture(scope="module")
def american() -> Harness:
    return play_match("american", b"am", options=TWO)


@pytest.fixture(scope="module")
def mcr() -> Harness:
    return play_match("mcr", b"mcr", options=TWO)


def test_harness_plays_an_american_match_with_built_in_bots(american: Harness) -> None:
    _agreed(american, 2)


def test_harness_plays_an_mcr_match_with_built_in_bots(mcr: Harness) -> None:
    _agreed(mcr, 2)


def test_each_seat_sees_only_its_own_private_events(american: Harness) -> None:
    private = 0
    for place in SEATS:
        seating = {hand_no: seats for hand_no, _, seats in american.sessions[place].outcomes}
        for event in american.events[place]:
            if isinstance(event, EngineEvent):
                audience = getattr(event.event, "audience", None)
                if audience is not None:
                    private += 1
                    assert seating[event.hand_no][audience] == place
    assert private > 0


def test_verify_accepts_real_engine_transcripts(american: Harness, mcr: Harness) -> None:
    for h in (american, mcr):
        verdict = check_transcript(export_transcript(h.sessions[3]))
        assert verdict.ok, [p.describe() for p in verdict.problems]


@pytest.mark.slow
def test_mcr_hand_is_the_same_whatever_the_delivery_order() -> None:
    fifo = play_match("mcr", b"order", options=ONE)
    shuffled = run(open_harness("mcr", b"order", options=ONE), random.Random(7), duplicates=10)
    _agreed(shuffled, 1)
    assert shuffled.sessions[0].step_hash == fifo.sessions[0].step_hash


def test_american_seat_restarted_mid_hand_completes_the_hand() -> None:
    h = open_harness("american", b"restart", options=ONE)
    while len(h.sessions[1].timeline) < 40:
        if not any(bot_moves(h, p) for p in SEATS):
            deliver_one(h)
    assert h.sessions[1].phase is Phase.PLAY
    restart(h, Seat.SOUTH)
    run(h)
    _agreed(h, 1)
