"""Distances to many variants at once, one byte per variant packed in a Python int (SWAR).

``nearest_hands`` asks, for every variant, how many tiles are still missing:
``total - held - min(jokers, joker_slots_open)`` where ``held`` is the sum over kinds of
``min(have, need)`` and ``joker_slots_open`` the sum of ``min(need - min(have, need), jneed)``.
Both sums are per kind, so for each kind and each count held we precompute one big integer with
that kind's contribution to every variant in its own byte. A query then adds a dozen big
integers (one per kind held) instead of looping over ~800 variants in Python; ``min(jokers,
...)`` is one ``bytes.translate``. Every field stays within 0..14, so bytes never carry into
their neighbours. Building the tables is translates too (one coded row per kind, ``pack``):
about 4 ms for the house card's 1,739 variants where a byte-by-byte loop took 36 ms, paid
for each set of exposures a seat's hints meet in a hand.
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
        used = int.from_bytes(open_slots.translate(_MIN_TABLES[min(jokers, MAX_COUNT)]), "little")
        return (self.total - held - used).to_bytes(width, "little")


_CODE = 16
"""A target's need of one kind is coded in one byte as ``need * 16 + jneed`` (each 0..14), so
that a kind's contribution at every count is one ``bytes.translate`` of the coded row."""
_HELD_TABLES = tuple(
    bytes(min(count, code // _CODE) for code in range(256)) for count in range(MAX_COUNT + 1)
)
_JDROP_TABLES = tuple(
    bytes(
        (code % _CODE) - min(code // _CODE - min(count, code // _CODE), code % _CODE)
        for code in range(256)
    )
    for count in range(MAX_COUNT + 1)
)


def pack(targets: Sequence[tuple[Sequence[int], Sequence[int], Sequence[int]]]) -> PackedTargets:
    """Build the tables for targets given as (kinds, need, jneed) parallel sequences."""
    width = max(1, len(targets))
    coded: dict[int, bytearray] = {}
    jbase = bytearray(width)
    total = bytearray(width)
    for index, (kinds, need, jneed) in enumerate(targets):
        total[index] = sum(need)
        jbase[index] = sum(jneed)
        for kind, wanted, jokerable in zip(kinds, need, jneed, strict=True):
            assert 0 <= jokerable <= wanted <= MAX_COUNT, (kind, wanted, jokerable)
            row = coded.get(kind)
            if row is None:
                row = coded[kind] = bytearray(width)
            row[index] = wanted * _CODE + jokerable

    def ints(row: bytearray, tables: tuple[bytes, ...]) -> tuple[int, ...]:
        return (
            0,
            *(
                int.from_bytes(row.translate(tables[count]), "little")
                for count in range(1, MAX_COUNT + 1)
            ),
        )

    assert all(kind < NUM_KINDS for kind in coded)
    return PackedTargets(
        width=width,
        held={kind: ints(row, _HELD_TABLES) for kind, row in coded.items()},
        jdrop={kind: ints(row, _JDROP_TABLES) for kind, row in coded.items()},
        jbase=int.from_bytes(jbase, "little"),
        total=int.from_bytes(total, "little"),
    )
