"""The prime-order group of ed25519 (libsodium via PyNaCl): points, scalars, the subgroup check.

Points are 32-byte compressed encodings, scalars 32-byte little-endian integers modulo the
group order ``L``. Everything the masked wall needs is here, so the rest of the deck never
touches ``nacl`` directly:

* ``hash_to_point``: a tile's base point, from a hash of the hand context and the tile id
  (Elligator 2 via ``crypto_core_ed25519_from_uniform``, which lands in the prime-order
  subgroup); nobody chooses the points and identical tiles get different points;
* ``mult``: scalar multiplication without clamping, so ``a * (b * P) == (a * b) * P`` holds
  for scalars modulo ``L`` (the commutativity the masking relies on);
* ``in_prime_subgroup``: the explicit check ``(L - 1) * Q == -Q`` (plus canonical encoding,
  on the curve, not small order) that also holds on libsodium builds older than 1.0.18,
  whose ``is_valid_point`` and scalar multiplication do not check the subgroup themselves;
* ``library_checks_subgroup``: whether this libsodium's scalar multiplication already refuses
  points outside the subgroup (1.0.18 and later), measured once on a known mixed-order point.
  When it does, every multiplication of a received point *is* the subgroup check, at no extra
  cost; when it does not, the wall runs the explicit check on every point it multiplies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache

import nacl.bindings as sodium
from nacl.exceptions import CryptoError

L = 2**252 + 27742317777372353535851937790883648493
"""Order of the prime-order subgroup of ed25519."""

POINT_BYTES = 32
SCALAR_BYTES = 32
_FIELD_P = 2**255 - 19
_TILE_DOMAIN = b"fourwinds/deck/tile-point/v1"
_L_MINUS_1 = (L - 1).to_bytes(32, "little")


class BadPoint(ValueError):
    """Bytes that are not a point of the prime-order subgroup."""


class BadScalar(ValueError):
    """Bytes that are not a usable scalar (wrong length, not reduced, or zero)."""


def _length_prefixed(*parts: bytes) -> bytes:
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def hash_to_point(context: bytes, tile_id: int) -> bytes:
    """The base point of one physical tile for one hand: no seat can choose or relate them."""
    seed = hashlib.sha256(
        _length_prefixed(_TILE_DOMAIN, context, tile_id.to_bytes(2, "big"))).digest()
    point: bytes = sodium.crypto_core_ed25519_from_uniform(seed)
    return point


def mult(scalar: bytes, point: bytes) -> bytes:
    """``scalar * point`` (no clamping). ``BadPoint`` when libsodium refuses the point."""
    try:
        out: bytes = sodium.crypto_scalarmult_ed25519_noclamp(scalar, point)
    except (CryptoError, TypeError, ValueError) as error:
        raise BadPoint(f"scalar multiplication refused the point: {error}") from None
    return out


def negate(point: bytes) -> bytes:
    """``-point``: the same y with the sign of x flipped (valid for points with x != 0)."""
    return point[:31] + bytes([point[31] ^ 0x80])


def in_prime_subgroup(point: bytes) -> bool:
    """True for a canonical encoding of a point of order ``L`` (never raises).

    ``(L - 1) * Q == -Q`` holds exactly when ``L * Q`` is the identity; the small torsion
    part of a mixed-order point survives multiplication by ``L - 1`` with the wrong sign.
    """
    if not isinstance(point, bytes) or len(point) != POINT_BYTES:
        return False
    if not sodium.crypto_core_ed25519_is_valid_point(point):
        return False
    try:
        return mult(_L_MINUS_1, point) == negate(point)
    except BadPoint:
        return False


@lru_cache(maxsize=1)
def library_checks_subgroup() -> bool:
    """Whether ``mult`` itself refuses points with a small-order part (libsodium >= 1.0.18)."""
    base = hash_to_point(b"probe", 0)
    order_two = (_FIELD_P - 1).to_bytes(32, "little")  # (0, -1), the point of order 2
    mixed: bytes = sodium.crypto_core_ed25519_add(base, order_two)
    try:
        mult(scalar_from_int(3), mixed)
    except BadPoint:
        return True
    return False


def scalar_from_int(value: int) -> bytes:
    return (value % L).to_bytes(SCALAR_BYTES, "little")


def scalar_to_int(scalar: bytes) -> int:
    return int.from_bytes(scalar, "little")


def check_scalar(scalar: object) -> bytes:
    """A received scalar: 32 bytes, reduced modulo ``L`` and not zero; else ``BadScalar``."""
    if not isinstance(scalar, bytes) or len(scalar) != SCALAR_BYTES:
        raise BadScalar("a scalar is 32 bytes")
    value = scalar_to_int(scalar)
    if not 0 < value < L:
        raise BadScalar("a scalar must be reduced modulo L and not zero")
    return scalar


def scalar_from_wide(wide: bytes) -> bytes:
    """Reduce 64 uniform bytes (little-endian) to a scalar modulo ``L`` (negligible bias);
    the same value as libsodium's ``crypto_core_ed25519_scalar_reduce``."""
    if len(wide) != 64:
        raise BadScalar("a wide scalar is 64 bytes")
    return scalar_from_int(int.from_bytes(wide, "little"))


def scalar_mul(a: bytes, b: bytes) -> bytes:
    out: bytes = sodium.crypto_core_ed25519_scalar_mul(a, b)
    return out


def scalar_invert(a: bytes) -> bytes:
    out: bytes = sodium.crypto_core_ed25519_scalar_invert(a)
    return out


def scalar_product(scalars: Sequence[bytes]) -> bytes:
    """The product of several scalars modulo ``L``."""
    value = 1
    for scalar in scalars:
        value = value * scalar_to_int(scalar) % L
    return scalar_from_int(value)


def batch_invert(scalars: Sequence[bytes]) -> list[bytes]:
    """Inverses of many non-zero scalars with one inversion (Montgomery's trick)."""
    values = [scalar_to_int(s) for s in scalars]
    prefix = [1] * (len(values) + 1)
    for i, value in enumerate(values):
        prefix[i + 1] = prefix[i] * value % L
    inverse = pow(prefix[-1], -1, L) if values else 1
    out = [b""] * len(values)
    for i in range(len(values) - 1, -1, -1):
        out[i] = scalar_from_int(inverse * prefix[i])
        inverse = inverse * values[i] % L
    return out
