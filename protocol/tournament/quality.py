"""Measures of a seating: repeated meetings and seat-wind balance (for tests and benches).

A pair's meetings are the rounds its two players share a table; bot seats meet nobody.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from .seating import RoundSeating


def meetings(rounds: Sequence[RoundSeating]) -> Counter[tuple[int, int]]:
    """How often each pair (lower number first) shared a table."""
    met: Counter[tuple[int, int]] = Counter()
    for seating in rounds:
        for table in seating.tables:
            people = sorted(p for p in table if p is not None)
            met.update(combinations(people, 2))
    return met


def repeats(rounds: Sequence[RoundSeating]) -> int:
    """Meetings beyond each pair's first."""
    return sum(m - 1 for m in meetings(rounds).values())


def sum_of_squares(rounds: Sequence[RoundSeating]) -> int:
    """The sum over pairs of (meetings - 1)**2."""
    return sum((m - 1) ** 2 for m in meetings(rounds).values())


def wind_counts(rounds: Sequence[RoundSeating]) -> dict[int, list[int]]:
    """Each seated player's count at East, South, West and North."""
    counts: dict[int, list[int]] = {}
    for seating in rounds:
        for table in seating.tables:
            for wind, p in enumerate(table):
                if p is not None:
                    counts.setdefault(p, [0, 0, 0, 0])[wind] += 1
    return counts


def wind_spread(rounds: Sequence[RoundSeating], *, every_round: bool = False) -> int:
    """The largest difference between a player's most and least held wind, after every
    fourth round (the target: at most 1), or with ``every_round`` after each round."""
    ends = range(1, len(rounds) + 1) if every_round else range(4, len(rounds) + 1, 4)
    worst = 0
    for end in ends:
        for counts in wind_counts(rounds[:end]).values():
            worst = max(worst, max(counts) - min(counts))
    return worst
