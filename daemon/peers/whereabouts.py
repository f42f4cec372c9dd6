"""Where the other seats are, and keeping them dialled there: ``Whereabouts``.

Every address a seat is learned at (a connection's ``Hello``, a completed handshake, an mDNS
announcement, a ``--peer``'s key beacon, a roster) goes through ``learn``, which keeps it at
each table the seat sits at (``reach.py`` says which are kept) and dials the seat there. The
``--peer`` daemons (given at start, or later by the local API's ``peer`` request) are probed
here too: their key beacons list their tables where multicast is blocked, and one whose key
sits at none of our tables is pinned and dialled in case it holds a table we lost.

``Whereabouts`` reaches the rest of the daemon only through ``WhereaboutsHost``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Protocol

from fourwinds.daemon.local_api.server import ApiError, Message
from fourwinds.daemon.peers import reach
from fourwinds.daemon.peers.discovery import Discovered
from fourwinds.daemon.peers.identity import Identity, curve_public_from_ed25519, fingerprint
from fourwinds.daemon.peers.reach import Address, Source
from fourwinds.daemon.peers.transport import Transport, TransportError
from fourwinds.daemon.peers.wire import PROTOCOL_VERSION
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.protocol.table.rules.rules_label import rules_label

log = logging.getLogger("fourwinds.daemon.app")
"""Named as the daemon's own lines were before these moved out of daemon/app.py: the log
reads the same (its format names the logger)."""

PROBE_S = 5.0
MAX_RECOVERY_PEERS = 8  # --peer keys at none of our tables, pinned (see recovery_peers)


class RosterSender(Protocol):
    """The frame router (peers/frames_in.py): a table we host sends its roster again."""

    def send_roster(self, rt: TableRuntime) -> None: ...


class SavesMeta(Protocol):
    """Each table's metadata written behind (table_runtimes/meta_writes.py)."""

    def save_soon(self, rt: TableRuntime) -> None: ...


class WhereaboutsHost(Protocol):
    """The daemon as ``Whereabouts`` sees it."""

    identity: Identity
    transport: Transport
    tables: dict[bytes, TableRuntime]
    names: dict[bytes, str]

    @property
    def frames(self) -> RosterSender: ...
    @property
    def meta_writes(self) -> SavesMeta: ...


class Whereabouts:
    """The addresses of the seats at our tables, and the ``--peer`` daemons we probe."""

    def __init__(self, host: WhereaboutsHost) -> None:
        self.d = host
        self.manual_peers: tuple[tuple[str, int], ...] = ()
        self.manual_seen: dict[str, Any] = {}
        self.manual_tables: dict[str, list[dict[str, Any]]] = {}
        # keys a --peer's beacon answered with that sit at none of our tables: pinned and
        # dialled, so a daemon that lost a table's folder hears of it again (rebuild.py)
        self.recovery_peers: dict[bytes, tuple[str, int]] = {}
        self.probes: list[asyncio.Task[None]] = []  # cancelled when the daemon closes
        self._started_at = time.monotonic()

    # -- where the other seats are ---------------------------------------------------------

    def learn(
        self, key: bytes, host: str, port: int, source: Source, via: str | None = None
    ) -> None:
        """An address of the seat ``key`` (see reach.py for what is kept): every table it
        sits at remembers it (the metadata is written in the background) and it is dialled
        there too."""
        if key == self.d.identity.public_key or not reach.usable(host, port, source, via):
            return
        address = Address(host, port, source.verified)
        seated = False
        for rt in self.d.tables.values():
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
                    self.d.meta_writes.save_soon(rt)
                    if (
                        source.verified
                        and rt.host_key == self.d.identity.public_key
                        and rt.members[key] == address.where
                    ):
                        # we host it: a seat reached at a new address (restarted on another
                        # port, on another network) is where the others can find it too
                        # when mDNS cannot tell them (`play`'s bot seats, a venue's --peer)
                        self.d.frames.send_roster(rt)
        if seated:
            self.dial_member(key)

    def known_addresses(self, key: bytes) -> tuple[Address, ...]:
        """Every address our tables know for the seat ``key``, newest first."""
        lists = []
        for rt in self.d.tables.values():
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
            self.d.transport.dial(key, addresses)

    def connect_members(self, rt: TableRuntime) -> None:
        """Keep every other seat of ``rt`` dialled."""
        for key in rt.members:
            if key != self.d.identity.public_key:
                self.dial_member(key)

    def reached(self, key: bytes, host: str, port: int) -> None:
        """Our connection to ``key`` at ``host:port`` completed its CURVE handshake."""
        self.learn(key, host, port, Source.DIALLED)

    def announced(self, found: Discovered) -> None:
        """An mDNS announcement by a key seated at one of our tables: where it is now."""
        self.learn(found.public_key, found.host, found.port, Source.MDNS)

    def last_address(self, rt: TableRuntime, key: bytes) -> str:
        """Where the seat ``key`` was last reached ("" when never)."""
        known = rt.addresses.get(key, ())
        best = next((a for a in known if a.verified), known[0] if known else None)
        return "" if best is None else str(best)

    def unreachable_for(self, key: bytes, now: float) -> float:
        """Seconds since the seat ``key`` was last heard from (or since we started)."""
        seen = self.d.transport.last_seen.get(curve_public_from_ed25519(key))
        return max(0.0, now - max(seen or 0.0, self._started_at))

    # -- the --peer daemons ----------------------------------------------------------------

    def probe_all(self, peers: tuple[tuple[str, int], ...]) -> None:
        """Probe the ``--peer`` daemons given at start (``probe``)."""
        self.manual_peers = peers
        for host, peer_port in peers:
            self.probes.append(asyncio.create_task(self.probe(host, peer_port)))

    def peer_request(self, request: Message) -> Message:
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
        self.probes.append(asyncio.create_task(self.probe(host, peer_port), name="probe"))
        return True

    async def probe(self, host: str, peer_port: int) -> None:
        """A ``--peer``: ask its key beacon for its key and tables every few seconds, so its
        tables are listed and joinable like announced ones (errors back off, up to 30 s)."""
        where = f"{host}:{peer_port}"
        delay = 0.5
        while True:
            try:
                info = await self.d.transport.fetch_key(host, peer_port)
            except TransportError as error:
                log.warning("--peer %s: %s", where, error)
                self.manual_seen[where] = {"error": str(error)}
                self.manual_tables.pop(where, None)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)
                continue
            delay = 0.5
            key = info.public_key
            self.d.names[key] = info.name
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
        if key == self.d.identity.public_key or any(
            key in rt.members for rt in self.d.tables.values()
        ):
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
            self.d.transport.dial(key, [(host, peer_port)])
