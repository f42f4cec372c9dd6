"""Finding tables on the local network with mDNS/DNS-SD (python-zeroconf, asyncio API).

Each table this daemon hosts is announced as one ``_fourwinds._tcp.local.`` service whose TXT
record carries the table name, rules, free seats, protocol version, the host's key fingerprint
and its full public key (a hint only: trust comes from pinning and the table code), and
``flowers=0`` for an MCR table (or event) without flowers: left out when it has them, so
an older daemon's record reads as before; any other value, or no flowers at another rule set,
makes the record malformed (ignored, logged with the reason). The browser
keeps what it sees in ``seen``. mDNS records of a killed daemon linger for minutes, so whether
a peer is alive is never taken from here but from our own heartbeats (transport.last_seen).

Where multicast is blocked (many venue Wi-Fi networks), ``--peer HOST:PORT`` names a daemon
directly and its key beacon is asked instead; both paths end in the same ``Discovered``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ifaddr
from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf
from zmq.utils import z85

from fourwinds.daemon.checks import (
    RULES_LIMIT,
    TABLE_NAME_LIMIT,
    BadInput,
    checked_host,
    checked_port,
    peer_name,
)
from fourwinds.daemon.identity import BadKey, checked_public_key, fingerprint
from fourwinds.daemon.wire import PROTOCOL_VERSION, TABLE_ID
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.rules_label import flowers_optional

log = logging.getLogger(__name__)

SERVICE = "_fourwinds._tcp.local."
MAX_SEEN_EVENTS = 256   # events others announce, kept at most (anyone may announce)


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
    player: str = ""          # the host's player name, as it announces it (checked, cut)
    flowers: bool = True      # False: an MCR table without flowers (``flowers=0``)

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
    event is opened only from the director's signed creation, daemon/events.py)."""

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
    for adapter in ifaddr.get_adapters():
        if adapter.nice_name == interface or adapter.name == interface:
            for ip in adapter.ips:
                if isinstance(ip.ip, str):
                    return ip.ip
            raise DiscoveryError(f"network interface {interface} has no IPv4 address")
    names = sorted({a.nice_name for a in ifaddr.get_adapters()})
    raise DiscoveryError(f"no network interface named {interface}; have: {', '.join(names)}")


def _txt(announcement: Announcement, public_key: bytes, player: str) -> dict[str, str]:
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


def _event_txt(announcement: EventAnnouncement, public_key: bytes, player: str
               ) -> dict[str, str]:
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
    with its flowers) is True, ``0`` False, ``1`` True; anything else, or no flowers at a
    rule set other than MCR, is refused (ValueError naming why)."""
    value = props.get("flowers")
    if value is None or value == "1":
        return True
    if value != "0":
        raise ValueError(f"flowers is 0 or 1, not {peer_name(value, 8)!r}")
    if not flowers_optional(rules):
        raise ValueError(f"no flowers at a table of {peer_name(rules, RULES_LIMIT)!r}: its "
                         "wall always has its flowers")
    return False


def parse_event(props: dict[str, str], info: AsyncServiceInfo) -> SeenEvent:
    """A ``SeenEvent`` from a resolved event service's TXT (ValueError, KeyError, BadKey or
    BadInput when malformed: each field checked as a table announcement's are)."""
    public_key = checked_public_key(_z85(props["key"]))
    if fingerprint(public_key) != props["fp"]:
        raise ValueError("the fingerprint does not match its key")
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if not addresses or info.port is None:
        raise ValueError("no address")
    event_id = bytes.fromhex(props["event"])
    if len(event_id) != EVENT_ID:
        raise ValueError(f"an event id is {EVENT_ID} bytes")
    rules = peer_name(props["rules"], RULES_LIMIT)
    return SeenEvent(event_id, peer_name(props["name"], TABLE_NAME_LIMIT),
                     rules, props.get("private") == "1",
                     int(props["v"]), public_key, checked_host(addresses[0]),
                     checked_port(info.port), peer_name(props.get("player", "")),
                     parse_flowers(props, rules))


def _props(info: AsyncServiceInfo) -> dict[str, str]:
    props: dict[str, str] = {}
    for key, value in (info.properties or {}).items():
        if isinstance(key, bytes) and isinstance(value, bytes):
            props[key.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
    return props


def _z85(text: str) -> bytes:
    try:
        raw: bytes = z85.decode(text.encode())
    except Exception:   # z85 raises KeyError, ValueError or struct.error on garbage
        raise ValueError("the key is not Z85 text") from None
    return raw


def parse_info(info: AsyncServiceInfo) -> Discovered | None:
    """A ``Discovered`` from a resolved service, or None (logged) if its TXT is malformed.
    Anyone on the LAN may announce anything: the key is checked as every key from the
    network is (identity.checked_public_key), names lose control characters and are cut to
    their limits, the port must be a daemon's (daemon/checks.py)."""
    props = _props(info)
    try:
        public_key = checked_public_key(_z85(props["key"]))
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if not addresses or info.port is None:
            raise ValueError("no address")
        table_id = bytes.fromhex(props["id"])
        if len(table_id) != TABLE_ID:
            raise ValueError(f"a table id is {TABLE_ID} bytes")
        rules = peer_name(props["rules"], RULES_LIMIT)
        found = Discovered(
            table_id=table_id, table=peer_name(props["table"], TABLE_NAME_LIMIT),
            rules=rules, flowers=parse_flowers(props, rules),
            free=int(props["free"]), private=props.get("private") == "1",
            version=int(props["v"]), fingerprint=props["fp"], public_key=public_key,
            host=checked_host(addresses[0]), port=checked_port(info.port),
            player=peer_name(props.get("player", "")))
    except (KeyError, ValueError, BadKey, BadInput) as error:
        log.info("ignoring malformed announcement %r (%s)", peer_name(info.name, 80), error)
        return None
    if fingerprint(public_key) != found.fingerprint:
        log.info("ignoring announcement %r: fingerprint does not match its key",
                 peer_name(info.name, 80))
        return None
    return found


class Discovery:
    """Announce our tables and browse for others'. Construct, then ``await start()``."""

    def __init__(self, public_key: bytes, player: str, port: int,
                 address: str | None = None) -> None:
        self.public_key = public_key
        self.player = player
        self.port = port
        self.address = address
        self.seen: dict[str, Discovered] = {}
        self.seen_events: dict[str, SeenEvent] = {}
        # every announcement resolved (the daemon learns where seated keys are now)
        self.on_found: Callable[[Discovered], None] = lambda found: None
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._announced: dict[bytes, AsyncServiceInfo] = {}
        self._pending: set[Any] = set()

    async def start(self) -> None:
        interfaces: Any = [self.address] if self.address else None
        try:
            self._zc = (AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
                        if interfaces else AsyncZeroconf(ip_version=IPVersion.V4Only))
        except OSError as error:
            raise DiscoveryError(f"cannot start mDNS ({error}); is there a network "
                                 "interface? use --peer HOST:PORT where multicast is blocked"
                                 ) from None
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, [SERVICE],
                                            handlers=[self._on_change])

    def _addresses(self) -> list[bytes]:
        if self.address:
            return [socket.inet_aton(self.address)]
        found = []
        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                    found.append(socket.inet_aton(ip.ip))
        return found or [socket.inet_aton("127.0.0.1")]

    def _info(self, announcement: Announcement) -> AsyncServiceInfo:
        instance = f"{announcement.table[:40]} {announcement.table_id.hex()[:8]}.{SERVICE}"
        return AsyncServiceInfo(
            SERVICE, instance, port=self.port,
            properties=_txt(announcement, self.public_key, self.player),
            addresses=self._addresses(), server=f"fw-{announcement.table_id.hex()[:12]}.local.")

    async def announce(self, announcement: Announcement) -> None:
        """Announce (or update) one hosted table."""
        if self._zc is None:
            return
        info = self._info(announcement)
        if announcement.table_id in self._announced:
            await self._zc.async_update_service(info)
        else:
            await self._zc.async_register_service(info, allow_name_change=True)
        self._announced[announcement.table_id] = info

    async def announce_event(self, announcement: EventAnnouncement) -> None:
        """Announce one event we direct (while it takes entries)."""
        if self._zc is None or announcement.event_id in self._announced:
            return
        instance = f"{announcement.name[:40]} {announcement.event_id.hex()[:8]}.{SERVICE}"
        info = AsyncServiceInfo(
            SERVICE, instance, port=self.port,
            properties=_event_txt(announcement, self.public_key, self.player),
            addresses=self._addresses(), server=f"fw-{announcement.event_id.hex()[:12]}.local.")
        await self._zc.async_register_service(info, allow_name_change=True)
        self._announced[announcement.event_id] = info

    async def withdraw(self, table_id: bytes) -> None:
        info = self._announced.pop(table_id, None)
        if info is not None and self._zc is not None:
            await self._zc.async_unregister_service(info)

    def _on_change(self, zeroconf: Any, service_type: str, name: str,
                   state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            self.seen.pop(name, None)
            self.seen_events.pop(name, None)
            return
        task = asyncio.ensure_future(self._resolve(service_type, name))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _resolve(self, service_type: str, name: str) -> None:
        if self._zc is None:
            return
        info = AsyncServiceInfo(service_type, name)
        if not await info.async_request(self._zc.zeroconf, 3000):
            return
        props = _props(info)
        if props.get("kind") == "event":
            try:
                event = parse_event(props, info)
            except (KeyError, ValueError, BadKey, BadInput) as error:
                log.info("ignoring malformed event announcement %r (%s)",
                         peer_name(name, 80), error)
                return
            if event.public_key != self.public_key and (
                    len(self.seen_events) < MAX_SEEN_EVENTS or name in self.seen_events):
                self.seen_events[name] = event
            return
        found = parse_info(info)
        if found is not None and found.public_key != self.public_key:
            self.seen[name] = found
            self.on_found(found)

    async def close(self) -> None:
        for task in list(self._pending):
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._zc is not None:
            with contextlib.suppress(Exception):
                await self._zc.async_unregister_all_services()
            await self._zc.async_close()
        self._zc = self._browser = None
