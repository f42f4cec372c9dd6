"""The American tile set and wall (docs/RULES.md A3): 152 tiles in walls of 19 stacks a side.

Four of each suit tile, wind and dragon, eight flowers (all alike) and eight jokers; the
flowers are part of card hands, so a table never leaves them out. East's two dice set aside
that many stacks at the right end of East's own wall; the deal is 4-4-4, then East's jump
(the tops of the first and third next stacks), South the bottom of the first, West the top of
the second, North the bottom of the second (``walls.py`` does the arithmetic).
"""

from __future__ import annotations

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import TileSet, WallPlan, WallSpec

AMERICAN_TILES: tuple[Kind, ...] = (
    *(Kind(kind) for kind in range(34) for _ in range(4)),  # suits, winds, dragons
    *(Kind.FLOWER,) * 8,
    *(Kind.JOKER,) * 8,
)
"""Kind of every physical tile of the American set, indexed by tile id (152 tiles)."""

AMERICAN_SET = TileSet(
    "american",
    "American",
    AMERICAN_TILES,
    WallSpec(
        break_dice=2,
        dice_choose_wall=False,
        last_tiles=(Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST),
    ),
)
"""The American tiles and wall: East's two dice break East's wall; the jump ends the deal."""


def american_plan(dice: tuple[int, int]) -> WallPlan:
    """The American deal for East's two dice (docs/RULES.md A3)."""
    return AMERICAN_SET.plan(dice)
