"""Whether a view event shows anything its frontends have not been sent yet.

The daemon refreshes every table's view once a second (the syncer), so that a countdown, an
unreachable seat's seconds or a member's liveness reach the screens. Most of those refreshes
show nothing new, and each one made every frontend redraw (a page reset the action its player
was choosing). ``shown`` reduces an event to what a person sees, so the daemon sends a
refresh only when that changed:

* the event's own counters are left out (``seq``, ``applied_at``, ``steps_applied``: they
  change with a view, never without one);
* a countdown is compared by when it ends, not by the seconds left (those fall every second
  while the window stays the same; frontends count down from the view they have), at a
  half-second grain so that building the view a moment later does not look like a change;
  a countdown at zero stays zero.
"""

from __future__ import annotations

from typing import Any

DEADLINE_GRAIN_S = 0.5
_COUNTERS = ("seq", "applied_at", "steps_applied")


def shown(event: dict[str, Any], now: float) -> object:
    """What a person sees of ``event`` (a view event), comparable with ``==``; ``now`` is the
    monotonic time its countdowns were read at."""
    view = dict(event.get("view") or {})
    view["deadline"] = _ends_at(view.get("deadline"), now)
    nxt = view.get("next")
    if isinstance(nxt, dict):
        view["next"] = {**nxt, "deadline": _ends_at(nxt.get("deadline"), now)}
    rest = {k: v for k, v in event.items() if k not in _COUNTERS and k != "view"}
    return repr(sorted(rest.items())), repr(sorted(view.items()))


def _ends_at(left: object, now: float) -> object:
    if isinstance(left, bool) or not isinstance(left, (int, float)) or left <= 0:
        return left
    return round((now + float(left)) / DEADLINE_GRAIN_S)
