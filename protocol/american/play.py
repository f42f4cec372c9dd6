"""Turns of play (docs/RULES.md A5): East discards first; discard, the call window, the draw.

A discard opens a window that waits for every eligible seat's answer (dead seats and the
discarder are answered for at once with ``NoCall``); when it is complete the winning call
takes the tile, or else the next seat to the right draws. The wall running out with no
Mahjong is a wall game.
"""

from __future__ import annotations

from ..seats import SEATS, Seat
from ..tiles import Kind
from .actions import Action, Call, CallMahjong, Discard, NoCall
from .calls import check_answer, winning_answer
from .config import DeclarationMode
from .declare import mark_dead
from .events import (
    AmericanEvent,
    Called,
    Discarded,
    Drew,
    HandOver,
    InputReceived,
    TileSeen,
)
from .matcher import exposures_possible
from .payouts import WALL_GAME
from .state import (
    AmericanState,
    CallsClosed,
    Exposure,
    HandResult,
    Stage,
    check_face,
    check_own_tiles,
    evolve,
    fail,
    set_faces,
    with_seat,
)

Result = tuple[AmericanState, list[AmericanEvent]]


def discard(state: AmericanState, action: Discard) -> Result:
    seat = action.seat
    if state.stage is not Stage.DISCARD or state.turn != seat:
        fail("it is not your turn to discard", seat)
    check_own_tiles(state, seat, (action.slot,))
    check_face(state, seat, action.slot, action.face)
    hand = tuple(s for s in state.hands[seat] if s != action.slot)
    callable_ = action.face != Kind.JOKER
    answers: list[Action | None] = [
        None if callable_ and s != seat and not state.dead[s] else NoCall(s) for s in SEATS
    ]
    state = evolve(
        state,
        hands=with_seat(state.hands, seat, hand),
        faces=set_faces(state.faces, {action.slot: action.face}),
        discards=(*state.discards, action.slot),
        public=state.public | {action.slot},
        discarders={**state.discarders, action.slot: seat},
        stage=Stage.CALLS,
        last_discard=action.slot,
        discarder=seat,
        drew=False,
        pending=(answers[0], answers[1], answers[2], answers[3]),
    )
    events: list[AmericanEvent] = [Discarded(seat, action.slot, action.face, callable_)]
    if all(a is not None for a in answers):
        return _close_window(state, events)
    return state, events


def answer(state: AmericanState, action: Action) -> Result:
    check_answer(state, action)
    state = evolve(state, pending=with_seat(state.pending, action.seat, action))
    events: list[AmericanEvent] = [InputReceived(action.seat)]
    if any(a is None for a in state.pending):
        return state, events
    return _close_window(state, events)


def _close_window(state: AmericanState, events: list[AmericanEvent]) -> Result:
    winner = winning_answer(state)
    if winner is not None and state.last_discard is not None and state.discarder is not None:
        closed = CallsClosed(
            state.last_discard, state.discarder, state.pending, winner.seat, len(state.discarders)
        )
        state = evolve(state, last_calls=closed)
    state = evolve(state, pending=(None, None, None, None))
    if winner is None:
        return next_draw(state, events)
    assert state.last_discard is not None
    slot = state.last_discard
    seat = winner.seat
    discards = state.discards[:-1]
    if isinstance(winner, CallMahjong):
        hand = (*state.hands[seat], slot)
        events.append(Called(seat, slot, (state.faces[slot],), True))
        return evolve(
            state,
            hands=with_seat(state.hands, seat, hand),
            discards=discards,
            turn=seat,
            stage=Stage.MAHJONG,
            drew=False,
        ), events
    assert isinstance(winner, Call)
    kind = state.faces[slot]
    exposure = Exposure(kind, (*winner.slots, slot))
    hand = tuple(s for s in state.hands[seat] if s not in set(winner.slots))
    state = evolve(
        state,
        hands=with_seat(state.hands, seat, hand),
        discards=discards,
        exposures=with_seat(state.exposures, seat, (*state.exposures[seat], exposure)),
        faces=set_faces(state.faces, dict(zip(winner.slots, winner.faces, strict=True))),
        public=state.public | set(winner.slots),
        turn=seat,
        stage=Stage.DISCARD,
        drew=False,
    )
    events.append(Called(seat, slot, state.kinds(exposure.slots), False))
    if state.options.declaration is DeclarationMode.TOURNAMENT and not exposures_possible(
        state.card, state.exposure_kinds(seat)
    ):
        state = mark_dead(state, seat, "no hand on the card can use these exposures", events)
    return state, events


def next_draw(state: AmericanState, events: list[AmericanEvent]) -> Result:
    """After an uncalled discard: the next seat to the right that still plays draws."""
    assert state.discarder is not None
    playing = [s for s in SEATS if not state.sits_out(s)]
    if state.wall.remaining == 0 or all(state.dead) or not playing:
        return wall_game(state, events)
    seat = state.discarder.right
    while state.sits_out(seat):
        seat = seat.right
    slot, wall = state.wall.draw_front()
    hand = (*state.hands[seat], slot)
    events.append(Drew(seat, slot, wall.remaining))
    events.append(TileSeen(seat, slot, state.faces[slot]))
    return evolve(
        state,
        wall=wall,
        hands=with_seat(state.hands, seat, hand),
        turn=seat,
        stage=Stage.DISCARD,
        drew=True,
        last_discard=None,
    ), events


def wall_game(state: AmericanState, events: list[AmericanEvent]) -> Result:
    result = HandResult(None, None, 0, False, False, None, WALL_GAME)
    events.append(HandOver(result))
    return evolve(state, result=result), events


def legal_discards(state: AmericanState, seat: Seat) -> tuple[Discard, ...]:
    if state.result is not None or state.stage is not Stage.DISCARD or state.turn != seat:
        return ()
    return tuple(
        Discard(seat, s, state.faces[s]) for s in state.hands[seat] if state.faces[s] != Kind.HIDDEN
    )


__all__ = ["answer", "discard", "legal_discards", "next_draw", "wall_game"]
