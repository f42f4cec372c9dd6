"""Who may connect to us, and as what: ``Admission``.

A connection's CURVE key is let in as ``PINNED`` when it is the key of a seat at one of our
tables (or of a host we are joining, a ``--peer`` kept for a lost table, a tournament's
member), as ``GUEST`` while we host a table with a free seat or an event that takes
entries (its frames rate-limited, what it makes us keep bounded), and refused otherwise.
Each pinned CURVE key is mapped back to its seat's Ed25519 key (``key_of``), and a seat is
``alive`` while its connection's heartbeats arrive.

``Admission`` reaches the rest of the daemon only through ``AdmissionHost``.
"""

from __future__ import annotations

from typing import Protocol

from fourwinds.daemon.peers.identity import Identity, curve_public_from_ed25519
from fourwinds.daemon.peers.transport import GUEST, PINNED, Sender, Transport
from fourwinds.daemon.table_runtimes.runtime import TableRuntime


class RecoveryPeers(Protocol):
    """The ``--peer`` keys kept for a table we lost (peers/whereabouts.py)."""

    recovery_peers: dict[bytes, tuple[str, int]]


class EventMembers(Protocol):
    """The tournament's side of admission (daemon/events/held.py)."""

    def pinned(self) -> set[bytes]: ...
    def admits_guests(self) -> bool: ...


class PeerMemory(Protocol):
    """What the frame router keeps of each peer (peers/frames_in.py)."""

    addresses: dict[bytes, tuple[str, int]]
    last_refusal: dict[bytes, str]


class AdmissionHost(Protocol):
    """The daemon as ``Admission`` sees it."""

    identity: Identity
    transport: Transport
    tables: dict[bytes, TableRuntime]
    names: dict[bytes, str]

    @property
    def whereabouts(self) -> RecoveryPeers: ...
    @property
    def events(self) -> EventMembers: ...
    @property
    def frames(self) -> PeerMemory: ...


class Admission:
    """The transport's admission policy, and the keys it pinned."""

    def __init__(self, host: AdmissionHost) -> None:
        self.d = host
        self.curve_to_key: dict[bytes, bytes] = {}  # CURVE key -> Ed25519 key
        self.pairing_hosts: set[bytes] = set()  # keys we are joining (pinned meanwhile)

    def pinned_keys(self) -> set[bytes]:
        """Every key let in as ``PINNED``: our tables' seats, the hosts we are joining, the
        ``--peer`` keys kept for a lost table and the tournaments' members (not ours)."""
        keys = set(self.pairing_hosts) | set(self.d.whereabouts.recovery_peers)
        keys |= self.d.events.pinned()
        for rt in self.d.tables.values():
            keys.update(rt.members)
        keys.discard(self.d.identity.public_key)
        return keys

    def hosts_open_table(self) -> bool:
        """Do we host a table with a free seat (a joiner may then connect as a guest)?"""
        return any(
            rt.host_key == self.d.identity.public_key and len(rt.members) < 4
            for rt in self.d.tables.values()
        )

    def hosted_tables(self) -> list[tuple[bytes, int, str, str, bool, bool]]:
        """The tables we host, as the key beacon lists them (id, free seats, name, rules,
        private, flowers)."""
        return [
            (rt.table_id, 4 - len(rt.members), rt.name, rt.rules, rt.private, rt.flowers)
            for rt in self.d.tables.values()
            if rt.host_key == self.d.identity.public_key
        ]

    def policy(self, curve_key: bytes) -> str | None:
        """How the connection of ``curve_key`` is let in: ``PINNED``, ``GUEST`` or None."""
        for key in self.pinned_keys():
            if curve_public_from_ed25519(key) == curve_key:
                self.curve_to_key[curve_key] = key
                return PINNED
        return GUEST if self.hosts_open_table() or self.d.events.admits_guests() else None

    def still_guest(self, curve_key: bytes) -> bool:
        """Is the key of this connection (admitted as a guest) still not seated at any of
        our tables? (Its frames are then rate-limited: transport.GUEST_FRAME_RATE.)"""
        key = self.curve_to_key.get(curve_key)
        return key is None or key not in self.pinned_keys()

    def forget_guest(self, key: bytes) -> None:
        """The connection back to a guest was closed (its pairing time is over, or room was
        made): forget what we kept for it, unless it was seated meanwhile. What a stranger
        makes us keep stays bounded (transport.GUEST_LINKS)."""
        if key in self.pinned_keys():
            return
        self.d.names.pop(key, None)
        self.d.frames.addresses.pop(key, None)
        self.d.frames.last_refusal.pop(key, None)
        for curve_key in [c for c, k in self.curve_to_key.items() if k == key]:
            del self.curve_to_key[curve_key]

    def key_of(self, sender: Sender) -> bytes | None:
        """The Ed25519 key of a pinned connection's sender (None for a guest not yet
        known)."""
        return self.curve_to_key.get(sender.curve_key)

    def alive(self, key: bytes) -> bool:
        """Is the seat ``key`` heard from now (its heartbeats arrive)? We always are."""
        return key == self.d.identity.public_key or self.d.transport.alive(
            curve_public_from_ed25519(key)
        )
