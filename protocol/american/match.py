"""A match of American hands: running scores, and the deal passing to the right (docs/RULES.md A7).

Players are numbered 0-3 for the whole match; winds are per hand. Player ``dealer`` is East;
after each hand the deal passes to the right, so the player who was South becomes East.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..seats import Seat
from .state import HandResult

HANDS_PER_GAME = 4  # 002: traditionally a game is at least four hands, a match four games


@dataclass(frozen=True)
class MatchState:
    """Scores by player and who deals the next hand."""

    scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    dealer: int = 0
    hands_played: int = 0
    wall_games: int = 0

    def seat_of(self, player: int) -> Seat:
        """The wind ``player`` sits at in the coming hand."""
        return Seat((player - self.dealer) % 4)

    def player_at(self, seat: Seat) -> int:
        return (self.dealer + int(seat)) % 4

    def after(self, result: HandResult) -> MatchState:
        """Add a finished hand's payments and pass the deal to the right."""
        scores = list(self.scores)
        for seat in Seat:
            scores[self.player_at(seat)] += result.payments[seat]
        return replace(
            self,
            scores=(scores[0], scores[1], scores[2], scores[3]),
            dealer=self.player_at(Seat.SOUTH),
            hands_played=self.hands_played + 1,
            wall_games=self.wall_games + (1 if result.wall_game else 0),
        )
