"""A round's seed, made by all its entrants with the table dice's commit-reveal.

The steps are the table's (protocol/deck/commit_reveal.py and protocol/table/machine/dice.py), run
by the round's entrants instead of four seats, each step a signed record: every entrant
commits (``SeedCommit``: ``commitment(context, EAST, nonce)``), echoes the digest of all the
commitments in roster order once it holds them (``SeedEcho``: ``commitments_hash``), and
reveals its nonce only when every echo agrees (``SeedReveal``). The seed is ``seed_of`` the
round's context and the nonces in roster order. An entrant has no seat in this round, so its
key goes into its commitment's context in the seat's place (``commit_context``): no entrant
can copy another's commitment. Nonces come from a secret the caller passes in
(``derive_nonce``), never drawn here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from fourwinds.protocol.deck import commit_reveal
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine import dice

_SEAT = Seat.EAST  # the commitment's seat: every entrant commits in its own context


def round_context(event: bytes, round_index: int) -> bytes:
    """What the round's seed is made for: the event and the round."""
    return b"fourwinds-tournament-seed\0" + event + round_index.to_bytes(2, "big")


def commit_context(event: bytes, round_index: int, player: bytes) -> bytes:
    """One entrant's commitment context: the round's, and the entrant's key."""
    return round_context(event, round_index) + player


def nonce(secret: bytes, event: bytes, round_index: int, player: bytes) -> bytes:
    """The entrant's nonce for the round, derived from its own secret (as a seat's is)."""
    return dice.derive_nonce(secret, commit_context(event, round_index, player))


def commitment(event: bytes, round_index: int, player: bytes, nonce_: bytes) -> bytes:
    """The entrant's commitment to ``nonce_``."""
    return commit_reveal.commitment(commit_context(event, round_index, player), _SEAT, nonce_)


def echo(commitments: Sequence[bytes]) -> bytes:
    """What every entrant echoes: the round's commitments in roster order."""
    return dice.commitments_hash(commitments)


def seed(event: bytes, round_index: int, nonces: Sequence[bytes]) -> bytes:
    """The round's seed from the nonces in roster order."""
    return commit_reveal.seed_of(round_context(event, round_index), tuple(nonces))


def results_digest(record_hashes: Sequence[bytes]) -> bytes:
    """What a round start names as the results it was seated after: the hashes of the
    result, correction and penalty records before it, in record order."""
    return hashlib.sha256(b"fourwinds-tournament-results\0" + b"".join(record_hashes)).digest()
