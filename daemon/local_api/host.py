"""What the local API's requests (``requests``) may use of the daemon: ``ApiHost``.

The requests are thin calls into the daemon; this Protocol names exactly the members they
reach, so the API part depends on these and nothing else (the wiring, daemon/app.py, hands
the daemon itself, which has them all). Requests it does not know (the tournament's) go to
``other_request``, which the wiring routes.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Protocol

from fourwinds.daemon.local_api.server import Message
from fourwinds.daemon.local_api.views import Views
from fourwinds.daemon.peers.identity import Identity
from fourwinds.daemon.peers.transport import Transport
from fourwinds.daemon.store.disk import Store
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionPort

if TYPE_CHECKING:  # zeroconf is imported only with mDNS on (daemon/peers/mdns.py)
    from fourwinds.daemon.peers.mdns import Discovery


class Refusals(Protocol):
    """The last refusal each peer sent us (peers/frames_in.py): a failed join says it."""

    last_refusal: dict[bytes, str]


class Refused(Protocol):
    """The local API server's count of requests it refused, by reason (api/server.py)."""

    refused: Counter[str]


class PeerProbes(Protocol):
    """What the ``--peer`` daemons' key beacons said (peers/whereabouts.py)."""

    manual_seen: dict[str, Any]
    manual_tables: dict[str, list[dict[str, Any]]]


class ApiSteps(Protocol):
    """The session's Steps carried out at our tables (table_runtimes/steps.py)."""

    def apply(
        self, rt: TableRuntime, step: Any, ours: bool = False, before: Any = None
    ) -> None: ...
    async def act(self, rt: TableRuntime, action: object, now: float) -> None: ...
    def player_returned(self) -> None: ...


class Pinning(Protocol):
    """The keys let in as pinned, and the hosts we are joining (peers/admission.py)."""

    pairing_hosts: set[bytes]

    def pinned_keys(self) -> set[bytes]: ...


class Announces(Protocol):
    """The tables we host, announced over mDNS (peers/announcing.py)."""

    async def announce(self, rt: TableRuntime) -> None: ...
    def withdraw_soon(self, table_id: bytes) -> None: ...


class ApiHost(Protocol):
    """The daemon as the local API's requests see it."""

    identity: Identity
    name: str
    host: str
    port: SessionPort
    store: Store
    transport: Transport
    tables: dict[bytes, TableRuntime]

    @property
    def views(self) -> Views: ...
    @property
    def discovery(self) -> Discovery | None: ...
    @property
    def frames(self) -> Refusals: ...
    @property
    def api(self) -> Refused: ...
    @property
    def whereabouts(self) -> PeerProbes: ...
    @property
    def steps(self) -> ApiSteps: ...
    @property
    def admission(self) -> Pinning: ...
    @property
    def announcing(self) -> Announces: ...

    def find_table(self, ref: object) -> TableRuntime: ...
    def alive(self, key: bytes) -> bool: ...
    def seat_entropy(self, table_id: bytes) -> bytes: ...
    def stop(self) -> None: ...
    async def other_request(self, request: Message) -> Message: ...
