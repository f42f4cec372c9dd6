"""An MCR event without flowers (records.Create.flowers, issue 24): said in the director's
signed creation as a 15th field only when off, so events made before keep their bytes and
their id; every table of the event is opened with the table option ``flowers`` off; refused
for American and in any second encoding."""

from __future__ import annotations

import msgpack
import pytest

from fourwinds.protocol.table.wire.strict import WireError
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.record_wire import decode_record, encode_record
from fourwinds.protocol.tournament.records import Create, SeedSteps
from fourwinds.protocol.tournament.round_tables import table_options
from fourwinds.protocol.tournament.signing import event_id
from testkit.tournament_event import EventMaker, synthetic_event


def _wire(maker: EventMaker) -> list[object]:
    return list(msgpack.unpackb(encode_record(maker.records[0]))[1])


@pytest.mark.parametrize("ahead", [False, True])
def test_an_event_without_flowers_checks_and_its_tables_open_without_flowers(ahead: bool) -> None:
    maker = synthetic_event(8, 2, flowers=False, ahead=ahead)
    verdict = check_event(maker.records)
    assert verdict.ok and len(verdict.rounds) == 2
    assert table_options(verdict)["rules"] == {"flowers": False}
    fields = _wire(maker)
    assert len(fields) == 15 and fields[14] is False
    assert fields[13] == ("ahead" if ahead else "after_call")  # written out: a 15th follows
    create = decode_record(encode_record(maker.records[0])).body
    assert isinstance(create, Create) and create.flowers is False
    assert create.seed_steps is (SeedSteps.AHEAD if ahead else SeedSteps.AFTER_CALL)


@pytest.mark.parametrize("ahead", [False, True])
def test_events_with_flowers_keep_their_creation_bytes_and_id(ahead: bool) -> None:
    maker = synthetic_event(8, 2, ahead=ahead)
    assert len(_wire(maker)) == (14 if ahead else 13)
    verdict = check_event(maker.records)
    assert verdict.ok and "rules" not in table_options(verdict)
    # the same event made with flowers off is another event: the option is signed
    other = EventMaker(rounds=2, ahead=ahead, flowers=False)
    assert other.event != maker.event == event_id(maker.create)


def test_a_second_encoding_and_an_american_event_without_flowers_are_refused() -> None:
    maker = synthetic_event(4, 1, flowers=False)
    wire = msgpack.unpackb(encode_record(maker.records[0]))
    wire[1][14] = True  # flowers on is never written out
    with pytest.raises(WireError, match="only ever false"):
        decode_record(msgpack.packb(wire))
    wire[1][14] = "no"
    with pytest.raises(WireError, match="flowers"):
        decode_record(msgpack.packb(wire))
    american = EventMaker(rules="american", flowers=False)
    read = decode_record(encode_record(american.records[0])).body  # read; the check refuses
    assert isinstance(read, Create) and not read.flowers
    verdict = check_event(american.records)
    assert not verdict.ok and "MCR only" in verdict.problems[0].line()
