"""The round clock's rules (protocol/tournament/round_clock.py): when the director's time
call is due, when a table's time is up (an extension counted from the call, a table ended by
force at once), and whether the call stops the hand in progress."""

from __future__ import annotations

import dataclasses

import pytest

from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.records import EndTable, Extension, Length, TimeCall
from fourwinds.protocol.tournament.round_clock import (
    MINUTE_S,
    Reading,
    extension_left,
    seconds_left,
    stop_now,
    table_due,
    time_call_due,
)
from testkit.tournament_event import EventMaker


def _timed(minutes: int = 90, rules: str = "mcr", unfinished_zero: bool = False) -> EventMaker:
    maker = EventMaker(rules=rules, length=Length.MINUTES, amount=minutes, rounds=2)
    if unfinished_zero:  # only the creation's option is read here, not its record
        maker.create = dataclasses.replace(maker.create, unfinished_zero=True)
    for n in range(8):
        maker.enter(f"p{n}")
    maker.start_round()
    return maker


def test_the_time_call_is_due_once_the_rounds_minutes_have_run_out() -> None:
    create = _timed(90).create
    start = Reading(0, started=100.0)
    assert not time_call_due(create, start, 100.0 + 90 * MINUTE_S - 1)
    assert time_call_due(create, start, 100.0 + 90 * MINUTE_S)
    assert not time_call_due(create, Reading(0, 100.0, called=5000.0), 1e9)  # called already
    assert seconds_left(create, start, 100.0 + 30 * MINUTE_S) == 60 * MINUTE_S


def test_an_event_of_a_number_of_hands_has_no_time_call() -> None:
    create = EventMaker(length=Length.HANDS, amount=4).create
    assert not time_call_due(create, Reading(0, 0.0), 1e9)
    assert seconds_left(create, Reading(0, 0.0), 1e9) is None


def test_a_tables_extension_counts_from_the_time_call_and_an_ended_table_is_due_at_once() -> None:
    maker = _timed()
    maker.director_signs(TimeCall(maker.event, 0))
    maker.director_signs(Extension(maker.event, 0, 1, 5, "started late"))
    maker.director_signs(EndTable(maker.event, 0, 0, "the venue closes"))
    verdict = check_event(maker.records)
    assert verdict.ok, [p.line() for p in verdict.problems]
    reading = Reading(0, started=0.0, called=1000.0)
    assert table_due(verdict, Reading(0, started=0.0), 0, 0.0)  # ended by force: at once
    assert not table_due(verdict, reading, 1, 1000.0 + 5 * MINUTE_S - 1)
    assert table_due(verdict, reading, 1, 1000.0 + 5 * MINUTE_S)
    assert extension_left(5, reading, 1000.0 + MINUTE_S) == 4 * MINUTE_S
    assert not table_due(verdict, Reading(0, started=0.0), 1, 1e9)  # not called yet


@pytest.mark.slow
def test_the_call_stops_the_hand_in_progress_only_where_the_rules_allow_it() -> None:
    assert not stop_now(_timed(rules="mcr", unfinished_zero=True).create)
    assert stop_now(_timed(rules="american", unfinished_zero=True).create)
    assert not stop_now(_timed(rules="american").create)
