"""Hand shapes of docs/RULES.md B5 / issue 3: four sets and a pair, Seven Pairs, Thirteen Orphans,
Honors and Knitted Tiles (lesser and greater), Knitted Straight with a set and a pair."""

from __future__ import annotations

from fourwinds.protocol.mcr.shapes import (
    KNITTED_SETS,
    Reading,
    honors_and_knitted,
    is_seven_pairs,
    is_seven_shifted_pairs,
    is_thirteen_orphans,
    knitted_straight_readings,
    standard_complete,
    standard_readings,
    suit_readings,
)
from fourwinds.protocol.notation import parse_tiles


def counts(text: str) -> list[int]:
    result = [0] * 34
    for k in parse_tiles(text):
        result[k] += 1
    return result


def test_b5_four_sets_and_a_pair_all_readings() -> None:
    readings = standard_readings(counts("111222333m789s55p"))
    # 111 222 333 as pungs, or as three 123 chows.
    assert all(isinstance(r, Reading) for r in readings)
    as_pungs = [r for r in readings if len(r.pungs) == 3]
    as_chows = [r for r in readings if r.chows.count(0) == 3]
    assert len(as_pungs) == 1 and len(as_chows) == 1
    assert all(r.pair == parse_tiles("5p")[0] for r in readings)


def test_b5_four_sets_and_a_pair_rejects_incomplete() -> None:
    assert standard_readings(counts("123m456p789s1z2z")) == []
    assert not standard_complete(counts("123m456p789s1z2z"))
    assert standard_complete(counts("123m456p789s11z"))


def test_suit_readings_are_memoised_per_pattern() -> None:
    key = (3, 1, 1, 1, 1, 1, 1, 1, 4)
    assert suit_readings(key) is suit_readings(key)
    assert all(pair >= 0 for _c, _p, pair in suit_readings(key))


def test_b5_seven_pairs_allows_four_alike() -> None:
    assert is_seven_pairs(counts("1111m22p55p33s66s77z"))
    assert not is_seven_pairs(counts("111m22p55p33s66s77z5z"))


def test_b5_seven_shifted_pairs() -> None:
    assert is_seven_shifted_pairs(counts("22334455667788s"))
    assert not is_seven_shifted_pairs(counts("11223344556688s"))


def test_b5_thirteen_orphans() -> None:
    assert is_thirteen_orphans(counts("19m19p19s12345677z"))
    assert not is_thirteen_orphans(counts("19m19p19s1234567z5m"))


def test_b5_honors_and_knitted_lesser_and_greater() -> None:
    assert honors_and_knitted(counts("147m258p369s12345z")) == 1
    assert honors_and_knitted(counts("147m25p36s1234567z")) == 2
    assert honors_and_knitted(counts("147m258p369s11234z")) == 0  # a pair is not allowed
    assert honors_and_knitted(counts("147m258p3699s1234z")) == 0
    assert honors_and_knitted(counts("147m258p369s1234z4s")) == 0  # 4s not knitted with 147m


def test_b5_knitted_straight_with_a_set_and_a_pair() -> None:
    readings = knitted_straight_readings(counts("147m258p369s123s55z"))
    assert len(readings) == 1
    reading = readings[0]
    assert reading.knitted >= 0 and reading.pair == parse_tiles("5z")[0]
    assert reading.chows == tuple(parse_tiles("1s"))
    assert knitted_straight_readings(counts("147m258p368s123s55z")) == []


def test_knitted_sets_are_the_six_suit_orders() -> None:
    assert len(set(KNITTED_SETS)) == 6
    assert all(len(tiles) == 9 for tiles in KNITTED_SETS)
