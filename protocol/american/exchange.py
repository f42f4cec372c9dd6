"""Joker exchange (docs/RULES.md A2): on your turn, give the real tile a joker stands for in any
exposure (dead hands' too; your own if the table allows) and take the joker. Several may be
exchanged in one turn; each is one action.
"""

from __future__ import annotations

from ..seats import SEATS, Seat
from ..tiles import Kind
from .actions import ExchangeJoker
from .events import AmericanEvent, JokerExchanged
from .state import (
    AmericanState,
    CharlestonStep,
    Exposure,
    Stage,
    check_face,
    check_own_tiles,
    evolve,
    fail,
    set_faces,
    with_seat,
)

Result = tuple[AmericanState, list[AmericanEvent]]


def may_exchange(state: AmericanState, seat: Seat) -> bool:
    return (
        state.result is None
        and state.step is CharlestonStep.PLAY
        and state.stage is Stage.DISCARD
        and state.turn == seat
        and not state.dead[seat]
    )


def _owners(state: AmericanState, seat: Seat) -> tuple[Seat, ...]:
    if state.options.exchange_from_own_exposure:
        return tuple(SEATS)
    return tuple(s for s in SEATS if s != seat)


def find_joker(state: AmericanState, joker_slot: int) -> tuple[Seat, int] | None:
    """Owner and exposure index of an exposed joker."""
    for owner in SEATS:
        for index, exposure in enumerate(state.exposures[owner]):
            if joker_slot in exposure.slots:
                return owner, index
    return None


def legal_exchanges(state: AmericanState, seat: Seat) -> tuple[ExchangeJoker, ...]:
    if not may_exchange(state, seat):
        return ()
    by_kind: dict[Kind, int] = {}
    for slot in state.hands[seat]:
        by_kind.setdefault(state.faces[slot], slot)
    found = []
    for owner in _owners(state, seat):
        for exposure in state.exposures[owner]:
            if exposure.kind not in by_kind:
                continue
            for slot in exposure.slots:
                if state.faces[slot] == Kind.JOKER:
                    found.append(ExchangeJoker(seat, by_kind[exposure.kind], exposure.kind, slot))
    return tuple(found)


def exchange_joker(state: AmericanState, action: ExchangeJoker) -> Result:
    seat = action.seat
    if not may_exchange(state, seat):
        if state.dead[seat]:
            fail("a dead hand cannot exchange jokers", seat)
        fail("you may exchange a joker only on your turn, before discarding", seat)
    check_own_tiles(state, seat, (action.slot,))
    check_face(state, seat, action.slot, action.face)
    where = find_joker(state, action.joker_slot)
    if where is None or state.faces[action.joker_slot] != Kind.JOKER:
        fail(f"tile slot {action.joker_slot} is not an exposed joker", seat)
    owner, index = where
    if owner == seat and not state.options.exchange_from_own_exposure:
        fail("this table does not allow taking a joker from your own exposure", seat)
    exposure = state.exposures[owner][index]
    if action.face != exposure.kind:
        fail(f"that joker stands for {exposure.kind.name}, not {action.face.name}", seat)
    slots = tuple(action.slot if s == action.joker_slot else s for s in exposure.slots)
    owner_exposures = list(state.exposures[owner])
    owner_exposures[index] = Exposure(exposure.kind, slots)
    exposures = with_seat(state.exposures, owner, tuple(owner_exposures))
    hand = (*(s for s in state.hands[seat] if s != action.slot), action.joker_slot)
    state = evolve(
        state,
        exposures=exposures,
        hands=with_seat(state.hands, seat, hand),
        faces=set_faces(state.faces, {action.slot: action.face}),
        public=state.public | {action.slot},
    )
    return state, [JokerExchanged(seat, owner, action.slot, action.face, action.joker_slot)]
