"""Mahjong, payouts, the wall game and the match (docs/RULES.md A7)."""

from __future__ import annotations

from dataclasses import replace

from fourwinds.protocol.american.actions import CallMahjong, DeclareMahjong
from fourwinds.protocol.american.engine import apply
from fourwinds.protocol.american.match import MatchState
from fourwinds.protocol.american.payouts import payments
from fourwinds.protocol.american.state import AmericanState, HandResult
from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.walls import LiveWall

from .engine_fixtures import E, N, S, W, answer_rest, discard, play_state

JUNK_EAST = "5p 1p2p3p4p6p7p9p 1s2s3s4s 7z7z"


def _south_draws(south: str, draw: str) -> AmericanState:
    state = play_state({E: JUNK_EAST, S: south}, draws=draw)
    state, _ = discard(state, E, "5p")
    state, _ = answer_rest(state)
    return state


def test_a7_self_drawn_jokerless_mahjong_everyone_pays_four_times() -> None:
    state = _south_draws("222m444m6666m888m", "8m")
    state, _ = apply(state, DeclareMahjong(S, state.concealed_kinds(S)))
    result = state.result
    assert result is not None and result.self_drawn and result.jokerless
    assert result.hand_id == "2468-1" and result.value == 25
    assert result.payments == (-100, 300, -100, -100)


def test_a7_self_drawn_mahjong_with_a_joker_everyone_pays_double() -> None:
    state = _south_draws("222m444m6666m88mJ", "8m")
    state, _ = apply(state, DeclareMahjong(S, state.concealed_kinds(S)))
    assert state.result is not None and not state.result.jokerless
    assert state.result.payments == (-50, 150, -50, -50)


def test_a7_mahjong_on_a_discard_discarder_pays_double_others_single() -> None:
    state = play_state({E: "8m 1p2p3p4p5p6p7p9p 1s2s3s4s5s", N: "222m444m666mJ888m"})
    state, _ = discard(state, E, "8m")
    state, _ = answer_rest(state, {N: CallMahjong(N)})
    state, _ = apply(state, DeclareMahjong(N, state.concealed_kinds(N)))
    assert state.result is not None and not state.result.self_drawn
    assert state.result.discarder == E and not state.result.jokerless
    assert state.result.payments == (-50, -25, -25, 100)


def test_a7_jokerless_on_a_discard_discarder_pays_four_times() -> None:
    state = play_state({E: "8m 1p2p3p4p5p6p7p9p 1s2s3s4s5s", N: "222m444m6666m888m"})
    state, _ = discard(state, E, "8m")
    state, _ = answer_rest(state, {N: CallMahjong(N)})
    state, _ = apply(state, DeclareMahjong(N, state.concealed_kinds(N)))
    assert state.result is not None and state.result.jokerless
    assert state.result.payments == (-100, -50, -50, 200)


def test_a7_singles_and_pairs_get_no_jokerless_bonus() -> None:
    state = _south_draws("11m33m55m77m99m11p1s", "1s")
    state, _ = apply(state, DeclareMahjong(S, state.concealed_kinds(S)))
    assert state.result is not None and state.result.hand_id == "sp-4"
    assert not state.result.jokerless
    assert state.result.payments == (-100, 300, -100, -100)


def test_a7_payment_table() -> None:
    assert payments(W, 30, False, False, E) == (-60, -30, 120, -30)
    assert payments(W, 30, False, True, None) == (-60, -60, 180, -60)
    assert payments(W, 30, True, False, N) == (-60, -60, 240, -120)
    assert payments(W, 30, True, True, None) == (-120, -120, 360, -120)


def test_a7_wall_game_when_the_wall_runs_out_pays_nothing() -> None:
    state = play_state({E: JUNK_EAST})
    state = replace(state, wall=LiveWall(state.wall.live, len(state.wall.live) - 1))
    state, _ = discard(state, E, "5p")
    state, _ = answer_rest(state)
    assert state.turn == S and state.wall.remaining == 0 and state.result is None
    state, _ = discard(state, S, tile_code(state.faces[state.hands[S][-1]]))
    state, _ = answer_rest(state)
    assert state.result is not None and state.result.wall_game
    assert state.result.payments == (0, 0, 0, 0)


def test_a7_the_deal_passes_to_the_right_and_scores_run_over_the_match() -> None:
    match = MatchState()
    assert match.seat_of(0) == E and match.seat_of(1) == S
    win = HandResult(S, "2468-1", 25, False, True, None, (-50, 150, -50, -50))
    match = match.after(win)
    assert match.scores == (-50, 150, -50, -50)
    assert match.dealer == 1 and match.seat_of(1) == E and match.seat_of(0) == N
    match = match.after(HandResult(None, None, 0, False, False, None, (0, 0, 0, 0)))
    assert match.dealer == 2 and match.wall_games == 1 and match.hands_played == 2
    match = match.after(HandResult(E, "x", 25, False, False, W, (50, -25, -50, -25)))
    # East of the third hand is player 3 (index 2); West is player 1 (index 0).
    assert match.scores == (-100, 125, 0, -75)
