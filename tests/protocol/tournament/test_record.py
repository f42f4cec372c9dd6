"""The tournament record (issue 23): records round-trip through their wire form, a whole
event made with the real signing code verifies and its standings are the standings module's,
and each bad record the issue names is refused with a problem naming the round and table."""

from __future__ import annotations

import dataclasses
import hashlib
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.tournament import round_seed
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.problems import ProblemKind
from fourwinds.protocol.tournament.record_wire import decode_record, encode_record
from fourwinds.protocol.tournament.records import (
    Admit,
    Correction,
    Create,
    Deck,
    EndTable,
    Entry,
    Extension,
    Length,
    Penalty,
    Record,
    RoundStart,
    SeedCommit,
    SeedEcho,
    SeedReveal,
    TableResult,
    TimeCall,
    Withdraw,
    WithdrawnBy,
)
from fourwinds.protocol.tournament.seating import FillPolicy
from fourwinds.protocol.tournament.signing import signature, signed, table_id
from fourwinds.protocol.tournament.standings import (
    Bye,
    Deduction,
    Scoring,
    standings,
)
from fourwinds.protocol.tournament.standings import TableResult as Scores
from testkit.tournament_event import EventMaker, key, synthetic_event

# -- round trips ------------------------------------------------------------------------------

keys = st.binary(min_size=32, max_size=32)
events = st.binary(min_size=32, max_size=32)
rounds = st.integers(0, 63)
texts = st.text(max_size=40)
scores = st.tuples(*[st.integers(-(10**9), 10**9)] * 4)
seat = st.one_of(st.none(), st.integers(0, 1023))
fractions = st.builds(Fraction, st.integers(-1000, 1000), st.integers(1, 1000))

creates = st.builds(
    Create,
    keys,
    texts,
    st.sampled_from(("mcr", "american")),
    st.integers(1, 64),
    st.sampled_from(Length),
    st.integers(1, 10_000),
    st.sampled_from(FillPolicy),
    st.builds(Scoring, st.just("mcr"), fractions, st.integers(-1000, 1000), st.integers(0, 1000)),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(Deck),
    st.binary(min_size=16, max_size=16),
)
bodies = st.one_of(
    creates.map(
        lambda c: dataclasses.replace(c, scoring=dataclasses.replace(c.scoring, rules=c.rules))
    ),
    st.builds(Entry, events, keys, texts),
    st.builds(Admit, events, keys),
    st.builds(Withdraw, events, keys, st.sampled_from(WithdrawnBy), texts),
    st.builds(SeedCommit, events, rounds, keys, keys),
    st.builds(SeedEcho, events, rounds, keys, keys),
    st.builds(SeedReveal, events, rounds, keys, keys),
    st.builds(
        RoundStart,
        events,
        rounds,
        st.lists(st.tuples(seat, seat, seat, seat), max_size=8).map(tuple),
        st.lists(st.integers(0, 1023), max_size=3).map(tuple),
        keys,
        keys,
    ),
    st.builds(
        TableResult,
        events,
        rounds,
        st.integers(0, 255),
        st.tuples(*[st.one_of(st.none(), keys)] * 4),
        scores,
        st.binary(min_size=16, max_size=16),
    ),
    st.builds(Correction, events, rounds, st.integers(0, 255), scores, texts),
    st.builds(Penalty, events, rounds, keys, fractions, st.integers(-1000, 1000), texts),
    st.builds(TimeCall, events, rounds),
    st.builds(Extension, events, rounds, st.integers(0, 255), st.integers(1, 10_000), texts),
    st.builds(EndTable, events, rounds, st.integers(0, 255), texts),
)


@settings(max_examples=300, deadline=None)
@given(bodies, st.lists(st.one_of(st.none(), st.binary(min_size=64, max_size=64)), max_size=4))
def test_every_record_round_trips_through_its_wire_form(
    body: object, sigs: list[bytes | None]
) -> None:
    record = Record(body, tuple(sigs))  # type: ignore[arg-type]
    assert decode_record(encode_record(record)) == record


@settings(max_examples=50, deadline=None)
@given(bodies)
def test_a_signed_record_checks_against_its_signer_only(body: object) -> None:
    from fourwinds.protocol.tournament.signing import signed_by

    record = signed(body, key("a"))  # type: ignore[arg-type]
    back = decode_record(encode_record(record))
    assert signed_by(back.body, back.signatures[0], key("a").public)
    assert not signed_by(back.body, back.signatures[0], key("b").public)


# -- a whole event ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def event() -> EventMaker:
    return synthetic_event(16, 3)


def test_a_whole_event_verifies_and_its_standings_are_the_standings_modules(
    event: EventMaker,
) -> None:
    verdict = check_event(event.records)
    assert verdict.ok, [p.line() for p in verdict.problems]
    assert len(verdict.entrants) == 16 and len(verdict.rounds) == 3 and verdict.results == 12
    results = []
    for record in event.records:
        body = record.body
        if isinstance(body, TableResult):
            seats = event.rounds_started[body.round].tables[body.table]
            results.append(Scores(body.round, body.table, seats, body.scores))
    assert verdict.standings == standings(results, Scoring("mcr"), players=range(16))
    met = [set(t) for seating in verdict.rounds for t in seating.tables]
    assert all(len(a & b) <= 1 for i, a in enumerate(met) for b in met[i + 1 :]), (
        "16 x 3 from the plan: no pair meets twice"
    )


def test_a_changed_score_is_refused_naming_the_table(event: EventMaker) -> None:
    records = list(event.records)
    at = next(
        i
        for i, r in enumerate(records)
        if isinstance(r.body, TableResult) and r.body.round == 1 and r.body.table == 2
    )
    body = records[at].body
    assert isinstance(body, TableResult)
    changed = (body.scores[0] + 10, *body.scores[1:])
    records[at] = Record(dataclasses.replace(body, scores=changed), records[at].signatures)
    verdict = check_event(records)
    assert not verdict.ok
    (problem,) = verdict.problems[:1]
    assert problem.kind is ProblemKind.BAD_SIGNATURE and (problem.round, problem.table) == (1, 2)
    assert problem.line().startswith("round 2, table 3: ")


def test_a_result_signed_by_three_seats_is_refused(event: EventMaker) -> None:
    records = list(event.records)
    at = next(i for i, r in enumerate(records) if isinstance(r.body, TableResult))
    sigs = records[at].signatures
    records[at] = Record(records[at].body, (*sigs[:3], None))
    problems = check_event(records).problems
    assert problems[0].kind is ProblemKind.UNSIGNED and "N" in problems[0].detail
    records[at] = Record(records[at].body, sigs[:3])
    assert check_event(records).problems[0].kind is ProblemKind.UNSIGNED


def test_a_result_replayed_from_another_event_is_refused(event: EventMaker) -> None:
    other = synthetic_event(16, 3, nonce=b"\x02" * 16)  # same people, another event
    replayed = next(r for r in other.records if isinstance(r.body, TableResult))
    assert isinstance(replayed.body, TableResult)
    records = [
        r
        for r in event.records
        if not (
            isinstance(r.body, TableResult)
            and r.body.round == 2
            and r.body.table == replayed.body.table
        )
    ]
    records.append(replayed)
    problems = check_event(records).problems
    assert problems[0].kind is ProblemKind.OTHER_EVENT
    # and with the event id changed to this one, the seats' signatures no longer hold
    moved = Record(dataclasses.replace(replayed.body, event=event.event), replayed.signatures)
    assert check_event([*records[:-1], moved]).problems[0].kind in (
        ProblemKind.BAD_SIGNATURE,
        ProblemKind.NOT_SEATED,
    )


def test_a_seating_that_differs_from_the_recomputed_one_is_refused() -> None:
    maker = EventMaker(rounds=2)
    for i in range(16):
        maker.enter(f"player {i}")
    maker.play_round()
    maker.seeds.append(maker.make_seed(1))
    from fourwinds.protocol.tournament.round_seating import expected_seating

    right = expected_seating(range(16), 1, 2, maker.rounds_started, maker.seeds, maker.fill)
    doctored = [list(t) for t in right.tables]
    doctored[0][0], doctored[1][0] = doctored[1][0], doctored[0][0]  # two players swapped
    maker.director_signs(
        RoundStart(
            maker.event,
            1,
            tuple((t[0], t[1], t[2], t[3]) for t in doctored),
            (),
            maker.seeds[-1],
            round_seed.results_digest(maker.hashes),
        )
    )
    problems = check_event(maker.records).problems
    assert [p.kind for p in problems] == [ProblemKind.BAD_SEATING]
    assert problems[0].round == 1 and "table 1 seats" in problems[0].detail


def test_a_seed_not_made_by_the_entrants_is_refused(event: EventMaker) -> None:
    records = list(event.records)
    at = next(i for i, r in enumerate(records) if isinstance(r.body, RoundStart))
    body = records[at].body
    assert isinstance(body, RoundStart)
    records[at] = signed(dataclasses.replace(body, seed=bytes(32)), event.director)
    kinds = [p.kind for p in check_event(records).problems]
    assert kinds[0] is ProblemKind.BAD_SEED


def test_an_entry_at_a_private_event_counts_only_when_admitted() -> None:
    maker = EventMaker(private=True, rounds=1)
    for i in range(3):
        maker.enter(f"player {i}", admit=True)
    stranger = key("stranger")
    maker.records.append(signed(Entry(maker.event, stranger.public, "stranger"), stranger))
    verdict = check_event(maker.records)
    assert [p.kind for p in verdict.problems] == [ProblemKind.UNADMITTED]
    assert len(verdict.entrants) == 3
    maker.director_signs(Admit(maker.event, stranger.public))
    verdict = check_event(maker.records)
    assert verdict.ok and len(verdict.entrants) == 4


def test_a_reveal_that_does_not_open_its_commitment_is_refused() -> None:
    maker = EventMaker(rounds=1)
    for i in range(4):
        maker.enter(f"player {i}")
    maker.start_round()
    at = next(i for i, r in enumerate(maker.records) if isinstance(r.body, SeedReveal))
    body = maker.records[at].body
    assert isinstance(body, SeedReveal)
    maker.records[at] = signed(dataclasses.replace(body, nonce=bytes(32)), maker.players[0])
    kinds = [p.kind for p in check_event(maker.records).problems]
    assert kinds[:2] == [ProblemKind.BAD_REVEAL, ProblemKind.SEED_MISSING]


def test_corrections_and_penalties_are_the_directors_and_show_in_the_history(
    event: EventMaker,
) -> None:
    records = list(event.records)
    fix = Correction(event.event, 2, 0, (100, 0, 0, 0), "scores entered in the wrong seats")
    fine = Penalty(event.event, 2, event.players[5].public, Fraction(1), 0, "late to the table")
    records += [signed(fix, event.director), signed(fine, event.director)]
    verdict = check_event(records)
    assert verdict.ok and verdict.adjustments == (fix, fine)
    base = check_event(event.records).standings
    results = []
    for record in event.records:
        body = record.body
        if isinstance(body, TableResult):
            seats = event.rounds_started[body.round].tables[body.table]
            got = fix.scores if (body.round, body.table) == (2, 0) else body.scores
            results.append(Scores(body.round, body.table, seats, got))
    assert verdict.standings == standings(
        results, Scoring("mcr"), players=range(16), deductions=[Deduction(5, Fraction(1), 0)]
    )
    assert verdict.standings != base
    forged = signed(fix, event.players[0])
    assert check_event([*event.records, forged]).problems[0].kind is ProblemKind.BAD_SIGNATURE
    unexplained = signed(dataclasses.replace(fix, reason=" "), event.director)
    assert check_event([*event.records, unexplained]).problems[0].kind is ProblemKind.NO_REASON


def test_a_withdrawal_and_a_late_entrant_are_seated_alone_and_verify() -> None:
    maker = EventMaker(rounds=3)
    for i in range(16):
        maker.enter(f"player {i}")
    maker.play_round()
    maker.withdraw(3)
    maker.enter("late")
    maker.play_round()
    verdict = check_event(maker.records)
    assert verdict.ok, [p.line() for p in verdict.problems]
    assert 3 not in verdict.rounds[1].seated() and 16 in verdict.rounds[1].seated()
    assert len(verdict.rounds[1].bot_seats()) == 0
    assert {row.player for row in verdict.standings} == set(range(17))


@pytest.mark.slow
def test_a_seed_step_from_outside_the_round_and_a_missing_reveal_are_refused() -> None:
    maker = EventMaker(rounds=2)
    for i in range(8):
        maker.enter(f"player {i}")
    maker.play_round()
    maker.withdraw(2)
    maker.play_round()
    gone = maker.players[2]
    intruder = signed(SeedCommit(maker.event, 1, gone.public, bytes(32)), gone)
    at = next(
        i
        for i, r in enumerate(maker.records)
        if isinstance(r.body, SeedCommit) and r.body.round == 1
    )
    records = [*maker.records[: at + 1], intruder, *maker.records[at + 1 :]]
    assert [p.kind for p in check_event(records).problems] == [ProblemKind.NOT_IN_ROUND]
    reveal = next(
        i
        for i, r in enumerate(maker.records)
        if isinstance(r.body, SeedReveal) and r.body.round == 1
    )
    records = maker.records[:reveal] + maker.records[reveal + 1 :]
    problems = check_event(records).problems
    assert problems[0].kind is ProblemKind.SEED_MISSING and problems[0].round == 1
    assert "player 0" in problems[0].detail


def test_byes_and_bots_verify() -> None:
    for fill, count in ((FillPolicy.BYES, 18), (FillPolicy.BOTS, 15)):
        maker = synthetic_event(count, 2, fill=fill)
        verdict = check_event(maker.records)
        assert verdict.ok, [p.line() for p in verdict.problems]
        if fill is FillPolicy.BYES:
            assert all(len(s.byes) == 2 for s in verdict.rounds)
            assert sum(row.byes for row in verdict.standings) == 4
        else:
            assert all(len(s.bot_seats()) == 1 for s in verdict.rounds)


def test_a_bot_seats_result_signed_by_anyone_but_the_director_is_refused() -> None:
    """The director runs the bot seats, so only its key signs for one: a seat of the table,
    or any other entrant, signing in the bot's place is refused, naming the seat."""
    maker = synthetic_event(15, 1, fill=FillPolicy.BOTS)
    at = next(
        i
        for i, r in enumerate(maker.records)
        if isinstance(r.body, TableResult) and None in r.body.players
    )
    result = maker.records[at]
    body = result.body
    assert isinstance(body, TableResult)
    bot = body.players.index(None)
    player = next(k for k in body.players if k is not None)
    signer = next(k for k in maker.players if k.public == player)
    sigs = list(result.signatures)
    sigs[bot] = signature(body, signer)
    records = [*maker.records[:at], Record(body, tuple(sigs)), *maker.records[at + 1 :]]
    (problem, *_) = check_event(records).problems
    assert problem.kind is ProblemKind.BAD_SIGNATURE
    assert (problem.round, problem.table) == (0, body.table)
    assert f"seat(s) {'ESWN'[bot]} did not sign" in problem.line()
    assert check_event(maker.records).ok  # the director's own signature holds


@pytest.mark.slow
def test_seeded_rounds_follow_the_standings() -> None:
    maker = synthetic_event(16, 3, seeded=True)
    verdict = check_event(maker.records)
    assert verdict.ok, [p.line() for p in verdict.problems]


def test_a_wrong_table_id_and_a_result_for_no_table_are_refused(event: EventMaker) -> None:
    result = next(r for r in event.records if isinstance(r.body, TableResult) and r.body.round == 2)
    assert isinstance(result.body, TableResult)
    seats = event.rounds_started[result.body.round].tables[result.body.table]
    keys_ = [event.director if n is None else event.players[n] for n in seats]
    other_id = dataclasses.replace(result.body, table_id=table_id(event.event, 1, 3))
    records = [r for r in event.records if r is not result]
    assert (
        check_event([*records, signed(other_id, *keys_)]).problems[0].kind
        is ProblemKind.BAD_TABLE_ID
    )
    nowhere = dataclasses.replace(result.body, round=2, table=9)
    assert (
        check_event([*event.records, signed(nowhere, *keys_)]).problems[0].kind
        is ProblemKind.UNKNOWN_TABLE
    )


def test_no_creation_record_is_one_problem() -> None:
    assert [p.kind for p in check_event([]).problems] == [ProblemKind.NO_CREATE]
    maker = EventMaker()
    forged = Record(maker.records[0].body, (hashlib.sha512(b"x").digest(),))
    assert [p.kind for p in check_event([forged]).problems] == [ProblemKind.NO_CREATE]


def test_a_bye_is_scored_as_created() -> None:
    assert standings([], Scoring("mcr", Fraction(2), 5), [Bye(0, 1)])[0].points == 2


# -- a damaged file -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_export() -> bytes:
    from fourwinds.protocol.tournament.export import encode_export

    return encode_export(synthetic_event(8, 2).records)


@settings(max_examples=settings().max_examples // 4, deadline=None)  # each a whole check
@given(st.data())
def test_a_damaged_export_is_refused_never_a_crash(
    small_export: bytes, data: st.DataObject
) -> None:
    from fourwinds.protocol.tournament.export import ExportError, check_export

    damaged = bytearray(small_export)
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(damaged) - 1))
        damaged[at] ^= data.draw(st.integers(1, 255))
    if data.draw(st.booleans()):
        del damaged[data.draw(st.integers(1, len(damaged))) :]
    try:
        verdict = check_export(bytes(damaged))
    except ExportError as error:
        assert "\n" not in str(error)
        return
    assert bytes(damaged) == small_export or not verdict.ok
