"""Payments (docs/RULES.md B5) and penalties (B6), alone and through the engine."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fourwinds.protocol.mcr.actions import ClaimWin, DeclareWin
from fourwinds.protocol.mcr.engine import apply
from fourwinds.protocol.mcr.payments import penalty_payments, win_payments
from fourwinds.protocol.mcr.wins import reveal_of
from fourwinds.protocol.seats import SEATS, Seat

from .rig import discard, pass_others, rig

E, S, W, N = SEATS
EAST_HAND = "5p 1m9m 1p9p 1s9s 1z2z3z4z 5z6z7z"


def test_b5_win_on_a_discard_discarder_pays_total_plus_8_others_8() -> None:
    assert win_payments(S, E, 20) == (-28, 44, -8, -8)


def test_b5_self_drawn_each_pays_total_plus_8() -> None:
    assert win_payments(W, None, 10) == (-18, -18, 54, -18)


def test_b6_penalty_paid_to_each_other_player() -> None:
    assert penalty_payments(N, 10) == (10, 10, 10, -30)
    assert penalty_payments(E, 20) == (-60, 20, 20, 20)


@given(st.sampled_from(SEATS), st.one_of(st.none(), st.sampled_from(SEATS)), st.integers(8, 400))
def test_b5_payments_always_sum_to_zero(winner: Seat, discarder: Seat | None, total: int) -> None:
    if discarder == winner:
        discarder = None
    pays = win_payments(winner, discarder, total)
    assert sum(pays) == 0 and pays[winner] > 0


def test_b5_engine_pays_a_discard_win() -> None:
    state = rig({E: EAST_HAND, N: "123456789m46p55s"})
    state = discard(state, E, "5p")
    state, _ = apply(state, ClaimWin(N, reveal_of(state, N)))
    state = pass_others(state)
    assert state.result is not None
    total = state.result.total
    assert total >= 8
    assert state.result.payments == (-(total + 8), -8, -8, total + 24)


def test_b5_engine_pays_a_self_drawn_win() -> None:
    state = rig({E: EAST_HAND, S: "123456789m567p5s"}, front="5s")
    state = pass_others(discard(state, E, "5p"))
    state, _ = apply(state, DeclareWin(S, reveal_of(state, S)))
    assert state.result is not None and state.result.self_drawn
    total = state.result.total
    assert "Self-Drawn" in [n for n, _, _ in state.result.fans] or "Fully Concealed Hand" in [
        n for n, _, _ in state.result.fans
    ]
    assert state.result.payments == (-(total + 8), 3 * (total + 8), -(total + 8), -(total + 8))
