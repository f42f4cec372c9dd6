"""The practice deck: an open wall shuffled from the hand's commit-reveal seed.

No seat chooses the order (the seed comes from all four), but every seat *could* compute the
whole wall, so a table on the practice deck says so to every player. The session still tells
each engine only the faces its seat is entitled to, exactly as the masked deck will.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from fourwinds.protocol.deck.entropy import Entropy
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import TileSet


@dataclass(frozen=True)
class PracticeWall:
    """``faces[slot]`` for every slot of the hand's wall."""

    faces: tuple[Kind, ...]

    def faces_of(self, slots: tuple[int, ...]) -> dict[int, Kind]:
        return {s: self.faces[s] for s in slots}

    def false_faces(self, claimed: Mapping[int, Kind]) -> tuple[tuple[int, Kind, Kind], ...]:
        """(slot, claimed, actual) for every claim that is wrong (or names no slot)."""
        bad = []
        for slot, face in sorted(claimed.items()):
            actual = self.faces[slot] if 0 <= slot < len(self.faces) else Kind.HIDDEN
            if face != actual:
                bad.append((slot, face, actual))
        return tuple(bad)


def practice_wall(tile_set: TileSet, seed: bytes, *, flowers: bool = True) -> PracticeWall:
    """The hand's open wall of a tile set (``flowers=False``: without its flowers, MCR's 136
    tiles)."""
    tiles = tile_set.played(flowers=flowers).kinds
    order = Entropy(seed).permutation(len(tiles), "practice wall")
    return PracticeWall(tuple(tiles[i] for i in order))
