"""A table our seat lost (a damaged or deleted record log), rebuilt from the other seats.

The other three hold every message of the table, our own included; what only we knew follows
from our identity key (table_runtimes/seat_secrets.py). So a table whose log cannot be resumed is
not given up: its damaged folder is kept aside with the reason (``Store.set_aside``), a fresh
folder is started (``Store.start_rebuilding``), and until the table is rebuilt our seat signs
nothing there. Every second it asks each live member for ``Heads`` (the highest sequence
number of each seat it holds) and for every seat's messages after the ones we hold
(``CatchUp``); what comes back goes into the session module's pool, which checks each message
by its seat's signature. Once all three have answered and the pool holds every message up to
the highest number any of them holds for each seat (for our own seat that is the last number
we used), the session is rebuilt in a thread, its records written and synced, and the table
goes on like any resumed one. docs/DAEMON.md, "Rebuilding a seat from its peers".
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fourwinds.daemon.table_runtimes.session_port import SessionPort

log = logging.getLogger(__name__)

LOST = "its folder was lost"
"""The reason of a rebuild offered by a peer: this daemon held no copy of the table at all."""
MAX_OFFERED = 4
"""Tables offered by peers (``LOST``) being rebuilt at once: a peer cannot make us hold more."""
PEER_SHOWN_S = 3.0
"""How long after a member's last ``Rebuild`` the others' screens still say it rebuilds."""


@dataclass
class Rebuilding:
    """Our seat's rebuild of one table, while it runs."""

    reason: str  # why the table is rebuilt (the damage, or "lost")
    pool: Any  # the session module's pool of the peers' copies
    heads: dict[bytes, tuple[int, ...]] = field(default_factory=dict)  # peer -> its heads
    running: bool = False  # the replay runs in a thread
    failed: str = ""  # why it cannot be rebuilt (it is not retried), or ""

    def merged(self) -> list[int]:
        """For each seat, the highest sequence number any peer holds (-1: none)."""
        out = [-1, -1, -1, -1]
        for seqs in self.heads.values():
            out = [max(a, b) for a, b in zip(out, seqs, strict=True)]
        return out

    def ready(self, peers: Sequence[bytes]) -> bool:
        """Every other seat answered, and the pool holds everything up to their heads."""
        return (
            not self.running
            and not self.failed
            and bool(peers)
            and all(p in self.heads for p in peers)
            and bool(self.pool.complete(self.merged()))
        )

    def detail(self, peers: Sequence[bytes]) -> str:
        """One line for our player's view."""
        if self.failed:
            return f"Cannot rebuild this table from the other seats: {self.failed}"
        answered = sum(1 for p in peers if p in self.heads)
        held = sum(self.pool.held(seat) for seat in range(4))
        text = (
            f"Rebuilding this table from the other seats' copies ({self.reason}): "
            f"{held:,} messages checked"
        )
        if answered < len(peers):
            return f"{text}; {answered} of {len(peers)} seats answered so far"
        missing = self.pool.missing(self.merged())
        return f"{text}, {missing:,} to come" if missing else f"{text}; replaying them"


def can_rebuild(port: SessionPort, place: int | None, members: int) -> bool:
    """Whether the session module can rebuild a seat and the table has every seat to ask."""
    return (
        port.rebuild_pool is not None
        and port.rebuild is not None
        and place is not None
        and members == 4
    )


def start(
    port: SessionPort, place: int, own_key: bytes, host_key: bytes, reason: str
) -> Rebuilding:
    """A rebuild of our seat ``place`` (the host's key, when known, must sign the Open)."""
    make = port.rebuild_pool
    assert make is not None  # asked only where can_rebuild holds
    return Rebuilding(reason, make(place, own_key, host_key or None))
