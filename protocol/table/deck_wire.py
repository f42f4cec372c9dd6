"""protocol/deck's messages on the table's wire: plain forms, decoded strictly by type."""

from __future__ import annotations

from typing import Any

from fourwinds.protocol.deck import messages as M
from fourwinds.protocol.deck.events import Message

from .codec import ActionCodec, encode
from .wire import WireError, need_bytes, need_list

BODIES = (M.Commit, M.Echo, M.Reveal, M.CommitEvidence, M.WallPass, M.PublicReveal,
          M.TransferNotice, M.Complaint, M.AuditReveal)
_CODEC = ActionCodec((*BODIES, M.KeyDelivery, M.KeyProof))


def encode_message(message: Message) -> Any:
    """``[type, fields...]``; a signed body is ``["Signed", body, signature]``."""
    return encode(message)


def decode_message(plain: object) -> Message:
    """A deck message from its plain form; ``WireError`` for anything else."""
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
