"""Answers to a discard (docs/RULES.md A5): call for an exposure, call for Mahjong, or no call.

Every eligible seat answers; the window resolves only when all answers are in. Mahjong beats
an exposure; otherwise the caller nearest in turn after the discarder wins. Discarded jokers
cannot be called; a call exposes a pung, kong, quint or sextet (a pair or single only for
Mahjong); with the hot-wall option, only Mahjong once play reaches the last wall.
"""

from __future__ import annotations

from ..seats import Seat, seats_in_turn_order_after
from ..tiles import Kind
from .actions import Action, Call, CallMahjong, NoCall
from .config import DeclarationMode
from .declare import mahjong_matches
from .matcher import exposures_possible
from .state import AmericanState, Stage, check_face, check_own_tiles, fail
from .tileset import AMERICAN_SET

MIN_GROUP, MAX_GROUP = 3, 6


def discard_kind(state: AmericanState) -> Kind:
    assert state.last_discard is not None
    return state.faces[state.last_discard]


def hot(state: AmericanState) -> bool:
    """The hot wall is on and play has reached the last wall: Mahjong calls only."""
    return state.options.hot_wall and state.wall.in_last_wall(AMERICAN_SET.stacks_per_wall)


def answering(state: AmericanState, seat: Seat) -> bool:
    """Does the open call window wait for this seat's answer?"""
    return state.result is None and state.stage is Stage.CALLS and state.pending[seat] is None


def exposure_calls(state: AmericanState, seat: Seat) -> tuple[Call, ...]:
    """Every distinct exposure the seat could make with the discard (one per shape)."""
    kind = discard_kind(state)
    if kind == Kind.JOKER or hot(state):
        return ()
    hand = state.hands[seat]
    real = [s for s in hand if state.faces[s] == kind]
    jokers = [s for s in hand if state.faces[s] == Kind.JOKER]
    calls = []
    for size in range(MIN_GROUP, MAX_GROUP + 1):
        for n_real in range(min(len(real), size - 1) + 1):
            n_jokers = size - 1 - n_real
            if n_jokers > len(jokers):
                continue
            slots = tuple(real[:n_real]) + tuple(jokers[:n_jokers])
            calls.append(Call(seat, slots, state.kinds(slots)))
    return tuple(calls)


def legal_answers(state: AmericanState, seat: Seat) -> tuple[Action, ...]:
    if not answering(state, seat):
        return ()
    answers: list[Action] = [NoCall(seat)]
    extra = discard_kind(state)
    concealed = (*state.concealed_kinds(seat), extra)
    tournament = state.options.declaration is DeclarationMode.TOURNAMENT
    if tournament or mahjong_matches(state, seat, concealed):
        answers.append(CallMahjong(seat))
    for call in exposure_calls(state, seat):
        if tournament or _possible(state, seat, call):
            answers.append(call)
    return tuple(answers)


def _possible(state: AmericanState, seat: Seat, call: Call) -> bool:
    group = (*call.faces, discard_kind(state))
    return exposures_possible(state.card, (*state.exposure_kinds(seat), group))


def check_answer(state: AmericanState, action: Action) -> None:
    """Refuse an answer the rules do not allow (raises ``IllegalAction``)."""
    seat = action.seat
    if state.stage is not Stage.CALLS:
        fail("there is no discard to answer", seat)
    if state.pending[seat] is not None:
        if state.dead[seat]:
            fail("a dead hand cannot call", seat)
        if state.discarder == seat:
            fail("you cannot call your own discard", seat)
        fail("you have already answered this discard", seat)
    if isinstance(action, NoCall):
        return
    kind = discard_kind(state)
    if kind == Kind.JOKER:
        fail("a discarded joker cannot be called", seat)
    if isinstance(action, CallMahjong):
        concealed = (*state.concealed_kinds(seat), kind)
        friendly = state.options.declaration is DeclarationMode.FRIENDLY
        if (
            friendly
            and Kind.HIDDEN not in concealed
            and not mahjong_matches(state, seat, concealed)
        ):
            fail(f"{kind.name} does not complete a hand on the card for you", seat)
        return
    assert isinstance(action, Call)
    if hot(state):
        fail("hot wall: discards may be called only for Mahjong now", seat)
    size = len(action.slots) + 1
    if size < MIN_GROUP:
        fail("a discard may be called for a pair or single only to go Mahjong", seat)
    if size > MAX_GROUP:
        fail("a group holds at most 6 tiles", seat)
    if len(action.faces) != len(action.slots):
        fail("give the face of every tile you expose", seat)
    check_own_tiles(state, seat, action.slots)
    for slot, face in zip(action.slots, action.faces, strict=True):
        check_face(state, seat, slot, face)
        if face not in (kind, Kind.JOKER):
            fail(f"{face.name} does not belong in a group of {kind.name}", seat)
    if state.options.declaration is DeclarationMode.FRIENDLY and not _possible(state, seat, action):
        fail("no hand on the card can use these exposures", seat)


def winning_answer(state: AmericanState) -> Action | None:
    """The call that takes the discard: Mahjong first, then the nearest in turn."""
    assert state.discarder is not None
    order = seats_in_turn_order_after(state.discarder)
    for seat in order:
        if isinstance(state.pending[seat], CallMahjong):
            return state.pending[seat]
    for seat in order:
        if isinstance(state.pending[seat], Call):
            return state.pending[seat]
    return None
