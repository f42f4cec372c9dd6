"""Four bots playing a hand or a match with full information (demo, tests, benchmarks).

Pure: the random source is passed in. In a claim window every seat answers in seat order,
which is harmless because the engine resolves a window only when all three answers are in.
"""

from __future__ import annotations

from collections.abc import Callable

from ..seats import SEATS
from .bots import Rng, choose
from .engine import apply
from .events import Event
from .state import HandState, Phase

Listener = Callable[[HandState, object, tuple[Event, ...]], None]


def play_hand(
    state: HandState, rng: Rng, listener: Listener | None = None, max_steps: int = 2000
) -> HandState:
    """Let four bots play ``state`` to the end of the hand."""
    for _ in range(max_steps):
        if state.phase is Phase.ENDED:
            return state
        acted = False
        for seat in SEATS:
            action = choose(state, seat, rng)
            if action is None:
                continue
            state, events = apply(state, action)
            if listener is not None:
                listener(state, action, events)
            acted = True
            break
        if not acted:
            raise RuntimeError("no seat can act in an unfinished hand")
    raise RuntimeError("the hand did not end")
