"""The local API's table options become the session's TableOptions, or a clear refusal."""

from __future__ import annotations

import pytest

from fourwinds.daemon.table_runtimes.real_session import new_table, table_options
from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.wire.strict import WireError


def test_options_map_to_table_options() -> None:
    options = table_options({"call_window": 2, "hands": 1, "deck": "masked", "auto_pass": False})
    assert options == TableOptions(call_window=2.0, hands=1, deck=DeckKind.MASKED, auto_pass=False)
    assert table_options({}).auto_pass is True


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"auto_pass": 1}, "auto_pass must be true or false"),
        ({"deck": "marked"}, "deck must be one of"),
        ({"hands": -1}, "hands must be a whole number from 0 to 64"),
        ({"hands": 1.5}, "hands must be a whole number"),
        ({"call_window": float("nan")}, "call_window must be a number of seconds from 0.1 to 3600"),
        ({"next_window": float("inf")}, "next_window must be a number of seconds from 0 to 3600"),
        ({"next_window": -1}, "next_window must be"),
        ({"turn_window": 3601}, "turn_window must be a number of seconds from 0 to 3600"),
        ({"exchange_window": 0}, "exchange_window must be a number of seconds from 0.1"),
        ({"charleston_window": 0}, "exchange_window must be a number of seconds from 0.1"),
        ({"charleston_window": 5, "exchange_window": 5}, "are one option: give exchange_window"),
        ({"next_window": "60"}, "next_window must be a number of seconds"),
        ({"stall_after": True}, "stall_after must be a number of seconds"),
        ({"speed": 3}, "unknown table option 'speed'"),
    ],
)
def test_bad_options_are_refused_with_the_reason(options: dict[str, object], reason: str) -> None:
    with pytest.raises(LocalProtocolError, match=reason):
        table_options(options)


def test_the_exchange_window_is_also_taken_by_its_old_name() -> None:
    assert table_options({"charleston_window": 45}) == TableOptions(exchange_window=45.0)
    assert table_options({"exchange_window": 45}) == TableOptions(exchange_window=45.0)


def test_options_from_an_older_table_read_auto_pass_as_off() -> None:
    wire = TableOptions().to_wire()[:7]
    assert TableOptions.from_wire(wire).auto_pass is False
    assert TableOptions.from_wire(TableOptions().to_wire()) == TableOptions()


def test_the_next_window_and_the_longer_call_window() -> None:
    assert TableOptions().call_window == 8.0 and TableOptions().next_window == 60.0
    options = table_options({"next_window": 0, "call_window": 12.5})
    assert options.next_window == 0.0 and options.call_window == 12.5
    assert table_options({"next_window": 3600}).next_window == 3600.0


def test_options_wire_round_trip_with_the_older_forms() -> None:
    """9 items now; the 8-item form (before the next window) reads as "no wait at the
    hand's end" and encodes back exactly; the 7-item form also turns auto_pass off."""
    options = TableOptions(
        call_window=5,
        next_window=0,
        hands=3,
        deck=DeckKind.MASKED,
        rules=(("hot_wall", True),),
        auto_pass=False,
    )
    wire = options.to_wire()
    assert len(wire) == 9 and wire[8] == 0
    assert TableOptions.from_wire(wire) == options
    eight = wire[:8]
    older = TableOptions.from_wire(eight)
    assert older.next_window is None and older.auto_pass is False
    assert older.to_wire() == eight
    seven = TableOptions.from_wire(TableOptions(auto_pass=True).to_wire()[:7])
    assert seven.auto_pass is False and seven.next_window is None


@pytest.mark.parametrize(
    ("wire", "reason"),
    [
        ([*TableOptions().to_wire(), 1], "options"),
        (TableOptions().to_wire()[:6], "expected 9 or 10 items, got 6"),
        ([*TableOptions().to_wire()[:8], -1], "options.next_window"),
        ([*TableOptions().to_wire()[:8], float("nan")], "options.next_window"),
        ([*TableOptions().to_wire()[:8], "60"], "options.next_window: expected a number"),
    ],
)
def test_bad_wire_options_are_refused(wire: list[object], reason: str) -> None:
    with pytest.raises(WireError, match=reason):
        TableOptions.from_wire(wire)


def test_the_rule_sets_own_options_travel_as_sorted_pairs() -> None:
    options = table_options({"rules": {"flowers": False, "mode": "friendly"}})
    assert options.rules == (("flowers", False), ("mode", "friendly"))
    assert table_options({}).rules == ()


@pytest.mark.parametrize(
    ("rules", "reason"),
    [
        ([["flowers", False]], "option rules must be a map"),
        ({"flowers": 0.5}, "option rules 'flowers': expected text, a whole number or true/false"),
        ({"flowers": None}, "expected text"),
    ],
)
def test_bad_rule_set_options_are_refused(rules: object, reason: str) -> None:
    with pytest.raises(LocalProtocolError, match=reason):
        table_options({"rules": rules})


@pytest.mark.parametrize(
    ("rules", "options", "reason"),
    [
        (
            "american",
            {"flowers": False},
            "the flowers option is for MCR tables: an American wall always has its flowers",
        ),
        ("mcr", {"flowers": "no"}, "options.rules flowers must be true or false, not 'no'"),
        ("mcr", {"speed": 2}, "unknown MCR table option 'speed'"),
        ("american", {"hot_wall": True, "dead_player": "ghost"}, "options.rules: 'ghost'"),
    ],
)
def test_create_asks_the_rule_set_about_its_options(
    rules: str, options: dict[str, object], reason: str
) -> None:
    with pytest.raises(LocalProtocolError, match=reason):
        new_table(bytes(range(32)), "t", rules, "me", {"rules": options}, bytes(32), 0.0)
    if rules == "mcr":
        opened = new_table(
            bytes(range(32)), "t", "mcr", "me", {"rules": {"flowers": False}}, bytes(32), 0.0
        )
        assert opened.session.open is not None
        assert opened.session.open.options.rules == (("flowers", False),)
