"""Carrying out an event session's Steps at this daemon (protocol/tournament/session/steps.py).

Every ``Store`` of an outcome is written and synced first, in one append: nothing leaves
before the records it rests on are durable, and when the disk refuses, the event keeps the
state it had and nothing else is done. Then each step is performed in order, by its type
(``_performers``); one step that fails is logged and never stops the others. A director's
spread is gathered for SPREAD_BATCH_S into one frame an entrant.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from functools import cached_property
from typing import Any

from fourwinds.daemon.events.host import EventsHost
from fourwinds.daemon.events.runtime import EventRuntime
from fourwinds.daemon.peers.wire import (
    EVENT_RECORDS_BYTES,
    EVENT_RECORDS_MAX,
    EventAsk,
    EventCall,
    EventRecords,
    EventSubmit,
    Refuse,
)
from fourwinds.daemon.store.disk import StoreError
from fourwinds.protocol.tournament.record_wire import encode_record
from fourwinds.protocol.tournament.session import Me, Outcome
from fourwinds.protocol.tournament.session import steps as do

log = logging.getLogger("fourwinds.daemon.events.held")  # the part's log lines, as before

SPREAD_BATCH_S = 0.02  # the director spreads the records it took within this in one frame
MAX_NOTES_REMEMBERED = 1024  # the session's notes logged once each, up to this many


class StepPerformer:
    """Performs the Steps of every event this daemon holds (``events``, shared with the
    tournament part that holds them); ``announce`` and ``entered`` are that part's."""

    def __init__(
        self,
        d: EventsHost,
        events: Mapping[bytes, EventRuntime],
        me: Callable[[], Me],
        announce: Callable[[EventRuntime], None],
        entered: Callable[[EventRuntime], None],
    ) -> None:
        self.d = d
        self.events = events
        self._me = me
        self._announce = announce
        self._entered = entered
        self._noted: set[str] = set()

    def perform(self, rt: EventRuntime, outcome: Outcome, address: str = "") -> bool:
        """Store, then perform ``outcome``'s steps and keep its state; False (nothing done,
        the state before kept) when the disk refuses the records."""
        stored = tuple(
            r for step in outcome.steps if isinstance(step, do.Store) for r in step.records
        )
        if stored:
            try:
                rt.log.append(stored)
            except StoreError as error:
                log.error("event %s: cannot store records: %s", rt.event.hex()[:8], error)
                return False
        rt.state = outcome.state
        for step in outcome.steps:
            try:
                self._performers[type(step)](rt, step, address)
            except Exception:  # one step's failure never stops the others
                log.exception("event %s: %s failed", rt.name, type(step).__name__)
        return True

    @cached_property
    def _performers(self) -> dict[type, Callable[[EventRuntime, Any, str], None]]:
        """Each step's type -> how this daemon performs it."""
        return {
            do.Store: lambda rt, step, address: None,  # written before the others
            do.SendRecords: lambda rt, step, address: self.send_from(step.to, rt, step.start),
            do.Spread: lambda rt, step, address: self._spread_soon(rt, step),
            do.Ask: lambda rt, step, address: self.d.transport.send(
                step.to, EventAsk(rt.event, step.have)
            ),
            do.Submit: lambda rt, step, address: self.d.transport.send(
                step.to, EventSubmit(rt.event, encode_record(step.record))
            ),
            do.SendCall: lambda rt, step, address: self.d.transport.send(
                step.to, EventCall(rt.event, step.round)
            ),
            do.Refuse: lambda rt, step, address: self.d.transport.send(
                step.to, Refuse(step.reason[:200])
            ),
            do.WrongCode: lambda rt, step, address: rt.guesses.failed(
                time.monotonic(), step.key, address
            ),
            do.Admitted: lambda rt, step, address: self.d.transport.admitted(step.key),
            do.Dial: lambda rt, step, address: self.dial(step.key),
            do.TellSeats: lambda rt, step, address: self.d.event_tables.tell_peers(
                rt, around=step.around
            ),
            do.OpenTables: lambda rt, step, address: self.d.event_tables.round_started(rt),
            do.Entered: lambda rt, step, address: self._entered(rt),
            do.Announce: lambda rt, step, address: self._announce(rt),
            do.GatherFault: lambda rt, step, address: self.d.event_faults.submitted(
                rt, step.sender, step.record
            ),
            do.Note: lambda rt, step, address: self.note(rt, step.text),
        }

    def note(self, rt: EventRuntime, text: str) -> None:
        """A note of the session's (or of a frame that did not decode), logged once (up to
        MAX_NOTES_REMEMBERED)."""
        said = f"{rt.event.hex()}{text}"
        if said in self._noted:
            return
        if len(self._noted) >= MAX_NOTES_REMEMBERED:
            self._noted.clear()
        self._noted.add(said)
        log.warning("event %s: %s", rt.event.hex()[:8], text)

    def send_from(self, key: bytes, rt: EventRuntime, start: int) -> None:
        """The records from ``start`` on, as many as one frame holds (the receiver asks
        again for the rest)."""
        chunk: list[bytes] = []
        size = 0
        for record in rt.held.records[start : start + EVENT_RECORDS_MAX]:
            data = encode_record(record)
            if chunk and size + len(data) > EVENT_RECORDS_BYTES:
                break
            chunk.append(data)
            size += len(data)
        if chunk:
            self.d.transport.send(key, EventRecords(rt.event, start, tuple(chunk)))

    def dial(self, key: bytes) -> None:
        """Reach ``key`` where it was last seen."""
        where = self.d.frames.addresses.get(key)
        if where is not None and where[1]:
            self.d.transport.dial(key, [where])

    def _spread_soon(self, rt: EventRuntime, step: do.Spread) -> None:
        """Send the records taken from ``step.start`` on to every entrant within
        SPREAD_BATCH_S: a burst of seed steps (32 reveals within a few milliseconds) goes
        out as one frame an entrant, not one a record (each frame costs every daemon its
        decryption, check and answer; on two cores that, not the checking, was the seed's
        time)."""
        first = rt.unspread is None
        rt.unspread = step.start if rt.unspread is None else min(rt.unspread, step.start)
        rt.tell_seats |= step.tell_seats
        if not first:
            return
        try:
            asyncio.get_running_loop().call_later(SPREAD_BATCH_S, self._spread, rt)
        except RuntimeError:  # no loop running (a test's direct call): at once
            self._spread(rt)

    def _spread(self, rt: EventRuntime) -> None:
        """Send what ``_spread_soon`` gathered."""
        start, rt.unspread = rt.unspread, None
        if start is None or rt.event not in self.events:
            return
        me = self._me().key
        try:
            for key in rt.entrants():
                if key != me:
                    self.send_from(key, rt, start)
                    self.dial(key)
            if rt.tell_seats:
                rt.tell_seats = False
                self.d.event_tables.tell_peers(rt)  # each seat: where its table's others are
        except Exception:
            log.exception("event %s: spreading its records failed", rt.name)
