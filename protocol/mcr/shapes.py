"""Hand shapes: every way the concealed tiles of a hand can be read as a winning hand.

Shapes: four sets and a pair (melds count as sets), Seven Pairs, Thirteen Orphans, Honors and
Knitted Tiles (lesser and greater) and Knitted Straight with a set and a pair.

Speed: tiles are count arrays indexed by kind (0-33). The sets-and-pair readings of one suit
depend only on that suit's nine counts, so they are computed once per distinct pattern and kept
in a table (``suit_readings``); a whole hand's readings are the product of its suits' readings.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import permutations
from typing import NamedTuple

from .hand import NUM_HAND_KINDS, TERMINALS_AND_HONORS

SuitReading = tuple[tuple[int, ...], tuple[int, ...], int]
"""(chow start ranks, pung ranks, pair rank or -1), ranks 0-8 inside one suit."""


class Reading(NamedTuple):
    """One reading of the concealed tiles as sets and a pair (melds are added by the scorer)."""

    chows: tuple[int, ...]  # kinds of the first tile of each concealed chow, sorted
    pungs: tuple[int, ...]  # kinds of the concealed pungs, sorted
    pair: int  # kind of the pair
    knitted: int = -1  # index into KNITTED_SETS when the hand holds a Knitted Straight


KNITTED_SETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            suit * 9 + r
            for offset, suit in enumerate(order)
            for r in (offset, offset + 3, offset + 6)
        )
    )
    for order in permutations(range(3))
)
"""The six ways to lay 147, 258 and 369 over the three suits (kinds of the nine tiles)."""

HONOR_KINDS: tuple[int, ...] = tuple(range(27, 34))


@cache
def suit_readings(key: tuple[int, ...]) -> tuple[SuitReading, ...]:
    """All ways to split one suit's nine counts into sets and at most one pair."""
    if not any(key):
        return (((), (), -1),)
    found: set[SuitReading] = set()
    _split(list(key), 0, [], [], -1, found)
    return tuple(sorted(found))


def _split(
    c: list[int], start: int, chows: list[int], pungs: list[int], pair: int, found: set[SuitReading]
) -> None:
    i = start
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        found.add((tuple(chows), tuple(pungs), pair))
        return
    if c[i] >= 3:
        c[i] -= 3
        pungs.append(i)
        _split(c, i, chows, pungs, pair, found)
        pungs.pop()
        c[i] += 3
    if pair < 0 and c[i] >= 2:
        c[i] -= 2
        _split(c, i, chows, pungs, i, found)
        c[i] += 2
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        chows.append(i)
        _split(c, i, chows, pungs, pair, found)
        chows.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


SETS_ONLY = 1
SETS_AND_PAIR = 2


@cache
def suit_flags(key: tuple[int, ...]) -> int:
    """Bit ``SETS_ONLY``: the suit splits into sets alone; ``SETS_AND_PAIR``: sets and a pair."""
    flags = 0
    for _chows, _pungs, pair in suit_readings(key):
        flags |= SETS_ONLY if pair < 0 else SETS_AND_PAIR
    return flags


def standard_complete(c: Sequence[int]) -> bool:
    """True when counts ``c`` (kinds 0-33) are some number of sets plus exactly one pair."""
    pairs = 0
    for k in range(27, 34):
        n = c[k]
        if n == 2:
            pairs += 1
        elif n not in (0, 3):
            return False
    for base in (0, 9, 18):
        key = tuple(c[base : base + 9])
        if not any(key):
            continue
        flags = suit_flags(key)
        if flags & SETS_ONLY:
            continue
        if flags & SETS_AND_PAIR:
            pairs += 1
        else:
            return False
    return pairs == 1


def standard_readings(c: Sequence[int], knitted: int = -1) -> list[Reading]:
    """Every reading of counts ``c`` as sets plus exactly one pair (empty if none)."""
    honor_pungs: list[int] = []
    honor_pair = -1
    for k in range(27, 34):
        n = c[k]
        if n == 3:
            honor_pungs.append(k)
        elif n == 2:
            if honor_pair >= 0:
                return []
            honor_pair = k
        elif n:
            return []
    partial: list[tuple[tuple[int, ...], tuple[int, ...], int]] = [
        ((), tuple(honor_pungs), honor_pair)
    ]
    for base in (0, 9, 18):
        key = tuple(c[base : base + 9])
        if not any(key):
            continue
        options = suit_readings(key)
        if not options:
            return []
        grown = []
        for chows, pungs, pair in partial:
            for s_chows, s_pungs, s_pair in options:
                if s_pair >= 0:
                    if pair >= 0:
                        continue
                    new_pair = base + s_pair
                else:
                    new_pair = pair
                grown.append(
                    (
                        chows + tuple(base + r for r in s_chows),
                        tuple(base + r for r in s_pungs) + pungs,
                        new_pair,
                    )
                )
        partial = grown
        if not partial:
            return []
    return [
        Reading(chows, tuple(sorted(pungs)), pair, knitted)
        for chows, pungs, pair in partial
        if pair >= 0
    ]


def knitted_straight_readings(c: Sequence[int]) -> list[Reading]:
    """Readings holding a Knitted Straight (147/258/369 in three suits) plus sets and a pair."""
    result: list[Reading] = []
    for index, tiles in enumerate(KNITTED_SETS):
        if all(c[k] for k in tiles):
            rest = list(c)
            for k in tiles:
                rest[k] -= 1
            result.extend(standard_readings(rest, index))
    return result


def is_seven_pairs(c: Sequence[int]) -> bool:
    """Seven pairs; four alike count as two pairs (MCR allows it, scoring Tile Hog)."""
    return sum(c[:NUM_HAND_KINDS]) == 14 and all(n % 2 == 0 for n in c[:NUM_HAND_KINDS])


def is_seven_shifted_pairs(c: Sequence[int]) -> bool:
    """Seven consecutive pairs of one suit (e.g. 22334455667788 bamboo)."""
    for base in (0, 9, 18):
        for first in range(3):
            start = base + first
            if all(c[k] == 2 for k in range(start, start + 7)) and sum(c[:NUM_HAND_KINDS]) == 14:
                return True
    return False


def is_thirteen_orphans(c: Sequence[int]) -> bool:
    """One of each terminal and honor, plus one more of any of them."""
    if sum(c[:NUM_HAND_KINDS]) != 14:
        return False
    return all(c[k] for k in TERMINALS_AND_HONORS) and sum(c[k] for k in TERMINALS_AND_HONORS) == 14


def honors_and_knitted(c: Sequence[int]) -> int:
    """0: not Honors and Knitted Tiles; 1: the lesser form; 2: the greater (all seven honors)."""
    if sum(c[:NUM_HAND_KINDS]) != 14 or any(n > 1 for n in c[:NUM_HAND_KINDS]):
        return 0
    for tiles in KNITTED_SETS:
        if sum(c[k] for k in tiles) + sum(c[k] for k in HONOR_KINDS) == 14:
            return 2 if all(c[k] for k in HONOR_KINDS) else 1
    return 0


def knitted_straight_complete(c: Sequence[int]) -> bool:
    """The counts hold a Knitted Straight and the rest is sets plus one pair."""
    for tiles in KNITTED_SETS:
        if all(c[k] for k in tiles):
            rest = list(c)
            for k in tiles:
                rest[k] -= 1
            if standard_complete(rest):
                return True
    return False
