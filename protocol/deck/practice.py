"""The practice deck: seeded and open, with the same interface as the masked deck.

For tests, tutorials, scripted scenarios and replays. The wall order comes from a public seed
(or is given outright), so every seat *could* know every tile: a table using it must say so
to every player, and it does, through ``DeckDescription.practice`` (a ``PracticeDeck``
refuses a description without it, a ``MaskedDeck`` one with it). There are no keys: a draw
tells the drawer its face at once; public reveals and passes still travel as signed messages,
and a wrong claimed face is still blamed on the claimant, so the table runs the same code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import WallPlan

from .blame import Blame, Cheat, cheat
from .entropy import Entropy
from .errors import DeckUsageError
from .events import AuditFinished, Learned, Message, Moved, Output, Send, WallReady, others
from .messages import (
    DeckDescription,
    KeyDelivery,
    PublicReveal,
    Signer,
    TransferNotice,
    Verifier,
    body_digest,
    sign,
    signed_by,
)


@dataclass(frozen=True)
class PracticeState:
    """One seat's view of an open wall: the order is known, the holders tracked."""

    holder: tuple[Seat | None, ...]
    faces: Mapping[int, Kind] = field(default_factory=dict)
    public: frozenset[int] = frozenset()
    audited: bool = False


class PracticeDeck:
    """An open deck for one seat (see the module docstring)."""

    def __init__(self, description: DeckDescription, seat: Seat, order: tuple[int, ...],
                 signer: Signer, verify: Verifier) -> None:
        if not description.practice:
            raise ValueError("a practice deck needs a description that says practice=True")
        kinds = description.tiles
        if sorted(order) != list(range(len(kinds))):
            raise ValueError("a practice wall order must hold every tile id exactly once")
        self._description = description
        self._seat = seat
        self.order = order
        self.kinds = tuple(kinds[t] for t in order)
        self.signer = signer
        self.verify = verify

    @staticmethod
    def create(description: DeckDescription, seat: Seat, seed: bytes, signer: Signer,
               verify: Verifier) -> PracticeDeck:
        """The open wall shuffled from a public ``seed`` (32 bytes or more)."""
        order = Entropy(seed).permutation(len(description.tiles), "practice wall")
        return PracticeDeck(description, seat, order, signer, verify)

    @property
    def description(self) -> DeckDescription:
        return self._description

    @property
    def seat(self) -> Seat:
        return self._seat

    def start(self) -> tuple[PracticeState, tuple[Output, ...]]:
        state = PracticeState(holder=(None,) * len(self.order))
        return state, (WallReady(body_digest(self.order)),)

    def _hand_out(self, state: PracticeState,
                  assignment: Mapping[int, Seat]) -> tuple[PracticeState, tuple[Output, ...]]:
        holder = list(state.holder)
        for slot, seat in assignment.items():
            if not 0 <= slot < len(holder) or holder[slot] is not None or slot in state.public:
                raise DeckUsageError(f"position {slot} is not in the wall")
            holder[slot] = seat
        mine = sorted(s for s, seat in assignment.items() if seat == self.seat)
        faces = {**state.faces, **{s: self.kinds[s] for s in mine}}
        learned = tuple(Learned(s, self.kinds[s]) for s in mine)
        return replace(state, holder=tuple(holder), faces=faces), learned

    def deal(self, state: PracticeState,
             plan: WallPlan) -> tuple[PracticeState, tuple[Output, ...]]:
        if plan.size != len(self.order):
            raise DeckUsageError(f"a plan for {plan.size} tiles on a {len(self.order)}-tile wall")
        return self._hand_out(state, {s: seat for seat in SEATS for s in plan.deal[seat]})

    def draw(self, state: PracticeState, slot: int,
             drawer: Seat) -> tuple[PracticeState, tuple[Output, ...]]:
        return self._hand_out(state, {slot: drawer})

    def reveal(self, state: PracticeState, slot: int) -> tuple[PracticeState, tuple[Output, ...]]:
        if not 0 <= slot < len(self.order) or state.holder[slot] != self.seat:
            raise DeckUsageError(f"position {slot} is not held by this seat")
        body = PublicReveal(self.description.context, self.seat, slot, self.kinds[slot], b"", ())
        state = self._public(state, slot)
        return state, (Send(others(self.seat), sign(body, self.signer)),
                       Learned(slot, body.kind, True))

    def _public(self, state: PracticeState, slot: int) -> PracticeState:
        holder = tuple(None if i == slot else h for i, h in enumerate(state.holder))
        return replace(state, holder=holder, public=state.public | {slot},
                       faces={**state.faces, slot: self.kinds[slot]})

    def transfer(self, state: PracticeState, slots: tuple[int, ...], receiver: Seat,
                 via: Seat | None = None) -> tuple[PracticeState, tuple[Output, ...]]:
        if receiver == self.seat or via in (self.seat, receiver):
            raise DeckUsageError("a pass goes to another seat")
        if any(not 0 <= s < len(self.order) or state.holder[s] != self.seat for s in slots):
            raise DeckUsageError("a pass of a position this seat does not hold")
        body = TransferNotice(self.description.context, self.seat, receiver, slots, via)
        state = self._move(state, slots, receiver)
        return state, (Send(others(self.seat), sign(body, self.signer)), Moved(slots, receiver))

    def _move(self, state: PracticeState, slots: tuple[int, ...], receiver: Seat) -> PracticeState:
        holder = tuple(receiver if i in slots else h for i, h in enumerate(state.holder))
        return replace(state, holder=holder)

    def receive(self, state: PracticeState,
                message: Message) -> tuple[PracticeState, tuple[Output, ...]]:
        if isinstance(message, KeyDelivery):
            raise cheat(message.seat, Cheat.MALFORMED, "a practice deck has no keys")
        body = message.body
        if body.context != self.description.context or body.seat == self.seat:
            raise cheat(body.seat, Cheat.MALFORMED, "a message for another hand or seat")
        if not signed_by(message, body.seat, self.verify):
            raise cheat(body.seat, Cheat.BAD_SIGNATURE, "a deck message its sender did not sign")
        if isinstance(body, PublicReveal):
            if not 0 <= body.slot < len(self.order) or state.holder[body.slot] != body.seat:
                raise cheat(body.seat, Cheat.NOT_HOLDER, f"revealed position {body.slot}")
            if body.kind != self.kinds[body.slot]:
                raise cheat(body.seat, Cheat.WRONG_FACE, f"claimed {body.kind.name}")
            return self._public(state, body.slot), (Learned(body.slot, body.kind, True),)
        if isinstance(body, TransferNotice):
            if any(not 0 <= s < len(self.order) or state.holder[s] != body.seat
                   for s in body.slots):
                raise cheat(body.seat, Cheat.NOT_HOLDER, "passed a position it does not hold")
            state = self._move(state, body.slots, body.receiver)
            out: tuple[Output, ...] = (Moved(body.slots, body.receiver),)
            if body.receiver == self.seat:
                state = replace(state, faces={**state.faces,
                                              **{s: self.kinds[s] for s in body.slots}})
                out = (*out, *(Learned(s, self.kinds[s]) for s in body.slots))
            return state, out
        raise cheat(body.seat, Cheat.MALFORMED, f"{type(body).__name__} is not a practice message")

    def audit(self, state: PracticeState) -> tuple[PracticeState, tuple[Output, ...]]:
        """Nothing is secret: the audit only lists the faces (claims were checked at once)."""
        if state.audited:
            return state, ()
        return replace(state, audited=True), (AuditFinished(self.kinds, ()),)

    def faces(self, state: PracticeState) -> Mapping[int, Kind]:
        return state.faces

    def withheld(self, state: PracticeState) -> tuple[Blame, ...]:
        """An open deck waits for nobody: no keys, no passes, no secrets."""
        return ()
