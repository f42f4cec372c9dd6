"""A whole venue evening as pure event sessions (protocol/tournament/session): a director and
16 entrants, three MCR rounds, a reveal withheld on the way, a forged result, the director's
daemon restarted mid-evening; every daemon ends holding the same record and standings, and
the export verifies. The simulated network and clock are testkit/event_network.py; the time
it takes is measured by `scripts/bench tournament` (pure_evening), not asserted here."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.export import check_export, encode_export
from fourwinds.protocol.tournament.next_steps import table_result
from fourwinds.protocol.tournament.record_wire import encode_record
from fourwinds.protocol.tournament.records import Record, SeedReveal
from fourwinds.protocol.tournament.session import (
    CallRound,
    EventRefused,
    FrameRefused,
    Input,
    RecordsIn,
    SignResult,
    SubmitIn,
    admit_frame,
    apply,
)
from fourwinds.protocol.tournament.session.inputs import Scores
from fourwinds.protocol.tournament.signing import signature
from testkit.event_network import Venue

ENTRANTS = 16
ROUNDS = 3


def scores_for(round_: int, table: int) -> Scores:
    base = 1000 * (round_ + 1) + 100 * table
    return (base, -base // 2, 25 - base // 2, -25)


def play_round(venue: Venue, r: int) -> None:
    """The director calls round ``r``; its seed is revealed and it is seated; every seat
    of every table signs the table's final scores."""
    director = venue.nodes["director"]
    venue.give("director", CallRound())
    venue.deliver()
    venue.tick(1.0)
    assert director.held.rounds_started == r + 1, director.held.verdict.seeding
    sign_results(venue, r)


def sign_results(venue: Venue, r: int) -> None:
    seating = venue.nodes["director"].held.verdict.rounds[r]
    names = {n.me.key: n.name for n in venue.nodes.values()}
    entrants = venue.nodes["director"].held.entrants
    for t, table in enumerate(seating.tables):
        for seat in table:
            assert seat is not None  # 16 entrants: four full tables
            venue.give(names[entrants[seat]], SignResult(t, scores_for(r, t)))
    venue.deliver()
    venue.tick(1.0)


def evening() -> tuple[Venue, dict[str, object]]:
    """The whole evening; what the test checks along the way, by name."""
    seen: dict[str, object] = {}
    venue = Venue()
    director = venue.create("director", ROUNDS)
    for n in range(ENTRANTS):
        venue.enter(f"player{n}", director)
    venue.deliver()
    venue.tick(10.0)  # the round's seed is committed and echoed ahead of the call
    play_round(venue, 0)

    # a forged result: a seat signs a table it does not sit at, and a relay carries a
    # result whose signatures are not its seats'
    seating = director.held.verdict.rounds[0]
    entrants = director.held.entrants
    liar = venue.by_key(entrants[seating.tables[0][0]])  # type: ignore[index]
    stranger_table = 1
    before = len(liar.refusals)
    body = replace(
        table_result(director.held.verdict, director.held.event, stranger_table, (0, 0, 0, 0)),
        scores=(9000, -3000, -3000, -3000),
    )
    sigs = (signature(body, liar.me.signer), None, None, None)
    venue.send(liar.name, "director", SubmitIn(liar.me.key, Record(body, sigs)))
    venue.deliver()
    seen["forged refusal"] = liar.refusals[before:]
    forged = Record(body, tuple(signature(body, liar.me.signer) for _ in range(4)))
    venue.send(liar.name, "player5", RecordsIn(liar.me.key, len(director.disk), (forged,)))
    venue.deliver()
    seen["forged held"] = any(
        encode_record(forged) == encode_record(r) for r in venue.nodes["player5"].disk
    )
    seen["forged note"] = [t for t in venue.nodes["player5"].notes if "refused a record" in t]

    # round 2: one reveal is lost on the way; the round waits for that seat, named, and
    # starts once its daemon sends the reveal again
    withheld = venue.nodes["player7"]
    lost: list[int] = []

    def drop(sender: str, to: str, what: object) -> bool:
        if (
            sender == withheld.name
            and isinstance(what, SubmitIn)
            and isinstance(what.record.body, SeedReveal)
            and not lost
        ):
            lost.append(1)
            return True
        return False

    venue.drop = drop
    venue.tick(10.0)
    venue.give("director", CallRound())
    venue.deliver()
    progress = director.held.verdict.seeding
    assert progress is not None
    waiting = [n for n in progress.roster if n not in dict(progress.reveals)]
    seen["waiting for"] = [director.held.verdict.names[n] for n in waiting]
    seen["started while waiting"] = director.held.rounds_started
    venue.tick(4.0)  # the entrant's daemon sends its reveal again
    seen["started after resend"] = director.held.rounds_started
    sign_results(venue, 1)

    # the director's daemon is killed and starts again from its disk
    venue.restart("director")
    director = venue.nodes["director"]
    venue.tick(10.0)
    play_round(venue, 2)
    return venue, seen


def test_a_venue_evening_of_pure_sessions_ends_with_one_record_everywhere() -> None:
    venue, seen = evening()
    director = venue.nodes["director"]
    assert seen["forged refusal"] == ["you do not sit at that table"]
    assert seen["forged held"] is False and len(seen["forged note"]) == 1  # type: ignore[arg-type]
    assert seen["waiting for"] == ["player7"]
    assert seen["started while waiting"] == 1 and seen["started after resend"] == 2
    records = [encode_record(r) for r in director.disk]
    for node in venue.nodes.values():
        assert [encode_record(r) for r in node.disk] == records, node.name
        assert node.held.verdict.standings == director.held.verdict.standings
    verdict = check_event(director.disk)
    assert verdict.ok and len(verdict.rounds) == ROUNDS and len(verdict.scores) == 4 * ROUNDS
    assert check_export(encode_export(director.disk)).standings == verdict.standings


def test_an_evening_runs_the_same_every_time() -> None:
    first, _ = evening()
    second, _ = evening()
    assert [encode_record(r) for r in first.nodes["director"].disk] == [
        encode_record(r) for r in second.nodes["director"].disk
    ]


def test_a_frame_from_one_not_the_director_is_refused_by_the_table_of_senders() -> None:
    venue = Venue()
    director = venue.create("director", 1)
    venue.enter("player0", director)
    venue.deliver()
    player = venue.nodes["player0"]
    with pytest.raises(FrameRefused):
        admit_frame("EventCall", player.me.key, False, director.me.key, player.held.entrants)


def test_a_request_the_session_cannot_do_changes_nothing() -> None:
    venue = Venue()
    director = venue.create("director", 1)
    venue.enter("player0", director)
    venue.deliver()
    player = venue.nodes["player0"]
    state = player.held
    refused: list[Input] = [CallRound(), SignResult(0, (0, 0, 0, 0))]
    for given in refused:
        with pytest.raises(EventRefused):
            apply(state, given, venue.now)
        assert player.held is state
