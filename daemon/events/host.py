"""What the tournament part is given: the daemon's capabilities it uses, and each of its own
pieces as the others see it, as narrow Protocols (never the Daemon; daemon/app.py, the
wiring, passes itself and mypy checks it has all of these).

The pieces reach each other through the host because they call each other both ways (our
table's result is signed by ``held``; a taken round start opens ``tables``' table), and each
sees of the others only the few methods named here.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from fourwinds.daemon.events.runtime import EventRuntime
from fourwinds.daemon.peers.identity import Identity
from fourwinds.daemon.peers.transport import Transport
from fourwinds.daemon.peers.wire import EventPeers
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionPort
from fourwinds.protocol.table.wire.signing import SigningKey
from fourwinds.protocol.tournament.intake import Intake
from fourwinds.protocol.tournament.records import (
    Correction,
    EndTable,
    Extension,
    Penalty,
    Record,
    TableResult,
    TimeCall,
)

if TYPE_CHECKING:  # zeroconf is imported only by a daemon that announces
    from fourwinds.daemon.peers.mdns import Discovery

Scores = tuple[int, int, int, int]


class Addresses(Protocol):
    """Where each peer was last reached (the frame router's)."""

    addresses: dict[bytes, tuple[str, int]]


class HeldEvents(Protocol):
    """daemon/events/held.py's ``Events`` as the part's other pieces use it."""

    events: dict[bytes, EventRuntime]

    def each(self, do_: Callable[[EventRuntime], None], what: str) -> None: ...
    def take(self, rt: EventRuntime, record: Record) -> Intake: ...
    def signer(self) -> SigningKey: ...
    def result(self, rt: EventRuntime, table: int, scores: Scores) -> TableResult: ...
    def bot_result(self, rt: EventRuntime, table: int, scores: Scores) -> TableResult: ...
    def save_meta(self, rt: EventRuntime) -> None: ...
    def director_record(
        self, rt: EventRuntime, body: Correction | Penalty | TimeCall | Extension | EndTable
    ) -> None: ...


class RoundTables(Protocol):
    """daemon/events/tables.py's ``EventTables`` as ``held`` uses it."""

    def tell_peers(self, rt: EventRuntime, around: bytes | None = None) -> None: ...
    def told(self, rt: EventRuntime, frame: EventPeers, via: str) -> None: ...
    def round_started(self, rt: EventRuntime) -> None: ...
    def opening(self, rt: EventRuntime) -> bool: ...


class FaultGathering(Protocol):
    """daemon/events/faults.py's ``EventFaults`` as ``held`` uses it."""

    def submitted(self, rt: EventRuntime, key: bytes, record: Record) -> None: ...


class Dials(Protocol):
    """Keeping a seat dialled at every address we know for it (peers/whereabouts.py)."""

    def dial_member(self, key: bytes) -> None: ...


class EventSteps(Protocol):
    """The session's Steps carried out at our tables (table_runtimes/steps.py)."""

    def apply(
        self, rt: TableRuntime, step: Any, ours: bool = False, before: Any = None
    ) -> None: ...
    async def act(self, rt: TableRuntime, action: object, now: float) -> None: ...


class Withdraws(Protocol):
    """Our mDNS announcements (peers/announcing.py): one withdrawn."""

    def withdraw_soon(self, table_id: bytes) -> None: ...


class MetaSaves(Protocol):
    """A table's metadata written behind (table_runtimes/meta_writes.py)."""

    def save_soon(self, rt: TableRuntime) -> None: ...


class EventsHost(Protocol):
    """The daemon as the tournament part sees it."""

    identity: Identity
    name: str
    port: SessionPort
    transport: Transport
    tables: dict[bytes, TableRuntime]

    @property
    def discovery(self) -> Discovery | None: ...
    @property
    def frames(self) -> Addresses: ...
    @property
    def events(self) -> HeldEvents: ...
    @property
    def event_tables(self) -> RoundTables: ...
    @property
    def event_faults(self) -> FaultGathering: ...
    @property
    def whereabouts(self) -> Dials: ...
    @property
    def steps(self) -> EventSteps: ...
    @property
    def announcing(self) -> Withdraws: ...
    @property
    def meta_writes(self) -> MetaSaves: ...

    def alive(self, key: bytes) -> bool: ...
    def in_background(self, work: Coroutine[Any, Any, None], name: str) -> None: ...
