"""A round's seed made ahead (records.SeedSteps.AHEAD, seed_ahead.py): commitments and echoes
before the director's call, reveals only after it; an entry or a withdrawal before the call
re-opens the commit step; events made before keep their order and still check."""

from __future__ import annotations

from fractions import Fraction

import msgpack
import pytest

from fourwinds.protocol.table.wire.strict import WireError
from fourwinds.protocol.tournament import round_seed
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.next_steps import round_start, seed_step
from fourwinds.protocol.tournament.problems import ProblemKind
from fourwinds.protocol.tournament.record_wire import decode_record, encode_record
from fourwinds.protocol.tournament.records import (
    Create,
    Penalty,
    RoundCall,
    RoundStart,
    SeedCommit,
    SeedEcho,
    SeedReveal,
    SeedSteps,
)
from fourwinds.protocol.tournament.signing import signed
from testkit.tournament_event import EventMaker, synthetic_event


def _ahead(players: int, rounds: int = 2) -> EventMaker:
    maker = EventMaker(rounds=rounds, ahead=True)
    for i in range(players):
        maker.enter(f"player {i}")
    return maker


def _owed(maker: EventMaker) -> int:
    """Every entrant takes each step the record says it owes, until none is owed."""
    steps = 0
    while True:
        verdict = check_event(maker.records)
        due = [
            (p, seed_step(verdict, maker.event, p.public, b"secret of " + p.public, None))
            for p in maker.players
        ]
        due = [(p, step) for p, step in due if step is not None]
        if not due:
            return steps
        for player, step in due:
            assert step is not None
            maker.records.append(signed(step, player))
            steps += 1


def _problems(maker: EventMaker) -> list[ProblemKind]:
    return [p.kind for p in check_event(maker.records).problems]


def _call(maker: EventMaker, round_index: int) -> None:
    maker.director_signs(RoundCall(maker.event, round_index))


def _reveal(maker: EventMaker, number: int, round_index: int) -> None:
    player = maker.players[number]
    maker.records.append(
        signed(
            SeedReveal(
                maker.event, round_index, player.public, maker.nonce_of(player, round_index)
            ),
            player,
        )
    )


def test_a_whole_event_made_ahead_checks_and_its_creation_says_so_on_the_wire() -> None:
    maker = synthetic_event(16, 3, ahead=True)
    verdict = check_event(maker.records)
    assert verdict.ok and len(verdict.rounds) == 3
    kinds = [type(r.body).__name__ for r in maker.records[17 : 17 + 16 * 3 + 2]]
    assert kinds == ["SeedCommit"] * 16 + ["SeedEcho"] * 16 + ["RoundCall"] + [
        "SeedReveal"
    ] * 16 + ["RoundStart"]
    create = decode_record(encode_record(maker.records[0])).body
    assert isinstance(create, Create) and create.seed_steps is SeedSteps.AHEAD
    assert len(msgpack.unpackb(encode_record(maker.records[0]))[1]) == 14


@pytest.mark.slow
def test_events_made_before_keep_their_13_field_creation_and_refuse_a_round_call() -> None:
    maker = synthetic_event(8, 2)  # SeedSteps.AFTER_CALL: the order of before
    assert len(msgpack.unpackb(encode_record(maker.records[0]))[1]) == 13
    old = decode_record(encode_record(maker.records[0])).body
    assert isinstance(old, Create) and old.seed_steps is SeedSteps.AFTER_CALL
    assert check_event(maker.records).ok
    maker.enter("late")
    _call(maker, 2)
    assert _problems(maker) == [ProblemKind.OUT_OF_ORDER]
    wire = msgpack.unpackb(encode_record(maker.records[0]))
    wire[1].append("after_call")  # one encoding a value: never written out
    with pytest.raises(WireError, match="only ever 'ahead'"):
        decode_record(msgpack.packb(wire))


@pytest.mark.slow
def test_commitments_and_echoes_are_owed_before_the_call_and_reveals_only_after_it() -> None:
    maker = _ahead(6)
    assert _owed(maker) == 12  # each commits and echoes, no reveal
    assert check_event(maker.records).ok
    assert round_start(check_event(maker.records), maker.event) is None
    _call(maker, 0)
    assert _owed(maker) == 6  # the reveals
    start = round_start(check_event(maker.records), maker.event)
    assert start is not None
    maker.director_signs(start)
    verdict = check_event(maker.records)
    assert verdict.ok and len(verdict.rounds) == 1
    assert _owed(maker) == 12  # round 2's commitments and echoes, at once


def test_a_reveal_before_the_call_is_refused_with_the_reason() -> None:
    maker = _ahead(4)
    _owed(maker)
    _reveal(maker, 2, 0)
    problems = check_event(maker.records).problems
    assert [p.kind for p in problems] == [ProblemKind.UNCALLED_REVEAL]
    assert "before the director called the round" in problems[0].line()
    maker.records.pop()
    _call(maker, 0)
    _reveal(maker, 2, 0)
    assert check_event(maker.records).ok


@pytest.mark.slow
def test_a_round_start_needs_the_call_and_a_call_needs_every_result_before() -> None:
    maker = _ahead(8)
    _owed(maker)
    seed = round_seed.seed(maker.event, 0, [maker.nonce_of(p, 0) for p in maker.players])
    maker.director_signs(RoundStart(maker.event, 0, (), (), seed, b"\0" * 32))
    assert _problems(maker) == [ProblemKind.OUT_OF_ORDER]
    maker.records.pop()
    _call(maker, 0)
    _owed(maker)  # the reveals
    start = round_start(check_event(maker.records), maker.event)
    assert start is not None
    maker.director_signs(start)
    verdict = check_event(maker.records)
    assert verdict.ok
    maker.rounds_started.append(verdict.rounds[0])
    _owed(maker)  # round 2 made ahead while round 1 plays
    _call(maker, 1)
    problems = check_event(maker.records).problems
    assert [p.kind for p in problems] == [ProblemKind.MISSING_RESULT]
    maker.records.pop()
    for t in range(2):
        maker.result(0, t)
    _call(maker, 1)
    assert check_event(maker.records).ok
    _call(maker, 1)
    assert _problems(maker) == [ProblemKind.DUPLICATE]


def test_after_the_call_the_results_the_seating_uses_are_closed_until_the_start() -> None:
    maker = _ahead(8)
    maker.start_round()
    for t in range(2):
        maker.result(0, t)
    _owed(maker)
    _call(maker, 1)
    maker.director_signs(Penalty(maker.event, 0, maker.players[0].public, Fraction(1), 0, "late"))
    problems = check_event(maker.records).problems
    assert [p.kind for p in problems] == [ProblemKind.OUT_OF_ORDER]
    assert "results it is seated after are closed" in problems[0].detail
    maker.records.pop()
    _owed(maker)
    start = round_start(check_event(maker.records), maker.event)
    assert start is not None
    maker.director_signs(start)
    maker.director_signs(Penalty(maker.event, 0, maker.players[0].public, Fraction(1), 0, "late"))
    assert check_event(maker.records).ok


def test_an_entry_before_the_call_reopens_the_commit_step_and_every_echo_is_due_again() -> None:
    maker = _ahead(4)
    _owed(maker)
    late = maker.enter("late")
    verdict = check_event(maker.records)
    assert verdict.ok and verdict.seeding is not None
    assert verdict.seeding.roster == (0, 1, 2, 3, 4) and verdict.seeding.echoes == ()
    _call(maker, 0)
    _reveal(maker, 0, 0)  # the late commitment is missing
    assert _problems(maker) == [ProblemKind.OUT_OF_ORDER]
    maker.records.pop()
    commit = seed_step(
        check_event(maker.records), maker.event, late.public, b"secret of " + late.public, None
    )
    assert isinstance(commit, SeedCommit)
    maker.records.append(signed(commit, late))
    stale = SeedEcho(
        maker.event,
        0,
        maker.players[0].public,
        round_seed.echo(
            [
                round_seed.commitment(maker.event, 0, p.public, maker.nonce_of(p, 0))
                for p in maker.players[:4]
            ]
        ),
    )
    maker.records.append(signed(stale, maker.players[0]))
    assert _problems(maker) == [ProblemKind.BAD_ECHO]  # the four commitments: stale
    maker.records.pop()
    assert _owed(maker) == 5 + 5  # all five echo again, then reveal
    start = round_start(check_event(maker.records), maker.event)
    assert start is not None and start.seed == round_seed.seed(
        maker.event, 0, [maker.nonce_of(p, 0) for p in maker.players]
    )
    assert late.public in [
        maker.players[n].public for t in start.tables for n in t if n is not None
    ]
    maker.director_signs(start)
    assert check_event(maker.records).ok


def test_an_entry_after_the_call_plays_from_the_next_round_without_adding_to_its_seed() -> None:
    maker = _ahead(4)
    _owed(maker)
    _call(maker, 0)
    late = maker.enter("late")
    commit = SeedCommit(
        maker.event,
        0,
        late.public,
        round_seed.commitment(maker.event, 0, late.public, maker.nonce_of(late, 0)),
    )
    maker.records.append(signed(commit, late))
    problems = check_event(maker.records).problems
    assert [p.kind for p in problems] == [ProblemKind.NOT_IN_ROUND]
    assert "after the round's call" in problems[0].detail
    maker.records.pop()
    assert seed_step(check_event(maker.records), maker.event, late.public, b"x", None) is None
    _owed(maker)
    start = round_start(check_event(maker.records), maker.event)
    assert start is not None
    assert 4 not in [n for t in start.tables for n in t]
    maker.director_signs(start)
    assert check_event(maker.records).ok
    step = seed_step(check_event(maker.records), maker.event, late.public, b"x", None)
    assert isinstance(step, SeedCommit) and step.round == 1  # round 2's seed: it is in


def test_a_withdrawal_before_the_call_leaves_the_seed_and_one_after_it_must_still_reveal() -> None:
    maker = _ahead(5)
    _owed(maker)
    maker.withdraw(4)
    verdict = check_event(maker.records)
    assert verdict.ok and verdict.seeding is not None
    assert verdict.seeding.roster == (0, 1, 2, 3) and verdict.seeding.echoes == ()
    assert seed_step(verdict, maker.event, maker.players[4].public, b"x", None) is None
    _owed(maker)  # the four echo the four commitments
    _call(maker, 0)
    maker.withdraw(3)  # after the call: from the next round
    assert _owed(maker) == 4  # still four reveals, Ann's among them
    start = round_start(check_event(maker.records), maker.event)
    assert start is not None
    assert start.seed == round_seed.seed(
        maker.event, 0, [maker.nonce_of(p, 0) for p in maker.players[:4]]
    )
    assert sorted(n for t in start.tables for n in t if n is not None) == [0, 1, 2, 3]
    maker.director_signs(start)
    assert check_event(maker.records).ok
