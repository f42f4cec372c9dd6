"""Test helpers for the MCR engine: rigged walls and short-hand actions.

``rig`` places chosen tiles in the slots the deal gives each seat (and in the front and back
of the live wall), filling the rest from the remaining MCR tiles with the flowers kept in the
middle of the wall, so a test controls exactly what each seat holds and draws.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from fourwinds.protocol.mcr.actions import Action, Discard, FlowersDone, Pass
from fourwinds.protocol.mcr.config import TableOptions
from fourwinds.protocol.mcr.engine import apply, new_hand
from fourwinds.protocol.mcr.events import Event
from fourwinds.protocol.mcr.state import HandState, Phase
from fourwinds.protocol.mcr.tileset import MCR_TILES, mcr_plan
from fourwinds.protocol.notation import parse_tiles
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind, is_bonus
from testkit.slots import nth_slot

DICE = (1, 1, 1, 1)


def tiles(text: str) -> list[Kind]:
    return parse_tiles(text)


def rig_faces(
    hands: Mapping[Seat, str],
    front: str = "",
    back: str = "",
    dice: tuple[int, int, int, int] = DICE,
) -> list[Kind]:
    """Faces by slot: ``hands`` dealt as given, ``front`` drawn first, ``back`` replacements
    (first listed = first replacement)."""
    plan = mcr_plan(dice)
    faces: list[Kind | None] = [None] * 144
    pool = list(MCR_TILES)

    def put(slot: int, kind: Kind) -> None:
        if kind not in pool:
            raise ValueError(f"no {kind.name} left to place")
        pool.remove(kind)
        faces[slot] = kind

    for seat in SEATS:
        kinds = tiles(hands.get(seat, ""))
        if kinds and len(kinds) != len(plan.deal[seat]):
            raise ValueError(f"{seat.name} needs {len(plan.deal[seat])} tiles")
        for slot, kind in zip(plan.deal[seat], kinds, strict=False):
            put(slot, kind)
    live = list(plan.live)
    for slot, kind in zip(live, tiles(front), strict=False):
        put(slot, kind)
    for slot, kind in zip(reversed(live), tiles(back), strict=False):
        put(slot, kind)
    # Fill the rest: ordinary tiles first in dealing/draw order, flowers last (mid-wall).
    pool.sort(key=lambda k: (is_bonus(k), k))
    order = [s for seat in SEATS for s in plan.deal[seat]]
    half = len(live) // 2
    order += live[:half] + list(reversed(live[half:]))
    flowers = [k for k in pool if is_bonus(k)]
    plain = [k for k in pool if not is_bonus(k)]
    empty = [s for s in order if faces[s] is None]
    # flowers go to the empty live slots nearest the middle of the wall
    middle = sorted((s for s in empty if s in live), key=lambda s: abs(live.index(s) - half))[
        : len(flowers)
    ]
    for slot, kind in zip(middle, flowers, strict=True):
        faces[slot] = kind
    rest = [s for s in empty if faces[s] is None]
    for slot, kind in zip(rest, plain, strict=True):
        faces[slot] = kind
    assert all(f is not None for f in faces)
    return [f for f in faces if f is not None]


def rig(
    hands: Mapping[Seat, str],
    front: str = "",
    back: str = "",
    options: TableOptions | None = None,
    prevalent: int = 0,
    dice: tuple[int, int, int, int] = DICE,
    start: bool = True,
) -> HandState:
    """A hand dealt from ``rig_faces``; with ``start`` the flower phase is done (no flowers)."""
    faces = rig_faces(hands, front, back, dice)
    state, _ = new_hand(options or TableOptions(), faces, dice, prevalent)
    if start:
        for seat in SEATS:
            state, _ = apply(state, FlowersDone(seat))
        assert state.phase is Phase.TURN
    return state


def run(state: HandState, actions: Iterable[Action]) -> tuple[HandState, list[Event]]:
    events: list[Event] = []
    for action in actions:
        state, more = apply(state, action)
        events.extend(more)
    return state, events


def slot_of(state: HandState, seat: Seat, kind: Kind, nth: int = 0) -> int:
    return nth_slot(state.faces, state.seats[seat].hand, kind, nth)


def slots_of(state: HandState, seat: Seat, kinds: Sequence[Kind]) -> tuple[int, ...]:
    used: list[int] = []
    for kind in kinds:
        used.append(
            next(s for s in state.seats[seat].hand if state.faces[s] == kind and s not in used)
        )
    return tuple(used)


def discard(state: HandState, seat: Seat, code: str) -> HandState:
    kind = tiles(code)[0]
    state, _ = apply(state, Discard(seat, slot_of(state, seat, kind), kind))
    return state


def pass_others(state: HandState, *, but: Iterable[Seat] = ()) -> HandState:
    """Every seat that still owes an answer passes, except ``but``."""
    skip = set(but)
    for seat in SEATS:
        if state.phase not in (Phase.CLAIMS, Phase.ROB):
            break
        if seat != state.turn and state.answers[seat] is None and seat not in skip:
            state, _ = apply(state, Pass(seat))
    return state


def hand_kinds(state: HandState, seat: Seat) -> list[Kind]:
    return sorted(state.faces[s] for s in state.seats[seat].hand)


def tsumogiri(state: HandState) -> HandState:
    """The seat on turn discards the tile it just drew."""
    assert state.phase is Phase.TURN and state.drawn is not None
    kind = state.faces[state.drawn]
    state, _ = apply(state, Discard(state.turn, state.drawn, kind))
    return state
