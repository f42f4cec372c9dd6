"""The round clock of a timed tournament (``--minutes``), kept by the daemons, decided by
records (docs/TOURNAMENT.md, "The round clock").

* The director's daemon starts the round's clock when it holds the round's start (its own
  monotonic clock) and, when the round's minutes have run out, signs the round's
  ``TimeCall`` (protocol/tournament/records.py): the record, not anybody's clock, says that
  time was called, and every entrant's daemon checks it like any other record.
* Each seat's daemon (the director's too, for a bot seat it plays), once it holds the time
  call that applies to its table, tells its table that time is up (the session's
  ``call_time``, through the local action ``{"type": "time_up"}``): its seat's next HandEnd
  says so, and the hand that HandEnd confirms is the match's last, at all four seats alike
  (protocol/table/machine/steps.py). A table's ``Extension`` moves its call later by its minutes,
  counted from when this daemon first held the round's time call; an ``EndTable`` calls its
  time at once. The table's result is then signed as for any finished match. At an
  event created with ``unfinished_zero``, of a rule set whose tournaments allow it
  (``TournamentRules.unfinished_scores_zero``: American), the call stops the hand in progress
  at once, scoring 0 for everyone (the session's ``stop_now``).

Nothing here decides: when the time call is due, when a table's time is up and whether the
call stops the hand in progress are protocol/tournament/round_clock.py's, and a seat's
daemon only says what its record holds. A daemon keeps the
wall-clock time it first held the round's start in the event's metadata, so a restarted
director goes on counting the round's minutes from then (a clock set back counts none of
the time between; the time call itself is counted again from the restart).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from fourwinds.daemon.events.host import EventsHost
from fourwinds.daemon.events.runtime import CALL_RETRY_S, EventRuntime, RoundClock, TableDuty
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.protocol.tournament.records import EndTable, Extension, Length, TimeCall
from fourwinds.protocol.tournament.round_clock import (
    Reading,
    extension_left,
    seconds_left,
    stop_now,
    table_due,
    time_call_due,
)

log = logging.getLogger(__name__)


def round_clock(rt: EventRuntime, now: float, wall: float | None = None) -> RoundClock | None:
    """The clock of ``rt``'s round under way (started now when we see it first, or, after a
    restart, as long ago as the wall clock ``wall`` says we first held the round's start);
    its time call likewise, so a table's extension after the call does not start again when
    the daemon does. None before the first round."""
    rounds = rt.verdict.rounds
    if not rounds:
        return None
    r = rounds[-1].round
    wall = time.time() if wall is None else wall
    kept = rt.clock_wall if rt.clock_wall is not None and rt.clock_wall[0] == r else None
    if rt.clock is None or rt.clock.round != r:
        if kept is not None:
            rt.clock = RoundClock(r, now - _since(kept[1], wall))
        else:
            rt.clock = RoundClock(r, now)
            kept = rt.clock_wall = (r, wall, None)
            rt.meta_due = True  # kept for a restart (EventClock's tick)
    if r in rt.verdict.time_called and rt.clock.called is None:
        if kept is not None and kept[2] is not None:
            rt.clock.called = now - _since(kept[2], wall)
        else:
            rt.clock.called = now
            rt.clock_wall = (r, kept[1] if kept is not None else wall, wall)
            rt.meta_due = True
    return rt.clock


def _reading(clock: RoundClock) -> Reading:
    return Reading(clock.round, clock.started, clock.called)


def _since(then: float, wall: float) -> float:
    """Seconds from the wall-clock time ``then`` to ``wall``; none for a clock set back."""
    return max(0.0, wall - then)


class EventClock:
    """The round clocks of every event this daemon holds. No I/O until ``tick``."""

    def __init__(self, d: EventsHost, duties: Mapping[tuple[bytes, int], TableDuty]) -> None:
        self.d = d
        self.duties = duties  # our tables of each round (events/tables.py keeps them)

    def tick(self, now: float) -> None:
        """The director's time calls that are due; our tables told of theirs."""
        self.d.events.each(lambda rt: self._tick_event(rt, now), "its round clock")

    def _tick_event(self, rt: EventRuntime, now: float) -> None:
        clock = round_clock(rt, now)
        if clock is None:
            return
        if rt.meta_due:
            rt.meta_due = False
            self.d.events.save_meta(rt)
        if (
            rt.director == self.d.identity.public_key
            and now - clock.tried >= CALL_RETRY_S
            and time_call_due(rt.create, _reading(clock), now)
        ):
            clock.tried = now
            try:
                self.d.events.director_record(rt, TimeCall(rt.event, clock.round))
                log.info("event %s: time called in round %d", rt.name, clock.round + 1)
            except ApiError as error:
                log.warning("event %s: cannot call time: %s", rt.name, error)
            clock = round_clock(rt, now)
            assert clock is not None
        for (event, table), duty in list(self.duties.items()):
            if event != rt.event or duty.plan.round != clock.round:
                continue
            if table_due(rt.verdict, _reading(clock), table, now):
                self._tell(duty.plan.table_id, now, stop_now(rt.create))

    def _tell(self, table_id: bytes, now: float, stop: bool = False) -> None:
        """Our seat at ``table_id`` is told that time is up (once: the session keeps it)."""
        table = self.d.tables.get(table_id)
        session = None if table is None else table.session
        if session is None or getattr(session, "time_up", True):
            return  # not seated yet, told already, or a session module without a clock
        if getattr(getattr(session, "phase", None), "value", "") == "over":
            return
        assert table is not None
        try:
            self.d.steps.apply(
                table, self.d.port.local_action(session, {"type": "time_up", "stop_now": stop}, now)
            )
            log.info("event table %s: time is up; the hand in progress is the last", table.name)
        except Exception as error:
            log.warning("event table %s: cannot call time: %s", table.name, error)


def clock_view(rt: EventRuntime, me: bytes, now: float) -> dict[str, Any] | None:
    """The round clock for ``tournament status``: the round's minutes, the seconds left as
    this daemon counts them (from when it held the round's start: the director's count is
    the one that calls time), whether time is called, and my table's extension and forced
    end. None at an event of a number of hands without a forced end, or before round 1."""
    clock = round_clock(rt, now)
    if clock is None:
        return None
    create, verdict = rt.create, rt.verdict
    seating = verdict.rounds[-1]
    mine = verdict.entrants.index(me) if me in verdict.entrants else None
    table = next((t for t, seats in enumerate(seating.tables) if mine in seats), -1)
    at = (clock.round, table)
    extension = dict(verdict.extensions).get(at, 0)
    ended = dict(verdict.ended).get(at)
    timed = create.length is Length.MINUTES
    if not timed and ended is None and not verdict.extensions and not verdict.ended:
        return None
    left = seconds_left(create, _reading(clock), now)
    extra_left = extension_left(extension, _reading(clock), now)
    called = clock.round in verdict.time_called
    return {
        "round": clock.round + 1,
        "minutes": create.amount if timed else None,
        "seconds_left": None if left is None else round(left),
        "says": clock_says(
            called, None if left is None else round(left), create.amount if timed else None
        ),
        "time_called": called,
        "my_extension": extension,
        "my_extension_seconds_left": None if extra_left is None else round(extra_left),
        "my_table_ended": ended,
        "unfinished_zero": create.unfinished_zero,
    }


def clock_says(called: bool, seconds_left: int | None, minutes: int | None) -> str:
    """The clock in words, as `tournament status` and the room's page both show it (said
    once, here): the time left as the daemon counts it, or that time is called; "" when
    neither (an event of a number of hands)."""
    if called:
        return "time called: the hand in progress is the last"
    if seconds_left is None:
        return ""
    return (
        f"about {seconds_left // 60}:{seconds_left % 60:02d} left of {minutes} minutes "
        "(the director's clock calls time)"
    )


def clock_record(item: TimeCall | Extension | EndTable) -> dict[str, Any]:
    """A record of the round clock as the status's history shows it."""
    if isinstance(item, TimeCall):
        return {"kind": "time_call", "round": item.round + 1}
    if isinstance(item, Extension):
        return {
            "kind": "extension",
            "round": item.round + 1,
            "table": item.table + 1,
            "minutes": item.minutes,
            "reason": item.reason,
        }
    return {
        "kind": "end_table",
        "round": item.round + 1,
        "table": item.table + 1,
        "reason": item.reason,
    }
