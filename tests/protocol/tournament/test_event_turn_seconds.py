"""A turn's seconds at an event's tables, the director's choice (records.Create.turn_seconds,
``tournament create --turn-seconds S``, issue 38 defect 4): signed in the creation as a 16th
field only when not the default 60, so events made before keep their bytes and their id;
every table of the event opens with that turn window; any second encoding is refused."""

from __future__ import annotations

import msgpack
import pytest

from fourwinds.protocol.table.wire.strict import WireError
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.record_wire import decode_record, encode_record
from fourwinds.protocol.tournament.records import Create
from fourwinds.protocol.tournament.round_tables import table_options
from testkit.tournament_event import EventMaker, synthetic_event


@pytest.mark.parametrize(("ahead", "flowers"), [(False, True), (True, True), (False, False)])
def test_an_events_turn_seconds_are_signed_and_open_its_tables(ahead: bool, flowers: bool) -> None:
    maker = synthetic_event(8, 1, ahead=ahead, flowers=flowers, turn_seconds=25)
    verdict = check_event(maker.records)
    assert verdict.ok
    assert table_options(verdict)["turn_window"] == 25.0
    fields = list(msgpack.unpackb(encode_record(maker.records[0]))[1])
    assert len(fields) == 16 and fields[14] is flowers and fields[15] == 25
    create = decode_record(encode_record(maker.records[0])).body
    assert isinstance(create, Create) and create.turn_seconds == 25
    assert create.flowers is flowers
    assert EventMaker(rounds=1, ahead=ahead, flowers=flowers).event != maker.event


def test_the_default_turn_is_left_out_and_a_second_encoding_is_refused() -> None:
    plain = EventMaker(rounds=1)
    assert len(msgpack.unpackb(encode_record(plain.records[0]))[1]) == 13
    assert table_options(check_event(synthetic_event(4, 1).records))["turn_window"] == 60.0
    wire = msgpack.unpackb(encode_record(EventMaker(rounds=1, turn_seconds=30).records[0]))
    wire[1][15] = 60  # the default is never written out
    with pytest.raises(WireError, match="never 60"):
        decode_record(msgpack.packb(wire))
    wire[1][15] = 5
    with pytest.raises(WireError, match="turn seconds"):
        decode_record(msgpack.packb(wire))
