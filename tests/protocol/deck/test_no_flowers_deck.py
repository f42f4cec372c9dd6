"""The fair (masked) deck of an MCR table without flowers deals and audits the 136 tiles.

(The practice wall of such a table is checked where tables play it:
tests/protocol/table/test_no_flowers.py.)"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TypeVar

import pytest

from fourwinds.protocol.deck.errors import DeckUsageError
from fourwinds.protocol.deck.events import Learned
from fourwinds.protocol.deck.loopback import Loopback
from fourwinds.protocol.mcr.tileset import MCR_SET, mcr_plan
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind, is_bonus
from fourwinds.protocol.walls import LiveWall

from .helpers import audit_result, description, drawing, masked_decks, revealing

S = TypeVar("S")


def _mcr_no_flowers_hand(loop: Loopback[S]) -> dict[Seat, dict[int, Kind]]:
    """The deal of an MCR wall without flowers, four draws and discards, the audit."""
    plan = mcr_plan((2, 5, 1, 6), flowers=False)
    loop.everyone(lambda deck, state: deck.deal(state, plan))
    wall = LiveWall(plan.live)
    for turn in range(4):
        slot, wall = wall.draw_front()
        loop.everyone(drawing(slot, SEATS[turn]))
        loop.command(SEATS[turn], revealing(slot))
    loop.everyone(lambda deck, state: deck.audit(state))
    return {
        seat: {e.slot: e.kind for e in loop.events[seat] if isinstance(e, Learned)}
        for seat in SEATS
    }


def test_b1_no_flowers_deck_deals_and_audits_the_136_tiles() -> None:
    desc = replace(description(MCR_SET), practice=False, flowers=False)
    assert len(desc.tiles) == 136 and not any(is_bonus(k) for k in desc.tiles)
    loop = Loopback(masked_decks(desc, run=5))
    seen = _mcr_no_flowers_hand(loop)
    faces = audit_result(loop.events, Seat.EAST).faces
    assert Counter(faces) == Counter(MCR_SET.played(flowers=False).kinds)
    for seat in SEATS:
        assert len(seen[seat]) >= 13
        assert all(faces[slot] == kind for slot, kind in seen[seat].items())
    with pytest.raises(DeckUsageError, match="a plan for 144 tiles on a 136-tile wall"):
        loop.decks[0].deal(loop.states[Seat.EAST], mcr_plan((2, 5, 1, 6)))
