"""Every message of the fair deck, as frozen dataclasses, and the signing wrapper.

Bodies name their sender in ``seat`` and the hand in ``context``. A ``Signed`` body carries an
opaque signature made by the sender's identity key: the deck never signs or checks signatures
itself, it calls the ``Signer`` and ``Verifier`` the table layer passes in (Ed25519 identity
keys belong to the table). Signatures prove who sent a public message, and two conflicting
signed messages prove an equivocation.

Keys need no signature of their own: each lock pass carries a hash commitment to every key of
its seat, so a key released privately and later shown by another seat (a public reveal, a
pass of tiles, a complaint) is checked against the issuer's own signed pass with one hash.

``step_key`` names the protocol step a signed body belongs to: one seat must never sign two
different bodies for one step.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

import msgpack

from fourwinds.protocol.canonical import canonical_bytes
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import TileSet

Signer = Callable[[bytes], bytes]
"""Signs the canonical bytes of a body with this seat's identity key."""

Verifier = Callable[[Seat, bytes, bytes], bool]
"""``verify(seat, data, signature)``: whether ``seat``'s identity key signed ``data``."""

_SIGN_DOMAIN = b"fourwinds/deck/v1\x00"


@dataclass(frozen=True)
class DeckDescription:
    """What deck a hand uses; every seat builds it from the table's signed Open (it never
    travels itself). A ``practice`` wall is open (protocol/table/machine/practice.py): a masked deck
    refuses a description that says so. ``tile_set``: the rule set's tiles
    (``walls.TileSet``); ``flowers``: False for a wall without its flowers and seasons (MCR's
    136 tiles); every seat derives it from the table's agreed options, so all four shuffle
    and lock the same tile set."""

    context: bytes
    tile_set: TileSet
    practice: bool = False
    size: int | None = None  # a shorter wall (tiles 0..size-1), for tests only
    flowers: bool = True

    @property
    def tiles(self) -> tuple[Kind, ...]:
        """The kind of every physical tile in this deck, by tile id."""
        full = self.tile_set.played(flowers=self.flowers).kinds
        if self.size is None:
            return full
        if not 2 <= self.size <= len(full):
            raise ValueError(f"a wall needs 2..{len(full)} tiles, not {self.size}")
        return full[: self.size]


class Phase(Enum):
    """The two passes of the masked wall."""

    SHUFFLE = "shuffle"
    LOCK = "lock"


# --- commit-reveal -------------------------------------------------------------------------


@dataclass(frozen=True)
class Commit:
    context: bytes
    seat: Seat
    commitment: bytes  # H(context, seat, nonce)


@dataclass(frozen=True)
class Echo:
    context: bytes
    seat: Seat
    set_digest: bytes  # digest of the four commitments this seat received


@dataclass(frozen=True)
class Reveal:
    context: bytes
    seat: Seat
    nonce: bytes


@dataclass(frozen=True)
class CommitEvidence:
    """After an echo mismatch: the four signed commitments this seat received."""

    context: bytes
    seat: Seat
    commits: tuple[Signed[Commit], ...]


# --- the masked wall -----------------------------------------------------------------------


@dataclass(frozen=True)
class WallPass:
    """One seat's shuffle or lock pass: the whole wall of points, as it leaves that seat.

    ``input_digest`` is the digest of the pass this seat processed (the tile points for the
    first shuffle), so a seat that received a different version of that pass sees it at once.
    A lock pass also commits to the seat's key for every position (``key_commitment``), in
    position order; a shuffle pass has none.
    """

    context: bytes
    seat: Seat
    phase: Phase
    input_digest: bytes
    points: tuple[bytes, ...]
    key_commitments: tuple[bytes, ...] = ()


@dataclass(frozen=True)
class PublicReveal:
    """The holder shows a position's face and all four keys, so every seat can check it."""

    context: bytes
    seat: Seat
    slot: int
    kind: Kind
    own_key: bytes
    proofs: tuple[KeyProof, ...]  # the other three issuers' keys for this slot


@dataclass(frozen=True)
class TransferNotice:
    """Positions move publicly from ``seat`` to ``receiver`` (``via``: a blind pass's seat)."""

    context: bytes
    seat: Seat
    receiver: Seat
    slots: tuple[int, ...]
    via: Seat | None = None


@dataclass(frozen=True)
class Complaint:
    """The keys this seat received for ``slot`` do not unmask to any tile: audit now.

    ``proofs`` shows the three keys it got, so every seat can tell a wrong key (it does not
    match its commitment) from a false complaint (the audit finds the wall in order)."""

    context: bytes
    seat: Seat
    slot: int
    proofs: tuple[KeyProof, ...]


@dataclass(frozen=True)
class AuditReveal:
    """Every secret of one seat, revealed at the end of the hand."""

    context: bytes
    seat: Seat
    shuffle_scalar: bytes
    permutation: tuple[int, ...]
    keys: tuple[bytes, ...]


M = TypeVar("M")
M_co = TypeVar("M_co", covariant=True)


@dataclass(frozen=True)
class Signed(Generic[M_co]):
    """A body and its sender's signature over ``signing_bytes(body)``."""

    body: M_co
    signature: bytes


@dataclass(frozen=True)
class KeyProof:
    """One seat's key for one position, as released or forwarded: ``H(key)`` must equal the
    commitment in ``issuer``'s lock pass."""

    issuer: Seat
    slot: int
    key: bytes


@dataclass(frozen=True)
class KeyDelivery:
    """Private to ``recipient``: keys for positions it now holds (not signed itself: each key
    is checked against its issuer's commitment in that issuer's lock pass)."""

    context: bytes
    seat: Seat
    recipient: Seat
    wall_digest: bytes  # the final wall the sender holds: a split wall shows at the first key
    proofs: tuple[KeyProof, ...]


Body = (
    Commit
    | Echo
    | Reveal
    | CommitEvidence
    | WallPass
    | PublicReveal
    | TransferNotice
    | Complaint
    | AuditReveal
)


def body_bytes(body: object) -> bytes:
    """``canonical_bytes(body)``, with direct paths (the same bytes) for the bodies signed or
    checked most: the large ``WallPass`` and ``AuditReveal``, and ``PublicReveal`` (every
    discard)."""
    plain: list[object]
    if isinstance(body, WallPass):
        plain = [
            "WallPass",
            body.context,
            int(body.seat),
            body.phase.value,
            body.input_digest,
            list(body.points),
            list(body.key_commitments),
        ]
    elif isinstance(body, PublicReveal):
        plain = [
            "PublicReveal",
            body.context,
            int(body.seat),
            body.slot,
            int(body.kind),
            body.own_key,
            [["KeyProof", int(p.issuer), p.slot, p.key] for p in body.proofs],
        ]
    elif isinstance(body, AuditReveal):
        plain = [
            "AuditReveal",
            body.context,
            int(body.seat),
            body.shuffle_scalar,
            list(body.permutation),
            list(body.keys),
        ]
    else:
        return canonical_bytes(body)
    packed: bytes = msgpack.packb(plain, use_bin_type=True)
    return packed


def signing_bytes(body: object) -> bytes:
    """The bytes a sender signs: a domain tag and the body's canonical bytes."""
    return _SIGN_DOMAIN + body_bytes(body)


def sign(body: M, signer: Signer) -> Signed[M]:
    return Signed(body, signer(signing_bytes(body)))


def transport_authenticated(seat: Seat, data: bytes, signature: bytes) -> bool:
    """The ``Verifier`` of a deck whose transport already proved, for every message it
    hands over, that the body's ``seat`` sent it (the table: each deck message travels in
    its sender's checked signed envelope, which must be that seat's). Inner signatures are
    still made, and kept for anyone who reads them later (``fourwinds verify``), but not
    checked again on receipt: the check would add nothing to the envelope's."""
    return True


def signed_by(message: Signed[object], seat: Seat, verify: Verifier) -> bool:
    """Whether ``seat`` signed this message."""
    return bool(verify(seat, signing_bytes(message.body), message.signature))


def body_digest(body: object) -> bytes:
    """``canonical.digest(body)``: SHA-256 of the canonical bytes."""
    return hashlib.sha256(body_bytes(body)).digest()


def key_commitment(context: bytes, issuer: Seat, slot: int, key: bytes) -> bytes:
    """The hash a lock pass shows in place of a key."""
    data = b"fourwinds/deck/key\x00" + len(context).to_bytes(2, "big") + context
    return hashlib.sha256(data + bytes([int(issuer)]) + slot.to_bytes(2, "big") + key).digest()


def step_key(body: Body) -> tuple[object, ...]:
    """The protocol step a body belongs to: a seat signs one body per step."""
    if isinstance(body, WallPass):
        return ("pass", body.seat, body.phase)
    if isinstance(body, PublicReveal):
        return ("reveal", body.seat, body.slot)
    if isinstance(body, (TransferNotice, Complaint)):
        return (type(body).__name__, body.seat, canonical_bytes(body))
    return (type(body).__name__, body.seat)
