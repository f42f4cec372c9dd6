"""Validation at the edges: names and addresses, checked once where they enter the daemon.

Everything a peer, an announcement, a key beacon, the local API or a file hands us is
checked by one function per kind before anything stores or uses it (keys:
``identity.checked_public_key``; names and addresses: here; table options:
``protocol.table.machine.options.checked``). A problem is a ``BadInput`` whose ``reason`` is one
line for the user or the log (docs/DAEMON.md, "Validation at the edges").

Names (players, tables) lose every control, format and separator character (an escape
sequence in a name would otherwise reach every terminal that shows it) and surrounding or
repeated white space; a name from a peer is then cut to its limit, one from our own user is
refused when too long. A host is an IP address or a DNS name that parses; a port is 1-65534
(a daemon also listens on the next port, for its key beacon).
"""

from __future__ import annotations

import ipaddress
import re

from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.text import clean_text, shown_name

PLAYER_NAME_LIMIT = 32
TABLE_NAME_LIMIT = 60
RULES_LIMIT = 16
HOST_LIMIT = 253
MAX_PORT = 65534
"""Highest peer port: the key beacon listens on the port after it."""

_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


class BadInput(FourwindsError):
    """A name or address we refuse; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def peer_name(value: object, limit: int = PLAYER_NAME_LIMIT) -> str:
    """A name a peer, an announcement or a beacon gave: cleaned and cut to ``limit``
    ("" for something that is not text at all)."""
    return shown_name(value, limit)


def local_name(value: object, what: str, limit: int) -> str:
    """A name our own user gave (the local API, the config file, ``--name``): cleaned;
    ``BadInput`` when it is not text, empty once cleaned, or over ``limit`` characters."""
    if not isinstance(value, str):
        raise BadInput(f"'{what}' must be a string")
    cleaned = clean_text(value)
    if not cleaned:
        raise BadInput(f"'{what}' must be a non-empty string")
    if len(cleaned) > limit:
        raise BadInput(f"'{what}' is over {limit} characters")
    return cleaned


def checked_host(value: object, what: str = "host") -> str:
    """An IP address (IPv6 with or without brackets) or a DNS name that parses."""
    if not isinstance(value, str):
        raise BadInput(f"'{what}' must be a host name or address")
    host = value.strip()
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        address = None
    if address is not None:
        if address.is_unspecified or address.is_multicast:
            raise BadInput(f"'{what}' {bare} is not the address of one machine")
        return str(address)
    name = host.removesuffix(".")
    if not name or len(name) > HOST_LIMIT or not all(_LABEL.match(p) for p in name.split(".")):
        raise BadInput(f"'{what}' {value[:64]!r} is neither an IP address nor a host name")
    return name


def checked_port(value: object, what: str = "port") -> int:
    """A daemon's peer port: an integer 1-65534 (the key beacon is on the next one)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_PORT:
        raise BadInput(f"'{what}' must be a port number 1-{MAX_PORT}, not {value!r}"[:120])
    return value


def checked_address(host: object, port: object) -> tuple[str, int]:
    """(host, port) of a daemon, each checked (see ``checked_host``, ``checked_port``)."""
    return checked_host(host), checked_port(port)


def parse_host_port(text: str, what: str = "peer") -> tuple[str, int]:
    """``HOST:PORT`` (``[V6]:PORT`` for an IPv6 address) -> (host, port), checked."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit():
        raise BadInput(f"{what} {text[:64]!r}: expected HOST:PORT, e.g. 192.168.1.20:7420")
    try:
        return checked_address(host, int(port))
    except BadInput as error:
        raise BadInput(f"{what} {text[:64]!r}: {error.reason}") from None
