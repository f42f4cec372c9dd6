"""An American hand as a tournament's points need it, and its tournament points (the American
rule set's ``tournament_scores``: its tables' scores, which its ``TournamentRules`` count as
standings points, protocol/tournament/standings.py).

A table played at fourwinds signs its tournament points as its result: each hand's points
come from how the engine ended it (who won, with which card line, self-picked or on whose
discard, jokerless, the discarder's exposures, the dead hands), counted by table place,
since the deal moves round the table after every hand while the seating's winds are the
places (``TableOptions.fixed_winds``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from fourwinds.protocol.american.card import Category
from fourwinds.protocol.american.state import AmericanState
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.rules.ruleset import ScoringFigure
from fourwinds.protocol.tournament.standings import StandingsError

SELF_PICKED_BONUS = 10
JOKERLESS_BONUS = 20
WALL_GAME_POINTS = 10
DISCARDER_PENALTY = (10, 10, 20)  # by the discarder's exposures: 0, 1, 2; 3 or more: the event's
THREE_EXPOSURES_PENALTY = 30
"""The discarder's penalty when it had three or more exposures, by default; some events use
25. An event's own is its scoring figure (``THREE_EXPOSURES``: ``Scoring.rules_figure``)."""
THREE_EXPOSURES = ScoringFigure("three exposures penalty", THREE_EXPOSURES_PENALTY)
"""The American figure of an event's scoring: what a discarder facing three or more exposures
pays (the rule set's ``TournamentRules.figure``)."""


class HandEnd(Enum):
    """How an American hand ended, for tournament points."""

    MAHJONG = "mahjong"
    WALL_GAME = "wall game"
    UNFINISHED = "unfinished"  # time was called before it ended: 0 for everybody


@dataclass(frozen=True)
class AmericanHand:
    """One American hand's end, as tournament points need it."""

    end: HandEnd
    winner: Seat | None = None
    value: int = 0  # the winning line's card value
    self_picked: bool = False
    jokerless: bool = False
    singles_and_pairs: bool = False
    discarder: Seat | None = None
    discarder_exposures: int = 0
    dead: tuple[bool, bool, bool, bool] = (False, False, False, False)


Seating = Sequence[int]
"""``seating[wind]``: the table place that played that wind in the hand."""


def tournament_hand(state: AmericanState, seating: Seating) -> AmericanHand:
    """The hand's end by table place: ``state`` its engine's last state."""

    def place(wind: Seat | None) -> Seat | None:
        return None if wind is None else Seat(seating[wind])

    result = state.result
    if result is None:
        return AmericanHand(HandEnd.UNFINISHED)
    if result.winner is None:
        dead = [False] * 4
        for wind in SEATS:
            dead[seating[wind]] = state.dead[wind]
        return AmericanHand(HandEnd.WALL_GAME, dead=(dead[0], dead[1], dead[2], dead[3]))
    singles = (
        result.hand_id is not None
        and state.card.hand(result.hand_id).category is Category.SINGLES_PAIRS
    )
    exposures = 0 if result.discarder is None else len(state.exposures[result.discarder])
    return AmericanHand(
        HandEnd.MAHJONG,
        place(result.winner),
        result.value,
        result.self_drawn,
        result.jokerless,
        singles,
        None if result.self_drawn else place(result.discarder),
        exposures,
    )


def american_hand_points(
    hand: AmericanHand, three_exposures_penalty: int = THREE_EXPOSURES_PENALTY
) -> tuple[int, int, int, int]:
    """Tournament points of one American hand, per seat E, S, W, N."""
    points = [0, 0, 0, 0]
    if hand.end is HandEnd.WALL_GAME:
        wall = [0 if dead else WALL_GAME_POINTS for dead in hand.dead]
        return (wall[0], wall[1], wall[2], wall[3])
    if hand.end is HandEnd.UNFINISHED:
        return (0, 0, 0, 0)
    if hand.winner is None:
        raise StandingsError("a Mahjong hand without a winner")
    won = hand.value
    if hand.self_picked:
        won += SELF_PICKED_BONUS
    if hand.jokerless and not hand.singles_and_pairs:
        won += JOKERLESS_BONUS
    points[hand.winner] += won
    if not hand.self_picked and hand.discarder is not None:
        exposures = hand.discarder_exposures
        points[hand.discarder] -= (
            DISCARDER_PENALTY[exposures] if exposures < 3 else three_exposures_penalty
        )
    return (points[0], points[1], points[2], points[3])


def american_table_points(
    hands: Sequence[AmericanHand], three_exposures_penalty: int = THREE_EXPOSURES_PENALTY
) -> tuple[int, int, int, int]:
    """A table's tournament points over its hands, per seat E, S, W, N: its scores."""
    total = [0, 0, 0, 0]
    for hand in hands:
        for seat, points in enumerate(american_hand_points(hand, three_exposures_penalty)):
            total[seat] += points
    return (total[0], total[1], total[2], total[3])
