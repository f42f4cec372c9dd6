"""A daemon's intake of records (protocol/tournament/intake.py): a whole event offered one
record at a time is taken in order, a record offered twice is held once, a doctored result
or seating is refused with the checker's reason, and a pull never asks past what the peer
holds nor more than its limit."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.intake import (
    MAX_EVENT_RECORDS,
    Decision,
    take_record,
    to_pull,
)
from fourwinds.protocol.tournament.problems import ProblemKind
from fourwinds.protocol.tournament.records import Record, RoundStart, TableResult
from fourwinds.protocol.tournament.signing import signed
from testkit.tournament_event import synthetic_event


def _take_all(records: list[Record]) -> list[Record]:
    held: list[Record] = []
    for record in records:
        intake = take_record(held, record)
        assert intake.decision is Decision.ACCEPT, intake.problem
        held.append(record)
    return held


@pytest.mark.slow
def test_a_whole_event_is_taken_record_by_record() -> None:
    maker = synthetic_event(players=6, rounds=2)
    held = _take_all(maker.records)
    assert held == maker.records
    assert check_event(held).ok


def test_a_record_offered_again_is_held_once_and_not_refused() -> None:
    maker = synthetic_event(players=5, rounds=1)
    intake = take_record(maker.records, maker.records[3])
    assert intake.decision is Decision.ALREADY_HELD
    assert intake.problem is None


def test_a_result_with_a_changed_score_is_refused() -> None:
    maker = synthetic_event(players=4, rounds=1)
    *before, last = maker.records
    assert isinstance(last.body, TableResult)
    scores = (last.body.scores[0] + 1, *last.body.scores[1:])
    forged = Record(dataclasses.replace(last.body, scores=scores), last.signatures)
    intake = take_record(before, forged)
    assert intake.decision is Decision.REFUSE
    assert intake.problem is not None
    assert intake.problem.kind is ProblemKind.BAD_SIGNATURE
    assert take_record(before, last).decision is Decision.ACCEPT


def test_a_doctored_seating_signed_by_the_director_is_refused() -> None:
    maker = synthetic_event(players=8, rounds=1)
    index = next(i for i, r in enumerate(maker.records) if isinstance(r.body, RoundStart))
    start = maker.records[index].body
    assert isinstance(start, RoundStart)
    tables = list(start.tables)
    (e0, s0, w0, n0), (e1, s1, w1, n1) = tables[0], tables[1]
    tables[0], tables[1] = (e1, s0, w0, n0), (e0, s1, w1, n1)
    doctored = signed(dataclasses.replace(start, tables=tuple(tables)), maker.director)
    intake = take_record(maker.records[:index], doctored)
    assert intake.decision is Decision.REFUSE
    assert intake.problem is not None
    assert intake.problem.kind is ProblemKind.BAD_SEATING
    assert intake.problem.round == 0


def test_the_first_record_must_be_the_creation() -> None:
    maker = synthetic_event(players=4, rounds=1)
    intake = take_record([], maker.records[1])
    assert intake.decision is Decision.REFUSE
    assert intake.problem is not None
    assert intake.problem.kind is ProblemKind.NO_CREATE


@given(
    st.integers(0, MAX_EVENT_RECORDS + 10),
    st.integers(0, MAX_EVENT_RECORDS + 10),
    st.integers(1, 1000),
)
def test_a_pull_asks_for_the_next_records_the_peer_holds_and_no_more(
    held: int, peer: int, limit: int
) -> None:
    wanted = to_pull(held, peer, limit)
    assert len(wanted) <= limit
    assert wanted.step == 1
    if peer > held and held < MAX_EVENT_RECORDS:
        assert wanted.start == held and len(wanted) >= 1
        assert wanted.stop <= min(peer, MAX_EVENT_RECORDS)
    else:
        assert len(wanted) == 0
