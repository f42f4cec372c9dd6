"""The local API's table options become the session's TableOptions, or a clear refusal."""

from __future__ import annotations

import pytest

from fourwinds.daemon.real_session import table_options
from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.table.options import DeckKind, TableOptions


def test_options_map_to_table_options() -> None:
    options = table_options({"call_window": 2, "hands": 1, "deck": "masked",
                             "auto_pass": False})
    assert options == TableOptions(call_window=2.0, hands=1, deck=DeckKind.MASKED,
                                   auto_pass=False)
    assert table_options({}).auto_pass is True


@pytest.mark.parametrize(("options", "reason"), [
    ({"auto_pass": 1}, "auto_pass must be true or false"),
    ({"deck": "marked"}, "deck must be one of"),
    ({"hands": -1}, "must be a number >= 0"),
    ({"speed": 3}, "unknown table option 'speed'"),
])
def test_bad_options_are_refused_with_the_reason(options: dict[str, object],
                                                 reason: str) -> None:
    with pytest.raises(LocalProtocolError, match=reason):
        table_options(options)


def test_options_from_an_older_table_read_auto_pass_as_off() -> None:
    wire = TableOptions().to_wire()[:7]
    assert TableOptions.from_wire(wire).auto_pass is False
    assert TableOptions.from_wire(TableOptions().to_wire()) == TableOptions()
