"""What routing peers' frames (``frames_in``) may use of the daemon: ``FrameHost``.

A frame from a peer ends in a table runtime, a pairing, a rebuild or the tournament; this
Protocol names exactly the members the router reaches, so it depends on these and not on
the daemon (the wiring, daemon/app.py, hands the daemon itself, which has them all).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Protocol

from fourwinds.daemon.local_api.views import Views
from fourwinds.daemon.peers.identity import Identity
from fourwinds.daemon.peers.reach import Source
from fourwinds.daemon.peers.transport import Sender, Transport
from fourwinds.daemon.peers.wire import EventFrame
from fourwinds.daemon.store.disk import Store
from fourwinds.daemon.table_runtimes.rebuilds import Rebuilds
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionPort


class TournamentFrames(Protocol):
    """The tournament's side of the peer link (daemon/events/held.py)."""

    def handle(self, key: bytes, frame: EventFrame, sender: Sender, guest: bool) -> None: ...
    def refused(self, key: bytes, reason: str) -> None: ...
    def on_hello(self, key: bytes) -> None: ...


class TournamentSeats(Protocol):
    """A tournament table's seating (daemon/events/tables.py), None at other tables."""

    def seats_at(self, table_id: bytes) -> dict[bytes, int] | None: ...


class SeatAddresses(Protocol):
    """Where the other seats are (peers/whereabouts.py): learned, and dialled there."""

    def learn(
        self, key: bytes, host: str, port: int, source: Source, via: str | None = None
    ) -> None: ...
    def dial_member(self, key: bytes) -> None: ...


class SavesMeta(Protocol):
    """Each table's metadata written behind (table_runtimes/meta_writes.py)."""

    def save_soon(self, rt: TableRuntime) -> None: ...
    def save_now(self, rt: TableRuntime) -> Awaitable[None]: ...


class PerformsSteps(Protocol):
    """The session's Steps carried out (table_runtimes/steps.py)."""

    def apply(
        self, rt: TableRuntime, step: Any, ours: bool = False, before: Any = None
    ) -> None: ...
    def receive(self, rt: TableRuntime, payload: bytes, now: float) -> None: ...
    def send_payload(self, rt: TableRuntime, key: bytes, payload: bytes) -> None: ...


class HearsOwnSeq(Protocol):
    """A member's ``Heads`` for our resumed seat's check (table_runtimes/resumes.py)."""

    def own_seq_heard(self, rt: TableRuntime, key: bytes) -> None: ...


class KnownKeys(Protocol):
    """The keys let in, and each pinned CURVE key's seat (peers/admission.py)."""

    curve_to_key: dict[bytes, bytes]

    def key_of(self, sender: Sender) -> bytes | None: ...
    def pinned_keys(self) -> set[bytes]: ...


class Lobby(Protocol):
    """A table we host, announced with its free seats (peers/announcing.py)."""

    def roster_changed(self, rt: TableRuntime) -> None: ...


class FrameHost(Protocol):
    """The daemon as the frame router sees it."""

    identity: Identity
    name: str
    host: str
    port: SessionPort
    store: Store
    transport: Transport
    tables: dict[bytes, TableRuntime]
    names: dict[bytes, str]

    @property
    def rebuilds(self) -> Rebuilds: ...
    @property
    def views(self) -> Views: ...
    @property
    def events(self) -> TournamentFrames: ...
    @property
    def event_tables(self) -> TournamentSeats: ...
    @property
    def whereabouts(self) -> SeatAddresses: ...
    @property
    def admission(self) -> KnownKeys: ...
    @property
    def announcing(self) -> Lobby: ...
    @property
    def meta_writes(self) -> SavesMeta: ...
    @property
    def steps(self) -> PerformsSteps: ...
    @property
    def resumes(self) -> HearsOwnSeq: ...

    def seat_entropy(self, table_id: bytes) -> bytes: ...
    def drop_table(self, rt: TableRuntime) -> None: ...
    def give_up_joining(self, rt: TableRuntime, reason: str) -> None: ...
