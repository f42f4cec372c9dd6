"""A table of four seats playing MCR without flowers: the option is agreed in the signed Open
(its engine option pairs), every seat's deck and engine build the 136-tile wall from it, an
older form reads as flowers on, an American table refuses it and an older seat cannot join."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.mcr.events import FlowerExposed, FlowersFinished
from fourwinds.protocol.mcr.state import HandState
from fourwinds.protocol.mcr.table_rules import MCRRules
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import Harness, open_harness, play_match, seat_key
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.session import join_table, new_table
from fourwinds.protocol.table.machine.state import EngineEvent, Phase
from fourwinds.protocol.table.machine.transcript import check_transcript, export_transcript
from fourwinds.protocol.table.views.sheet import table_sheet
from fourwinds.protocol.table.wire.envelope import PROTOCOL_VERSION, decode
from fourwinds.protocol.table.wire.messages import MsgKind, Open, decode_body
from fourwinds.protocol.tiles import is_bonus

NO_FLOWERS = (("flowers", False),)
FAIR = TableOptions(hands=1, deck=DeckKind.MASKED, rules=NO_FLOWERS)


def test_no_flowers_options_round_trip_on_the_wire() -> None:
    for options in (
        FAIR,
        replace(FAIR, deck=DeckKind.PRACTICE),
        replace(FAIR, rules=(("mode", "tournament"), *NO_FLOWERS)),
    ):
        wire = options.to_wire()
        assert TableOptions.from_wire(wire) == options
        assert MCRRules().flowers(TableOptions.from_wire(wire)) is False


def test_older_option_forms_read_as_flowers_on() -> None:
    """A table opened before the option (no pair) plays with flowers: the 9-item form of
    today's default, and the 8- and 7-item forms of older tables."""
    nine = TableOptions().to_wire()
    assert nine[6] == [] and len(nine) == 9
    for wire in (nine, nine[:8], nine[:7]):
        assert MCRRules().flowers(TableOptions.from_wire(wire)) is True
    assert MCRRules().flowers(TableOptions(rules=(("flowers", True),))) is True


def _open(options: TableOptions) -> Open:
    opened = new_table("t", "mcr", seat_key(b"nf", 0), bytes(32), 0.0, options=options)
    body = decode_body(MsgKind.OPEN, decode(opened.outgoing[0].payload).body or b"")
    assert isinstance(body, Open)
    return body


def test_the_option_is_signed_in_the_open_and_needs_this_protocol_version() -> None:
    body = _open(FAIR)
    assert body.options.rules == NO_FLOWERS
    assert body.versions == (PROTOCOL_VERSION, PROTOCOL_VERSION) == (5, 5)
    assert _open(TableOptions(hands=1)).versions == (3, PROTOCOL_VERSION)


def test_a_seat_of_an_older_version_cannot_join_a_table_without_flowers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Code before the option would deal 144 tiles there: it is kept out by the version."""
    from fourwinds.protocol.table.machine import lobby

    opened = new_table("t", "mcr", seat_key(b"nf", 0), bytes(32), 0.0, options=FAIR)
    monkeypatch.setattr(lobby, "SUPPORTED_VERSIONS", (1, 4))
    monkeypatch.setattr(lobby, "ENGINE_OPTIONS_SINCE", {})
    with pytest.raises(LocalProtocolError, match=r"protocol 5\.\.5, this seat 3\.\.4"):
        join_table(opened.outgoing[0].payload, Seat(1), seat_key(b"nf", 1), bytes(32), 0.0)


def test_an_american_table_refuses_the_flowers_option() -> None:
    with pytest.raises(LocalProtocolError, match="flowers option is for MCR tables"):
        new_table("t", "american", seat_key(b"nf", 0), bytes(32), 0.0, options=FAIR)


def test_an_mcr_table_refuses_a_flowers_option_that_is_not_true_or_false() -> None:
    with pytest.raises(LocalProtocolError, match="flowers must be true or false, not 'no'"):
        new_table(
            "t",
            "mcr",
            seat_key(b"nf", 0),
            bytes(32),
            0.0,
            options=replace(FAIR, rules=(("flowers", "no"),)),
        )


def _no_flower_hand(h: Harness) -> None:
    assert all(s.phase is Phase.OVER for s in h.sessions)
    assert len({s.step_hash for s in h.sessions}) == 1
    assert all(not p for p in h.problems), h.problems
    for place in SEATS:
        hand = h.sessions[place].hand
        assert hand is not None and isinstance(hand.engine, HandState)
        engine = hand.engine
        assert len(engine.faces) == 136 and not engine.options.flowers
        assert not any(is_bonus(f) for f in engine.faces)
        assert all(not seat.flowers for seat in engine.seats)
        seen = [e.event for e in h.events[place] if isinstance(e, EngineEvent)]
        assert len(seen) > 50
        assert not any(isinstance(e, (FlowerExposed, FlowersFinished)) for e in seen)


@pytest.mark.slow
@pytest.mark.parametrize("deck", [DeckKind.MASKED, DeckKind.PRACTICE])
def test_b3_no_flowers_hand_at_four_seats_deals_136_tiles_and_verifies(deck: DeckKind) -> None:
    h = play_match("mcr", b"no-flowers " + deck.value.encode(), options=replace(FAIR, deck=deck))
    _no_flower_hand(h)
    if deck is DeckKind.MASKED:
        hand = h.sessions[0].hand
        assert hand is not None and hand.audited
    verdict = check_transcript(export_transcript(h.sessions[2]))
    assert verdict.ok, [p.describe() for p in verdict.problems]


def test_b5_no_flowers_tables_sheet_has_no_flower_tiles_fan() -> None:
    h = open_harness("mcr", b"nf-sheet", options=FAIR)
    names = [e["id"] for e in table_sheet(h.sessions[0])["entries"]]
    usual = [e["id"] for e in table_sheet(open_harness("mcr", b"nf-sheet").sessions[0])["entries"]]
    assert "Flower Tiles" in usual and "Flower Tiles" not in names
    assert len(names) == len(usual) - 1
