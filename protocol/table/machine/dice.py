"""The table's side of commit-reveal: this seat's nonce and the echo of the commitments.

The commitments, the seed and every die are protocol/deck's (``commit_reveal.commitment``,
``seed_of``, ``dice.first_east``, ``seat_winds``, ``break_dice``); the table runs the commit,
echo and reveal as its own signed steps. Nonces are derived from a secret the caller passed
in, never drawn here.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence


def derive_nonce(secret: bytes, context: bytes) -> bytes:
    """This seat's nonce for one commit-reveal round (HMAC of its own secret)."""
    return hmac.new(secret, b"fourwinds-dice\0" + context, hashlib.sha256).digest()


def commitments_hash(commitments: Sequence[bytes]) -> bytes:
    """What each seat echoes: the four commitments in seat order."""
    return hashlib.sha256(b"fourwinds-echo\0" + b"".join(commitments)).digest()


def stream(seed: bytes, label: bytes) -> Iterator[int]:
    """An endless stream of bytes from the seed (SHA-256 in counter mode)."""
    counter = 0
    while True:
        block = hashlib.sha256(seed + label + counter.to_bytes(8, "big")).digest()
        yield from block
        counter += 1
