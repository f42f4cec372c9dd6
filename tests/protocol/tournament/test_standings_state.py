"""The standings' label (protocol/tournament/standings_state.py, issue 38 defect 7): before
round 1, provisional while the round's tables play ("round 3, 3 of 4 tables in"), after a
round between rounds, final once the last round's last table counts; read from the record
alone, so every daemon labels it alike."""

from __future__ import annotations

import pytest

from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.records import RoundStart, TableResult
from fourwinds.protocol.tournament.standings_state import standings_state
from testkit.tournament_event import EventMaker, synthetic_event


@pytest.fixture(scope="module")
def event() -> EventMaker:
    return synthetic_event(16, 3)


def _label(event: EventMaker, upto: int) -> str:
    return standings_state(check_event(event.records[:upto])).label()


@pytest.mark.slow
def test_the_standings_are_provisional_until_the_rounds_last_table_counts(
    event: EventMaker,
) -> None:
    records = event.records
    starts = [i for i, r in enumerate(records) if isinstance(r.body, RoundStart)]
    results = [i for i, r in enumerate(records) if isinstance(r.body, TableResult)]
    assert len(starts) == 3 and len(results) == 12
    assert _label(event, starts[0]) == "before round 1"
    assert _label(event, starts[0] + 1) == "provisional: round 1, 0 of 4 tables in"
    assert _label(event, results[0] + 1) == "provisional: round 1, 1 of 4 tables in"
    assert _label(event, starts[1]) == "after round 1 of 3"
    assert _label(event, results[-1]) == "provisional: round 3, 3 of 4 tables in"
    final = standings_state(check_event(records))
    assert final.final and not final.provisional and final.label() == "final"
