"""Four in-memory seats build masked walls, deal, draw, reveal, pass and audit."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from fourwinds.protocol.american.tileset import AMERICAN_SET, american_plan
from fourwinds.protocol.deck.deck import MaskedDeck
from fourwinds.protocol.deck.entropy import Entropy
from fourwinds.protocol.deck.errors import DeckUsageError
from fourwinds.protocol.deck.events import Moved, WallReady
from fourwinds.protocol.deck.loopback import Loopback
from fourwinds.protocol.deck.masked_wall import WallState
from fourwinds.protocol.mcr.tileset import MCR_SET, mcr_plan
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.walls import LiveWall, TileSet

from .helpers import (
    audit_result,
    deal_slots,
    description,
    drawing,
    learned,
    mac_signer,
    mac_verify,
    masked_decks,
    revealing,
)


def check_exactly_once(loop: Loopback[WallState], tile_set: TileSet, dealt: set[int]) -> None:
    """Every tile ends up exactly once in the wall, and every seat saw the same faces."""
    results = [audit_result(loop, seat) for seat in SEATS]
    faces = results[0].faces
    assert all(r.faces == faces for r in results)
    assert all(r.blames == () for r in results)
    assert Counter(faces) == Counter(tile_set.kinds)
    for seat in SEATS:
        seen = learned(loop.events[seat])
        assert all(faces[slot] == kind for slot, kind in seen.items())
    holders = [loop.states[0].holder[s] for s in sorted(dealt)]
    assert None not in holders
    assert all(loop.states[s].holder == loop.states[0].holder for s in SEATS)


def test_american_152_tile_deal_and_audit() -> None:
    desc = description(AMERICAN_SET)
    loop = Loopback(masked_decks(desc, real_signatures=True))
    assert all(isinstance(loop.events[s][0], WallReady) for s in SEATS)
    plan = american_plan((4, 2))
    loop.everyone(lambda deck, state: deck.deal(state, plan))
    for seat in SEATS:
        assert set(learned(loop.events[seat])) == set(plan.deal[seat])
    loop.everyone(lambda deck, state: deck.audit(state))
    check_exactly_once(loop, AMERICAN_SET, deal_slots(plan))


def test_mcr_144_tile_deal_draws_discards_and_audit() -> None:
    desc = description(MCR_SET)
    loop = Loopback(masked_decks(desc, run=1))
    plan = mcr_plan((3, 5, 2, 6))
    loop.everyone(lambda deck, state: deck.deal(state, plan))
    wall = LiveWall(plan.live)
    for turn in range(8):
        seat = SEATS[turn % 4]
        slot, wall = wall.draw_front()
        loop.everyone(drawing(slot, seat))
        assert learned(loop.events[seat])[slot] == loop.states[seat].faces[slot]
        loop.command(seat, revealing(slot))  # discard it
        for other in SEATS:
            assert slot in loop.states[other].public
            assert loop.states[other].faces[slot] == loop.states[seat].faces[slot]
    replacement, wall = wall.draw_back()  # a flower replacement from the far end
    loop.everyone(lambda deck, state: deck.draw(state, replacement, Seat.SOUTH))
    assert replacement in loop.states[Seat.SOUTH].faces
    loop.everyone(lambda deck, state: deck.audit(state))
    check_exactly_once(loop, MCR_SET, deal_slots(plan))


def test_charleston_passes_keep_faces_private_to_the_receiver() -> None:
    desc = description(AMERICAN_SET, size=64)
    loop = Loopback(masked_decks(desc, run=2))
    deal = {seat: tuple(range(8 * seat, 8 * seat + 8)) for seat in SEATS}
    for seat in SEATS:  # hand the tiles out with single draws
        for slot in deal[seat]:
            loop.everyone(drawing(slot, seat))
    passed = deal[Seat.EAST][:3]
    loop.command(Seat.EAST, lambda deck, state: deck.transfer(state, passed, Seat.SOUTH))
    for slot in passed:
        assert slot in loop.states[Seat.SOUTH].faces
        assert loop.states[Seat.SOUTH].faces[slot] == loop.states[Seat.EAST].faces[slot]
        assert slot not in loop.states[Seat.WEST].faces
        assert loop.states[Seat.NORTH].holder[slot] == Seat.SOUTH
    assert any(isinstance(e, Moved) for e in loop.events[Seat.WEST])
    # A blind pass: West's tiles go to North via South, who never gets their keys.
    blind = deal[Seat.WEST][:2]
    loop.command(
        Seat.WEST, lambda deck, state: deck.transfer(state, blind, Seat.NORTH, via=Seat.SOUTH)
    )
    for slot in blind:
        assert slot in loop.states[Seat.NORTH].faces
        assert slot not in loop.states[Seat.SOUTH].faces
        assert slot not in loop.states[Seat.SOUTH].proofs
    # South passes on one of East's tiles; the receiver can reveal it publicly.
    loop.command(Seat.SOUTH, lambda deck, state: deck.transfer(state, passed[:1], Seat.WEST))
    loop.command(Seat.WEST, lambda deck, state: deck.reveal(state, passed[0]))
    assert all(passed[0] in loop.states[s].public for s in SEATS)
    loop.everyone(lambda deck, state: deck.audit(state))
    results = [audit_result(loop, s) for s in SEATS]
    assert all(r.blames == () for r in results)
    assert Counter(results[0].faces) == Counter(desc.tiles)


def test_own_requests_that_cannot_be_done_raise_and_change_nothing() -> None:
    desc = description(size=16)
    loop = Loopback(masked_decks(desc, run=3))
    deck, state = loop.decks[Seat.EAST], loop.states[Seat.EAST]
    with pytest.raises(DeckUsageError):
        deck.reveal(state, 0)  # not held
    loop.everyone(lambda d, s: d.draw(s, 0, Seat.SOUTH))
    state = loop.states[Seat.EAST]
    with pytest.raises(DeckUsageError):
        deck.draw(state, 0, Seat.EAST)  # already drawn
    with pytest.raises(DeckUsageError):
        deck.transfer(state, (0,), Seat.WEST)  # South holds it
    with pytest.raises(DeckUsageError):
        deck.deal(state, american_plan((1, 1)))  # a plan for another wall size
    assert loop.states[Seat.EAST] is state


def test_passes_arriving_out_of_order_give_the_same_wall() -> None:
    desc = description(size=12)
    decks = masked_decks(desc, run=4)
    loop = Loopback(decks)
    passes = [p for p in loop.states[Seat.SOUTH].passes if p is not None]
    east = decks[Seat.EAST]
    state, _ = east.start()
    for message in reversed(passes):
        if message.body.seat != Seat.EAST:
            state, _ = east.receive(state, message)
    assert state.wall == loop.states[Seat.EAST].wall
    assert state.passes == loop.states[Seat.EAST].passes


def test_a_masked_deck_refuses_a_practice_description() -> None:
    """A description that says "practice" is the open wall's (table/machine/practice.py), which
    every seat could read: a masked deck never runs under it, so a table cannot claim to be fair
    while telling its players it is practice, or the other way round."""
    with pytest.raises(ValueError):
        MaskedDeck.create(
            replace(description(AMERICAN_SET), practice=True),
            Seat.EAST,
            Entropy(b"practice seed for a tutorial hand"),
            mac_signer(Seat.EAST),
            mac_verify,
        )
