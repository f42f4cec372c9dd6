"""The immutable state of one MCR hand, and small pure helpers to derive new states.

Every tile is a slot (its wall position); ``faces[slot]`` is its face or ``Kind.HIDDEN`` where
this engine instance cannot see it. Seats are the seat winds of this hand (East deals).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from ..seats import Seat
from ..tiles import Kind
from ..walls import LiveWall
from .actions import Answer
from .config import TableOptions
from .events import AnswerKind, DrawSource
from .hand import MeldType


class Phase(Enum):
    FLOWERS = "flowers"  # start of hand: ``turn`` exposes its flowers, then says FlowersDone
    TURN = "turn"  # ``turn`` holds 14 (counting melds) and must discard, kong or win
    CLAIMS = "claims"  # the three others answer ``pending`` (a discard)
    ROB = "rob"  # the three others may rob ``pending`` (a tile added to a pung)
    ENDED = "ended"


@dataclass(frozen=True)
class MeldRec:
    """A meld on the table, by slots; ``claimed_from`` is who discarded the claimed tile."""

    type: MeldType
    slots: tuple[int, ...]
    concealed: bool = False
    claimed_from: Seat | None = None


@dataclass(frozen=True)
class SeatState:
    hand: tuple[int, ...] = ()  # concealed slots, in the order received
    melds: tuple[MeldRec, ...] = ()
    flowers: tuple[int, ...] = ()
    discards: tuple[int, ...] = ()  # dead discards (claimed ones move into the claimer's meld)
    dead: bool = False  # tournament: after a false Mahjong; keeps playing, cannot win or claim


@dataclass(frozen=True)
class HandResult:
    """How the hand ended. ``payments`` are net points per seat (they sum to zero)."""

    winner: Seat | None
    discarder: Seat | None
    self_drawn: bool
    fans: tuple[tuple[str, int, int], ...]
    total: int
    payments: tuple[int, int, int, int]


@dataclass(frozen=True)
class ClosedClaims:
    """The last claim window that went to a claim while another seat claimed too: which
    seat took ``slot`` (discarded by ``discarder``) and what each seat had answered, so a
    seat whose claim lost is told why (the seat view's news). ``made``: the discards made
    in the hand by then (``discards_made``), for how long it is news."""

    slot: int
    discarder: Seat
    winner: Seat
    answers: tuple[AnswerKind | None, AnswerKind | None, AnswerKind | None, AnswerKind | None]
    made: int


@dataclass(frozen=True)
class HandState:
    options: TableOptions
    prevalent_wind: int
    dice: tuple[int, int, int, int]
    faces: tuple[Kind, ...]
    wall: LiveWall
    seats: tuple[SeatState, SeatState, SeatState, SeatState]
    phase: Phase
    turn: Seat
    drawn: int | None = None  # the tile ``turn`` just drew (the self-drawn winning tile)
    drawn_source: DrawSource | None = None
    may_declare: bool = False  # ``turn`` drew (or is East's first turn): kongs, self-drawn win
    pending: int | None = None  # the discard (CLAIMS) or the added tile (ROB)
    answers: tuple[Answer | None, Answer | None, Answer | None, Answer | None] = (
        None,
        None,
        None,
        None,
    )
    revealed: frozenset[int] = frozenset()  # concealed slots shown at a (false) Mahjong
    penalties: tuple[int, int, int, int] = (0, 0, 0, 0)  # running B6 penalty points
    result: HandResult | None = None
    last_claims: ClosedClaims | None = None

    def seat(self, seat: Seat) -> SeatState:
        return self.seats[seat]

    def face(self, slot: int) -> Kind:
        return self.faces[slot]

    def kinds(self, slots: tuple[int, ...]) -> tuple[Kind, ...]:
        return tuple(self.faces[s] for s in slots)


_T = TypeVar("_T", "HandState", "SeatState", "MeldRec")


def evolve(obj: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` for the engine's hot path: copies the fields without running
    ``__init__`` again (these dataclasses have no validation to re-run). Unknown field names
    are an error, as with ``replace``."""
    fields = obj.__dict__
    for name in changes:
        if name not in fields:
            raise TypeError(f"{type(obj).__name__} has no field {name!r}")
    new = object.__new__(type(obj))
    new.__dict__.update(fields)
    new.__dict__.update(changes)
    return new


def with_seat(state: HandState, seat: Seat, new: SeatState) -> HandState:
    seats = list(state.seats)
    seats[seat] = new
    return evolve(state, seats=(seats[0], seats[1], seats[2], seats[3]))


def with_faces(state: HandState, faces: dict[int, Kind]) -> HandState:
    """Record faces (from an action or ``learn``); known faces must agree."""
    if not faces:
        return state
    new = list(state.faces)
    for slot, face in faces.items():
        new[slot] = face
    return evolve(state, faces=tuple(new))


def meld_kinds(state: HandState, meld: MeldRec) -> tuple[Kind, ...]:
    return tuple(sorted(state.faces[s] for s in meld.slots))


def public_slots(state: HandState) -> frozenset[int]:
    """Slots whose faces every seat may see: flowers, discards, exposed melds, shown hands."""
    out: set[int] = set(state.revealed)
    for seat in state.seats:
        out.update(seat.flowers)
        out.update(seat.discards)
        for meld in seat.melds:
            if not meld.concealed:
                out.update(meld.slots)
    if state.pending is not None:
        out.add(state.pending)
    return frozenset(out)


def visible_to(state: HandState, seat: Seat | None) -> frozenset[int]:
    """Slots ``seat`` may see (None: only public ones)."""
    public = public_slots(state)
    if seat is None:
        return public
    own = state.seats[seat]
    mine: set[int] = set(own.hand)
    for meld in own.melds:
        mine.update(meld.slots)
    return public | mine


def discards_made(state: HandState) -> int:
    """Every discard made in the hand so far, the claimed ones (now in melds) too."""
    return sum(
        len(seat.discards) + sum(1 for m in seat.melds if m.claimed_from is not None)
        for seat in state.seats
    )
