"""Deterministic randomness from passed-in entropy (``protocol/`` never draws its own).

A seat's daemon hands the deck some bytes from the operating system's generator; tests and
the practice deck hand it fixed bytes. ``Entropy`` stretches them with SHA-512 under a label,
so every secret of a seat (shuffle scalar, permutation, per-position keys, commitment nonces)
comes from one seed, and a replay with the same seed makes the same choices.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from .group import L, scalar_from_wide, scalar_to_int

MIN_ENTROPY_BYTES = 32


@dataclass(frozen=True)
class Entropy:
    """A labelled stream of pseudo-random bytes derived from ``seed`` (at least 32 bytes)."""

    seed: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.seed, bytes) or len(self.seed) < MIN_ENTROPY_BYTES:
            raise ValueError(f"entropy needs at least {MIN_ENTROPY_BYTES} bytes")

    def block(self, label: str, index: int) -> bytes:
        """64 bytes for ``(label, index)``: independent blocks for independent uses."""
        return hashlib.sha512(_tag(label) + index.to_bytes(8, "big") + self.seed).digest()

    def scalar(self, label: str, index: int) -> bytes:
        """A uniform non-zero scalar modulo ``L``."""
        counter = 0
        while True:
            scalar = scalar_from_wide(self.block(f"{label}#{counter}", index))
            if 0 < scalar_to_int(scalar) < L:
                return scalar
            counter += 1  # zero: probability 2**-252

    def below(self, bound: int, label: str, index: int) -> int:
        """A uniform integer in ``[0, bound)`` by rejection sampling (no modulo bias)."""
        return uniform_below(bound, lambda attempt: self.block(f"{label}#{attempt}", index))

    def scalars(self, label: str, count: int) -> tuple[bytes, ...]:
        """``scalar(label, i)`` for ``i`` in ``range(count)`` (the same values, with the
        label encoded once: a seat derives a key per wall position every hand)."""
        first, seed, out = _tag(f"{label}#0"), self.seed, []
        for index in range(count):
            wide = hashlib.sha512(first + index.to_bytes(8, "big") + seed).digest()
            value = int.from_bytes(wide, "little") % L
            out.append(value.to_bytes(32, "little") if value else self.scalar(label, index))
        return tuple(out)

    def permutation(self, size: int, label: str) -> tuple[int, ...]:
        """A uniform permutation of ``range(size)`` (Fisher-Yates); each swap index is
        ``below(i + 1, label, i)``, with the first attempt's label encoded once."""
        items = list(range(size))
        first, seed = _tag(f"{label}#0"), self.seed
        for i in range(size - 1, 0, -1):
            block = hashlib.sha512(first + i.to_bytes(8, "big") + seed).digest()
            j = _first_below(i + 1, block)
            if j is None:  # every value of the first block was rejected: go on as below()
                j = self.below(i + 1, label, i)
            items[i], items[j] = items[j], items[i]
        return tuple(items)


def _tag(label: str) -> bytes:
    tag = label.encode()
    return len(tag).to_bytes(2, "big") + tag


def _first_below(bound: int, block: bytes) -> int | None:
    """The first 8-byte value of ``block``, cut to the bits that cover ``bound``, that is
    below it (None: every one was rejected, another block is needed)."""
    mask = (1 << max(1, (bound - 1).bit_length())) - 1
    for start in range(0, len(block) - 7, 8):
        value = int.from_bytes(block[start : start + 8], "big") & mask
        if value < bound:
            return value
    return None


def uniform_below(bound: int, blocks: Callable[[int], bytes]) -> int:
    """Rejection sampling of ``[0, bound)`` from a function ``attempt -> 64 random bytes``.

    Takes the smallest number of bits that covers ``bound`` and retries values at or above
    it, so every result is exactly equally likely.
    """
    if not 0 < bound <= 2**64:
        raise ValueError("bound must be in 1..2**64")
    attempt = 0
    while True:
        value = _first_below(bound, blocks(attempt))
        if value is not None:
            return value
        attempt += 1
