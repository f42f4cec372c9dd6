"""protocol/deck's messages on the table's wire: plain forms, decoded strictly by type."""

from __future__ import annotations

from typing import Any

from fourwinds.protocol.deck import messages as M
from fourwinds.protocol.deck.events import Message
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.table.wire.codec import ActionCodec, encode
from fourwinds.protocol.table.wire.strict import WireError, need_bytes, need_list
from fourwinds.protocol.tiles import Kind

BODIES = (
    M.Commit,
    M.Echo,
    M.Reveal,
    M.CommitEvidence,
    M.WallPass,
    M.PublicReveal,
    M.TransferNotice,
    M.Complaint,
    M.AuditReveal,
)
_CODEC = ActionCodec((*BODIES, M.KeyDelivery, M.KeyProof))


def encode_message(message: Message) -> Any:
    """``[type, fields...]``; a signed body is ``["Signed", body, signature]``."""
    return encode(message)


def decode_message(plain: object) -> Message:
    """A deck message from its plain form; ``WireError`` for anything else."""
    fast = _common(plain)
    return fast if fast is not None else _general(plain)


def _general(plain: object) -> Message:
    items = need_list(plain, "deck message")
    if items and items[0] == "Signed":
        _, body, signature = need_list(items, "signed deck message", length=3)
        decoded = _CODEC.decode(body)
        if not isinstance(decoded, BODIES):
            raise WireError(f"deck message: {type(decoded).__name__} is not a signed body")
        return M.Signed(decoded, need_bytes(signature, "deck signature", 64))
    decoded = _CODEC.decode(items)
    if not isinstance(decoded, M.KeyDelivery):
        raise WireError(f"deck message: {type(decoded).__name__} cannot travel unsigned")
    return decoded


_SEAT_OF = {int(seat): seat for seat in SEATS}
_KIND_OF = {int(kind): kind for kind in Kind}


def _common(plain: object) -> Message | None:
    """The messages of every draw and discard (a key delivery, a signed reveal) decoded
    directly; None for anything not exactly of their shape and types, which then takes the
    strict general path (so it accepts nothing that path refuses, and errors read the same)."""
    if type(plain) is not list or not plain:
        return None
    if plain[0] == "KeyDelivery" and len(plain) == 6:
        _, context, seat, recipient, wall_digest, proofs = plain
        if (
            type(context) is not bytes
            or type(seat) is not int
            or type(recipient) is not int
            or type(wall_digest) is not bytes
        ):
            return None
        sender, to, keys = _SEAT_OF.get(seat), _SEAT_OF.get(recipient), _proofs(proofs)
        if sender is None or to is None or keys is None:
            return None
        return M.KeyDelivery(context, sender, to, wall_digest, keys)
    if (
        plain[0] == "Signed"
        and len(plain) == 3
        and type(plain[2]) is bytes
        and len(plain[2]) == 64
        and type(plain[1]) is list
        and len(plain[1]) == 7
        and plain[1][0] == "PublicReveal"
    ):
        _, context, seat, slot, kind, own_key, proofs = plain[1]
        if (
            type(context) is not bytes
            or type(seat) is not int
            or type(slot) is not int
            or type(kind) is not int
            or type(own_key) is not bytes
        ):
            return None
        sender, face, keys = _SEAT_OF.get(seat), _KIND_OF.get(kind), _proofs(proofs)
        if sender is None or face is None or keys is None:
            return None
        return M.Signed(M.PublicReveal(context, sender, slot, face, own_key, keys), plain[2])
    return None


def _proofs(plain: object) -> tuple[M.KeyProof, ...] | None:
    if type(plain) is not list:
        return None
    out = []
    for item in plain:
        if type(item) is not list or len(item) != 4 or item[0] != "KeyProof":
            return None
        _, issuer, slot, key = item
        if type(issuer) is not int or type(slot) is not int or type(key) is not bytes:
            return None
        seat = _SEAT_OF.get(issuer)
        if seat is None:
            return None
        out.append(M.KeyProof(seat, slot, key))
    return tuple(out)
