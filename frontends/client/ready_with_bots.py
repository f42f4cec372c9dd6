"""Saying ready for the player at a table of the player and three bots: one rule for the
terminal (`fourwinds play`) and the page (`fourwinds web`'s Host with three bots).

The bots are ready as soon as they sit down, so the hand starts at once instead of waiting in
the lobby for a key. Only there: at a table with other people nobody says ready on a
person's behalf (README, "Who is ready"). The bots take their seats a moment after the table
opens, so the request is repeated while the table cannot take it yet, up to ``READY_WAIT_S``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

READY_WAIT_S = 30.0
READY_RETRY_S = 0.1

_NOT_YET = ("not started", "not waiting for this seat")
"""What the daemon answers while the table cannot take our ready yet: its session is not
made (the Open is being written), or its places are not all taken and seated."""


def ready_not_yet(answer: Mapping[str, Any]) -> bool:
    """Whether a refused ``ready`` should be asked again shortly (the table is still being
    filled), rather than reported or dropped (any other refusal, or it was taken)."""
    if answer.get("ok"):
        return False
    error = str(answer.get("error"))
    return any(said in error for said in _NOT_YET)
