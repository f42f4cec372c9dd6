"""The accumulator of one session call and its two helpers: the leaf the table's steps share.

``Acc`` collects what one call produces (our outgoing messages, records to persist, events,
problems); ``report`` records a problem, ``halt`` stops the table. They need nothing of the
message flow, the lobby or the step machine, so every one of those modules can use them
without importing another.

An ``Acc`` also carries the lobby's handlers (``LobbyHandlers``, filled in by ``lobby.LOBBY``):
the message flow hands the lobby's messages (an Open, a Join, the Seating) on to them and the
step machine asks them to seat the table, without importing the lobby, which builds on both.
Whoever starts a call (the session, the lobby's own entry points, the transcript replays)
names them, so the dispatch is written where the call begins instead of in a late import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from fourwinds.protocol.table.machine.problems import Problem
from fourwinds.protocol.table.machine.state import Phase, TableHalted, TableSession
from fourwinds.protocol.table.wire.envelope import Envelope
from fourwinds.protocol.table.wire.records import problem_record
from fourwinds.protocol.values import evolve

__all__ = ["Acc", "LobbyHandlers", "halt", "report"]


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
    lobby: LobbyHandlers = field(kw_only=True)
    """Where the flow and the step machine hand the lobby's work (``lobby.LOBBY``)."""


@dataclass(frozen=True)
class LobbyHandlers:
    """The lobby's part of a call, as the message flow and the step machine reach it."""

    bootstrap_open: Callable[[TableSession, Envelope, Acc], TableSession]
    """A table's Open, before any key of the table is known (flow.receive)."""
    creator_join: Callable[[TableSession, Envelope, bytes, Acc], TableSession]
    """At the creator, a joiner's Join for a free place (flow.receive)."""
    on_seating: Callable[[TableSession, Envelope, Acc], TableSession]
    """The creator's Seating, once accepted into its chain (flow.accept)."""
    creator_seats: Callable[[TableSession, Acc], TableSession]
    """At the creator, sign the Seating once three places are taken (steps.advance)."""


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
