"""A whole venue evening as pure event sessions (protocol/tournament/session): a director and
16 entrants, three MCR rounds, a reveal withheld on the way, a forged result, the director's
daemon restarted mid-evening; every daemon ends holding the same record and standings, and
the export verifies. The simulated network and clock are testkit/event_network.py; the time
it takes is measured by `scripts/bench tournament` (pure_evening), not asserted here."""

from __future__ import annotations

import pytest

from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.export import check_export, encode_export
from fourwinds.protocol.tournament.record_wire import encode_record
from fourwinds.protocol.tournament.session import (
    CallRound,
    EventRefused,
    FrameRefused,
    Input,
    SignResult,
    admit_frame,
    apply,
)
from testkit.event_network import Venue
from testkit.venue_evening import ROUNDS, evening


@pytest.mark.slow
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


@pytest.mark.slow
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
