"""The prime-order group of Curve25519 (libsodium via PyNaCl): tile points, masking, scalars.

Points are 32-byte Montgomery u-coordinates (X25519's encoding), scalars 32-byte
little-endian integers modulo the group order ``L``. Everything the masked wall needs is here,
so the rest of the deck never touches ``nacl`` directly:

* ``hash_to_point``: a tile's base point, from a hash of the hand context and the tile id
  (Elligator 2 via ``crypto_core_ed25519_from_uniform``, which lands in the prime-order
  subgroup, then its Montgomery u-coordinate); nobody chooses the points and identical tiles
  get different points;
* ``mult``: ``scalar * point`` through X25519, so ``a * (b * P) == (a * b) * P`` holds for
  scalars modulo ``L`` (the commutativity the masking relies on).

Why X25519 and not Edwards arithmetic: on this project's machines libsodium's X25519 ladder
is about three times faster than its Edwards variable-base multiplication, and the masked
wall is mostly multiplications. X25519 *clamps* its scalar (clears the low three bits, sets
bit 254), so ``mult`` hands it the clamped integer ``c = 2**254 + 8 m`` that equals the wanted
scalar, or its negative, modulo ``L``: for a point of order ``L``, ``c * P`` is then
``scalar * P`` or ``-(scalar * P)``, which have the same u-coordinate. Such an ``m`` exists for
every scalar but about one in ``2**126``; ``mult`` then multiplies by half the scalar and
doubles, so every non-zero scalar works (and no seat can pick keys that stop another's
multiplication).

Why no subgroup check is needed: a clamped scalar is a multiple of 8, which clears every
small-order component (the curve's cofactor is 8, its twist's 4), so a multiplication never
leaks a scalar modulo a small order, whatever point a cheater sends. A point on the twist, or
any u that is not a masked tile, is a substituted tile: the audit catches it like any other.
Encodings must be canonical (``u < 2**255 - 19``), so that "no point twice" means what it says;
a low-order point makes X25519's result zero, which libsodium refuses (``BadPoint``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import nacl.bindings as sodium
from nacl.exceptions import CryptoError

L = 2**252 + 27742317777372353535851937790883648493
"""Order of the prime-order subgroup of ed25519."""

POINT_BYTES = 32
SCALAR_BYTES = 32
_FIELD_P = 2**255 - 19
_Y_MASK = 2**255 - 1  # an Edwards encoding is y with the sign of x in the top bit
_TILE_DOMAIN = b"fourwinds/deck/tile-point/v1"
_CLAMP_BIT = 2**254
_CLAMP_SPAN = 2**251
_INVERSE_OF_8 = pow(8, -1, L)
_INVERSE_OF_2 = pow(2, -1, L)
_TWO = (2).to_bytes(32, "little")


class BadPoint(ValueError):
    """Bytes that are not a usable point (not canonical, or of low order)."""


class BadScalar(ValueError):
    """Bytes that are not a usable scalar (wrong length, not reduced, or zero)."""


def _length_prefixed(*parts: bytes) -> bytes:
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def hash_to_point(context: bytes, tile_id: int) -> bytes:
    """The base point of one physical tile for one hand: no seat can choose or relate them."""
    return tile_points(context, (tile_id,))[0]


def tile_points(context: bytes, tile_ids: Sequence[int]) -> tuple[bytes, ...]:
    """``hash_to_point`` for many tiles at once (one field inversion for all of them)."""
    ys = []
    for tile_id in tile_ids:
        seed = hashlib.sha256(
            _length_prefixed(_TILE_DOMAIN, context, tile_id.to_bytes(2, "big"))
        ).digest()
        edwards: bytes = sodium.crypto_core_ed25519_from_uniform(seed)
        ys.append(int.from_bytes(edwards, "little") & _Y_MASK)
    return tuple(u.to_bytes(POINT_BYTES, "little") for u in _montgomery_u(ys))


def _montgomery_u(ys: Sequence[int]) -> list[int]:
    """The Montgomery u = (1 + y) / (1 - y) of Edwards points given by their y (RFC 7748,
    section 4.1), with one inversion for the lot. libsodium's own conversion
    (``crypto_sign_ed25519_pk_to_curve25519``) also re-checks the subgroup, a multiplication
    each, which points straight from ``from_uniform`` do not need. The points are public."""
    denominators = [(1 - y) % _FIELD_P for y in ys]  # never 0: y = 1 is the identity
    prefix = [1]
    for d in denominators:
        prefix.append(prefix[-1] * d % _FIELD_P)
    inverse = pow(prefix[-1], -1, _FIELD_P)
    out = [0] * len(ys)
    for i in range(len(ys) - 1, -1, -1):
        out[i] = (1 + ys[i]) * inverse * prefix[i] % _FIELD_P
        inverse = inverse * denominators[i] % _FIELD_P
    return out


def _clamped(scalar: bytes) -> bytes | None:
    """X25519 scalar bytes whose (clamped) value equals ``scalar`` or ``-scalar`` mod ``L``;
    None for the one scalar in about ``2**126`` that has none."""
    value = int.from_bytes(scalar, "little") % L
    if value == 0:
        raise BadScalar("the scalar is zero modulo L")
    for wanted in (value, L - value):
        m = (wanted - _CLAMP_BIT) * _INVERSE_OF_8 % L
        if m < _CLAMP_SPAN:
            return (_CLAMP_BIT + 8 * m).to_bytes(SCALAR_BYTES, "little")
    return None


def _halved(scalar: bytes) -> bytes:
    return scalar_from_int(scalar_to_int(scalar) * _INVERSE_OF_2)


def is_point(point: object) -> bool:
    """Whether ``point`` is a canonical 32-byte u-coordinate (never raises)."""
    return (
        isinstance(point, bytes)
        and len(point) == POINT_BYTES
        and (point[31] < 0x7F or int.from_bytes(point, "little") < _FIELD_P)
    )


def mult(scalar: bytes, point: bytes) -> bytes:
    """``scalar * point``. ``BadPoint`` for a non-canonical encoding or a low-order point;
    ``BadScalar`` for a zero scalar."""
    clamped = _clamped(scalar)
    if clamped is None:  # k * P as 2 * ((k / 2) * P): every non-zero scalar works
        return mult(_TWO, mult(_halved(scalar), point))
    return _ladder(clamped, point)


def mult_each(scalar: bytes, points: Sequence[bytes]) -> list[bytes]:
    """``scalar * point`` for every point (the scalar's clamped form worked out once)."""
    clamped = _clamped(scalar)
    if clamped is None:
        return [mult(scalar, point) for point in points]
    return [_ladder(clamped, point) for point in points]


def _ladder(clamped: bytes, point: bytes) -> bytes:
    """X25519 of a canonical point by an already clamped scalar."""
    if not is_point(point):
        raise BadPoint("not a canonical 32-byte point")
    try:
        out: bytes = sodium.crypto_scalarmult(clamped, point)
    except (CryptoError, TypeError, ValueError) as error:
        raise BadPoint(f"scalar multiplication refused the point: {error}") from None
    return out


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
    """The inverse modulo ``L`` (of a scalar that is not zero)."""
    return scalar_from_int(pow(scalar_to_int(a), -1, L))


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
