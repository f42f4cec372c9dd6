"""A new director named by a majority of the entrants (records.py ``NewDirector``): how many
must sign, that the signatures hold at one place of one event only, and that the former
director's records are refused after it while the new one's are taken."""

from __future__ import annotations

from fractions import Fraction

from fourwinds.protocol.table.wire.signing import SigningKey
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.problems import ProblemKind
from fourwinds.protocol.tournament.record_wire import decode_record, encode_record
from fourwinds.protocol.tournament.records import NewDirector, Penalty, Record
from fourwinds.protocol.tournament.round_tables import tables_played
from fourwinds.protocol.tournament.signing import signature
from testkit.tournament_event import EventMaker

REASON = "the director's machine is gone"


def _event(players: int = 8) -> EventMaker:
    maker = EventMaker(rounds=3)
    for i in range(players):
        maker.enter(f"player {i}")
    maker.play_round()
    return maker


def _name(
    maker: EventMaker, new: SigningKey, voters: range | list[int], at: int | None = None
) -> Record:
    body = NewDirector(maker.event, len(maker.records) if at is None else at, new.public, REASON)
    sigs = [
        signature(body, maker.players[n]) if n in voters else None
        for n in range(len(maker.players))
    ]
    record = Record(body, tuple(sigs))
    maker.records.append(record)
    return record


def _kinds(maker: EventMaker) -> list[ProblemKind]:
    return [p.kind for p in check_event(maker.records).problems]


def test_a_majority_names_a_new_director_who_then_starts_the_next_round() -> None:
    maker = _event()
    new = maker.players[2]
    record = _name(maker, new, range(5))  # 5 of 8
    assert decode_record(encode_record(record)) == record
    verdict = check_event(maker.records)
    assert verdict.ok, verdict.problems
    assert verdict.director == new.public and verdict.directors == (record.body,)
    maker.director = new  # the new director signs on
    maker.play_round()
    verdict = check_event(maker.records)
    assert verdict.ok, verdict.problems
    assert len(verdict.rounds) == 2
    # the bot seats are the new director's to play
    plans = tables_played(verdict, maker.event, new.public)
    assert plans and all(plan.director == new.public for plan in plans)


def test_a_director_change_signed_by_only_half_is_refused() -> None:
    maker = _event()
    _name(maker, maker.players[2], range(4))  # 4 of 8: not more than half
    problems = check_event(maker.records).problems
    assert [p.kind for p in problems] == [ProblemKind.NO_MAJORITY]
    assert "4 of 8" in problems[0].detail
    assert check_event(maker.records).director == maker.director.public


def test_withdrawn_entrants_are_not_counted_and_a_forged_signature_refuses_it() -> None:
    maker = _event()
    maker.withdraw(7)
    maker.withdraw(6)
    record = _name(maker, maker.players[2], [0, 1, 2, 7])  # 3 of the 6 left, and one gone
    assert _kinds(maker) == [ProblemKind.NO_MAJORITY]
    maker.records.remove(record)
    _name(maker, maker.players[2], [0, 1, 2, 3])  # 4 of 6
    assert check_event(maker.records).ok
    body = NewDirector(maker.event, len(maker.records), maker.players[3].public, REASON)
    sigs = [signature(body, maker.players[n]) for n in range(6)]
    sigs[4] = signature(body, maker.players[5])  # 4's signature forged
    maker.records.append(Record(body, (*sigs, None, None)))
    assert _kinds(maker) == [ProblemKind.BAD_SIGNATURE]


def test_records_by_the_former_director_after_the_change_are_refused() -> None:
    maker = _event()
    old = maker.director
    _name(maker, maker.players[2], range(6))
    maker.director_signs(Penalty(maker.event, 0, maker.players[1].public, Fraction(1), 0, "late"))
    problems = check_event(maker.records).problems
    assert [p.kind for p in problems] == [ProblemKind.BAD_SIGNATURE]
    assert "former director" in problems[0].detail
    maker.director = maker.players[2]
    maker.director_signs(Penalty(maker.event, 0, maker.players[1].public, Fraction(1), 0, "late"))
    assert _kinds(maker) == [ProblemKind.BAD_SIGNATURE]  # only the first
    assert old.public not in (check_event(maker.records).director,)


def test_a_director_change_replayed_elsewhere_is_refused() -> None:
    maker = _event()
    # signed for another place of the record: refused where it is put
    _name(maker, maker.players[2], range(8), at=len(maker.records) + 3)
    assert _kinds(maker) == [ProblemKind.BAD_PLACE]
    # from another event of the same players: its event id is not this one's
    other = EventMaker(name="last week", rounds=3)
    for i in range(8):
        other.enter(f"player {i}")
    replay = _name(other, other.players[2], range(8), at=len(maker.records))
    maker.records.append(replay)
    assert _kinds(maker) == [ProblemKind.BAD_PLACE, ProblemKind.OTHER_EVENT]
    assert check_event(maker.records).director == maker.director.public
