"""One points format on every screen (protocol/tournament/points_text.py, issue 38 defect 5:
13/2, 6.50 and 3/2 were shown on different screens)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from fourwinds.protocol.tournament.points_text import points_text


@pytest.mark.parametrize(
    "points, shown",
    [
        (Fraction(6), "6"),
        (Fraction(13, 2), "6.5"),
        (Fraction(3, 2), "1.5"),
        (Fraction(7, 3), "2.33"),
        (Fraction(-1, 2), "-0.5"),
        (Fraction(1, 4), "0.25"),
        (0, "0"),
    ],
)
def test_points_are_a_whole_number_or_a_decimal_of_two_places_at_most(
    points: Fraction, shown: str
) -> None:
    assert points_text(points) == shown
