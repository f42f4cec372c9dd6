"""What an event session asks its daemon to do, as frozen values in order.

The daemon writes and syncs every ``Store`` of an outcome before it performs any other step
(nothing leaves before the records it rests on are durable); when the disk refuses, it keeps
the state of what was written and performs nothing else. The frames each step becomes are
the daemon's (daemon/peers/wire.py); who is to be sent a ``Spread`` is the record's
entrants.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..records import Record


@dataclass(frozen=True)
class Store:
    """Append these records, taken, to the event's log."""

    records: tuple[Record, ...]


@dataclass(frozen=True)
class SendRecords:
    """Send ``to`` the records held from ``start`` on (as many as a frame holds)."""

    to: bytes
    start: int


@dataclass(frozen=True)
class Spread:
    """As the director (or whoever took a new director): send the records taken from
    ``start`` on to every entrant and dial them (the daemon may gather a burst into one
    frame); ``tell_seats``: with them, each seat where its table's others are."""

    start: int
    tell_seats: bool = False


@dataclass(frozen=True)
class Ask:
    """Ask ``to`` for the records from ``have`` on."""

    to: bytes
    have: int


@dataclass(frozen=True)
class Submit:
    """Send ``record`` to ``to`` (the director) for it to take."""

    to: bytes
    record: Record


@dataclass(frozen=True)
class SendCall:
    """Tell ``to`` the director called ``round``."""

    to: bytes
    round: int


@dataclass(frozen=True)
class Refuse:
    """Answer ``to`` that what it sent is refused, and why (one line)."""

    to: bytes
    reason: str


@dataclass(frozen=True)
class WrongCode:
    """``key`` gave a wrong code for a private event (counted against it by the daemon)."""

    key: bytes


@dataclass(frozen=True)
class Admitted:
    """``key``'s entry is held: it may connect as a member from now on."""

    key: bytes


@dataclass(frozen=True)
class Dial:
    """Reach ``key`` where it was last seen (it may have restarted)."""

    key: bytes


@dataclass(frozen=True)
class TellSeats:
    """As the director: tell the seats where their table's others are (``around``: only
    those sharing a table with that key; None: every seat of the round)."""

    around: bytes | None = None


@dataclass(frozen=True)
class OpenTables:
    """A round started: open our table of it now."""


@dataclass(frozen=True)
class Entered:
    """Our own entry is held: a join waiting for it is answered."""


@dataclass(frozen=True)
class Announce:
    """What the event's mDNS announcement says changed (entries closed: withdraw it)."""


@dataclass(frozen=True)
class GatherFault:
    """A substitute's or a new director's signature ``sender`` submitted, for the daemon's
    faults part to gather (it offers the record once its signers agree: ``Gathered``)."""

    sender: bytes
    record: Record


@dataclass(frozen=True)
class Note:
    """Something the daemon's log should say (a round that cannot be seated)."""

    text: str


Step = (
    Store
    | SendRecords
    | Spread
    | Ask
    | Submit
    | SendCall
    | Refuse
    | WrongCode
    | Admitted
    | Dial
    | TellSeats
    | OpenTables
    | Entered
    | Announce
    | GatherFault
    | Note
)
