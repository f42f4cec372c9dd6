"""Everything the rules roll dice for, drawn from a commit-reveal seed by rejection sampling.

The seed (``commit_reveal``) is shared and unpredictable; each use has its own label, so the
dice of one use say nothing about another. Every value is exactly uniform: rejection sampling
throws away the bit patterns past the bound instead of folding them in (no modulo bias).

* ``first_east`` (docs/RULES.md A3): every player rolls two dice, the highest total is East; tied
  players roll again (more dice from the same seed, never a new commit-reveal round).
* ``seat_winds`` (docs/RULES.md B2): the four winds drawn at random once for the four players, as
  "a die of 1-4 gives E S W N, 5-6 roll again" does, in one uniform draw.
* ``break_dice`` / ``wall_plan`` (docs/RULES.md A3, B3): the dice that break the wall, as many as
  the tile set's wall takes (``walls.WallSpec.break_dice``: East's two, or East's two and the
  wall owner's two), and the deal plan of ``walls.py`` they give.
"""

from __future__ import annotations

import hashlib

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.walls import TileSet, WallPlan

from .entropy import uniform_below

MAX_TIE_ROUNDS = 64  # ties this many times in a row have probability below 2**-100


def draw_below(seed: bytes, bound: int, label: str) -> int:
    """A fair integer in ``[0, bound)`` from the seed, for one labelled use."""
    tag = label.encode()

    def block(attempt: int) -> bytes:
        data = seed + len(tag).to_bytes(2, "big") + tag + attempt.to_bytes(4, "big")
        return hashlib.sha512(data).digest()

    return uniform_below(bound, block)


def dice(seed: bytes, count: int, sides: int = 6, label: str = "dice") -> tuple[int, ...]:
    """``count`` fair dice from the seed, each by rejection sampling (values 1..sides)."""
    return tuple(1 + draw_below(seed, sides, f"{label}/{i}") for i in range(count))


def first_east(seed: bytes) -> int:
    """The player (0-3, in joining order) who is East for the first hand (A3)."""
    rolling = list(range(4))
    for round_ in range(MAX_TIE_ROUNDS):
        totals = {p: sum(dice(seed, 2, label=f"first east/{round_}/{p}")) for p in rolling}
        best = max(totals.values())
        rolling = [p for p in rolling if totals[p] == best]
        if len(rolling) == 1:
            return rolling[0]
    return rolling[draw_below(seed, len(rolling), "first east/last tie")]


def seat_winds(seed: bytes) -> tuple[Seat, ...]:
    """The seat wind of each player (0-3, in joining order), drawn at random once (B2)."""
    winds = list(SEATS)
    for i in range(3, 0, -1):  # Fisher-Yates with rejection-sampled indexes
        j = draw_below(seed, i + 1, f"seat winds/{i}")
        winds[i], winds[j] = winds[j], winds[i]
    return tuple(winds)


def break_dice(tiles: TileSet, seed: bytes) -> tuple[int, ...]:
    """The dice that break the tile set's wall: East's two (A3), or East's two and the wall
    owner's two (B3). The same for a set with or without its flowers."""
    return dice(seed, tiles.wall.break_dice, label="break")


def wall_plan(tiles: TileSet, seed: bytes, *, flowers: bool = True) -> WallPlan:
    """The deal plan (who gets which slot, the draw order) for this hand's seed
    (``flowers=False``: the set without its flowers, MCR's 136-tile wall)."""
    return tiles.played(flowers=flowers).plan(break_dice(tiles, seed))
