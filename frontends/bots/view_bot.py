"""A bot that plays from the view alone: legal, rules-agnostic, modest.

It is the fallback brain of `fourwinds bot --rules ...` when the rule set's own bot
(``fourwinds.protocol.<rules>.bots``) offers no view-level entry point, and the model for bot
authors: it only reads ``view`` and ``legal_actions``. Mahjong whenever legal; otherwise it
keeps pairs and jokers, gives away lone tiles (discards, Charleston passes) and passes on calls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from fourwinds.frontends.bots.exec_bot import default_request
from fourwinds.frontends.client.acting import act_request, rack_tiles
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.table.views.view_types import ActionEntry

Event = ViewEvent
Action = ActionEntry


def _keep_order(hand: Sequence[str], drawn: str | None) -> list[str]:
    """Tiles from most expendable to least: lone tiles (the drawn one first), pairs, jokers."""
    counts = Counter(hand)

    def cost(code: str) -> tuple[int, int]:
        if code == "J":
            return (9, 0)
        return (counts[code], 0 if code == drawn else 1)

    return sorted(hand, key=cost)


def choose_request(event: Event) -> dict[str, Any] | None:
    """The act request this bot sends for ``event`` (None when nothing is legal)."""
    legal: list[Action] = list(event.get("legal_actions") or ())
    if not legal:
        return None
    view = event["view"]
    hand = rack_tiles(view)
    order = _keep_order(hand, view.get("drawn"))
    for action in legal:
        if action.get("type") == "mahjong":
            return act_request(event, action)
    discards = {
        str(a["tiles"][0]): a
        for a in legal
        if a.get("type") == "discard" and len(a.get("tiles") or ()) == 1
    }
    for code in order:
        if code in discards:
            return act_request(event, discards[code])
    for action in legal:
        if "choose" in action:
            want = int(action["choose"])
            allowed = Counter(str(t) for t in action.get("tiles") or ())
            picked: list[str] = []
            for code in order:
                if len(picked) < want and allowed[code] > 0:
                    picked.append(code)
                    allowed[code] -= 1
            if len(picked) == want:
                return act_request(event, action, picked)
    return default_request(event)
