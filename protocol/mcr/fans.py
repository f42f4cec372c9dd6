"""The 81 MCR fans (plus the kong combination and Flower Tiles): names, points, exclusions.

Names and points are those of docs/RULES.md B5 (the European MCR rulebook that seed 003
translates). ``EXCLUDES[f]`` lists the fans that fan ``f`` makes uncountable: the fans it
implies (non-repeat principle) and those the rulebook says it does not combine with. The table
is closed under implication, so a scorer simply drops every fan excluded by any fan present.
docs/MCR-FANS.md gives the same table with the reason for each line.
"""

from __future__ import annotations

from enum import IntEnum


class Fan(IntEnum):
    """Every scoring element. Values are stable (they index tables), names are code names."""

    BIG_FOUR_WINDS = 0
    BIG_THREE_DRAGONS = 1
    ALL_GREEN = 2
    NINE_GATES = 3
    FOUR_KONGS = 4
    SEVEN_SHIFTED_PAIRS = 5
    THIRTEEN_ORPHANS = 6
    ALL_TERMINALS = 7
    LITTLE_FOUR_WINDS = 8
    LITTLE_THREE_DRAGONS = 9
    ALL_HONORS = 10
    FOUR_CONCEALED_PUNGS = 11
    PURE_TERMINAL_CHOWS = 12
    QUADRUPLE_CHOW = 13
    FOUR_PURE_SHIFTED_PUNGS = 14
    FOUR_PURE_SHIFTED_CHOWS = 15
    THREE_KONGS = 16
    ALL_TERMINALS_AND_HONORS = 17
    SEVEN_PAIRS = 18
    GREATER_HONORS_AND_KNITTED_TILES = 19
    ALL_EVEN_PUNGS = 20
    FULL_FLUSH = 21
    PURE_TRIPLE_CHOW = 22
    PURE_SHIFTED_PUNGS = 23
    UPPER_TILES = 24
    MIDDLE_TILES = 25
    LOWER_TILES = 26
    PURE_STRAIGHT = 27
    THREE_SUITED_TERMINAL_CHOWS = 28
    PURE_SHIFTED_CHOWS = 29
    ALL_FIVES = 30
    TRIPLE_PUNG = 31
    THREE_CONCEALED_PUNGS = 32
    LESSER_HONORS_AND_KNITTED_TILES = 33
    KNITTED_STRAIGHT = 34
    UPPER_FOUR = 35
    LOWER_FOUR = 36
    BIG_THREE_WINDS = 37
    MIXED_STRAIGHT = 38
    REVERSIBLE_TILES = 39
    MIXED_TRIPLE_CHOW = 40
    MIXED_SHIFTED_PUNGS = 41
    CHICKEN_HAND = 42
    LAST_TILE_DRAW = 43
    LAST_TILE_CLAIM = 44
    OUT_WITH_REPLACEMENT_TILE = 45
    ROBBING_THE_KONG = 46
    TWO_CONCEALED_KONGS = 47
    ALL_PUNGS = 48
    HALF_FLUSH = 49
    MIXED_SHIFTED_CHOWS = 50
    ALL_TYPES = 51
    MELDED_HAND = 52
    TWO_DRAGON_PUNGS = 53
    CONCEALED_KONG_AND_MELDED_KONG = 54
    OUTSIDE_HAND = 55
    FULLY_CONCEALED_HAND = 56
    TWO_MELDED_KONGS = 57
    LAST_TILE = 58
    DRAGON_PUNG = 59
    PREVALENT_WIND = 60
    SEAT_WIND = 61
    CONCEALED_HAND = 62
    ALL_CHOWS = 63
    TILE_HOG = 64
    DOUBLE_PUNG = 65
    TWO_CONCEALED_PUNGS = 66
    CONCEALED_KONG = 67
    ALL_SIMPLES = 68
    PURE_DOUBLE_CHOW = 69
    MIXED_DOUBLE_CHOW = 70
    SHORT_STRAIGHT = 71
    TWO_TERMINAL_CHOWS = 72
    PUNG_OF_TERMINALS_OR_HONORS = 73
    MELDED_KONG = 74
    ONE_VOIDED_SUIT = 75
    NO_HONORS = 76
    EDGE_WAIT = 77
    CLOSED_WAIT = 78
    SINGLE_WAIT = 79
    SELF_DRAWN = 80
    FLOWER_TILES = 81


NUM_FANS = len(Fan)

_SPECIAL_NAMES = {
    Fan.GREATER_HONORS_AND_KNITTED_TILES: "Greater Honors and Knitted Tiles",
    Fan.LESSER_HONORS_AND_KNITTED_TILES: "Lesser Honors and Knitted Tiles",
    Fan.ALL_TERMINALS_AND_HONORS: "All Terminals and Honors",
    Fan.PUNG_OF_TERMINALS_OR_HONORS: "Pung of Terminals or Honors",
    Fan.CONCEALED_KONG_AND_MELDED_KONG: "Concealed Kong and Melded Kong",
    Fan.OUT_WITH_REPLACEMENT_TILE: "Out with Replacement Tile",
    Fan.ROBBING_THE_KONG: "Robbing the Kong",
    Fan.THREE_SUITED_TERMINAL_CHOWS: "Three-Suited Terminal Chows",
    Fan.SELF_DRAWN: "Self-Drawn",
}


def _display(fan: Fan) -> str:
    return _SPECIAL_NAMES.get(fan) or fan.name.replace("_", " ").title()


FAN_NAME: tuple[str, ...] = tuple(_display(f) for f in Fan)
"""Each fan's name exactly as docs/RULES.md B5 writes it, indexed by ``Fan``."""


_POINTS_BY_VALUE: dict[int, tuple[Fan, ...]] = {
    88: (
        Fan.BIG_FOUR_WINDS,
        Fan.BIG_THREE_DRAGONS,
        Fan.ALL_GREEN,
        Fan.NINE_GATES,
        Fan.FOUR_KONGS,
        Fan.SEVEN_SHIFTED_PAIRS,
        Fan.THIRTEEN_ORPHANS,
    ),
    64: (
        Fan.ALL_TERMINALS,
        Fan.LITTLE_FOUR_WINDS,
        Fan.LITTLE_THREE_DRAGONS,
        Fan.ALL_HONORS,
        Fan.FOUR_CONCEALED_PUNGS,
        Fan.PURE_TERMINAL_CHOWS,
    ),
    48: (Fan.QUADRUPLE_CHOW, Fan.FOUR_PURE_SHIFTED_PUNGS),
    32: (Fan.FOUR_PURE_SHIFTED_CHOWS, Fan.THREE_KONGS, Fan.ALL_TERMINALS_AND_HONORS),
    24: (
        Fan.SEVEN_PAIRS,
        Fan.GREATER_HONORS_AND_KNITTED_TILES,
        Fan.ALL_EVEN_PUNGS,
        Fan.FULL_FLUSH,
        Fan.PURE_TRIPLE_CHOW,
        Fan.PURE_SHIFTED_PUNGS,
        Fan.UPPER_TILES,
        Fan.MIDDLE_TILES,
        Fan.LOWER_TILES,
    ),
    16: (
        Fan.PURE_STRAIGHT,
        Fan.THREE_SUITED_TERMINAL_CHOWS,
        Fan.PURE_SHIFTED_CHOWS,
        Fan.ALL_FIVES,
        Fan.TRIPLE_PUNG,
        Fan.THREE_CONCEALED_PUNGS,
    ),
    12: (
        Fan.LESSER_HONORS_AND_KNITTED_TILES,
        Fan.KNITTED_STRAIGHT,
        Fan.UPPER_FOUR,
        Fan.LOWER_FOUR,
        Fan.BIG_THREE_WINDS,
    ),
    8: (
        Fan.MIXED_STRAIGHT,
        Fan.REVERSIBLE_TILES,
        Fan.MIXED_TRIPLE_CHOW,
        Fan.MIXED_SHIFTED_PUNGS,
        Fan.CHICKEN_HAND,
        Fan.LAST_TILE_DRAW,
        Fan.LAST_TILE_CLAIM,
        Fan.OUT_WITH_REPLACEMENT_TILE,
        Fan.ROBBING_THE_KONG,
        Fan.TWO_CONCEALED_KONGS,
    ),
    6: (
        Fan.ALL_PUNGS,
        Fan.HALF_FLUSH,
        Fan.MIXED_SHIFTED_CHOWS,
        Fan.ALL_TYPES,
        Fan.MELDED_HAND,
        Fan.TWO_DRAGON_PUNGS,
        Fan.CONCEALED_KONG_AND_MELDED_KONG,
    ),
    4: (Fan.OUTSIDE_HAND, Fan.FULLY_CONCEALED_HAND, Fan.TWO_MELDED_KONGS, Fan.LAST_TILE),
    2: (
        Fan.DRAGON_PUNG,
        Fan.PREVALENT_WIND,
        Fan.SEAT_WIND,
        Fan.CONCEALED_HAND,
        Fan.ALL_CHOWS,
        Fan.TILE_HOG,
        Fan.DOUBLE_PUNG,
        Fan.TWO_CONCEALED_PUNGS,
        Fan.CONCEALED_KONG,
        Fan.ALL_SIMPLES,
    ),
    1: (
        Fan.PURE_DOUBLE_CHOW,
        Fan.MIXED_DOUBLE_CHOW,
        Fan.SHORT_STRAIGHT,
        Fan.TWO_TERMINAL_CHOWS,
        Fan.PUNG_OF_TERMINALS_OR_HONORS,
        Fan.MELDED_KONG,
        Fan.ONE_VOIDED_SUIT,
        Fan.NO_HONORS,
        Fan.EDGE_WAIT,
        Fan.CLOSED_WAIT,
        Fan.SINGLE_WAIT,
        Fan.SELF_DRAWN,
        Fan.FLOWER_TILES,
    ),
}

_points = [0] * NUM_FANS
for _value, _fans in _POINTS_BY_VALUE.items():
    for _fan in _fans:
        _points[_fan] = _value
FAN_POINTS: tuple[int, ...] = tuple(_points)
"""Points of one occurrence of each fan, indexed by ``Fan``."""

_F = Fan
_CONCEALED_NATURE = (_F.CONCEALED_HAND, _F.FULLY_CONCEALED_HAND, _F.SINGLE_WAIT)
_KONG_FANS = (
    _F.THREE_KONGS,
    _F.TWO_CONCEALED_KONGS,
    _F.CONCEALED_KONG_AND_MELDED_KONG,
    _F.TWO_MELDED_KONGS,
    _F.CONCEALED_KONG,
    _F.MELDED_KONG,
)

_EXCLUDES_SOURCE: dict[Fan, tuple[Fan, ...]] = {
    _F.BIG_FOUR_WINDS: (
        _F.LITTLE_FOUR_WINDS,
        _F.BIG_THREE_WINDS,
        _F.ALL_PUNGS,
        _F.SEAT_WIND,
        _F.PREVALENT_WIND,
        _F.PUNG_OF_TERMINALS_OR_HONORS,
    ),
    _F.BIG_THREE_DRAGONS: (_F.LITTLE_THREE_DRAGONS, _F.TWO_DRAGON_PUNGS, _F.DRAGON_PUNG),
    _F.ALL_GREEN: (_F.HALF_FLUSH,),
    _F.NINE_GATES: (
        _F.FULL_FLUSH,
        _F.CONCEALED_HAND,
        _F.FULLY_CONCEALED_HAND,
        _F.NO_HONORS,
        _F.ONE_VOIDED_SUIT,
    ),  # and ONE Pung of Terminals or Honors (scoring.py)
    _F.FOUR_KONGS: (*_KONG_FANS, _F.ALL_PUNGS, _F.SINGLE_WAIT),
    _F.SEVEN_SHIFTED_PAIRS: (_F.SEVEN_PAIRS, _F.FULL_FLUSH, *_CONCEALED_NATURE, _F.NO_HONORS),
    _F.THIRTEEN_ORPHANS: (_F.ALL_TYPES, _F.ALL_TERMINALS_AND_HONORS, *_CONCEALED_NATURE),
    _F.ALL_TERMINALS: (
        _F.ALL_TERMINALS_AND_HONORS,
        _F.ALL_PUNGS,
        _F.OUTSIDE_HAND,
        _F.PUNG_OF_TERMINALS_OR_HONORS,
        _F.NO_HONORS,
        _F.DOUBLE_PUNG,
    ),
    _F.LITTLE_FOUR_WINDS: (_F.BIG_THREE_WINDS,),
    _F.LITTLE_THREE_DRAGONS: (_F.TWO_DRAGON_PUNGS, _F.DRAGON_PUNG),
    _F.ALL_HONORS: (
        _F.ALL_TERMINALS_AND_HONORS,
        _F.ALL_PUNGS,
        _F.OUTSIDE_HAND,
        _F.PUNG_OF_TERMINALS_OR_HONORS,
    ),
    _F.FOUR_CONCEALED_PUNGS: (
        _F.THREE_CONCEALED_PUNGS,
        _F.TWO_CONCEALED_PUNGS,
        _F.ALL_PUNGS,
        _F.CONCEALED_HAND,
        _F.FULLY_CONCEALED_HAND,
    ),
    _F.PURE_TERMINAL_CHOWS: (
        _F.FULL_FLUSH,
        _F.ALL_CHOWS,
        _F.PURE_DOUBLE_CHOW,
        _F.TWO_TERMINAL_CHOWS,
        _F.SEVEN_PAIRS,
        _F.NO_HONORS,
        _F.SHORT_STRAIGHT,
        _F.MIXED_DOUBLE_CHOW,
    ),
    _F.QUADRUPLE_CHOW: (
        _F.PURE_TRIPLE_CHOW,
        _F.PURE_DOUBLE_CHOW,
        _F.TILE_HOG,
        _F.PURE_SHIFTED_PUNGS,
    ),
    _F.FOUR_PURE_SHIFTED_PUNGS: (_F.PURE_SHIFTED_PUNGS, _F.PURE_TRIPLE_CHOW, _F.ALL_PUNGS),
    _F.FOUR_PURE_SHIFTED_CHOWS: (
        _F.PURE_SHIFTED_CHOWS,
        _F.SHORT_STRAIGHT,
        _F.TWO_TERMINAL_CHOWS,
        _F.PURE_DOUBLE_CHOW,
    ),
    _F.THREE_KONGS: tuple(k for k in _KONG_FANS if k is not _F.THREE_KONGS),
    _F.ALL_TERMINALS_AND_HONORS: (_F.ALL_PUNGS, _F.OUTSIDE_HAND, _F.PUNG_OF_TERMINALS_OR_HONORS),
    _F.SEVEN_PAIRS: _CONCEALED_NATURE,
    _F.GREATER_HONORS_AND_KNITTED_TILES: (
        _F.LESSER_HONORS_AND_KNITTED_TILES,
        _F.ALL_TYPES,
        *_CONCEALED_NATURE,
    ),
    _F.ALL_EVEN_PUNGS: (_F.ALL_PUNGS, _F.ALL_SIMPLES, _F.NO_HONORS),
    _F.FULL_FLUSH: (_F.NO_HONORS, _F.ONE_VOIDED_SUIT),
    _F.PURE_TRIPLE_CHOW: (_F.PURE_SHIFTED_PUNGS,),
    _F.PURE_SHIFTED_PUNGS: (_F.PURE_TRIPLE_CHOW,),
    _F.UPPER_TILES: (_F.UPPER_FOUR, _F.NO_HONORS),
    _F.MIDDLE_TILES: (_F.ALL_SIMPLES, _F.NO_HONORS),
    _F.LOWER_TILES: (_F.LOWER_FOUR, _F.NO_HONORS),
    _F.THREE_SUITED_TERMINAL_CHOWS: (
        _F.ALL_CHOWS,
        _F.TWO_TERMINAL_CHOWS,
        _F.MIXED_DOUBLE_CHOW,
        _F.NO_HONORS,
    ),
    _F.ALL_FIVES: (_F.ALL_SIMPLES, _F.NO_HONORS),
    _F.THREE_CONCEALED_PUNGS: (_F.TWO_CONCEALED_PUNGS,),
    _F.LESSER_HONORS_AND_KNITTED_TILES: (_F.ALL_TYPES, *_CONCEALED_NATURE),
    _F.UPPER_FOUR: (_F.NO_HONORS,),
    _F.LOWER_FOUR: (_F.NO_HONORS,),
    _F.REVERSIBLE_TILES: (_F.ONE_VOIDED_SUIT,),
    _F.LAST_TILE_DRAW: (_F.SELF_DRAWN,),
    _F.OUT_WITH_REPLACEMENT_TILE: (_F.SELF_DRAWN,),
    _F.ROBBING_THE_KONG: (_F.LAST_TILE,),
    _F.TWO_CONCEALED_KONGS: (_F.CONCEALED_KONG, _F.TWO_CONCEALED_PUNGS),
    _F.HALF_FLUSH: (_F.ONE_VOIDED_SUIT,),
    _F.MELDED_HAND: (_F.SINGLE_WAIT,),
    _F.TWO_DRAGON_PUNGS: (_F.DRAGON_PUNG,),
    _F.CONCEALED_KONG_AND_MELDED_KONG: (_F.CONCEALED_KONG, _F.MELDED_KONG),
    _F.FULLY_CONCEALED_HAND: (_F.SELF_DRAWN, _F.CONCEALED_HAND),
    _F.TWO_MELDED_KONGS: (_F.MELDED_KONG,),
    _F.ALL_CHOWS: (_F.NO_HONORS,),
    _F.ALL_SIMPLES: (_F.NO_HONORS,),
}

EXCLUDES: tuple[frozenset[Fan], ...] = tuple(frozenset(_EXCLUDES_SOURCE.get(f, ())) for f in Fan)
"""``EXCLUDES[f]``: the fans not counted when fan ``f`` is counted."""


EXCLUSION_TABLE: tuple[tuple[Fan, tuple[Fan, ...]], ...] = tuple(
    (f, _EXCLUDES_SOURCE[f]) for f in Fan if f in _EXCLUDES_SOURCE
)
"""The exclusions in table order, for docs and tests."""
