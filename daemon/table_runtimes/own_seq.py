"""Before a resumed seat signs anything new, the other seats say the last number it used.

A seat's messages are numbered (each seat's chain); signing two different messages at one
number is equivocation, which every other seat reports and refuses. A seat resumed from its
own records holds every message it sent (a record is on disk before its message leaves), but
a records folder restored from an older backup, or copied to a second machine with the same
identity key, does not. So a resumed table asks every other member for its ``Heads`` (the
highest number of each seat it holds) and signs nothing there (no action, no timer's
default, no automatic answer) until each live member has answered, or CONFIRM_S has passed
with a member still unreachable; and, if one holds a number of ours beyond our records,
until the catch-up has brought those messages back. docs/DAEMON.md, "Resuming".
"""

from __future__ import annotations

from dataclasses import dataclass, field

CONFIRM_S = 5.0
"""How long a resumed seat waits for members that have not answered before it signs again
(an unreachable member cannot be asked; one that answers later still raises ``ahead``)."""


@dataclass
class OwnSeqCheck:
    """The question a resumed seat asks of the other members, while it is open."""

    place: int  # our place at the table
    until: float  # time.monotonic() after which we stop waiting
    waiting: set[bytes] = field(default_factory=set)  # members yet to answer
    ahead: int = -1  # the highest number of our seat any member holds (-1: none)

    def heard(self, key: bytes, seqs: tuple[int, int, int, int]) -> None:
        """``key``'s ``Heads``."""
        self.waiting.discard(key)
        self.ahead = max(self.ahead, seqs[self.place])

    def holds(self, own_last: int, now: float) -> str:
        """Why our seat may not sign yet (``own_last``: the last number our records hold),
        or "" once it may."""
        if own_last < self.ahead:
            return (
                f"the other seats hold our messages up to number {self.ahead} and our "
                f"records end at {own_last}: fetching them before signing again"
            )
        if self.waiting and now < self.until:
            return "asking the other seats for the last message number we used"
        return ""
