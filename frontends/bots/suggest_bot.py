"""The brain of `fourwinds bot --rules`: the daemon's built-in engine bot decides.

For every view that asks for an action the seat asks its daemon for ``suggest`` (the rule
set's own bot, deciding from our seat's engine state: protocol/table/views/suggest.py) and acts on
it with the same act request a player's key press sends. When the daemon has no suggestion
(an older daemon, the view is stale, the bot's choice is not offered) the view bot
(frontends/bots/view_bot.py) decides; when the daemon refuses the suggested act, the view bot's
choice and then the seat's default are sent (``bot_seat.play_seat``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fourwinds.frontends.bots.bot_seat import FunctionBrain
from fourwinds.frontends.bots.view_bot import choose_request
from fourwinds.frontends.client.acting import act_request
from fourwinds.frontends.client.daemon_link import LocalApi
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.bot_level import BotLevel

log = logging.getLogger(__name__)
Event = ViewEvent


def suggest_request(event: Event, level: BotLevel = BotLevel.NORMAL) -> dict[str, Any]:
    """The local-API ``suggest`` request for ``event``'s table (``level`` named unless it is
    ``normal``, which every daemon plays)."""
    request: dict[str, Any] = {"type": "suggest", "table": event.get("table")}
    if level is not BotLevel.NORMAL:
        request["level"] = level.value
    return request


def suggested_request(
    api: LocalApi, event: Event, level: BotLevel = BotLevel.NORMAL
) -> dict[str, Any] | None:
    """The act request for the daemon's suggestion (its bot of ``level``) for ``event``, or
    None when there is none for this very decision (no suggestion, another step, or an
    action ``event`` lists not)."""
    try:
        answer = api.request(suggest_request(event, level))
    except (TimeoutError, OSError) as error:
        log.warning("no suggestion from the daemon: %s", error)
        return None
    if not answer.get("ok"):
        log.debug("suggest refused: %s", answer.get("error"))
        return None
    found = answer.get("suggestion")
    if not isinstance(found, Mapping):
        return None
    step = event["view"].get("step")
    if step is not None and found.get("step") != step:
        log.debug("suggestion for step %s, the view is at %s", found.get("step"), step)
        return None
    action = found.get("action")
    if not isinstance(action, Mapping) or action not in list(event.get("legal_actions") or ()):
        return None
    tiles = found.get("tiles")
    log.debug("engine bot: %s %s", action.get("label"), tiles or "")
    return act_request(event, action, [str(t) for t in tiles] if isinstance(tiles, list) else None)


def engine_brain(api: LocalApi, level: BotLevel = BotLevel.NORMAL) -> FunctionBrain:
    """The built-in bot seat: the daemon's suggestion (its bot of ``level``), else the view
    bot's choice (also the fall-back when the daemon refuses the suggested act)."""

    def choose(event: Event) -> dict[str, Any] | None:
        return suggested_request(api, event, level) or choose_request(event)

    return FunctionBrain(choose, fallback=choose_request)
