"""The asyncio shell: sockets and timers in, calls on the pure session, its Steps carried out.

Handlers only route: a peer's ``TableMessage`` becomes ``handle_message``, a frontend's
``act`` becomes ``local_action``, the ticker calls ``tick``; each returned Step is applied by
``TableRuntime.apply`` (persist + fsync, then send). No game logic lives here, and the
constructor does no I/O: ``start()`` opens everything, ``close()`` closes it all.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from fourwinds.daemon.events import requests as event_requests
from fourwinds.daemon.events.faults import EventFaults
from fourwinds.daemon.events.held import Events
from fourwinds.daemon.events.tables import EventTables
from fourwinds.daemon.local_api.server import ApiError, ApiServer, Message
from fourwinds.daemon.local_api.views import Views
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.peers import frames_in
from fourwinds.daemon.peers.discovery import Announcement
from fourwinds.daemon.peers.identity import Identity, curve_public_from_ed25519, fingerprint
from fourwinds.daemon.peers.transport import GUEST, PINNED, Sender, Transport
from fourwinds.daemon.peers.whereabouts import Whereabouts
from fourwinds.daemon.peers.wire import (
    PROTOCOL_VERSION,
    AskHeads,
    CatchUp,
    Frame,
    TableMessage,
)
from fourwinds.daemon.store.disk import Store, StoreError
from fourwinds.daemon.table_runtimes.catching_up import RECONNECT_MAX_S, CatchingUp
from fourwinds.daemon.table_runtimes.own_seq import CONFIRM_S, OwnSeqCheck
from fourwinds.daemon.table_runtimes.rebuild import can_rebuild
from fourwinds.daemon.table_runtimes.rebuild import start as start_rebuild
from fourwinds.daemon.table_runtimes.rebuilds import Rebuilds
from fourwinds.daemon.table_runtimes.recovery import resume_or_set_aside
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.seat_secrets import seat_entropy
from fourwinds.daemon.table_runtimes.session_port import SessionModule, SessionPort
from fourwinds.daemon.tasks import cancel_and_wait, in_thread
from fourwinds.protocol.errors import LocalProtocolError

if TYPE_CHECKING:  # zeroconf is imported only with mDNS on (daemon/peers/mdns.py)
    from fourwinds.daemon.peers.mdns import Discovery

log = logging.getLogger(__name__)

TICK_S = 0.05
SYNC_S = 1.0
PEERS_FIRST_S = 0.002
"""After sending our own action, our daemon waits this long before its own bookkeeping (taking
the action into its session, its view, the reply to the frontend). On a machine that hosts
several seats' daemons (a venue laptop with bot seats; the benchmarks' two cores) the peers
then get the CPU to apply the action first; on a machine of its own it costs the table
nothing, since the peers' answers take longer than this to come back (and a message that
does arrive meanwhile is handled at once, settling our step with it). Measured: action latency
p50 5.8 -> 5.4-5.5 ms over about 630 discards a run (docs/DAEMON.md)."""
CLOSE_S = 1.2
"""How long ``close`` waits for the metadata writes and mDNS goodbyes still in flight (the
daemon must be gone within 2 s of a SIGTERM: daemon/main.py)."""
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
        self.event_tables = EventTables(self, api=self)  # a round's tables, opened and scored
        self.event_faults = EventFaults(self)  # substitutes and new directors signed
        self.tables: dict[bytes, TableRuntime] = {}
        self.names: dict[bytes, str] = {}  # peer key -> player name
        self.curve_to_key: dict[bytes, bytes] = {}  # CURVE key -> Ed25519 key
        self.pairing_hosts: set[bytes] = set()  # keys we are joining (pinned meanwhile)
        self.whereabouts = Whereabouts(self)  # where the other seats are; the --peer probes
        self.transport = Transport(identity, self._policy, self._on_frame, name)
        self.transport.open_tables = self._hosted_tables
        self.transport.on_reached = self.whereabouts.reached
        self.transport.still_guest = self._still_guest
        self.transport.on_guest_closed = self._forget_guest
        self.api = ApiServer(paths, self._on_request, force_tcp=force_tcp_api)
        self.discovery: Discovery | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._stop = asyncio.Event()
        self.frames = frames_in.FrameRouter(self)
        self.views = Views(self)  # what our frontends see (api/views.py)
        self.rebuilds = Rebuilds(self)  # lost tables and older copies (tables/rebuilds.py)
        self._creating_unlisted: set[bytes] | None = None  # tables before an unlisted create
        self._announcing: set[asyncio.Task[None]] = set()
        self._resumed = asyncio.Event()
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
        self._tasks.append(asyncio.create_task(self._ticker(), name="ticker"))
        self._tasks.append(asyncio.create_task(self._syncer(), name="sync"))
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
        await cancel_and_wait([*self._tasks, *self.whereabouts.probes, *self._announcing])
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
        except Exception:  # _resume sets it aside with its reason (table_runtimes/recovery.py)
            rt = TableRuntime(table_id, "?", "?", b"", False, None, {})
        self.tables[table_id] = rt

    async def _resume(self, rt: TableRuntime) -> None:
        """Resume a stored table in a thread (its records are read and replayed: seconds for
        a long match), off the event loop; one that cannot be is set aside with its reason
        (the ``tables`` request lists it) and never stops the daemon (table_runtimes/recovery.py).
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
            self.rebuilds.ask_rebuild(rt)
            self.views.publish_view(rt, [])
        if rt.session is not None:
            if rt.place is not None:
                others = {k for k in rt.members if k != self.identity.public_key}
                rt.seq_check = OwnSeqCheck(rt.place, time.monotonic() + CONFIRM_S, others)
                rt.catching_up = CatchingUp(time.monotonic() + RECONNECT_MAX_S)
                self._ask_heads(rt)
            for key in rt.members:
                if key != self.identity.public_key and self.alive(key):
                    self.rebuilds.request_catchup(rt, key)
            self.views.publish_view(rt, [])

    # -- a resumed seat learns its last number before it signs (table_runtimes/own_seq.py)

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
        """Is ``rt`` still catching up after our restart (daemon/table_runtimes/catching_up.py)? Our
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
        self.views.publish_view(rt, [], at_once=True)

    def seat_returned(self, rt: TableRuntime, now: float) -> None:
        """Our player is back at ``rt`` (a frontend subscribed, or we caught up after a
        restart): the window in front of our seat starts again, once per step
        (protocol/table/machine/returning.py). Not while we are still catching up: that ends with
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
            f"our records end at our message {own_last} and {self.views.player_name(rt, key)} "
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
        self.rebuilds.ask_rebuild(rt)
        self.views.publish_view(rt, [])

    def _settle(self, rt: TableRuntime, now: float) -> None:
        """Make what is due at ``rt`` (our automatic answers held while signing was)."""
        settle = self.port.settle
        if settle is not None and rt.session is not None:
            self.apply(rt, settle(rt.session, now))

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
        keys = set(self.pairing_hosts) | set(self.whereabouts.recovery_peers)
        keys |= self.events.pinned()
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
            adopted=(lambda: self.views.publish_view(rt, events, at_once=True))
            if at_once
            else None,
        )
        if changed and ours:
            self.views.publish_view(rt, events)

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
        if self.signing_held(
            rt, now
        ):  # our automatic answers wait (daemon/table_runtimes/own_seq.py)
            self.views.publish_view(rt, [repr(e) for e in first.events], at_once=True)
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
            self.views.publish_view(rt, [], at_once=True)

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
                self.views.countdown_over(rt, now)
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
                    self.rebuilds.ask_rebuild(rt)
                    self.views.publish_view(rt, [])
                    continue
                if rt.session is None:
                    if rt.log is not None and rt.joiner is None and self.alive(rt.host_key):
                        self.transport.send(rt.host_key, CatchUp(rt.table_id, 0, -1))
                    continue
                self._ask_heads(rt)
                for key in rt.members:
                    if key != self.identity.public_key and self.alive(key):
                        self.rebuilds.request_catchup(rt, key)
                self.views.publish_view(rt, [])

    # -- local API -------------------------------------------------------------------------

    async def _on_request(self, request: Message) -> Message:
        """Route one local API request. ``create`` may carry ``"listed": false``: the table
        is not announced over mDNS (a solo table whose other seats are our own bots)."""
        from fourwinds.daemon.local_api import requests

        if request.get("type") == "peer":
            return self.whereabouts.peer_request(request)
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
        """A request the table API does not know: the tournament's (daemon/events/requests.py)."""
        handler = event_requests.HANDLERS.get(request["type"])
        if handler is None:
            raise ApiError(f"unknown request type {request['type']!r}")
        return await handler(self, request)

    def drop_table(self, rt: TableRuntime) -> None:
        """Forget ``rt`` for good and stop announcing it (api/requests.py)."""
        from fourwinds.daemon.local_api import requests

        requests.drop_table(self, rt)

    def give_up_joining(self, rt: TableRuntime, reason: str) -> None:
        """A table we were admitted to but cannot play: dropped once (api/requests.py)."""
        from fourwinds.daemon.local_api import requests

        requests.give_up_joining(self, rt, reason)

    def find_table(self, ref: object) -> TableRuntime:
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
