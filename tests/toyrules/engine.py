"""The engine of "Pungs and a pair": a hand wins with four pungs and a pair, nothing else.

Rules (the whole of them):

* The 136 tiles without flowers, dealt as a wall plan says (the rule set's adapter picks the
  plan: ``table_rules.py``); East holds 14 and discards first.
* On a turn: draw (East's first turn excepted), then discard one tile, or declare Mahjong.
* The only call is pung: after a discard each other seat answers pass or pung (holding two of
  the discarded kind); of several pungs the one nearest in turn after the discarder takes it.
  The caller lays the pung out and then discards (or declares Mahjong): no draw.
* Mahjong: the concealed tiles and the laid-out pungs make four pungs and a pair. Its one fan,
  All Pungs, is worth ``ALL_PUNGS`` points, paid by each other player.
* No Mahjong before the wall is empty: a draw, nobody pays.

It follows the engine contract of protocol/game.py: the state is immutable, tiles are wall
slots with their faces in ``faces`` (``Kind.HIDDEN`` where this seat cannot see one), every
action that shows tiles carries their faces, and ``apply`` raises ``IllegalAction`` with the
reason for anything the rules do not allow.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from fourwinds.protocol.canonical import digest
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind

ALL_PUNGS = 8
"""The one fan's points, from each other player."""

HIDDEN = Kind.HIDDEN


class Phase(Enum):
    TURN = "turn"  # ``turn`` discards (or declares Mahjong)
    CALLS = "calls"  # the other three answer the discard ``pending``
    ENDED = "ended"


# ---------------------------------------------------------------- actions


@dataclass(frozen=True)
class Discard:
    seat: Seat
    slot: int
    face: Kind


@dataclass(frozen=True)
class Mahjong:
    """Four pungs and a pair: every concealed tile shown (slot, face)."""

    seat: Seat
    reveal: tuple[tuple[int, Kind], ...]


@dataclass(frozen=True)
class Pass:
    seat: Seat


@dataclass(frozen=True)
class Pung:
    """The discard with two of its kind from the hand (their slots and faces)."""

    seat: Seat
    slots: tuple[int, int]
    faces: tuple[Kind, Kind]


Action = Discard | Mahjong | Pass | Pung
ACTION_TYPES = (Discard, Mahjong, Pass, Pung)


# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class Dealt:
    seat: Seat
    slots: tuple[int, ...]
    audience: Seat | None = None


@dataclass(frozen=True)
class Drawn:
    seat: Seat
    slot: int
    audience: Seat | None = None


@dataclass(frozen=True)
class Discarded:
    seat: Seat
    slot: int
    face: Kind
    audience: Seat | None = None


@dataclass(frozen=True)
class Punged:
    seat: Seat
    source: Seat
    slots: tuple[int, int, int]
    face: Kind
    audience: Seat | None = None


@dataclass(frozen=True)
class Won:
    seat: Seat
    slots: tuple[int, ...]
    self_drawn: bool
    payments: tuple[int, int, int, int]
    audience: Seat | None = None


@dataclass(frozen=True)
class WallEmpty:
    audience: Seat | None = None


# ---------------------------------------------------------------- state


@dataclass(frozen=True)
class Meld:
    """A laid-out pung: its three slots and whose discard it took."""

    slots: tuple[int, int, int]
    source: Seat


@dataclass(frozen=True)
class SeatState:
    hand: tuple[int, ...] = ()
    melds: tuple[Meld, ...] = ()
    discards: tuple[int, ...] = ()


@dataclass(frozen=True)
class Result:
    winner: Seat | None
    self_drawn: bool
    payments: tuple[int, int, int, int]


@dataclass(frozen=True)
class HandState:
    faces: tuple[Kind, ...]
    seats: tuple[SeatState, SeatState, SeatState, SeatState]
    live: tuple[int, ...]  # the wall's slots still to draw, in draw order
    phase: Phase
    turn: Seat
    drawn: int | None = None  # the tile ``turn`` just drew (None after a pung)
    pending: int | None = None  # the discard being answered
    answers: tuple[Action | None, ...] = (None, None, None, None)
    called: bool = False  # ``turn`` took a pung: its turn has no draw
    result: Result | None = None


def new_hand(
    size: int, deal: Sequence[Sequence[int]], live: Sequence[int]
) -> tuple[HandState, tuple[Dealt, ...]]:
    """A hand of a ``size``-slot wall, every face hidden, dealt as ``deal`` says (by wind;
    East 14), the rest drawn in the order of ``live``."""
    seats = tuple(SeatState(hand=tuple(deal[w])) for w in SEATS)
    state = HandState(
        (HIDDEN,) * size,
        (seats[0], seats[1], seats[2], seats[3]),
        tuple(live),
        Phase.TURN,
        Seat.EAST,
    )
    return state, tuple(Dealt(w, tuple(deal[w]), audience=w) for w in SEATS)


# ---------------------------------------------------------------- reading a state


def pungs_and_pair(kinds: Iterable[Kind]) -> bool:
    """Whether these tiles are pungs and exactly one pair (4 + 2 ... 14 - 3n tiles)."""
    counts = Counter(kinds)
    if HIDDEN in counts:
        return False
    pairs = [k for k, c in counts.items() if c == 2]
    return len(pairs) == 1 and all(c in (2, 3) for c in counts.values())


def concealed_kinds(s: HandState, seat: Seat) -> list[Kind]:
    return [s.faces[x] for x in s.seats[seat].hand]


def _can_win(s: HandState, seat: Seat) -> bool:
    hand = concealed_kinds(s, seat)
    return len(hand) + 3 * len(s.seats[seat].melds) == 14 and pungs_and_pair(hand)


def legal_actions(s: HandState, seat: Seat) -> tuple[Action, ...]:
    """Every action ``seat`` may take now, from the faces this state knows."""
    own = s.seats[seat]
    if s.phase is Phase.TURN and seat == s.turn:
        if any(s.faces[x] == HIDDEN for x in own.hand):
            return ()  # our tiles are not all seen yet (the masked deck tells us soon)
        out: list[Action] = []
        if _can_win(s, seat):
            out.append(Mahjong(seat, tuple((x, s.faces[x]) for x in own.hand)))
        out.extend(Discard(seat, x, s.faces[x]) for x in own.hand)
        return tuple(out)
    if s.phase is Phase.CALLS and seat != s.turn and s.answers[seat] is None:
        assert s.pending is not None
        face = s.faces[s.pending]
        same = [x for x in own.hand if s.faces[x] == face != HIDDEN]
        if len(same) >= 2:
            return (Pass(seat), Pung(seat, (same[0], same[1]), (face, face)))
        return (Pass(seat),)
    return ()


def awaiting(s: HandState) -> tuple[Seat, ...]:
    """The seats the hand waits for: the same at every seat, whatever faces it knows."""
    if s.phase is Phase.ENDED:
        return ()
    if s.phase is Phase.CALLS:
        return tuple(w for w in SEATS if w != s.turn and s.answers[w] is None)
    return (s.turn,)


# ---------------------------------------------------------------- apply


def _faces(s: HandState, new: Mapping[int, Kind]) -> tuple[Kind, ...]:
    return tuple(new.get(i, f) for i, f in enumerate(s.faces))


def _with_seat(s: HandState, seat: Seat, own: SeatState) -> HandState:
    seats = list(s.seats)
    seats[seat] = own
    return replace(s, seats=(seats[0], seats[1], seats[2], seats[3]))


def _owns(s: HandState, seat: Seat, shown: Iterable[tuple[int, Kind]]) -> None:
    """Each slot is in ``seat``'s hand and its face is the one this state knows (if any)."""
    hand = s.seats[seat].hand
    for slot, face in shown:
        if slot not in hand:
            raise IllegalAction(f"slot {slot} is not in your hand", seat)
        if face == HIDDEN or s.faces[slot] not in (HIDDEN, face):
            raise IllegalAction(f"slot {slot} is not {face.name}", seat)


def apply(s: HandState, action: Action) -> tuple[HandState, tuple[object, ...]]:
    """The state after ``action`` and its events; ``IllegalAction`` with the reason."""
    seat = action.seat
    if s.phase is Phase.ENDED:
        raise IllegalAction("the hand is over", seat)
    if isinstance(action, (Discard, Mahjong)):
        if s.phase is not Phase.TURN or seat != s.turn:
            raise IllegalAction("it is not your turn", seat)
        if isinstance(action, Mahjong):
            return _mahjong(s, action)
        return _discard(s, action)
    if s.phase is not Phase.CALLS or seat == s.turn:
        raise IllegalAction("there is no discard for you to answer", seat)
    if s.answers[seat] is not None:
        raise IllegalAction("you answered this discard already", seat)
    assert s.pending is not None
    if isinstance(action, Pung):
        if len(set(action.slots)) != 2:
            raise IllegalAction("a pung takes two different tiles of yours", seat)
        _owns(s, seat, zip(action.slots, action.faces, strict=True))
        face = s.faces[s.pending]
        if any(f != face for f in action.faces):
            raise IllegalAction(f"a pung of {face.name} needs two {face.name}", seat)
    answers = tuple(action if w == seat else a for w, a in enumerate(s.answers))
    s = replace(s, answers=answers)
    if any(answers[w] is None for w in SEATS if w != s.turn):
        return s, ()
    return _close_calls(s)


def _discard(s: HandState, action: Discard) -> tuple[HandState, tuple[object, ...]]:
    seat = action.seat
    _owns(s, seat, ((action.slot, action.face),))
    own = s.seats[seat]
    own = replace(own, hand=tuple(x for x in own.hand if x != action.slot))
    s = _with_seat(replace(s, faces=_faces(s, {action.slot: action.face})), seat, own)
    s = replace(
        s,
        phase=Phase.CALLS,
        pending=action.slot,
        drawn=None,
        called=False,
        answers=(None, None, None, None),
    )
    return s, (Discarded(seat, action.slot, action.face),)


def _mahjong(s: HandState, action: Mahjong) -> tuple[HandState, tuple[object, ...]]:
    seat = action.seat
    hand = s.seats[seat].hand
    if sorted(slot for slot, _ in action.reveal) != sorted(hand):
        raise IllegalAction("Mahjong shows every concealed tile, once", seat)
    _owns(s, seat, action.reveal)
    s = replace(s, faces=_faces(s, dict(action.reveal)))
    if not _can_win(s, seat):
        raise IllegalAction("Mahjong needs four pungs and a pair", seat)
    pay = tuple(3 * ALL_PUNGS if w == seat else -ALL_PUNGS for w in SEATS)
    payments = (pay[0], pay[1], pay[2], pay[3])
    self_drawn = not s.called
    result = Result(seat, self_drawn, payments)
    return (
        replace(s, phase=Phase.ENDED, result=result),
        (Won(seat, tuple(hand), self_drawn, payments),),
    )


def _close_calls(s: HandState) -> tuple[HandState, tuple[object, ...]]:
    """Every answer is in: the nearest pung takes the discard, else the next seat draws."""
    pending = s.pending
    assert pending is not None
    discarder = s.turn
    for w in (discarder.right, discarder.across, discarder.left):
        answer = s.answers[w]
        if isinstance(answer, Pung):
            slots = (answer.slots[0], answer.slots[1], pending)
            own = s.seats[w]
            own = replace(
                own,
                hand=tuple(x for x in own.hand if x not in answer.slots),
                melds=(*own.melds, Meld(slots, discarder)),
            )
            s = _with_seat(
                replace(s, faces=_faces(s, dict(zip(answer.slots, answer.faces, strict=True)))),
                w,
                own,
            )
            s = replace(
                s,
                phase=Phase.TURN,
                turn=w,
                pending=None,
                called=True,
                answers=(None, None, None, None),
            )
            return s, (Punged(w, discarder, slots, answer.faces[0]),)
    s = _with_seat(
        s, discarder, replace(s.seats[discarder], discards=(*s.seats[discarder].discards, pending))
    )
    s = replace(s, pending=None, answers=(None, None, None, None))
    if not s.live:
        result = Result(None, False, (0, 0, 0, 0))
        return replace(s, phase=Phase.ENDED, result=result), (WallEmpty(),)
    nxt, slot = discarder.right, s.live[0]
    own = s.seats[nxt]
    s = _with_seat(s, nxt, replace(own, hand=(*own.hand, slot)))
    s = replace(s, phase=Phase.TURN, turn=nxt, drawn=slot, live=s.live[1:], called=False)
    return s, (Drawn(nxt, slot, audience=nxt),)


# ---------------------------------------------------------------- the rest of the contract


def learn(s: HandState, faces: Mapping[int, Kind]) -> HandState:
    return replace(s, faces=_faces(s, faces))


def public_slots(s: HandState) -> set[int]:
    """The slots whose faces every seat sees: discards, the one answered, laid-out pungs."""
    out = {x for own in s.seats for x in own.discards}
    out |= {x for own in s.seats for m in own.melds for x in m.slots}
    if s.pending is not None:
        out.add(s.pending)
    if s.result is not None and s.result.winner is not None:
        out |= set(s.seats[s.result.winner].hand)
    return out


def public_digest(s: HandState) -> bytes:
    """The state with every private face left out: the same at the four seats."""
    public = sorted(public_slots(s))
    answers = [None if a is None else type(a).__name__ for a in s.answers]
    result = (
        None
        if s.result is None
        else [s.result.winner, s.result.self_drawn, list(s.result.payments)]
    )
    return digest(
        [
            [list(o.hand) for o in s.seats],
            [[[list(m.slots), int(m.source)] for m in o.melds] for o in s.seats],
            [list(o.discards) for o in s.seats],
            list(s.live),
            s.phase.value,
            int(s.turn),
            s.drawn,
            s.pending,
            answers,
            s.called,
            result,
            [int(s.faces[x]) for x in public],
        ]
    )
