"""A deterministic stream of pseudo-random numbers derived from seed bytes.

``protocol/`` draws no randomness of its own: the seating of a tournament must come out the
same on every entrant's daemon, so every choice the seating method makes by chance comes
from this stream, stretched from the seed the entrants made together (SHA-512 in counter
mode under a label, so independent uses of one seed draw independent numbers).
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_WORDS_PER_BLOCK = 8  # a SHA-512 digest gives eight 64-bit words


class SeedStream:
    """Uniform integers from ``seed`` under ``label``; the same pair gives the same numbers."""

    def __init__(self, seed: bytes, label: str) -> None:
        tag = label.encode()
        self._prefix = len(tag).to_bytes(2, "big") + tag
        self._seed = bytes(seed)
        self._counter = 0
        self._words: list[int] = []

    def _word(self) -> int:
        if not self._words:
            block = hashlib.sha512(
                self._prefix + self._counter.to_bytes(8, "big") + self._seed
            ).digest()
            self._counter += 1
            self._words = [int.from_bytes(block[i : i + 8], "big") for i in range(56, -1, -8)]
        return self._words.pop()

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)`` (rejection sampling: no modulo bias)."""
        if not 0 < bound <= 2**64:
            raise ValueError("bound must be in 1..2**64")
        mask = (1 << max(1, (bound - 1).bit_length())) - 1
        while True:
            value = self._word() & mask
            if value < bound:
                return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place, uniformly (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def permutation(self, size: int) -> list[int]:
        """A uniform permutation of ``range(size)``."""
        items = list(range(size))
        self.shuffle(items)
        return items
