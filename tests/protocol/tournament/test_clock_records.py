"""The round clock's records (records.py ``TimeCall``, ``Extension``, ``EndTable``): who may
sign them, when, and what the checked record says of them."""

from __future__ import annotations

from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.problems import ProblemKind
from fourwinds.protocol.tournament.records import EndTable, Extension, Length, TimeCall
from fourwinds.protocol.tournament.signing import signed
from testkit.tournament_event import EventMaker, key


def _timed(rounds: int = 2) -> EventMaker:
    maker = EventMaker(rounds=rounds, length=Length.MINUTES, amount=30)
    for i in range(8):
        maker.enter(f"player {i}")
    return maker


def _problems(maker: EventMaker) -> list[ProblemKind]:
    return [p.kind for p in check_event(maker.records).problems]


def test_a_time_call_extensions_and_a_forced_end_are_held() -> None:
    maker = _timed()
    maker.start_round()
    maker.director_signs(Extension(maker.event, 0, 1, 5, "started late"))
    maker.director_signs(Extension(maker.event, 0, 1, 3, "a dispute"))
    maker.director_signs(TimeCall(maker.event, 0))
    maker.director_signs(EndTable(maker.event, 0, 0, "a player taken ill"))
    verdict = check_event(maker.records)
    assert verdict.ok, verdict.problems
    assert verdict.time_called == {0}
    assert verdict.extensions == (((0, 1), 8),)
    assert verdict.ended == (((0, 0), "a player taken ill"),)
    assert len(verdict.clock_records) == 4


def test_a_time_call_not_from_the_director_is_refused() -> None:
    maker = _timed()
    maker.start_round()
    maker.records.append(signed(TimeCall(maker.event, 0), key("player 3")))
    assert _problems(maker) == [ProblemKind.BAD_SIGNATURE]
    assert not check_event(maker.records).time_called


def test_time_called_twice_is_refused() -> None:
    maker = _timed()
    maker.start_round()
    maker.director_signs(TimeCall(maker.event, 0))
    maker.director_signs(TimeCall(maker.event, 0))
    assert _problems(maker) == [ProblemKind.DUPLICATE]


def test_a_time_call_for_a_round_not_under_way_is_refused() -> None:
    maker = _timed()
    maker.director_signs(TimeCall(maker.event, 0))  # no round started
    maker.start_round()
    maker.director_signs(TimeCall(maker.event, 1))  # the next round, not started
    assert _problems(maker) == [ProblemKind.OUT_OF_ORDER, ProblemKind.OUT_OF_ORDER]


def test_an_extension_of_a_table_that_does_not_exist_is_refused() -> None:
    maker = _timed()
    maker.start_round()  # 8 entrants: tables 0 and 1
    maker.director_signs(Extension(maker.event, 0, 2, 5, "no such table"))
    maker.director_signs(Extension(maker.event, 0, 1, 5, " "))
    assert _problems(maker) == [ProblemKind.UNKNOWN_TABLE, ProblemKind.NO_REASON]
    assert check_event(maker.records).extensions == ()


def test_a_table_ended_twice_or_after_its_result_is_refused() -> None:
    maker = _timed()
    maker.start_round()
    maker.director_signs(EndTable(maker.event, 0, 0, "slow play"))
    maker.director_signs(EndTable(maker.event, 0, 0, "again"))
    maker.result(0, 1)
    maker.director_signs(EndTable(maker.event, 0, 1, "too late"))
    assert _problems(maker) == [ProblemKind.DUPLICATE, ProblemKind.OUT_OF_ORDER]


def test_a_clock_at_an_event_of_a_number_of_hands_is_refused() -> None:
    maker = EventMaker(rounds=1)
    for i in range(4):
        maker.enter(f"player {i}")
    maker.start_round()
    maker.director_signs(TimeCall(maker.event, 0))
    maker.director_signs(Extension(maker.event, 0, 0, 5, "late"))
    maker.director_signs(EndTable(maker.event, 0, 0, "a fire alarm"))  # any event may
    assert _problems(maker) == [ProblemKind.NOT_TIMED, ProblemKind.NOT_TIMED]


def test_verify_prints_the_clock_records_in_the_history() -> None:
    from fourwinds.frontends.cli.commands.tournament import describe_event

    maker = _timed(1)
    maker.start_round()
    maker.director_signs(Extension(maker.event, 0, 1, 5, "started late"))
    maker.director_signs(TimeCall(maker.event, 0))
    maker.director_signs(EndTable(maker.event, 0, 0, "the venue\x1b[2J closes"))
    lines = describe_event(check_event(maker.records))
    assert lines[-3:] == [
        "extension: round 1, table 2 +5 min: started late",
        "time called: round 1",
        "table ended: round 1, table 1: the venue [2J closes",
    ]
