"""Tile kinds: every face a tile of any rule set shows.

A *kind* is what a tile shows (3 Crak, East Wind, Joker...). Kinds are small ints so hands can
be held as count arrays indexed by kind; the ``Kind`` IntEnum names every one of them. A
*physical tile* is one tile of a set, identified by a tile id; several physical tiles share a
kind (four 3 Craks). Which tiles a set holds is its rule set's (``walls.TileSet``, declared in
the rule set's folder: ``protocol/<rules>/tileset.py``).

Kind layout (``NUM_KINDS`` = 45):
  0-8    craks / characters 1-9   (notation ``1m``..``9m``)
  9-17   dots / circles 1-9       (``1p``..``9p``)
  18-26  bams / bamboo 1-9        (``1s``..``9s``)
  27-30  winds East, South, West, North   (``1z``..``4z``)
  31-33  dragons White, Green, Red        (``5z``..``7z``)
  34-41  MCR flowers 1-4 and seasons 1-4  (``1f``..``8f``)
  42     American flower, all alike       (``F``)
  43     joker                             (``J``)
  44     HIDDEN: a tile whose face this observer may not see (never a real tile)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum, IntEnum


class Suit(Enum):
    """What family a kind belongs to. Only the three number suits have ranks."""

    CRAKS = "m"
    DOTS = "p"
    BAMS = "s"
    WIND = "wind"
    DRAGON = "dragon"
    FLOWER = "flower"
    JOKER = "joker"
    HIDDEN = "hidden"


NUMBER_SUITS: tuple[Suit, Suit, Suit] = (Suit.CRAKS, Suit.DOTS, Suit.BAMS)


class Kind(IntEnum):
    """Every tile face. Values are stable: they index count arrays and appear in transcripts."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    WHITE = 31
    GREEN = 32
    RED = 33
    FLOWER_1 = 34
    FLOWER_2 = 35
    FLOWER_3 = 36
    FLOWER_4 = 37
    SEASON_1 = 38
    SEASON_2 = 39
    SEASON_3 = 40
    SEASON_4 = 41
    FLOWER = 42
    JOKER = 43
    HIDDEN = 44


NUM_KINDS = 45
WINDS: tuple[Kind, ...] = (Kind.EAST, Kind.SOUTH, Kind.WEST, Kind.NORTH)
MCR_BONUS: tuple[Kind, ...] = tuple(Kind(k) for k in range(Kind.FLOWER_1, Kind.SEASON_4 + 1))

_SUIT_OF_NUMBER_BLOCK = (Suit.CRAKS, Suit.DOTS, Suit.BAMS)


def suit_of(kind: int) -> Suit:
    """The family of a kind."""
    if 0 <= kind < 27:
        return _SUIT_OF_NUMBER_BLOCK[kind // 9]
    if kind < 31:
        return Suit.WIND
    if kind < 34:
        return Suit.DRAGON
    if kind < 43:
        return Suit.FLOWER
    if kind == Kind.JOKER:
        return Suit.JOKER
    return Suit.HIDDEN


def rank_of(kind: int) -> int:
    """1-9 for number tiles, 0 for everything else."""
    return kind % 9 + 1 if 0 <= kind < 27 else 0


def number_kind(suit: Suit, rank: int) -> Kind:
    """The kind of a number tile; ``ValueError`` for a non-number suit or a rank outside 1-9."""
    if suit not in NUMBER_SUITS or not 1 <= rank <= 9:
        raise ValueError(f"no number tile {rank} of {suit.name.lower()}")
    return Kind(NUMBER_SUITS.index(suit) * 9 + rank - 1)


def is_number(kind: int) -> bool:
    return 0 <= kind < 27


def is_honor(kind: int) -> bool:
    """Winds and dragons."""
    return 27 <= kind < 34


def is_terminal(kind: int) -> bool:
    """A 1 or a 9 of a number suit."""
    return is_number(kind) and rank_of(kind) in (1, 9)


def is_bonus(kind: int) -> bool:
    """Flowers and seasons of either rule set (never part of a hand's sets)."""
    return 34 <= kind < 43


def counts(kinds: Iterable[int]) -> list[int]:
    """A count array of length ``NUM_KINDS`` for a collection of kinds."""
    result = [0] * NUM_KINDS
    for kind in kinds:
        result[kind] += 1
    return result
