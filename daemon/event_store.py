"""Durable storage of the tournament events this daemon holds: one record log per event.

Every entrant's daemon keeps its event's whole record (issue 23), as it keeps its tables'
transcripts: ``<data>/events/<event id>/records.log`` in the table log's framing
(store.py: length, crc32, bytes; a torn tail cut on open), one signed record a frame, in
record order. A record is appended only when ``protocol/tournament/intake.take_next``
accepts it (the event's checker is kept in memory: each record offered is checked once),
and synced before ``offer`` returns, so whatever a peer was told we hold is on disk. On open
the whole record is read back and checked again: a damaged log, a record that no longer
decodes, or a record the checker refuses sets the event's folder aside as
``set-aside-<id>`` with the reason in ``set-aside.txt`` (never deleted, never a crash);
the event can then be fetched again from its peers.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from fourwinds.daemon.paths import ensure_private_dir
from fourwinds.daemon.store.disk import RECORDS, StoreError, TableLog, write_atomic
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.tournament.check import EventChecker, Verdict, check_event
from fourwinds.protocol.tournament.intake import Decision, Intake, take_next
from fourwinds.protocol.tournament.record_wire import decode_record, encode_record
from fourwinds.protocol.tournament.records import Create, Record
from fourwinds.protocol.tournament.signing import event_id

log = logging.getLogger(__name__)

SET_ASIDE_PREFIX = "set-aside-"
REASON = "set-aside.txt"
MAX_REFUSALS_REMEMBERED = 1024  # refused records logged once each, up to this many


class HeldEvent:
    """One event's record as this daemon holds it; ``offer`` is the only way in."""

    def __init__(self, event: bytes, records: list[Record], table_log: TableLog) -> None:
        self.event = event
        self._records = records
        self._log = table_log
        self._refused: set[bytes] = set()
        self._wires = {encode_record(record) for record in records}
        checker = EventChecker(records[0] if records else None)
        for record in records[1:]:
            checker, _ = checker.trial(record)
        self._checker = checker
        self.verdict: Verdict = checker.verdict()
        """The checker's reading of the records held, kept current by ``offer``."""

    @property
    def records(self) -> tuple[Record, ...]:
        return tuple(self._records)

    def __len__(self) -> int:
        return len(self._records)

    def offer(self, record: Record, sync: bool = True) -> Intake:
        """Take ``record`` if the checker accepts it after the records held, writing and
        syncing it first (``StoreError`` when the disk refuses: nothing is held then). A
        refused record is logged once with its reason and never stored. ``sync`` False
        leaves the sync to ``sync()``, which must come before anything is done on the
        record (a frame of records relayed: one sync for all)."""
        intake, checker = take_next(self._checker, self._wires, record)
        if intake.decision is Decision.ACCEPT:
            wire = encode_record(record)
            self._log.append([wire], sync)
            self._records.append(record)
            self._wires.add(wire)
            self._checker = checker
            self.verdict = checker.verdict()
        elif intake.decision is Decision.REFUSE and intake.problem is not None:
            wire = encode_record(record)
            if wire not in self._refused:
                if len(self._refused) >= MAX_REFUSALS_REMEMBERED:
                    self._refused.clear()
                self._refused.add(wire)
                log.warning(
                    "event %s: refused a record: %s", self.event.hex()[:8], intake.problem.line()
                )
        return intake

    def sync(self) -> None:
        """Make every record taken durable (``StoreError`` when the disk refuses)."""
        self._log.sync()

    def close(self) -> None:
        self._log.close()


@dataclass(frozen=True)
class EventSetAside:
    """An event folder not opened: where it is kept now and why."""

    event: bytes
    reason: str
    folder: Path


class EventStore:
    """Every event folder under ``root`` (``<data>/events``). No I/O until asked."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _folder(self, event: bytes) -> Path:
        return self.root / event.hex()

    def event_ids(self) -> Iterator[bytes]:
        """The events held (each is opened on start)."""
        if not self.root.exists():
            return
        for entry in sorted(self.root.iterdir()):
            if entry.is_dir() and not entry.name.startswith(SET_ASIDE_PREFIX):
                try:
                    event = bytes.fromhex(entry.name)
                except ValueError:
                    continue
                if len(event) == 32:
                    yield event

    def create(self, first: Record) -> HeldEvent:
        """A new event's log from its signed creation record (``StoreError`` when the
        record is not a creation the checker accepts, or the event is held already)."""
        if not isinstance(first.body, Create):
            raise StoreError("an event begins with its creation record")
        event = event_id(first.body)
        if self._folder(event).exists():
            raise StoreError(f"event {event.hex()[:8]} is held already")
        verdict = check_event([first])
        if not verdict.ok:
            raise StoreError(verdict.problems[0].line())
        table_log = TableLog.open(ensure_private_dir(self._folder(event)) / RECORDS)
        table_log.append([encode_record(first)])
        return HeldEvent(event, [first], table_log)

    def open(self, event: bytes) -> HeldEvent | EventSetAside:
        """The event's record read back and checked, or the folder set aside with why."""
        try:
            table_log = TableLog.open(ensure_private_dir(self._folder(event)) / RECORDS)
        except FourwindsError as error:
            return self.set_aside(event, f"its record log is damaged: {error}")
        except OSError as error:
            return self.set_aside(event, f"its record log cannot be read: {error.strerror}")
        try:
            records = [decode_record(data) for data in table_log.records]
        except FourwindsError as error:
            table_log.close()
            return self.set_aside(event, f"a record does not decode: {error}")
        verdict = check_event(records)
        reason = ""
        if not verdict.ok:
            reason = f"its record fails the check: {verdict.problems[0].line()}"
        elif verdict.create is None or event_id(verdict.create) != event:
            reason = "its record is of another event"
        if reason:
            table_log.close()
            return self.set_aside(event, reason)
        return HeldEvent(event, records, table_log)

    def set_aside(self, event: bytes, reason: str) -> EventSetAside:
        """Rename the event's folder ``set-aside-<id>`` with the reason beside it; if it
        cannot be moved it stays, and is reported set aside for this run only."""
        folder = self._folder(event)
        target = self.root / f"{SET_ASIDE_PREFIX}{event.hex()}"
        n = 1
        while target.exists():
            target = self.root / f"{SET_ASIDE_PREFIX}{event.hex()}-{n}"
            n += 1
        try:
            os.replace(folder, target)
            write_atomic(target / REASON, f"{reason}\n".encode())
            folder = target
        except (OSError, StoreError) as error:
            log.error("event %s: cannot set its folder aside (%s)", event.hex()[:8], error)
        log.error("event %s: set aside: %s", event.hex()[:8], reason)
        return EventSetAside(event, reason, folder)
