"""An American hand as a tournament's points need it (protocol/tournament/standings.py).

A table played at fourwinds signs its tournament points as its result: each hand's points
come from how the engine ended it (who won, with which card line, self-picked or on whose
discard, jokerless, the discarder's exposures, the dead hands), counted by table place,
since the deal moves round the table after every hand while the seating's winds are the
places (``TableOptions.fixed_winds``).
"""

from __future__ import annotations

from collections.abc import Sequence

from fourwinds.protocol.american.card import Category
from fourwinds.protocol.american.state import AmericanState
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tournament.standings import AmericanHand, HandEnd

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
    singles = (result.hand_id is not None
               and state.card.hand(result.hand_id).category is Category.SINGLES_PAIRS)
    exposures = 0 if result.discarder is None else len(state.exposures[result.discarder])
    return AmericanHand(HandEnd.MAHJONG, place(result.winner), result.value,
                        result.self_drawn, result.jokerless, singles,
                        None if result.self_drawn else place(result.discarder), exposures)
