"""The wiring: one player's daemon built from its parts, started and stopped in order.

Each behaviour lives in the part whose job it is (docs/DAEMON.md, "The code"): the peers'
addresses, admission, announcements and frames (daemon/peers/), the local API
(daemon/local_api/), the Steps carried out, the metadata writes, the resumes and the timers
(daemon/table_runtimes/), the disk (daemon/store/) and the tournament (daemon/events/).
``Daemon`` holds only what they all share (our identity, our tables, the peers' names),
builds each part with itself as the narrow Protocol that part names, and hooks them to one
another. No game logic lives here, and the constructor does no I/O: ``start()`` opens
everything, ``close()`` closes it all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from fourwinds.daemon.events import requests as event_requests
from fourwinds.daemon.events.faults import EventFaults
from fourwinds.daemon.events.held import Events
from fourwinds.daemon.events.tables import EventTables
from fourwinds.daemon.local_api.routing import RequestRouter
from fourwinds.daemon.local_api.server import ApiError, ApiServer, Message
from fourwinds.daemon.local_api.views import Views
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.peers import frames_in
from fourwinds.daemon.peers.admission import Admission
from fourwinds.daemon.peers.announcing import Announcing
from fourwinds.daemon.peers.identity import Identity
from fourwinds.daemon.peers.transport import Sender, Transport
from fourwinds.daemon.peers.whereabouts import Whereabouts
from fourwinds.daemon.peers.wire import PROTOCOL_VERSION, Frame
from fourwinds.daemon.store.disk import Store
from fourwinds.daemon.table_runtimes import timers
from fourwinds.daemon.table_runtimes.meta_writes import MetaWrites
from fourwinds.daemon.table_runtimes.rebuilds import Rebuilds
from fourwinds.daemon.table_runtimes.resumes import Resumes
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.seat_secrets import seat_entropy
from fourwinds.daemon.table_runtimes.session_port import SessionModule, SessionPort
from fourwinds.daemon.table_runtimes.steps import TableSteps
from fourwinds.daemon.tasks import cancel_and_wait

if TYPE_CHECKING:  # zeroconf is imported only with mDNS on (daemon/peers/mdns.py)
    from fourwinds.daemon.peers.mdns import Discovery

log = logging.getLogger(__name__)

CLOSE_S = 1.2
"""How long ``close`` waits for the metadata writes and mDNS goodbyes still in flight (the
daemon must be gone within 2 s of a SIGTERM: daemon/main.py)."""


class Daemon:
    """One player's daemon. ``await start()``, then ``await serve_forever()`` or ``close()``."""

    def __init__(
        self,
        identity: Identity,
        paths: Paths,
        port: SessionModule | SessionPort,
        *,
        name: str,
        host: str = "127.0.0.1",
        listen_port: int = 0,
        mdns: bool = True,
        interface_address: str | None = None,
        peers: tuple[tuple[str, int], ...] = (),
        force_tcp_api: bool = False,
    ) -> None:
        self.identity = identity
        self.paths = paths
        self.port = SessionPort.of(port)  # its capabilities looked up once
        self.name = name
        self.host = host
        self.listen_port = listen_port
        self.mdns = mdns
        self.interface_address = interface_address
        self.manual_peers = peers
        self.store = Store(paths.tables)
        self.events = Events(self, paths.data / "events")
        self.event_tables = EventTables(self, api=self)  # a round's tables, opened and scored
        self.event_faults = EventFaults(self)  # substitutes and new directors signed
        self.tables: dict[bytes, TableRuntime] = {}
        self.names: dict[bytes, str] = {}  # peer key -> player name
        self.whereabouts = Whereabouts(self)  # where the other seats are; the --peer probes
        self.admission = Admission(self)  # who may connect, the keys pinned
        self.transport = Transport(identity, self.admission.policy, self._on_frame, name)
        self.transport.open_tables = self.admission.hosted_tables
        self.transport.on_reached = self.whereabouts.reached
        self.transport.still_guest = self.admission.still_guest
        self.transport.on_guest_closed = self.admission.forget_guest
        self.announcing = Announcing(self)  # the tables we host, announced over mDNS
        self.router = RequestRouter(self, self.whereabouts.peer_request, self.announcing)
        self.api = ApiServer(paths, self.router.route, force_tcp=force_tcp_api)
        self.discovery: Discovery | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._stop = asyncio.Event()
        self.frames = frames_in.FrameRouter(self)
        self.views = Views(self)  # what our frontends see (local_api/views.py)
        self.rebuilds = Rebuilds(self)  # lost tables and older copies (table_runtimes/rebuilds.py)
        self.meta_writes = MetaWrites(self.store)  # each table's metadata, written behind
        self.steps = TableSteps(self)  # the session's Steps carried out
        self.resumes = Resumes(self)  # our tables read back at start
        self._background: set[asyncio.Task[None]] = set()  # see in_background

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen, serve the local API, then read our tables back. The API answers from the
        start (``status`` at once; requests about tables once they are resumed); each
        table's records are read and its session resumed in a thread, off the event loop;
        its members are dialled at every address we know for them meanwhile."""
        for table_id in self.store.table_ids():  # before any peer's frame can arrive: a
            self.resumes.register(table_id)  # table not yet known is "lost" to them
        self.events.load()
        await self.transport.start(self.host, self.listen_port)
        self.events.dial_all()
        if self.mdns:
            # late: only a daemon that announces and browses needs zeroconf (daemon/peers/mdns.py)
            from fourwinds.daemon.peers.mdns import Discovery

            self.discovery = Discovery(
                self.identity.public_key, self.name, self.transport.port, self.interface_address
            )
            self.discovery.on_found = self.whereabouts.announced
            await self.discovery.start()
        self.api.info = {
            "listen": self.host,
            "port": self.transport.port,
            "mdns": self.mdns,
            "name": self.name,
        }
        await self.api.start()
        for rt in self.tables.values():
            self.whereabouts.connect_members(rt)
        also = (self.events.tick, self.event_tables.tick, self.event_faults.tick)
        self._tasks.append(asyncio.create_task(timers.ticker(self, also), name="ticker"))
        self._tasks.append(asyncio.create_task(timers.syncer(self), name="sync"))
        self._tasks.append(asyncio.create_task(self.views.publisher(), name="publish"))
        self.whereabouts.probe_all(self.manual_peers)
        log.info(
            "daemon %s (%s) listening on %s:%d, local API %s",
            self.name,
            self.identity.fingerprint,
            self.host,
            self.transport.port,
            self.api.endpoint,
        )
        for rt in list(self.tables.values()):
            await self.resumes.resume(rt)
        self.router.resumed.set()
        for rt in self.tables.values():
            self.announcing.start_announcing(rt)
        self.events.announce_all()

    async def serve_forever(self) -> None:
        await self._stop.wait()

    def stop(self) -> None:
        self._stop.set()

    @property
    def stopping(self) -> asyncio.Event:
        """Set once ``stop`` was called (a signal, or the local API's ``stop``)."""
        return self._stop

    async def close(self) -> None:
        """Stop everything. Metadata writes in flight are waited for (at most CLOSE_S, as
        the mDNS goodbyes are), and so are sends held for a sync of the record log (they
        leave once it is done, as they would have); a record log needs nothing more: each
        append is already on disk or in the page cache, and everything sent was synced
        before it left."""
        await cancel_and_wait([*self._tasks, *self.whereabouts.probes, *self._background])
        await self.api.close()
        await self.meta_writes.finish(CLOSE_S)
        if self.discovery is not None:
            try:
                await asyncio.wait_for(self.discovery.close(), CLOSE_S)
            except TimeoutError:
                log.info("mDNS did not close within %.1f s; going on", CLOSE_S)
        held = [asyncio.ensure_future(rt.drained()) for rt in self.tables.values()]
        if held:
            await asyncio.wait(held, timeout=CLOSE_S)
        await self.transport.close()
        for rt in self.tables.values():
            rt.close_log()
        self.events.close()

    # -- what the parts share --------------------------------------------------------------

    def alive(self, key: bytes) -> bool:
        """Is the seat ``key`` heard from now (peers/admission.py)? Most parts' Protocols
        name it."""
        return self.admission.alive(key)

    def in_background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` (an mDNS registration: seconds; a rebuild's replay, a tournament
        table's join) without waiting for it; it is cancelled when the daemon closes."""
        task = asyncio.create_task(work, name=name)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- routed to the parts ---------------------------------------------------------------

    async def _on_frame(self, sender: Sender, frame: Frame) -> None:
        await self.frames.handle(sender, frame)

    async def other_request(self, request: Message) -> Message:
        """A request the table API does not know: the tournament's (daemon/events/requests.py)."""
        handler = event_requests.HANDLERS.get(request["type"])
        if handler is None:
            raise ApiError(f"unknown request type {request['type']!r}")
        return await handler(self, request)

    def drop_table(self, rt: TableRuntime) -> None:
        """Forget ``rt`` for good and stop announcing it (local_api/opening.py)."""
        from fourwinds.daemon.local_api import opening

        opening.drop_table(self, rt)

    def give_up_joining(self, rt: TableRuntime, reason: str) -> None:
        """A table we were admitted to but cannot play: dropped once (local_api/opening.py)."""
        from fourwinds.daemon.local_api import opening

        opening.give_up_joining(self, rt, reason)

    def find_table(self, ref: object) -> TableRuntime:
        """Our table named by ``ref``: its id, a prefix of it, or its name."""
        if not isinstance(ref, str) or not ref:
            raise ApiError("name the table (its id or name)")
        for rt in self.tables.values():
            if rt.table_hex == ref or rt.table_hex.startswith(ref) or rt.name == ref:
                return rt
        raise ApiError(f"you are not seated at a table {ref!r}")

    def seat_entropy(self, table_id: bytes) -> bytes:
        """The randomness our seat uses at ``table_id``, derived from our identity key and
        the table (daemon/table_runtimes/seat_secrets.py), so a lost record log can be rebuilt."""
        return seat_entropy(self.identity.private_key, table_id)


__all__ = ["PROTOCOL_VERSION", "Daemon"]
