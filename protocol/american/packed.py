"""Distances to many variants at once, one byte per variant packed in a Python int (SWAR).

``nearest_hands`` asks, for every variant, how many tiles are still missing:
``total - held - min(jokers, joker_slots_open)`` where ``held`` is the sum over kinds of
``min(have, need)`` and ``joker_slots_open`` the sum of ``min(need - min(have, need), jneed)``.
Both sums are per kind, so for each kind and each count held we precompute one big integer with
that kind's contribution to every variant in its own byte. A query then adds a dozen big
integers (one per kind held) instead of looping over ~800 variants in Python; ``min(jokers,
...)`` is one ``bytes.translate``. Every field stays within 0..14, so bytes never carry into
their neighbours.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..tiles import NUM_KINDS

MAX_COUNT = 14  # counts are clamped here: 14 tiles never hold more of a kind
_MIN_TABLES = tuple(bytes(min(j, x) for x in range(256)) for j in range(MAX_COUNT + 1))


@dataclass(frozen=True)
class PackedTargets:
    """Per-kind packed tables over a sequence of targets (each: kinds, need, jneed)."""

    width: int  # bytes: one per target
    held: dict[int, tuple[int, ...]]  # kind -> packed min(c, need) for c = 0..MAX_COUNT
    jdrop: dict[int, tuple[int, ...]]  # kind -> packed joker slots closed by holding c
    jbase: int  # packed joker slots open when nothing is held
    total: int  # packed tiles needed

    def distances(self, counts: Sequence[int], jokers: int) -> bytes:
        """The missing-tile count of every target, one byte each, in target order."""
        held = 0
        jdrop = 0
        held_tables = self.held
        jdrop_tables = self.jdrop
        for kind, count in enumerate(counts):
            if count and kind in held_tables:
                count = min(count, MAX_COUNT)
                held += held_tables[kind][count]
                jdrop += jdrop_tables[kind][count]
        width = self.width
        open_slots = (self.jbase - jdrop).to_bytes(width, "little")
        used = int.from_bytes(open_slots.translate(_MIN_TABLES[min(jokers, MAX_COUNT)]),
                              "little")
        return (self.total - held - used).to_bytes(width, "little")


def pack(targets: Sequence[tuple[Sequence[int], Sequence[int], Sequence[int]]]) -> PackedTargets:
    """Build the tables for targets given as (kinds, need, jneed) parallel sequences."""
    width = max(1, len(targets))
    held_bytes: dict[int, list[bytearray]] = {}
    jdrop_bytes: dict[int, list[bytearray]] = {}
    jbase = bytearray(width)
    total = bytearray(width)
    for index, (kinds, need, jneed) in enumerate(targets):
        total[index] = sum(need)
        jbase[index] = sum(jneed)
        for kind, wanted, jokerable in zip(kinds, need, jneed, strict=True):
            if kind not in held_bytes:
                held_bytes[kind] = [bytearray(width) for _ in range(MAX_COUNT + 1)]
                jdrop_bytes[kind] = [bytearray(width) for _ in range(MAX_COUNT + 1)]
            for count in range(1, MAX_COUNT + 1):
                have = min(count, wanted)
                held_bytes[kind][count][index] = have
                jdrop_bytes[kind][count][index] = jokerable - min(wanted - have, jokerable)

    def ints(rows: list[bytearray]) -> tuple[int, ...]:
        return tuple(int.from_bytes(row, "little") for row in rows)

    assert all(kind < NUM_KINDS for kind in held_bytes)
    return PackedTargets(
        width=width,
        held={kind: ints(rows) for kind, rows in held_bytes.items()},
        jdrop={kind: ints(rows) for kind, rows in jdrop_bytes.items()},
        jbase=int.from_bytes(jbase, "little"),
        total=int.from_bytes(total, "little"),
    )
