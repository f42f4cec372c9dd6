"""Play (docs/RULES.md A5, A2): turns, the call window, calls, priority, hot wall, jokers."""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations

import pytest

from fourwinds.protocol.american.actions import (
    Action,
    Call,
    CallMahjong,
    DeclareMahjong,
    Discard,
    ExchangeJoker,
    NoCall,
)
from fourwinds.protocol.american.config import TableOptions
from fourwinds.protocol.american.engine import apply, legal_actions
from fourwinds.protocol.american.events import Discarded, Drew
from fourwinds.protocol.american.matcher import nearest_hands
from fourwinds.protocol.american.state import AmericanState, Stage
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import LiveWall

from .engine_fixtures import E, N, S, W, answer_rest, discard, play_state, slot_of, slots_of

EAST_2468 = "222m444m6666m888m5p"  # 2468-1 but for 8m, holding a 5p


def test_a5_east_discards_first() -> None:
    state = play_state({E: EAST_2468})
    assert state.turn == E and state.stage is Stage.DISCARD
    assert legal_actions(state, S) == ()
    assert all(isinstance(a, Discard) for a in legal_actions(state, E))
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, Discard(S, state.hands[S][0], state.faces[state.hands[S][0]]))


def test_a5_next_player_to_the_right_draws_after_an_uncalled_discard() -> None:
    state = play_state({E: EAST_2468}, draws="9s")
    state, events = discard(state, E, "5p")
    assert state.stage is Stage.CALLS
    state, events = answer_rest(state)
    assert state.turn == S and state.stage is Stage.DISCARD and state.drew
    drew = [e for e in events if isinstance(e, Drew)]
    assert drew and drew[0].seat == S and state.faces[drew[0].slot] == Kind.S9
    assert state.tile_count(S) == 14 and state.tile_count(E) == 13


def test_a5_call_window_resolves_only_when_every_answer_is_in() -> None:
    state = play_state({E: EAST_2468})
    state, _ = discard(state, E, "5p")
    state, _ = apply(state, NoCall(S))
    state, _ = apply(state, NoCall(W))
    assert state.stage is Stage.CALLS
    state, _ = apply(state, NoCall(N))
    assert state.stage is Stage.DISCARD and state.turn == S


def test_a5_call_exposes_a_pung_then_the_caller_discards_and_play_skips_to_its_right() -> None:
    state = play_state({E: EAST_2468, W: "5p5p 1s2s3s4s6s7s8s9s 1z2z3z"})
    state, _ = discard(state, E, "5p")
    call = Call(W, slots_of(state, W, "5p", 2), (Kind.P5, Kind.P5))
    state, _ = answer_rest(state, {W: call})
    assert state.turn == W and state.stage is Stage.DISCARD and not state.drew
    assert state.exposure_kinds(W) == ((Kind.P5,) * 3,)
    assert state.tile_count(W) == 14
    state, _ = discard(state, W, "1z")
    state, _ = answer_rest(state)
    assert state.turn == N  # South's turn was skipped


def test_a5_no_call_for_a_pair_or_a_single_except_for_mahjong() -> None:
    state = play_state({E: EAST_2468, W: "5p5p 1s2s3s4s6s7s8s9s 1z2z3z"})
    state, _ = discard(state, E, "5p")
    with pytest.raises(IllegalAction, match="pair or single"):
        apply(state, Call(W, slots_of(state, W, "5p", 1), (Kind.P5,)))
    with pytest.raises(IllegalAction, match="pair or single"):
        apply(state, Call(W, (), ()))


def test_a2_a_discarded_joker_cannot_be_called() -> None:
    state = play_state({E: "222m444m6666m888mJ", W: "JJ 1s2s3s4s6s7s8s9s 1z2z3z"})
    state, events = discard(state, E, "J")
    assert isinstance(events[0], Discarded) and not events[0].callable
    assert state.turn == S and state.stage is Stage.DISCARD  # no window: South drew at once


def test_a5_exposed_tiles_must_match_the_called_tile() -> None:
    state = play_state({E: EAST_2468, W: "5p6p 1s2s3s4s6s7s8s9s 1z2z3z"})
    state, _ = discard(state, E, "5p")
    with pytest.raises(IllegalAction, match="does not belong"):
        apply(
            state, Call(W, (slot_of(state, W, "5p"), slot_of(state, W, "6p")), (Kind.P5, Kind.P6))
        )


def test_a5_mahjong_beats_an_exposure_call_even_when_further_in_turn() -> None:
    state = play_state(
        {
            E: "8m 1p2p3p4p5p6p7p9p 1s2s3s4s5s",
            S: "JJ 3s6s7s8s9s 5z5z5z6z6z6z",
            N: "222m444m6666m888m",
        }
    )
    state, _ = discard(state, E, "8m")
    jokers = slots_of(state, S, "J", 2)
    state, _ = answer_rest(state, {S: Call(S, jokers, (Kind.JOKER, Kind.JOKER)), N: CallMahjong(N)})
    assert state.stage is Stage.MAHJONG and state.turn == N
    state, _ = apply(state, DeclareMahjong(N, state.concealed_kinds(N)))
    assert state.result is not None and state.result.winner == N
    assert state.result.hand_id == "2468-1"


def test_a5_between_two_exposure_calls_the_nearest_in_turn_wins() -> None:
    hands = {E: EAST_2468, S: "5pJ 1s2s3s4s6s7s8s9s 1z2z3z", W: "5p5p 1s2s3s4s6s7s8s9s 5z6z7z"}
    results = []
    for order in permutations((S, W, N)):
        state = play_state(hands)
        state, _ = discard(state, E, "5p")
        answers: dict[Kind | int, Action] = {
            S: Call(S, (slot_of(state, S, "5p"), slot_of(state, S, "J")), (Kind.P5, Kind.JOKER)),
            W: Call(W, slots_of(state, W, "5p", 2), (Kind.P5, Kind.P5)),
            N: NoCall(N),
        }
        for seat in order:
            state, _ = apply(state, answers[seat])
        assert state.turn == S and len(state.exposures[S]) == 1
        results.append(state)
    assert all(r == results[0] for r in results)  # arrival order changes nothing


def test_a5_concealed_hand_calls_only_for_mahjong() -> None:
    waiting = "11m33m55m77m99m4z4z2z"  # odd-8 (C) but for the second South
    state = play_state({E: "2z4z 1p2p3p4p5p6p7p9p 1s2s3s4s", W: waiting})
    state, _ = discard(state, E, "2z")
    assert CallMahjong(W) in legal_actions(state, W)
    state, _ = answer_rest(state, {W: CallMahjong(W)})
    state, _ = apply(state, DeclareMahjong(W, state.concealed_kinds(W)))
    assert state.result is not None and state.result.hand_id == "odd-8"
    # Calling the North for a pung instead exposes it: no concealed hand is possible any more.
    state = play_state({E: "4z2z 1p2p3p4p5p6p7p9p 1s2s3s4s", W: waiting})
    state, _ = discard(state, E, "4z")
    state, _ = answer_rest(
        state, {W: Call(W, slots_of(state, W, "4z", 2), (Kind.NORTH, Kind.NORTH))}
    )
    near = nearest_hands(state.card, state.concealed_kinds(W), state.exposure_kinds(W), 80)
    assert near and not any(n.hand.concealed for n in near)


def test_a5_hot_wall_allows_only_mahjong_calls_in_the_last_wall() -> None:
    hands = {E: EAST_2468, W: "5p5p 1s2s3s4s6s7s8s9s 1z2z3z"}
    state = play_state(hands, options=TableOptions(hot_wall=True))
    state = replace(state, wall=LiveWall(state.wall.live, len(state.wall.live) - 38))
    state, _ = discard(state, E, "5p")
    assert not any(isinstance(a, Call) for a in legal_actions(state, W))
    with pytest.raises(IllegalAction, match="hot wall"):
        apply(state, Call(W, slots_of(state, W, "5p", 2), (Kind.P5, Kind.P5)))
    cold = play_state(hands)
    cold = replace(cold, wall=LiveWall(cold.wall.live, len(cold.wall.live) - 38))
    cold, _ = discard(cold, E, "5p")
    assert any(isinstance(a, Call) for a in legal_actions(cold, W))


def _south_exposes_5p_kong_with_jokers(
    draws: str = "", options: TableOptions | None = None, west: str = "5p5p 1s2s3s4s6s7s8s9s 5z6z7z"
) -> AmericanState:
    """East discards 5p; South calls it with 5p J J; South discards 1z; West draws."""
    state = play_state(
        {E: EAST_2468, S: "5pJJ 2s3s4s6s7s8s9s 1z2z3z", W: west}, draws=draws, options=options
    )
    state, _ = discard(state, E, "5p")
    call = Call(
        S, (slot_of(state, S, "5p"), *slots_of(state, S, "J", 2)), (Kind.P5, Kind.JOKER, Kind.JOKER)
    )
    state, _ = answer_rest(state, {S: call})
    state, _ = discard(state, S, "1z")
    state, _ = answer_rest(state)
    assert state.turn == W
    return state


def _exposed_jokers(state: AmericanState, seat: Kind | int) -> list[int]:
    return [s for e in state.exposures[seat] for s in e.slots if state.faces[s] == Kind.JOKER]


def test_a2_joker_exchange_on_your_turn_several_at_once() -> None:
    state = _south_exposes_5p_kong_with_jokers()
    for _ in range(2):
        joker = _exposed_jokers(state, S)[0]
        state, _ = apply(state, ExchangeJoker(W, slot_of(state, W, "5p"), Kind.P5, joker))
    assert state.exposure_kinds(S) == ((Kind.P5,) * 4,)
    assert state.concealed_kinds(W).count(Kind.JOKER) == 2
    assert state.tile_count(W) == 14 and state.stage is Stage.DISCARD


def test_a2_joker_exchange_only_on_your_turn_and_only_for_the_tile_it_stands_for() -> None:
    state = _south_exposes_5p_kong_with_jokers()
    joker = _exposed_jokers(state, S)[0]
    with pytest.raises(IllegalAction, match="your turn"):
        apply(state, ExchangeJoker(N, state.hands[N][0], state.faces[state.hands[N][0]], joker))
    with pytest.raises(IllegalAction, match="stands for"):
        apply(state, ExchangeJoker(W, slot_of(state, W, "1s"), Kind.S1, joker))


def test_a2_joker_exchange_from_a_dead_hand() -> None:
    state = _south_exposes_5p_kong_with_jokers()
    state = replace(state, dead=(False, True, False, False))
    joker = _exposed_jokers(state, S)[0]
    state, _ = apply(state, ExchangeJoker(W, slot_of(state, W, "5p"), Kind.P5, joker))
    assert joker in state.hands[W]


def test_a2_joker_exchange_from_own_exposure_is_a_table_option() -> None:
    # South calls 5p with 5p J J, later draws the last 5p itself (West, North, East pass).
    draws = "1m 1m 1m 5p"
    for allowed in (True, False):
        state = _south_exposes_5p_kong_with_jokers(
            draws,
            TableOptions(exchange_from_own_exposure=allowed),
            west="5p 1s2s3s4s6s7s8s9s 5z6z7z4z",
        )
        for seat in (W, N, E):
            state, _ = apply(
                state, Discard(seat, state.hands[seat][-1], state.faces[state.hands[seat][-1]])
            )
            state, _ = answer_rest(state)
        assert state.turn == S and state.faces[state.hands[S][-1]] == Kind.P5
        exchange = ExchangeJoker(S, state.hands[S][-1], Kind.P5, _exposed_jokers(state, S)[0])
        if allowed:
            state, _ = apply(state, exchange)
            assert exchange.joker_slot in state.hands[S]
        else:
            with pytest.raises(IllegalAction, match="own exposure"):
                apply(state, exchange)


def test_a3_play_draws_continue_where_the_deal_stopped() -> None:
    state = play_state({E: EAST_2468})
    first = state.wall.live[0]
    state, _ = discard(state, E, "5p")
    state, events = answer_rest(state)
    assert any(isinstance(e, Drew) and e.slot == first for e in events)
    assert first in state.hands[S]


def test_a5_only_the_most_recent_discard_may_be_called() -> None:
    state = play_state({E: EAST_2468, W: "5p5p 1s2s3s4s6s7s8s9s 1z2z3z"})
    state, _ = discard(state, E, "5p")
    state, _ = answer_rest(state)
    state, _ = discard(state, S, _last(state, S))
    # West's pair of 5p no longer calls anything: the window is about South's discard.
    with pytest.raises(IllegalAction):
        apply(state, Call(W, slots_of(state, W, "5p", 2), (Kind.P5, Kind.P5)))


def _last(state: AmericanState, seat: Kind | int) -> str:
    from fourwinds.protocol.notation import tile_code

    return tile_code(state.faces[state.hands[seat][-1]])


def test_a5_exposures_stay_as_laid_for_the_rest_of_the_hand() -> None:
    state = _south_exposes_5p_kong_with_jokers()
    laid = state.exposures[S]
    for _ in range(8):  # several turns of discards: nothing touches South's kong
        seat = state.turn
        state, _ = discard(state, seat, _last(state, seat))
        state, _ = answer_rest(state)
        assert state.exposures[S] == laid
    assert not any(
        isinstance(a, ExchangeJoker) and a.joker_slot not in _exposed_jokers(state, S)
        for seat in (E, S, W, N)
        for a in legal_actions(state, seat)
    )


def test_a2_a_dead_hand_cannot_exchange_jokers() -> None:
    state = _south_exposes_5p_kong_with_jokers()
    state = replace(state, dead=(False, False, True, False))
    joker = _exposed_jokers(state, S)[0]
    with pytest.raises(IllegalAction, match="dead hand"):
        apply(state, ExchangeJoker(W, slot_of(state, W, "5p"), Kind.P5, joker))


def test_a7_east_may_declare_a_dealt_hand_as_self_drawn() -> None:
    from fourwinds.protocol.american.actions import CourtesyPass
    from fourwinds.protocol.american.state import CharlestonStep

    from .engine_fixtures import charleston_state

    state = charleston_state({E: "222m444m6666m8888m"})
    state = replace(state, step=CharlestonStep.COURTESY)
    for seat in (E, S, W, N):
        state, _ = apply(state, CourtesyPass(seat, ()))
    assert state.turn == E and state.stage is Stage.DISCARD
    state, _ = apply(state, DeclareMahjong(E, state.concealed_kinds(E)))
    assert state.result is not None and state.result.self_drawn
    assert state.result.payments == (300, -100, -100, -100)


def test_a5_a_call_exposes_a_kong_or_quint_with_jokers_never_more_than_six() -> None:
    hands = {E: EAST_2468, W: "5p5pJJJJJ 1s2s3s4s 1z2z"}
    state = play_state(hands)
    state, _ = discard(state, E, "5p")
    quint = (*slots_of(state, W, "5p", 2), *slots_of(state, W, "J", 2))
    too_many = (*slots_of(state, W, "5p", 2), *slots_of(state, W, "J", 5))
    with pytest.raises(IllegalAction, match="at most 6"):
        apply(state, Call(W, too_many, state.kinds(too_many)))
    shapes = {len(a.slots) + 1 for a in legal_actions(state, W) if isinstance(a, Call)}
    assert {3, 4, 5} <= shapes and max(shapes) <= 6
    state, _ = answer_rest(state, {W: Call(W, quint, state.kinds(quint))})
    assert state.exposure_kinds(W) == ((Kind.P5, Kind.P5, Kind.JOKER, Kind.JOKER, Kind.P5),)
    assert state.tile_count(W) == 14
