"""Whether a daemon takes one more record into an event it holds, and what to fetch next.

A daemon keeps an event's record as a list in record order and adds to it one record at a
time, from its own player, its director or a peer. It takes a record only when the checker
(check.py) finds no problem with it placed after the records held: a refused record is
never stored, so the held record stays one that ``check_event`` passes with the problems it
already had. A record already held (a relay that crossed another) is neither stored twice
nor reported as refused. Pure: the daemon does the storing, logging and sending.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

from .check import EventChecker, check_event
from .problems import EventProblem, ProblemKind
from .record_wire import encode_record
from .records import MAX_ENTRANTS, MAX_ROUNDS, MAX_TABLES, Record

# The most records an event can hold: each entrant's entry, admission and withdrawal, then
# per round every entrant's commit, echo and reveal, the round start and every table's
# result, with as many director's corrections and penalties again per round, a substitute
# a table, and as many changes of director as there are entrants; a seed made ahead adds the
# round's call and one echo more an entrant (an entry or a withdrawal before the call makes
# the echoes due again; a daemon waits for the roster to settle, check.py and events.py).
MAX_EVENT_RECORDS = 1 + 4 * MAX_ENTRANTS + MAX_ROUNDS * (4 * MAX_ENTRANTS + 2 + 4 * MAX_TABLES)

MAX_PULL = 256  # records asked of one peer at once


class Decision(Enum):
    """What becomes of an offered record."""

    ACCEPT = "accept"  # append it to the held record
    ALREADY_HELD = "already held"  # drop it quietly
    REFUSE = "refuse"  # drop it, log the problem once


@dataclass(frozen=True)
class Intake:
    """The decision for one offered record; ``problem`` says why when it is refused."""

    decision: Decision
    problem: EventProblem | None = None


def take_record(held: Sequence[Record], offered: Record) -> Intake:
    """Decide on ``offered`` placed after ``held`` (the records accepted so far, in order)."""
    wire = encode_record(offered)
    if any(encode_record(record) == wire for record in held):
        return Intake(Decision.ALREADY_HELD)
    at = len(held)
    if at >= MAX_EVENT_RECORDS:
        return Intake(Decision.REFUSE, EventProblem(ProblemKind.FULL, at))
    verdict = check_event([*held, offered])
    new = [problem for problem in verdict.problems if problem.record == at]
    if new:
        return Intake(Decision.REFUSE, new[0])
    return Intake(Decision.ACCEPT)


def take_next(
    checker: EventChecker, held: Collection[bytes], offered: Record
) -> tuple[Intake, EventChecker]:
    """``take_record`` for a daemon that keeps the checker of the records it holds and their
    encoded forms (``held``): the decision, and the checker to keep (the one after
    ``offered`` when it is accepted; else ``checker`` itself). Checks only the new record."""
    wire = encode_record(offered)
    if wire in held:
        return Intake(Decision.ALREADY_HELD), checker
    if checker.count >= MAX_EVENT_RECORDS:
        return Intake(Decision.REFUSE, EventProblem(ProblemKind.FULL, checker.count)), checker
    after, problems = checker.trial(offered)
    if problems:
        return Intake(Decision.REFUSE, problems[0]), checker
    return Intake(Decision.ACCEPT), after


def to_pull(held: int, peer_holds: int, limit: int = MAX_PULL) -> range:
    """The positions to ask a peer for, when it says it holds ``peer_holds`` records and this
    daemon ``held``: the next ones in order, at most ``limit`` (none when it holds no more)."""
    if held < 0 or peer_holds < 0 or limit < 1:
        raise ValueError("counts must be non-negative and the limit positive")
    peer_holds = min(peer_holds, MAX_EVENT_RECORDS)
    return range(held, max(held, min(peer_holds, held + limit)))
