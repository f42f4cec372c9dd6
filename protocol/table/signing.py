"""Checking the seats' Ed25519 signatures.

Signing stays with ``cryptography`` (the identity key type the daemon stores). Checking goes
through libsodium (PyNaCl), which verifies the same deterministic Ed25519 signatures in about
half the time of OpenSSL on our machines; a seat checks about three signatures for every one
it makes, so this is the cheaper side to speed up. libsodium is also the stricter of the two:
it refuses non-canonical signatures and small-order keys that OpenSSL would accept, which no
honest seat ever produces.
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from nacl.bindings import crypto_sign_open
from nacl.exceptions import CryptoError

PUBLIC_KEY_LEN = 32
SIGNATURE_LEN = 64


@dataclass(frozen=True)
class Verifier:
    """A seat's public identity key, ready to check its signatures."""

    raw: bytes

    @classmethod
    def from_bytes(cls, raw: bytes) -> Verifier:
        """The verifier for 32 raw key bytes; ValueError when they are not an Ed25519 key."""
        Ed25519PublicKey.from_public_bytes(raw)  # point decoding: refuses non-keys up front
        return cls(bytes(raw))

    def check(self, signature: bytes, data: bytes) -> bool:
        """Whether ``signature`` is this key's signature over ``data``."""
        if len(signature) != SIGNATURE_LEN:
            return False
        try:
            crypto_sign_open(signature + data, self.raw)
        except CryptoError:
            return False
        return True
