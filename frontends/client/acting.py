"""Which decision a view asks for, and the request that answers it: what every seat shares.

The terminal's keys, the command line's verbs and every bot answer the same ``legal_actions``
of the same view events (docs/LOCAL-API.md) the same way: a decision is answered once
(``decision_key``), only with an action the view offers and the tiles it allows
(``check_choice``), by an ``act`` request that names the action as shown (``act_request``),
from our rack in rack order (``rack_tiles``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.table.views.view_types import ActionEntry, SeatView

Event = ViewEvent
Action = ActionEntry
View = SeatView


def decision_key(event: Event) -> object:
    """What identifies the decision a view asks for, so it is answered once.

    The view's ``seq`` changes with every change at the table, including another seat's
    answer to the same call window, so two events can ask the same question; when the view
    carries the table's ``step`` (the table session's does), the step and the offered action
    ids name the decision; otherwise the seq does.
    """
    view = event["view"]
    if "step" in view:
        ids = tuple(str(a.get("id")) for a in event.get("legal_actions") or ())
        return ("step", view.get("step"), ids)
    return ("seq", event.get("seq"))


def act_request(event: Event, action: Action, tiles: Sequence[str] | None = None) -> dict[str, Any]:
    """The local-API request acting on ``action`` of ``event`` (tiles only when it chooses).

    ``expected`` carries the action as shown, so the daemon refuses the request instead of
    doing something else when the table has moved on and the id now means another action."""
    request: dict[str, Any] = {
        "type": "act",
        "table": event.get("table"),
        "seq": event.get("seq"),
        "action": action.get("id"),
        "expected": dict(action),
    }
    if "choose" in action:
        request["tiles"] = list(tiles or ())
    return request


def check_choice(action: Action, chosen: Sequence[str]) -> str | None:
    """Why ``chosen`` cannot be the tiles of a choosing action, or None when it can."""
    want = int(action.get("choose", 0))
    if len(chosen) != want:
        label = action.get("label", "this action")
        return f"{label}: select {want} tile(s), you selected {len(chosen)}"
    allowed = Counter(str(t) for t in action.get("tiles") or ())
    for code, count in Counter(chosen).items():
        if allowed[code] < count:
            return f"{action.get('label', 'this action')}: {code} cannot be chosen"
    return None


def rack_tiles(view: View) -> list[str]:
    """Our concealed tiles in rack order: the view's ``rack`` (the tile just drawn last),
    or, from a daemon that sends none, its sorted ``hand``; empty when the view carries
    neither (a ``hand`` that is not a list of codes is not a rack)."""
    hand = view.get("rack")
    if not isinstance(hand, list | tuple):
        hand = view.get("hand")
    if not isinstance(hand, list | tuple):
        return []
    return [str(code) for code in hand]
