"""Which screen a seat view asks for, decided once for every frontend (the terminal, the
page, the bots): the daemon's seat view carries it as ``screen``. A leaf module (it imports
nothing of the protocol), so a frontend may use it without loading the rule sets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def screen_of(view: Mapping[str, Any]) -> str:
    """ "reconnecting" (our daemon, started again, is still catching up with the other seats:
    the rest of the view is stale; table_runtimes/catching_up.py), "lobby" (the table fills and says
    ready), "result" (a hand or the match is over, with its result), "dealing" (a hand is
    being seated and dealt: no seat of ours to draw the table from yet) or "table"."""
    if view.get("reconnecting"):
        return "reconnecting"
    phase = view.get("phase")
    if phase == "lobby":
        return "lobby"
    if phase == "match_over" or (phase == "hand_over" and view.get("result")):
        return "result"
    if view.get("seat") is None:
        return "dealing"
    return "table"
