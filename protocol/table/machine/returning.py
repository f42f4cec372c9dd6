"""A player who comes back to the table gets a fresh window for the decision in front of it.

A player who closes the screen (Q) and runs ``fourwinds play`` again, or whose daemon was
killed and started again, finds the table where it is now, perhaps with a discard it could
call and one second left on the window that ran while it was away. So, once per step, a
return restarts our seat's own timer: the window for the decision in front of us counts
again, in full, from the moment of the return.

Why this is our seat's matter alone: every seat answers by default only for itself, when its
own window runs out (``session.tick``), counted on its own clock from when it saw the step
start; the other seats never time us out, they only report a seat that is ``stall_after``
(30 s) past its window. The window's length is therefore no part of the shared state and
nothing the seats must agree on. Once per step bounds what it can cost the others: one more
window at most, and a player who goes and comes back again in the same step gets none.
The others' screens show what they wait for (``waiting.py``) once our old window is over.
"""

from __future__ import annotations

from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.machine.steps import window_seconds
from fourwinds.protocol.values import evolve

__all__ = ["own_window_start", "seat_returned"]


def seat_returned(s: TableSession, now: float) -> TableSession:
    """Our player is back at the table at ``now`` (a frontend subscribed again, or our daemon
    caught up after a restart): when the table waits for our seat's decision under a timer,
    that timer starts again from ``now``, once per step. Unchanged otherwise (nothing timed
    in front of us, a return already counted in this step, an observer)."""
    if s.me is None or s.returned[0] == s.step or s.step_started < 0:
        return s
    if s.phase not in (Phase.PLAY, Phase.HAND_END) or s.halted is not None:
        return s
    if s.me not in s.awaiting or s.me in s.inputs or s.inbox[s.me]:
        return s
    if window_seconds(s, s.me) <= 0:
        return s
    return evolve(s, returned=(s.step, now))


def own_window_start(s: TableSession) -> float:
    """When our seat's own window in the current step started counting: the step's start,
    or our return during it (``seat_returned``), whichever is later."""
    step, at = s.returned
    return max(s.step_started, at) if step == s.step else s.step_started
