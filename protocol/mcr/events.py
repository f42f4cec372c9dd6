"""What an MCR hand reports. ``audience`` None is public; a seat means private to that seat."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..seats import Seat
from ..tiles import Kind
from .hand import MeldType


class DrawSource(Enum):
    """Where a drawn tile came from (replacements come from the far end of the wall)."""

    WALL = "wall"
    FLOWER_REPLACEMENT = "flower"
    KONG_REPLACEMENT = "kong"


class AnswerKind(Enum):
    PASS = "pass"
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    WIN = "win"


@dataclass(frozen=True)
class HandStarted:
    dice: tuple[int, int, int, int]
    break_stack: int
    prevalent_wind: int
    audience: Seat | None = None


@dataclass(frozen=True)
class Dealt:
    """Public: which slots a seat was dealt. The private twin ``TilesSeen`` gives faces."""

    seat: Seat
    slots: tuple[int, ...]
    audience: Seat | None = None


@dataclass(frozen=True)
class TilesSeen:
    """Private: faces a seat now sees in its own hand (deal or draw)."""

    seat: Seat
    slots: tuple[int, ...]
    faces: tuple[Kind, ...]
    audience: Seat | None = None


@dataclass(frozen=True)
class TileDrawn:
    seat: Seat
    slot: int
    source: DrawSource
    audience: Seat | None = None


@dataclass(frozen=True)
class FlowerExposed:
    seat: Seat
    slot: int
    face: Kind
    audience: Seat | None = None


@dataclass(frozen=True)
class FlowersFinished:
    seat: Seat
    audience: Seat | None = None


@dataclass(frozen=True)
class Discarded:
    seat: Seat
    slot: int
    face: Kind
    audience: Seat | None = None


@dataclass(frozen=True)
class Answered:
    """A seat answered a discard or an added kong (the answer itself travels in the action)."""

    seat: Seat
    claim: AnswerKind
    audience: Seat | None = None


@dataclass(frozen=True)
class DiscardDead:
    """Nobody claimed the discard: it stays in the discarder's row for the rest of the hand."""

    seat: Seat
    slot: int
    audience: Seat | None = None


@dataclass(frozen=True)
class MeldMade:
    """A claimed or declared meld. ``faces`` are HIDDEN for a concealed kong."""

    seat: Seat
    type: MeldType
    slots: tuple[int, ...]
    faces: tuple[Kind, ...]
    concealed: bool
    claimed_from: Seat | None
    audience: Seat | None = None


@dataclass(frozen=True)
class KongAdded:
    """A tile added to an exposed pung; pending until the others answer (robbing the kong)."""

    seat: Seat
    slot: int
    face: Kind
    audience: Seat | None = None


@dataclass(frozen=True)
class KongRobbed:
    winner: Seat
    robbed: Seat
    slot: int
    audience: Seat | None = None


@dataclass(frozen=True)
class FalseDeclaration:
    """Tournament table: a false Mahjong, its penalty and the hand now dead."""

    seat: Seat
    reason: str
    penalty_each: int
    audience: Seat | None = None


@dataclass(frozen=True)
class HandWon:
    seat: Seat
    discarder: Seat | None
    fans: tuple[tuple[str, int, int], ...]
    total: int
    payments: tuple[int, int, int, int]
    audience: Seat | None = None


@dataclass(frozen=True)
class HandDrawn:
    """The wall is exhausted with no winner."""

    payments: tuple[int, int, int, int]
    audience: Seat | None = None


Event = (
    HandStarted
    | Dealt
    | TilesSeen
    | TileDrawn
    | FlowerExposed
    | FlowersFinished
    | Discarded
    | Answered
    | DiscardDead
    | MeldMade
    | KongAdded
    | KongRobbed
    | FalseDeclaration
    | HandWon
    | HandDrawn
)
