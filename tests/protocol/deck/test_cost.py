"""The multiplication count the cost table of docs/FAIRNESS.md promises (the benchmark's floor)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from fourwinds.protocol.deck import group
from fourwinds.protocol.deck.loopback import Loopback
from fourwinds.protocol.seats import SEATS, Seat

from .helpers import description, drawing, masked_decks

SIZE = 24


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    calls = [0]
    real, real_each = group.mult, group.mult_each

    def mult(scalar: bytes, point: bytes) -> bytes:
        calls[0] += 1
        return real(scalar, point)

    def mult_each(scalar: bytes, points: Sequence[bytes]) -> list[bytes]:
        calls[0] += len(points)
        return real_each(scalar, points)

    monkeypatch.setattr(group, "mult", mult)
    monkeypatch.setattr(group, "mult_each", mult_each)
    yield calls


def test_two_multiplications_per_point_per_seat_then_one_per_opened_tile(
    counted: list[int],
) -> None:
    loop = Loopback(masked_decks(description(size=SIZE), run=21))
    assert counted[0] == 4 * 2 * SIZE
    counted[0] = 0
    for slot in range(8):
        loop.everyone(drawing(slot, SEATS[slot % 4]))
    assert counted[0] == 8
    counted[0] = 0
    loop.everyone(lambda deck, state: deck.audit(state))
    assert counted[0] == 4 * SIZE - 8  # each seat skips the positions it opened


def test_a_public_reveal_costs_one_multiplication_per_observer(counted: list[int]) -> None:
    loop = Loopback(masked_decks(description(size=SIZE), run=22))
    loop.everyone(drawing(3, Seat.WEST))
    counted[0] = 0
    loop.command(Seat.WEST, lambda deck, state: deck.reveal(state, 3))
    assert counted[0] == 3
