"""Seatings: who sits in which wind for a hand, and the moves every rule set shares.

How the players sit from hand to hand is each rule set's (``RuleSetAdapter.seating_for_hand``
and ``prevalent_wind``, in its folder: American passes the deal to the right after every hand,
docs/RULES.md A3/A7; MCR draws the winds once and changes seats at each round's end, B2,
``protocol/mcr/match.py``). This module holds what they share: the seating type, the first
seating round the table from a given East, passing the deal to the right, and a place's wind.
"""

from __future__ import annotations

from fourwinds.protocol.seats import SEATS, Seat

Seating = tuple[Seat, Seat, Seat, Seat]
"""``seating[wind]`` is the table place playing that wind this hand."""


def rotate(start: Seating, hands: int) -> Seating:
    """The seating ``hands`` hands after ``start`` when the deal passes to the right after
    each hand (the player who was South becomes East)."""
    k = hands % 4
    return (start[k % 4], start[(k + 1) % 4], start[(k + 2) % 4], start[(k + 3) % 4])


def first_seating(east: Seat) -> Seating:
    """The first hand: ``east`` deals and the others follow round the table to its right."""
    return (east, Seat((east + 1) % 4), Seat((east + 2) % 4), Seat((east + 3) % 4))


def wind_of(seating: Seating, place: Seat) -> Seat:
    return SEATS[seating.index(place)]
