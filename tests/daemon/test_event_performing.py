"""How the daemon's tournament part performs its session's Steps (daemon/events/performing.py):
the records an outcome takes are stored before anything is sent, a disk that refuses them
leaves the event as it was with nothing sent, and a note the session repeats is logged once."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from fourwinds.daemon.events.held import Events
from fourwinds.daemon.events.runtime import EventRuntime
from fourwinds.daemon.events.store import EventLog
from fourwinds.daemon.peers.wire import EventRecords
from fourwinds.daemon.store.disk import StoreError
from fourwinds.protocol.tournament.record_wire import encode_record
from fourwinds.protocol.tournament.records import Record
from fourwinds.protocol.tournament.session import Gathered, Me, opened
from testkit.tournament_event import EventMaker


class _Transport:
    def __init__(self) -> None:
        self.sent: list[tuple[bytes, object]] = []

    def send(self, key: bytes, frame: object) -> None:
        self.sent.append((key, frame))

    def dial(self, key: bytes, where: object) -> None:
        pass


class _Log:
    def __init__(self, refuse: bool) -> None:
        self.refuse = refuse
        self.written: list[Record] = []

    def append(self, records: tuple[Record, ...]) -> None:
        if self.refuse:
            raise StoreError("no space left on device")
        self.written.extend(records)


def _director(tmp_path: Path, refuse: bool) -> tuple[Events, EventRuntime, EventMaker, _Transport]:
    maker = EventMaker(rounds=1)
    signer = maker.director
    me = Me(signer.public, signer, b"s" * 32)
    transport = _Transport()
    host = SimpleNamespace(transport=transport, frames=SimpleNamespace(addresses={}))
    events = Events(cast(Any, host), tmp_path / "events")
    events._me_cached = me
    rt = EventRuntime(opened(maker.records, me), cast(EventLog, _Log(refuse)))
    events.events[rt.event] = rt
    return events, rt, maker, transport


def test_a_disk_that_refuses_the_records_leaves_the_event_as_it_was(tmp_path: Path) -> None:
    events, rt, maker, transport = _director(tmp_path, refuse=True)
    player = maker.enter("ann")
    entry = maker.records[-1]
    before = rt.state
    outcome = events._apply(rt, Gathered(entry))
    assert outcome is None and rt.state is before and transport.sent == []
    assert player.public not in rt.entrants()


def test_taken_records_are_stored_then_spread(tmp_path: Path) -> None:
    events, rt, maker, transport = _director(tmp_path, refuse=False)
    first = maker.enter("ann")
    events._apply(rt, Gathered(maker.records[-1]))
    assert first.public in rt.entrants()
    assert cast(_Log, rt.log).written == [maker.records[-1]]
    second = maker.enter("bob")
    events._apply(rt, Gathered(maker.records[-1]))  # spread at once (no loop runs here)
    assert {key for key, _ in transport.sent} == {first.public, second.public}
    written = {encode_record(r) for r in cast(_Log, rt.log).written}
    for _, frame in transport.sent:  # nothing was sent that was not stored first
        assert isinstance(frame, EventRecords)
        assert set(frame.records) <= written | {encode_record(maker.records[0])}


def test_a_note_the_session_repeats_is_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    events, rt, _, _ = _director(tmp_path, refuse=False)
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            events.performer.note(rt, "refused a record: a signature does not check")
    assert len([r for r in caplog.records if "refused a record" in r.message]) == 1
