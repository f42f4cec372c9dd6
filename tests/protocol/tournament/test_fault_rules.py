"""The rules of a substitute and of a new director (protocol/tournament/session/faults.py):
who may ask and sign, when a seat's daemon signs, one answer and one vote a signer (its
latest), and the majority that names a new director."""

from __future__ import annotations

import dataclasses

import pytest

from fourwinds.protocol.table.wire.signing import SigningKey
from fourwinds.protocol.tournament.check import Verdict, check_event
from fourwinds.protocol.tournament.records import NewDirector, Record, Substitute
from fourwinds.protocol.tournament.round_tables import seated_keys
from fourwinds.protocol.tournament.session import EventRefused
from fourwinds.protocol.tournament.session.faults import (
    Answers,
    answer_slots,
    majority,
    proposal_refusal,
    request_refusal,
    slot,
    substitute_request,
    vote_refusal,
)
from fourwinds.protocol.tournament.signing import signature
from testkit.tournament_event import EventMaker

REASON = "laptop died"


def _event() -> tuple[EventMaker, Verdict]:
    maker = EventMaker(rounds=2)
    for n in range(8):
        maker.enter(f"p{n}")
    maker.start_round()
    return maker, check_event(maker.records)


def _signer_at(maker: EventMaker, verdict: Verdict, table: int, place: int) -> SigningKey:
    key = seated_keys(verdict, verdict.rounds[-1], table)[place]
    return next(p for p in maker.players if p.public == key)


@pytest.mark.slow
def test_a_substitute_is_asked_for_a_player_seat_of_the_round_with_a_reason() -> None:
    maker, verdict = _event()
    template = substitute_request(verdict, maker.event, 0, 1, None, REASON)
    assert template.seat == 1 and template.hands == 0 and template.substitute is None
    for table, seat, reason, why in ((5, 1, REASON, "tables 1 to 2"), (0, 1, " ", "a reason")):
        with pytest.raises(EventRefused, match=why):
            substitute_request(verdict, maker.event, table, seat, None, reason)
    with pytest.raises(EventRefused, match="no round of club night has started"):
        substitute_request(check_event(maker.records[:9]), maker.event, 0, 1, None, REASON)


def test_a_seat_signs_a_substitute_only_when_it_cannot_reach_the_leaving_player() -> None:
    maker, verdict = _event()
    director = maker.director.public
    template = substitute_request(verdict, maker.event, 0, 1, None, REASON)
    me = _signer_at(maker, verdict, 0, 0).public
    assert request_refusal(verdict, director, director, me, template, reached=False) == ""
    assert "still reaches" in request_refusal(verdict, director, director, me, template, True)
    assert "asked by the director" in request_refusal(verdict, director, me, me, template, False)


def test_the_director_keeps_one_answer_a_seat_its_latest() -> None:
    maker, verdict = _event()
    template = substitute_request(verdict, maker.event, 0, 1, None, REASON)
    east = _signer_at(maker, verdict, 0, 0)
    first = dataclasses.replace(template, hands=1, scores=(10, 0, -5, -5))
    second = dataclasses.replace(template, hands=2, scores=(20, 0, -10, -10))

    def answer(body: Substitute) -> Record:
        sigs: list[bytes | None] = [None] * 4
        sigs[slot(1, 0)] = signature(body, east)
        return Record(body, tuple(sigs))

    given, problem = answer_slots(verdict, template, east.public, b"", answer(first))
    assert problem == "" and given == (slot(1, 0),)
    answers, sigs = Answers().kept(first, b"D" * 64, given, answer(first))
    assert sigs[0] == b"D" * 64 and sigs[slot(1, 0)] is not None
    answers, _ = answers.kept(second, b"D" * 64, given, answer(second))
    assert [body for body, _ in answers.by_wire.values()] == [second]  # the first is gone
    forged = Record(first, (None, signature(first, maker.director), None, None))
    assert answer_slots(verdict, template, east.public, b"", forged)[1].endswith("does not check")


def test_a_new_director_is_named_by_more_than_half_of_the_entrants_not_withdrawn() -> None:
    maker, verdict = _event()
    names = maker.players
    body = NewDirector(maker.event, len(maker.records), names[1].public, "gone")
    assert (
        proposal_refusal(verdict, names[0].public, maker.director.public, names[1].public, "x")
        == ""
    )
    assert "directs the event already" in proposal_refusal(
        verdict, names[0].public, names[1].public, names[1].public, "x"
    )
    sigs: dict[int, bytes] = {}
    for n, player in enumerate(names[:5]):
        record = Record(body, tuple(signature(body, player) if i == n else None for i in range(8)))
        assert vote_refusal(verdict, len(maker.records), player.public, record) == ""
        sigs[n] = signature(body, player)
        assert (majority(verdict, sigs) is None) == (n < 4)  # 5 of 8 is more than half
    stale = dataclasses.replace(body, at=len(maker.records) - 1)
    record = Record(stale, (signature(stale, names[0]),))
    assert "not" in vote_refusal(verdict, len(maker.records), names[0].public, record)
