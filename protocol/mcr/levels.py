"""The MCR bot of each level: one entry point, ``choose(state, seat, rng, level)``."""

from __future__ import annotations

from ..bot_level import BotLevel
from ..seats import Seat
from . import bots, easy, strong
from .actions import Action
from .state import HandState

__all__ = ["choose"]


def choose(
    state: HandState, seat: Seat, rng: bots.Rng, level: BotLevel = BotLevel.NORMAL
) -> Action | None:
    """The action of a ``level`` bot for ``seat`` now (None: nothing to do)."""
    if level is BotLevel.STRONG:
        return strong.choose(state, seat, rng)
    if level is BotLevel.EASY:
        return easy.choose(state, seat, rng)
    return bots.choose(state, seat, rng)
