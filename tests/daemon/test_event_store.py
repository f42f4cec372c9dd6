"""A daemon's event records on disk (daemon/event_store.py): a whole event offered record by
record is held and read back after a restart, a refused record is never stored, and a
damaged log or a record the checker refuses sets the event aside with the reason."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from fourwinds.daemon.event_store import EventSetAside, EventStore, HeldEvent
from fourwinds.daemon.store.disk import RECORDS
from fourwinds.protocol.tournament.intake import Decision
from fourwinds.protocol.tournament.records import Record, TableResult
from testkit.tournament_event import synthetic_event


def _held(store: EventStore, records: list[Record]) -> HeldEvent:
    held = store.create(records[0])
    for record in records[1:]:
        assert held.offer(record).decision is Decision.ACCEPT
    return held


def test_an_event_is_held_and_read_back(tmp_path: Path) -> None:
    maker = synthetic_event(players=5, rounds=1)
    store = EventStore(tmp_path / "events")
    held = _held(store, maker.records)
    held.close()
    assert list(store.event_ids()) == [maker.event]
    again = EventStore(tmp_path / "events").open(maker.event)
    assert isinstance(again, HeldEvent)
    assert list(again.records) == maker.records
    again.close()


def test_a_refused_record_is_logged_once_and_not_stored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    maker = synthetic_event(players=4, rounds=1)
    *before, last = maker.records
    assert isinstance(last.body, TableResult)
    forged = Record(dataclasses.replace(last.body, scores=(1, 2, 3, 4)), last.signatures)
    store = EventStore(tmp_path / "events")
    held = _held(store, before)
    with caplog.at_level(logging.WARNING):
        assert held.offer(forged).decision is Decision.REFUSE
        assert held.offer(forged).decision is Decision.REFUSE
    assert len([r for r in caplog.records if "refused a record" in r.message]) == 1
    held.close()
    again = store.open(maker.event)
    assert isinstance(again, HeldEvent)
    assert len(again) == len(before)
    again.close()


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
