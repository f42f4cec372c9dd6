"""The American engine's entry points: ``new_hand``, ``legal_actions``, ``apply``, ``view``,
``learn`` and ``public_digest`` (the contract of ``protocol/game.py``).

``apply`` dispatches to the rule modules (charleston, play, calls, exchange, declare), then
checks every seat's tile count; an illegal action raises ``IllegalAction`` and the caller's
state is untouched (states are immutable).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..canonical import digest
from ..errors import IllegalAction
from ..seats import SEATS, Seat
from ..tiles import Kind, counts
from ..walls import LiveWall
from .actions import (
    Action,
    Call,
    CallMahjong,
    CharlestonPass,
    CourtesyPass,
    DeclareMahjong,
    Discard,
    ExchangeJoker,
    NoCall,
    PoolIn,
    PoolTake,
    StopVote,
)
from .calls import legal_answers
from .card import Card
from .charleston import apply_charleston, legal_charleston
from .config import DeclarationMode, TableOptions
from .declare import check_counts, declarable, declare_mahjong, mahjong_matches
from .events import AmericanEvent, Dealt, StepStarted
from .exchange import exchange_joker, legal_exchanges
from .play import answer, discard, legal_discards
from .state import AmericanState, CharlestonStep, Stage, evolve, fail
from .tileset import AMERICAN_SET, AMERICAN_TILES, american_plan

Result = tuple[AmericanState, list[AmericanEvent]]
CHARLESTON_ACTIONS = (CharlestonPass, PoolIn, PoolTake, StopVote, CourtesyPass)
ANSWERS = (Call, CallMahjong, NoCall)


def new_hand(
    card: Card, faces: Sequence[Kind], dice: tuple[int, int], options: TableOptions | None = None
) -> Result:
    """Deal a hand: ``faces[slot]`` of the shuffled wall (``Kind.HIDDEN`` where this engine
    may not see the tile) and East's two dice for the break (docs/RULES.md A3)."""
    options = options or TableOptions()
    size = AMERICAN_SET.size
    if len(faces) != size:
        raise IllegalAction(f"an American wall has {size} tiles, not {len(faces)}")
    known = [k for k in faces if k != Kind.HIDDEN]
    have, full = counts(known), counts(AMERICAN_TILES)
    for kind in range(len(full)):
        if have[kind] > full[kind]:
            raise IllegalAction(
                f"the wall holds {have[kind]} {Kind(kind).name} tiles, a set has {full[kind]}"
            )
    try:
        plan = american_plan(dice)
    except ValueError as error:
        raise IllegalAction(str(error)) from None
    faces_t = tuple(Kind(k) for k in faces)
    state = AmericanState(
        options=options,
        card=card,
        dice=(dice[0], dice[1]),
        faces=faces_t,
        wall=LiveWall(plan.live),
        hands=plan.deal,
        exposures=((), (), (), ()),
        discards=(),
        public=frozenset(),
        dead=(False, False, False, False),
        step=CharlestonStep.FIRST_RIGHT,
        pending=(None, None, None, None),
        drew=True,
    )
    events: list[AmericanEvent] = [StepStarted(CharlestonStep.FIRST_RIGHT)]
    events.extend(Dealt(s, plan.deal[s], state.kinds(plan.deal[s])) for s in SEATS)
    return state, events


def legal_actions(state: AmericanState, seat: Seat) -> tuple[Action, ...]:
    """Every action ``seat`` may take now, from what this engine knows."""
    if state.result is not None:
        return ()
    if state.step is not CharlestonStep.PLAY:
        return legal_charleston(state, seat)
    if state.stage is Stage.CALLS:
        return legal_answers(state, seat)
    actions: list[Action] = []
    if declarable(state, seat):
        concealed = state.concealed_kinds(seat)
        if state.options.declaration is DeclarationMode.TOURNAMENT or mahjong_matches(
            state, seat, concealed
        ):
            actions.append(DeclareMahjong(seat, concealed))
    if state.stage is Stage.DISCARD:
        actions.extend(legal_exchanges(state, seat))
        actions.extend(legal_discards(state, seat))
    return tuple(actions)


def seats_to_act(state: AmericanState) -> tuple[Seat, ...]:
    """The seats the hand waits for now (each owes one input), in seat order."""
    if state.result is not None:
        return ()
    if state.step is not CharlestonStep.PLAY or state.stage is Stage.CALLS:
        return tuple(s for s in SEATS if state.pending[s] is None)
    return (state.turn,)


def apply(state: AmericanState, action: Action) -> Result:
    """The state after ``action`` and what happened; ``IllegalAction`` if not allowed."""
    seat = getattr(action, "seat", None)
    if not isinstance(seat, Seat):
        raise IllegalAction(f"{type(action).__name__} names no seat")
    if state.result is not None:
        fail("the hand is over", seat)
    if state.step is not CharlestonStep.PLAY:
        new, events = apply_charleston(state, action)
    elif isinstance(action, ANSWERS):
        new, events = answer(state, action)
    elif isinstance(action, Discard):
        new, events = discard(state, action)
    elif isinstance(action, ExchangeJoker):
        new, events = exchange_joker(state, action)
    elif isinstance(action, DeclareMahjong):
        new, events = declare_mahjong(state, action)
    elif isinstance(action, CHARLESTON_ACTIONS):
        fail("the Charleston is over", seat)
    else:
        fail(f"unknown action {type(action).__name__}", seat)
    if new.hands is state.hands and new.exposures is state.exposures:
        return new, events  # nobody's tiles moved: counts are as they were
    return check_counts(new, events), events


def visible_slots(state: AmericanState, seat: Seat | None) -> frozenset[int]:
    """Slots whose faces ``seat`` may see (``None``: what everyone may see)."""
    if seat is None:
        return state.public
    return state.public | frozenset(state.hands[seat])


def _masked(state: AmericanState, seat: Seat | None) -> AmericanState:
    visible = visible_slots(state, seat)
    faces = tuple(k if i in visible else Kind.HIDDEN for i, k in enumerate(state.faces))
    pending = state.pending
    if state.step is not CharlestonStep.PLAY:  # call answers are public; passes are not
        own = [p if p is not None and p.seat == seat else None for p in pending]
        pending = (own[0], own[1], own[2], own[3])
    return replace(state, faces=faces, pending=pending)


def view(state: AmericanState, seat: Seat) -> AmericanState:
    """The state as ``seat`` may see it: others' concealed tiles, the wall and others'
    unresolved Charleston inputs hidden."""
    return _masked(state, seat)


def learn(state: AmericanState, faces: Mapping[int, Kind]) -> AmericanState:
    """Add faces this engine is entitled to see; a face contradicting one known is refused."""
    updates: dict[int, Kind] = {}
    for slot, face in faces.items():
        if not 0 <= slot < len(state.faces):
            raise IllegalAction(f"no tile slot {slot}")
        known = state.faces[slot]
        if face == Kind.HIDDEN:
            continue
        if known not in (Kind.HIDDEN, face):
            raise IllegalAction(f"tile slot {slot} is already known as {known.name}")
        updates[slot] = Kind(face)
    if not updates:
        return state
    items = list(state.faces)
    for slot, face in updates.items():
        items[slot] = face
    return evolve(state, faces=tuple(items))


def public_digest(state: AmericanState) -> bytes:
    """SHA-256 of the state with every private face and private input masked."""
    masked = _masked(state, None)
    fields = (
        masked.options,
        masked.card.name,
        masked.dice,
        masked.faces,
        masked.wall,
        masked.hands,
        masked.exposures,
        masked.discards,
        sorted(masked.public),
        masked.dead,
        masked.step,
        # Charleston inputs are secret until their step fires; call answers are public.
        masked.pending if state.step is CharlestonStep.PLAY else None,
        masked.turn,
        masked.stage,
        masked.last_discard,
        masked.discarder,
        masked.drew,
        masked.result,
        masked.pool,
        masked.pooled,
    )
    return digest(fields)


__all__ = ["apply", "learn", "legal_actions", "new_hand", "public_digest", "seats_to_act", "view"]
