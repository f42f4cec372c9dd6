"""The immutable state of one American hand, and small read-only helpers on it.

Tiles are slots (positions in the wall, ``walls.py``); ``faces[slot]`` is what this engine
knows of each (``Kind.HIDDEN`` when it may not see it). Per-seat tuples are indexed by ``Seat``.
Nothing here changes a state: the rule modules build new ones with ``dataclasses.replace``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import TYPE_CHECKING, NoReturn, TypeVar

from ..errors import IllegalAction
from ..seats import Seat
from ..tiles import Kind
from ..walls import LiveWall
from .config import DeadPlayer, TableOptions

if TYPE_CHECKING:
    from .actions import Action
    from .card import Card

T = TypeVar("T")


class CharlestonStep(Enum):
    """Where the hand is before play, in order (docs/RULES.md A4); PLAY once play has begun."""

    FIRST_RIGHT = "first-right"
    FIRST_ACROSS = "first-across"
    FIRST_LEFT = "first-left"
    POOL = "pool"  # table option: unwanted tiles into a face-up pool ...
    POOL_TAKE = "pool-take"  # ... and as many taken back out
    STOP_VOTE = "stop-vote"
    SECOND_LEFT = "second-left"
    SECOND_ACROSS = "second-across"
    LAST_RIGHT = "last-right"
    COURTESY = "courtesy"
    PLAY = "play"


class Stage(Enum):
    """What play waits for once the Charleston is over."""

    DISCARD = "discard"  # the turn seat holds 14 (with exposures): exchange, Mahjong, discard
    # (``drew`` says whether its 14th tile came from the wall or the deal: self-drawn)
    CALLS = "calls"  # a discard is out: every eligible seat answers call or no call
    MAHJONG = "mahjong"  # a Mahjong call won the discard: the caller shows the hand


@dataclass(frozen=True)
class Exposure:
    """A group laid on the table: it stands for ``kind``; its tiles' faces are public."""

    kind: Kind
    slots: tuple[int, ...]


@dataclass(frozen=True)
class CallsClosed:
    """A call window that closed with at least one call in it: the discard, who discarded
    it, every seat's answer and whose call took the tile (None: it went to nobody, which
    cannot happen once a call is in). ``made``: the hand's discards so far, then (how long
    ago the view still tells it). Public: call answers are public."""

    slot: int
    discarder: Seat
    answers: tuple[Action | None, Action | None, Action | None, Action | None]
    winner: Seat | None
    made: int


@dataclass(frozen=True)
class HandResult:
    """How a hand ended. ``payments[seat]`` is the seat's net gain (they sum to zero)."""

    winner: Seat | None
    hand_id: str | None
    value: int
    jokerless: bool
    self_drawn: bool
    discarder: Seat | None
    payments: tuple[int, int, int, int]

    @property
    def wall_game(self) -> bool:
        return self.winner is None


@dataclass(frozen=True)
class AmericanState:
    """One hand of American Mahjong, from the deal to Mahjong or a wall game."""

    options: TableOptions
    card: Card
    dice: tuple[int, int]
    faces: tuple[Kind, ...]
    wall: LiveWall
    hands: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    exposures: tuple[
        tuple[Exposure, ...], tuple[Exposure, ...], tuple[Exposure, ...], tuple[Exposure, ...]
    ]
    discards: tuple[int, ...]
    public: frozenset[int]
    dead: tuple[bool, bool, bool, bool]
    step: CharlestonStep
    pending: tuple[Action | None, Action | None, Action | None, Action | None]
    turn: Seat = Seat.EAST
    stage: Stage = Stage.DISCARD
    last_discard: int | None = None
    discarder: Seat | None = None
    drew: bool = False
    result: HandResult | None = None
    pool: tuple[int, ...] = ()  # pooling option: the face-up pool, in the order put in
    pooled: tuple[int, int, int, int] = (0, 0, 0, 0)  # tiles each seat put in the pool
    # who discarded each slot this hand (kept when the tile is called: an exposure's called
    # tile says whose discard it was). Public, and follows from the actions played, so the
    # public digest leaves it out.
    discarders: Mapping[int, Seat] = field(default_factory=dict)
    # What the table tells its players afterwards (public, following from the actions, so
    # the public digest leaves them out too): the slots each seat received in the last
    # Charleston or courtesy pass, who voted to stop the Charleston (None before the vote),
    # and the last call window a call was made in (who lost to whom).
    received: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]] = (
        (),
        (),
        (),
        (),
    )
    stop_votes: tuple[Seat, ...] | None = None
    last_calls: CallsClosed | None = None

    @property
    def over(self) -> bool:
        return self.result is not None

    def kinds(self, slots: Iterable[int]) -> tuple[Kind, ...]:
        faces = self.faces
        return tuple(faces[s] for s in slots)

    def concealed_kinds(self, seat: Seat) -> tuple[Kind, ...]:
        return self.kinds(self.hands[seat])

    def exposure_kinds(self, seat: Seat) -> tuple[tuple[Kind, ...], ...]:
        """A seat's exposures as laid (jokers as ``Kind.JOKER``), for the matcher."""
        return tuple(self.kinds(e.slots) for e in self.exposures[seat])

    def tile_count(self, seat: Seat) -> int:
        """Concealed plus exposed tiles (plus any still owed from the pool): 13, or 14
        between draw (or call) and discard."""
        return (
            len(self.hands[seat])
            + sum(len(e.slots) for e in self.exposures[seat])
            + self.pooled[seat]
        )

    def sits_out(self, seat: Seat) -> bool:
        return self.dead[seat] and self.options.dead_player is DeadPlayer.SITS_OUT


_FIELDS: frozenset[str] = frozenset()


def evolve(state: AmericanState, **changes: object) -> AmericanState:
    """``dataclasses.replace`` without re-running ``__init__``: a state is copied every
    action, and bots play thousands of actions a second. Field names are still checked."""
    unknown = changes.keys() - _fields()
    if unknown:
        raise TypeError(f"AmericanState has no field {sorted(unknown)[0]!r}")
    new = object.__new__(AmericanState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _fields() -> frozenset[str]:
    global _FIELDS
    if not _FIELDS:
        _FIELDS = frozenset(f.name for f in fields(AmericanState))
    return _FIELDS


def with_seat(values: tuple[T, T, T, T], seat: Seat, value: T) -> tuple[T, T, T, T]:
    """``values`` with the entry of ``seat`` replaced."""
    items = list(values)
    items[seat] = value
    return (items[0], items[1], items[2], items[3])


def fail(reason: str, seat: Seat | None = None) -> NoReturn:
    """Refuse an action: nothing has been changed yet, so the caller's state stands."""
    raise IllegalAction(reason, None if seat is None else int(seat))


def without(hand: tuple[int, ...], slots: Iterable[int]) -> tuple[int, ...]:
    """``hand`` minus ``slots`` (which must all be in it), order kept."""
    gone = set(slots)
    return tuple(s for s in hand if s not in gone)


def check_own_tiles(state: AmericanState, seat: Seat, slots: tuple[int, ...]) -> None:
    """Every slot distinct and in the seat's concealed hand, else ``IllegalAction``."""
    if len(set(slots)) != len(slots):
        fail("the same tile is named twice", seat)
    hand = set(state.hands[seat])
    for slot in slots:
        if slot not in hand:
            fail(f"tile slot {slot} is not in your hand", seat)


def check_face(state: AmericanState, seat: Seat, slot: int, face: Kind) -> None:
    """A face an action makes public must agree with what this engine knows of the slot."""
    if face in (Kind.HIDDEN,) or not 0 <= face < Kind.HIDDEN:
        fail(f"the face of tile slot {slot} must be given", seat)
    known = state.faces[slot]
    if known != Kind.HIDDEN and known != face:
        fail(f"tile slot {slot} is not {face.name}", seat)


def set_faces(faces: tuple[Kind, ...], updates: dict[int, Kind]) -> tuple[Kind, ...]:
    """``faces`` with the given slots set (a new tuple only when something changes)."""
    if all(faces[s] == k for s, k in updates.items()):
        return faces
    items = list(faces)
    for slot, kind in updates.items():
        items[slot] = kind
    return tuple(items)
