"""The Charleston (docs/RULES.md A4)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.american.actions import (
    CharlestonPass,
    CourtesyPass,
    PoolIn,
    PoolTake,
    StopVote,
)
from fourwinds.protocol.american.charleston import blind_flow
from fourwinds.protocol.american.config import TableOptions
from fourwinds.protocol.american.engine import apply, legal_actions, view
from fourwinds.protocol.american.state import AmericanState, CharlestonStep, Stage
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind

from .engine_fixtures import E, N, S, W, charleston_state

Step = CharlestonStep


def _plain(state: AmericanState, seat: Seat, count: int = 3) -> tuple[int, ...]:
    return tuple(s for s in state.hands[seat] if state.faces[s] != Kind.JOKER)[:count]


def _all_pass(state: AmericanState, blind: dict[Seat, int] | None = None) -> AmericanState:
    for seat in SEATS:
        state, _ = apply(
            state, CharlestonPass(seat, _plain(state, seat), (blind or {}).get(seat, 0))
        )
    return state


def test_a4_first_charleston_passes_right_then_across_then_left() -> None:
    state = charleston_state()
    for step, direction in (
        (Step.FIRST_RIGHT, "right"),
        (Step.FIRST_ACROSS, "across"),
        (Step.FIRST_LEFT, "left"),
    ):
        assert state.step is step
        given = {seat: _plain(state, seat) for seat in SEATS}
        state = _all_pass(state)
        for seat in SEATS:
            to = getattr(seat, direction)
            assert set(given[seat]) <= set(state.hands[to])
            assert not set(given[seat]) & set(state.hands[seat])
    assert state.step is Step.STOP_VOTE
    assert [len(h) for h in state.hands] == [14, 13, 13, 13]


def test_a4_each_pass_fires_only_when_all_four_passes_are_in() -> None:
    state = charleston_state()
    before = state.hands
    for seat in (E, S, W):
        state, _ = apply(state, CharlestonPass(seat, _plain(state, seat)))
        assert state.hands == before and state.step is Step.FIRST_RIGHT
    with pytest.raises(IllegalAction, match="already"):
        apply(state, CharlestonPass(E, _plain(state, E)))
    state, _ = apply(state, CharlestonPass(N, _plain(state, N)))
    assert state.step is Step.FIRST_ACROSS and state.hands != before


def test_a4_a_pass_is_three_tiles() -> None:
    state = charleston_state()
    with pytest.raises(IllegalAction, match="pass 3 tiles"):
        apply(state, CharlestonPass(E, _plain(state, E, 2)))
    with pytest.raises(IllegalAction, match="not in your hand"):
        apply(state, CharlestonPass(E, _plain(state, S)))


def test_a4_jokers_are_never_passed() -> None:
    state = charleston_state({E: "JJJ 1m2m3m4m5m6m7m8m9m 1p2p"})
    jokers = tuple(s for s in state.hands[E] if state.faces[s] == Kind.JOKER)
    with pytest.raises(IllegalAction, match="jokers are never passed"):
        apply(state, CharlestonPass(E, jokers))
    assert all(
        Kind.JOKER not in [state.faces[s] for s in a.tiles]  # type: ignore[union-attr]
        for a in legal_actions(state, E)
    )


def test_a4_one_stop_vote_skips_the_second_charleston() -> None:
    state = _all_pass(_all_pass(_all_pass(charleston_state())))
    for seat in SEATS:
        state, _ = apply(state, StopVote(seat, seat == N))
    assert state.step is Step.COURTESY


def test_a4_without_a_stop_the_second_charleston_goes_left_across_right() -> None:
    state = _all_pass(_all_pass(_all_pass(charleston_state())))
    for seat in SEATS:
        state, _ = apply(state, StopVote(seat, False))
    for step, direction in (
        (Step.SECOND_LEFT, "left"),
        (Step.SECOND_ACROSS, "across"),
        (Step.LAST_RIGHT, "right"),
    ):
        assert state.step is step
        given = {seat: _plain(state, seat) for seat in SEATS}
        state = _all_pass(state)
        for seat in SEATS:
            assert set(given[seat]) <= set(state.hands[getattr(seat, direction)])
    assert state.step is Step.COURTESY


def test_a4_blind_pass_only_on_first_left_and_last_right() -> None:
    state = charleston_state()
    with pytest.raises(IllegalAction, match="first left and the last right"):
        apply(state, CharlestonPass(E, _plain(state, E), blind=1))
    state = _all_pass(_all_pass(state))
    assert state.step is Step.FIRST_LEFT
    state, _ = apply(state, CharlestonPass(E, _plain(state, E), blind=2))
    assert state.pending[E] is not None


def test_a4_blind_pass_passes_on_tiles_received_unseen() -> None:
    state = _all_pass(_all_pass(charleston_state()))
    named = {seat: _plain(state, seat) for seat in SEATS}
    # On a left pass South receives West's tiles; stealing 2, it forwards the first two to
    # East unseen and passes only its own first named tile with them.
    state = _all_pass(state, {S: 2})
    from_west = named[W]
    assert from_west[0] in state.hands[E] and from_west[1] in state.hands[E]
    assert from_west[2] in state.hands[S]
    assert named[S][0] in state.hands[E] and named[S][1] in state.hands[S]
    assert [len(h) for h in state.hands] == [14, 13, 13, 13]


def test_a4_blind_passes_that_cannot_all_go_through_fall_back_to_the_named_tiles() -> None:
    passes = {
        seat: CharlestonPass(seat, (10 * seat, 10 * seat + 1, 10 * seat + 2), 3) for seat in SEATS
    }
    own, kept = blind_flow(passes, lambda s: s.left)
    for seat in SEATS:
        assert len(kept[seat]) == len(own[seat])
    passes[E] = CharlestonPass(E, (0, 1, 2), 0)
    own, kept = blind_flow(passes, lambda s: s.left)
    assert sorted(x for k in kept.values() for x in k) == [0, 1, 2]
    for seat in SEATS:
        assert len(kept[seat]) == len(own[seat])


@settings(max_examples=60)
@given(st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_a4_blind_flow_every_seat_keeps_as_many_as_it_gives(blinds: list[int]) -> None:
    passes = {
        seat: CharlestonPass(seat, (10 * seat, 10 * seat + 1, 10 * seat + 2), blinds[seat])
        for seat in SEATS
    }
    own, kept = blind_flow(passes, lambda s: s.right)
    given_all = sorted(x for v in own.values() for x in v)
    assert given_all == sorted(x for v in kept.values() for x in v)
    for seat in SEATS:
        assert len(kept[seat]) == len(own[seat])


def _to_courtesy() -> AmericanState:
    state = _all_pass(_all_pass(_all_pass(charleston_state({E: "JJ 1m2m3m4m5m6m7m8m9m 1p2p3p"}))))
    for seat in SEATS:
        state, _ = apply(state, StopVote(seat, True))
    return state


def test_a4_courtesy_pass_exchanges_the_smaller_number() -> None:
    state = _to_courtesy()
    offers = {E: _plain(state, E, 3), W: _plain(state, W, 1), S: (), N: _plain(state, N, 2)}
    for seat in SEATS:
        state, _ = apply(state, CourtesyPass(seat, offers[seat]))
    assert offers[E][0] in state.hands[W] and offers[W][0] in state.hands[E]
    assert offers[E][1] in state.hands[E] and offers[E][2] in state.hands[E]
    assert offers[N][0] in state.hands[N]  # South offered none: nothing crosses
    assert state.step is Step.PLAY and state.stage is Stage.DISCARD and state.turn == E
    assert [len(h) for h in state.hands] == [14, 13, 13, 13]


def test_a4_courtesy_pass_never_passes_jokers() -> None:
    state = _to_courtesy()
    jokers = tuple(s for s in state.hands[E] if state.faces[s] == Kind.JOKER)
    assert jokers
    with pytest.raises(IllegalAction, match="jokers"):
        apply(state, CourtesyPass(E, jokers[:1]))


@settings(max_examples=40)
@given(
    st.permutations(list(SEATS)),
    st.permutations(list(SEATS)),
    st.lists(st.integers(0, 3), min_size=4, max_size=4),
)
def test_a4_the_order_passes_arrive_in_never_changes_the_result(
    first: list[Seat], second: list[Seat], blinds: list[int]
) -> None:
    base = _all_pass(_all_pass(charleston_state()))
    passes = {
        seat: CharlestonPass(
            seat, tuple(combinations(_plain(base, seat, 6), 3))[blinds[seat]], blinds[seat]
        )
        for seat in SEATS
    }
    results = []
    for order in (first, second):
        state = base
        for seat in order:
            state, _ = apply(state, passes[seat])
        results.append(state)
    assert results[0] == results[1]


def test_a4_pooling_option_puts_tiles_in_a_face_up_pool_and_takes_as_many_out() -> None:
    state = _all_pass(_all_pass(_all_pass(charleston_state(options=TableOptions(pooling=True)))))
    assert state.step is Step.POOL
    given = {E: _plain(state, E, 3), S: _plain(state, S, 1), W: (), N: _plain(state, N, 2)}
    for seat in SEATS:
        state, _ = apply(state, PoolIn(seat, given[seat], state.kinds(given[seat])))
    assert state.step is Step.POOL_TAKE and len(state.pool) == 6
    assert all(view(state, W).faces[s] == state.faces[s] for s in state.pool)  # face up
    assert state.pending[W] is not None  # West put nothing in: takes nothing
    # South and North both want North's first tile: South, first in seat order, gets it.
    wish = given[N][0]
    state, _ = apply(state, PoolTake(N, (wish,)))
    state, _ = apply(state, PoolTake(S, (wish,)))
    with pytest.raises(IllegalAction, match="only tiles in the pool"):
        apply(state, PoolTake(E, (state.hands[E][0],)))
    state, _ = apply(state, PoolTake(E, ()))
    assert state.step is Step.STOP_VOTE and state.pool == ()
    assert wish in state.hands[S]
    assert [len(h) for h in state.hands] == [14, 13, 13, 13]


def test_a4_pooling_refuses_jokers_and_is_off_by_default() -> None:
    state = _all_pass(_all_pass(_all_pass(charleston_state())))
    assert state.step is Step.STOP_VOTE
    state = _all_pass(
        _all_pass(
            _all_pass(
                charleston_state({E: "JJ 1m2m3m4m5m6m7m8m9m 1p2p3p"}, TableOptions(pooling=True))
            )
        )
    )
    jokers = tuple(s for s in state.hands[E] if state.faces[s] == Kind.JOKER)
    with pytest.raises(IllegalAction, match="jokers"):
        apply(state, PoolIn(E, jokers[:1], (Kind.JOKER,)))
    with pytest.raises(IllegalAction, match="face of every tile"):
        apply(state, PoolIn(E, _plain(state, E, 1)))
