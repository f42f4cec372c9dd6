"""The canonical encoding every seat hashes: runs of ints take a shortcut, same bytes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fourwinds.protocol.canonical import canonical_bytes, to_plain
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind

ITEMS = st.one_of(st.integers(-(2**63), 2**64 - 1), st.booleans(), st.sampled_from(list(Kind)),
                  st.sampled_from(list(Seat)), st.none(), st.binary(max_size=4))


@given(st.lists(ITEMS, max_size=12))
def test_a_sequence_encodes_as_its_items_one_by_one(items: list[object]) -> None:
    one_by_one = [to_plain(item) for item in items]
    for value in (items, tuple(items)):
        plain = to_plain(value)
        assert plain == one_by_one
        assert isinstance(plain, list)
        assert [type(x) for x in plain] == [type(x) for x in one_by_one]
    assert canonical_bytes(tuple(items)) == canonical_bytes(list(items))


def test_int_enum_runs_become_plain_ints() -> None:
    assert to_plain((Kind.M1, Kind.JOKER)) == [int(Kind.M1), int(Kind.JOKER)]
    assert all(type(x) is int for x in to_plain((Kind.M1, Kind.JOKER)))  # type: ignore[union-attr]
    assert to_plain((True, 1)) == [True, 1]
