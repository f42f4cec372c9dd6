"""How long a bot seat waits before it acts, so a person at the table can follow the bots.

One rule for every bot seat that sits with a person (`fourwinds play`, the web lobby's Host
with bots): the seat is started with ``--pause SECONDS`` (``fourwinds bot``'s own default is
0, so benchmarks, bot-only tables and any bot started by hand take none). The pause is
counted from the moment the view asked, so a bot that thought for a while waits only the
rest; it is never more than ``SAFE_SHARE`` of the time the view says is left for the
decision (a bot is never late, and a short call window stays short), and a view that only
asks for "ready" or "next" (what a person waits on) is answered at once.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.errors import FourwindsError

DEFAULT_BOT_PAUSE = 1.0
"""Seconds a bot seat at a table with a person waits before each decision (config
``bot_pause``, ``--bot-pause``)."""
MAX_BOT_PAUSE = 10.0
SAFE_SHARE = 0.25
"""The largest part of the time left in a decision's window a pause may take."""
NO_PAUSE_TYPES = frozenset({"ready", "next", "more_time"})
"""Actions answered without a pause: saying ready, going on to the next hand (the person
waits for them) and asking for more time."""


def pause_problem(seconds: float | None) -> str:
    """What is wrong with a pause setting ("" when fine, or not given)."""
    if seconds is None:
        return ""
    if not 0 <= seconds <= MAX_BOT_PAUSE:
        return f"must be 0 to {MAX_BOT_PAUSE:g} seconds"
    return ""


def pause_for(event: ViewEvent, setting: float) -> float:
    """Seconds to wait, from the moment ``event`` arrived, before acting on it: ``setting``
    for a decision of the bot's own (a discard, a call or a pass, a Charleston pass), at most
    ``SAFE_SHARE`` of the view's ``deadline`` (the seconds left in the window, when it has
    one); 0 for a view that asks only for ready or next, and at a setting of 0."""
    if setting <= 0:
        return 0.0
    legal = [a for a in event.get("legal_actions") or () if isinstance(a, Mapping)]
    if not any(a.get("type") not in NO_PAUSE_TYPES for a in legal):
        return 0.0
    left = event["view"].get("deadline")
    if isinstance(left, (int, float)) and not isinstance(left, bool):
        return max(0.0, min(setting, SAFE_SHARE * float(left)))
    return float(setting)


def add_bot_pause_option(parser: argparse.ArgumentParser) -> None:
    """``--bot-pause SECONDS`` for the commands that seat bots beside a person."""
    parser.add_argument(
        "--bot-pause",
        type=float,
        metavar="SECONDS",
        help="how long each bot waits before it discards, calls or passes, "
        "so you can follow (never late: at most a quarter of the time "
        f"left; default: config, then {DEFAULT_BOT_PAUSE:g}; 0: none)",
    )


def chosen_pause(given: float | None, configured: float) -> float:
    """The pause for the bots seated beside a person: ``--bot-pause`` when given, else the
    config file's ``bot_pause`` (its default ``DEFAULT_BOT_PAUSE``)."""
    seconds = configured if given is None else given
    problem = pause_problem(seconds)
    if problem:
        raise FourwindsError(f"--bot-pause {seconds:g}: {problem}")
    return float(seconds)
