"""The asyncio shell: sockets and timers in, calls on the pure session, its Steps carried out.

Handlers only route: a peer's ``TableMessage`` becomes ``handle_message``, a frontend's
``act`` becomes ``local_action``, the ticker calls ``tick``; each returned Step is applied by
``TableRuntime.apply`` (persist + fsync, then send). No game logic lives here, and the
constructor does no I/O: ``start()`` opens everything, ``close()`` closes it all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from fourwinds.daemon.api.server import ApiError, ApiServer, Message
from fourwinds.daemon.event_faults import EventFaults
from fourwinds.daemon.event_tables import EventTables
from fourwinds.daemon.events import Events
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.peers import frames_in, reach
from fourwinds.daemon.peers.discovery import Announcement, Discovered
from fourwinds.daemon.peers.identity import Identity, curve_public_from_ed25519, fingerprint
from fourwinds.daemon.peers.reach import Address, Source
from fourwinds.daemon.peers.transport import GUEST, PINNED, Sender, Transport
from fourwinds.daemon.peers.wire import (
    PROTOCOL_VERSION,
    AskHeads,
    CatchUp,
    Frame,
    Rebuild,
    Roster,
    TableMessage,
)
from fourwinds.daemon.store.disk import Store, StoreError
from fourwinds.daemon.tables.catching_up import RECONNECT_MAX_S, RECONNECTING_TEXT, CatchingUp
from fourwinds.daemon.tables.own_seq import CONFIRM_S, OwnSeqCheck
from fourwinds.daemon.tables.rebuild import LOST, MAX_OFFERED, PEER_SHOWN_S, Rebuilding, can_rebuild
from fourwinds.daemon.tables.rebuild import start as start_rebuild
from fourwinds.daemon.tables.recovery import resume_or_set_aside
from fourwinds.daemon.tables.runtime import TableRuntime
from fourwinds.daemon.tables.seat_secrets import seat_entropy
from fourwinds.daemon.tables.session_port import SessionModule, SessionPort, is_seated, progress_of
from fourwinds.daemon.tables.view_changes import shown
from fourwinds.daemon.tasks import cancel_and_wait, in_thread
from fourwinds.protocol.errors import FourwindsError, LocalProtocolError
from fourwinds.protocol.table.rules_label import rules_label

if TYPE_CHECKING:  # zeroconf is imported only with mDNS on (daemon/peers/mdns.py)
    from fourwinds.daemon.peers.mdns import Discovery

log = logging.getLogger(__name__)

TICK_S = 0.05
SYNC_S = 1.0
PUBLISH_S = 0.001
PUBLISH_IDLE_S = 0.1
PEERS_FIRST_S = 0.002
"""After sending our own action, our daemon waits this long before its own bookkeeping (taking
the action into its session, its view, the reply to the frontend). On a machine that hosts
several seats' daemons (a venue laptop with bot seats; the benchmarks' two cores) the peers
then get the CPU to apply the action first; on a machine of its own it costs the table
nothing, since the peers' answers take longer than this to come back (and a message that
does arrive meanwhile is handled at once, settling our step with it). Measured: action latency
p50 5.8 -> 5.4-5.5 ms over about 630 discards a run (docs/DAEMON.md)."""
PROBE_S = 5.0
MAX_RECOVERY_PEERS = 8  # --peer keys at none of our tables, pinned (see recovery_peers)
CLOSE_S = 1.2
"""How long ``close`` waits for the metadata writes and mDNS goodbyes still in flight (the
daemon must be gone within 2 s of a SIGTERM: daemon/main.py)."""
UNREACHABLE_S = 3.0
"""A seat not heard from for this long is named in the view as unreachable (with how long and
its last address); ``offline`` lists it after 2 s already (transport.HEARTBEAT_S x 4)."""
QUICK_REQUESTS = frozenset(
    {"hello", "status", "whoami", "tables", "stop", "peer", "subscribe", "rulesets"}
)
"""Local API requests answered while tables are still being resumed (the others wait)."""


def _let_others_run() -> None:
    """Yield the CPU to any other process waiting for it (``sched_yield``; nothing happens
    when none waits, or where the system lacks it). Called once a peer's message is
    applied: the rest (our automatic reply, the view for our frontend) can wait a moment,
    while on a machine that hosts several daemons (a venue laptop running bot seats, the
    benchmarks' two cores) the other seats' daemons are still waiting to apply the same
    message. Measured: action latency p50 from 6.4-7.4 ms to 5.2-5.9 ms (docs/DAEMON.md)."""
    if _SCHED_YIELD is not None:
        _SCHED_YIELD()


_SCHED_YIELD = getattr(os, "sched_yield", None)


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
        self.event_tables = EventTables(self)  # a round's tables, opened and scored
        self.event_faults = EventFaults(self)  # substitutes and new directors signed
        self.tables: dict[bytes, TableRuntime] = {}
        self.names: dict[bytes, str] = {}  # peer key -> player name
        self.curve_to_key: dict[bytes, bytes] = {}  # CURVE key -> Ed25519 key
        self.pairing_hosts: set[bytes] = set()  # keys we are joining (pinned meanwhile)
        # keys a --peer's beacon answered with that sit at none of our tables: pinned and
        # dialled, so a daemon that lost a table's folder hears of it again (rebuild.py)
        self.recovery_peers: dict[bytes, tuple[str, int]] = {}
        self._lost_asked: dict[bytes, float] = {}  # unknown table -> when we asked
        self.transport = Transport(identity, self._policy, self._on_frame, name)
        self.transport.open_tables = self._hosted_tables
        self.transport.on_reached = self._reached
        self.transport.still_guest = self._still_guest
        self.transport.on_guest_closed = self._forget_guest
        self.api = ApiServer(paths, self._on_request, force_tcp=force_tcp_api)
        self.discovery: Discovery | None = None
        self.manual_seen: dict[str, Any] = {}
        self.manual_tables: dict[str, list[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._stop = asyncio.Event()
        self.frames = frames_in.FrameRouter(self)
        # table -> (session, unreachable places, its view, when built, current names)
        self._views: dict[
            bytes, tuple[Any, tuple[Any, ...], dict[str, Any], float, dict[int, str]]
        ] = {}
        self._dirty: dict[bytes, list[str]] = {}
        self._published_at: dict[bytes, float] = {}  # table -> when its last view went
        self._published_progress: dict[bytes, object] = {}  # table -> where it was then
        self._published_shown: dict[bytes, object] = {}  # table -> what its last view showed
        self._wake = asyncio.Event()
        self._creating_unlisted: set[bytes] | None = None  # tables before an unlisted create
        self._announcing: set[asyncio.Task[None]] = set()
        self._resumed = asyncio.Event()
        self._started_at = time.monotonic()
        self._meta_writes: dict[bytes, asyncio.Task[None]] = {}
        self._meta_due: dict[bytes, dict[str, Any]] = {}

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen, serve the local API, then read our tables back. The API answers from the
        start (``status`` at once; requests about tables once they are resumed); each
        table's records are read and its session resumed in a thread, off the event loop;
        its members are dialled at every address we know for them meanwhile."""
        for table_id in self.store.table_ids():  # before any peer's frame can arrive: a
            self._register(table_id)  # table not yet known is "lost" to them
        self.events.load()
        await self.transport.start(self.host, self.listen_port)
        self.events.dial_all()
        if self.mdns:
            # late: only a daemon that announces and browses needs zeroconf (daemon/peers/mdns.py)
            from fourwinds.daemon.peers.mdns import Discovery

            self.discovery = Discovery(
                self.identity.public_key, self.name, self.transport.port, self.interface_address
            )
            self.discovery.on_found = self._announced
            await self.discovery.start()
        self.api.info = {
            "listen": self.host,
            "port": self.transport.port,
            "mdns": self.mdns,
            "name": self.name,
        }
        await self.api.start()
        for rt in self.tables.values():
            self._connect_members(rt)
        self._tasks.append(asyncio.create_task(self._ticker(), name="ticker"))
        self._tasks.append(asyncio.create_task(self._syncer(), name="sync"))
        self._tasks.append(asyncio.create_task(self._publisher(), name="publish"))
        for host, peer_port in self.manual_peers:
            self._tasks.append(asyncio.create_task(self._probe(host, peer_port)))
        log.info(
            "daemon %s (%s) listening on %s:%d, local API %s",
            self.name,
            self.identity.fingerprint,
            self.host,
            self.transport.port,
            self.api.endpoint,
        )
        for rt in list(self.tables.values()):
            await self._resume(rt)
        self._resumed.set()
        for rt in self.tables.values():
            self._start_announcing(rt)
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
        await cancel_and_wait([*self._tasks, *self._announcing])
        await self.api.close()
        writes = [task for task in self._meta_writes.values() if not task.done()]
        if writes:
            await asyncio.wait(writes, timeout=CLOSE_S)
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

    def _register(self, table_id: bytes) -> None:
        """A stored table, known from its metadata (its members are pinned and dialled at
        once); its records are read back by ``_resume``."""
        try:
            rt = TableRuntime.from_meta(self.store.read_meta(table_id))
        except Exception:  # _resume sets it aside with the reason (daemon/tables/recovery.py)
            rt = TableRuntime(table_id, "?", "?", b"", False, None, {})
        rt.resuming = True
        self.tables[table_id] = rt

    async def _resume(self, rt: TableRuntime) -> None:
        """Resume a stored table in a thread (its records are read and replayed: seconds for
        a long match), off the event loop; one that cannot be is set aside with its reason
        (the ``tables`` request lists it) and never stops the daemon (daemon/tables/recovery.py).
        Then ask the live members for what we missed."""
        table_id = rt.table_id
        try:
            stored = await in_thread(
                lambda: resume_or_set_aside(
                    self.store,
                    self.port,
                    self.identity.private_key,
                    table_id,
                    self.identity.public_key,
                ),
                "fourwinds-resume",
            )
        except Exception:  # a bug must not stop the daemon starting; logged loudly
            log.exception("table %s: resuming failed", table_id.hex()[:8])
            stored = None
        if self.tables.get(table_id) is not rt:  # left meanwhile
            if stored is not None and stored.log is not None:
                stored.log.close()
            return
        rt.resuming = False
        if stored is None:
            del self.tables[table_id]
            return
        rt.log, rt.session, rt.rebuild = stored.log, stored.session, stored.rebuild
        keep = self.port.keep_joins
        if keep is not None and rt.session is not None:
            # the records hold the Join of a player who left the lobby since: its place is
            # free (the roster on disk says who is still at the table)
            rt.session = keep(rt.session, set(rt.members))
        if rt.rebuild is not None:
            rt.problems.append(
                f"rebuilding this table from the other seats' copies: {rt.rebuild.reason}"
            )
            self.ask_rebuild(rt)
            self.publish_view(rt, [])
        if rt.session is not None:
            if rt.place is not None:
                others = {k for k in rt.members if k != self.identity.public_key}
                rt.seq_check = OwnSeqCheck(rt.place, time.monotonic() + CONFIRM_S, others)
                rt.catching_up = CatchingUp(time.monotonic() + RECONNECT_MAX_S)
                self._ask_heads(rt)
            for key in rt.members:
                if key != self.identity.public_key and self.alive(key):
                    self.request_catchup(rt, key)
            self.publish_view(rt, [])

    # -- a resumed seat learns its last number before it signs (daemon/tables/own_seq.py) ---------

    def _ask_heads(self, rt: TableRuntime) -> None:
        if rt.seq_check is not None:
            for key in rt.seq_check.waiting:
                if self.alive(key):
                    self.transport.send(key, AskHeads(rt.table_id))

    def signing_held(self, rt: TableRuntime, now: float) -> str:
        """Why our seat may not sign at ``rt`` yet, or "" (the check is then over)."""
        check = rt.seq_check
        if check is None or rt.session is None:
            return ""
        why = check.holds(self.port.last_seq(rt.session, check.place), now)
        if not why:
            rt.seq_check = None
            log.info(
                "table %s: resumed; the other seats confirmed our last message number",
                rt.table_hex[:8],
            )
        return why

    def reconnecting(self, rt: TableRuntime, now: float) -> bool:
        """Is ``rt`` still catching up after our restart (daemon/tables/catching_up.py)? Our
        player's view then says so instead of the stale table, with no actions."""
        work = rt.catching_up
        if work is None or rt.session is None:
            return False
        check = rt.seq_check
        if check is not None and check.holds(self.port.last_seq(rt.session, check.place), now):
            return True
        highest = self.port.highest_seq or self.port.last_seq
        return work.behind([int(highest(rt.session, seat)) for seat in range(4)], now)

    def _caught_up(self, rt: TableRuntime, now: float) -> None:
        """The catch-up after our restart is over: our player is back at the table now."""
        rt.catching_up = None
        log.info("table %s: caught up with the other seats after the restart", rt.table_hex[:8])
        self.seat_returned(rt, now)
        self.publish_view(rt, [], at_once=True)

    def seat_returned(self, rt: TableRuntime, now: float) -> None:
        """Our player is back at ``rt`` (a frontend subscribed, or we caught up after a
        restart): the window in front of our seat starts again, once per step
        (protocol/table/returning.py). Not while we are still catching up: that ends with
        the same call, on the table as it is then."""
        returned = self.port.seat_returned
        if returned is None or rt.session is None or rt.catching_up is not None:
            return
        session = returned(rt.session, now)
        if session is not rt.session:
            rt.session = session
            log.info("table %s: our player is back: our window starts again", rt.table_hex[:8])

    def player_returned(self) -> None:
        """A frontend subscribed: our player is back at every table of ours."""
        now = time.monotonic()
        for rt in self.tables.values():
            self.seat_returned(rt, now)

    def own_seq_heard(self, rt: TableRuntime, key: bytes) -> None:
        """A member's ``Heads`` answered our check: fetch any of our messages it holds
        beyond our records; once nothing holds our seat back, make what was due."""
        check, now = rt.seq_check, time.monotonic()
        if check is None or rt.session is None:
            return
        own_last = self.port.last_seq(rt.session, check.place)
        if check.ahead > own_last:
            self._rebuild_older_copy(rt, check.ahead, own_last, key)
        elif not self.signing_held(rt, now):
            self._settle(rt, now)

    def _rebuild_older_copy(self, rt: TableRuntime, ahead: int, own_last: int, key: bytes) -> None:
        """Our records are an older copy (a restored backup, a copied folder): a member holds
        messages of ours past their end. Our session cannot take its own messages back as a
        peer's, so the folder is set aside (kept, with the reason) and the seat is rebuilt
        from the others like a damaged one; it signs nothing meanwhile."""
        # the reason reaches the screens (problems, the set-aside folder): a name; the log
        # also gives the key's fingerprint
        reason = (
            f"our records end at our message {own_last} and {self.player_name(rt, key)} "
            f"holds ours up to {ahead} (an older copy of the table)"
        )
        log.error(
            "table %s: %s (%s); rebuilding it from the other seats' copies",
            rt.table_hex[:8],
            reason,
            fingerprint(key),
        )
        if rt.place is None or not can_rebuild(self.port, rt.place, len(rt.members)):
            rt.problems.append(f"cannot sign at this table again: {reason}")
            return  # the check stays open: nothing is signed twice
        rt.close_log()
        rt.log, rt.session, rt.seq_check = None, None, None
        self.store.set_aside(
            rt.table_id, f"{reason} (the table is rebuilt from the other seats' copies)"
        )
        try:
            self.store.start_rebuilding(rt.table_id, rt.meta(), reason)
            rt.log = self.store.open_log(rt.table_id)
        except (StoreError, OSError) as error:
            log.error("table %s: cannot start rebuilding it: %s", rt.table_hex[:8], error)
            rt.problems.append(f"cannot rebuild this table: {error}")
            return
        rt.rebuild = start_rebuild(
            self.port, rt.place, self.identity.public_key, rt.host_key, reason
        )
        rt.problems.append(f"rebuilding this table from the other seats' copies: {reason}")
        self.ask_rebuild(rt)
        self.publish_view(rt, [])

    def _settle(self, rt: TableRuntime, now: float) -> None:
        """Make what is due at ``rt`` (our automatic answers held while signing was)."""
        settle = self.port.settle
        if settle is not None and rt.session is not None:
            self.apply(rt, settle(rt.session, now))

    # -- where the other seats are ---------------------------------------------------------

    def learn(
        self, key: bytes, host: str, port: int, source: Source, via: str | None = None
    ) -> None:
        """An address of the seat ``key`` (see reach.py for what is kept): every table it
        sits at remembers it (the metadata is written in the background) and it is dialled
        there too."""
        if key == self.identity.public_key or not reach.usable(host, port, source, via):
            return
        address = Address(host, port, source.verified)
        seated = False
        for rt in self.tables.values():
            if key in rt.members:
                seated = True
                if rt.learn(key, address):
                    if source is not Source.DIALLED:
                        log.info(
                            "table %s: seat %s may be reached at %s (%s)",
                            rt.name,
                            key.hex()[:8],
                            address,
                            source.value,
                        )
                    self.save_meta_soon(rt)
                    if (
                        source.verified
                        and rt.host_key == self.identity.public_key
                        and rt.members[key] == address.where
                    ):
                        # we host it: a seat reached at a new address (restarted on another
                        # port, on another network) is where the others can find it too
                        # when mDNS cannot tell them (`play`'s bot seats, a venue's --peer)
                        self.frames.send_roster(rt)
        if seated:
            self.dial_member(key)

    def known_addresses(self, key: bytes) -> tuple[Address, ...]:
        """Every address our tables know for the seat ``key``, newest first."""
        lists = []
        for rt in self.tables.values():
            if key in rt.members:
                known = rt.addresses.get(key, ())
                host, port = rt.members[key]
                if not known and reach.usable(host, port, Source.HEARD):
                    known = (Address(host, port),)
                lists.append(known)
        return reach.merge(lists)

    def dial_member(self, key: bytes) -> None:
        """Keep a connection to the seat ``key`` dialled at every address we know for it."""
        addresses = [a.where for a in self.known_addresses(key)]
        if addresses:
            self.transport.dial(key, addresses)

    def _reached(self, key: bytes, host: str, port: int) -> None:
        """Our connection to ``key`` at ``host:port`` completed its CURVE handshake."""
        self.learn(key, host, port, Source.DIALLED)

    def _announced(self, found: Discovered) -> None:
        """An mDNS announcement by a key seated at one of our tables: where it is now."""
        self.learn(found.public_key, found.host, found.port, Source.MDNS)

    def last_address(self, rt: TableRuntime, key: bytes) -> str:
        """Where the seat ``key`` was last reached ("" when never)."""
        known = rt.addresses.get(key, ())
        best = next((a for a in known if a.verified), known[0] if known else None)
        return "" if best is None else str(best)

    def unreachable_for(self, key: bytes, now: float) -> float:
        """Seconds since the seat ``key`` was last heard from (or since we started)."""
        seen = self.transport.last_seen.get(curve_public_from_ed25519(key))
        return max(0.0, now - max(seen or 0.0, self._started_at))

    def save_meta_soon(self, rt: TableRuntime) -> None:
        """Write the table's metadata in the background (a thread: the write is fsynced);
        writes of one table are never reordered, and a burst of changes makes one write."""
        self._meta_due[rt.table_id] = rt.meta()
        task = self._meta_writes.get(rt.table_id)
        if task is None or task.done():
            self._meta_writes[rt.table_id] = asyncio.create_task(
                self._write_meta(rt.table_id), name="meta-write"
            )

    async def save_meta_now(self, rt: TableRuntime) -> None:
        """``save_meta_soon`` and wait until it is on disk (admissions, our place)."""
        self.save_meta_soon(rt)
        await asyncio.shield(self._meta_writes[rt.table_id])

    async def _write_meta(self, table_id: bytes) -> None:
        while table_id in self._meta_due:
            meta = self._meta_due.pop(table_id)
            try:
                await in_thread(
                    lambda m=meta: self.store.write_meta(table_id, m),  # type: ignore[misc]
                    "fourwinds-meta",
                )
            except Exception as error:
                log.error("table %s: cannot write its metadata: %s", table_id.hex()[:8], error)

    # -- who may connect -------------------------------------------------------------------

    def pinned_keys(self) -> set[bytes]:
        keys = set(self.pairing_hosts) | set(self.recovery_peers) | self.events.pinned()
        for rt in self.tables.values():
            keys.update(rt.members)
        keys.discard(self.identity.public_key)
        return keys

    def hosts_open_table(self) -> bool:
        return any(
            rt.host_key == self.identity.public_key and len(rt.members) < 4
            for rt in self.tables.values()
        )

    def _hosted_tables(self) -> list[tuple[bytes, int, str, str, bool, bool]]:
        return [
            (rt.table_id, 4 - len(rt.members), rt.name, rt.rules, rt.private, rt.flowers)
            for rt in self.tables.values()
            if rt.host_key == self.identity.public_key
        ]

    def _policy(self, curve_key: bytes) -> str | None:
        for key in self.pinned_keys():
            if curve_public_from_ed25519(key) == curve_key:
                self.curve_to_key[curve_key] = key
                return PINNED
        return GUEST if self.hosts_open_table() or self.events.admits_guests() else None

    def _still_guest(self, curve_key: bytes) -> bool:
        """Is the key of this connection (admitted as a guest) still not seated at any of
        our tables? (Its frames are then rate-limited: transport.GUEST_FRAME_RATE.)"""
        key = self.curve_to_key.get(curve_key)
        return key is None or key not in self.pinned_keys()

    def _forget_guest(self, key: bytes) -> None:
        """The connection back to a guest was closed (its pairing time is over, or room was
        made): forget what we kept for it, unless it was seated meanwhile. What a stranger
        makes us keep stays bounded (transport.GUEST_LINKS)."""
        if key in self.pinned_keys():
            return
        self.names.pop(key, None)
        self.frames.addresses.pop(key, None)
        self.frames.last_refusal.pop(key, None)
        for curve_key in [c for c, k in self.curve_to_key.items() if k == key]:
            del self.curve_to_key[curve_key]

    def key_of(self, sender: Sender) -> bytes | None:
        return self.curve_to_key.get(sender.curve_key)

    def alive(self, key: bytes) -> bool:
        return key == self.identity.public_key or self.transport.alive(
            curve_public_from_ed25519(key)
        )

    # -- frames from peers -----------------------------------------------------------------

    async def _on_frame(self, sender: Sender, frame: Frame) -> None:
        await self.frames.handle(sender, frame)

    def send_payload(self, rt: TableRuntime, key: bytes, payload: bytes) -> None:
        self.transport.send(key, TableMessage(rt.table_id, payload))

    def apply(self, rt: TableRuntime, step: Any, ours: bool = False, before: Any = None) -> None:
        """Carry out a session Step. After a peer's message, a view our frontend needs now
        (the table waits for us, or moved to a new step) is built and sent as soon as the new
        session is adopted, before the fsync and the sends to peers: it goes to our own
        player only. After our own action (``ours``) the peers come first: the view is
        queued for the publisher, after the sends and the reply to the request. ``before``:
        a step already carried out (see ``receive``) whose events this view also shows."""
        earlier = () if before is None else before.events
        changed = bool(
            step.events
            or step.outgoing
            or step.persist
            or earlier
            or (before is not None and (before.outgoing or before.persist))
        )
        events = [repr(e) for e in (*earlier, *step.events)]
        at_once = changed and not ours
        rt.apply(
            self.port,
            step,
            self.identity.public_key,
            lambda key, payload: self.send_payload(rt, key, payload),
            adopted=(lambda: self.publish_view(rt, events, at_once=True)) if at_once else None,
        )
        if changed and ours:
            self.publish_view(rt, events)

    def receive(self, rt: TableRuntime, payload: bytes, now: float) -> None:
        """A peer's session message: applied and adopted first (``applied_at``: the table's
        latency counts to here), then our automatic reply (an auto-pass, a dice message) is
        made, sent and shown: one view, built after the reply, so its legal actions never
        offer what was already answered. In between, other processes waiting for this CPU
        go first (``_let_others_run``)."""
        first = self.port.apply_message(rt.session, payload, now)
        rt.apply(
            self.port,
            first,
            self.identity.public_key,
            lambda key, data: self.send_payload(rt, key, data),
        )
        if self.signing_held(rt, now):  # our automatic answers wait (daemon/tables/own_seq.py)
            self.publish_view(rt, [repr(e) for e in first.events], at_once=True)
            return
        _let_others_run()
        self.apply(rt, self.port.settle(rt.session, now), before=first)

    async def act(self, rt: TableRuntime, action: object, now: float) -> None:
        """Our player's action: the signed message goes to the peers (after the fsync)
        before our own session takes it in: the peers' wait does not include our
        bookkeeping, which also gives them a head start of PEERS_FIRST_S (see there).
        ``FourwindsError`` when it is refused."""
        held = self.signing_held(rt, now)
        if held:
            raise LocalProtocolError(f"not yet: {held}")
        if self.reconnecting(rt, now):
            raise LocalProtocolError("not yet: catching up with the other seats after a restart")
        self.apply(rt, self.port.send_action(rt.session, action, now), ours=True)
        rt.refuse_if_paused()  # not written (a full disk), so not sent: the player is told
        await rt.drained()  # the message has left (after its fsync, off the loop)...
        await asyncio.sleep(PEERS_FIRST_S)  # ...then the peers get their head start
        self.apply(rt, self.port.settle(rt.session, time.monotonic()), ours=True)

    def _connect_members(self, rt: TableRuntime) -> None:
        for key in rt.members:
            if key != self.identity.public_key:
                self.dial_member(key)

    async def announce(self, rt: TableRuntime) -> None:
        """Announce (or update) a table we host, with its free seats as the roster says now;
        an unlisted table (a solo table with our own bots) is never announced."""
        before = self._creating_unlisted
        if before is not None and rt.table_id not in before and rt.listed:
            rt.listed = False  # the table the current unlisted `create` request makes
            self.save_meta_soon(rt)
        if self.discovery is None or rt.host_key != self.identity.public_key or not rt.listed:
            return
        await self.discovery.announce(
            Announcement(
                rt.table_id, rt.name, rt.rules, 4 - len(rt.members), rt.private, rt.flowers
            )
        )

    def roster_changed(self, rt: TableRuntime) -> None:
        """A seat was admitted at a table we host: the announcement's free seats follow the
        roster, and our frontends see the lobby change at once."""
        self._start_announcing(rt)
        if rt.session is not None:
            self.publish_view(rt, [], at_once=True)

    def in_background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` (an mDNS registration: seconds) without waiting for it; it is
        cancelled when the daemon closes."""
        task = asyncio.create_task(work, name=name)
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    def withdraw_soon(self, table_id: bytes) -> None:
        """Stop announcing ``table_id`` (in the background, as ``announce``): we left it."""
        if self.discovery is None:
            return
        task = asyncio.create_task(self.discovery.withdraw(table_id), name="withdraw")
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    def _start_announcing(self, rt: TableRuntime) -> None:
        """``announce`` in the background (mDNS registration takes a second or two)."""
        task = asyncio.create_task(self.announce(rt), name="announce")
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def _probe(self, host: str, peer_port: int) -> None:
        """A ``--peer``: ask its key beacon for its key and tables every few seconds, so its
        tables are listed and joinable like announced ones (errors back off, up to 30 s)."""
        from fourwinds.daemon.peers.transport import TransportError

        where = f"{host}:{peer_port}"
        delay = 0.5
        while True:
            try:
                info = await self.transport.fetch_key(host, peer_port)
            except TransportError as error:
                log.warning("--peer %s: %s", where, error)
                self.manual_seen[where] = {"error": str(error)}
                self.manual_tables.pop(where, None)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)
                continue
            delay = 0.5
            key = info.public_key
            self.names[key] = info.name
            self._moved(key, host, peer_port)
            self.manual_seen[where] = {
                "host": host,
                "port": peer_port,
                "public_key": key.hex(),
                "fingerprint": fingerprint(key),
                "player": info.name,
            }
            self.manual_tables[where] = [
                {
                    "table": table_id.hex(),
                    "name": name,
                    "rules": rules,
                    "flowers": flowers,
                    "rules_label": rules_label(rules, flowers),
                    "free": info.tables[table_id],
                    "private": private,
                    "version": PROTOCOL_VERSION,
                    "compatible": True,
                    "fingerprint": fingerprint(key),
                    "host": host,
                    "port": peer_port,
                    "public_key": key.hex(),
                    "player": info.name,
                }
                for table_id, (name, rules, private, flowers) in info.details.items()
            ]
            await asyncio.sleep(PROBE_S)

    def _moved(self, key: bytes, host: str, peer_port: int) -> None:
        """A ``--peer`` answered with the key of a seat at one of our tables: that seat may
        be reached there (a daemon restarted on another port): it is remembered and dialled,
        so the two daemons find each other again (its ``Hello`` then tells it ours)."""
        self.learn(key, host, peer_port, Source.BEACON, via=host)
        if key == self.identity.public_key or any(key in rt.members for rt in self.tables.values()):
            return
        if key in self.recovery_peers or len(self.recovery_peers) < MAX_RECOVERY_PEERS:
            if key not in self.recovery_peers:
                log.info(
                    "--peer %s:%d (%s) sits at none of our tables: dialled, in case it "
                    "holds one we lost",
                    host,
                    peer_port,
                    fingerprint(key),
                )
            self.recovery_peers[key] = (host, peer_port)
            self.transport.dial(key, [(host, peer_port)])

    # -- timers ----------------------------------------------------------------------------

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            now = time.monotonic()
            for rt in list(self.tables.values()):
                if rt.seq_check is not None:
                    if self.signing_held(rt, now):
                        continue
                    self._settle(rt, now)
                if rt.catching_up is not None:
                    if self.reconnecting(rt, now):
                        continue  # our timers wait: the window starts again after it
                    self._caught_up(rt, now)
                self._countdown_over(rt, now)
                if rt.session is not None:
                    step = self.port.tick(rt.session, now)
                    if step.persist or step.outgoing or step.events:
                        self.apply(rt, step)
            self.events.tick(now)
            self.event_tables.tick(now)
            self.event_faults.tick(now)

    async def _syncer(self) -> None:
        """Anti-entropy: ask every live member for what we may have missed; refresh views."""
        while True:
            await asyncio.sleep(SYNC_S)
            for rt in list(self.tables.values()):
                rt.sync_soon()  # bound what a crash can lose of what we received
                if rt.rebuild is not None:
                    self.ask_rebuild(rt)
                    self.publish_view(rt, [])
                    continue
                if rt.session is None:
                    if rt.log is not None and rt.joiner is None and self.alive(rt.host_key):
                        self.transport.send(rt.host_key, CatchUp(rt.table_id, 0, -1))
                    continue
                self._ask_heads(rt)
                for key in rt.members:
                    if key != self.identity.public_key and self.alive(key):
                        self.request_catchup(rt, key)
                self.publish_view(rt, [])

    # -- rebuilding a lost table from the peers (daemon/tables/rebuild.py) ------------------------

    def ask_rebuild(self, rt: TableRuntime) -> None:
        """Ask every live member for its heads and for every seat's messages after those we
        hold (the answers go to ``rebuild_progress``)."""
        work = rt.rebuild
        if work is None or work.running or work.failed:
            return
        for key in rt.members:
            if key == self.identity.public_key or not self.alive(key):
                continue
            self.transport.send(key, Rebuild(rt.table_id))
            for seat in range(4):
                self.transport.send(key, CatchUp(rt.table_id, seat, work.pool.held(seat) - 1))

    def lost_table(self, key: bytes, table_id: bytes) -> None:
        """``key`` (authenticated: pinned at a table of ours, or a ``--peer``) sent a frame
        about a table we do not know: if it is one whose folder we lost, it sends the
        roster back (``offered``). Asked at most once a second a table; never for a table
        we left (its folder says so) or while MAX_OFFERED tables are being rebuilt."""
        now = time.monotonic()
        if (
            key not in self.pinned_keys()
            or now - self._lost_asked.get(table_id, -9.0) < 1.0
            or self.store.left_before(table_id)
            or (len(self._lost_asked) >= 64 and table_id not in self._lost_asked)
        ):
            return
        self._lost_asked[table_id] = now
        self.transport.send(key, Rebuild(table_id, lost=True))

    def offered(self, key: bytes, roster: Roster, via: str) -> None:
        """A member's roster of a table we do not know, in answer to ``lost_table``: when it
        names us and its sender among four seats, the table is ours again, to be rebuilt
        from the others (nothing it says is trusted beyond that: the rebuild checks every
        message by its signature, and the Seating must give our place our own key)."""
        me = self.identity.public_key
        members = {k: (h, p) for k, h, p in roster.members}
        if (
            roster.table_id not in self._lost_asked
            or roster.table_id in self.tables
            or key not in members
            or me not in members
            or not can_rebuild(self.port, list(members).index(me), len(members))
            or self.store.left_before(roster.table_id)
            or sum(
                1
                for rt in self.tables.values()
                if rt.rebuild is not None and rt.rebuild.reason == LOST
            )
            >= MAX_OFFERED
        ):
            return
        host_key = next(iter(members))
        rt = TableRuntime(
            table_id=roster.table_id,
            name=roster.name,
            rules=roster.rules,
            host_key=host_key,
            private=False,
            code=None,
            members=members,
            place=list(members).index(me),
        )
        members[me] = (self.host, self.transport.port)
        try:
            self.store.start_rebuilding(rt.table_id, rt.meta(), LOST)
            rt.log = self.store.open_log(rt.table_id)
        except (StoreError, OSError) as error:
            log.error("table %s: cannot start rebuilding it: %s", rt.table_hex[:8], error)
            return
        rt.rebuild = start_rebuild(self.port, rt.place or 0, me, host_key, LOST)
        self.tables[rt.table_id] = rt
        log.warning(
            "table %s (%s): %s named us at it and we hold no copy; rebuilding it "
            "from the other seats",
            rt.name,
            rt.table_hex[:8],
            fingerprint(key),
        )
        rt.problems.append(f"rebuilding this table from the other seats' copies: {LOST}")
        for member, host, port in roster.members:
            if member != me:
                self.learn(member, host, port, Source.TOLD, via=via)
        self._connect_members(rt)
        self.ask_rebuild(rt)
        self.publish_view(rt, [])

    def rebuild_peers(self, rt: TableRuntime) -> list[bytes]:
        return [k for k in rt.members if k != self.identity.public_key]

    def rebuild_progress(self, rt: TableRuntime) -> None:
        """A peer's heads or messages arrived: once everything is in, replay it (a thread)."""
        work = rt.rebuild
        if work is None or not work.ready(self.rebuild_peers(rt)):
            return
        work.running = True
        task = asyncio.create_task(self._finish_rebuild(rt, work), name="rebuild")
        self._tasks.append(task)

    async def _finish_rebuild(self, rt: TableRuntime, work: Rebuilding) -> None:
        """Replay the pool into our seat's session, write its records (synced), and let the
        table go on: from here it is like any resumed table."""
        rebuild_seat = self.port.rebuild
        assert rebuild_seat is not None  # a rebuild starts only where the port can (can_rebuild)
        entropy = self.seat_entropy(rt.table_id)
        try:
            step = await in_thread(
                lambda: rebuild_seat(work.pool, self.identity.private_key, entropy),
                "fourwinds-rebuild",
            )
        except FourwindsError as error:
            self._rebuild_failed(rt, work, getattr(error, "reason", str(error)))
            return
        table_log = rt.log
        if self.tables.get(rt.table_id) is not rt or table_log is None:
            return

        def write() -> None:  # appended and synced, then the folder marked done
            table_log.append(list(step.persist))
            self.store.rebuilt(rt.table_id)

        try:
            await in_thread(write, "fourwinds-rebuilt")
        except (StoreError, OSError) as error:
            self._rebuild_failed(rt, work, f"cannot write the rebuilt records: {error}")
            return
        if self.tables.get(rt.table_id) is not rt:
            return
        rt.session, rt.rebuild = step.session, None
        rt.applied_at = time.monotonic()
        held = len(step.persist) - 1
        log.warning(
            "table %s: rebuilt from the other seats' copies (%d messages; %s)",
            rt.table_hex[:8],
            held,
            work.reason,
        )
        rt.problems.append(
            f"rebuilt this table from the other seats' copies ({held:,} messages); it goes on"
        )
        for key in rt.members:
            if key != self.identity.public_key and self.alive(key):
                self.request_catchup(rt, key)
        self.publish_view(rt, [], at_once=True)

    def _rebuild_failed(self, rt: TableRuntime, work: Rebuilding, reason: str) -> None:
        """The rebuild stops for good (it is not retried); the player's view says why."""
        work.failed, work.running = reason, False
        log.error("table %s: cannot be rebuilt from the other seats: %s", rt.table_hex[:8], reason)
        rt.problems.append(f"cannot rebuild this table: {reason}")
        self.publish_view(rt, [])

    def request_catchup(self, rt: TableRuntime, key: bytes) -> None:
        """Ask ``key`` for every other seat's messages after the last we hold. Never for our
        own: our records hold every one we sent, and a member that holds more of ours shows
        our records to be an older copy (``own_seq_heard``), which a rebuild mends."""
        for seat in range(4):
            if seat == rt.place:
                continue
            seq = self.port.last_seq(rt.session, seat) if rt.session is not None else -1
            self.transport.send(key, CatchUp(rt.table_id, seat, seq))

    # -- views for frontends ---------------------------------------------------------------

    def current_names(self, rt: TableRuntime) -> dict[int, str]:
        """By table place, the name each player of ``rt`` goes by now: ours from our config,
        each peer's from its latest Hello (a player renamed since sitting down shows the new
        name; the signed Join keeps the old one). A peer not heard from yet is left out: the
        view shows the name it signed."""
        keys = list(self.port.seat_keys(rt.session)) if rt.session is not None else []
        places = {key: place for place, key in enumerate(keys) if key is not None}
        for key, place in rt.places().items():
            places.setdefault(key, place)
        me = self.identity.public_key
        out = {}
        for key, place in places.items():
            name = self.name if key == me else self.names.get(key, "")
            if name and 0 <= place < 4:
                out[place] = name
        return out

    def player_name(self, rt: TableRuntime | None, key: bytes) -> str:
        """What our screens and logs call the player of ``key``: the name it goes by now
        (``names``: its latest Hello), else the one it signed at ``rt`` (the session port's
        optional ``signed_names``), else "a player"; never a key fingerprint, which belongs
        where trust is decided (pairing, ``whoami``)."""
        if key == self.identity.public_key:
            return self.name
        name = self.names.get(key, "")
        signed = self.port.signed_names
        if name or rt is None or rt.session is None or signed is None:
            return name or "a player"
        keys = list(self.port.seat_keys(rt.session))
        place = keys.index(key) if key in keys else rt.places().get(key, -1)
        names = list(signed(rt.session))
        found = str(names[place]) if 0 <= place < len(names) else ""
        return "a player" if not found or found == f"seat {place}" else found

    def _seat_view(self, rt: TableRuntime, away: tuple[Any, ...] = ()) -> dict[str, Any]:
        """The session's view, computed once per session value (sessions are immutable), per
        set of unreachable places (``_unreachable``: their seconds change once a second, and
        only while a seat is unreachable) and per set of current names (``current_names``)."""
        if rt.rebuild is not None:
            return {
                "phase_detail": rt.rebuild.detail(self.rebuild_peers(rt)),
                "rebuilding": rt.rebuild.reason,
            }
        if rt.session is None:
            return {}
        names = self.current_names(rt) if self.port.view_takes_names else {}
        cached = self._views.get(rt.table_id)
        if (
            cached is None
            or cached[0] is not rt.session
            or cached[1] != away
            or cached[4] != names
            or (cached[2].get("waiting") and time.monotonic() - cached[3] >= 1.0)
        ):
            # (a view that waits for a seat past its window counts the seconds: once a second)
            extra: dict[str, Any] = {"names": names} if self.port.view_takes_names else {}
            if away and self.port.view_takes_reach:
                extra["unreachable"] = [
                    {"place": place, "for_s": for_s, "last_address": where}
                    for place, for_s, where in away
                ]
            made = self.port.seat_view(rt.session, **extra)
            cached = (rt.session, away, dict(made), time.monotonic(), names)
            self._views[rt.table_id] = cached
        view = dict(cached[2])
        deadline = view.get("deadline")
        if isinstance(deadline, (int, float)) and not isinstance(deadline, bool):
            # the view is cached per session state: count down the time since it was built
            view["deadline"] = max(0.0, float(deadline) - (time.monotonic() - cached[3]))
            if isinstance(view.get("next"), dict):  # a hand's end: the same "next" countdown
                view["next"] = {**view["next"], "deadline": view["deadline"]}
        return view

    def _countdown_over(self, rt: TableRuntime, now: float) -> None:
        """The countdown in the view last built for ``rt`` has just run out: a new view, at
        once. Our own window's end changes the table anyway (our default answer); another
        seat's means the table now waits for it past its window, which the view says in
        ``waiting`` (protocol/table/waiting.py) instead of a countdown stuck at 0."""
        cached = self._views.get(rt.table_id)
        if cached is None or cached[0] is not rt.session:
            return
        deadline = cached[2].get("deadline")
        if (
            isinstance(deadline, (int, float))
            and not isinstance(deadline, bool)
            and deadline > 0
            and now - cached[3] >= deadline
        ):
            del self._views[rt.table_id]
            self.publish_view(rt, [], at_once=True)

    def _unreachable(self, rt: TableRuntime, now: float) -> list[tuple[bytes, int, int, str]]:
        """(key, place, whole seconds, last address) of each other seat we cannot reach:
        not heard from for UNREACHABLE_S (counted from our start when never); places as the
        session numbers them, or in join order before it knows them."""
        keys = list(self.port.seat_keys(rt.session)) if rt.session is not None else []
        order = rt.places()
        out = []
        for key in rt.members:
            if key == self.identity.public_key or self.alive(key):
                continue
            gone = self.unreachable_for(key, now)
            place = keys.index(key) if key in keys else order.get(key, -1)
            if gone >= UNREACHABLE_S and 0 <= place < 4:
                out.append((key, place, int(gone), self.last_address(rt, key)))
        return out

    def view_event(self, rt: TableRuntime, events: list[str]) -> Message:
        missing = self._unreachable(rt, time.monotonic())
        away = tuple((place, for_s, where) for _, place, for_s, where in missing)
        view = rt.show_pause(self._seat_view(rt, away))  # a full disk's pause says why
        view = self._show_rebuilding_peers(rt, view)
        legal = view.pop("legal_actions", [])
        if self.reconnecting(rt, time.monotonic()):
            # the table as our records left it is stale: say what we do, offer nothing
            view = {
                **view,
                "reconnecting": True,
                "phase_detail": RECONNECTING_TEXT,
                "deadline": None,
                "waiting": None,
                "screen": "reconnecting",
            }
            legal = []
        elif view:
            view["reconnecting"] = False
        now = time.monotonic()
        offline = [
            {
                "fingerprint": fingerprint(k),
                "player": self.names.get(k, ""),
                "for_s": int(self.unreachable_for(k, now)),
                "last_address": self.last_address(rt, k),
            }
            for k in rt.members
            if not self.alive(k)
        ]
        rt.view_seq += 1
        event = {
            "type": "view",
            "table": rt.table_hex,
            "name": rt.name,
            "rules": rt.rules,
            "seq": rt.view_seq,
            "applied_at": rt.applied_at,
            "steps_applied": [[n, t] for n, t in rt.steps_applied],
            "view": view,
            "legal_actions": legal,
            "offline": offline,
            "events": events,
            "problems": list(rt.problems),
        }
        if view.get("phase") in (None, "lobby"):
            # before the seating the session knows only the places it has seen join; the
            # daemon's roster (join order, the host first) shows an admitted player at once
            event["members"] = self.table_summary(rt)["members"]
            # what leaving does to the others, when the lobby's Leave must be confirmed
            event["leave_warning"] = self.leave_warning(rt)
            if rt.code is not None and len(rt.members) < 4:
                # only the host keeps the code: its lobby shows it while places are free
                event["code"] = rt.code
        return event

    def _show_rebuilding_peers(self, rt: TableRuntime, view: dict[str, Any]) -> dict[str, Any]:
        """While another seat rebuilds its table from ours (it asked within PEER_SHOWN_S),
        the view says so (``phase_detail`` and ``rebuilding_peers``): the table waits for it."""
        now = time.monotonic()
        names = [
            self.player_name(rt, k)
            for k, at in rt.peers_rebuilding.items()
            if now - at < PEER_SHOWN_S
        ]
        if not names:
            return view
        view = dict(view)
        view["rebuilding_peers"] = names
        view["phase_detail"] = "; ".join(
            f"{name} is rebuilding its table from the others" for name in names
        )
        return view

    def peer_rebuilding(self, rt: TableRuntime, key: bytes) -> None:
        """A member asked us for its lost table (``Rebuild``): say so on our screens."""
        now = time.monotonic()
        already = now - rt.peers_rebuilding.get(key, -PEER_SHOWN_S) < PEER_SHOWN_S
        rt.peers_rebuilding[key] = now
        if not already:
            name = self.player_name(rt, key)
            log.warning(
                "table %s: %s is rebuilding its table from the others", rt.table_hex[:8], name
            )
            rt.problems.append(f"{name} is rebuilding its table from the others")
            del rt.problems[:-20]
            self.publish_view(rt, [], at_once=True)

    def resend_views(self) -> None:
        """Every table's view again, to every subscriber, even if it shows nothing new (a
        frontend just subscribed)."""
        self._published_shown.clear()
        for rt in self.tables.values():
            if rt.session is not None:
                self.publish_view(rt, [])

    def publish_view(self, rt: TableRuntime, events: list[str], at_once: bool = False) -> None:
        """Send a view event to our frontends (only while one is subscribed: a view is built
        only for someone). ``at_once``: now, if it is due now (see ``_due_now``); otherwise
        it is queued for the publisher, which sends only the newest state of a burst."""
        if not self.api.has_subscribers():
            return
        pending = self._dirty.setdefault(rt.table_id, [])
        pending.extend(events)
        if at_once and self._due_now(rt):
            del self._dirty[rt.table_id]
            self._send_view(rt, pending, time.monotonic())
            return
        self._wake.set()

    def _due_now(self, rt: TableRuntime) -> bool:
        """A view is due at once when the table waits for our seat or moved on a step."""
        return self._progress(rt) != self._published_progress.get(rt.table_id) or self._urgent(rt)

    def _send_view(self, rt: TableRuntime, events: list[str], now: float) -> None:
        """Build and send one view event. A failure to build it is logged and never stops
        the caller: views run inside ``apply``, before the fsync and the sends to peers."""
        self._published_at[rt.table_id] = now
        self._published_progress[rt.table_id] = self._progress(rt)
        try:
            event = self.view_event(rt, events[-50:])
        except Exception:  # a bug in a view must not hold up the table
            log.exception("table %s: building the view failed", rt.table_hex[:8])
            return
        seen = shown(event, time.monotonic())
        if not events and self._published_shown.get(rt.table_id) == seen:
            return  # a refresh that shows nothing new is not sent (view_changes.py)
        self._published_shown[rt.table_id] = seen
        self.api.publish(event)

    def _urgent(self, rt: TableRuntime) -> bool:
        """Does the table wait for our seat? (Then the frontend needs the view at once.)"""
        awaits = self.port.awaits_us
        return rt.session is not None and (awaits is None or bool(awaits(rt.session)))

    def _progress(self, rt: TableRuntime) -> object:
        """Where the table is, as the session module's optional ``progress`` says (a change
        is sent at once); None for a module without it."""
        return progress_of(self.port, rt.session)

    async def _publisher(self) -> None:
        """Views of tables that wait for us, or that moved to a new step, go out at once;
        other changes at most every PUBLISH_IDLE_S (a burst of messages within one step
        needs only the newest view). Sleeps while nothing is due."""
        while True:
            await self._wake.wait()
            await asyncio.sleep(0)  # let the rest of this burst of frames land first
            self._wake.clear()
            now = time.monotonic()
            later: dict[bytes, list[str]] = {}
            due = PUBLISH_IDLE_S
            for table_id, events in self._dirty.items():
                rt = self.tables.get(table_id)
                if rt is None:
                    continue
                waited = now - self._published_at.get(table_id, -PUBLISH_IDLE_S)
                if waited >= PUBLISH_IDLE_S or self._due_now(rt):
                    self._send_view(rt, events, now)
                else:
                    later[table_id] = events
                    due = min(due, PUBLISH_IDLE_S - waited)
            self._dirty = later
            if later:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), max(due, PUBLISH_S))
                self._wake.set()

    def leave_warning(self, rt: TableRuntime) -> str:
        """What leaving ``rt`` does to the others, when it needs ``force`` ("" when it does
        not): a seated match not over cannot go on without our seat; a lobby we host where
        others wait closes for them. A lobby we joined (the host frees the place), a finished
        or halted match, or a table with nobody else: nothing to warn of."""
        me = self.identity.public_key
        others = [self.player_name(rt, k) for k in rt.members if k != me]
        if not others or rt.session is None:
            return ""
        who = ", ".join(others)
        if not is_seated(self.port, rt.session):
            if rt.host_key != me:
                return ""
            return (
                f"you host {rt.name}, where {who} {'waits' if len(others) == 1 else 'wait'}"
                ": leaving closes the table for them"
            )
        progress = progress_of(self.port, rt.session)
        if progress is not None and progress[0] in ("over", "halted"):
            return ""
        if progress is not None and progress[0] == "ready":
            return (
                f"all four places at {rt.name} are taken: if you leave, {who} cannot "
                f"start (the table waits for your seat for ever)"
            )
        return (
            f"the match at {rt.name} has started: if you leave, {who} cannot go on "
            f"(the table waits for your seat for ever)"
        )

    def table_summary(self, rt: TableRuntime) -> Message:
        return {
            "table": rt.table_hex,
            "name": rt.name,
            "rules": rt.rules,
            "flowers": rt.flowers,
            "rules_label": rules_label(rt.rules, rt.flowers),
            "leave_warning": self.leave_warning(rt),
            "private": rt.private,
            "seated": len(rt.members),
            "bot_seat": self.event_tables.bot_seat_at(rt.table_id),
            "host": rt.host_key == self.identity.public_key,
            "code": rt.code if rt.host_key == self.identity.public_key else None,
            "members": [
                {
                    "fingerprint": fingerprint(k),
                    "alive": self.alive(k),
                    "player": self.names.get(k, ""),
                    "place": place,
                }
                for k, place in rt.places().items()
            ],
        }

    # -- local API -------------------------------------------------------------------------

    async def _on_request(self, request: Message) -> Message:
        """Route one local API request. ``create`` may carry ``"listed": false``: the table
        is not announced over mDNS (a solo table whose other seats are our own bots)."""
        from fourwinds.daemon.api import requests

        if request.get("type") == "peer":
            return self._peer_request(request)
        if request.get("type") not in QUICK_REQUESTS:
            await self._resumed.wait()  # a request about a table waits for its resume
        if request.get("type") != "create" or "listed" not in request:
            return await requests.handle(self, request)
        listed = request.pop("listed")
        if not isinstance(listed, bool):
            raise ApiError("'listed' must be true or false")
        # creates are handled one at a time (api.SERIAL): the new table is the one not here
        self._creating_unlisted = None if listed else set(self.tables)
        try:
            return await requests.handle(self, request)
        finally:
            self._creating_unlisted = None

    async def other_request(self, request: Message) -> Message:
        """A request the table API does not know: the tournament's (daemon/event_requests.py)."""
        from fourwinds.daemon import event_requests

        handler = event_requests.HANDLERS.get(request["type"])
        if handler is None:
            raise ApiError(f"unknown request type {request['type']!r}")
        return await handler(self, request)

    def drop_table(self, rt: TableRuntime) -> None:
        """Forget ``rt`` for good and stop announcing it (api/requests.py)."""
        from fourwinds.daemon.api import requests

        requests.drop_table(self, rt)

    def give_up_joining(self, rt: TableRuntime, reason: str) -> None:
        """A table we were admitted to but cannot play: dropped once (api/requests.py)."""
        from fourwinds.daemon.api import requests

        requests.give_up_joining(self, rt, reason)

    def _peer_request(self, request: Message) -> Message:
        """``{"type": "peer", "host", "port"}``: reach this daemon directly from now on, as a
        ``--peer`` given at start (`play --peer` where multicast is blocked)."""
        host, peer_port = request.get("host"), request.get("port")
        if not isinstance(host, str) or not 0 < len(host.strip()) <= 255:
            raise ApiError("'host' must be a host name or address")
        if (
            not isinstance(peer_port, int)
            or isinstance(peer_port, bool)
            or not 0 < peer_port < 65535
        ):
            raise ApiError("'port' must be a port number 1-65534")
        return {"ok": True, "added": self.add_peer(host.strip(), peer_port)}

    def add_peer(self, host: str, peer_port: int) -> bool:
        """Start asking the daemon at ``host:peer_port`` for its key and tables (False when
        it is already a peer)."""
        if (host, peer_port) in self.manual_peers:
            return False
        self.manual_peers = (*self.manual_peers, (host, peer_port))
        self._tasks.append(asyncio.create_task(self._probe(host, peer_port), name="probe"))
        return True

    def find_table(self, ref: object) -> TableRuntime:
        if not isinstance(ref, str) or not ref:
            raise ApiError("name the table (its id or name)")
        for rt in self.tables.values():
            if rt.table_hex == ref or rt.table_hex.startswith(ref) or rt.name == ref:
                return rt
        raise ApiError(f"you are not seated at a table {ref!r}")

    def seat_entropy(self, table_id: bytes) -> bytes:
        """The randomness our seat uses at ``table_id``, derived from our identity key and
        the table (daemon/tables/seat_secrets.py), so a lost record log can be rebuilt."""
        return seat_entropy(self.identity.private_key, table_id)


__all__ = ["PROTOCOL_VERSION", "Daemon"]
