"""The ``easy`` American bot: a beginner's play, still legal and quick.

It aims for the nearest line like the normal bot but is slow to get there: it never calls a
discard for an exposure (only for Mahjong), never exchanges for a joker on the table, and
often (``CARELESS`` of its discards) lets go a tile at random (never a joker) instead of
its plan's least wanted one. It never defends. Randomness only through the chooser.
"""

from __future__ import annotations

from ..tiles import Kind
from .actions import Call, Discard, ExchangeJoker
from .bots import AmericanBot, Plan
from .state import AmericanState

__all__ = ["CARELESS", "EasyAmericanBot"]

CARELESS = 0.3


class EasyAmericanBot(AmericanBot):
    """A seat's easy bot (see the module's docstring)."""

    def _exposure_call(self, state: AmericanState, plan: Plan, kind: Kind) -> Call | None:
        return None

    def _exchange(self, state: AmericanState, plan: Plan) -> ExchangeJoker | None:
        return None

    def _discard(self, state: AmericanState, plan: Plan | None) -> Discard:
        if plan is not None and self.chooser.random() < CARELESS:
            hand = [s for s in state.hands[self.seat] if state.faces[s] != Kind.JOKER]
            if hand:
                slot = hand[int(self.chooser.random() * len(hand)) % len(hand)]
                return Discard(self.seat, slot, state.faces[slot])
        return super()._discard(state, plan)
