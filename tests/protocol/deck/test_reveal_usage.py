"""Asking the deck for a reveal it cannot make yet raises the deck's typed error."""

from __future__ import annotations

import pytest

from fourwinds.protocol.american.tileset import AMERICAN_SET
from fourwinds.protocol.deck.errors import DeckUsageError
from fourwinds.protocol.deck.events import Send
from fourwinds.protocol.deck.loopback import Command, Loopback
from fourwinds.protocol.deck.masked_wall import WallState
from fourwinds.protocol.deck.messages import KeyDelivery, Signed, TransferNotice
from fourwinds.protocol.seats import SEATS, Seat

from .helpers import description, masked_decks


def drawing(slot: int, seat: Seat) -> Command[WallState]:
    return lambda deck, state: deck.draw(state, slot, seat)


def test_reveal_of_a_tile_passed_back_before_its_keys_raises_deck_usage_error() -> None:
    loop = Loopback(masked_decks(description(AMERICAN_SET, size=64), run=7))
    deal = {seat: tuple(range(8 * seat, 8 * seat + 8)) for seat in SEATS}
    for seat in SEATS:
        for slot in deal[seat]:
            loop.everyone(drawing(slot, seat))
    slot = deal[Seat.EAST][0]
    loop.command(Seat.EAST, lambda deck, state: deck.transfer(state, (slot,), Seat.SOUTH))
    # South passes it straight back; East gets the public notice before the keys.
    _, outputs = loop.decks[Seat.SOUTH].transfer(loop.states[Seat.SOUTH], (slot,), Seat.EAST)
    sent = [o.message for o in outputs if isinstance(o, Send)]
    notice = next(m for m in sent if isinstance(m, Signed) and isinstance(m.body, TransferNotice))
    keys = next(m for m in sent if isinstance(m, KeyDelivery))
    east = loop.decks[Seat.EAST]
    state, _ = east.receive(loop.states[Seat.EAST], notice)
    assert slot in state.faces and state.holder[slot] == Seat.EAST  # face known, keys gone
    with pytest.raises(DeckUsageError, match="keys of position"):
        east.reveal(state, slot)
    state, _ = east.receive(state, keys)  # once the keys are in, the reveal goes through
    state, _ = east.reveal(state, slot)
    assert slot in state.public
