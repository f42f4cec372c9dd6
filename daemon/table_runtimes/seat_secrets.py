"""A seat's private randomness, derived from its identity key and the table (HKDF-SHA256).

Everything only one seat knows at a table (its genesis secret, and from it the dice nonces and
the masked deck's per-hand secrets: protocol/table/machine/lobby.py ``derive_secret``, dice.py
``derive_nonce``, masked.py ``start_wall``) grows from the ``entropy`` the daemon hands the
pure session when it opens or joins the table. Deriving that entropy from the seat's Ed25519
identity seed and the table's id, instead of drawing it from the system, means a seat whose
record log was damaged or lost can compute every one of those secrets again from the key
alone, and rebuild its table from the messages its peers hold (table_runtimes/rebuild.py). The
table id is the one every seat files the table under (16 random bytes the host drew at
``create``), so the creator's secret, which the protocol's own table id is hashed from, does
not depend on that id. Why this is as secret as the key, and what it does not protect
against: docs/SECURITY.md, "Secrets derived from the identity key".
"""

from __future__ import annotations

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

SALT = b"fourwinds seat entropy v1"
LENGTH = 64


def seat_entropy(identity_seed: bytes, table_id: bytes) -> bytes:
    """The 64 bytes of entropy this identity uses at the table ``table_id`` (the daemon's
    16-byte id): the same every time, for this key and this table only."""
    if len(identity_seed) != 32:
        raise ValueError("an identity seed is 32 bytes")
    if len(table_id) != 16:
        raise ValueError("a table id is 16 bytes")
    hkdf = HKDF(
        algorithm=hashes.SHA256(), length=LENGTH, salt=SALT, info=b"fourwinds table\0" + table_id
    )
    return hkdf.derive(identity_seed)
