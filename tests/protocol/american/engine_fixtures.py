"""Building American hands for the engine tests: chosen tiles in chosen seats."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from fourwinds.protocol.american.actions import Action, Discard, NoCall
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.american.config import TableOptions
from fourwinds.protocol.american.engine import apply, new_hand
from fourwinds.protocol.american.events import AmericanEvent
from fourwinds.protocol.american.state import AmericanState, CharlestonStep, Stage
from fourwinds.protocol.american.tileset import AMERICAN_TILES, american_plan
from fourwinds.protocol.notation import parse_tiles
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind
from testkit.slots import nth_slot

DICE = (3, 4)
E, S, W, N = SEATS


def wall_faces(hands: dict[Seat, str], draws: str = "") -> list[Kind]:
    """A full wall: ``hands`` dealt to their seats, ``draws`` first off the live wall, the
    rest of the set in kind order (so unnamed seats hold plain, unhelpful runs)."""
    plan = american_plan(DICE)
    pool = Counter(AMERICAN_TILES)
    faces: list[Kind | None] = [None] * 152
    for seat, text in hands.items():
        kinds = parse_tiles(text)
        assert len(kinds) == len(plan.deal[seat]), (seat, len(kinds))
        for slot, kind in zip(plan.deal[seat], kinds, strict=True):
            faces[slot] = kind
            pool[kind] -= 1
    for slot, kind in zip(plan.live, parse_tiles(draws), strict=False):
        faces[slot] = kind
        pool[kind] -= 1
    assert all(n >= 0 for n in pool.values()), pool
    rest = iter(sorted(pool.elements(), key=lambda k: (k % 9, k)))
    return [f if f is not None else next(rest) for f in faces]


def charleston_state(
    hands: dict[Seat, str] | None = None, options: TableOptions | None = None
) -> AmericanState:
    state, _ = new_hand(house_card(), wall_faces(hands or {}), DICE, options)
    return state


def play_state(
    hands: dict[Seat, str], draws: str = "", options: TableOptions | None = None
) -> AmericanState:
    """The hand just after the Charleston: East holds 14 and discards first."""
    state, _ = new_hand(house_card(), wall_faces(hands, draws), DICE, options)
    return replace(
        state,
        step=CharlestonStep.PLAY,
        pending=(None, None, None, None),
        turn=Seat.EAST,
        stage=Stage.DISCARD,
        drew=True,
    )


def slot_of(state: AmericanState, seat: Seat, kind: str | Kind, nth: int = 0) -> int:
    want = parse_tiles(kind)[0] if isinstance(kind, str) else kind
    return nth_slot(state.faces, state.hands[seat], want, nth)


def slots_of(state: AmericanState, seat: Seat, kind: str, count: int) -> tuple[int, ...]:
    want = parse_tiles(kind)[0]
    slots = [s for s in state.hands[seat] if state.faces[s] == want]
    assert len(slots) >= count
    return tuple(slots[:count])


def discard(
    state: AmericanState, seat: Seat, kind: str
) -> tuple[AmericanState, list[AmericanEvent]]:
    slot = slot_of(state, seat, kind)
    return apply(state, Discard(seat, slot, state.faces[slot]))


def answer_rest(
    state: AmericanState, answers: dict[Seat, Action] | None = None
) -> tuple[AmericanState, list[AmericanEvent]]:
    """Give the listed answers, then NoCall for every seat still to answer."""
    events: list[AmericanEvent] = []
    for action in (answers or {}).values():
        state, new = apply(state, action)
        events.extend(new)
    for seat in SEATS:
        if state.stage is Stage.CALLS and state.pending[seat] is None:
            state, new = apply(state, NoCall(seat))
            events.extend(new)
    return state, events
