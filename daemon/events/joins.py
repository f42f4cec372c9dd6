"""`tournament join` under way at this daemon: a join waits for the director's answers, opens
the event only from the creation it asked for, and ends with our entry held, the director's
refusal, or the time out (daemon/events/held.py drives it)."""

from __future__ import annotations

import asyncio

from fourwinds.daemon.events.runtime import EventRuntime, Joining
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.daemon.peers.wire import EventRecords
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.tournament.record_wire import decode_record
from fourwinds.protocol.tournament.records import Create, Record
from fourwinds.protocol.tournament.signing import event_id

JOIN_TIMEOUT_S = 10.0


class Joins:
    """The joins under way, by the director's key."""

    def __init__(self) -> None:
        self.pending: dict[bytes, Joining] = {}

    def start(self, name: str, director: bytes, code: str) -> Joining:
        """A join of ``name`` at ``director`` begins (a second one replaces the first)."""
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        joining = Joining(name, director, code, future)
        self.pending[director] = joining
        return joining

    def creation(self, joining: Joining, key: bytes, frame: EventRecords) -> Record | None:
        """The creation ``frame`` (the director's first answer, from position 0) opens
        ``joining`` with, when the director is the one we dialled and the name the one we
        asked; else the join fails with why (None)."""
        try:
            first = decode_record(frame.records[0])
        except FourwindsError as error:
            self.fail(joining, f"the director's event does not decode: {error}")
            return None
        body = first.body
        if (
            not isinstance(body, Create)
            or event_id(body) != frame.event
            or body.director != key
            or body.name != joining.name
        ):
            self.fail(joining, "the director sent another event than the one asked for")
            return None
        return first

    def entered(self, rt: EventRuntime) -> None:
        """Our entry is held: the join waiting for it is answered."""
        for director, joining in list(self.pending.items()):
            if joining.event == rt.event:
                del self.pending[director]
                if not joining.done.done():
                    joining.done.set_result(rt.event)

    def refused(self, key: bytes, reason: str) -> None:
        """A ``Refuse`` from a director we are joining ends that join with its reason."""
        joining = self.pending.get(key)
        if joining is not None:
            self.fail(joining, reason)

    def fail(self, joining: Joining, reason: str) -> None:
        self.pending.pop(joining.director, None)
        if not joining.done.done():
            joining.done.set_exception(ApiError(f"cannot join {joining.name}: {reason}"))
