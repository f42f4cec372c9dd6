"""Who pays whom at the end of an MCR hand (docs/RULES.md B5, B6). Net points per seat, sum zero.

Win on a discard: the discarder pays the fan total + 8, each other player pays 8.
Self-drawn: each of the three pays the fan total + 8. Flowers are part of the total.
Tournament false Mahjong (B6): under 8 points pays 10 to each player; not a winning hand at
all pays 20 to each.
"""

from __future__ import annotations

from ..seats import SEATS, Seat

BASE = 8
PENALTY_UNDER_MINIMUM = 10
PENALTY_NOT_A_WIN = 20

Payments = tuple[int, int, int, int]


def _pack(values: list[int]) -> Payments:
    return (values[0], values[1], values[2], values[3])


def win_payments(winner: Seat, discarder: Seat | None, total: int) -> Payments:
    """Net points for a win with ``total`` fan points (flowers included)."""
    if total < 0:
        raise ValueError("a fan total is never negative")
    net = [0, 0, 0, 0]
    for seat in SEATS:
        if seat == winner:
            continue
        owed = total + BASE if discarder is None or seat == discarder else BASE
        net[seat] -= owed
        net[winner] += owed
    return _pack(net)


def penalty_payments(offender: Seat, each: int) -> Payments:
    """The offender pays ``each`` to every other player."""
    net = [each] * 4
    net[offender] = -3 * each
    return _pack(net)


def add(a: Payments, b: Payments) -> Payments:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])
