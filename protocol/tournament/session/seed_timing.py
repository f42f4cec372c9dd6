"""When a seed made ahead (records.SeedSteps.AHEAD) sends a step the record already allows,
so that it costs the least where it matters.

The next round's steps wait AHEAD_AFTER_S after this daemon first held a round's start and
until its table of the round is open (the tables are opened and dealt first; a round lasts
minutes). Before the round's call, an echo waits until the contributors held still
ECHO_SETTLE_S: each entry re-opens the commit step, and echoing through a stream of entries
would make every echo again. After the call nothing is held back.
"""

from __future__ import annotations

from dataclasses import replace

from ..records import SeedEcho, SeedSteps
from .state import EventState, SeedTiming

ECHO_SETTLE_S = 1.0
AHEAD_AFTER_S = 8.0


def hold_back(state: EventState, step: object, now: float) -> SeedTiming:
    """The timing after deciding on ``step`` (a seed step owed now) at ``now``; its
    ``held_back`` says whether to send it later."""
    timing = state.timing
    if state.create.seed_steps is not SeedSteps.AHEAD:
        return replace(timing, held_back=False)
    verdict = state.verdict
    progress = verdict.seeding
    if progress is not None and progress.called:
        return replace(timing, held_back=False)
    started = len(verdict.rounds)
    if started and timing.started_seen[0] != started:
        timing = replace(timing, started_seen=(started, now))
    if started and (now - timing.started_seen[1] < AHEAD_AFTER_S or state.table_opening):
        return replace(timing, held_back=True)
    roster = progress.roster if progress is not None else ()
    if timing.contributors[0] != roster:
        timing = replace(timing, contributors=(roster, now))
    settling = isinstance(step, SeedEcho) and now - timing.contributors[1] < ECHO_SETTLE_S
    return replace(timing, held_back=settling)
