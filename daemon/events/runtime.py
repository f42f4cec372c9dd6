"""One event as this daemon holds it: the session's latest state, the log it is stored in,
and what only this daemon's I/O needs (where the director was reached, wrong codes counted,
the round clock as this daemon reads it, records taken and not yet spread).

Everything the seats must agree on, and every tournament rule, is the session's
(protocol/tournament/session); the properties here only read its state."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from fourwinds.daemon.events.store import EventLog
from fourwinds.daemon.peers.pairing import CodeGuesses
from fourwinds.protocol.tournament.check import Verdict
from fourwinds.protocol.tournament.records import Create
from fourwinds.protocol.tournament.round_tables import RoundTable
from fourwinds.protocol.tournament.session import EventState, Held
from fourwinds.protocol.tournament.session.state import Proposal, TableKey

CALL_RETRY_S = 5.0
"""A time call the record refused (a full disk...) is tried again after this."""
RESULT_RESEND_S = 5.0  # our signed result goes to the director again until it is held


@dataclass
class RoundClock:
    """One round's clock as this daemon keeps it (monotonic seconds)."""

    round: int
    started: float  # when we first held the round's start
    called: float | None = None  # when we first held its time call
    tried: float = -CALL_RETRY_S  # the director: when it last tried to sign the call


@dataclass
class EventRuntime:
    """One event at this daemon."""

    state: EventState
    log: EventLog
    director_at: tuple[str, int] | None = None
    guesses: CodeGuesses = field(default_factory=CodeGuesses)  # wrong codes, per key
    clock: RoundClock | None = None  # the round under way's clock (events/clock.py)
    # (round, wall-clock time we first held its start, and its time call): in the
    # metadata, so a restarted daemon goes on counting the round's minutes and a table's
    # extension; meta_due: not written yet
    clock_wall: tuple[int, float, float | None] | None = None
    meta_due: bool = False
    # the first record taken and not yet spread (None: all spread), and whether the seats
    # must be told where their table's others are once it is (held.py, ``Spread``)
    unspread: int | None = None
    tell_seats: bool = False

    @property
    def event(self) -> bytes:
        return self.state.event

    @property
    def held(self) -> Held:
        """The records held, in order."""
        return self.state.held

    @property
    def verdict(self) -> Verdict:
        """The checker's reading of the held record (kept current as records are taken)."""
        return self.state.verdict

    @property
    def create(self) -> Create:
        return self.state.create

    @property
    def name(self) -> str:
        return self.state.create.name

    @property
    def director(self) -> bytes:
        return self.state.director

    @property
    def code(self) -> str | None:
        return self.state.code

    @property
    def called(self) -> int | None:
        return self.state.called

    @property
    def start_problem(self) -> str:
        return self.state.start_problem

    @property
    def signing(self) -> dict[TableKey, list[Proposal]]:
        """The director's: each table's results being signed."""
        return {key: list(found.values()) for key, found in self.state.signing.items()}

    def entrants(self) -> tuple[bytes, ...]:
        return self.state.entrants

    def rounds_started(self) -> int:
        return self.state.rounds_started

    def entries_open(self) -> bool:
        return self.state.entries_open


@dataclass
class TableDuty:
    """What our daemon has done for its table of one event's round under way."""

    plan: RoundTable
    joining: bool = False
    next_join: float = 0.0
    join_problem: str = ""
    result_sent: float = -RESULT_RESEND_S
    ready_sent: bool = False
    had_table: bool = False  # it was ours once: left (`fourwinds leave`), never re-opened
    acting: bool = False  # a bot seat's action is being carried out
    next_move: float = 0.0  # a bot seat's refused action is tried again from then


@dataclass
class Joining:
    """A ``tournament join`` waiting for the director's answers."""

    name: str
    director: bytes
    code: str
    done: asyncio.Future[bytes]  # the event id, once our entry is held
    event: bytes | None = None
