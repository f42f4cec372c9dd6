"""Where each other seat can be reached: the addresses a table keeps for each of its members.

A seat remembers, for every other seat, the addresses it has reached it at, most recent
first and at most ``MAX_ADDRESSES`` of them, so a restarted daemon can dial all of them and
one that moved (a laptop on another network, a new DHCP lease) is found again at a new one.
Where an address comes from decides whether it is kept:

* ``Source.HEARD``: a connection of that seat came from this address (its peer port from its
  ``Hello``): first hand. ``Source.DIALLED``: we completed a CURVE handshake with its key at
  this address: proven. Both are *verified*.
* ``Source.TOLD``: the seat itself, or the table's host in its roster, said so; ``MDNS`` and
  ``BEACON``: an announcement or a key beacon gave it. Hints only (CURVE still decides who
  answers there), kept *unverified*.

A wildcard (``0.0.0.0``, ``::``: a bind address, reachable nowhere) is never kept, nor a
port 0, nor a multicast or broadcast address; a loopback address only when first hand or told
by a seat that is itself reached over loopback (on another machine it would be our own). New
hints never push out more than one verified address: when the list is full, the oldest
unverified entry goes first.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from fourwinds.daemon.checks import BadInput, checked_host

MAX_ADDRESSES = 8
OWN_TTL_S = 5.0


class Source(Enum):
    """How an address of a seat was learned (see the module docstring)."""

    HEARD = "heard"
    DIALLED = "dialled"
    TOLD = "told"
    MDNS = "mdns"
    BEACON = "beacon"

    @property
    def verified(self) -> bool:
        return self in (Source.HEARD, Source.DIALLED)


@dataclass(frozen=True)
class Address:
    """One address of a seat's peer socket."""

    host: str
    port: int
    verified: bool = False

    @property
    def where(self) -> tuple[str, int]:
        return self.host, self.port

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    address = _ip(host)
    return (address is not None and address.is_loopback) or host == "localhost"


def usable(host: str, port: int, source: Source, via: str | None = None) -> bool:
    """May an address learned from ``source`` be kept and dialled? ``via``: the address of
    the connection that told it (a loopback address is ours unless that one is too)."""
    if not isinstance(host, str) or not host or len(host) > 255 or host in ("?", "*"):
        return False
    try:
        checked_host(host)  # an address or a DNS name that parses (daemon/checks.py)
    except BadInput:
        return False
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65535:
        return False
    address = _ip(host)
    if address is not None and (
        address.is_unspecified or address.is_multicast or str(address) == "255.255.255.255"
    ):
        return False
    if is_loopback(host) and not source.verified:
        return source is not Source.MDNS and via is not None and is_loopback(via)
    return True


def remember(
    known: Sequence[Address], new: Address, limit: int = MAX_ADDRESSES
) -> tuple[Address, ...]:
    """``known`` with ``new`` first (once verified, an address stays verified); when over
    ``limit``, the oldest unverified entry is dropped, else the oldest entry."""
    old = next((a for a in known if a.where == new.where), None)
    entry = Address(new.host, new.port, new.verified or (old is not None and old.verified))
    rest = [a for a in known if a.where != new.where]
    if old is not None and not new.verified:
        # a hint about an address we know: keep its place (a hint never outranks a proof)
        out = [entry if a.where == new.where else a for a in known]
    else:
        out = [entry, *rest]
    while len(out) > limit:
        unverified = [i for i, a in enumerate(out) if not a.verified and i > 0]
        del out[unverified[-1] if unverified else len(out) - 1]
    return tuple(out)


def merge(lists: Iterable[Sequence[Address]]) -> tuple[Address, ...]:
    """Several tables' lists for one seat as one, in order of first appearance."""
    out: dict[tuple[str, int], Address] = {}
    for known in lists:
        for a in known:
            if a.where not in out or (a.verified and not out[a.where].verified):
                out[a.where] = a if a.where not in out else Address(a.host, a.port, True)
    return tuple(out.values())


def plain(known: Sequence[Address]) -> list[list[object]]:
    """For ``meta.msgpack``: ``[[host, port, verified], ...]``."""
    return [[a.host, a.port, a.verified] for a in known]


def from_plain(value: object) -> tuple[Address, ...]:
    """Back from ``plain`` (malformed or unusable entries are skipped)."""
    out: list[Address] = []
    if not isinstance(value, list):
        return ()
    for item in value[:MAX_ADDRESSES]:
        if (
            isinstance(item, list)
            and len(item) == 3
            and isinstance(item[0], str)
            and isinstance(item[1], int)
            and isinstance(item[2], bool)
            and usable(item[0], item[1], Source.HEARD)
        ):
            out.append(Address(item[0], item[1], item[2]))
    return tuple(out)


class OwnAddresses:
    """The addresses this daemon can be reached at, to tell its peers: the bound address,
    or with a wildcard bind every interface's IPv4 address (re-read every few seconds: a
    laptop moves)."""

    def __init__(self) -> None:
        self._cached: tuple[float, tuple[tuple[str, int], ...]] | None = None

    def get(self, bound: str, port: int) -> tuple[tuple[str, int], ...]:
        ip = _ip(bound)
        if ip is not None and not ip.is_unspecified:
            return ((bound, port),)
        now = time.monotonic()
        if self._cached is None or now - self._cached[0] > OWN_TTL_S:
            import ifaddr  # late: a daemon bound to one address never lists the adapters

            found: list[tuple[str, int]] = []
            for adapter in ifaddr.get_adapters():
                for entry in adapter.ips:
                    if isinstance(entry.ip, str) and (entry.ip, port) not in found:
                        found.append((entry.ip, port))
            # loopback last: only a peer on this machine can use it
            found.sort(key=lambda a: is_loopback(a[0]))
            self._cached = (now, tuple(found[:MAX_ADDRESSES]))
        return self._cached[1]
