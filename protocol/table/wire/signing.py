"""The seats' Ed25519 signatures, made and checked through libsodium (PyNaCl).

libsodium checks signatures in about half the time of OpenSSL on our machines and makes them
in about 60% of it; Ed25519 is deterministic, so the bytes are the ones ``cryptography``
would make with the same key (the daemon stores its identity in that library's format). It is
also the stricter checker: it refuses non-canonical signatures and small-order keys that
OpenSSL would accept, which no honest seat ever produces.
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from nacl.bindings import crypto_sign, crypto_sign_open, crypto_sign_seed_keypair
from nacl.exceptions import CryptoError

SIGNATURE_LEN = 64
SEED_LEN = 32


@dataclass(frozen=True, repr=False)
class SigningKey:
    """A seat's identity key: the 32-byte seed the caller passes in, ready to sign."""

    public: bytes
    _secret: bytes  # libsodium's 64-byte form (seed and public key)

    @classmethod
    def from_seed(cls, seed: bytes) -> SigningKey:
        if not isinstance(seed, bytes) or len(seed) != SEED_LEN:
            raise ValueError("an identity private key is 32 raw bytes")
        public, secret = crypto_sign_seed_keypair(seed)
        return cls(public, secret)

    def sign(self, data: bytes) -> bytes:
        """The Ed25519 signature of ``data``."""
        signed: bytes = crypto_sign(data, self._secret)
        return signed[:SIGNATURE_LEN]

    def __repr__(self) -> str:
        return f"SigningKey(public={self.public.hex()[:16]}...)"


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
