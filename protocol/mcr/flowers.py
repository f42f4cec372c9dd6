"""Drawing tiles and exposing flowers (docs/RULES.md B3).

Play draws from the front of the live wall; replacements for flowers and kongs come from the
far end. Drawing from an empty wall ends the hand as a draw. At the start of the hand East,
then South, West and North each expose every flower and season, drawing a replacement for
each, and say ``FlowersDone`` (only the seat itself can know it has none left). Flowers drawn
later are exposed on the seat's own turn, each with a replacement.
"""

from __future__ import annotations

from ..errors import IllegalAction
from ..seats import Seat
from ..tiles import Kind, is_bonus
from .actions import ExposeFlower, FlowersDone
from .events import (
    DrawSource,
    Event,
    FlowerExposed,
    FlowersFinished,
    HandDrawn,
    TileDrawn,
    TilesSeen,
)
from .state import HandResult, HandState, Phase, evolve, with_faces, with_seat

Step = tuple[HandState, tuple[Event, ...]]


def exhausted(state: HandState) -> Step:
    """The wall is empty when a tile is needed: the hand is a draw (only penalties are paid)."""
    result = HandResult(None, None, False, (), 0, state.penalties)
    ended = evolve(
        state, phase=Phase.ENDED, pending=None, result=result, answers=(None, None, None, None)
    )
    return ended, (HandDrawn(state.penalties),)


def draw(state: HandState, seat: Seat, source: DrawSource) -> Step:
    """``seat`` draws (front for play, back for replacements) and it becomes its turn."""
    if state.wall.remaining <= 0:
        return exhausted(state)
    if source is DrawSource.WALL:
        slot, wall = state.wall.draw_front()
    else:
        slot, wall = state.wall.draw_back()
    seats = list(state.seats)
    own = seats[seat]
    seats[seat] = evolve(own, hand=(*own.hand, slot))
    phase = Phase.FLOWERS if state.phase is Phase.FLOWERS else Phase.TURN
    mine = phase is Phase.TURN or seat == Seat.EAST  # the tile East may win on at once
    new = evolve(
        state,
        wall=wall,
        seats=(seats[0], seats[1], seats[2], seats[3]),
        phase=phase,
        turn=seat,
        pending=None,
        answers=(None, None, None, None),
        drawn=slot if mine else state.drawn,
        drawn_source=source if mine else state.drawn_source,
        may_declare=True if mine else state.may_declare,
    )
    events: list[Event] = [TileDrawn(seat, slot, source)]
    face = state.faces[slot]
    if face != Kind.HIDDEN:
        events.append(TilesSeen(seat, (slot,), (face,), audience=seat))
    return new, tuple(events)


def check_own_face(state: HandState, seat: Seat, slot: int, face: Kind) -> dict[int, Kind]:
    """A slot a seat shows from its hand: it must be in the hand and agree with known faces."""
    if slot not in state.seats[seat].hand:
        raise IllegalAction(f"slot {slot} is not in your hand", seat)
    known = state.faces[slot]
    if face == Kind.HIDDEN:
        raise IllegalAction("a shown tile needs its face", seat)
    if known != Kind.HIDDEN and known != face:
        raise IllegalAction(f"slot {slot} does not hold {face.name}", seat)
    return {} if known != Kind.HIDDEN else {slot: face}


def expose_flower(state: HandState, action: ExposeFlower) -> Step:
    seat = action.seat
    if state.phase not in (Phase.FLOWERS, Phase.TURN) or seat != state.turn:
        raise IllegalAction("flowers are exposed on your own turn", seat)
    if not is_bonus(action.face) or action.face in (Kind.FLOWER, Kind.JOKER):
        raise IllegalAction(f"{action.face.name} is not a flower or season", seat)
    learned = check_own_face(state, seat, action.slot, action.face)
    new = with_faces(state, learned)
    own = new.seats[seat]
    own = evolve(
        own,
        hand=tuple(s for s in own.hand if s != action.slot),
        flowers=(*own.flowers, action.slot),
    )
    new = with_seat(new, seat, own)
    replaced, events = draw(new, seat, DrawSource.FLOWER_REPLACEMENT)
    return replaced, (FlowerExposed(seat, action.slot, action.face), *events)


def flowers_done(state: HandState, action: FlowersDone) -> Step:
    seat = action.seat
    if state.phase is not Phase.FLOWERS or seat != state.turn:
        raise IllegalAction("not your turn to finish flowers", seat)
    if any(is_bonus(state.faces[s]) for s in state.seats[seat].hand):
        raise IllegalAction("you still hold a flower or season: expose it first", seat)
    events: tuple[Event, ...] = (FlowersFinished(seat),)
    if seat == Seat.NORTH:
        east_drawn = state.drawn
        return evolve(
            state, phase=Phase.TURN, turn=Seat.EAST, drawn=east_drawn, may_declare=True
        ), events
    return evolve(state, turn=seat.right), events
