"""Seating rotation (docs/RULES.md A7, B2) and the commit-reveal dice of the table."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from fourwinds.protocol.american.tileset import AMERICAN_SET
from fourwinds.protocol.deck import dice as deck_dice
from fourwinds.protocol.deck.commit_reveal import commitment
from fourwinds.protocol.mcr.config import TableOptions as MCROptions
from fourwinds.protocol.mcr.match import new_match, seat_winds
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine import dice as cr
from fourwinds.protocol.table.machine.harness import play_match, run
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.practice import practice_wall
from fourwinds.protocol.table.machine.problems import ProblemKind
from fourwinds.protocol.table.machine.state import Phase
from fourwinds.protocol.table.rules.registry import ruleset_named
from fourwinds.protocol.table.rules.rotation import Seating, first_seating, wind_of
from fourwinds.protocol.table.wire.messages import MsgKind, Reveal, encode_body
from fourwinds.protocol.table.wire.strict import WireError

from .helpers import liar, toy_harness


def seating_for_hand(rules: str, first: Seating, hand: int) -> Seating:
    """The rule set's seating of a hand, as the table session asks the registry for it."""
    return ruleset_named(rules).seating_for_hand(first, hand, ())


def test_a7_the_deal_passes_to_the_right_after_every_hand() -> None:
    first = first_seating(Seat.WEST)
    for hand in range(8):
        now = seating_for_hand("american", first, hand)
        after = seating_for_hand("american", first, hand + 1)
        assert after[Seat.EAST] == now[Seat.SOUTH]


def test_b2_seat_winds_rotate_and_players_change_seats_each_round() -> None:
    for order in permutations(SEATS):
        first = (order[0], order[1], order[2], order[3])
        drawn = [int(wind_of(first, Seat(p))) for p in range(4)]
        match = new_match(MCROptions(), drawn)
        for hand in range(16):
            ours = seating_for_hand("mcr", first, hand)
            theirs = seat_winds(match, hand)
            assert all(wind_of(ours, Seat(p)) == theirs[p] for p in range(4)), (order, hand)


def test_b2_the_first_south_is_east_when_the_south_round_starts() -> None:
    first = first_seating(Seat.EAST)
    assert seating_for_hand("mcr", first, 4)[Seat.EAST] == first[Seat.SOUTH]


def test_a3_first_east_and_break_dice_come_from_the_shared_seed() -> None:
    easts = Counter(deck_dice.first_east(n.to_bytes(4, "big")) for n in range(200))
    assert set(easts) == {0, 1, 2, 3}
    rolls = Counter(
        d for n in range(300) for d in deck_dice.break_dice(AMERICAN_SET, n.to_bytes(4, "big"))
    )
    assert set(rolls) == {1, 2, 3, 4, 5, 6} and min(rolls.values()) > 60


def test_the_table_commits_with_the_decks_commitment_and_its_own_nonces() -> None:
    ctx = b"ctx"
    nonce = cr.derive_nonce(b"secret", ctx)
    assert nonce == cr.derive_nonce(b"secret", ctx) != cr.derive_nonce(b"other", ctx)
    assert commitment(ctx, Seat.EAST, nonce) != commitment(ctx, Seat.SOUTH, nonce)


def test_practice_wall_holds_every_tile_once() -> None:
    for n in range(10):
        wall = practice_wall(AMERICAN_SET, bytes([n]) * 32)
        assert Counter(wall.faces) == Counter(AMERICAN_SET.kinds)


def test_a_reveal_that_does_not_open_its_commitment_is_blamed_and_no_hand_starts() -> None:
    h = toy_harness(b"reveal")
    liar(
        h,
        Seat.NORTH,
        lambda e: {"body": encode_body(Reveal(bytes(32)))} if e.kind is MsgKind.REVEAL else None,
    )
    run(h)
    for p in (0, 1, 2):
        assert {x.seat for x in h.problems[p] if x.kind is ProblemKind.BAD_REVEAL} == {Seat.NORTH}
        assert h.sessions[p].phase is Phase.REVEAL


@pytest.mark.slow
def test_fixed_winds_a_tournament_table_seats_its_places_at_their_winds() -> None:
    """A tournament round's seating gives the winds (docs/TOURNAMENT.md): with
    ``fixed_winds`` place 0 is East, 1 South, 2 West, 3 North at the first hand, whatever the
    dice say; without it the dice draw them (B2), so over several seeds the draw differs."""
    for rules in ("mcr", "american"):
        for n in range(4):
            fixed = TableOptions(deck=DeckKind.PRACTICE, hands=1, fixed_winds=True)
            h = play_match(rules, f"fixed-{n}".encode(), options=fixed)
            assert all(s.first_seating == (0, 1, 2, 3) for s in h.sessions), (rules, n)
    drawn = {
        play_match(
            "mcr", f"drawn-{n}".encode(), options=TableOptions(deck=DeckKind.PRACTICE, hands=1)
        )
        .sessions[0]
        .first_seating
        for n in range(6)
    }
    assert len(drawn) > 1


def test_fixed_winds_travels_in_the_open_and_older_forms_still_read() -> None:
    fixed = TableOptions(fixed_winds=True)
    assert TableOptions.from_wire(fixed.to_wire()) == fixed
    assert len(TableOptions().to_wire()) == 9  # a table that draws encodes as before
    assert TableOptions.from_wire(TableOptions().to_wire()).fixed_winds is False
    with pytest.raises(WireError, match="fixed_winds"):
        TableOptions.from_wire([*TableOptions().to_wire(), False])
