"""Shared test helpers: seat signers, seeded entropy, four in-memory seats, a tampering deck."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fourwinds.protocol.canonical import digest
from fourwinds.protocol.deck.deck import Deck, MaskedDeck
from fourwinds.protocol.deck.entropy import Entropy
from fourwinds.protocol.deck.events import AuditFinished, Event, Learned, Message, Output, Send
from fourwinds.protocol.deck.loopback import Command, Loopback
from fourwinds.protocol.deck.masked_wall import SeatContext, TileTable, WallState, pass_index
from fourwinds.protocol.deck.messages import DeckDescription, Signed, Signer, Verifier, WallPass
from fourwinds.protocol.mcr.tileset import MCR_SET
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import TileSet, WallPlan

S = TypeVar("S")
_MAC_KEYS = tuple(hashlib.sha256(b"seat key %d" % s).digest() for s in SEATS)


def mac_signer(seat: Seat) -> Signer:
    """A fast stand-in signature (HMAC per seat) for tests that do not test signatures."""
    return lambda data: hmac.new(_MAC_KEYS[seat], data, "sha256").digest()


def mac_verify(seat: Seat, data: bytes, signature: bytes) -> bool:
    return hmac.compare_digest(hmac.new(_MAC_KEYS[seat], data, "sha256").digest(), signature)


_ED_KEYS = tuple(
    Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"ed %d" % s).digest()) for s in SEATS
)
_ED_PUBLIC = tuple(k.public_key() for k in _ED_KEYS)


def ed_signer(seat: Seat) -> Signer:
    """Real Ed25519 identity signatures, as the table layer makes them."""
    return _ED_KEYS[seat].sign


def ed_verify(seat: Seat, data: bytes, signature: bytes) -> bool:
    try:
        _ED_PUBLIC[seat].verify(signature, data)
    except InvalidSignature:
        return False
    return True


def entropy(seat: Seat, run: int = 0, label: str = "") -> Entropy:
    return Entropy(hashlib.sha256(f"{label}/{run}/{int(seat)}".encode()).digest())


def description(
    tile_set: TileSet = MCR_SET, size: int | None = None, context: bytes = b"table/hand 1"
) -> DeckDescription:
    return DeckDescription(context, tile_set, size=size)


def masked_decks(
    desc: DeckDescription, run: int = 0, real_signatures: bool = False
) -> list[MaskedDeck]:
    tiles = TileTable.build(desc)
    decks = []
    for seat in SEATS:
        signer = ed_signer(seat) if real_signatures else mac_signer(seat)
        verify = ed_verify if real_signatures else mac_verify
        decks.append(MaskedDeck.create(desc, seat, entropy(seat, run), signer, verify, tiles))
    return decks


def audit_result(loop: Loopback[WallState] | list[list[Event]], seat: Seat) -> AuditFinished:
    events = loop if isinstance(loop, list) else loop.events
    found = [e for e in events[seat] if isinstance(e, AuditFinished)]
    assert len(found) == 1
    return found[0]


def learned(events: Sequence[Event]) -> dict[int, Kind]:
    return {e.slot: e.kind for e in events if isinstance(e, Learned)}


def deal_slots(plan: WallPlan) -> set[int]:
    return {s for hand in plan.deal for s in hand}


Edit = Callable[[Message], Message | None]


class TamperingDeck(MaskedDeck):
    """A cheating seat: its honest deck's outgoing messages pass through ``edit`` first
    (``None`` drops the message; a replaced message may be re-signed by the cheater)."""

    def __init__(self, ctx: SeatContext, edit: Edit) -> None:
        super().__init__(ctx)
        self.edit = edit

    def _tamper(
        self, step: tuple[WallState, tuple[Output, ...]]
    ) -> tuple[WallState, tuple[Output, ...]]:
        state, outputs = step
        changed: list[Output] = []
        for output in outputs:
            if isinstance(output, Send):
                message = self.edit(output.message)
                if message is None:
                    continue
                if isinstance(message, Signed) and isinstance(message.body, WallPass):
                    index = pass_index(message.body.phase, message.body.seat)
                    passes = list(state.passes)  # the cheater keeps its story straight
                    passes[index] = Signed(message.body, message.signature)
                    state = replace(state, passes=tuple(passes))
                    if state.wall_digest and state.wall is not None:
                        state = replace(state, wall_digest=digest(state.wall))
                output = replace(output, message=message)
            changed.append(output)
        return state, tuple(changed)

    def start(self) -> tuple[WallState, tuple[Output, ...]]:
        return self._tamper(super().start())

    def receive(self, state: WallState, message: Message) -> tuple[WallState, tuple[Output, ...]]:
        return self._tamper(super().receive(state, message))

    def deal(self, state: WallState, plan: WallPlan) -> tuple[WallState, tuple[Output, ...]]:
        return self._tamper(super().deal(state, plan))

    def draw(
        self, state: WallState, slot: int, drawer: Seat
    ) -> tuple[WallState, tuple[Output, ...]]:
        return self._tamper(super().draw(state, slot, drawer))

    def reveal(self, state: WallState, slot: int) -> tuple[WallState, tuple[Output, ...]]:
        return self._tamper(super().reveal(state, slot))

    def transfer(
        self, state: WallState, slots: tuple[int, ...], receiver: Seat, via: Seat | None = None
    ) -> tuple[WallState, tuple[Output, ...]]:
        return self._tamper(super().transfer(state, slots, receiver, via))

    def audit(self, state: WallState) -> tuple[WallState, tuple[Output, ...]]:
        return self._tamper(super().audit(state))


def verifier_for(real: bool) -> Verifier:
    return ed_verify if real else mac_verify


def drawing(slot: int, drawer: Seat) -> Command[S]:
    """The public step 'drawer draws slot', for ``Loopback.everyone``."""

    def command(deck: Deck[S], state: S) -> tuple[S, tuple[Output, ...]]:
        return deck.draw(state, slot, drawer)

    return command


def revealing(slot: int) -> Command[S]:
    """The holder's command 'reveal slot' (a discard), for ``Loopback.command``."""

    def command(deck: Deck[S], state: S) -> tuple[S, tuple[Output, ...]]:
        return deck.reveal(state, slot)

    return command


def passing(slots: tuple[int, ...], receiver: Seat, via: Seat | None = None) -> Command[S]:
    """The holder's command 'pass these positions to receiver' (Charleston, courtesy pass)."""

    def command(deck: Deck[S], state: S) -> tuple[S, tuple[Output, ...]]:
        return deck.transfer(state, slots, receiver, via)

    return command
