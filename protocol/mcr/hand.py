"""Melds and tile helpers for the MCR fan calculator.

A ``Meld`` is a set laid on the table: an exposed chow, pung or kong, or a declared concealed
kong (``concealed=True``). Concealed tiles in hand are plain kinds. Only kinds 0-33 (suits,
winds, dragons) can be part of an MCR hand; flowers are counted separately.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.notation import format_tiles
from fourwinds.protocol.tiles import Kind

NUM_HAND_KINDS = 34
"""Kinds 0-33 can be part of a hand: three suits, four winds, three dragons."""


class InvalidHand(FourwindsError):
    """An input that cannot be a hand at all: wrong tile count, a fifth copy, a bad meld."""


class MeldType(Enum):
    """The three kinds of set that can be laid on the table."""

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"


@dataclass(frozen=True)
class Meld:
    """A set on the table. ``concealed`` is True only for a declared concealed kong."""

    type: MeldType
    tiles: tuple[Kind, ...]
    concealed: bool = False

    def __post_init__(self) -> None:
        problem = meld_problem(self.type, self.tiles, self.concealed)
        if problem:
            raise InvalidHand(problem)
        object.__setattr__(self, "tiles", tuple(sorted(Kind(t) for t in self.tiles)))

    @property
    def first(self) -> int:
        """The lowest tile: the start of a chow, the tile of a pung or kong."""
        return int(self.tiles[0])


def meld_problem(kind: MeldType, tiles: Sequence[int], concealed: bool) -> str | None:
    """Why these tiles are not a valid meld of this type, or None when they are."""
    shown = format_tiles(sorted(tiles)) if all(0 <= t < 45 for t in tiles) else repr(tiles)
    if any(not 0 <= t < NUM_HAND_KINDS for t in tiles):
        return f"{kind.value} {shown}: only suit, wind and dragon tiles form sets"
    want = 4 if kind is MeldType.KONG else 3
    if len(tiles) != want:
        return f"{kind.value} {shown}: a {kind.value} has {want} tiles, not {len(tiles)}"
    ordered = sorted(tiles)
    if kind is MeldType.CHOW:
        if concealed:
            return f"chow {shown}: only a kong can be declared concealed"
        first = ordered[0]
        if not (first < 27 and first % 9 <= 6 and ordered == [first, first + 1, first + 2]):
            return f"chow {shown}: a chow is three consecutive tiles of one suit"
        return None
    if concealed and kind is MeldType.PUNG:
        return f"pung {shown}: only a kong can be declared concealed"
    if len(set(ordered)) != 1:
        return f"{kind.value} {shown}: a {kind.value} is {want} identical tiles"
    return None


def meld(kind: MeldType | str, tiles: Iterable[int], concealed: bool = False) -> Meld:
    """Build a meld from a type (or its name) and kinds, in any order."""
    meld_type = kind if isinstance(kind, MeldType) else MeldType(kind)
    return Meld(meld_type, tuple(Kind(t) for t in sorted(tiles)), concealed)


def rank(kind: int) -> int:
    """1-9 for a number tile, 0 for an honor."""
    return kind % 9 + 1 if kind < 27 else 0


TERMINALS_AND_HONORS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""The 13 kinds of Thirteen Orphans."""
