"""Who pays whom at Mahjong (docs/RULES.md A7), V being the hand's value on the card.

| how                                 | discarder | each other |
| Mahjong on a discard                | 2V        | V          |
| Mahjong self-drawn                  | -         | 2V         |
| jokerless (not S&P), on a discard   | 4V        | 2V         |
| jokerless (not S&P), self-drawn     | -         | 4V         |

Dead players pay like everyone else. A wall game pays nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..seats import SEATS, Seat
from .card import Category
from .matcher import HandMatch


def jokerless_bonus(match: HandMatch) -> bool:
    """Jokerless doubles the payment, except for Singles-and-Pairs (jokerless by nature)."""
    return match.jokerless and match.hand.category is not Category.SINGLES_PAIRS


def match_worth(match: HandMatch) -> int:
    """The value a match is paid on: V, doubled for a jokerless bonus."""
    return match.hand.value * (2 if jokerless_bonus(match) else 1)


def best_match(matches: Sequence[HandMatch]) -> HandMatch:
    """The match paying most (the first such in the matcher's order)."""
    return max(matches, key=match_worth)


def payments(
    winner: Seat, value: int, jokerless: bool, self_drawn: bool, discarder: Seat | None
) -> tuple[int, int, int, int]:
    """Net gain of every seat (sums to zero)."""
    unit = value * (2 if jokerless else 1)
    net = [0, 0, 0, 0]
    for seat in SEATS:
        if seat == winner:
            continue
        owed = 2 * unit if self_drawn or seat == discarder else unit
        net[seat] -= owed
        net[winner] += owed
    return (net[0], net[1], net[2], net[3])


WALL_GAME: tuple[int, int, int, int] = (0, 0, 0, 0)
