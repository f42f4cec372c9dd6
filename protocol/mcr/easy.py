"""The ``easy`` MCR bot: a beginner's play, still legal and quick.

A beginner declares what wins and lays out flowers, but is slow to build a hand: it never
claims a discard to make a meld (only to win), so its hands stay concealed and long; and
often (``CARELESS`` of its discards) it throws the tile that merely looks least useful on
its own (no neighbours, no copies) instead of working out which plan it is nearest. It
never defends. Pure: randomness only through ``rng``.
"""

from __future__ import annotations

from ..seats import Seat
from ..tiles import Kind
from . import bots
from .actions import Action, ClaimChow, ClaimKong, ClaimPung, Discard, Pass
from .state import HandState

__all__ = ["CARELESS", "choose"]

CARELESS = 0.5  # share of discards chosen by looks alone


def choose(state: HandState, seat: Seat, rng: bots.Rng) -> Action | None:
    """The easy bot's action for ``seat`` now, or None when the seat has nothing to do."""
    action = bots.choose(state, seat, rng)
    if isinstance(action, (ClaimChow, ClaimPung, ClaimKong)):
        return Pass(seat)
    if isinstance(action, Discard) and rng.random() < CARELESS:
        pos = bots._Position(state, seat)
        held = [k for k in range(len(pos.counts)) if pos.counts[k]]
        if held:
            kind = min(held, key=lambda k: (bots._keep_worth(k, pos.counts), k))
            slots = [s for s in state.seats[seat].hand if state.faces[s] == kind]
            return Discard(seat, slots[-1], Kind(kind))
    return action
