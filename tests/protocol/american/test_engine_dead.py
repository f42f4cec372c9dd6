"""Dead hands (docs/RULES.md A7) and the friendly/tournament declaration option."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fourwinds.protocol.american.actions import Call, CallMahjong, DeclareMahjong, NoCall
from fourwinds.protocol.american.config import DeadPlayer, DeclarationMode, TableOptions
from fourwinds.protocol.american.engine import apply, legal_actions
from fourwinds.protocol.american.events import SeatDead
from fourwinds.protocol.american.matcher import exposures_possible
from fourwinds.protocol.american.state import AmericanState, Exposure, Stage
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.tiles import Kind

from .engine_fixtures import E, S, W, answer_rest, discard, play_state, slots_of

TOURNAMENT = TableOptions(declaration=DeclarationMode.TOURNAMENT)
JUNK_EAST = "9s 1p2p3p4p6p7p9p 1s2s3s4s 7z7z"


def test_a7_false_mahjong_is_refused_in_friendly_mode() -> None:
    state = play_state({E: JUNK_EAST})
    with pytest.raises(IllegalAction, match="no hand on the card"):
        apply(state, DeclareMahjong(E, state.concealed_kinds(E)))
    assert not any(isinstance(a, DeclareMahjong) for a in legal_actions(state, E))


def test_a7_false_mahjong_kills_the_hand_in_tournament_mode() -> None:
    state = play_state({E: JUNK_EAST}, options=TOURNAMENT)
    state, events = apply(state, DeclareMahjong(E, state.concealed_kinds(E)))
    assert state.dead[E] and any(isinstance(e, SeatDead) for e in events)
    assert state.result is None and state.turn == E and state.stage is Stage.DISCARD
    with pytest.raises(IllegalAction, match="dead hand cannot win"):
        apply(state, DeclareMahjong(E, state.concealed_kinds(E)))


def test_a7_false_mahjong_call_refused_in_friendly_mode() -> None:
    state = play_state({E: JUNK_EAST})
    state, _ = discard(state, E, "9s")
    with pytest.raises(IllegalAction, match="does not complete"):
        apply(state, CallMahjong(W))


def _west_exposed_east_winds(options: TableOptions | None = None) -> AmericanState:
    """West has an exposed pung of East winds and 9s 9s in hand; East discards 9s."""
    state = play_state({E: JUNK_EAST, W: "1z1z1z 9s9s 1m2m3m4m5m6m7m8m"}, options=options)
    winds = slots_of(state, W, "1z", 3)
    hand = tuple(s for s in state.hands[W] if s not in winds)
    state = replace(
        state,
        hands=(*state.hands[:2], hand, state.hands[3]),
        exposures=((), (), (Exposure(Kind.EAST, winds),), ()),
        public=state.public | set(winds),
    )
    state, _ = discard(state, E, "9s")
    return state


def test_a7_exposures_no_card_hand_can_use_are_refused_in_friendly_mode() -> None:
    assert not exposures_possible(play_state({}).card, [[Kind.EAST] * 3, [Kind.S9] * 3])
    state = _west_exposed_east_winds()
    with pytest.raises(IllegalAction, match="no hand on the card can use"):
        apply(state, Call(W, slots_of(state, W, "9s", 2), (Kind.S9, Kind.S9)))


def test_a7_exposures_no_card_hand_can_use_kill_the_hand_in_tournament_mode() -> None:
    state = _west_exposed_east_winds(TOURNAMENT)
    state, events = answer_rest(
        state, {W: Call(W, slots_of(state, W, "9s", 2), (Kind.S9, Kind.S9))}
    )
    assert state.dead[W] and any(isinstance(e, SeatDead) and e.seat == W for e in events)


def test_a7_dead_player_keeps_drawing_and_discarding_but_never_calls() -> None:
    state = play_state({E: JUNK_EAST, S: "9s9s 1m2m3m4m5m6m7m8m 5z6z7z"})
    state = replace(state, dead=(False, True, False, False))
    state, _ = discard(state, E, "9s")
    assert state.pending[S] == NoCall(S)  # answered for: a dead hand does not call
    with pytest.raises(IllegalAction, match="dead hand cannot call"):
        apply(state, Call(S, slots_of(state, S, "9s", 2), (Kind.S9, Kind.S9)))
    state, _ = answer_rest(state)
    assert state.turn == S and state.tile_count(S) == 14  # still draws


def test_a7_dead_player_sits_out_when_the_table_says_so() -> None:
    options = TableOptions(dead_player=DeadPlayer.SITS_OUT)
    state = play_state({E: JUNK_EAST}, options=options)
    state = replace(state, dead=(False, True, False, False))
    state, _ = discard(state, E, "9s")
    state, _ = answer_rest(state)
    assert state.turn == W  # South skipped


def test_a7_a_player_with_the_wrong_count_is_dead() -> None:
    state = play_state({E: JUNK_EAST})
    state = replace(state, hands=(state.hands[0], state.hands[1][1:], *state.hands[2:]))
    state, events = discard(state, E, "9s")
    assert state.dead[S]
    assert any(isinstance(e, SeatDead) and "12 tiles" in e.reason for e in events)


def test_a7_when_every_hand_is_dead_the_hand_ends_as_a_wall_game() -> None:
    state = play_state({E: JUNK_EAST})
    state = replace(state, dead=(True, True, True, True))
    state, _ = discard(state, E, "9s")
    assert state.result is not None and state.result.wall_game
