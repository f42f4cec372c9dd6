"""A daemon's event records on disk (daemon/events/store.py): a whole event taken record by
record by its session is stored and read back after a restart, a record the session refuses
is never stored, and a damaged log sets the event aside with the reason."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from fourwinds.daemon.events.store import EventLog, EventSetAside, EventStore, OpenedEvent
from fourwinds.daemon.store.disk import RECORDS
from fourwinds.protocol.tournament.intake import Decision
from fourwinds.protocol.tournament.records import Record, TableResult
from fourwinds.protocol.tournament.session import Held
from testkit.tournament_event import synthetic_event


def _held(store: EventStore, records: list[Record]) -> EventLog:
    """The records taken one by one, each stored as the daemon stores what its session took."""
    log = store.create(records[0])
    held = Held.of(records[:1])
    for record in records[1:]:
        intake, held = held.offer(record)
        assert intake.decision is Decision.ACCEPT
        log.append((record,))
    return log


def test_an_event_is_held_and_read_back(tmp_path: Path) -> None:
    maker = synthetic_event(players=5, rounds=1)
    store = EventStore(tmp_path / "events")
    held = _held(store, maker.records)
    held.close()
    assert list(store.event_ids()) == [maker.event]
    again = EventStore(tmp_path / "events").open(maker.event)
    assert isinstance(again, OpenedEvent)
    assert list(again.records) == maker.records
    again.log.close()


def test_a_refused_record_is_not_stored(tmp_path: Path) -> None:
    maker = synthetic_event(players=4, rounds=1)
    *before, last = maker.records
    assert isinstance(last.body, TableResult)
    forged = Record(dataclasses.replace(last.body, scores=(1, 2, 3, 4)), last.signatures)
    store = EventStore(tmp_path / "events")
    log = _held(store, before)
    intake, held = Held.of(before).offer(forged)
    assert intake.decision is Decision.REFUSE and len(held) == len(before)
    log.close()
    again = store.open(maker.event)
    assert isinstance(again, OpenedEvent)
    assert len(again.records) == len(before)
    again.log.close()


def test_a_damaged_log_is_set_aside_with_the_reason(tmp_path: Path) -> None:
    maker = synthetic_event(players=4, rounds=1)
    store = EventStore(tmp_path / "events")
    _held(store, maker.records).close()
    path = tmp_path / "events" / maker.event.hex() / RECORDS
    data = bytearray(path.read_bytes())
    data[20] ^= 0xFF  # inside the first record: a checksum that no longer holds
    path.write_bytes(bytes(data))
    result = store.open(maker.event)
    assert isinstance(result, EventSetAside)
    assert "damaged" in result.reason
    assert result.folder.name.startswith("set-aside-")
    assert "damaged" in (result.folder / "set-aside.txt").read_text()
    assert list(store.event_ids()) == []
