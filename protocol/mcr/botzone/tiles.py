"""Tile names and seat ids of the Botzone "Chinese-Standard-Mahjong" protocol, both ways.

Botzone names a tile by a letter and a number: ``W1``-``W9`` characters (wan), ``B1``-``B9``
dots (bing), ``T1``-``T9`` bamboo (tiao), ``F1``-``F4`` the winds East, South, West, North,
``J1``-``J3`` the dragons red, green, white (zhong, fa, bai: the platform's wiki and the
PyMahjongGB fan calculator its referee uses), ``H1``-``H8`` the flowers and seasons in the
order the wiki lists them: spring, summer, autumn, winter, plum, orchid, bamboo,
chrysanthemum. Which flower is which never changes a score (each is worth one point), so only
the round trip matters there.

Our compact notation (``protocol/notation.py``): ``1m``-``9m`` characters, ``1p``-``9p``
dots, ``1s``-``9s`` bamboo, ``1z``-``4z`` winds, ``5z`` white, ``6z`` green, ``7z`` red,
``1f``-``4f`` flowers (plum, orchid, chrysanthemum, bamboo), ``5f``-``8f`` seasons.

Seats: a Botzone player id is its seat wind, 0 East (the dealer, who plays first) to 3
North, counter-clockwise in turn order; the view's ``seat``, ``turn`` and ``players`` count
winds the same way, so the id is the wind. ``quan`` is the prevailing wind, 0-3, the view's
``prevalent_wind``. Pure: no I/O.
"""

from __future__ import annotations

__all__ = [
    "BOTZONE_TILES",
    "TileNameError",
    "from_botzone",
    "is_flower",
    "seat_id",
    "to_botzone",
    "wind_of_id",
]


class TileNameError(ValueError):
    """A tile name or code with no counterpart in the other notation."""


def _table() -> dict[str, str]:
    """Our code -> Botzone name, for all 42 MCR faces."""
    out: dict[str, str] = {}
    for letter, suit in (("W", "m"), ("B", "p"), ("T", "s")):
        for rank in range(1, 10):
            out[f"{rank}{suit}"] = f"{letter}{rank}"
    for wind in range(1, 5):
        out[f"{wind}z"] = f"F{wind}"
    out.update({"7z": "J1", "6z": "J2", "5z": "J3"})  # red, green, white
    # seasons spring..winter are H1-H4; plum, orchid, bamboo, chrysanthemum H5-H8
    out.update(
        {
            "5f": "H1",
            "6f": "H2",
            "7f": "H3",
            "8f": "H4",
            "1f": "H5",
            "2f": "H6",
            "4f": "H7",
            "3f": "H8",
        }
    )
    return out


_TO: dict[str, str] = _table()
_FROM: dict[str, str] = {name: code for code, name in _TO.items()}
BOTZONE_TILES: tuple[str, ...] = tuple(_FROM)
"""Every Botzone tile name (34 kinds of playing tiles and 8 flowers)."""


def to_botzone(code: str) -> str:
    """The Botzone name of one of our tile codes (``"3p"`` -> ``"B3"``)."""
    try:
        return _TO[code]
    except KeyError:
        raise TileNameError(f"{code!r} is no MCR tile") from None


def from_botzone(name: str) -> str:
    """Our code for a Botzone tile name (``"B3"`` -> ``"3p"``); case-sensitive, as the
    platform is."""
    try:
        return _FROM[name]
    except KeyError:
        raise TileNameError(f"{name!r} is no Botzone tile name") from None


def is_flower(code: str) -> bool:
    """A flower or season (our code): laid out, never played."""
    return code.endswith("f")


def seat_id(wind: int) -> int:
    """The Botzone player id of a seat wind (0 East .. 3 North)."""
    if wind not in range(4):
        raise ValueError(f"a seat wind is 0-3, not {wind!r}")
    return wind


def wind_of_id(player: int) -> int:
    """The seat wind of a Botzone player id."""
    if player not in range(4):
        raise ValueError(f"a Botzone player id is 0-3, not {player!r}")
    return player
