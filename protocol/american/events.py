"""What an American hand reports. ``audience`` None means public, else the one seat it is for.

Faces in private events are the engine's knowledge (``Kind.HIDDEN`` when it cannot see them).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..notation import format_tiles
from ..seats import Seat
from ..tiles import Kind
from .state import CharlestonStep, HandResult


class Public:
    """An event every seat sees."""

    @property
    def audience(self) -> Seat | None:
        return None


class Private:
    """An event only ``seat`` sees (its faces are that seat's secret)."""

    seat: Seat

    @property
    def audience(self) -> Seat | None:
        return self.seat


@dataclass(frozen=True)
class Dealt(Private):
    seat: Seat
    slots: tuple[int, ...]
    faces: tuple[Kind, ...]


@dataclass(frozen=True)
class InputReceived(Public):
    """A seat's part of a step that waits for every seat (pass, vote, call answer) is in."""

    seat: Seat


@dataclass(frozen=True)
class PassMade(Public):
    """A Charleston or courtesy pass went through: who gave how many, how many unseen."""

    step: CharlestonStep
    seat: Seat
    to: Seat
    count: int
    blind: int


@dataclass(frozen=True)
class TilesReceived(Private):
    seat: Seat
    slots: tuple[int, ...]
    faces: tuple[Kind, ...]


@dataclass(frozen=True)
class Pooled(Public):
    """Pooling option: ``seat`` put these tiles face up into the pool."""

    seat: Seat
    slots: tuple[int, ...]
    faces: tuple[Kind, ...]


@dataclass(frozen=True)
class PoolTaken(Public):
    """Pooling option: ``seat`` took these pool tiles (faces public: the pool is face up)."""

    seat: Seat
    slots: tuple[int, ...]


@dataclass(frozen=True)
class StepStarted(Public):
    """The Charleston moved on to ``step`` (or to play)."""

    step: CharlestonStep


@dataclass(frozen=True)
class Drew(Public):
    """``seat`` drew the wall tile at ``slot`` (its face goes privately in ``TileSeen``)."""

    seat: Seat
    slot: int
    remaining: int


@dataclass(frozen=True)
class TileSeen(Private):
    seat: Seat
    slot: int
    face: Kind


@dataclass(frozen=True)
class Discarded(Public):
    seat: Seat
    slot: int
    face: Kind
    callable: bool


@dataclass(frozen=True)
class Called(Public):
    """``seat`` took the discard at ``slot`` and exposed ``kinds`` (as laid, jokers as J)."""

    seat: Seat
    slot: int
    kinds: tuple[Kind, ...]
    mahjong: bool


@dataclass(frozen=True)
class JokerExchanged(Public):
    seat: Seat
    owner: Seat
    slot: int
    face: Kind
    joker_slot: int


@dataclass(frozen=True)
class SeatDead(Public):
    seat: Seat
    reason: str


@dataclass(frozen=True)
class MahjongDeclared(Public):
    """``seat`` went Mahjong with card line ``hand_id``: ``alternative`` is which of the
    line's ``alternatives`` patterns ("... or ...", 0 = the first) and ``groups`` the
    concrete tiles of each of its groups (jokers shown as the tile they stand for)."""

    seat: Seat
    hand_id: str
    value: int
    jokerless: bool
    self_drawn: bool
    faces: tuple[Kind, ...]
    alternative: int = 0
    groups: tuple[tuple[Kind, ...], ...] = ()
    alternatives: int = 1

    @property
    def made(self) -> str:
        """Which alternative and the concrete tiles, for logs: " (alternative 2 of 3) as FF
        4444s 6666s 8888s" ("" when the groups are not known)."""
        which = (
            f" (alternative {self.alternative + 1} of {self.alternatives})"
            if self.alternatives > 1
            else ""
        )
        if not self.groups:
            return which
        return f"{which} as {' '.join(format_tiles(group) for group in self.groups)}"


@dataclass(frozen=True)
class HandOver(Public):
    result: HandResult


AmericanEvent = (
    Dealt
    | InputReceived
    | PassMade
    | Pooled
    | PoolTaken
    | TilesReceived
    | StepStarted
    | Drew
    | TileSeen
    | Discarded
    | Called
    | JokerExchanged
    | SeatDead
    | MahjongDeclared
    | HandOver
)
