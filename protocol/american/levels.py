"""The American bot of each level: ``make_bot(seat, card, chooser, level)``."""

from __future__ import annotations

from ..bot_level import BotLevel
from ..seats import Seat
from .bots import AmericanBot, Chooser
from .card import Card
from .easy import EasyAmericanBot
from .strong import StrongAmericanBot

__all__ = ["make_bot"]

_CLASSES: dict[BotLevel, type[AmericanBot]] = {
    BotLevel.EASY: EasyAmericanBot,
    BotLevel.NORMAL: AmericanBot,
    BotLevel.STRONG: StrongAmericanBot,
}


def make_bot(
    seat: Seat, card: Card, chooser: Chooser, level: BotLevel = BotLevel.NORMAL
) -> AmericanBot:
    """A new bot of ``level`` for ``seat`` (it keeps its plans for one hand)."""
    return _CLASSES[level](seat, card, chooser)
