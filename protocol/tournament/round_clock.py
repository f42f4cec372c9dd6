"""The round clock of a timed event (``--minutes``): what is due when, read from the record
and the times a daemon passes in (docs/TOURNAMENT.md, "The round clock").

A daemon counts a round's minutes on its own monotonic clock from when it first held the
round's start, and a table's extension from when it first held the round's time call
(``Reading``; after a restart it carries them over from the wall clock it kept). What those
times mean is decided here, once: when the director signs the time call, when a table's time
is up, whether the call stops the hand in progress, how long is left.
"""

from __future__ import annotations

from dataclasses import dataclass

from .check import Verdict
from .event_rules import tournament_rules
from .records import Create, Length

MINUTE_S = 60.0
"""Seconds in a minute of the round clock (tests make it short)."""


@dataclass(frozen=True)
class Reading:
    """One round's clock as a daemon reads it: when it first held the round's start and its
    time call (its own clock's seconds; None: not called yet)."""

    round: int
    started: float
    called: float | None = None


def time_call_due(create: Create, reading: Reading, now: float) -> bool:
    """Whether the director signs the round's time call now: a timed event whose round's
    minutes have run out and whose time is not called yet."""
    return (
        create.length is Length.MINUTES
        and reading.called is None
        and now - reading.started >= create.amount * MINUTE_S
    )


def table_due(verdict: Verdict, reading: Reading, table: int, now: float) -> bool:
    """Whether ``table``'s time is up as the record holds it: ended by force, or the round's
    time called and the table's extension (if any) run out since."""
    at = (reading.round, table)
    if at in dict(verdict.ended):
        return True
    if reading.called is None:
        return False
    extra = dict(verdict.extensions).get(at, 0)
    return now >= reading.called + extra * MINUTE_S


def stop_now(create: Create) -> bool:
    """Whether the time call stops the hand in progress at once, scoring 0 for everyone: the
    option ``unfinished_zero`` of the event's creation, where its rule set allows it
    (American: ``TournamentRules.unfinished_scores_zero``)."""
    return create.unfinished_zero and tournament_rules(create.rules).unfinished_scores_zero


def seconds_left(create: Create, reading: Reading, now: float) -> float | None:
    """The round's seconds left as this daemon counts them (None: not a timed event, or its
    time called)."""
    if create.length is not Length.MINUTES or reading.called is not None:
        return None
    return max(0.0, create.amount * MINUTE_S - (now - reading.started))


def extension_left(extension: int, reading: Reading, now: float) -> float | None:
    """A table's extra seconds left after the time call (None: no extension, or not called)."""
    if reading.called is None or not extension:
        return None
    return max(0.0, extension * MINUTE_S - (now - reading.called))
