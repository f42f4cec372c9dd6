"""An MCR match (docs/RULES.md B2): 16 hands in 4 rounds, seat winds and seats, running scores.

Players are numbered 0-3 and keep their number for the whole match; ``drawn_winds[p]`` is the
wind player ``p`` drew at the start (the random draw is an input: see ``winds_from_rolls``).
At the start of round ``r`` the table positions East, South, West, North (East has South on
its right) hold the players who drew ``ROUND_SEATING[r]``: the player who drew the round's
wind sits East. 003 gives the exchanges: after the East round E<->S and W<->N, after the South
round a four-way move, after the West round E<->S and W<->N again. Within a round the seat
winds rotate after every hand (E->N, S->E, W->S, N->W): the player at position ``p`` has
seat wind ``(p - j) % 4`` in the round's hand ``j``. MCR has no repeat hands: the winds move
on after every hand, won or drawn.

A timed end is ``TableOptions.max_hands``, ``TableOptions.deadline`` (checked by ``tick``
with the caller's clock reading) or ``call_time``: the hand in play is finished and the match
then ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import IllegalAction
from ..seats import SEATS, Seat
from ..tiles import Kind
from .actions import Action
from .config import HANDS_PER_ROUND, TableOptions
from .engine import apply, new_hand
from .events import Event
from .state import HandResult, HandState, Phase

ROUND_SEATING: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3),  # East round: as drawn
    (1, 0, 3, 2),  # South round: E<->S, W<->N
    (2, 3, 1, 0),  # West round: four-way move (E->W, S->N, W->S, N->E)
    (3, 2, 0, 1),  # North round: E<->S, W<->N
)
"""For each round, the wind drawn by the player sitting at East, South, West, North."""


def winds_from_rolls(rolls: Sequence[int]) -> tuple[int, int, int, int]:
    """The seat-wind draw by dice (B2): players roll in turn, 1 E, 2 S, 3 W, 4 N; a 5, a 6
    or a wind already taken is rolled again; the last player takes the wind left.
    Returns ``drawn_winds`` (player -> wind 0-3)."""
    winds: list[int] = []
    free = [0, 1, 2, 3]
    it = iter(rolls)
    while len(winds) < 3:
        try:
            roll = next(it)
        except StopIteration:
            raise ValueError("not enough rolls to draw the seat winds") from None
        if not 1 <= roll <= 6:
            raise ValueError(f"a die shows 1-6, not {roll}")
        if roll <= 4 and roll - 1 in free:
            winds.append(roll - 1)
            free.remove(roll - 1)
    winds.append(free[0])
    return (winds[0], winds[1], winds[2], winds[3])


@dataclass(frozen=True)
class HandRecord:
    """A finished hand, by player: ``seat_of[p]`` is player p's seat wind in that hand."""

    number: int
    prevalent_wind: int
    seat_of: tuple[Seat, Seat, Seat, Seat]
    result: HandResult
    points: tuple[int, int, int, int]  # by player


@dataclass(frozen=True)
class MatchState:
    options: TableOptions
    drawn_winds: tuple[int, int, int, int]
    scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    records: tuple[HandRecord, ...] = ()
    hand: HandState | None = None
    time_called: bool = False

    @property
    def hands_played(self) -> int:
        return len(self.records)

    @property
    def finished(self) -> bool:
        if self.hand is not None:
            return False
        return self.hands_played >= self.options.max_hands or self.time_called


def new_match(options: TableOptions, drawn_winds: Sequence[int]) -> MatchState:
    if sorted(drawn_winds) != [0, 1, 2, 3]:
        raise ValueError(f"drawn winds must be a permutation of 0-3, got {list(drawn_winds)}")
    w = tuple(drawn_winds)
    return MatchState(options, (w[0], w[1], w[2], w[3]))


def hand_seating(
    first: tuple[Seat, Seat, Seat, Seat], number: int
) -> tuple[Seat, Seat, Seat, Seat]:
    """Who holds each wind in hand ``number`` (0-based; past the 16th the rounds start over):
    ``first[w]`` is who holds wind ``w`` in the first hand (who drew it), the answer the same
    for the hand asked. Each round starts with the players seated as ``ROUND_SEATING`` says,
    and within it the winds rotate after every hand (the player who was South becomes East).
    The table session (``ruleset.py``) and ``seat_winds`` both seat the players with this."""
    rnd, j = divmod(number, HANDS_PER_ROUND)
    row = ROUND_SEATING[rnd % len(ROUND_SEATING)]
    start = (first[row[0]], first[row[1]], first[row[2]], first[row[3]])
    k = j % 4
    return (start[k], start[(k + 1) % 4], start[(k + 2) % 4], start[(k + 3) % 4])


def seat_winds(match: MatchState, number: int) -> tuple[Seat, Seat, Seat, Seat]:
    """Each player's seat wind in hand ``number`` (0-15)."""
    if number >= HANDS_PER_ROUND * len(ROUND_SEATING):
        raise IndexError(f"an MCR match has 16 hands, not hand {number}")
    drew = match.drawn_winds
    seating = hand_seating(
        (Seat(drew.index(0)), Seat(drew.index(1)), Seat(drew.index(2)), Seat(drew.index(3))), number
    )
    return (
        Seat(seating.index(Seat(0))),
        Seat(seating.index(Seat(1))),
        Seat(seating.index(Seat(2))),
        Seat(seating.index(Seat(3))),
    )


def player_at(match: MatchState, seat: Seat, number: int | None = None) -> int:
    """The player holding seat wind ``seat`` in hand ``number`` (default: the current one)."""
    winds = seat_winds(match, match.hands_played if number is None else number)
    return winds.index(seat)


def prevalent_wind(number: int) -> int:
    return number // HANDS_PER_ROUND


def start_hand(
    match: MatchState, faces: Sequence[Kind], dice: tuple[int, int, int, int]
) -> tuple[MatchState, tuple[Event, ...]]:
    """Deal the next hand (faces by slot, the four dice of its wall break)."""
    if match.hand is not None:
        raise IllegalAction("a hand is still in play")
    if match.finished:
        raise IllegalAction("the match is over")
    hand, events = new_hand(match.options, faces, dice, prevalent_wind(match.hands_played))
    return replace(match, hand=hand), events


def play(match: MatchState, action: Action) -> tuple[MatchState, tuple[Event, ...]]:
    """Apply an action to the hand in play; a finished hand is scored into the match."""
    if match.hand is None:
        raise IllegalAction("no hand is in play")
    hand, events = apply(match.hand, action)
    if hand.phase is not Phase.ENDED:
        return replace(match, hand=hand), events
    assert hand.result is not None
    number = match.hands_played
    winds = seat_winds(match, number)
    points = tuple(hand.result.payments[winds[p]] for p in range(4))
    record = HandRecord(
        number,
        prevalent_wind(number),
        winds,
        hand.result,
        (points[0], points[1], points[2], points[3]),
    )
    scores = tuple(s + p for s, p in zip(match.scores, points, strict=True))
    return replace(
        match,
        hand=None,
        records=(*match.records, record),
        scores=(scores[0], scores[1], scores[2], scores[3]),
    ), events


def call_time(match: MatchState) -> MatchState:
    """The caller's clock ran out: the hand in play is finished, then the match ends."""
    return replace(match, time_called=True)


def tick(match: MatchState, now: float) -> MatchState:
    """The caller's clock reads ``now``: past the table's deadline, time is called."""
    deadline = match.options.deadline
    if deadline is not None and now >= deadline and not match.time_called:
        return call_time(match)
    return match


def standings(match: MatchState) -> tuple[int, ...]:
    """Players from the highest score down (ties by player number)."""
    return tuple(sorted(range(4), key=lambda p: (-match.scores[p], p)))


__all__ = [
    "ROUND_SEATING",
    "SEATS",
    "HandRecord",
    "MatchState",
    "call_time",
    "hand_seating",
    "new_match",
    "play",
    "player_at",
    "seat_winds",
    "standings",
    "start_hand",
    "tick",
    "winds_from_rolls",
]
