"""Table options of an American game: one typed, frozen config with documented defaults.

Timeouts (call window, Charleston) are not here: they belong to the table layer, which turns
silence into default answers. Everything here changes what the rules allow.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class DeclarationMode(Enum):
    """What an illegal declaration (false Mahjong, impossible exposure) does.

    FRIENDLY: the engine refuses it with the reason and nothing changes (the default, as at a
    home table where players help each other). TOURNAMENT: it is accepted and kills the hand
    (docs/RULES.md A7, seed 004).
    """

    FRIENDLY = "friendly"
    TOURNAMENT = "tournament"


class DeadPlayer(Enum):
    """What a dead player does for the rest of the hand (docs/RULES.md A7)."""

    KEEPS_PLAYING = "keeps-playing"  # draws and discards, never calls nor wins (default)
    SITS_OUT = "sits-out"  # skipped: no more draws or discards


@dataclass(frozen=True)
class TableOptions:
    """House rules of one table. Defaults follow docs/RULES.md Part A.

    hot_wall: once play reaches the last wall (no more than 38 tiles left to draw), discards
        may be called only for Mahjong. Default off (docs/RULES.md A5).
    pooling: after the first Charleston each player puts 0-3 unwanted tiles into a face-up
        pool and takes as many back out (``pooling.py``). Default off (docs/RULES.md A4.5).
    dead_player: see ``DeadPlayer``. Default: keeps playing.
    exchange_from_own_exposure: a player may take a joker from their own exposure. Default
        allowed (docs/RULES.md A2).
    declaration: see ``DeclarationMode``. Default friendly.
    """

    hot_wall: bool = False
    pooling: bool = False
    dead_player: DeadPlayer = DeadPlayer.KEEPS_PLAYING
    exchange_from_own_exposure: bool = True
    declaration: DeclarationMode = DeclarationMode.FRIENDLY
