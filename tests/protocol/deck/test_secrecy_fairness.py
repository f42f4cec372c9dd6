"""Secrecy (a curious seat learns nothing it is not entitled to) and fairness (one honest
shuffler makes the wall order uniform)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import permutations

import pytest

from fourwinds.protocol.american.tileset import AMERICAN_SET, american_plan
from fourwinds.protocol.deck import group
from fourwinds.protocol.deck.deck import MaskedDeck
from fourwinds.protocol.deck.events import Message
from fourwinds.protocol.deck.loopback import Loopback
from fourwinds.protocol.deck.masked_wall import SeatContext, SeatSecrets, TileTable, WallState
from fourwinds.protocol.deck.messages import (
    Complaint,
    DeckDescription,
    KeyDelivery,
    KeyProof,
    PublicReveal,
)
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.walls import LiveWall

from .helpers import description, drawing, entropy, mac_signer, mac_verify, masked_decks, revealing

CURIOUS = Seat.WEST


def keys_in_view(inbox: list[Message]) -> dict[int, set[Seat]]:
    """Whose keys a seat received for each position, from everything it was sent."""
    held: dict[int, set[Seat]] = {}
    for message in inbox:
        proofs: tuple[KeyProof, ...] = ()
        if isinstance(message, KeyDelivery):
            proofs = message.proofs
        elif isinstance(message.body, (PublicReveal, Complaint)):
            proofs = message.body.proofs
            if isinstance(message.body, PublicReveal):
                held.setdefault(message.body.slot, set()).add(message.body.seat)
        for proof in proofs:
            held.setdefault(proof.slot, set()).add(proof.issuer)
    return held


def test_curious_seat_never_holds_all_four_keys_of_a_position_it_does_not_hold() -> None:
    desc = description(AMERICAN_SET)
    loop = Loopback(masked_decks(desc, run=5))
    plan = american_plan((2, 5))
    loop.everyone(lambda deck, state: deck.deal(state, plan))
    wall = LiveWall(plan.live)
    for turn in range(6):
        seat = SEATS[turn % 4]
        slot, wall = wall.draw_front()
        loop.everyone(drawing(slot, seat))
        if turn % 2:
            loop.command(seat, revealing(slot))
    east_tiles = plan.deal[Seat.EAST][:3]
    loop.command(Seat.EAST, lambda deck, state: deck.transfer(state, east_tiles, Seat.SOUTH))
    state = loop.states[CURIOUS]
    entitled = {s for s, h in enumerate(state.holder) if h == CURIOUS} | set(state.public)
    view = keys_in_view(loop.inbox[CURIOUS])
    for slot in range(desc.tiles.__len__()):
        issuers = view.get(slot, set()) | {CURIOUS}  # its own key it always has
        if slot not in entitled:
            assert len(issuers) < 4, f"position {slot} could be opened by the curious seat"
            assert slot not in state.faces
        else:
            assert len(issuers) == 4
    assert len(entitled) > 13  # the test saw both kinds of positions


def _decoded_order(loop: Loopback[WallState], decks: list[MaskedDeck]) -> tuple[int, ...]:
    """The tile id at each final position, opened with every seat's keys (test's eye only)."""
    wall = loop.states[0].wall
    assert wall is not None
    tiles = decks[0].ctx.tiles
    order = []
    for p, point in enumerate(wall):
        product = group.scalar_product([d.ctx.secrets.keys[p] for d in decks])
        order.append(tiles.index[group.mult(group.scalar_invert(product), point)])
    return tuple(order)


def _chi_square(counts: Sequence[int], cells: int, total: int) -> float:
    """Pearson's statistic for ``counts`` of the cells seen (cells never seen count 0)."""
    expected = total / cells
    seen = sum((count - expected) ** 2 / expected for count in counts)
    return seen + (cells - len(counts)) * expected


def test_wall_order_is_not_predictable_from_the_curious_seats_secrets() -> None:
    desc = description(size=6)
    tiles = TileTable.build(desc)
    where = Counter[int]()
    runs = 120
    for run in range(runs):
        decks = [
            MaskedDeck.create(
                desc,
                s,
                entropy(s, 0 if s == CURIOUS else run, "view"),
                mac_signer(s),
                mac_verify,
                tiles,
            )
            for s in SEATS
        ]
        loop = Loopback(decks)
        where[_decoded_order(loop, decks).index(0)] += 1
    assert len(where) == 6
    assert _chi_square(list(where.values()), 6, runs) < 20.5  # 5 degrees of freedom, p = 0.001


def _rigged(
    desc: DeckDescription, tiles: TileTable, seat: Seat, honest: Seat | None, run: int
) -> MaskedDeck:
    """Every seat but ``honest`` keeps the order (identity permutation, fixed secrets)."""
    if seat == honest:
        return MaskedDeck.create(
            desc, seat, entropy(seat, run, "fair"), mac_signer(seat), mac_verify, tiles
        )
    fixed = entropy(seat, 0, "rigged")
    secrets = SeatSecrets.from_parts(
        fixed.scalar("s", 0),
        tuple(range(tiles.size)),
        tuple(fixed.scalar("k", p) for p in range(tiles.size)),
    )
    return MaskedDeck(SeatContext(desc, seat, secrets, tiles, mac_signer(seat), mac_verify))


@pytest.mark.slow
def test_one_honest_shuffler_makes_the_wall_order_uniform() -> None:
    desc = description(size=3)
    tiles = TileTable.build(desc)
    cells = len(list(permutations(range(3))))
    for honest, runs in ((Seat.SOUTH, 150), (Seat.NORTH, 150)):
        orders = Counter[tuple[int, ...]]()
        for run in range(runs):
            decks = [_rigged(desc, tiles, s, honest, run) for s in SEATS]
            orders[_decoded_order(Loopback(decks), decks)] += 1
        assert len(orders) == cells
        # 5 degrees of freedom, p = 0.001
        assert _chi_square(list(orders.values()), cells, runs) < 20.5


def test_without_an_honest_shuffler_the_order_is_fixed() -> None:
    """The control: the statistical test above can fail (all four seats rigged)."""
    desc = description(size=3)
    tiles = TileTable.build(desc)
    orders = set()
    for run in range(5):
        decks = [_rigged(desc, tiles, s, None, run) for s in SEATS]
        orders.add(_decoded_order(Loopback(decks), decks))
    assert orders == {(0, 1, 2)}
