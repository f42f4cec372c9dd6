"""The group layer: tile points, commutative masking, the subgroup check, scalars."""

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
from fourwinds.protocol.deck.messages import Phase, Reveal, WallPass, body_bytes, body_digest
from fourwinds.protocol.seats import Seat

ORDER_TWO = (2**255 - 20).to_bytes(32, "little")  # (0, -1)


def scalar(n: int) -> bytes:
    return group.scalar_from_wide(hashlib.sha512(b"s%d" % n).digest())


def test_tile_points_differ_per_tile_and_per_hand() -> None:
    points = {group.hash_to_point(b"hand 1", t) for t in range(152)}
    assert len(points) == 152
    assert group.hash_to_point(b"hand 2", 0) not in points
    assert group.hash_to_point(b"hand 1", 7) == group.hash_to_point(b"hand 1", 7)


def test_tile_points_are_in_the_prime_order_subgroup() -> None:
    assert all(group.in_prime_subgroup(group.hash_to_point(b"h", t)) for t in range(8))


def test_subgroup_check_refuses_a_point_with_a_torsion_part() -> None:
    base = group.hash_to_point(b"h", 0)
    mixed = sodium.crypto_core_ed25519_add(base, ORDER_TWO)
    assert not group.in_prime_subgroup(mixed)
    assert not group.in_prime_subgroup(ORDER_TWO)
    assert not group.in_prime_subgroup(b"\x00" * 31)
    assert not group.in_prime_subgroup(b"\xff" * 32)


def test_library_probe_agrees_with_what_mult_does_on_a_mixed_point() -> None:
    mixed = sodium.crypto_core_ed25519_add(group.hash_to_point(b"h", 1), ORDER_TWO)
    try:
        group.mult(scalar(1), mixed)
        refused = False
    except group.BadPoint:
        refused = True
    assert group.library_checks_subgroup() is refused


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


def test_negate_is_the_additive_inverse() -> None:
    point = group.hash_to_point(b"h", 3)
    assert group.mult(group.scalar_from_int(group.L - 1), point) == group.negate(point)


def test_batch_invert_matches_single_inversions() -> None:
    scalars = [scalar(n) for n in range(20)]
    assert group.batch_invert(scalars) == [group.scalar_invert(s) for s in scalars]
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


def test_rejection_sampling_rejects_values_past_the_bound() -> None:
    # bound 6 takes 3 bits; 6 and 7 are rejected and the next 8-byte chunk is used.
    def blocks(first: int) -> Callable[[int], bytes]:
        return lambda attempt: first.to_bytes(8, "big") + (2).to_bytes(8, "big") + bytes(48)

    results = [uniform_below(6, blocks(v)) for v in range(8)]
    assert results == [0, 1, 2, 3, 4, 5, 2, 2]


def test_the_direct_wall_pass_encoding_is_the_canonical_one() -> None:
    body = WallPass(b"ctx", Seat.WEST, Phase.LOCK, b"\x01" * 32,
                    tuple(group.hash_to_point(b"h", t) for t in range(5)))
    assert body_bytes(body) == canonical_bytes(body)
    assert body_digest(body) == digest(body)
    assert body_bytes(Reveal(b"ctx", Seat.EAST, b"n")) == canonical_bytes(Reveal(b"ctx",
                                                                                 Seat.EAST, b"n"))


def test_wide_reduction_matches_libsodium() -> None:
    for n in range(20):
        wide = hashlib.sha512(b"w%d" % n).digest()
        assert group.scalar_from_wide(wide) == sodium.crypto_core_ed25519_scalar_reduce(wide)
