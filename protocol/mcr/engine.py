"""The MCR hand engine: ``new_hand``, ``legal_actions``, ``apply``, ``view``, ``learn`` and
``public_digest`` (the contract of ``protocol/game.py``).

A hand starts from the faces of all 144 slots (``Kind.HIDDEN`` where this engine instance may
not see them: a seat at a real table knows only its own tiles) and the four dice, which give
the wall break and the deal (``tileset.mcr_plan``); 136 slots and no flowers round at a table
without flowers (``TableOptions.flowers`` off). Every transition is in its own module:
flowers and draws (flowers.py), kongs (kongs.py), answers to a discard or an added kong
(claims.py), Mahjong declarations (declare.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..canonical import digest
from ..errors import IllegalAction
from ..seats import SEATS, Seat
from ..tiles import Kind, counts, is_bonus, is_number, rank_of
from ..walls import LiveWall
from . import claims, declare, flowers, kongs
from .actions import (
    Action,
    AddedKong,
    ClaimChow,
    ClaimKong,
    ClaimPung,
    ClaimWin,
    ConcealedKong,
    DeclareWin,
    Discard,
    ExposeFlower,
    FlowersDone,
    Pass,
)
from .config import TableOptions
from .events import Dealt, Discarded, DrawSource, Event, HandStarted, TilesSeen
from .flowers import Step
from .state import HandState, Phase, SeatState, evolve, visible_to, with_faces, with_seat
from .tileset import MCR_SET, mcr_plan
from .wins import completes, judge, reveal_of

__all__ = ["apply", "learn", "legal_actions", "new_hand", "public_digest", "seats_to_act", "view"]


def new_hand(
    options: TableOptions,
    faces: Sequence[Kind],
    dice: tuple[int, int, int, int],
    prevalent_wind: int = 0,
) -> Step:
    """Deal a hand: ``faces[slot]`` for every slot (144, or 136 without flowers), the four
    dice of the wall break. Without flowers East's first turn starts at once (no flowers
    round), as after the round."""
    tiles = MCR_SET.played(flowers=options.flowers).kinds
    size = len(tiles)
    if len(faces) != size:
        what = "an MCR wall" if options.flowers else "an MCR wall without flowers"
        raise ValueError(f"{what} has {size} slots, got {len(faces)} faces")
    if not 0 <= prevalent_wind <= 3:
        raise ValueError(f"prevalent wind must be 0-3, got {prevalent_wind}")
    known = [Kind(f) for f in faces if f != Kind.HIDDEN]
    have = counts(known)
    want = counts(tiles)
    if any(have[k] > want[k] for k in range(len(have))):
        raise ValueError("these faces are not from one MCR tile set")
    if len(known) == size and have != want:
        raise ValueError(f"these faces are not the {size} MCR tiles")
    plan = mcr_plan(dice, flowers=options.flowers)
    seats = tuple(SeatState(hand=plan.deal[s]) for s in SEATS)
    state = HandState(
        options=options,
        prevalent_wind=prevalent_wind,
        dice=dice,
        faces=tuple(Kind(f) for f in faces),
        wall=LiveWall(plan.live),
        seats=(seats[0], seats[1], seats[2], seats[3]),
        phase=Phase.FLOWERS if options.flowers else Phase.TURN,
        turn=Seat.EAST,
        drawn=plan.deal[Seat.EAST][-1],
        drawn_source=None,
        may_declare=not options.flowers,
    )
    events: list[Event] = [HandStarted(dice, plan.break_stack, prevalent_wind)]
    for seat in SEATS:
        slots = plan.deal[seat]
        events.append(Dealt(seat, slots))
        if all(state.faces[s] != Kind.HIDDEN for s in slots):
            events.append(TilesSeen(seat, slots, state.kinds(slots), audience=seat))
    return state, tuple(events)


# ---------------------------------------------------------------- applying actions


def _discard(state: HandState, action: Discard) -> Step:
    seat = action.seat
    if state.phase is not Phase.TURN or seat != state.turn:
        raise IllegalAction("it is not your turn to discard", seat)
    if is_bonus(action.face):
        raise IllegalAction("flowers and seasons are exposed, never discarded", seat)
    learned = flowers.check_own_face(state, seat, action.slot, action.face)
    new = with_faces(state, learned)
    own = new.seats[seat]
    new = with_seat(new, seat, evolve(own, hand=tuple(s for s in own.hand if s != action.slot)))
    new = evolve(
        new,
        phase=Phase.CLAIMS,
        pending=action.slot,
        drawn=None,
        drawn_source=None,
        may_declare=False,
        answers=(None, None, None, None),
    )
    return new, (Discarded(seat, action.slot, action.face),)


_HANDLERS: dict[type, Callable[[HandState, Any], Step]] = {
    ExposeFlower: flowers.expose_flower,
    FlowersDone: flowers.flowers_done,
    Discard: _discard,
    ConcealedKong: kongs.concealed_kong,
    AddedKong: kongs.added_kong,
    DeclareWin: declare.declare_win,
    Pass: claims.answer,
    ClaimChow: claims.answer,
    ClaimPung: claims.answer,
    ClaimKong: claims.answer,
    ClaimWin: claims.answer,
}


def apply(state: HandState, action: Action) -> Step:
    """The new state and its events, or ``IllegalAction`` (the state is never changed)."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"not an MCR action: {type(action).__name__}")
    if not isinstance(getattr(action, "seat", None), Seat):
        raise IllegalAction("an action must name its seat")
    if state.phase is Phase.ENDED:
        raise IllegalAction("the hand is over", action.seat)
    return handler(state, action)


# ---------------------------------------------------------------- what a seat may do


def seats_to_act(state: HandState) -> tuple[Seat, ...]:
    """The seats the hand is waiting for (public: every engine instance agrees)."""
    if state.phase is Phase.ENDED:
        return ()
    if state.phase in (Phase.CLAIMS, Phase.ROB):
        return tuple(s for s in SEATS if s != state.turn and state.answers[s] is None)
    return (state.turn,)


def legal_actions(state: HandState, seat: Seat) -> tuple[Action, ...]:
    """Every action ``seat`` may take now (tournament false declarations aside), as far as this
    engine instance can tell: nothing for a seat on turn whose tiles it cannot see."""
    if state.phase is Phase.ENDED:
        return ()
    if state.phase in (Phase.CLAIMS, Phase.ROB):
        return _answers(state, seat)
    if seat != state.turn:
        return ()
    own = state.seats[seat]
    faces = state.faces
    if any(faces[s] == Kind.HIDDEN for s in own.hand):
        return ()  # this engine instance cannot see that hand (or has not learned a draw yet)
    bonus = tuple(ExposeFlower(seat, s, faces[s]) for s in own.hand if is_bonus(faces[s]))
    if state.phase is Phase.FLOWERS:
        return bonus or (FlowersDone(seat),)
    out: list[Action] = list(bonus)
    out.extend(Discard(seat, s, faces[s]) for s in own.hand if not is_bonus(faces[s]))
    if state.may_declare and not own.dead:
        if state.wall.remaining > 0:
            by_kind: dict[Kind, list[int]] = {}
            for s in own.hand:
                by_kind.setdefault(faces[s], []).append(s)
            for kind, slots in by_kind.items():
                if len(slots) == 4 and kind != Kind.HIDDEN:
                    out.append(ConcealedKong(seat, (slots[0], slots[1], slots[2], slots[3])))
                if kongs.pung_index(state, seat, kind) is not None and kind != Kind.HIDDEN:
                    out.extend(AddedKong(seat, s, kind) for s in slots)
        if state.drawn is not None and completes_self(state, seat):
            verdict = judge(
                state,
                seat,
                state.drawn,
                self_drawn=True,
                kong_related=state.drawn_source is DrawSource.KONG_REPLACEMENT,
            )
            if verdict.winning:
                out.append(DeclareWin(seat, reveal_of(state, seat)))
    return tuple(out)


def completes_self(state: HandState, seat: Seat) -> bool:
    """Whether the seat's 14 concealed tiles (with the one drawn) form a hand at all."""
    drawn = state.drawn
    if drawn is None:
        return False
    hand = state.seats[seat].hand
    rest = evolve(state.seats[seat], hand=tuple(s for s in hand if s != drawn))
    return completes(with_seat(state, seat, rest), seat, state.faces[drawn])


def _answers(state: HandState, seat: Seat) -> tuple[Action, ...]:
    if seat == state.turn or state.answers[seat] is not None or state.pending is None:
        return ()
    out: list[Action] = [Pass(seat)]
    own = state.seats[seat]
    if own.dead:
        return tuple(out)
    faces = state.faces
    tile = faces[state.pending]
    robbing = state.phase is Phase.ROB
    if completes(state, seat, tile):
        verdict = judge(state, seat, state.pending, self_drawn=False, kong_related=robbing)
        if verdict.winning:
            out.append(ClaimWin(seat, reveal_of(state, seat)))
    if robbing:
        return tuple(out)
    out.extend(claim_options(state, seat))
    return tuple(out)


def claim_options(state: HandState, seat: Seat) -> list[Action]:
    """The chow, pung and kong claims ``seat`` could make on the pending discard."""
    if state.phase is not Phase.CLAIMS or state.pending is None or seat == state.turn:
        return []
    own = state.seats[seat]
    faces = state.faces
    tile = faces[state.pending]
    out: list[Action] = []
    same = [s for s in own.hand if faces[s] == tile]
    if len(same) >= 2:
        out.append(ClaimPung(seat, (same[0], same[1]), (tile, tile)))
    if len(same) >= 3 and state.wall.remaining > 0:
        out.append(ClaimKong(seat, (same[0], same[1], same[2]), (tile, tile, tile)))
    if seat == state.turn.right:
        out.extend(_chows(state, seat, tile))
    return out


def _chows(state: HandState, seat: Seat, tile: Kind) -> list[Action]:
    if not is_number(tile):
        return []
    first: dict[Kind, int] = {}
    for s in state.seats[seat].hand:
        first.setdefault(state.faces[s], s)
    rank = rank_of(tile)
    out: list[Action] = []
    for low in (rank - 2, rank - 1, rank):
        if low < 1 or low + 2 > 9:
            continue
        others = [Kind(tile - rank + r) for r in range(low, low + 3) if r != rank]
        if all(k in first for k in others):
            out.append(
                ClaimChow(seat, (first[others[0]], first[others[1]]), (others[0], others[1]))
            )
    return out


# ---------------------------------------------------------------- hidden information


def view(state: HandState, seat: Seat | None) -> HandState:
    """The state as ``seat`` may see it (None: only public faces)."""
    seen = visible_to(state, seat)
    faces = tuple(f if i in seen else Kind.HIDDEN for i, f in enumerate(state.faces))
    return evolve(state, faces=faces)


def learn(state: HandState, faces: Mapping[int, Kind]) -> HandState:
    """Add faces this observer became entitled to; a known face must not change."""
    new: dict[int, Kind] = {}
    for slot, face in faces.items():
        if not 0 <= slot < len(state.faces):
            raise IllegalAction(f"no slot {slot} in an MCR wall")
        known = state.faces[slot]
        if known != Kind.HIDDEN and known != face:
            raise IllegalAction(f"slot {slot} is already known as {known.name}")
        if known == Kind.HIDDEN and face != Kind.HIDDEN:
            new[slot] = Kind(face)
    return with_faces(state, new)


def public_digest(state: HandState) -> bytes:
    """SHA-256 of the state with every private face masked: all seats agree on it."""
    return digest(view(state, None))
