"""What a seat's deck hands back besides its new state: messages to send and local events."""

from __future__ import annotations

from dataclasses import dataclass

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind

from .blame import Blame
from .messages import Body, KeyDelivery, Signed

Message = Signed[Body] | KeyDelivery
"""Anything one seat's deck sends another."""


@dataclass(frozen=True)
class Send:
    """Deliver ``message`` to the seats in ``to`` (all others for a broadcast)."""

    to: tuple[Seat, ...]
    message: Message


@dataclass(frozen=True)
class SeedReady:
    """The commit-reveal round finished: the shared seed."""

    seed: bytes


@dataclass(frozen=True)
class WallReady:
    """The final masked wall is known: draws can start."""

    wall_digest: bytes


@dataclass(frozen=True)
class Learned:
    """This seat may now see ``slot``'s face (its own draw, a pass it received, or public)."""

    slot: int
    kind: Kind
    public: bool = False


@dataclass(frozen=True)
class Moved:
    """Positions changed hands publicly (their faces stay private)."""

    slots: tuple[int, ...]
    holder: Seat


@dataclass(frozen=True)
class Suspect:
    """Something is wrong that only the audit can pin on a seat (e.g. keys that do not unmask).

    ``complainer`` raised it; the table should run the audit now.
    """

    complainer: Seat
    slot: int


@dataclass(frozen=True)
class AuditFinished:
    """The end-of-hand audit: every face, and every seat the audit blamed (empty when fair)."""

    faces: tuple[Kind, ...]
    blames: tuple[Blame, ...]


Event = SeedReady | WallReady | Learned | Moved | Suspect | AuditFinished
Output = Send | Event


def others(seat: Seat) -> tuple[Seat, ...]:
    """Every seat but ``seat``: the recipients of a broadcast."""
    return tuple(s for s in SEATS if s != seat)
