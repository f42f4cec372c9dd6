"""Commit-reveal randomness for the table (East for the match, the dice of each hand).

Built to the fair-deck issue's description (protocol/deck will hold the shared version; the
table uses this one until then): every seat commits ``H(context, seat, nonce)``; once all four
commitments are in, each echoes the hash of the set it saw (so nobody showed different
commitments to different seats); then all reveal; the seed is the hash of the four nonces in
seat order, and dice come from it by rejection sampling. Nonces are derived from a secret the
caller passed in, never drawn here.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence


def derive_nonce(secret: bytes, context: bytes) -> bytes:
    """This seat's nonce for one commit-reveal round (HMAC of its own secret)."""
    return hmac.new(secret, b"fourwinds-dice\0" + context, hashlib.sha256).digest()


def commitment(context: bytes, seat: int, nonce: bytes) -> bytes:
    return hashlib.sha256(b"fourwinds-commit\0" + context + bytes([seat]) + nonce).digest()


def commitments_hash(commitments: Sequence[bytes]) -> bytes:
    """What each seat echoes: the four commitments in seat order."""
    return hashlib.sha256(b"fourwinds-echo\0" + b"".join(commitments)).digest()


def seed_from(context: bytes, nonces: Sequence[bytes]) -> bytes:
    return hashlib.sha256(b"fourwinds-seed\0" + context + b"".join(nonces)).digest()


def stream(seed: bytes, label: bytes) -> Iterator[int]:
    """An endless stream of bytes from the seed (SHA-256 in counter mode)."""
    counter = 0
    while True:
        block = hashlib.sha256(seed + label + counter.to_bytes(8, "big")).digest()
        yield from block
        counter += 1


def below(source: Iterator[int], n: int) -> int:
    """A uniform integer in 0..n-1 by rejection sampling (n <= 65536)."""
    if not 1 <= n <= 65536:
        raise ValueError("n must be 1..65536")
    limit = 65536 - 65536 % n
    while True:
        value = next(source) << 8 | next(source)
        if value < limit:
            return value % n


def dice(seed: bytes, count: int, label: bytes = b"dice") -> tuple[int, ...]:
    source = stream(seed, label)
    return tuple(below(source, 6) + 1 for _ in range(count))


def first_east(seed: bytes) -> int:
    """The table place that is East for the first hand: a die read 1-4, 5-6 rolled again."""
    source = stream(seed, b"east")
    while True:
        roll = below(source, 6)
        if roll < 4:
            return roll


def permutation(seed: bytes, n: int, label: bytes) -> tuple[int, ...]:
    """A uniform permutation of range(n) (Fisher-Yates driven by the seed)."""
    source = stream(seed, label)
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = below(source, i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items)
