"""How well a built-in bot plays: ``easy``, ``normal`` (the bots as they always played) or
``strong``.

One enum for both rule sets and every front end, so a level is named once (``--bot-level``,
the config key ``bot_level``, the web lobby, the local API's ``suggest``) and parsed in one
place: an unknown name is refused with the known ones listed.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["BotLevel", "parse_level"]


class BotLevel(Enum):
    """A built-in bot's strength (the value is the name the user types)."""

    EASY = "easy"  # a beginner: slow to build a hand, no defence; legal and quick
    NORMAL = "normal"  # the bots as they played before levels existed
    STRONG = "strong"  # counts unseen tiles, weighs the hand's value, defends

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(level.value for level in cls)


def parse_level(text: object) -> BotLevel:
    """The level named ``text`` (case and surrounding spaces ignored); ValueError naming the
    known levels for anything else."""
    name = str(text).strip().lower()
    for level in BotLevel:
        if level.value == name:
            return level
    raise ValueError(f"unknown bot level {text!r}: choose one of {', '.join(BotLevel.names())}")
