"""Finding tables on the local network with mDNS/DNS-SD (python-zeroconf, asyncio API).

Each table this daemon hosts is announced as one ``_fourwinds._tcp.local.`` service whose TXT
record carries the table name, rules, free seats, protocol version, the host's key fingerprint
and its full public key (a hint only: trust comes from pinning and the table code), and
``flowers=0`` for a table (or event) without flowers: left out when it has them, so an
older daemon's record reads as before; any other value makes the record malformed (ignored,
logged with the reason). The browser
keeps what it sees in ``seen``. mDNS records of a killed daemon linger for minutes, so whether
a peer is alive is never taken from here but from our own heartbeats (transport.last_seen).

Where multicast is blocked (many venue Wi-Fi networks), ``--peer HOST:PORT`` names a daemon
directly and its key beacon is asked instead; both paths end in the same ``Discovered``.

This module is what both paths share (the announcements, the TXT record both ways); the
mDNS side itself, which needs python-zeroconf, is daemon/peers/mdns.py, imported only by a daemon
that announces and browses: most daemons of the test suite and every ``--no-mdns`` one start
~20 ms of CPU sooner without it.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
from dataclasses import dataclass

from zmq.utils import z85

from fourwinds.daemon.checks import (
    peer_name,
)
from fourwinds.daemon.peers.identity import fingerprint
from fourwinds.daemon.peers.wire import PROTOCOL_VERSION
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)

SERVICE = "_fourwinds._tcp.local."
MAX_SEEN_EVENTS = 256  # events others announce, kept at most (anyone may announce)


class DiscoveryError(FourwindsError):
    """Discovery cannot run (e.g. no such network interface)."""


@dataclass(frozen=True)
class Announcement:
    """One hosted table as announced."""

    table_id: bytes
    table: str
    rules: str
    free: int
    private: bool
    flowers: bool = True


@dataclass(frozen=True)
class Discovered:
    """A table another daemon announces (or one we were told about with --peer)."""

    table_id: bytes
    table: str
    rules: str
    free: int
    private: bool
    version: int
    fingerprint: str
    public_key: bytes
    host: str
    port: int
    player: str = ""  # the host's player name, as it announces it (checked, cut)
    flowers: bool = True  # False: an MCR table without flowers (``flowers=0``)

    @property
    def compatible(self) -> bool:
        return self.version == PROTOCOL_VERSION


@dataclass(frozen=True)
class EventAnnouncement:
    """One tournament event we direct, as announced while it takes entries: one service an
    event, however many tables its rounds have (docs/TOURNAMENT.md)."""

    event_id: bytes
    name: str
    rules: str
    private: bool
    flowers: bool = True


@dataclass(frozen=True)
class SeenEvent:
    """An event another daemon announces: where its director listens (hints only: the
    event is opened only from the director's signed creation, daemon/events/held.py)."""

    event_id: bytes
    name: str
    rules: str
    private: bool
    version: int
    public_key: bytes
    host: str
    port: int
    director: str = ""
    flowers: bool = True


EVENT_ID = 32


def interface_address(interface: str | None) -> str | None:
    """The IPv4 address for ``--interface`` (a name like ``eth0`` or an address)."""
    if interface is None:
        return None
    with contextlib.suppress(ValueError):
        return str(ipaddress.IPv4Address(interface))
    import ifaddr  # late: only an interface given by its name needs the adapters

    for adapter in ifaddr.get_adapters():
        if adapter.nice_name == interface or adapter.name == interface:
            for ip in adapter.ips:
                if isinstance(ip.ip, str):
                    return ip.ip
            raise DiscoveryError(f"network interface {interface} has no IPv4 address")
    names = sorted({a.nice_name for a in ifaddr.get_adapters()})
    raise DiscoveryError(f"no network interface named {interface}; have: {', '.join(names)}")


def reachable_addresses(bound: str) -> list[str]:
    """The IPv4 addresses other machines may reach a socket bound to ``bound`` at: ``bound``
    itself when it is one address; for 0.0.0.0, every adapter's IPv4 address but loopback's,
    sorted (none when the machine has no network but loopback). What a director tells the
    players to give as ``--peer`` where multicast is blocked, and what mDNS announces."""
    if bound != "0.0.0.0":
        return [bound]
    import ifaddr  # late: only a status or an announcement asks for the adapters

    return sorted(
        {
            ip.ip
            for adapter in ifaddr.get_adapters()
            for ip in adapter.ips
            if isinstance(ip.ip, str) and not ip.ip.startswith("127.")
        }
    )


def table_txt(announcement: Announcement, public_key: bytes, player: str) -> dict[str, str]:
    return {
        "v": str(PROTOCOL_VERSION),
        "id": announcement.table_id.hex(),
        "table": announcement.table[:60],
        "rules": announcement.rules,
        "free": str(announcement.free),
        "private": "1" if announcement.private else "0",
        "fp": fingerprint(public_key),
        "key": z85.encode(public_key).decode(),
        "player": player[:40],
        **({} if announcement.flowers else {"flowers": "0"}),
    }


def event_txt(announcement: EventAnnouncement, public_key: bytes, player: str) -> dict[str, str]:
    """An event's TXT: ``kind=event`` and its 32-byte id (a daemon before events reads it as
    a malformed table announcement and ignores it)."""
    return {
        "v": str(PROTOCOL_VERSION),
        "kind": "event",
        "event": announcement.event_id.hex(),
        "name": announcement.name[:60],
        "rules": announcement.rules,
        "private": "1" if announcement.private else "0",
        "fp": fingerprint(public_key),
        "key": z85.encode(public_key).decode(),
        "player": player[:40],
        **({} if announcement.flowers else {"flowers": "0"}),
    }


def parse_flowers(props: dict[str, str], rules: str) -> bool:
    """The ``flowers`` field of a TXT record: absent (an older daemon's record, or a table
    with its flowers) is True, ``0`` False, ``1`` True; anything else is refused (ValueError
    naming why). Not checked against the rules: a rule set may play a wall without flowers
    by nature (a house rule set loaded by FOURWINDS_RULESETS), and what is announced is a
    hint for the lobby, the table's Open decides its wall (a joiner refuses options its rule
    set does not have)."""
    value = props.get("flowers")
    if value is None or value == "1":
        return True
    if value != "0":
        raise ValueError(f"flowers is 0 or 1, not {peer_name(value, 8)!r}")
    return False


def key_from_z85(text: str) -> bytes:
    try:
        raw: bytes = z85.decode(text.encode())
    except Exception:  # z85 raises KeyError, ValueError or struct.error on garbage
        raise ValueError("the key is not Z85 text") from None
    return raw
