"""The canonical encoding every seat hashes: runs of ints take a shortcut, same bytes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fourwinds.protocol.canonical import canonical_bytes, to_plain
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind

ITEMS = st.one_of(
    st.integers(-(2**63), 2**64 - 1),
    st.booleans(),
    st.sampled_from(list(Kind)),
    st.sampled_from(list(Seat)),
    st.none(),
    st.binary(max_size=4),
)


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


def test_a_values_memo_is_not_part_of_its_canonical_form() -> None:
    """A card keeps answers derived from it in ``memo`` (memo.py), a field its constructor
    does not take: the same card encodes to the same bytes before and after it is asked."""
    from fourwinds.protocol.american.cardfile import read_card
    from fourwinds.protocol.american.compile import compiled

    text = "card: tiny\n1 | year | 25 | X | - | NNNN EEE WWW SSSS | winds\n"
    card = read_card(text)
    before = canonical_bytes(card)
    compiled(card)
    assert card.memo.table("anything") == {}
    assert canonical_bytes(card) == before
    plain = to_plain(card)
    assert isinstance(plain, list) and plain[0] == "Card" and "Memo" not in repr(plain)
