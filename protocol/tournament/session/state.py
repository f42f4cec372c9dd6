"""One event as one daemon holds it, frozen: the record, the checker after it, and what only
this daemon knows (its key, a private event's code, the round its director called, the
results whose signatures it gathers, when it last sent its seed step).

A move (moves.py) never changes a state: it returns the next one with the Steps to perform.
The daemon keeps the latest state an event; a restarted daemon opens it again from the
stored records (``opened``) and from the little it wrote beside them (the code).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from fourwinds.protocol.table.wire.signing import SigningKey

from ..check import EventChecker, Verdict
from ..intake import Intake, take_next
from ..record_wire import encode_record
from ..records import Create, Record, TableResult
from ..signing import event_id

TableKey = tuple[int, int]  # (round, table), both from 0


class StateError(ValueError):
    """Stored records that do not open as an event (the first is no signed creation)."""


@dataclass(frozen=True)
class Me:
    """Who this daemon is: its public key, the key it signs with, and the secret its round
    seeds' nonces are derived from (the same after a restart: a nonce drawn again would not
    open the commitment made before)."""

    key: bytes
    signer: SigningKey
    secret: bytes


@dataclass(frozen=True)
class Held:
    """The records held in order, their encoded forms, and the checker after them: a record
    is taken only when the checker finds no problem with it where it would stand."""

    records: tuple[Record, ...]
    wires: frozenset[bytes]
    checker: EventChecker

    @cached_property
    def verdict(self) -> Verdict:
        """The checker's reading of the records held (read once, when first asked: a frame
        of relayed records is read after its last record, not after each)."""
        return self.checker.verdict()

    @classmethod
    def of(cls, records: Iterable[Record]) -> Held:
        """The records as held, checked one by one (the first is the creation)."""
        records = tuple(records)
        checker = EventChecker(records[0] if records else None)
        for record in records[1:]:
            checker, _ = checker.trial(record)
        held = cls(records, frozenset(encode_record(r) for r in records), checker)
        if held.verdict.create is None:
            problems = held.verdict.problems
            raise StateError(problems[0].line() if problems else "no records")
        return held

    def offer(self, record: Record) -> tuple[Intake, Held]:
        """The decision on ``record`` after these, and the records held after it."""
        intake, checker = take_next(self.checker, self.wires, record)
        if checker is self.checker:
            return intake, self
        return intake, Held((*self.records, record), self.wires | {encode_record(record)}, checker)

    def __len__(self) -> int:
        return len(self.records)


@dataclass(frozen=True)
class Proposal:
    """One result proposed for a table and its signatures so far (one a seat, E S W N)."""

    body: TableResult
    signatures: tuple[bytes | None, ...]


@dataclass(frozen=True)
class SeedTiming:
    """When a seed made ahead sends what the record already allows (seeding.py): the
    contributors as last seen and since when, when this daemon first held the last round's
    start, and whether a step owed is held back for a later tick."""

    contributors: tuple[tuple[int, ...], float] = ((), 0.0)
    started_seen: tuple[int, float] = (0, 0.0)
    held_back: bool = False


@dataclass(frozen=True)
class EventState:
    """One event at one daemon."""

    event: bytes
    me: Me
    held: Held
    code: str | None = None  # a private event's code, where we direct it
    called: int | None = None  # the round the director called (its seed is being made)
    submitted: bytes = b""  # our last seed step sent to the director (encoded)
    submitted_at: float = 0.0  # when it was last sent (the daemon's monotonic clock)
    start_problem: str = ""  # why the director could not sign the round start
    # the director: the results being signed, (round, table) -> signed bytes -> proposal
    signing: Mapping[TableKey, Mapping[bytes, Proposal]] = field(default_factory=dict)
    timing: SeedTiming = SeedTiming()
    table_opening: bool = False  # our table of the round is being opened (the last tick)
    # the director: when it began waiting for the called round's reveals (lapses.py)
    called_at: float | None = None

    @property
    def verdict(self) -> Verdict:
        """The checker's reading of the records held."""
        return self.held.verdict

    @property
    def create(self) -> Create:
        create = self.held.verdict.create
        assert create is not None  # Held.of refuses records without a creation
        return create

    @property
    def director(self) -> bytes:
        """Who directs the event now: its creator, or the key a majority of the entrants
        named since (records.NewDirector)."""
        return self.verdict.director or self.create.director

    @property
    def directs(self) -> bool:
        return self.director == self.me.key

    @property
    def entrants(self) -> tuple[bytes, ...]:
        return self.verdict.entrants

    @property
    def rounds_started(self) -> int:
        return len(self.verdict.rounds)

    @property
    def entries_open(self) -> bool:
        """Entries are taken until the last round has started (a late entrant plays from
        the next round)."""
        return self.rounds_started < self.create.rounds

    def member(self, key: bytes) -> bool:
        """``key`` is the director or an entrant."""
        return key == self.director or key in self.entrants


def opened(records: Iterable[Record], me: Me, code: str | None = None) -> EventState:
    """An event's state from its records (``StateError`` when they hold no creation)."""
    held = Held.of(records)
    create = held.verdict.create
    assert create is not None
    return EventState(event_id(create), me, held, code)


def with_held(state: EventState, held: Held) -> EventState:
    """``state`` holding ``held`` (the called round dropped once it has started)."""
    called = state.called
    if called is not None and len(held.verdict.rounds) > called:
        called = None
    return replace(state, held=held, called=called)
