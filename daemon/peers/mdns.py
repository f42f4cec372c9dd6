"""Announcing our tables and events and browsing for others' with mDNS/DNS-SD
(python-zeroconf, asyncio API): the ``Discovery`` a daemon runs unless ``--no-mdns``.

What is announced and how a TXT record is read is daemon/peers/discovery.py's; this module holds
the zeroconf side alone, so a daemon without mDNS never imports zeroconf.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from typing import Any

from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from fourwinds.daemon.checks import (
    RULES_LIMIT,
    TABLE_NAME_LIMIT,
    BadInput,
    checked_host,
    checked_port,
    peer_name,
)
from fourwinds.daemon.peers.discovery import (
    EVENT_ID,
    MAX_SEEN_EVENTS,
    SERVICE,
    Announcement,
    Discovered,
    DiscoveryError,
    EventAnnouncement,
    SeenEvent,
    event_txt,
    key_from_z85,
    parse_flowers,
    reachable_addresses,
    table_txt,
)
from fourwinds.daemon.peers.identity import BadKey, checked_public_key, fingerprint
from fourwinds.daemon.peers.wire import TABLE_ID

log = logging.getLogger(__name__)


def parse_event(props: dict[str, str], info: AsyncServiceInfo) -> SeenEvent:
    """A ``SeenEvent`` from a resolved event service's TXT (ValueError, KeyError, BadKey or
    BadInput when malformed: each field checked as a table announcement's are)."""
    public_key = checked_public_key(key_from_z85(props["key"]))
    if fingerprint(public_key) != props["fp"]:
        raise ValueError("the fingerprint does not match its key")
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if not addresses or info.port is None:
        raise ValueError("no address")
    event_id = bytes.fromhex(props["event"])
    if len(event_id) != EVENT_ID:
        raise ValueError(f"an event id is {EVENT_ID} bytes")
    rules = peer_name(props["rules"], RULES_LIMIT)
    return SeenEvent(
        event_id,
        peer_name(props["name"], TABLE_NAME_LIMIT),
        rules,
        props.get("private") == "1",
        int(props["v"]),
        public_key,
        checked_host(addresses[0]),
        checked_port(info.port),
        peer_name(props.get("player", "")),
        parse_flowers(props, rules),
    )


def _props(info: AsyncServiceInfo) -> dict[str, str]:
    props: dict[str, str] = {}
    for key, value in (info.properties or {}).items():
        if isinstance(key, bytes) and isinstance(value, bytes):
            props[key.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
    return props


def parse_info(info: AsyncServiceInfo) -> Discovered | None:
    """A ``Discovered`` from a resolved service, or None (logged) if its TXT is malformed.
    Anyone on the LAN may announce anything: the key is checked as every key from the
    network is (identity.checked_public_key), names lose control characters and are cut to
    their limits, the port must be a daemon's (daemon/checks.py)."""
    props = _props(info)
    try:
        public_key = checked_public_key(key_from_z85(props["key"]))
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if not addresses or info.port is None:
            raise ValueError("no address")
        table_id = bytes.fromhex(props["id"])
        if len(table_id) != TABLE_ID:
            raise ValueError(f"a table id is {TABLE_ID} bytes")
        rules = peer_name(props["rules"], RULES_LIMIT)
        found = Discovered(
            table_id=table_id,
            table=peer_name(props["table"], TABLE_NAME_LIMIT),
            rules=rules,
            flowers=parse_flowers(props, rules),
            free=int(props["free"]),
            private=props.get("private") == "1",
            version=int(props["v"]),
            fingerprint=props["fp"],
            public_key=public_key,
            host=checked_host(addresses[0]),
            port=checked_port(info.port),
            player=peer_name(props.get("player", "")),
        )
    except (KeyError, ValueError, BadKey, BadInput) as error:
        log.info("ignoring malformed announcement %r (%s)", peer_name(info.name, 80), error)
        return None
    if fingerprint(public_key) != found.fingerprint:
        log.info(
            "ignoring announcement %r: fingerprint does not match its key", peer_name(info.name, 80)
        )
        return None
    return found


class Discovery:
    """Announce our tables and browse for others'. Construct, then ``await start()``."""

    def __init__(
        self, public_key: bytes, player: str, port: int, address: str | None = None
    ) -> None:
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
            self._zc = (
                AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
                if interfaces
                else AsyncZeroconf(ip_version=IPVersion.V4Only)
            )
        except OSError as error:
            raise DiscoveryError(
                f"cannot start mDNS ({error}); is there a network "
                "interface? use --peer HOST:PORT where multicast is blocked"
            ) from None
        self._browser = AsyncServiceBrowser(
            self._zc.zeroconf, [SERVICE], handlers=[self._on_change]
        )

    def _addresses(self) -> list[bytes]:
        found = reachable_addresses(self.address or "0.0.0.0")
        return [socket.inet_aton(a) for a in found] or [socket.inet_aton("127.0.0.1")]

    def _info(self, announcement: Announcement) -> AsyncServiceInfo:
        instance = f"{announcement.table[:40]} {announcement.table_id.hex()[:8]}.{SERVICE}"
        return AsyncServiceInfo(
            SERVICE,
            instance,
            port=self.port,
            properties=table_txt(announcement, self.public_key, self.player),
            addresses=self._addresses(),
            server=f"fw-{announcement.table_id.hex()[:12]}.local.",
        )

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
            SERVICE,
            instance,
            port=self.port,
            properties=event_txt(announcement, self.public_key, self.player),
            addresses=self._addresses(),
            server=f"fw-{announcement.event_id.hex()[:12]}.local.",
        )
        await self._zc.async_register_service(info, allow_name_change=True)
        self._announced[announcement.event_id] = info

    async def withdraw(self, table_id: bytes) -> None:
        info = self._announced.pop(table_id, None)
        if info is not None and self._zc is not None:
            await self._zc.async_unregister_service(info)

    def _on_change(
        self, zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
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
                log.info(
                    "ignoring malformed event announcement %r (%s)", peer_name(name, 80), error
                )
                return
            if event.public_key != self.public_key and (
                len(self.seen_events) < MAX_SEEN_EVENTS or name in self.seen_events
            ):
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
