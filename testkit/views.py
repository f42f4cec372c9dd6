"""Reading the seat view a daemon sends (docs/LOCAL-API.md) the way several tests do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def our_exposures(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Our seat's exposures in the view (``players`` entry whose ``seat`` is the view's
    ``seat``), each as the view gives it (``tiles``, ...); none before we are seated."""
    me = view.get("seat")
    for player in view.get("players") or ():
        if player.get("seat") == me:
            return list(player.get("exposures") or ())
    return []
