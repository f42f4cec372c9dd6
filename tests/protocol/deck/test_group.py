"""The group layer: tile points, commutative masking, refused points, scalars."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import nacl.bindings as sodium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.canonical import canonical_bytes, digest
from fourwinds.protocol.deck import group
from fourwinds.protocol.deck.entropy import Entropy, uniform_below
from fourwinds.protocol.deck.messages import (
    AuditReveal,
    KeyProof,
    Phase,
    PublicReveal,
    Reveal,
    WallPass,
    body_bytes,
    body_digest,
)
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind


def scalar(n: int) -> bytes:
    return group.scalar_from_wide(hashlib.sha512(b"s%d" % n).digest())


def test_tile_points_differ_per_tile_and_per_hand() -> None:
    points = {group.hash_to_point(b"hand 1", t) for t in range(152)}
    assert len(points) == 152
    assert group.hash_to_point(b"hand 2", 0) not in points
    assert group.hash_to_point(b"hand 1", 7) == group.hash_to_point(b"hand 1", 7)


def test_tile_points_are_libsodiums_montgomery_form_of_the_elligator_points() -> None:
    batch = group.tile_points(b"h", range(40))
    for tile, point in enumerate(batch):
        assert point == group.hash_to_point(b"h", tile)
        seed = hashlib.sha256(
            b"".join(
                len(part).to_bytes(4, "big") + part
                for part in (b"fourwinds/deck/tile-point/v1", b"h", tile.to_bytes(2, "big"))
            )
        ).digest()
        edwards = sodium.crypto_core_ed25519_from_uniform(seed)
        assert point == sodium.crypto_sign_ed25519_pk_to_curve25519(edwards)


def test_tile_points_have_order_l() -> None:
    for tile in range(8):
        point = group.hash_to_point(b"h", tile)
        assert group.is_point(point)
        assert group.mult(group.scalar_from_int(1), point) == point
        assert group.mult(group.scalar_from_int(group.L + 1), point) == point
        with pytest.raises(group.BadScalar):  # L * P would be the identity
            group.mult(group.L.to_bytes(32, "little"), point)


def test_low_order_and_non_canonical_points_are_refused() -> None:
    scalar_one = group.scalar_from_int(5)
    for low_order in (bytes(32), (1).to_bytes(32, "little")):
        with pytest.raises(group.BadPoint):
            group.mult(scalar_one, low_order)
    for bad in ((2**255 - 19 + 9).to_bytes(32, "little"), b"\xff" * 32, b"\x09" * 31):
        assert not group.is_point(bad)
        with pytest.raises(group.BadPoint):
            group.mult(scalar_one, bad)
        with pytest.raises(group.BadPoint):
            group.mult_each(scalar_one, [group.hash_to_point(b"h", 0), bad])


def test_a_scalar_and_its_negative_give_the_same_point() -> None:
    point = group.hash_to_point(b"h", 3)
    s = scalar(3)
    minus = group.scalar_from_int(group.L - group.scalar_to_int(s))
    assert group.mult(s, point) == group.mult(minus, point)
    assert group.mult(group.scalar_from_int(group.L - 1), point) == point


def test_a_scalar_without_a_clamped_form_is_multiplied_by_halves() -> None:
    # c = 2**254 + 8m covers each residue or its negative, except m just past 2**251
    m = 2**251 + 5
    value = (2**254 + 8 * m) % group.L
    point = group.hash_to_point(b"h", 0)
    odd = group.scalar_from_int(value)
    expected = group.mult(
        group.scalar_from_int(2),
        group.mult(group.scalar_from_int(value * pow(2, -1, group.L)), point),
    )
    assert group.mult(odd, point) == expected == group.mult_each(odd, [point])[0]
    # and it unmasks like any other: (1/value) * (value * P) == P
    inverse = group.scalar_invert(odd)
    assert group.mult(inverse, group.mult(odd, point)) == point
    with pytest.raises(group.BadScalar):
        group.mult(bytes(32), point)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 151))
def test_masking_commutes_and_unmasks_with_the_inverse(a: int, b: int, tile: int) -> None:
    point = group.hash_to_point(b"h", tile)
    sa, sb = scalar(a), scalar(b)
    ab = group.mult(sa, group.mult(sb, point))
    assert ab == group.mult(sb, group.mult(sa, point))
    assert ab == group.mult(group.scalar_mul(sa, sb), point)
    back = group.mult(group.scalar_invert(group.scalar_product([sa, sb])), ab)
    assert back == point


def test_batch_invert_matches_single_inversions() -> None:
    scalars = [scalar(n) for n in range(20)]
    assert group.batch_invert(scalars) == [group.scalar_invert(s) for s in scalars]
    assert all(
        sodium.crypto_core_ed25519_scalar_mul(s, group.scalar_invert(s)) == group.scalar_from_int(1)
        for s in scalars
    )
    assert group.batch_invert([]) == []


def test_check_scalar_refuses_zero_unreduced_and_short() -> None:
    assert group.check_scalar(scalar(1)) == scalar(1)
    for bad in (bytes(32), group.L.to_bytes(32, "little"), b"\x01" * 31):
        with pytest.raises(group.BadScalar):
            group.check_scalar(bad)


def test_entropy_is_deterministic_and_labelled() -> None:
    one = Entropy(b"x" * 32)
    assert one.scalar("k", 0) == Entropy(b"x" * 32).scalar("k", 0)
    assert one.scalar("k", 0) != one.scalar("k", 1) != one.scalar("j", 1)
    assert sorted(one.permutation(50, "p")) == list(range(50))
    with pytest.raises(ValueError):
        Entropy(b"short")


def test_the_batched_scalars_and_the_permutation_are_the_labelled_draws() -> None:
    for n in range(5):
        one = Entropy(hashlib.sha256(b"%d" % n).digest())
        assert one.scalars("k", 40) == tuple(one.scalar("k", p) for p in range(40))
        items = list(range(40))
        for i in range(39, 0, -1):
            j = one.below(i + 1, "p", i)
            items[i], items[j] = items[j], items[i]
        assert one.permutation(40, "p") == tuple(items)


def test_rejection_sampling_rejects_values_past_the_bound() -> None:
    # bound 6 takes 3 bits; 6 and 7 are rejected and the next 8-byte chunk is used.
    def blocks(first: int) -> Callable[[int], bytes]:
        return lambda attempt: first.to_bytes(8, "big") + (2).to_bytes(8, "big") + bytes(48)

    results = [uniform_below(6, blocks(v)) for v in range(8)]
    assert results == [0, 1, 2, 3, 4, 5, 2, 2]


def test_the_direct_wall_pass_encoding_is_the_canonical_one() -> None:
    body = WallPass(
        b"ctx",
        Seat.WEST,
        Phase.LOCK,
        b"\x01" * 32,
        tuple(group.hash_to_point(b"h", t) for t in range(5)),
    )
    assert body_bytes(body) == canonical_bytes(body)
    assert body_digest(body) == digest(body)
    assert body_bytes(Reveal(b"ctx", Seat.EAST, b"n")) == canonical_bytes(
        Reveal(b"ctx", Seat.EAST, b"n")
    )


def test_the_direct_reveal_and_audit_encodings_are_the_canonical_ones() -> None:
    proofs = tuple(
        KeyProof(seat, 17, scalar(int(seat))) for seat in (Seat.EAST, Seat.WEST, Seat.NORTH)
    )
    reveal = PublicReveal(b"ctx", Seat.SOUTH, 17, Kind.RED, scalar(9), proofs)
    audit = AuditReveal(b"ctx", Seat.NORTH, scalar(1), (2, 0, 1), (scalar(2), scalar(3), scalar(4)))
    for body in (reveal, audit):
        assert body_bytes(body) == canonical_bytes(body)


def test_wide_reduction_matches_libsodium() -> None:
    for n in range(20):
        wide = hashlib.sha512(b"w%d" % n).digest()
        assert group.scalar_from_wide(wide) == sodium.crypto_core_ed25519_scalar_reduce(wide)
