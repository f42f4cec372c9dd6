"""Seats and directions. Play passes to the right: East -> South -> West -> North -> East."""

from __future__ import annotations

from enum import IntEnum


class Seat(IntEnum):
    """A seat at the table, by its wind for the current hand. Values index per-seat tuples."""

    EAST = 0
    SOUTH = 1
    WEST = 2
    NORTH = 3

    @property
    def right(self) -> Seat:
        """The next seat in turn order (the player on this seat's right)."""
        return Seat((self + 1) % 4)

    @property
    def across(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def left(self) -> Seat:
        """The previous seat in turn order (the player on this seat's left)."""
        return Seat((self + 3) % 4)


SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH)


def seats_in_turn_order_after(seat: Seat) -> tuple[Seat, Seat, Seat]:
    """The other three seats, nearest in turn order first (the claim tie-break order)."""
    return (seat.right, seat.across, seat.left)
