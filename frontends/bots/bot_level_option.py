"""``--bot-level easy|normal|strong``: which built-in bot plays the bot seats.

One option for every command that starts built-in bots (`play`, `web`, `bot --rules`), read
once here: the name is checked by ``protocol.bot_level.parse_level`` (an unknown one is
refused naming the known levels) and falls back to the config file's ``bot_level``, whose
default is ``normal`` (the bots as they always played).
"""

from __future__ import annotations

import argparse

from fourwinds.protocol.bot_level import BotLevel, parse_level
from fourwinds.protocol.errors import FourwindsError

DEFAULT_BOT_LEVEL = BotLevel.NORMAL


def level_arg(text: str) -> BotLevel:
    """argparse ``type`` for a level: the level, or argparse's error naming the known ones."""
    try:
        return parse_level(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_bot_level_option(parser: argparse.ArgumentParser, *, configured: bool = True) -> None:
    """``--bot-level LEVEL`` (``configured``: its default is the config file's)."""
    default = "config, then normal" if configured else "normal"
    parser.add_argument(
        "--bot-level",
        type=level_arg,
        metavar="LEVEL",
        help=f"how well the built-in bots play: {', '.join(BotLevel.names())} (default: {default})",
    )


def chosen_level(given: BotLevel | None, configured: str) -> BotLevel:
    """``--bot-level`` when given, else the config file's ``bot_level``."""
    if given is not None:
        return given
    try:
        return parse_level(configured)
    except ValueError as error:
        raise FourwindsError(f"config bot_level: {error}") from None
