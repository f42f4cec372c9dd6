"""What the table waits for, when a countdown would say nothing: the view's ``waiting``.

A window counts down the time a seat has to decide; its own side answers by default when it
ends. When the seat the table waits for is another player's and that cannot happen, a
countdown stuck at "time 0s" tells a player nothing: its daemon cannot be reached (stopped,
asleep, off the network), or its window is over and it has not answered yet (its player came
back and got a fresh window, ``returning.py``; its daemon is catching up after a restart).
The view then carries ``waiting`` instead, and the frontends draw its ``text`` where the
countdown was:

    {"seats": [2], "names": ["Bob"], "unreachable": true, "seconds": 42,
     "text": "Waiting for Bob (unreachable for 42 s)"}

``seats`` are winds (as the view's ``players`` number them), ``seconds`` how long the longest
of them has been unreachable, or, when all are reachable, how long the table has waited for
them in this step. None while the table waits for our own seat (our countdown is what
matters then), while the others' windows still run, and outside a match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.machine.steps import window_seconds
from fourwinds.protocol.table.views.view_types import WaitingEntry

__all__ = ["waiting_entry"]

_QUIET = (Phase.LOBBY, Phase.OVER, Phase.HALTED)


def waiting_entry(
    s: TableSession,
    waited: Sequence[tuple[Seat, Seat, str]],
    unreachable: Mapping[Seat, int],
    now: float | None,
) -> WaitingEntry | None:
    """The view's ``waiting``. ``waited``: (place, wind, name) of each seat the table waits
    for now; ``unreachable``: whole seconds each unreachable place has been so; ``now``:
    the caller's clock (without it only unreachable seats are named)."""
    if (
        s.me is None
        or s.halted is not None
        or s.phase in _QUIET
        or not waited
        or any(place == s.me for place, _, _ in waited)
    ):
        return None
    away = [(place, wind, name) for place, wind, name in waited if place in unreachable]
    if away:
        seconds = max(unreachable[place] for place, _, _ in away)
        names = [name for _, _, name in away]
        return {
            "seats": [int(w) for _, w, _ in away],
            "names": names,
            "unreachable": True,
            "seconds": seconds,
            "text": f"Waiting for {_names(names)} (unreachable for {seconds} s)",
        }
    if now is None or s.step_started < 0:
        return None
    windows = [window_seconds(s, place) for place, _, _ in waited]
    elapsed = now - s.step_started
    if any(w <= 0 for w in windows) or elapsed < max(windows):
        return None  # no timer (nothing counts down), or a window still running
    names = [name for _, _, name in waited]
    seconds = int(elapsed)
    return {
        "seats": [int(w) for _, w, _ in waited],
        "names": names,
        "unreachable": False,
        "seconds": seconds,
        "text": f"Waiting for {_names(names)} ({seconds} s)",
    }


def _names(names: Sequence[str]) -> str:
    """ "Bob", "Bob and Carol", "Bob, Carol and Dan"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
