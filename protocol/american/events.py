"""What an American hand reports. ``audience`` None means public, else the one seat it is for.

Faces in private events are the engine's knowledge (``Kind.HIDDEN`` when it cannot see them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..seats import Seat
from ..tiles import Kind
from .state import CharlestonStep, HandResult


@dataclass(frozen=True)
class Dealt:
    seat: Seat
    slots: tuple[int, ...]
    faces: tuple[Kind, ...]
    audience: Seat | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "audience", self.seat)


@dataclass(frozen=True)
class InputReceived:
    """A seat's part of a step that waits for every seat (pass, vote, call answer) is in."""

    seat: Seat
    audience: Seat | None = None


@dataclass(frozen=True)
class PassMade:
    """A Charleston or courtesy pass went through: who gave how many, how many unseen."""

    step: CharlestonStep
    seat: Seat
    to: Seat
    count: int
    blind: int
    audience: Seat | None = None


@dataclass(frozen=True)
class TilesReceived:
    seat: Seat
    slots: tuple[int, ...]
    faces: tuple[Kind, ...]
    audience: Seat | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "audience", self.seat)


@dataclass(frozen=True)
class Pooled:
    """Pooling option: ``seat`` put these tiles face up into the pool."""

    seat: Seat
    slots: tuple[int, ...]
    faces: tuple[Kind, ...]
    audience: Seat | None = None


@dataclass(frozen=True)
class PoolTaken:
    """Pooling option: ``seat`` took these pool tiles (faces public: the pool is face up)."""

    seat: Seat
    slots: tuple[int, ...]
    audience: Seat | None = None


@dataclass(frozen=True)
class StepStarted:
    """The Charleston moved on to ``step`` (or to play)."""

    step: CharlestonStep
    audience: Seat | None = None


@dataclass(frozen=True)
class Drew:
    """``seat`` drew the wall tile at ``slot`` (its face goes privately in ``TileSeen``)."""

    seat: Seat
    slot: int
    remaining: int
    audience: Seat | None = None


@dataclass(frozen=True)
class TileSeen:
    seat: Seat
    slot: int
    face: Kind
    audience: Seat | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "audience", self.seat)


@dataclass(frozen=True)
class Discarded:
    seat: Seat
    slot: int
    face: Kind
    callable: bool
    audience: Seat | None = None


@dataclass(frozen=True)
class Called:
    """``seat`` took the discard at ``slot`` and exposed ``kinds`` (as laid, jokers as J)."""

    seat: Seat
    slot: int
    kinds: tuple[Kind, ...]
    mahjong: bool
    audience: Seat | None = None


@dataclass(frozen=True)
class JokerExchanged:
    seat: Seat
    owner: Seat
    slot: int
    face: Kind
    joker_slot: int
    audience: Seat | None = None


@dataclass(frozen=True)
class SeatDead:
    seat: Seat
    reason: str
    audience: Seat | None = None


@dataclass(frozen=True)
class MahjongDeclared:
    seat: Seat
    hand_id: str
    value: int
    jokerless: bool
    self_drawn: bool
    faces: tuple[Kind, ...]
    audience: Seat | None = None


@dataclass(frozen=True)
class HandOver:
    result: HandResult
    audience: Seat | None = field(default=None)


AmericanEvent = (Dealt | InputReceived | PassMade | Pooled | PoolTaken | TilesReceived
                 | StepStarted | Drew
                 | TileSeen | Discarded | Called | JokerExchanged | SeatDead | MahjongDeclared
                 | HandOver)
