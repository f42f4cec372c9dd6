"""What a seat can do during an MCR hand. Every action names its seat.

Tiles are named by slot (their wall position). An action that makes a tile public carries
its face so that an engine which could not see the tile records it (and one that could
checks it). A concealed kong is laid face down, so it carries no face; a Mahjong carries the
faces of the whole concealed hand (``reveal``) because the hand is shown to be scored.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..seats import Seat
from ..tiles import Kind

Reveal = tuple[tuple[int, Kind], ...]
"""(slot, face) for every concealed tile a declarer shows."""


@dataclass(frozen=True)
class ExposeFlower:
    """Lay a flower or season from the hand face up; a replacement comes from the far end."""

    seat: Seat
    slot: int
    face: Kind


@dataclass(frozen=True)
class FlowersDone:
    """At the start of the hand: this seat has no flower left (only it can know)."""

    seat: Seat


@dataclass(frozen=True)
class Discard:
    seat: Seat
    slot: int
    face: Kind


@dataclass(frozen=True)
class ConcealedKong:
    """Four alike from the hand, declared and laid face down (faces stay private)."""

    seat: Seat
    slots: tuple[int, int, int, int]


@dataclass(frozen=True)
class AddedKong:
    """Add a tile from the hand to one's own exposed pung; others may rob it."""

    seat: Seat
    slot: int
    face: Kind


@dataclass(frozen=True)
class DeclareWin:
    """Self-drawn Mahjong (on one's own turn, after a draw)."""

    seat: Seat
    reveal: Reveal


@dataclass(frozen=True)
class Pass:
    """Answer to a discard or an added kong: no claim."""

    seat: Seat


@dataclass(frozen=True)
class ClaimChow:
    """Claim the left player's discard with two tiles from the hand."""

    seat: Seat
    slots: tuple[int, int]
    faces: tuple[Kind, Kind]


@dataclass(frozen=True)
class ClaimPung:
    seat: Seat
    slots: tuple[int, int]
    faces: tuple[Kind, Kind]


@dataclass(frozen=True)
class ClaimKong:
    """Exposed kong on a discard with three alike from the hand."""

    seat: Seat
    slots: tuple[int, int, int]
    faces: tuple[Kind, Kind, Kind]


@dataclass(frozen=True)
class ClaimWin:
    """Mahjong on the discard (or robbing an added kong)."""

    seat: Seat
    reveal: Reveal


Claim = ClaimChow | ClaimPung | ClaimKong | ClaimWin
Answer = Pass | Claim
Action = (
    ExposeFlower
    | FlowersDone
    | Discard
    | ConcealedKong
    | AddedKong
    | DeclareWin
    | Pass
    | ClaimChow
    | ClaimPung
    | ClaimKong
    | ClaimWin
)
