"""The deck interface a table drives, and the masked (mental-poker) deck behind it.

A deck is one seat's pure state machine: every method takes the seat's current state and
returns ``(new state, outputs)``; outputs are ``Send`` (messages for other seats) and events
(``WallReady``, ``Learned``, ``Moved``, ``Suspect``, ``AuditFinished``). Nothing is mutated,
nothing is sent by the deck itself, and randomness is the entropy given at creation, so the
table protocol can drive it and tests can script every step. A practice table uses no deck:
its open wall comes from the hand's seed (``protocol/table/machine/practice.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, TypeVar

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import WallPlan

from . import audit, masked_wall, operations
from .blame import Blame, Cheat, cheat
from .entropy import Entropy
from .events import Message, Output
from .masked_wall import SeatContext, TileTable, WallState
from .messages import (
    AuditReveal,
    Body,
    Complaint,
    DeckDescription,
    KeyDelivery,
    PublicReveal,
    Signed,
    Signer,
    TransferNotice,
    Verifier,
    WallPass,
    signed_by,
)

S = TypeVar("S")
Step = tuple[S, tuple[Output, ...]]


class Deck(Protocol[S]):
    """What every deck offers a table (one instance per seat)."""

    @property
    def description(self) -> DeckDescription: ...

    @property
    def seat(self) -> Seat: ...

    def start(self) -> tuple[S, tuple[Output, ...]]: ...

    def receive(self, state: S, message: Message) -> tuple[S, tuple[Output, ...]]: ...

    def deal(self, state: S, plan: WallPlan) -> tuple[S, tuple[Output, ...]]: ...

    def draw(self, state: S, slot: int, drawer: Seat) -> tuple[S, tuple[Output, ...]]: ...

    def reveal(self, state: S, slot: int) -> tuple[S, tuple[Output, ...]]: ...

    def transfer(
        self, state: S, slots: tuple[int, ...], receiver: Seat, via: Seat | None = None
    ) -> tuple[S, tuple[Output, ...]]: ...

    def audit(self, state: S) -> tuple[S, tuple[Output, ...]]: ...

    def faces(self, state: S) -> Mapping[int, Kind]: ...

    def withheld(self, state: S) -> tuple[Blame, ...]: ...


class MaskedDeck:
    """The mental-poker deck of one seat (see masked_wall.py, operations.py, audit.py)."""

    def __init__(self, ctx: SeatContext) -> None:
        self.ctx = ctx

    @staticmethod
    def create(
        description: DeckDescription,
        seat: Seat,
        entropy: Entropy,
        signer: Signer,
        verify: Verifier,
        tiles: TileTable | None = None,
    ) -> MaskedDeck:
        if description.practice:
            raise ValueError("a practice table plays an open wall, not a masked deck")
        return MaskedDeck(SeatContext.create(description, seat, entropy, signer, verify, tiles))

    @property
    def description(self) -> DeckDescription:
        return self.ctx.description

    @property
    def seat(self) -> Seat:
        return self.ctx.seat

    def start(self) -> tuple[WallState, tuple[Output, ...]]:
        """East's first shuffle pass (the other seats wait for their input)."""
        return masked_wall.advance(self.ctx, WallState())

    def receive(self, state: WallState, message: Message) -> tuple[WallState, tuple[Output, ...]]:
        """One message from a peer. ``DeckCheat`` names a provable cheat (state unchanged)."""
        ctx = self.ctx
        if isinstance(message, KeyDelivery):
            if state.wall is None:
                raise cheat(message.seat, Cheat.MALFORMED, "keys before the wall is built")
            return operations.receive_delivery(ctx, state, message)
        body = message.body
        if body.context != ctx.context or body.seat == ctx.seat:
            raise cheat(body.seat, Cheat.MALFORMED, "a message for another hand or seat")
        if not signed_by(message, body.seat, ctx.verify):
            raise cheat(body.seat, Cheat.BAD_SIGNATURE, "a deck message its sender did not sign")
        if isinstance(body, WallPass):
            return masked_wall.receive_pass(ctx, state, _as(message, body))
        if state.wall is None:
            raise cheat(body.seat, Cheat.MALFORMED, "a hand message before the wall is built")
        if isinstance(body, PublicReveal):
            return operations.receive_reveal(ctx, state, _as(message, body))
        if isinstance(body, TransferNotice):
            return operations.receive_transfer(ctx, state, _as(message, body))
        if isinstance(body, Complaint):
            return operations.receive_complaint(ctx, state, _as(message, body))
        if isinstance(body, AuditReveal):
            return audit.receive_audit(ctx, state, _as(message, body))
        raise cheat(body.seat, Cheat.MALFORMED, f"{type(body).__name__} is not a wall message")

    def deal(self, state: WallState, plan: WallPlan) -> tuple[WallState, tuple[Output, ...]]:
        return operations.deal(self.ctx, state, plan)

    def draw(
        self, state: WallState, slot: int, drawer: Seat
    ) -> tuple[WallState, tuple[Output, ...]]:
        return operations.draw(self.ctx, state, slot, drawer)

    def reveal(self, state: WallState, slot: int) -> tuple[WallState, tuple[Output, ...]]:
        return operations.reveal(self.ctx, state, slot)

    def transfer(
        self, state: WallState, slots: tuple[int, ...], receiver: Seat, via: Seat | None = None
    ) -> tuple[WallState, tuple[Output, ...]]:
        return operations.transfer(self.ctx, state, slots, receiver, via)

    def audit(self, state: WallState) -> tuple[WallState, tuple[Output, ...]]:
        return audit.start_audit(self.ctx, state)

    def faces(self, state: WallState) -> Mapping[int, Kind]:
        return state.faces

    def withheld(self, state: WallState) -> tuple[Blame, ...]:
        """Who is holding the hand up, for the table to blame when its timer runs out: a pass
        not sent, keys this seat waits for, or audit secrets not revealed."""
        if state.wall is None:
            return masked_wall.withheld_pass(state)
        if state.audits[self.seat] is not None:
            return audit.withheld_audit(state)
        return operations.missing_keys(self.ctx, state)


B = TypeVar("B")


def _as(message: Signed[Body], body: B) -> Signed[B]:
    """The same signed message, typed by its (already checked) body."""
    return Signed(body, message.signature)
