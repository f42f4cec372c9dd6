"""The MCR tile set and wall (docs/RULES.md B3): 144 tiles in walls of 18 stacks a side, or the
136 without flowers and seasons in walls of 17 (the table option ``flowers``, config.py).

Four of each suit tile, wind and dragon, then the four flowers and four seasons, one each. A
tile id names the same face with or without flowers: the set without them is the first 136.
East's two dice choose the wall (counted counter-clockwise, East 1); the sum of those and the
wall owner's two counts stacks from its right end; the deal ends with East two tiles and
South, West, North one each (``walls.py`` does the arithmetic).
"""

from __future__ import annotations

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import MCR_BONUS, Kind
from fourwinds.protocol.walls import TileSet, WallPlan, WallSpec

MCR_TILES: tuple[Kind, ...] = (*(Kind(kind) for kind in range(34) for _ in range(4)), *MCR_BONUS)
"""Kind of every physical tile of the MCR set, indexed by tile id (144 tiles)."""

MCR_TILES_NO_FLOWERS: tuple[Kind, ...] = MCR_TILES[:136]
"""The MCR set without its flowers and seasons (136 tiles): the tile ids are MCR_TILES' first
136, so a tile id names the same face in both sets."""

_WALL = WallSpec(
    break_dice=4,
    dice_choose_wall=True,
    last_tiles=(Seat.EAST, Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH),
)

MCR_SET_NO_FLOWERS = TileSet("mcr", "MCR", MCR_TILES_NO_FLOWERS, _WALL)
"""The 136 tiles without flowers, 17 stacks a side: the same break and deal."""

MCR_SET = TileSet("mcr", "MCR", MCR_TILES, _WALL, without_flowers=MCR_SET_NO_FLOWERS)
"""The MCR tiles and wall, which a table may play without its flowers."""


def mcr_plan(dice: tuple[int, int, int, int], *, flowers: bool = True) -> WallPlan:
    """The MCR deal for East's two dice and the wall owner's two dice (docs/RULES.md B3);
    ``flowers=False``: the 136-tile wall of 17 stacks a side."""
    return MCR_SET.played(flowers=flowers).plan(dice)
