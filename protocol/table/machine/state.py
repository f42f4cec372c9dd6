"""The immutable state of one seat's table session, and what each call returns.

A ``TableSession`` is a frozen value: every call (handle_message, local_action, tick) returns
a ``Step`` with a new session. The session of a seat holds the four seats' hash chains, the
inputs collected for the current step, the hand being played (the engine state as this seat
knows it) and every problem detected. ``me`` is None for an observer (``fourwinds verify``),
which signs nothing and knows every face of a practice wall.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.chain import SeatChain
from fourwinds.protocol.table.machine.practice import PracticeWall
from fourwinds.protocol.table.machine.problems import Problem, ProblemTally
from fourwinds.protocol.table.rules.rotation import Seating
from fourwinds.protocol.table.rules.rules_adapter import HandOutcome, RulesAdapter
from fourwinds.protocol.table.wire.envelope import Envelope
from fourwinds.protocol.table.wire.messages import Open
from fourwinds.protocol.table.wire.signing import SigningKey, Verifier
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.values import evolve

__all__ = ["evolve"]


class Phase(Enum):
    """Where the table is. Every phase after LOBBY is a sequence of steps, each waiting for
    one input from a known set of seats."""

    LOBBY = "lobby"  # waiting for joins and the creator's Seating
    READY = "ready"  # every seat says ready
    COMMIT = "commit"  # the hand's dice: commitments
    ECHO = "echo"  # ... echoes of the commitments seen
    REVEAL = "reveal"  # ... nonces
    WALL = "wall"  # masked deck only: the shuffle and lock passes
    PLAY = "play"  # the rules engine's decision points
    HAND_END = "hand-end"  # every seat confirms the outcome (its player says "next")
    OVER = "over"  # the match is finished
    HALTED = "halted"  # stopped by proven misbehaviour (equivocation)


STEP_PHASES = frozenset(
    {Phase.READY, Phase.COMMIT, Phase.ECHO, Phase.REVEAL, Phase.WALL, Phase.PLAY, Phase.HAND_END}
)

PHASE_MOVES: Mapping[Phase, frozenset[Phase]] = {
    Phase.LOBBY: frozenset({Phase.READY}),  # the creator's Seating
    Phase.READY: frozenset({Phase.COMMIT}),  # the first hand's dice
    Phase.COMMIT: frozenset({Phase.ECHO}),
    Phase.ECHO: frozenset({Phase.REVEAL}),
    Phase.REVEAL: frozenset({Phase.WALL, Phase.PLAY, Phase.HAND_END}),  # fair deck: its wall
    Phase.WALL: frozenset({Phase.PLAY, Phase.HAND_END}),
    Phase.PLAY: frozenset({Phase.PLAY, Phase.HAND_END}),
    Phase.HAND_END: frozenset({Phase.COMMIT, Phase.OVER}),  # the next hand's dice, or the end
    Phase.OVER: frozenset(),
    Phase.HALTED: frozenset(),
}
"""The steps each phase may lead to (``steps.start_step`` refuses any other). A hand may end
at its first step (a win on the deal); HALTED is reached from any phase, by proof of
misbehaviour (``acc.halt``), never by a step."""


@dataclass(frozen=True)
class Outgoing:
    """One wire message to send: ``to`` None means every other seat."""

    to: Seat | None
    payload: bytes


@dataclass(frozen=True)
class Hand:
    """The hand in progress (or being set up), as this seat knows it."""

    hand_no: int
    commits: tuple[bytes, ...] = ()
    seed: bytes = b""
    seating: Seating | None = None
    dice: tuple[int, ...] = ()
    wall: PracticeWall | None = None
    engine: Any = None
    outcome: HandOutcome | None = None
    deck: Any = None  # masked deck: this seat's MaskedDeck and its state
    deck_state: Any = None
    passes_seen: int = 0  # wall passes seen (the wall is built after eight)
    wall_ready: bool = False
    audit_started: bool = False
    audited: bool = False
    revealed: tuple[Kind, ...] = ()  # masked deck: every face, from an audit that blamed none
    shown: Mapping[int, Kind] = field(default_factory=dict)  # observer: faces revealed
    observed: tuple[tuple[Seat, Any], ...] = ()  # observer: (place, signed deck message)
    pending_deal: bool = False  # deck work of a resolved step, run in the next step
    pending_ops: tuple[Any, ...] = ()
    # masked deck: positions the rules passed on (Charleston, courtesy) whose transfer notice
    # from their giver our deck has not taken yet, with the wind they end at (masked.py)
    moving: Mapping[int, Seat] = field(default_factory=dict)


@dataclass(frozen=True)
class Input:
    """A seat's accepted input for the current step (``action`` decoded for PLAY)."""

    envelope: Envelope
    action: Any = None
    timeout: bool = False
    applied: Any = None  # the engine's (state, events) for this action alone, from the check
    base: Any = None  # the engine state that check applied it to
    time_up: bool = False  # an Act marked by the time call: the hand stops at once


@dataclass(frozen=True)
class TableSession:
    me: Seat | None
    key: SigningKey | None = field(compare=False, repr=False)
    secret: bytes = field(repr=False)
    table: bytes
    open: Open | None = None
    rules: RulesAdapter | None = field(default=None, compare=False, repr=False)
    version: int = 1
    public_keys: tuple[bytes | None, ...] = (None, None, None, None)
    verifiers: tuple[Verifier | None, ...] = field(
        default=(None, None, None, None), compare=False, repr=False
    )
    chains: tuple[SeatChain, ...] = (
        SeatChain(Seat(0)),
        SeatChain(Seat(1)),
        SeatChain(Seat(2)),
        SeatChain(Seat(3)),
    )
    inbox: tuple[tuple[Envelope, ...], ...] = ((), (), (), ())
    early: tuple[bytes, ...] = ()  # messages of unseated places, until Seating
    joins: tuple[bytes | None, ...] = (None, None, None, None)  # creator: joins received
    seating_hash: bytes = b""
    phase: Phase = Phase.LOBBY
    step: int = 0
    step_hash: bytes = b""
    step_started: float = 0.0
    awaiting: frozenset[Seat] = frozenset()
    inputs: Mapping[Seat, Input] = field(default_factory=dict)
    first_seating: Seating | None = None
    hand: Hand | None = None
    hands_played: int = 0
    outcomes: tuple[tuple[int, HandOutcome, Seating], ...] = ()
    finals: tuple[Any, ...] = ()  # each finished hand's last engine state (views)
    scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    problems: tuple[Problem, ...] = ()  # those recorded (problems.ProblemTally)
    problem_tally: ProblemTally = field(default_factory=ProblemTally)
    halted: Problem | None = None
    stall_reported: int = -1
    thinking: frozenset[Seat] = frozenset()  # places granted more time in this step
    returned: tuple[int, float] = (-1, -1.0)  # our own timer restarted: (step, when); returning.py
    timeline: tuple[tuple[int, Seat, str], ...] = ()
    time_up: bool = field(default=False, compare=False)  # ours: our daemon holds the time call
    stop_now: bool = field(default=False, compare=False)  # ours: ...which stops the hand at once
    time_called: bool = False  # the match ended by a time call (a seat's HandEnd)

    @property
    def match_hands(self) -> int:
        if self.open is None or self.rules is None:
            return 0
        return self.open.options.hands or self.rules.default_hands()

    def lobby_hash(self) -> bytes:
        return hashlib.sha256(b"fourwinds-lobby\0" + self.table).digest()

    @property
    def match_scores(self) -> tuple[int, int, int, int]:
        """Each place's match score, the hand just over included while the table waits
        for "next" (``scores`` counts a hand only once every seat said it). The one source
        of the scores every view, the history and the result screens show."""
        hand = self.hand
        if (
            self.phase is not Phase.HAND_END
            or hand is None
            or hand.outcome is None
            or hand.seating is None
        ):
            return self.scores
        paid = hand_payments_by_place(hand.outcome, hand.seating)
        a, b, c, d = (x + y for x, y in zip(self.scores, paid, strict=True))
        return a, b, c, d


def hand_payments_by_place(outcome: HandOutcome, seating: Seating) -> tuple[int, int, int, int]:
    """A hand's payments (by wind in ``outcome``) by table place."""
    by_place = [0, 0, 0, 0]
    for wind in SEATS:
        by_place[seating[wind]] += outcome.payments[wind]
    return by_place[0], by_place[1], by_place[2], by_place[3]


@dataclass(frozen=True)
class Step:
    """What one call produced: send ``outgoing`` only after ``persist`` is durably written."""

    session: TableSession
    outgoing: tuple[Outgoing, ...] = ()
    persist: tuple[bytes, ...] = ()
    events: tuple[object, ...] = ()
    problems: tuple[object, ...] = ()


# Events for frontends ---------------------------------------------------------------------


@dataclass(frozen=True)
class TableSeated:
    public_keys: tuple[bytes, ...]
    version: int


@dataclass(frozen=True)
class HandBegan:
    hand_no: int
    seating: Seating
    dice: tuple[int, ...]


@dataclass(frozen=True)
class EngineEvent:
    """An engine event this seat may see, with the wind and table place it concerns."""

    hand_no: int
    event: object


@dataclass(frozen=True)
class ActionTaken:
    """A seat's action was applied (for replays and logs): its place, wind and a line."""

    hand_no: int
    step: int
    place: Seat
    wind: Seat
    text: str
    timeout: bool
    action: object = None  # the engine action itself (frontends word it their own way)


@dataclass(frozen=True)
class SeatThinking:
    """A seat was granted more time on the discard step ``step`` waits on (THINKING)."""

    hand_no: int
    step: int
    place: Seat
    wind: Seat


@dataclass(frozen=True)
class HandFinished:
    hand_no: int
    outcome: HandOutcome
    seating: Seating


@dataclass(frozen=True)
class MatchFinished:
    scores: tuple[int, int, int, int]  # by table place


@dataclass(frozen=True)
class TableHalted:
    problem: Problem
