"""Answers to a discard or to an added kong, and how they resolve (docs/RULES.md B4).

Each of the three other seats answers exactly once (a claim or a pass); the window resolves
only when all three have answered, so the order answers arrive in never matters. Priority:
Mahjong, then pung/kong, then chow; among several Mahjong claims the seat nearest in turn
order after the discarder wins, and there is one winner. A chow is only claimed from the
left player's discard (a Mahjong on any discard may complete a chow: that is a win claim).
An unclaimed discard is dead and the next seat draws.
"""

from __future__ import annotations

from ..errors import IllegalAction
from ..seats import Seat, seats_in_turn_order_after
from ..tiles import Kind, is_number, rank_of, suit_of
from .actions import Answer, ClaimChow, ClaimKong, ClaimPung, ClaimWin, Pass
from .declare import false_declaration, finish_win, reveal_faces
from .events import Answered, AnswerKind, DiscardDead, DrawSource, Event, KongRobbed, MeldMade
from .flowers import Step, check_own_face, draw
from .hand import MeldType
from .kongs import finish_added_kong
from .state import (
    ClosedClaims,
    HandState,
    MeldRec,
    Phase,
    discards_made,
    evolve,
    with_faces,
    with_seat,
)
from .wins import Verdict, judge

_KINDS = {
    Pass: AnswerKind.PASS,
    ClaimChow: AnswerKind.CHOW,
    ClaimPung: AnswerKind.PUNG,
    ClaimKong: AnswerKind.KONG,
    ClaimWin: AnswerKind.WIN,
}


def is_chow(kinds: list[Kind]) -> bool:
    """Three number tiles of one suit in a run."""
    if not all(is_number(k) for k in kinds) or len({suit_of(k) for k in kinds}) != 1:
        return False
    ranks = sorted(rank_of(k) for k in kinds)
    return ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1


def _check_tiles(
    state: HandState, seat: Seat, slots: tuple[int, ...], faces: tuple[Kind, ...]
) -> dict[int, Kind]:
    if len(set(slots)) != len(slots) or len(slots) != len(faces):
        raise IllegalAction("each claimed tile must be a different slot with its face", seat)
    learned: dict[int, Kind] = {}
    for slot, face in zip(slots, faces, strict=True):
        learned.update(check_own_face(state, seat, slot, face))
    return learned


def _validate(state: HandState, answer: Answer) -> dict[int, Kind]:
    """Faces an answer shows, after checking it is allowed now."""
    seat = answer.seat
    if isinstance(answer, Pass):
        return {}
    if state.seats[seat].dead:
        raise IllegalAction("a dead hand cannot claim", seat)
    assert state.pending is not None
    if isinstance(answer, ClaimWin):
        learned = reveal_faces(state, seat, answer.reveal)
        if not state.options.tournament:
            verdict = _verdict(state, seat, learned)
            if not verdict.winning:
                raise IllegalAction(f"not a winning hand: {verdict.reason}", seat)
        return learned
    if state.phase is Phase.ROB:
        raise IllegalAction("an added kong can only be robbed for Mahjong", seat)
    want = 3 if isinstance(answer, ClaimKong) else 2
    if len(answer.slots) != want or len(answer.faces) != want:
        raise IllegalAction(f"this claim uses {want} tiles from your hand", seat)
    discard = state.faces[state.pending]
    if isinstance(answer, ClaimChow):
        if seat != state.turn.right:
            raise IllegalAction("a chow is only claimed from the player on your left", seat)
        if not is_chow([discard, *answer.faces]):
            raise IllegalAction("these tiles and the discard do not make a chow", seat)
        return _check_tiles(state, seat, answer.slots, answer.faces)
    if any(face != discard for face in answer.faces):
        raise IllegalAction(f"a pung or kong of {discard.name} needs tiles alike", seat)
    if isinstance(answer, ClaimKong) and state.wall.remaining <= 0:
        raise IllegalAction("no tile is left for the kong's replacement", seat)
    return _check_tiles(state, seat, answer.slots, answer.faces)


def _verdict(state: HandState, seat: Seat, learned: dict[int, Kind]) -> Verdict:
    assert state.pending is not None
    return judge(
        state,
        seat,
        state.pending,
        self_drawn=False,
        kong_related=state.phase is Phase.ROB,
        faces=learned,
    )


def answer(state: HandState, action: Answer) -> Step:
    seat = action.seat
    if state.phase not in (Phase.CLAIMS, Phase.ROB):
        raise IllegalAction("there is nothing to answer", seat)
    if seat == state.turn:
        raise IllegalAction("you cannot answer your own tile", seat)
    if state.answers[seat] is not None:
        raise IllegalAction("you already answered", seat)
    learned = _validate(state, action)
    new = with_faces(state, learned)
    answers = list(new.answers)
    answers[seat] = action
    new = evolve(new, answers=(answers[0], answers[1], answers[2], answers[3]))
    events: tuple[Event, ...] = (Answered(seat, _KINDS[type(action)]),)
    if sum(a is not None for a in answers) < 3:
        return new, events
    resolved, more = _resolve(new)
    return resolved, events + more


def _resolve(state: HandState) -> Step:
    source = state.turn
    slot = state.pending
    assert slot is not None
    order = seats_in_turn_order_after(source)
    events: list[Event] = []
    robbing = state.phase is Phase.ROB
    for seat in order:
        claim = state.answers[seat]
        if not isinstance(claim, ClaimWin):
            continue
        verdict = judge(state, seat, slot, self_drawn=False, kong_related=robbing)
        if verdict.winning:
            won = state
            if robbing:
                events.append(KongRobbed(seat, source, slot))
            won, ended = finish_win(won, seat, source, slot, verdict)
            return won, (*events, *ended)
        state, penal = false_declaration(state, seat, verdict)
        events.extend(penal)
    if robbing:
        after, more = finish_added_kong(state)
        return after, (*events, *more)
    for seat in order:
        claim = state.answers[seat]
        if isinstance(claim, (ClaimPung, ClaimKong)) and not state.seats[seat].dead:
            after, more = _take(state, seat, claim)
            return after, (*events, *more)
    chow = state.answers[source.right]
    if isinstance(chow, ClaimChow) and not state.seats[source.right].dead:
        after, more = _take(state, source.right, chow)
        return after, (*events, *more)
    own = state.seats[source]
    dead = with_seat(state, source, evolve(own, discards=(*own.discards, slot)))
    dead = evolve(dead, pending=None)
    events.append(DiscardDead(source, slot))
    after, more = draw(dead, source.right, DrawSource.WALL)
    return after, (*events, *more)


def _take(state: HandState, seat: Seat, claim: ClaimChow | ClaimPung | ClaimKong) -> Step:
    """The claimed discard goes into an exposed meld; the claimant plays on."""
    source = state.turn
    slot = state.pending
    assert slot is not None
    kind = {ClaimChow: MeldType.CHOW, ClaimPung: MeldType.PUNG, ClaimKong: MeldType.KONG}[
        type(claim)
    ]
    slots = tuple(sorted((*claim.slots, slot), key=lambda s: (state.faces[s], s)))
    meld = MeldRec(kind, slots, False, source)
    own = state.seats[seat]
    own = evolve(
        own, hand=tuple(s for s in own.hand if s not in claim.slots), melds=(*own.melds, meld)
    )
    new = with_seat(state, seat, own)
    kinds = tuple(None if a is None else _KINDS[type(a)] for a in state.answers)
    lost = any(k not in (None, AnswerKind.PASS) for i, k in enumerate(kinds) if i != seat)
    closed = (
        ClosedClaims(
            slot, source, seat, (kinds[0], kinds[1], kinds[2], kinds[3]), discards_made(state) + 1
        )
        if lost
        else None
    )
    new = evolve(
        new,
        phase=Phase.TURN,
        turn=seat,
        pending=None,
        drawn=None,
        drawn_source=None,
        may_declare=False,
        answers=(None, None, None, None),
        last_claims=closed,
    )
    made = MeldMade(seat, kind, slots, new.kinds(slots), False, source)
    if kind is MeldType.KONG:
        after, more = draw(new, seat, DrawSource.KONG_REPLACEMENT)
        return after, (made, *more)
    return new, (made,)
