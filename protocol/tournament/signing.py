"""Signing tournament records, and the ids every record names.

The keys are the players' identity keys, the very ones that sign their table messages
(protocol/table/wire/signing.py, Ed25519 through libsodium); they are passed in, never read from
a file here. The event's id is the SHA-256 of its signed ``Create``, so nobody can choose it
and every other record names it; a table of the event plays under ``table_id(event, round,
table)``, so its transcript's every signed message names the event too.
"""

from __future__ import annotations

import hashlib

from fourwinds.protocol.table.wire.signing import SigningKey, Verifier

from .record_wire import signed_bytes
from .records import TABLE_ID_LEN, Body, Create, Record


def event_id(create: Create) -> bytes:
    """The event's id: the hash of its creation record's signed bytes."""
    return hashlib.sha256(b"fourwinds-tournament-event\0" + signed_bytes(create)).digest()


def table_id(event: bytes, round_index: int, table: int, part: int = 0) -> bytes:
    """The protocol table id of a table of the event (what its transcript's messages sign).
    ``part`` 1 is the table going on after a substitute took a seat (records.Substitute): a
    new fourwinds table, so the transcript of the hands before stays as its four signed it."""
    data = b"fourwinds-tournament-table\0" + event + round_index.to_bytes(2, "big")
    data += table.to_bytes(2, "big")
    if part:
        data += b"\0part" + part.to_bytes(2, "big")
    return hashlib.sha256(data).digest()[:TABLE_ID_LEN]


def signature(body: Body, key: SigningKey) -> bytes:
    """``key``'s signature of the body."""
    return key.sign(signed_bytes(body))


def signed(body: Body, *keys: SigningKey) -> Record:
    """The record of ``body`` signed by ``keys`` in order (a result: its seats E, S, W, N)."""
    data = signed_bytes(body)
    return Record(body, tuple(key.sign(data) for key in keys))


def signed_by(body: Body, sig: bytes | None, public_key: bytes) -> bool:
    """Whether ``sig`` is ``public_key``'s signature of the body (False for no signature or
    a key that is not an Ed25519 key)."""
    if sig is None:
        return False
    try:
        verifier = Verifier.from_bytes(public_key)
    except ValueError:
        return False
    return verifier.check(sig, signed_bytes(body))
