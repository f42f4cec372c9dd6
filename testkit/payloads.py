"""Table payloads as tests read them off the wire (protocol/table/wire/envelope.py)."""

from __future__ import annotations

from fourwinds.protocol.table.wire.envelope import is_bundle, unbundle


def unbundled(payload: bytes) -> bytes:
    """The message a payload delivers: a bundle's own message without the ones it carries, or
    the payload itself when it is a single message."""
    return unbundle(payload)[0] if is_bundle(payload) else payload
