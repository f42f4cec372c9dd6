"""Kongs on one's own turn (docs/RULES.md B4): concealed kong and added kong, with the replacement
draw from the far end of the wall. An added kong is pending until the three other seats have
answered win-or-pass (robbing the kong); the exposed kong on a discard is a claim (claims.py).
"""

from __future__ import annotations

from ..errors import IllegalAction
from ..seats import Seat
from ..tiles import Kind
from .actions import AddedKong, ConcealedKong
from .events import DrawSource, KongAdded, MeldMade
from .flowers import Step, check_own_face, draw
from .hand import MeldType
from .state import HandState, MeldRec, Phase, evolve, with_faces, with_seat


def check_may_kong(state: HandState, seat: Seat) -> None:
    if state.phase is not Phase.TURN or seat != state.turn:
        raise IllegalAction("kongs are declared on your own turn", seat)
    if not state.may_declare:
        raise IllegalAction("a kong is declared after drawing, not after a claim", seat)
    if state.seats[seat].dead:
        raise IllegalAction("a dead hand cannot declare kongs", seat)
    if state.wall.remaining <= 0:
        raise IllegalAction("no tile is left for the kong's replacement", seat)


def concealed_kong(state: HandState, action: ConcealedKong) -> Step:
    seat = action.seat
    check_may_kong(state, seat)
    slots = action.slots
    hand = state.seats[seat].hand
    if len(set(slots)) != 4 or any(s not in hand for s in slots):
        raise IllegalAction("a concealed kong needs four tiles of your hand", seat)
    faces = {state.faces[s] for s in slots}
    known = faces - {Kind.HIDDEN}
    if len(known) > 1 or (known and Kind.HIDDEN in faces):
        raise IllegalAction("the four tiles of a kong must be alike", seat)
    own = state.seats[seat]
    meld = MeldRec(MeldType.KONG, tuple(sorted(slots)), concealed=True)
    own = evolve(own, hand=tuple(s for s in hand if s not in slots), melds=(*own.melds, meld))
    new = with_seat(state, seat, own)
    made = MeldMade(seat, MeldType.KONG, meld.slots, (Kind.HIDDEN,) * 4, True, None)
    after, events = draw(new, seat, DrawSource.KONG_REPLACEMENT)
    return after, (made, *events)


def pung_index(state: HandState, seat: Seat, face: Kind) -> int | None:
    """Index of the seat's exposed pung of ``face``, if any."""
    for i, meld in enumerate(state.seats[seat].melds):
        if meld.type is MeldType.PUNG and state.faces[meld.slots[0]] == face:
            return i
    return None


def added_kong(state: HandState, action: AddedKong) -> Step:
    seat = action.seat
    check_may_kong(state, seat)
    learned = check_own_face(state, seat, action.slot, action.face)
    if pung_index(state, seat, action.face) is None:
        raise IllegalAction(f"you have no exposed pung of {action.face.name}", seat)
    new = with_faces(state, learned)
    own = new.seats[seat]
    own = evolve(own, hand=tuple(s for s in own.hand if s != action.slot))
    new = with_seat(new, seat, own)
    new = evolve(new, phase=Phase.ROB, pending=action.slot, answers=(None, None, None, None))
    return new, (KongAdded(seat, action.slot, action.face),)


def finish_added_kong(state: HandState) -> Step:
    """Nobody robbed: the pung becomes a kong and the seat draws a replacement."""
    seat = state.turn
    slot = state.pending
    assert slot is not None
    index = pung_index(state, seat, state.faces[slot])
    assert index is not None
    own = state.seats[seat]
    old = own.melds[index]
    kong = MeldRec(MeldType.KONG, (*old.slots, slot), False, old.claimed_from)
    melds = (*own.melds[:index], kong, *own.melds[index + 1 :])
    new = with_seat(evolve(state, pending=None), seat, evolve(own, melds=melds))
    made = MeldMade(seat, MeldType.KONG, kong.slots, new.kinds(kong.slots), False, old.claimed_from)
    after, events = draw(new, seat, DrawSource.KONG_REPLACEMENT)
    return after, (made, *events)
