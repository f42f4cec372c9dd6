"""Who may send which event frame, how a submitted record is routed, what a taken record
leads to: the event session's three tables.

Tables in the style of the table's PHASE_MOVES (protocol/table/machine/state.py): a
frame's kind to who may send it, a submitted record's body type to how the director handles
it, a taken record's body type to what follows. The session's moves (moves.py) look them up;
an input they refuse raises a typed ``FourwindsError`` and decides nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from fourwinds.protocol.errors import FourwindsError

from ..records import (
    Admit,
    Body,
    Correction,
    Create,
    EndTable,
    Entry,
    Extension,
    NewDirector,
    Penalty,
    RevealLapse,
    RoundCall,
    RoundStart,
    SeedCommit,
    SeedEcho,
    SeedReveal,
    Substitute,
    TableResult,
    TimeCall,
    Withdraw,
    WithdrawnBy,
)


class FrameRefused(FourwindsError):
    """A peer sent a frame it may not send (a guest's frame beyond finding and entering, a
    director's frame from one not the director, a member's from a stranger)."""

    def __init__(self, why: str, guest: bool) -> None:
        super().__init__(why)
        self.guest = guest  # refused for being a guest (not seated), else not a member


class SubmitRefused(FourwindsError):
    """An entrant submitted a record the director does not take from it."""


class Sender(Enum):
    """Who may send a kind of event frame."""

    ANYONE = "anyone"  # a guest too (to find an event and enter it)
    MEMBER = "member"  # the event's director or one of its entrants
    DIRECTOR = "director"  # the event's director only
    PEER = "peer"  # any pinned peer (the records are checked against their signers)


# Who may send each event frame (the frames' names in daemon/wire.py). A guest may send the
# ANYONE frames only, and those only while this daemon directs an event taking entries
# (checked by the daemon, which knows what it directs).
FRAME_SENDERS: Mapping[str, Sender] = {
    "EventFind": Sender.ANYONE,
    "EventAsk": Sender.ANYONE,
    "EventEnter": Sender.ANYONE,
    "EventCall": Sender.DIRECTOR,
    "EventPeers": Sender.DIRECTOR,
    "EventSubmit": Sender.MEMBER,
    "EventRecords": Sender.PEER,
}
GUEST_FRAMES = frozenset(kind for kind, who in FRAME_SENDERS.items() if who is Sender.ANYONE)


def admit_frame(
    kind: str, key: bytes, guest: bool, director: bytes | None, entrants: Iterable[bytes]
) -> Sender:
    """Who may send a frame of ``kind``, once ``key`` is found to be one of them; else
    ``FrameRefused``. ``director`` and ``entrants`` are the event's (None: an event this
    daemon does not hold, checked only for the frames that name their sender's role)."""
    who = FRAME_SENDERS.get(kind)
    if who is None:
        raise FrameRefused(f"{kind} is no event frame", guest)
    if guest and who is not Sender.ANYONE:
        raise FrameRefused(kind, True)
    if who is Sender.DIRECTOR and key != director:
        raise FrameRefused(f"{kind} from one not the event's director", False)
    if who is Sender.MEMBER and (director is None or (key != director and key not in entrants)):
        raise FrameRefused("a record for an event we do not hold", False)
    return who


class Submitted(Enum):
    """How the director handles a record an entrant submits (``EventSubmit``)."""

    FAULTS = "faults"  # a substitute or a new director: gathered by its signers
    SIGNATURE = "signature"  # a seat's signature of its table's result, gathered
    OWN_STEP = "own step"  # the sender's own seed step or withdrawal: taken
    REFUSED = "refused"  # nothing an entrant submits


def _own_player(body: Body, key: bytes) -> bool:
    return getattr(body, "player", None) == key


def _own_withdrawal(body: Body, key: bytes) -> bool:
    return isinstance(body, Withdraw) and body.by is WithdrawnBy.PLAYER and body.player == key


# A submitted record's body type -> how it is handled, and whether it must be the sender's
# own (a test of the body and the sender's key) to be taken.
SUBMIT_ROUTES: Mapping[type, tuple[Submitted, object]] = {
    Substitute: (Submitted.FAULTS, None),
    NewDirector: (Submitted.FAULTS, None),
    TableResult: (Submitted.SIGNATURE, None),
    SeedCommit: (Submitted.OWN_STEP, _own_player),
    SeedEcho: (Submitted.OWN_STEP, _own_player),
    SeedReveal: (Submitted.OWN_STEP, _own_player),
    Withdraw: (Submitted.OWN_STEP, _own_withdrawal),
}


def route_submitted(body: Body, key: bytes, directs: bool) -> Submitted:
    """How a record ``key`` submitted is handled where this daemon holds the event
    (``directs``: it is its director); ``SubmitRefused`` with the one-line reason to send
    back when it is not one to take."""
    route, own = SUBMIT_ROUTES.get(type(body), (Submitted.REFUSED, None))
    if route is Submitted.FAULTS:
        return route  # gathered by whoever holds the event (daemon/events/faults.py)
    if not directs:
        raise FrameRefused("a record for an event we do not direct", False)
    if route is Submitted.SIGNATURE:
        return route
    if route is Submitted.REFUSED or not callable(own) or not own(body, key):
        raise SubmitRefused("a submitted record is a seed step or a withdrawal of your own")
    return route


class Follows(Enum):
    """What a taken record leads to, beyond being held."""

    SPREAD_BY_TAKER = "spread by taker"  # whoever took it spreads it (a new director)
    TELL_SEATS = "tell seats"  # the director tells each seat where its table's others are
    OPEN_TABLES = "open tables"  # our table of the round opens at once


# A taken record's body type -> what it leads to (nothing listed: only spread, by the
# director, as every record it takes is).
TAKEN_LEADS: Mapping[type, frozenset[Follows]] = {
    NewDirector: frozenset({Follows.SPREAD_BY_TAKER}),
    RoundStart: frozenset({Follows.TELL_SEATS, Follows.OPEN_TABLES}),
    Substitute: frozenset({Follows.TELL_SEATS}),
    Create: frozenset(),
    Entry: frozenset(),
    Admit: frozenset(),
    Withdraw: frozenset(),
    SeedCommit: frozenset(),
    SeedEcho: frozenset(),
    SeedReveal: frozenset(),
    RoundCall: frozenset(),
    RevealLapse: frozenset(),
    TableResult: frozenset(),
    Correction: frozenset(),
    Penalty: frozenset(),
    TimeCall: frozenset(),
    Extension: frozenset(),
    EndTable: frozenset(),
}


@dataclass(frozen=True)
class TakenSteps:
    """What the daemon does once records are taken into an event it holds."""

    spread: bool = False  # send the taken records to every entrant (and dial them)
    tell_seats: bool = False  # with them, each seat where its table's others are
    open_tables: bool = False  # open our table of the round just started


def after_taken(taken: Iterable[Body], me: bytes, director: bytes) -> TakenSteps:
    """What records taken into an event lead to at this daemon (``me``), by TAKEN_LEADS:
    the director (or whoever took a new director) spreads them, telling the seats where
    their tables are after a round start or a substitute; a round start opens our table."""
    follows: set[Follows] = set()
    for body in taken:
        follows |= TAKEN_LEADS.get(type(body), frozenset())
    spread = director == me or Follows.SPREAD_BY_TAKER in follows
    return TakenSteps(
        spread=spread,
        tell_seats=spread and Follows.TELL_SEATS in follows,
        open_tables=Follows.OPEN_TABLES in follows,
    )
