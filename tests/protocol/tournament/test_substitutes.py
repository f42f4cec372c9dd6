"""A substitute takes a seat of a started table (records.py ``Substitute``): who must sign
it, when it may be taken, whose result the table's hands then count for."""

from __future__ import annotations

import hashlib
from fractions import Fraction

import pytest

from fourwinds.protocol.table.wire.signing import SigningKey
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.next_steps import table_result
from fourwinds.protocol.tournament.problems import ProblemKind
from fourwinds.protocol.tournament.record_wire import decode_record, encode_record
from fourwinds.protocol.tournament.records import Record, Substitute
from fourwinds.protocol.tournament.round_tables import table_for, tables_played
from fourwinds.protocol.tournament.signing import signed, table_id
from testkit.tournament_event import EventMaker

REASON = "her laptop died and will not start"


def _event(rules: str = "mcr", amount: int = 4) -> EventMaker:
    maker = EventMaker(rules=rules, amount=amount, rounds=2)
    for i in range(8):
        maker.enter(f"player {i}")
    maker.start_round()
    return maker


def _keys(maker: EventMaker, table: int) -> list[SigningKey]:
    """The signing keys at ``table`` of the round under way, E S W N."""
    seats = maker.rounds_started[-1].tables[table]
    return [maker.director if n is None else maker.players[n] for n in seats]


def _substitute(
    maker: EventMaker,
    table: int,
    seat: int,
    reserve: SigningKey | None,
    scores: tuple[int, int, int, int] = (30, -10, -10, -10),
    hands: int = 2,
    signers: list[SigningKey] | None = None,
) -> Record:
    keys = _keys(maker, table)
    body = Substitute(
        maker.event,
        len(maker.rounds_started) - 1,
        table,
        seat,
        keys[seat].public,
        None if reserve is None else reserve.public,
        hands,
        scores,
        REASON,
    )
    if signers is None:
        signers = [maker.director, *(k for s, k in enumerate(keys) if s != seat)]
    record = signed(body, *signers)
    maker.records.append(record)
    maker.hashes.append(hashlib.sha256(encode_record(record)).digest())
    return record


def _result_after(
    maker: EventMaker,
    table: int,
    seat: int,
    sub: SigningKey | None,
    scores: tuple[int, int, int, int],
) -> Record:
    """The continued table's result, signed by its four seats now (a bot: the director)."""
    verdict = check_event(maker.records)
    body = table_result(verdict, maker.event, table, scores)
    keys = _keys(maker, table)
    keys[seat] = maker.director if sub is None else sub
    record = signed(body, *keys)
    maker.records.append(record)
    maker.hashes.append(hashlib.sha256(encode_record(record)).digest())
    return record


def _kinds(maker: EventMaker) -> list[ProblemKind]:
    return [p.kind for p in check_event(maker.records).problems]


def test_a_bot_substitute_signed_by_the_director_and_the_three_left_is_held() -> None:
    maker = _event()
    record = _substitute(maker, 0, 1, None)
    assert decode_record(encode_record(record)) == record
    verdict = check_event(maker.records)
    assert verdict.ok, verdict.problems
    assert verdict.substitutes == (record.body,)
    # the table goes on as a new one: the director's key in the seat, the hands left
    leaving = _keys(maker, 0)[1].public
    assert table_for(verdict, maker.event, leaving) is None
    plan = next(
        p for p in tables_played(verdict, maker.event, maker.director.public) if p.table == 0
    )
    assert plan.bot_seat and plan.place == 1 and plan.options["hands"] == 2
    assert plan.table_id == table_id(maker.event, 0, 0, 1) != table_id(maker.event, 0, 0)
    east = table_for(verdict, maker.event, _keys(maker, 0)[0].public)
    assert east is not None and east.table_id == plan.table_id and east.keys[1] is None


def test_a_substitute_without_the_three_seats_signatures_is_refused() -> None:
    maker = _event()
    keys = _keys(maker, 0)
    _substitute(maker, 0, 1, None, signers=[maker.director, keys[0], keys[2]])
    problems = check_event(maker.records).problems
    assert [p.kind for p in problems] == [ProblemKind.UNSIGNED]
    assert "N" in problems[0].detail
    # the director cannot sign in a seat's place, nor the leaving player for the others
    _substitute(maker, 0, 1, None, signers=[maker.director, keys[0], keys[2], maker.director])
    _substitute(maker, 0, 1, None, signers=[maker.director, keys[0], keys[2], keys[1]])
    assert _kinds(maker) == [
        ProblemKind.UNSIGNED,
        ProblemKind.BAD_SIGNATURE,
        ProblemKind.BAD_SIGNATURE,
    ]
    assert check_event(maker.records).substitutes == ()


def test_a_substitute_must_name_the_seated_player_a_reason_and_a_hand_left() -> None:
    maker = _event(amount=4)
    keys = _keys(maker, 0)
    body = Substitute(maker.event, 0, 0, 1, keys[2].public, None, 2, (0, 0, 0, 0), REASON)
    maker.records.append(signed(body, maker.director, keys[0], keys[2], keys[3]))
    _substitute(maker, 0, 1, None, hands=4)
    blank = Substitute(maker.event, 0, 0, 1, keys[1].public, None, 2, (0, 0, 0, 0), " ")
    maker.records.append(signed(blank, maker.director, keys[0], keys[2], keys[3]))
    assert _kinds(maker) == [
        ProblemKind.NOT_SEATED,
        ProblemKind.BAD_SUBSTITUTE,
        ProblemKind.NO_REASON,
    ]


def test_a_reserve_must_be_an_entrant_not_seated_in_the_round() -> None:
    maker = _event()
    seated = maker.players[maker.rounds_started[0].tables[1][0] or 0]
    _substitute(maker, 0, 2, seated)
    late = maker.enter("late arrival")  # enters during round 1: not seated in it
    assert _kinds(maker) == [ProblemKind.BAD_SUBSTITUTE]
    _substitute(maker, 0, 2, late)
    keys = _keys(maker, 0)
    _substitute(
        maker,
        0,
        3,
        None,  # one substitute a table (the seats now sign)
        signers=[maker.director, keys[0], keys[1], late],
    )
    assert _kinds(maker) == [ProblemKind.BAD_SUBSTITUTE, ProblemKind.DUPLICATE]


def test_the_table_result_after_a_bot_substitute_counts_the_hands_before_for_the_player() -> None:
    maker = _event(amount=4)
    keys = _keys(maker, 0)
    numbers = maker.rounds_started[0].tables[0]
    _substitute(maker, 0, 1, None, scores=(30, -10, -10, -10), hands=2)
    # a result signed by the seating's four (the leaving player too) is refused
    body = table_result(check_event(maker.records[:-1]), maker.event, 0, (5, 5, 5, 5))
    maker.records.append(signed(body, *keys))
    _result_after(maker, 0, 1, None, (-20, 60, -20, -20))
    maker.result(0, 1)
    verdict = check_event(maker.records)
    assert [p.kind for p in verdict.problems] == [ProblemKind.NOT_SEATED]
    assert dict(verdict.scores)[(0, 0)] == (10, 50, -30, -30)
    rows = {row.player: row for row in verdict.standings}
    # the seat (50) places first: 4 table points, the player keeps 2 of 4 hands' worth
    assert rows[numbers[1] or 0].points == Fraction(2) and rows[numbers[1] or 0].score == -10
    assert rows[numbers[0] or 0].points == 2 and rows[numbers[0] or 0].score == 10


@pytest.mark.slow
def test_an_american_reserve_counts_the_points_after() -> None:
    maker = _event(rules="american")
    late = maker.enter("reserve")
    numbers = maker.rounds_started[0].tables[0]
    _substitute(maker, 0, 3, late, scores=(25, 0, -10, 15), hands=1)
    _result_after(maker, 0, 3, late, (0, 0, -10, 30))
    maker.result(0, 1)
    verdict = check_event(maker.records)
    assert verdict.ok, verdict.problems
    rows = {row.player: row for row in verdict.standings}
    assert rows[numbers[3] or 0].points == 15  # the hands before
    assert rows[8].points == 30 and rows[8].played == 1  # the reserve: the hands after
    maker.start_round()  # the next round starts after it
    assert check_event(maker.records).ok


def test_a_substitute_from_another_event_is_refused() -> None:
    maker = _event()
    other = EventMaker(name="another night", rounds=2)
    for i in range(8):
        other.enter(f"player {i}")
    other.start_round()
    record = _substitute(other, 0, 1, None)
    maker.records.append(record)
    assert _kinds(maker) == [ProblemKind.OTHER_EVENT]
