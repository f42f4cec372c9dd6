"""Pooling (docs/RULES.md A4.5, a table option of seed 004): after the first Charleston each
player puts 0-3 unwanted tiles into a face-up pool, then takes as many back out.

Both steps collect all four inputs before anything moves. Taking is settled in rounds, seats
in E S W N order: each seat that is still owed a tile takes its most wanted tile still in the
pool (its list of wishes, best first), or, when none of its wishes is left, the first tile of
the pool. No jokers go into the pool (jokers are never passed).
"""

from __future__ import annotations

from itertools import combinations

from ..seats import SEATS, Seat
from ..tiles import Kind
from .actions import Action, PoolIn, PoolTake
from .events import AmericanEvent, InputReceived, Pooled, PoolTaken, StepStarted, TilesReceived
from .state import (
    AmericanState,
    CharlestonStep,
    check_face,
    check_own_tiles,
    evolve,
    fail,
    set_faces,
    with_seat,
)

Result = tuple[AmericanState, list[AmericanEvent]]
EMPTY = (None, None, None, None)


def legal_pooling(state: AmericanState, seat: Seat) -> tuple[Action, ...]:
    if state.pending[seat] is not None:
        return ()
    if state.step is CharlestonStep.POOL:
        hand = tuple(s for s in state.hands[seat] if state.faces[s] != Kind.JOKER)
        return tuple(
            PoolIn(seat, combo, state.kinds(combo))
            for n in range(4)
            for combo in combinations(hand, n)
        )
    return tuple(PoolTake(seat, combo) for combo in combinations(state.pool, state.pooled[seat]))


def apply_pooling(state: AmericanState, action: Action, then: CharlestonStep) -> Result:
    """Record a pooling input; resolve the step when all four are in. ``then``: the step
    after pooling."""
    seat = action.seat
    if state.pending[seat] is not None:
        fail("you have already given your input for this step", seat)
    if state.step is CharlestonStep.POOL:
        if not isinstance(action, PoolIn):
            fail("put 0 to 3 tiles into the pool now", seat)
        if len(action.tiles) > 3:
            fail("put at most 3 tiles into the pool", seat)
        check_own_tiles(state, seat, action.tiles)
        if len(action.faces) != len(action.tiles):
            fail("give the face of every tile you put in the pool", seat)
        for slot, face in zip(action.tiles, action.faces, strict=True):
            check_face(state, seat, slot, face)
        if Kind.JOKER in action.faces:
            fail("jokers are never passed, nor pooled", seat)
    else:
        if not isinstance(action, PoolTake):
            fail("take your tiles from the pool now", seat)
        if len(set(action.tiles)) != len(action.tiles):
            fail("the same tile is named twice", seat)
        if any(s not in state.pool for s in action.tiles):
            fail("you may take only tiles in the pool", seat)
    state = evolve(state, pending=with_seat(state.pending, seat, action))
    events: list[AmericanEvent] = [InputReceived(seat)]
    if any(p is None for p in state.pending):
        return state, events
    if state.step is CharlestonStep.POOL:
        return _fill(state, events, then)
    return _empty(state, events, then)


def _fill(state: AmericanState, events: list[AmericanEvent], then: CharlestonStep) -> Result:
    hands = list(state.hands)
    pool: list[int] = []
    counts = [0, 0, 0, 0]
    faces: dict[int, Kind] = {}
    for seat in SEATS:
        action = state.pending[seat]
        assert isinstance(action, PoolIn)
        gone = set(action.tiles)
        hands[seat] = tuple(s for s in hands[seat] if s not in gone)
        pool.extend(action.tiles)
        counts[seat] = len(action.tiles)
        faces.update(zip(action.tiles, action.faces, strict=True))
        events.append(Pooled(seat, action.tiles, action.faces))
    state = evolve(
        state,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        pool=tuple(pool),
        faces=set_faces(state.faces, faces),
        pooled=(counts[0], counts[1], counts[2], counts[3]),
        public=state.public | set(pool),
    )
    if not pool:
        events.append(StepStarted(then))
        return evolve(state, step=then, pending=EMPTY), events
    events.append(StepStarted(CharlestonStep.POOL_TAKE))
    pending = tuple(None if counts[s] else PoolTake(s, ()) for s in SEATS)
    return evolve(
        state,
        step=CharlestonStep.POOL_TAKE,
        pending=(pending[0], pending[1], pending[2], pending[3]),
    ), events


def _empty(state: AmericanState, events: list[AmericanEvent], then: CharlestonStep) -> Result:
    left = list(state.pool)
    owed = list(state.pooled)
    wishes: dict[Seat, list[int]] = {}
    for seat in SEATS:
        action = state.pending[seat]
        assert isinstance(action, PoolTake)
        wishes[seat] = list(action.tiles)
    taken: dict[Seat, list[int]] = {s: [] for s in SEATS}
    while left:
        for seat in SEATS:
            if not owed[seat] or not left:
                continue
            wanted = [s for s in wishes[seat] if s in left]
            slot = wanted[0] if wanted else left[0]
            left.remove(slot)
            taken[seat].append(slot)
            owed[seat] -= 1
    hands = list(state.hands)
    for seat in SEATS:
        hands[seat] = (*hands[seat], *taken[seat])
        events.append(PoolTaken(seat, tuple(taken[seat])))
        events.append(TilesReceived(seat, tuple(taken[seat]), state.kinds(taken[seat])))
    events.append(StepStarted(then))
    return evolve(
        state,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        pool=(),
        pooled=(0, 0, 0, 0),
        step=then,
        pending=EMPTY,
    ), events
