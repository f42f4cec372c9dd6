"""Fans decided by which tiles a hand holds, whatever its reading.

They are computed once per hand from a mask of the kinds present, so each fan is one mask
test: "every tile is in this allowed set" is ``present & ~allowed == 0``. Kind k is bit 8k
(one byte per kind): the mask of a count array is then built in C by ``bytes.translate`` and
``int.from_bytes``, and ``int.bit_count`` still counts the kinds present.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .fans import Fan


def bit(kind: int) -> int:
    """The mask bit of one kind."""
    return 1 << (8 * kind)


def _mask(kinds: Iterable[int]) -> int:
    result = 0
    for k in kinds:
        result |= bit(k)
    return result


def _ranks(ranks: Iterable[int]) -> int:
    rs = tuple(ranks)
    return _mask(s * 9 + r - 1 for s in range(3) for r in rs)


SUIT_MASKS = (_mask(range(0, 9)), _mask(range(9, 18)), _mask(range(18, 27)))
WIND_MASK = _mask(range(27, 31))
DRAGON_MASK = _mask(range(31, 34))
HONOR_MASK = WIND_MASK | DRAGON_MASK
TERMINAL_MASK = _ranks((1, 9))
SIMPLE_MASK = _ranks(range(2, 9))
UPPER_TILES_MASK = _ranks((7, 8, 9))
MIDDLE_TILES_MASK = _ranks((4, 5, 6))
LOWER_TILES_MASK = _ranks((1, 2, 3))
UPPER_FOUR_MASK = _ranks((6, 7, 8, 9))
LOWER_FOUR_MASK = _ranks((1, 2, 3, 4))
EVEN_MASK = _ranks((2, 4, 6, 8))
GREEN_MASK = _mask([18 + r - 1 for r in (2, 3, 4, 6, 8)] + [32])
REVERSIBLE_MASK = _mask(
    [9 + r - 1 for r in (1, 2, 3, 4, 5, 8, 9)] + [18 + r - 1 for r in (2, 4, 5, 6, 8, 9)] + [31]
)


_NONZERO = bytes([0] + [1] * 255)


def present_mask(counts: Sequence[int]) -> int:
    """Mask of the kinds (0-33) with a nonzero count (counts are 0-255)."""
    return int.from_bytes(bytes(counts).translate(_NONZERO), "little")


def kinds_mask(kinds: Iterable[int]) -> int:
    """Mask of the given kinds."""
    return _mask(kinds)


def tile_fans(mask: int, counts: Sequence[int], kong_kinds: Iterable[int]) -> list[tuple[Fan, int]]:
    """Fans that depend only on the tiles: flushes, tiers, voided suits, Tile Hog...

    ``counts`` are the whole hand's counts (kongs with four tiles); ``kong_kinds`` are the
    kinds declared as kongs, which are not Tile Hogs.
    """
    fans: list[tuple[Fan, int]] = []
    suits = sum(1 for m in SUIT_MASKS if mask & m)
    honors = mask & HONOR_MASK
    if suits == 1:
        fans.append((Fan.HALF_FLUSH if honors else Fan.FULL_FLUSH, 1))
    elif suits == 2:
        fans.append((Fan.ONE_VOIDED_SUIT, 1))
    elif suits == 0:
        fans.append((Fan.ALL_HONORS, 1))
    if not honors:
        fans.append((Fan.NO_HONORS, 1))
    elif suits == 3 and mask & WIND_MASK and mask & DRAGON_MASK:
        fans.append((Fan.ALL_TYPES, 1))
    if not mask & ~SIMPLE_MASK:
        fans.append((Fan.ALL_SIMPLES, 1))
    if not mask & ~TERMINAL_MASK:
        fans.append((Fan.ALL_TERMINALS, 1))
    if not mask & ~(TERMINAL_MASK | HONOR_MASK):
        fans.append((Fan.ALL_TERMINALS_AND_HONORS, 1))
    if not mask & ~UPPER_TILES_MASK:
        fans.append((Fan.UPPER_TILES, 1))
    elif not mask & ~UPPER_FOUR_MASK:
        fans.append((Fan.UPPER_FOUR, 1))
    if not mask & ~LOWER_TILES_MASK:
        fans.append((Fan.LOWER_TILES, 1))
    elif not mask & ~LOWER_FOUR_MASK:
        fans.append((Fan.LOWER_FOUR, 1))
    if not mask & ~MIDDLE_TILES_MASK:
        fans.append((Fan.MIDDLE_TILES, 1))
    if not mask & ~GREEN_MASK:
        fans.append((Fan.ALL_GREEN, 1))
    if not mask & ~REVERSIBLE_MASK:
        fans.append((Fan.REVERSIBLE_TILES, 1))
    if 4 in counts:
        kongs = set(kong_kinds)
        hogs = sum(1 for k in range(34) if counts[k] == 4 and k not in kongs)
        if hogs:
            fans.append((Fan.TILE_HOG, hogs))
    return fans


def all_even(mask: int) -> bool:
    """Every tile is a 2, 4, 6 or 8 (with four sets and a pair: All Even Pungs)."""
    return not mask & ~EVEN_MASK


def nine_gates(hand_counts: Sequence[int]) -> bool:
    """The 13 tiles before winning are 1112345678999 of one suit (all concealed, no kong)."""
    for base in (0, 9, 18):
        if (
            hand_counts[base] == 3
            and hand_counts[base + 8] == 3
            and all(hand_counts[base + r] == 1 for r in range(1, 8))
        ):
            return sum(hand_counts[:34]) == 13
    return False
