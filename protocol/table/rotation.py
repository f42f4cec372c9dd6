"""Who sits in which wind for each hand of a match.

American (RULES.md A3/A7): the deal passes to the right after every hand, so the player who
was South becomes East. MCR (RULES.md B2): seat winds are drawn once; after every hand the
winds rotate the same way (E -> N, S -> E, ...), and at the end of each round the players
change seats so that the first South is East at the start of the South round. With the
tournament exchange (E<->S and W<->N, a four-way move, E<->S and W<->N again) the players who
drew E, S, W, N start the four rounds as:

    round 1: E S W N    round 2: S E N W    round 3: W N S E    round 4: N W E S
"""

from __future__ import annotations

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import RuleSet

# Row r: for each starting wind of the round (E, S, W, N), which first-hand wind holds it.
_MCR_ROUND_START = ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 1, 0), (3, 2, 0, 1))

Seating = tuple[Seat, Seat, Seat, Seat]
"""``seating[wind]`` is the table place playing that wind this hand."""


def seating_for_hand(ruleset: RuleSet, first: Seating, hand_no: int) -> Seating:
    """The seating of hand ``hand_no`` (0-based) given the first hand's seating."""
    if ruleset is RuleSet.AMERICAN:
        return _rotate(first, hand_no)
    round_no, in_round = divmod(hand_no, 4)
    row = _MCR_ROUND_START[round_no % 4]
    start = (first[row[0]], first[row[1]], first[row[2]], first[row[3]])
    return _rotate(start, in_round)


def _rotate(start: Seating, hands: int) -> Seating:
    """After each hand the player who was South becomes East."""
    k = hands % 4
    return (start[k % 4], start[(k + 1) % 4], start[(k + 2) % 4], start[(k + 3) % 4])


def prevalent_wind(ruleset: RuleSet, hand_no: int) -> int:
    """MCR: the round wind (E for hands 0-3, S for 4-7...). American has none (East)."""
    return 0 if ruleset is RuleSet.AMERICAN else (hand_no // 4) % 4


def first_seating(east: Seat) -> Seating:
    """The first hand: ``east`` deals and the others follow round the table to its right."""
    return (east, Seat((east + 1) % 4), Seat((east + 2) % 4), Seat((east + 3) % 4))


def wind_of(seating: Seating, place: Seat) -> Seat:
    return SEATS[seating.index(place)]
