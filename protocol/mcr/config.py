"""Table options of an MCR table: friendly or tournament, and the optional timed end.

The engine never reads a clock: a timed end is a hand count fixed in advance (``max_hands``),
a deadline on the caller's clock (``deadline``, checked when the caller passes its time to
``match.tick``), or the caller telling the match that time is up (``match.call_time``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

HANDS_PER_MATCH = 16
HANDS_PER_ROUND = 4


class TableMode(Enum):
    """How false declarations are treated (RULES.md B6)."""

    FRIENDLY = "friendly"  # a false Mahjong is refused with the reason; nothing happens
    TOURNAMENT = "tournament"  # a false Mahjong is accepted and penalised; the hand goes dead


@dataclass(frozen=True)
class TableOptions:
    """What the four seats agreed on before the match."""

    mode: TableMode = TableMode.FRIENDLY
    max_hands: int = HANDS_PER_MATCH  # a fixed hand count (timed end agreed in hands)
    deadline: float | None = None  # the caller's clock reading at which time is up
    min_points: int = 8  # points needed without flowers (B5); fixed by the rules, kept visible

    def __post_init__(self) -> None:
        if not 1 <= self.max_hands <= HANDS_PER_MATCH:
            raise ValueError(f"max_hands must be 1-{HANDS_PER_MATCH}, got {self.max_hands}")

    @property
    def tournament(self) -> bool:
        return self.mode is TableMode.TOURNAMENT
