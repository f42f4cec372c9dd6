"""Mahjong declarations and dead hands (docs/RULES.md A7).

A hand is dead for a wrong tile count, for exposures no card hand can use
(``exposures_possible``) and, in tournament mode, for a false Mahjong. In friendly mode a
false declaration or an impossible exposure is refused with the reason instead.
"""

from __future__ import annotations

from ..seats import SEATS, Seat
from ..tiles import Kind
from .actions import DeclareMahjong
from .config import DeclarationMode
from .events import AmericanEvent, HandOver, MahjongDeclared, SeatDead
from .matcher import HandMatch, match_hand
from .payouts import best_match, jokerless_bonus, payments
from .state import (
    AmericanState,
    CharlestonStep,
    HandResult,
    Stage,
    check_face,
    evolve,
    fail,
    set_faces,
    with_seat,
)

Result = tuple[AmericanState, list[AmericanEvent]]


def mark_dead(
    state: AmericanState, seat: Seat, reason: str, events: list[AmericanEvent]
) -> AmericanState:
    """The seat's hand is dead for the rest of the hand (its exposures stay on the table)."""
    if state.dead[seat]:
        return state
    events.append(SeatDead(seat, reason))
    return evolve(state, dead=with_seat(state.dead, seat, True))


def expected_count(state: AmericanState, seat: Seat) -> int:
    """13, or 14 for the seat that is between draw (or call) and discard."""
    if state.result is not None:
        return state.tile_count(seat)
    if state.step is not CharlestonStep.PLAY:
        return 14 if seat == Seat.EAST else 13
    holding = state.stage in (Stage.DISCARD, Stage.MAHJONG) and seat == state.turn
    return 14 if holding else 13


def check_counts(state: AmericanState, events: list[AmericanEvent]) -> AmericanState:
    """Any seat holding too many or too few tiles is dead (docs/RULES.md A5, A7)."""
    for seat in SEATS:
        count = state.tile_count(seat)
        want = expected_count(state, seat)
        if count != want and not state.dead[seat]:
            state = mark_dead(state, seat, f"holds {count} tiles instead of {want}", events)
    return state


def mahjong_matches(
    state: AmericanState, seat: Seat, concealed: tuple[Kind, ...]
) -> tuple[HandMatch, ...]:
    """Card hands made by these concealed tiles with the seat's exposures (none if unknown)."""
    if (
        Kind.HIDDEN in concealed
        or len(concealed) + sum(len(e.slots) for e in state.exposures[seat]) != 14
    ):
        return ()
    return match_hand(state.card, concealed, state.exposure_kinds(seat))


def declarable(state: AmericanState, seat: Seat) -> bool:
    """May ``seat`` declare Mahjong now (its turn with 14, or after winning a Mahjong call)?"""
    return (
        state.result is None
        and state.step is CharlestonStep.PLAY
        and seat == state.turn
        and state.stage in (Stage.DISCARD, Stage.MAHJONG)
        and not state.dead[seat]
    )


def declare_mahjong(state: AmericanState, action: DeclareMahjong) -> Result:
    seat = action.seat
    if not declarable(state, seat):
        if state.dead[seat]:
            fail("a dead hand cannot win", seat)
        fail("you can declare Mahjong only on your turn with 14 tiles", seat)
    hand = state.hands[seat]
    if len(action.faces) != len(hand):
        fail(f"show all {len(hand)} concealed tiles, not {len(action.faces)}", seat)
    for slot, face in zip(hand, action.faces, strict=True):
        check_face(state, seat, slot, face)
    faces = set_faces(state.faces, dict(zip(hand, action.faces, strict=True)))
    state = evolve(state, faces=faces, public=state.public | set(hand))
    events: list[AmericanEvent] = []
    matches = mahjong_matches(state, seat, action.faces)
    if not matches:
        reason = "these tiles make no hand on the card"
        if state.options.declaration is DeclarationMode.FRIENDLY:
            fail(reason, seat)
        state = mark_dead(state, seat, f"false Mahjong: {reason}", events)
        return evolve(state, stage=Stage.DISCARD), events
    match = best_match(matches)
    self_drawn = state.stage is Stage.DISCARD and state.drew
    discarder = None if self_drawn else state.discarder
    bonus = jokerless_bonus(match)
    result = HandResult(
        seat,
        match.hand.id,
        match.hand.value,
        bonus,
        self_drawn,
        discarder,
        payments(seat, match.hand.value, bonus, self_drawn, discarder),
    )
    events.append(
        MahjongDeclared(
            seat,
            match.hand.id,
            match.hand.value,
            match.jokerless,
            self_drawn,
            action.faces,
            match.alternative,
            match.assignment,
            len(match.hand.alternatives),
        )
    )
    events.append(HandOver(result))
    return evolve(state, result=result), events
