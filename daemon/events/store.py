"""Durable storage of the tournament events this daemon holds: one record log per event.

Every entrant's daemon keeps its event's whole record (issue 23), as it keeps its tables'
transcripts: ``<data>/events/<event id>/records.log`` in the table log's framing
(store.py: length, crc32, bytes; a torn tail cut on open), one signed record a frame, in
record order. A record is appended only when the event's session takes it
(protocol/tournament/session: the checker is kept in its state, each record offered checked
once), and synced before any other step of that outcome is performed, so whatever a peer
was told we hold is on disk. On open
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
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.record_wire import decode_record, encode_record
from fourwinds.protocol.tournament.records import Create, Record
from fourwinds.protocol.tournament.signing import event_id

log = logging.getLogger(__name__)

SET_ASIDE_PREFIX = "set-aside-"
REASON = "set-aside.txt"


class EventLog:
    """One event's record log: the records a session took, appended and synced (``Store``
    steps, daemon/events/held.py). What is taken is the session's to decide
    (protocol/tournament/session); this only writes."""

    def __init__(self, event: bytes, table_log: TableLog) -> None:
        self.event = event
        self._log = table_log

    def append(self, records: tuple[Record, ...]) -> None:
        """Write and sync ``records`` (``StoreError`` when the disk refuses)."""
        self._log.append([encode_record(record) for record in records], True)

    def close(self) -> None:
        self._log.close()


@dataclass(frozen=True)
class OpenedEvent:
    """An event read back whole: its records (checked) and its log to append to."""

    records: tuple[Record, ...]
    log: EventLog


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

    def create(self, first: Record) -> EventLog:
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
        return EventLog(event, table_log)

    def open(self, event: bytes) -> OpenedEvent | EventSetAside:
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
        return OpenedEvent(tuple(records), EventLog(event, table_log))

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
