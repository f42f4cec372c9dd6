"""The accumulator of one session call and its two helpers: the leaf the table's steps share.

``Acc`` collects what one call produces (our outgoing messages, records to persist, events,
problems); ``report`` records a problem, ``halt`` stops the table. They need nothing of the
message flow, the lobby or the step machine, so every one of those modules can use them
without importing another.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .envelope import Envelope
from .problems import Problem
from .records import problem_record
from .state import Phase, TableHalted, TableSession
from .values import evolve

__all__ = ["Acc", "halt", "report"]


@dataclass
class Acc:
    """Mutable collector for one call; turned into a ``Step`` at the end."""

    now: float
    auto: bool = True
    answers: bool = True  # our automatic inputs (dice, auto-pass...); False: left to the caller
    sent: list[Envelope] = field(default_factory=list)  # our messages, in chain order
    persist: list[bytes] = field(default_factory=list)
    events: list[object] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def report(s: TableSession, acc: Acc, problem: Problem) -> TableSession:
    """Record ``problem`` (in the step's problems and records, and the session's), within
    the bounds of ``ProblemTally.admit``; one over them is only counted."""
    hand = s.hand.hand_no if s.hand is not None else -1
    tally, keep = s.problem_tally.admit(hand, problem)
    if not keep:
        return evolve(s, problem_tally=tally)
    acc.problems.append(problem)
    acc.persist.append(problem_record(problem))
    return evolve(s, problems=(*s.problems, problem), problem_tally=tally)


def halt(s: TableSession, acc: Acc, problem: Problem) -> TableSession:
    """Stop the table for ``problem`` (a ``TableHalted`` event); a halted table stays as it
    was halted first."""
    if s.halted is not None:
        return s
    acc.events.append(TableHalted(problem))
    return evolve(s, halted=problem, phase=Phase.HALTED)
