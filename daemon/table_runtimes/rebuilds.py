"""Rebuilding a table from the other seats' copies, as the daemon drives it: asking a lost
table's members for its roster (``lost_table``, ``offered``), asking every live member for
heads and messages (``ask_rebuild``, ``request_catchup``), and replaying the pool into our
seat once everything is in (``rebuild_progress``; the replay itself is the session's, see
tables/rebuild.py and protocol/table/machine/rebuild.py).

``Rebuilds`` reaches the daemon only through ``RebuildHost``, the members it uses.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from fourwinds.daemon.peers.identity import Identity, fingerprint
from fourwinds.daemon.peers.reach import Source
from fourwinds.daemon.peers.transport import Transport
from fourwinds.daemon.peers.wire import CatchUp, Rebuild, Roster
from fourwinds.daemon.store.disk import Store, StoreError
from fourwinds.daemon.table_runtimes.rebuild import LOST, MAX_OFFERED, Rebuilding, can_rebuild
from fourwinds.daemon.table_runtimes.rebuild import start as start_rebuild
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionPort
from fourwinds.daemon.tasks import in_thread
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)


class PublishesViews(Protocol):
    """Our frontends' views (api/views.py): a rebuild's progress shows there."""

    def publish_view(self, rt: TableRuntime, events: list[str], at_once: bool = False) -> None: ...


class MemberAddresses(Protocol):
    """Where the other seats are (peers/whereabouts.py): a roster's addresses, dialled."""

    def learn(
        self, key: bytes, host: str, port: int, source: Source, via: str | None = None
    ) -> None: ...
    def connect_members(self, rt: TableRuntime) -> None: ...


class PinnedKeys(Protocol):
    """The keys let in as pinned (peers/admission.py)."""

    def pinned_keys(self) -> set[bytes]: ...


class RebuildHost(Protocol):
    """The daemon as a rebuild sees it."""

    identity: Identity
    host: str
    port: SessionPort
    store: Store
    transport: Transport
    tables: dict[bytes, TableRuntime]

    @property
    def views(self) -> PublishesViews: ...
    @property
    def whereabouts(self) -> MemberAddresses: ...
    @property
    def admission(self) -> PinnedKeys: ...

    def alive(self, key: bytes) -> bool: ...
    def seat_entropy(self, table_id: bytes) -> bytes: ...
    def in_background(self, work: Coroutine[Any, Any, None], name: str) -> None: ...


class Rebuilds:
    """The rebuilds of one daemon's tables, and the lost tables it asked about."""

    def __init__(self, host: RebuildHost) -> None:
        self.d = host
        self._lost_asked: dict[bytes, float] = {}  # unknown table -> when we asked

    def ask_rebuild(self, rt: TableRuntime) -> None:
        """Ask every live member for its heads and for every seat's messages after those we
        hold (the answers go to ``rebuild_progress``)."""
        work = rt.rebuild
        if work is None or work.running or work.failed:
            return
        for key in rt.members:
            if key == self.d.identity.public_key or not self.d.alive(key):
                continue
            self.d.transport.send(key, Rebuild(rt.table_id))
            for seat in range(4):
                self.d.transport.send(key, CatchUp(rt.table_id, seat, work.pool.held(seat) - 1))

    def lost_table(self, key: bytes, table_id: bytes) -> None:
        """``key`` (authenticated: pinned at a table of ours, or a ``--peer``) sent a frame
        about a table we do not know: if it is one whose folder we lost, it sends the
        roster back (``offered``). Asked at most once a second a table; never for a table
        we left (its folder says so) or while MAX_OFFERED tables are being rebuilt."""
        now = time.monotonic()
        if (
            key not in self.d.admission.pinned_keys()
            or now - self._lost_asked.get(table_id, -9.0) < 1.0
            or self.d.store.left_before(table_id)
            or (len(self._lost_asked) >= 64 and table_id not in self._lost_asked)
        ):
            return
        self._lost_asked[table_id] = now
        self.d.transport.send(key, Rebuild(table_id, lost=True))

    def offered(self, key: bytes, roster: Roster, via: str) -> None:
        """A member's roster of a table we do not know, in answer to ``lost_table``: when it
        names us and its sender among four seats, the table is ours again, to be rebuilt
        from the others (nothing it says is trusted beyond that: the rebuild checks every
        message by its signature, and the Seating must give our place our own key)."""
        me = self.d.identity.public_key
        members = {k: (h, p) for k, h, p in roster.members}
        if (
            roster.table_id not in self._lost_asked
            or roster.table_id in self.d.tables
            or key not in members
            or me not in members
            or not can_rebuild(self.d.port, list(members).index(me), len(members))
            or self.d.store.left_before(roster.table_id)
            or sum(
                1
                for rt in self.d.tables.values()
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
        members[me] = (self.d.host, self.d.transport.port)
        try:
            self.d.store.start_rebuilding(rt.table_id, rt.meta(), LOST)
            rt.log = self.d.store.open_log(rt.table_id)
        except (StoreError, OSError) as error:
            log.error("table %s: cannot start rebuilding it: %s", rt.table_hex[:8], error)
            return
        rt.rebuild = start_rebuild(self.d.port, rt.place or 0, me, host_key, LOST)
        self.d.tables[rt.table_id] = rt
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
                self.d.whereabouts.learn(member, host, port, Source.TOLD, via=via)
        self.d.whereabouts.connect_members(rt)
        self.ask_rebuild(rt)
        self.d.views.publish_view(rt, [])

    def rebuild_peers(self, rt: TableRuntime) -> list[bytes]:
        return [k for k in rt.members if k != self.d.identity.public_key]

    def rebuild_progress(self, rt: TableRuntime) -> None:
        """A peer's heads or messages arrived: once everything is in, replay it (a thread)."""
        work = rt.rebuild
        if work is None or not work.ready(self.rebuild_peers(rt)):
            return
        work.running = True
        self.d.in_background(self._finish_rebuild(rt, work), "rebuild")

    async def _finish_rebuild(self, rt: TableRuntime, work: Rebuilding) -> None:
        """Replay the pool into our seat's session, write its records (synced), and let the
        table go on: from here it is like any resumed table."""
        rebuild_seat = self.d.port.rebuild
        assert rebuild_seat is not None  # a rebuild starts only where the port can (can_rebuild)
        entropy = self.d.seat_entropy(rt.table_id)
        try:
            step = await in_thread(
                lambda: rebuild_seat(work.pool, self.d.identity.private_key, entropy),
                "fourwinds-rebuild",
            )
        except FourwindsError as error:
            self._rebuild_failed(rt, work, getattr(error, "reason", str(error)))
            return
        table_log = rt.log
        if self.d.tables.get(rt.table_id) is not rt or table_log is None:
            return

        def write() -> None:  # appended and synced, then the folder marked done
            table_log.append(list(step.persist))
            self.d.store.rebuilt(rt.table_id)

        try:
            await in_thread(write, "fourwinds-rebuilt")
        except (StoreError, OSError) as error:
            self._rebuild_failed(rt, work, f"cannot write the rebuilt records: {error}")
            return
        if self.d.tables.get(rt.table_id) is not rt:
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
            if key != self.d.identity.public_key and self.d.alive(key):
                self.request_catchup(rt, key)
        self.d.views.publish_view(rt, [], at_once=True)

    def _rebuild_failed(self, rt: TableRuntime, work: Rebuilding, reason: str) -> None:
        """The rebuild stops for good (it is not retried); the player's view says why."""
        work.failed, work.running = reason, False
        log.error("table %s: cannot be rebuilt from the other seats: %s", rt.table_hex[:8], reason)
        rt.problems.append(f"cannot rebuild this table: {reason}")
        self.d.views.publish_view(rt, [])

    def request_catchup(self, rt: TableRuntime, key: bytes) -> None:
        """Ask ``key`` for every other seat's messages after the last we hold. Never for our
        own: our records hold every one we sent, and a member that holds more of ours shows
        our records to be an older copy (``own_seq_heard``), which a rebuild mends."""
        for seat in range(4):
            if seat == rt.place:
                continue
            seq = self.d.port.last_seq(rt.session, seat) if rt.session is not None else -1
            self.d.transport.send(key, CatchUp(rt.table_id, seat, seq))
