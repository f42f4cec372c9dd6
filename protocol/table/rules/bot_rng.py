"""A deterministic ``random()`` source for the engines' bots, from bytes passed in."""

from __future__ import annotations

from fourwinds.protocol.table.machine.dice import stream


class HashRng:
    """``random()`` in [0, 1) from a SHA-256 stream of ``entropy`` (never the OS)."""

    def __init__(self, entropy: bytes) -> None:
        self._source = stream(entropy, b"bot")

    def random(self) -> float:
        value = 0
        for _ in range(7):
            value = value << 8 | next(self._source)
        return (value >> 3) / float(1 << 53)
