"""Problem records are bounded per kind, seat and hand (issue 15, finding 4): a seated member
sending 20,000 garbage table messages once left 20,000 records on disk and in every view."""

from __future__ import annotations

from fourwinds.daemon.table_runtimes.real_session import seat_view
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.harness import seat_key
from fourwinds.protocol.table.machine.problems import (
    PROBLEMS_KEPT,
    PROBLEMS_PER_HAND,
    PROBLEMS_SHOWN,
    Problem,
    ProblemKind,
    ProblemTally,
)
from fourwinds.protocol.table.machine.session import handle_message
from fourwinds.protocol.table.machine.transcript import resume

from .helpers import toy_harness

GARBAGE = 2_000


def test_a_flood_of_garbage_leaves_a_bounded_number_of_records_and_view_lines() -> None:
    h = toy_harness(b"flood")
    s = h.sessions[1]
    records = list(h.records[1])
    persisted = 0
    logged = 0
    for n in range(GARBAGE):
        step = handle_message(s, b"\xc1" + n.to_bytes(4, "big"), 1.0)
        s = step.session
        persisted += len(step.persist)
        logged += len(step.problems)
        records.extend(step.persist)
    assert persisted == logged == PROBLEMS_KEPT  # the first few, then only counted
    assert len(s.problems) == PROBLEMS_KEPT
    assert s.problem_tally.dropped == GARBAGE - PROBLEMS_KEPT
    shown = seat_view(s)["problems"]
    assert len(shown) <= PROBLEMS_SHOWN + 1
    assert shown[0].startswith(f"{GARBAGE - PROBLEMS_KEPT:,} more problems")
    # a restart counts the recorded ones again: the flood goes on without new records
    again = resume(records, seat_key(h.seed, Seat(1)))
    assert len(again.problems) == PROBLEMS_KEPT
    assert handle_message(again, b"\xc1more", 2.0).persist == ()


def test_the_bound_is_per_kind_seat_and_hand_and_never_hides_equivocation() -> None:
    tally = ProblemTally()
    kept = 0
    for seat in (None, Seat(0), Seat(1)):
        for _ in range(PROBLEMS_KEPT + 3):
            tally, keep = tally.admit(0, Problem(ProblemKind.OUT_OF_TURN, seat, "x"))
            kept += keep
    assert kept == 3 * PROBLEMS_KEPT and tally.dropped == 9
    tally, keep = tally.admit(1, Problem(ProblemKind.OUT_OF_TURN, Seat(0), "x"))
    assert keep and tally.kept == 1  # a new hand starts again
    kinds = [k for k in ProblemKind if k is not ProblemKind.EQUIVOCATION]
    for n in range(PROBLEMS_PER_HAND * 2):
        tally, _ = tally.admit(2, Problem(kinds[n % len(kinds)], Seat(n % 4), "x"))
    assert tally.kept == PROBLEMS_PER_HAND
    tally, keep = tally.admit(2, Problem(ProblemKind.EQUIVOCATION, Seat(3), "fork"))
    assert keep
