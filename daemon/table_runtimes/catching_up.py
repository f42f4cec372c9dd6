"""After a restart, our seat is "reconnecting" until it holds what the other seats hold.

A daemon started again (after a crash, ``kill -9``, a reboot) resumes each table from its own
records: the table as it was when it stopped. The other seats may have played on meanwhile.
Until their messages are in, the view we would show is stale: the turn before, and perhaps a
call prompt whose window has long run out. So the view says ``reconnecting: true`` (the
screen: "Reconnecting: asking the other seats…", no actions) while either

- our seat may not sign yet (``own_seq.py``: the others have not said the last number we
  used), or
- some member told us (its ``Heads``) that it holds messages of a seat past those we hold:
  the catch-up we asked for is still on its way,

for at most RECONNECT_MAX_S (a member that never sends what it said it holds does not keep
our player from the table for ever). When it ends, our player "returns": the window for the
decision in front of our seat starts again (protocol/table/machine/returning.py). docs/DAEMON.md,
"A player returns".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

RECONNECT_MAX_S = 10.0
"""The longest a resumed table shows "Reconnecting" (CONFIRM_S, 5 s, is the longest its
signing waits for an unreachable member; the rest is for the catch-up itself)."""

RECONNECTING_TEXT = "Reconnecting: asking the other seats\u2026"


@dataclass
class CatchingUp:
    """A resumed table's catch-up, while it is open."""

    until: float  # time.monotonic() after which it is over
    heads: list[int] = field(default_factory=lambda: [-1, -1, -1, -1])  # most any member holds

    def heard(self, seqs: Sequence[int]) -> None:
        """A member's ``Heads``: the highest number of each seat it holds."""
        self.heads = [max(a, int(b)) for a, b in zip(self.heads, seqs, strict=True)]

    def behind(self, held: Sequence[int], now: float) -> bool:
        """Do we still lack messages some member holds (``held``: the highest number of each
        seat we hold)? False once RECONNECT_MAX_S is over."""
        return now < self.until and any(
            ours < theirs for ours, theirs in zip(held, self.heads, strict=True)
        )
