"""Signed envelopes: who sent a message, where it sits in their chain, and what state it saw.

Wire form (a msgpack array, see docs/PROTOCOL.md): ``[version, table, seat, seq, prev, step,
state, to, kind, body_hash, signature, body]``. The Ed25519 signature covers the *header*:
every field but the signature and the body, with the body bound through ``body_hash``
(SHA-256). A private message (``to`` is one seat) therefore has a *redacted* form, without its
body, that every other seat can still verify and chain: privacy of the content, integrity of
the chain for all. The message hash that chains use is the SHA-256 of the header.

From protocol version 2 a call's messages travel as a *bundle*, ``[message, [carried, ...]]``
(see ``bundle``): the last message a seat is to get, with the sender's earlier ones it lacks;
a private message reaches the other seats redacted inside the sender's next payload.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.wire.messages import MsgKind
from fourwinds.protocol.table.wire.signing import SigningKey, Verifier
from fourwinds.protocol.table.wire.strict import (
    WireError,
    need_bytes,
    need_int,
    need_list,
    pack,
    unpack,
)
from fourwinds.protocol.values import evolve

PROTOCOL_VERSION = 5
"""The version this code speaks; the lobby picks the highest one all four seats support.
5: a table may carry engine options older seats would not know (``ENGINE_OPTIONS_SINCE``:
MCR without flowers); 4: a seat may ask for more time on a discard (THINKING,
``THINKING_SINCE``); 3: the masked wall is worked in X25519 u-coordinates (docs/FAIRNESS.md);
2: a call's messages travel as bundles (see ``bundle``); 1: each message on its own, and a
private one's redacted copy to every other seat at once. Envelopes are the same in all five."""

SUPPORTED_VERSIONS = (1, 5)
"""Lowest and highest version this code can play (a masked table: see ``X25519_WALL_SINCE``)."""

BUNDLES_SINCE = 2
"""The first version whose seats read bundles."""

X25519_WALL_SINCE = 3
"""The first version whose masked wall uses X25519 points. Versions 1 and 2 used Edwards
points, which this code no longer plays, so a masked table needs this version at every seat;
a practice table plays at any supported version."""

THINKING_SINCE = 4
"""The first version whose seats know THINKING (more time on a discard): at a table playing
an older version the message would be unreadable to some seat, so nobody sends it."""

ENGINE_OPTIONS_SINCE: dict[str, int] = {"flowers": 5}
"""The first version that knows each of these engine options (the ``rules`` pairs of the
table's options). Code before it would read the pair and ignore it (MCR: deal 144 tiles at a
table without flowers, so its deck would never agree with the others'), so a table that
carries one is played at that version or later: an older seat cannot join it."""

DOMAIN = b"fourwinds-table"
ZERO_HASH = bytes(32)
HASH_LEN = 32
TABLE_ID_LEN = 16
MAX_SEQ = 2**32
MAX_STEP = 2**32
MAX_CARRIED = 64
"""Most messages one bundle carries (a seat sends at most a few private messages between two
public ones; a longer run leaves the oldest to catch-up). The sender stops there
(``flow._lacking``); a receiver refuses a bundle that carries more."""
_BUNDLE_TAG = 0x92  # msgpack's fixarray of 2 (an envelope is an array of 12: 0x9c)


_KINDS = {int(kind): kind for kind in MsgKind}


class BadSignature(WireError):
    """A message whose signature or body hash does not check out (sender unproven)."""


def private_key_from_bytes(secret: bytes) -> SigningKey:
    """The Ed25519 identity key for 32 passed-in bytes (never generated here)."""
    return SigningKey.from_seed(secret)


def public_key_bytes(key: SigningKey) -> bytes:
    return key.public


def public_key_from_bytes(raw: bytes) -> Verifier:
    try:
        return Verifier.from_bytes(raw)
    except ValueError as error:
        raise WireError(f"not an Ed25519 public key: {error}") from None


@dataclass(frozen=True)
class Envelope:
    """One signed protocol message, decoded. ``body`` is None in the redacted form."""

    version: int
    table: bytes
    seat: Seat
    seq: int
    prev: bytes
    step: int
    state: bytes
    to: Seat | None
    kind: MsgKind
    body_hash: bytes
    signature: bytes
    body: bytes | None

    def header_bytes(self) -> bytes:
        """The exact bytes that are signed (kept once made: the signature check and the
        message hash both read them; a copy with another signature or no body keeps them)."""
        held: bytes | None = self.__dict__.get("header")
        if held is None:
            held = self.__dict__["header"] = pack(
                [
                    DOMAIN,
                    self.version,
                    self.table,
                    int(self.seat),
                    self.seq,
                    self.prev,
                    self.step,
                    self.state,
                    -1 if self.to is None else int(self.to),
                    int(self.kind),
                    self.body_hash,
                ]
            )
        return held

    # msg_hash and wire are kept in the instance once made (like functools.cached_property,
    # without its per-access lock: they are read several times for every message handled)

    @property
    def msg_hash(self) -> bytes:
        """SHA-256 of the header: what the sender's next message names as ``prev``."""
        held: bytes | None = self.__dict__.get("msg_hash")
        if held is None:
            held = self.__dict__["msg_hash"] = hashlib.sha256(self.header_bytes()).digest()
        return held

    def encode(self) -> bytes:
        """The wire bytes (as received, for a decoded message; packed once otherwise)."""
        return self.wire

    @property
    def wire(self) -> bytes:
        held: bytes | None = self.__dict__.get("wire")
        if held is None:
            held = self.__dict__["wire"] = pack(
                [
                    self.version,
                    self.table,
                    int(self.seat),
                    self.seq,
                    self.prev,
                    self.step,
                    self.state,
                    -1 if self.to is None else int(self.to),
                    int(self.kind),
                    self.body_hash,
                    self.signature,
                    self.body,
                ]
            )
        return held

    def redacted(self) -> Envelope:
        """The same message without its body (what non-addressees of a private one get)."""
        out = evolve(self, body=None)
        out.__dict__.pop("wire", None)  # the header, and so msg_hash, is the same
        return out

    @property
    def public(self) -> bool:
        return self.to is None


def seal(
    key: SigningKey,
    *,
    version: int,
    table: bytes,
    seat: Seat,
    seq: int,
    prev: bytes,
    step: int,
    state: bytes,
    to: Seat | None,
    kind: MsgKind,
    body: bytes,
) -> Envelope:
    """Sign a new message (Ed25519 is deterministic: same inputs, same bytes)."""
    unsigned = Envelope(
        version,
        table,
        seat,
        seq,
        prev,
        step,
        state,
        to,
        kind,
        hashlib.sha256(body).digest(),
        b"",
        body,
    )
    return evolve(unsigned, signature=key.sign(unsigned.header_bytes()))


def decode(data: object) -> Envelope:
    """Parse a wire message strictly (structure and types only; see ``verify``)."""
    items = need_list(unpack(data), "envelope", length=12)
    version = need_int(items[0], "version", 0, 2**16)
    if not SUPPORTED_VERSIONS[0] <= version <= SUPPORTED_VERSIONS[1]:
        raise WireError(
            f"protocol version {version} is not supported "
            f"(this seat speaks {SUPPORTED_VERSIONS[0]}..{SUPPORTED_VERSIONS[1]})"
        )
    table = need_bytes(items[1], "table id", TABLE_ID_LEN)
    seat = SEATS[need_int(items[2], "seat", 0, 3)]
    seq = need_int(items[3], "seq", 0, MAX_SEQ)
    prev = need_bytes(items[4], "prev", HASH_LEN)
    step = need_int(items[5], "step", 0, MAX_STEP)
    state = need_bytes(items[6], "state hash", HASH_LEN)
    to_raw = need_int(items[7], "to", -1, 3)
    kind_raw = need_int(items[8], "kind", 0, 255)
    kind = _KINDS.get(kind_raw)
    if kind is None:
        raise WireError(f"unknown message kind {kind_raw}")
    body_hash = need_bytes(items[9], "body hash", HASH_LEN)
    signature = need_bytes(items[10], "signature", 64)
    body = None if items[11] is None else need_bytes(items[11], "body")
    env = Envelope(
        version,
        table,
        seat,
        seq,
        prev,
        step,
        state,
        None if to_raw < 0 else SEATS[to_raw],
        kind,
        body_hash,
        signature,
        body,
    )
    env.__dict__["wire"] = data  # keep the bytes as received (persisted and forwarded as is)
    return env


def bundle(message: bytes, carried: Sequence[bytes]) -> bytes:
    """One payload: ``message`` (wire bytes) and the messages of the same sender that
    precede it in its chain and that the receiver lacks (others' private ones redacted)."""
    return pack([message, list(carried)])


def is_bundle(data: object) -> bool:
    return isinstance(data, bytes) and data[:1] == bytes([_BUNDLE_TAG])


def unbundle(data: bytes) -> tuple[bytes, tuple[bytes, ...]]:
    """(message, carried) of a bundle, strictly; ``WireError`` when it is not one."""
    items = need_list(unpack(data, "bundle"), "bundle", length=2)
    message = need_bytes(items[0], "bundled message")
    carried = need_list(items[1], "carried messages", max_len=MAX_CARRIED)
    return message, tuple(need_bytes(c, "carried message") for c in carried)


def verify(envelope: Envelope, public_key: Verifier) -> None:
    """Check the signature and, when present, the body against its hash."""
    if not public_key.check(envelope.signature, envelope.header_bytes()):
        raise BadSignature(
            f"bad signature on a message claiming seat {envelope.seat.name} seq {envelope.seq}"
        ) from None
    check_body(envelope)


def check_body(envelope: Envelope) -> None:
    """The body, when present, against the hash its header names."""
    if envelope.body is not None and hashlib.sha256(envelope.body).digest() != envelope.body_hash:
        raise BadSignature(
            f"body of seat {envelope.seat.name} seq {envelope.seq} does not "
            "match its signed hash (altered in transit)"
        )
