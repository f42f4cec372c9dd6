"""The Open's ``rules_text`` is the rule set's own: an American table's card travels there, and
a rule set that plays no card takes none, whether its creator or a peer's Open sends one."""

from __future__ import annotations

from importlib import resources

import pytest

from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine import lobby
from fourwinds.protocol.table.machine.harness import seat_key
from fourwinds.protocol.table.machine.options import OptionError
from fourwinds.protocol.table.machine.session import join_table, new_table
from fourwinds.protocol.table.wire.envelope import decode
from fourwinds.protocol.table.wire.messages import MsgKind, Open, decode_body

CARD = "# a club's card\n"


def _opened(rules: str, text: str) -> bytes:
    step = new_table(
        "t", rules, seat_key(b"rt", 0), bytes(32), 0.0, rules_text_name="club", rules_text=text
    )
    return step.outgoing[0].payload


def test_an_american_card_travels_whole_in_the_open_as_the_rule_sets_text() -> None:
    text = resources.files("fourwinds.cards").joinpath("house.card").read_text(encoding="utf-8")
    body = decode_body(MsgKind.OPEN, decode(_opened("american", text)).body or b"")
    assert isinstance(body, Open)
    assert (body.rules_text_name, body.rules_text) == ("club", text)


def test_a_rule_set_without_a_card_refuses_a_text_its_creator_gives() -> None:
    with pytest.raises(LocalProtocolError, match=r"MCR.* tables play no card"):
        _opened("mcr", CARD)


def test_a_peer_refuses_an_open_that_gives_a_text_to_a_rule_set_without_a_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with monkeypatch.context() as creator:  # a creator whose code does not check
        creator.setattr(lobby, "rules_text_problem", lambda name, text: None)
        payload = _opened("mcr", CARD)
    with pytest.raises((OptionError, LocalProtocolError), match="tables play no card"):
        join_table(payload, Seat(1), seat_key(b"rt", 1), bytes(32), 0.0)
