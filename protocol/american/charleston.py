"""The Charleston (docs/RULES.md A4): three mandatory passes, the stop vote, the reverse second
Charleston, blind passes and the courtesy pass.

Every step collects one input per seat and fires only when all four are in, so the order in
which they arrive never changes the result. Jokers are never passed by choice.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from ..seats import SEATS, Seat
from ..tiles import Kind
from .actions import Action, CharlestonPass, CourtesyPass, PoolIn, PoolTake, StopVote
from .events import AmericanEvent, InputReceived, PassMade, StepStarted, TilesReceived
from .pooling import apply_pooling, legal_pooling
from .state import AmericanState, CharlestonStep, Stage, check_own_tiles, evolve, fail, with_seat

Step = CharlestonStep

PASS_TARGET: dict[CharlestonStep, Callable[[Seat], Seat]] = {
    Step.FIRST_RIGHT: lambda s: s.right,
    Step.FIRST_ACROSS: lambda s: s.across,
    Step.FIRST_LEFT: lambda s: s.left,
    Step.SECOND_LEFT: lambda s: s.left,
    Step.SECOND_ACROSS: lambda s: s.across,
    Step.LAST_RIGHT: lambda s: s.right,
}
BLIND_STEPS = frozenset({Step.FIRST_LEFT, Step.LAST_RIGHT})
NEXT_STEP = {
    Step.FIRST_RIGHT: Step.FIRST_ACROSS,
    Step.FIRST_ACROSS: Step.FIRST_LEFT,
    Step.FIRST_LEFT: Step.STOP_VOTE,
    Step.SECOND_LEFT: Step.SECOND_ACROSS,
    Step.SECOND_ACROSS: Step.LAST_RIGHT,
    Step.LAST_RIGHT: Step.COURTESY,
}
EMPTY = (None, None, None, None)
Result = tuple[AmericanState, list[AmericanEvent]]


def legal_charleston(state: AmericanState, seat: Seat) -> tuple[Action, ...]:
    """Every Charleston input the seat may give now (none once it has given one)."""
    if state.pending[seat] is not None:
        return ()
    if state.step is Step.STOP_VOTE:
        return (StopVote(seat, False), StopVote(seat, True))
    if state.step in (Step.POOL, Step.POOL_TAKE):
        return legal_pooling(state, seat)
    hand = tuple(s for s in state.hands[seat] if state.faces[s] != Kind.JOKER)
    if state.step is Step.COURTESY:
        return tuple(CourtesyPass(seat, combo) for n in range(4) for combo in combinations(hand, n))
    blinds = range(4) if state.step in BLIND_STEPS else range(1)
    return tuple(
        CharlestonPass(seat, combo, blind) for combo in combinations(hand, 3) for blind in blinds
    )


def apply_charleston(state: AmericanState, action: Action) -> Result:
    """Record one seat's input; resolve the step when all four are in."""
    seat = action.seat
    if state.step in (Step.POOL, Step.POOL_TAKE) or isinstance(action, (PoolIn, PoolTake)):
        if state.step not in (Step.POOL, Step.POOL_TAKE):
            fail(f"no pooling now: the Charleston is at {state.step.value}", seat)
        return apply_pooling(state, action, Step.STOP_VOTE)
    if state.pending[seat] is not None:
        fail("you have already given your input for this step", seat)
    if isinstance(action, StopVote):
        if state.step is not Step.STOP_VOTE:
            fail(f"no stop vote now: the Charleston is at {state.step.value}", seat)
    elif isinstance(action, CourtesyPass):
        if state.step is not Step.COURTESY:
            fail(f"no courtesy pass now: the Charleston is at {state.step.value}", seat)
        _check_passable(state, seat, action.tiles, 0, 3)
    elif isinstance(action, CharlestonPass):
        if state.step not in PASS_TARGET:
            fail(f"no pass now: the Charleston is at {state.step.value}", seat)
        if action.blind and state.step not in BLIND_STEPS:
            fail("a blind pass is allowed only on the first left and the last right", seat)
        if not 0 <= action.blind <= 3:
            fail("a blind pass passes on 1, 2 or 3 tiles", seat)
        _check_passable(state, seat, action.tiles, 3, 3)
    else:
        fail(f"{type(action).__name__} is not allowed during the Charleston", seat)
    pending = with_seat(state.pending, seat, action)
    state = evolve(state, pending=pending)
    events: list[AmericanEvent] = [InputReceived(seat)]
    if any(p is None for p in pending):
        return state, events
    if state.step is Step.STOP_VOTE:
        return _resolve_vote(state, events)
    if state.step is Step.COURTESY:
        return _resolve_courtesy(state, events)
    return _resolve_pass(state, events)


def _check_passable(
    state: AmericanState, seat: Seat, tiles: tuple[int, ...], low: int, high: int
) -> None:
    if not low <= len(tiles) <= high:
        count = str(low) if low == high else f"{low} to {high}"
        fail(f"pass {count} tiles, not {len(tiles)}", seat)
    check_own_tiles(state, seat, tiles)
    if any(state.faces[s] == Kind.JOKER for s in tiles):
        fail("jokers are never passed", seat)


def _advance(state: AmericanState, step: CharlestonStep, events: list[AmericanEvent]) -> Result:
    events.append(StepStarted(step))
    if step is Step.PLAY:
        # East's 14th tile was dealt from the wall: a Mahjong with it counts as self-drawn.
        return evolve(
            state, step=step, pending=EMPTY, turn=Seat.EAST, stage=Stage.DISCARD, drew=True
        ), events
    return evolve(state, step=step, pending=EMPTY), events


def _resolve_vote(state: AmericanState, events: list[AmericanEvent]) -> Result:
    stoppers = tuple(p.seat for p in state.pending if isinstance(p, StopVote) and p.stop)
    state = evolve(state, stop_votes=stoppers)
    return _advance(state, Step.COURTESY if stoppers else Step.SECOND_LEFT, events)


def _passes(state: AmericanState) -> dict[Seat, CharlestonPass]:
    passes = {}
    for seat in SEATS:
        action = state.pending[seat]
        assert isinstance(action, CharlestonPass)
        passes[seat] = action
    return passes


def blind_flow(
    passes: dict[Seat, CharlestonPass], target: Callable[[Seat], Seat]
) -> tuple[dict[Seat, tuple[int, ...]], dict[Seat, tuple[int, ...]]]:
    """Where the tiles of one pass land: ``(own tiles given, tiles kept)`` per seat.

    Each seat sends its first ``3 - blind`` named tiles; the first ``blind`` tiles that
    arrive at it are passed on unseen. Tiles move one hop per round, seats in E S W N order
    (a fixed order, so the result depends only on the four inputs). If the blind passes
    cannot all be honoured so that every seat keeps as many as it gave, nobody passes blind
    and everyone passes the three tiles they named.
    """
    own = {s: p.tiles[: 3 - p.blind] for s, p in passes.items()}
    quota = {s: p.blind for s, p in passes.items()}
    queue: dict[Seat, list[int]] = {s: [] for s in SEATS}
    for seat in SEATS:
        queue[target(seat)].extend(own[seat])
    kept: dict[Seat, list[int]] = {s: [] for s in SEATS}
    while any(queue.values()):
        for seat in SEATS:
            if queue[seat]:
                slot = queue[seat].pop(0)
                if quota[seat] > 0:
                    quota[seat] -= 1
                    queue[target(seat)].append(slot)
                else:
                    kept[seat].append(slot)
    if all(len(kept[s]) == len(own[s]) for s in SEATS):
        return own, {s: tuple(k) for s, k in kept.items()}
    own = {s: p.tiles for s, p in passes.items()}
    source = {target(s): s for s in SEATS}
    return own, {s: own[source[s]] for s in SEATS}


def _resolve_pass(state: AmericanState, events: list[AmericanEvent]) -> Result:
    step = state.step
    target = PASS_TARGET[step]
    passes = _passes(state)
    own, kept = blind_flow(passes, target)
    hands = list(state.hands)
    for seat in SEATS:
        gone = set(own[seat])
        hands[seat] = tuple(s for s in hands[seat] if s not in gone) + kept[seat]
        given = len(own[seat])
        events.append(PassMade(step, seat, target(seat), 3, 3 - given))
    for seat in SEATS:
        events.append(TilesReceived(seat, kept[seat], state.kinds(kept[seat])))
    state = evolve(
        state,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        received=(kept[SEATS[0]], kept[SEATS[1]], kept[SEATS[2]], kept[SEATS[3]]),
    )
    after = NEXT_STEP[step]
    if step is Step.FIRST_LEFT and state.options.pooling:
        after = Step.POOL
    return _advance(state, after, events)


def _resolve_courtesy(state: AmericanState, events: list[AmericanEvent]) -> Result:
    offers: dict[Seat, tuple[int, ...]] = {}
    for seat in SEATS:
        action = state.pending[seat]
        assert isinstance(action, CourtesyPass)
        offers[seat] = action.tiles
    hands = list(state.hands)
    received: dict[Seat, tuple[int, ...]] = {}
    for seat in SEATS:
        count = min(len(offers[seat]), len(offers[seat.across]))
        gone = set(offers[seat][:count])
        received[seat] = offers[seat.across][:count]
        hands[seat] = tuple(s for s in hands[seat] if s not in gone) + received[seat]
        events.append(PassMade(Step.COURTESY, seat, seat.across, count, 0))
    for seat in SEATS:
        events.append(TilesReceived(seat, received[seat], state.kinds(received[seat])))
    state = evolve(
        state,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        received=(received[SEATS[0]], received[SEATS[1]], received[SEATS[2]], received[SEATS[3]]),
    )
    return _advance(state, Step.PLAY, events)
