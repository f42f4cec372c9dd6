"""Property: any sequence of draws, passes and discards keeps the four seats' views consistent,
never shows a seat a face it was not entitled to, and audits clean."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fourwinds.protocol.deck.loopback import Loopback
from fourwinds.protocol.deck.masked_wall import TileTable
from fourwinds.protocol.seats import SEATS, Seat

from .helpers import audit_result, description, drawing, masked_decks, passing, revealing

SIZE = 10
DESC = description(size=SIZE)
TILES = TileTable.build(DESC)

step = st.tuples(
    st.sampled_from(["draw", "pass", "discard"]),
    st.integers(0, SIZE - 1),
    st.sampled_from(SEATS),
    st.sampled_from(SEATS),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, max_size=14), st.integers(0, 3))
def test_any_hand_keeps_views_consistent_and_audits_clean(
    steps: list[tuple[str, int, Seat, Seat]], run: int
) -> None:
    loop = Loopback(masked_decks(DESC, run=100 + run))
    entitled: dict[Seat, set[int]] = {seat: set() for seat in SEATS}
    for kind, slot, seat, other in steps:
        holder = loop.states[0].holder[slot]
        public = slot in loop.states[0].public
        if kind == "draw" and holder is None and not public:
            loop.everyone(drawing(slot, seat))
            entitled[seat].add(slot)
        elif kind == "pass" and holder is not None and holder != other:
            loop.command(holder, passing((slot,), other))
            entitled[other].add(slot)
        elif kind == "discard" and holder is not None:
            loop.command(holder, revealing(slot))
            for everyone in SEATS:
                entitled[everyone].add(slot)
        states = loop.states
        assert all(s.holder == states[0].holder and s.public == states[0].public for s in states)
        for seat in SEATS:
            assert set(states[seat].faces) == entitled[seat]
    loop.everyone(lambda deck, state: deck.audit(state))
    result = audit_result(loop, Seat.EAST)
    assert result.blames == ()
    assert Counter(result.faces) == Counter(DESC.tiles)
    for seat in SEATS:
        assert audit_result(loop, seat) == result
        assert all(result.faces[s] == k for s, k in loop.states[seat].faces.items())
