"""The practice deck: open, seeded, says so, and behaves like the masked deck for a table."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TypeVar

import pytest

from fourwinds.protocol.deck.blame import Cheat, DeckCheat
from fourwinds.protocol.deck.deck import Deck, MaskedDeck
from fourwinds.protocol.deck.entropy import Entropy
from fourwinds.protocol.deck.errors import DeckUsageError
from fourwinds.protocol.deck.events import Learned, Moved, Send
from fourwinds.protocol.deck.loopback import Loopback
from fourwinds.protocol.deck.messages import PublicReveal, Signed, sign
from fourwinds.protocol.deck.practice import PracticeDeck
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind, RuleSet, is_bonus, tile_set
from fourwinds.protocol.walls import LiveWall, american_plan, mcr_plan

from .helpers import (
    audit_result,
    description,
    drawing,
    mac_signer,
    mac_verify,
    masked_decks,
    revealing,
)

DESC = replace(description(RuleSet.AMERICAN), practice=True)
S = TypeVar("S")
SEED = b"practice seed for a tutorial hand"


def practice_decks(seed: bytes = SEED) -> list[PracticeDeck]:
    return [PracticeDeck.create(DESC, s, seed, mac_signer(s), mac_verify) for s in SEATS]


def play(loop: Loopback[S]) -> dict[Seat, set[int]]:
    """One scripted hand through the common interface; returns who learned which slots."""
    plan = american_plan((3, 3))
    loop.everyone(lambda deck, state: deck.deal(state, plan))
    east = tuple(sorted(plan.deal[Seat.EAST])[:3])
    loop.command(Seat.EAST, lambda deck, state: deck.transfer(state, east, Seat.SOUTH))
    wall = LiveWall(plan.live)
    for turn in range(4):
        slot, wall = wall.draw_front()
        seat = SEATS[turn]
        loop.everyone(drawing(slot, seat))
        loop.command(seat, revealing(slot))
    loop.everyone(lambda deck, state: deck.audit(state))
    return {seat: {e.slot for e in loop.events[seat] if isinstance(e, Learned)}
            for seat in SEATS}


def test_practice_and_masked_decks_give_a_table_the_same_behaviour() -> None:
    masked_desc = replace(DESC, practice=False)
    practice = Loopback(practice_decks())
    masked = Loopback(masked_decks(masked_desc, run=11))
    assert play(practice) == play(masked)
    for events in (practice.events, masked.events):
        faces = audit_result(events, Seat.EAST).faces
        assert Counter(faces) == Counter(DESC.tiles)
        for seat in SEATS:
            seen = {e.slot: e.kind for e in events[seat] if isinstance(e, Learned)}
            assert all(faces[slot] == kind for slot, kind in seen.items())
            assert any(isinstance(e, Moved) for e in events[seat])


def test_practice_wall_is_reproducible_from_its_seed() -> None:
    one, two, other = practice_decks(), practice_decks(), practice_decks(b"another seed" * 3)
    assert one[0].order == two[3].order
    assert one[0].order != other[0].order
    assert sorted(one[0].order) == list(range(152))
    assert Entropy(SEED).permutation(152, "practice wall") == one[0].order


def test_a_table_using_the_practice_deck_says_so() -> None:
    assert all(deck.description.practice for deck in practice_decks())
    with pytest.raises(ValueError):
        PracticeDeck.create(replace(DESC, practice=False), Seat.EAST, SEED, mac_signer(Seat.EAST),
                            mac_verify)
    with pytest.raises(ValueError):
        MaskedDeck.create(DESC, Seat.EAST, Entropy(SEED), mac_signer(Seat.EAST), mac_verify)


def test_practice_deck_still_blames_a_wrong_face() -> None:
    loop = Loopback(practice_decks())
    loop.everyone(lambda deck, state: deck.draw(state, 10, Seat.NORTH))
    deck = loop.decks[Seat.NORTH]
    _, out = deck.reveal(loop.states[Seat.NORTH], 10)
    message = out[0].message if isinstance(out[0], Send) else None
    assert isinstance(message, Signed) and isinstance(message.body, PublicReveal)
    wrong = Kind.JOKER if message.body.kind != Kind.JOKER else Kind.FLOWER
    lie = sign(replace(message.body, kind=wrong), mac_signer(Seat.NORTH))
    with pytest.raises(DeckCheat) as caught:
        loop.decks[Seat.EAST].receive(loop.states[Seat.EAST], lie)
    assert (caught.value.blame.seat, caught.value.blame.cheat) == (Seat.NORTH, Cheat.WRONG_FACE)


def _seat_of(deck: Deck[S]) -> Seat:
    """Typed against the ``Deck`` protocol: mypy checks both decks conform to it."""
    return deck.seat


def test_both_decks_satisfy_the_deck_interface() -> None:
    practice = practice_decks()[1]
    masked = masked_decks(replace(DESC, practice=False, size=8))[1]
    assert _seat_of(practice) == _seat_of(masked) == Seat.SOUTH


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
    return {seat: {e.slot: e.kind for e in loop.events[seat] if isinstance(e, Learned)}
            for seat in SEATS}


@pytest.mark.parametrize("practice", [True, False])
def test_b1_no_flowers_deck_deals_and_audits_the_136_tiles(practice: bool) -> None:
    desc = replace(description(RuleSet.MCR), practice=practice, flowers=False)
    assert len(desc.tiles) == 136 and not any(is_bonus(k) for k in desc.tiles)
    if practice:
        _check_no_flowers(Loopback([PracticeDeck.create(desc, s, SEED, mac_signer(s), mac_verify)
                                    for s in SEATS]))
    else:
        _check_no_flowers(Loopback(masked_decks(desc, run=5)))


def _check_no_flowers(loop: Loopback[S]) -> None:
    seen = _mcr_no_flowers_hand(loop)
    faces = audit_result(loop.events, Seat.EAST).faces
    assert Counter(faces) == Counter(tile_set(RuleSet.MCR, flowers=False))
    for seat in SEATS:
        assert len(seen[seat]) >= 13
        assert all(faces[slot] == kind for slot, kind in seen[seat].items())
    with pytest.raises(DeckUsageError, match="a plan for 144 tiles on a 136-tile wall"):
        loop.decks[0].deal(loop.states[Seat.EAST], mcr_plan((2, 5, 1, 6)))
