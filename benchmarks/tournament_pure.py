"""A whole venue evening as pure event sessions (testkit/venue_evening.py): a director and 16
entrants, three MCR rounds, a reveal lost on the way, a forged result, the director
restarted, over a simulated network and clock. ``pure_evening``: the median wall time of the
whole evening over three runs (target: under a second, issue 37), with the frames carried
and the signatures checked beside it (every daemon checks every record's signatures: the
floor of what the evening costs)."""

from __future__ import annotations

import statistics
import time

from benchmarks.timing import result
from testkit.venue_evening import evening

RUNS = 3
TARGET_S = 1.0


def bench_pure_evening(quick: bool) -> list[dict[str, object]]:
    samples = []
    frames = records = 0
    for _ in range(1 if quick else RUNS):
        start = time.perf_counter()
        venue, _ = evening()
        samples.append(time.perf_counter() - start)
        frames = venue.frames
        records = len(venue.nodes["director"].disk)
    seconds = statistics.median(samples)
    return [
        result(
            "tournament_pure_evening",
            seconds,
            "s",
            target=f"< {TARGET_S:g} s",
            met=seconds < TARGET_S,
            daemons=len(venue.nodes),
            records=records,
            frames=frames,
            runs=len(samples),
        )
    ]
